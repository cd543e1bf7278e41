# The halo exchange of halo-bandwidth as a ReFrame check, written as centres
# write their OSU checks: one test per direction set, pack and method; one run
# sweeps the sizes; the sanity function requires --check to pass on every row
# and the result file to say "complete"; the performance variables are the
# rows' Uni_GBps and Time_us (and the phases with --breakdown), named
# COLUMN@SIZE ("Uni_GBps@N64"). A centre adds its references per system below.
#
#   reframe -C reframe/settings.py -c reframe/halo_bandwidth.py -r --performance-report
#
# The program is `halo-bandwidth` on PATH (spack load halo-bandwidth, a module,
# or -S executable=PATH). docs/centres.md says how to add a system.

import json
import os

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import parameter, run_after, run_before, sanity_function, variable

# References per system:partition, then per case "DIRECTION/PACK/METHOD", then
# per performance variable: (value, lower, upper, unit), the bounds as fractions
# of the value (-0.1: at most 10 % below it; None: unbounded). An example:
#   'daint:gpu': {'z/kernel/p2p': {'Uni_GBps@N512': (21.0, -0.10, None, 'GB/s'),
#                                  'Time_us@N512': (100.0, None, 0.10, 'us')}},
REFERENCES = {}

# The result file's columns that become performance variables, and their units.
COLUMNS = {'Uni_GBps': 'GB/s', 'Time_us': 'us'}
PHASES = {'Pack_us': 'us', 'Mpi_us': 'us', 'Stage_us': 'us', 'Unpack_us': 'us'}
# A row's size, by the first of these columns it has: --sizes N, --local L, else the box.
SIZE_COLUMNS = ('N', 'L', 'Global')
RESULT_FILE = 'halobw.json'


@sn.deferrable
def result_document(path):
    """The result file that --format json --output wrote, parsed."""
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def row_name(row):
    """"N64", "L32" or "Global64x64x128": the size column the row is named by, and its value."""
    key = next(k for k in SIZE_COLUMNS if row.get(k) is not None)
    return f'{key}{row[key]}'


@rfm.simple_test
class halo_bandwidth_check(rfm.RunOnlyRegressionTest):
    descr = 'halo-bandwidth: the 3D halo exchange'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    executable = 'halo-bandwidth'
    num_tasks = 2
    tags = {'benchmark', 'mpi'}

    # 'z': one face pair (--axis z; x and y as well); 'faces': all six.
    direction = parameter(['z', 'faces'])
    pack = parameter(['datatype', 'kernel'])
    method = parameter(['p2p', 'neighbor'])
    # --sizes in halo-bandwidth's forms (64,128 or 64:1024); a row each.
    sizes = variable(str, value='64,128')
    breakdown = variable(bool, value=True)
    # Further options, e.g. --iters auto, --backend cuda, --halo 2.
    options = variable(typ.List[str], value=[])

    @run_after('init')
    def set_references(self):
        case = f'{self.direction}/{self.pack}/{self.method}'
        self.reference = {system: cases.get(case, {}) for system, cases in REFERENCES.items()}

    @run_before('run')
    def set_options(self):
        where = ['--faces'] if self.direction == 'faces' else ['--axis', self.direction]
        self.executable_opts = where + ['--pack', self.pack, '--method', self.method, '--sizes', self.sizes,
                                        '--check', '--format', 'json', '--output', RESULT_FILE]
        if self.breakdown:
            self.executable_opts.append('--breakdown')
        self.executable_opts += self.options

    @sanity_function
    def validate(self):
        doc = result_document(os.path.join(self.stagedir, RESULT_FILE))
        rows = sn.len(doc['rows'])
        return sn.all([
            sn.assert_eq(self.job.exitcode, 0),
            sn.assert_eq(doc['status']['state'], 'complete'),
            sn.assert_gt(rows, 0),
            sn.assert_eq(sn.count(sn.findall(r'^# check \S+ passed', self.stdout)), rows,
                         msg='--check passed on {0} rows of {1}'),
        ])

    @run_before('performance')
    def set_perf_variables(self):
        # After the run: the rows are in the result file.
        units = dict(COLUMNS, **(PHASES if self.breakdown else {}))
        doc = result_document(os.path.join(self.stagedir, RESULT_FILE)).evaluate()
        self.perf_variables = {
            f'{column}@{row_name(row)}': sn.make_performance_function(
                result_document(os.path.join(self.stagedir, RESULT_FILE))['rows'][i][column], unit)
            for i, row in enumerate(doc['rows']) for column, unit in units.items()
        }
