#!/usr/bin/env python3
"""Tests of the result-file tooling: scripts/compare, scripts/plot, the shared reader
scripts/halobw_results.py, and the JSON schema docs/output.schema.json.

usage: test_tools.py --scripts-dir DIR --schema FILE [--only GROUP ...] [--work-dir DIR]
                     [--validate FILE ...]

Groups: compare, plot, schema, readers (default: all). --validate checks result files
written by the benchmark: a JSON file against the schema and the reader, a CSV file
against the reader and the exact format of docs/output.md (header, quoting, decimals).
Run it with the Python that has matplotlib and jsonschema (Debian: /usr/bin/python3);
the scripts under test are run with the same interpreter.

The fixtures in data/ are schema_version 3 files written by the benchmark: complete
runs, a failed one (host_failed) and an incomplete one (host_incomplete), and
not_a_result.json, a JSON document of another kind; data/v1/ and data/v2/ hold version-1
and version-2 files, which must still read. data/v4/ holds version-4 files (what ran the
ranks recorded, run.simulator): a measured run (host_z) and the same options simulated by
SimGrid's SMPI (smpi_z); data/make_fixtures.py wrote all of them.
Prints one line per check and a last line "N passed, M failed"; exit status 1 on
failure.
"""
import argparse
import ast
import copy
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
V1 = os.path.join(DATA, "v1")
GROUPS = ("compare", "plot", "schema", "readers")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# CSV/JSON fixtures of the same run (the CSV's numbers are the JSON's, rounded).
PAIRS = ("host_z", "host_overlap", "host_local_box", "host_x_self", "host_uneven", "host_failed",
         "host_incomplete", "host_auto_per_rank", "host_box_walls", "host_local_extents")
V1_PAIRS = ("host_z", "host_x_self", "cuda_direct", "cuda_staged")
V2_PAIRS = ("host_z", "host_overlap")
V2 = os.path.join(DATA, "v2")
V4 = os.path.join(DATA, "v4")
V4_PAIRS = ("host_z", "smpi_z")
NOT_A_RESULT = os.path.join(DATA, "not_a_result.json")
SPREAD = "lies within the two runs' combined spread"


def data(name):
    return os.path.join(DATA, name)


def v1(name):
    return os.path.join(V1, name)


def v2(name):
    return os.path.join(V2, name)


def v4(name):
    return os.path.join(V4, name)


def fixtures(ext, bad=False, where=DATA):
    """The result fixtures (bad: the malformed ones); not_a_result.json is neither."""
    return sorted(os.path.join(where, f) for f in os.listdir(where)
                  if f.endswith("." + ext) and f.startswith("bad_") == bad and not f.startswith("not_a_result"))


def line_of(text, needle):
    """The 1-based line of needle's first occurrence in text."""
    return text[:text.index(needle)].count("\n") + 1


def first_row(doc):
    return doc["rows"][0]


class Suite:
    def __init__(self, args):
        self.args = args
        self.passed = self.failed = 0
        self.scripts = os.path.abspath(args.scripts_dir)
        sys.path.insert(0, self.scripts)
        sys.dont_write_bytecode = True
        import halobw_results
        self.hr = halobw_results
        self.work = None

    # -- helpers -------------------------------------------------------------------------------

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {name}")
        else:
            self.failed += 1
            print(f"FAIL  {name}" + (f": {detail}" if detail else ""))
        return ok

    def fresh(self, name):
        """A path in the work directory, with no file left there by an earlier run."""
        path = os.path.join(self.work, name)
        if os.path.exists(path):
            os.remove(path)
        return path

    def run(self, script, *args):
        env = dict(os.environ, MPLCONFIGDIR=os.path.join(self.work, "mplconfig"))
        env.pop("MPLBACKEND", None)
        env.pop("DISPLAY", None)
        return subprocess.run([sys.executable, os.path.join(self.scripts, script), *args],
                              capture_output=True, text=True, env=env, timeout=120)

    def temp(self, name, text):
        path = self.fresh(name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

    def csv_variant(self, src, name, edit):
        """A copy of CSV file src with its rows (dicts, read and written with the csv module)
        changed by edit(rows); returns the copy's path."""
        with open(src, newline="") as f:
            reader = csv.DictReader(f)
            header, rows = reader.fieldnames, list(reader)
        edit(rows)
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return self.temp(name, out.getvalue())

    def expect_error(self, name, proc, prefix, rc=2):
        """proc failed with rc and its stderr's first line starts with prefix."""
        first = proc.stderr.splitlines()[0] if proc.stderr else ""
        return self.check(name, proc.returncode == rc and first.startswith(prefix),
                          f"rc {proc.returncode}, stderr {proc.stderr.strip()!r}, want {prefix!r}...")

    def read_error(self, path):
        try:
            self.hr.read(path)
        except self.hr.ResultError as e:
            return e
        return None

    def png(self, name, path):
        head = b""
        if os.path.exists(path):
            with open(path, "rb") as f:
                head = f.read(8)
        size = os.path.getsize(path) if os.path.exists(path) else 0
        self.check(f"{name}: a PNG", head == PNG_SIGNATURE, head)
        self.check(f"{name}: over 10 kB and under 2 MB", 10_000 < size < 2_000_000, f"{size} bytes")

    @staticmethod
    def plain_csv(path):
        """The rows of a CSV file as csv.DictReader gives them: versions 2 and 3 as they are, version 1
        with its '#' lines dropped (independently of halobw_results)."""
        with open(path, newline="") as f:
            text = f.read()
        lines = text.splitlines(keepends=True)
        if lines and lines[0].startswith("#"):  # version 1
            lines = [l for l in lines if not l.startswith("#")]
        return list(csv.DictReader(lines))

    @staticmethod
    def table_rows(stdout):
        """{(size cell, H cell): [cells]} of compare's table."""
        rows = {}
        for line in stdout.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            cells = line.split()
            rows[(cells[0], cells[1])] = cells
        return rows

    @staticmethod
    def bad_lines():
        """{bad fixture: the line its error names}."""
        out = {data("bad_field_count.csv"): 3, data("bad_number.csv"): 3, data("bad_missing_column.csv"): 1,
               data("bad_unclosed_quote.csv"): 4,
               v1("bad_field_count.csv"): 4, v1("bad_number.csv"): 3, v1("bad_missing_column.csv"): 2,
               v1("bad_truncated.json"): 30}
        with open(data("bad_truncated.json")) as f:
            out[data("bad_truncated.json")] = f.read().count("\n") + 1  # cut short: no line end
        with open(data("bad_n_and_l.json")) as f:
            out[data("bad_n_and_l.json")] = line_of(f.read(), '"L":8')
        return out

    # -- compare -------------------------------------------------------------------------------

    def test_compare(self):
        for script in ("compare", "plot"):
            path = os.path.join(self.scripts, script)
            with open(path) as f:
                first = f.readline().rstrip("\n")
            self.check(f"{script} is executable with a python3 shebang",
                       os.access(path, os.X_OK) and first == "#!/usr/bin/env python3", first)
        self.check_stdlib_only()
        self.compare_v1()
        self.compare_v2()
        self.compare_keys()
        self.compare_status()
        self.compare_noise()
        self.compare_boxes()
        self.compare_simulated()

        for path, line in self.bad_lines().items():
            p = self.run("compare", data("host_z.csv"), path)
            self.expect_error(f"compare {os.path.relpath(path, DATA)}: exit 2 and file:{line}", p,
                              f"compare: {path}:{line}: ")
        with open(v1("bad_truncated.json")) as f:
            self.check("v1/bad_truncated.json ends on line 30, without a newline", f.read().count("\n") == 29)
        p = self.run("compare", data("host_z.csv"))
        self.check("compare with one file: usage error, exit 2",
                   p.returncode == 2 and "usage:" in p.stderr, p.stderr)
        p = self.run("compare", data("host_z.csv"), os.path.join(self.work, "missing.csv"))
        self.expect_error("compare with a missing file: exit 2", p,
                          f"compare: {os.path.join(self.work, 'missing.csv')}: cannot read")
        p = self.run("compare", "--help")
        self.check("compare --help exits 0", p.returncode == 0 and "usage: compare" in p.stdout, p.stderr)

    def compare_simulated(self):
        """A simulated run beside a measured one: a warning on stderr, "(simulated)" in the table."""
        measured, simulated = v4("host_z.csv"), v4("smpi_z.json")
        sim = self.hr.read(simulated).runs[0].simulator
        p = self.run("compare", measured, simulated)
        lines = p.stderr.splitlines()
        want = (f"warning: {simulated}: simulated by SimGrid SMPI {sim['version']} on platform "
                f"{sim['platform']} (sha256 {sim['platform_sha256'][:12]}...) vs measured in {measured}: a "
                "simulated run's times are the model's, not a measurement")
        self.check("compare warns when it sets a simulated run beside a measured one", p.returncode == 0
                   and want in lines and sum("simulated" in l for l in lines) == 1, p.stderr)
        head = [l for l in p.stdout.splitlines() if l.startswith("# ") and "Time_us[1]" in l]
        self.check("compare's table tags the simulated file's line and columns (simulated), not the measured one's",
                   f"# [2] (simulated) {simulated}: " in p.stdout and f"# [1] {measured}: " in p.stdout
                   and head and "Time_us[2](simulated)" in head[0] and "Uni_GBps[2](simulated)" in head[0]
                   and "Time_us[1](simulated)" not in head[0], p.stdout)
        self.check("compare still pairs every row of the simulated run", len(self.table_rows(p.stdout)) == 3
                   and all(c[-1].startswith("x") for c in self.table_rows(p.stdout).values()), p.stdout)
        p = self.run("compare", simulated, measured)
        self.check("compare warns the other way round too (a measured run beside a simulated reference)",
                   p.returncode == 0 and f"warning: {measured}: measured vs simulated by SimGrid SMPI" in p.stderr
                   and f"# [1] (simulated) {simulated}: " in p.stdout, p.stderr)
        p = self.run("compare", measured, data("host_z.json"))
        self.check("compare of two measured runs (versions 4 and 3): no word of simulation",
                   p.returncode == 0 and "simulated" not in p.stderr + p.stdout, p.stderr)
        p = self.run("compare", v4("smpi_z.csv"), simulated)
        self.check("compare of the same simulation twice: no warning of it",
                   p.returncode == 0 and "simulated by" not in p.stderr, p.stderr)
        other = self.csv_variant(v4("smpi_z.csv"), "other_platform.csv",
                                 lambda rows: [r.update(platform="platforms/lumi-g-like.xml",
                                                        platform_sha256="0" * 64) for r in rows])
        p = self.run("compare", v4("smpi_z.csv"), other)
        self.check("compare warns of two simulations on different platforms",
                   p.returncode == 0 and "on platform platforms/lumi-g-like.xml" in p.stderr, p.stderr)
        # A version-3 file written under SMPI did not record the simulator: its MPI library names it.
        old = self.csv_variant(data("host_z.csv"), "v3_smpi.csv", lambda rows: [r.update(
            mpi_library="SMPI Version 3.32. Copyright The SimGrid Team 2007-2022") for r in rows])
        p = self.run("compare", data("host_z.csv"), old)
        self.check("compare tells a version-3 simulated file by its MPI library, and warns",
                   p.returncode == 0 and f"warning: {old}: simulated by SimGrid SMPI 3.32 vs measured in "
                   in p.stderr and f"# [2] (simulated) {old}" in p.stdout, p.stderr)

    def compare_v1(self):
        """Version-1 files still compare."""
        a, b = v1("cuda_direct.csv"), v1("cuda_staged.csv")
        p = self.run("compare", a, b)
        self.check("v1: compare two files exits 0", p.returncode == 0, p.stderr)
        header = [l for l in p.stdout.splitlines() if "Time_us[1]" in l]
        self.check("v1: compare prints a header line starting with #",
                   len(header) == 1 and header[0].startswith("#"), p.stdout)
        table = self.table_rows(p.stdout)
        ref, other = self.plain_csv(a), self.plain_csv(b)
        self.check("v1: compare prints one row per reference row",
                   sorted(table) == sorted((r["N"], r["halo"]) for r in ref), p.stdout)
        for r, o in zip(ref, other):
            want = f"x{float(o['Uni_GBps']) / float(r['Uni_GBps']):.2f}"
            cells = table.get((r["N"], r["halo"]), [])
            self.check(f"v1: compare N={r['N']}: ratio {want}, both rates and times",
                       cells[-1:] == [want] and r["Uni_GBps"] in cells and o["Uni_GBps"] in cells
                       and f"{float(o['Time_us']):.1f}" in cells, f"row {cells}")
        self.check("v1: compare N=1024: ratio x0.37 (50.798 / 138.011)",
                   table.get(("1024", "1"), [""])[-1] == "x0.37", table.get(("1024", "1")))

        b = v1("cuda_staged.json")
        p = self.run("compare", v1("cuda_direct.json"), b)
        lines = p.stderr.splitlines()
        self.check("v1: compare warns once of a different transport",
                   lines.count(f"warning: {b}: transport staged vs direct") == 1, p.stderr)
        self.check("v1: compare warns once of a different gpu_aware",
                   lines.count(f"warning: {b}: gpu_aware 0 vs 1") == 1, p.stderr)
        self.check("v1: compare: no schedule warning when both runs are pipelined",
                   not any(l.startswith(f"warning: {b}: schedule ") for l in lines), p.stderr)
        self.check("v1: compare names each file's schedule in the table's head",
                   "transport direct, schedule pipelined, gpu_aware 1" in p.stdout
                   and "transport staged, schedule pipelined, gpu_aware 0" in p.stdout, p.stdout)

        with open(v1("cuda_direct.json")) as f:
            text = f.read()
        b = self.temp("cuda_direct_bulk.json", text.replace('"schedule": "pipelined"', '"schedule": "bulk"'))
        p = self.run("compare", v1("cuda_direct.json"), b)
        lines = p.stderr.splitlines()
        self.check("v1: compare warns once of a different schedule, and of no other setting",
                   p.returncode == 0 and [l for l in lines if SPREAD not in l]
                   == [f"warning: {b}: schedule bulk vs pipelined"], p.stderr)
        self.check("v1: compare warns that each ratio x1.00 lies within the two runs' spread (repeats 5)",
                   [l for l in lines if SPREAD in l] ==
                   [f"warning: {b} N={n} H=1: ratio x1.00 {SPREAD} (x0.91 to x1.09 from each row's Min_us and "
                    "Max_us): not told apart from noise" for n in (512, 1024, 1536)], p.stderr)
        p = self.run("compare", v1("empty_rows.json"), data("host_z.csv"))
        self.check("compare with a reference without rows exits 0", p.returncode == 0, p.stderr)

        b = data("host_z.csv")
        p = self.run("compare", v1("host_z.csv"), b)
        lines = p.stderr.splitlines()
        self.check("compare a version-1 file against a version-3 one: exit 0, the settings v1 predates "
                   "compare as v1 ran (hugepages off)",
                   p.returncode == 0 and f"warning: {b}: hugepages on vs off" in lines
                   and not any(re.match(rf"warning: {re.escape(b)}: (method|fields|stencil|messages) ", l)
                               for l in lines), p.stderr)

    def compare_v2(self):
        a, b, c = data("host_z.csv"), data("host_z.json"), data("concat.csv")
        p = self.run("compare", a, b, c)
        table = self.table_rows(p.stdout)
        ref = self.plain_csv(a)
        self.check("compare CSV against JSON and concatenated CSV of the same run: x1.00, no warning",
                   p.returncode == 0 and sorted(table) == sorted((r["N"], r["H"]) for r in ref)
                   and "warning" not in p.stderr and all(c.count("x1.00") == 2 for c in table.values()),
                   p.stdout + p.stderr)
        self.check("compare heads the size column N for rows of global sizes",
                   re.search(r"^#\s+N\s+H\s+directions\s+grid\s+pack\s+Time_us\[1\]", p.stdout, re.M) is not None,
                   p.stdout)
        self.check("compare notes rows of a later file that match no reference row",
                   f"note: {c}:6: N=16 H=1 z 1x2x2 datatype p2p star fields 1 aggregated has no row in {a}"
                   in p.stderr.splitlines(), p.stderr)

        a, b = data("host_overlap.csv"), data("host_overlap.json")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        self.check("compare: a halo sweep's rows are told apart by H (16/1 16/2 32/1 32/2), x1.00 each",
                   sorted(table) == [("16", "1"), ("16", "2"), ("32", "1"), ("32", "2")]
                   and all(c[-1] == "x1.00" for c in table.values())
                   and all(SPREAD in l for l in p.stderr.splitlines()), p.stdout + p.stderr)
        self.check("compare: with repeats 2 on both sides, each x1.00 is named as within the combined spread",
                   sorted(re.findall(r" (N=\d+ H=\d+): ratio x1\.00 " + SPREAD, p.stderr))
                   == ["N=16 H=1", "N=16 H=2", "N=32 H=1", "N=32 H=2"], p.stderr)

        a, b = data("host_local_box.csv"), data("host_local_box.json")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        ratios = [float(c[-1][1:]) for c in table.values() if c[-1].startswith("x")]
        self.check("compare shows L instead of N for --local rows",
                   re.search(r"^#\s+L\s+H\s+directions", p.stdout, re.M) is not None
                   and sorted(table) == [("12", "1"), ("8", "1")], p.stdout)
        self.check("compare pairs the L rows of a CSV and a JSON file of one run, no warning",
                   len(ratios) == 2 and all(0.9 <= r <= 1.1 for r in ratios) and "warning" not in p.stderr,
                   p.stdout + p.stderr)

        a, b = data("host_z.csv"), data("host_local_overlap.json")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        self.check("compare never pairs N=16 with L=16 (same H and directions)",
                   table.get(("16", "1"), [])[-3:] == ["-", "-", "-"]
                   and f"warning: {b}: local 1 vs 0" in p.stderr.splitlines()
                   and any(l.startswith(f"note: {b}:") and "L=16 H=1 z" in l for l in p.stderr.splitlines()),
                   p.stdout + p.stderr)

        mixed = self.temp("mixed.csv", "".join(open(f, newline="").read()
                                               for f in (data("host_z.csv"), data("host_local_box.csv"))))
        p = self.run("compare", mixed, data("host_z.json"))
        table = self.table_rows(p.stdout)
        self.check("compare: a reference with N and L rows heads the column 'size', cells N=16, L=8",
                   re.search(r"^#\s+size\s+H", p.stdout, re.M) is not None
                   and ("N=16", "1") in table and ("L=8", "1") in table, p.stdout)

        p = self.run("compare", data("host_x_self.csv"), data("host_z.csv"))
        self.check("compare prints '-' for the ratio when the reference rate is 0",
                   p.returncode == 0 and all(c[-1] == "-" for c in self.table_rows(p.stdout).values()),
                   p.stdout)

        b = self.csv_variant(data("host_z.csv"), "host_z_settings.csv", lambda rows: [
            r.update(hugepages="off", Field_MiB="", Huge_MiB="", streams="2", progress="poll") for r in rows])
        p = self.run("compare", data("host_z.csv"), b)
        want = [f"warning: {b}: hugepages off vs on", f"warning: {b}: streams 2 vs 1",
                f"warning: {b}: progress poll vs wait"]
        self.check("compare warns once per file of hugepages, streams and progress, and pairs the rows",
                   [l for l in p.stderr.splitlines() if l.startswith("warning")] == want
                   and all(c[-1] == "x1.00" for c in self.table_rows(p.stdout).values()), p.stderr)
        self.check("compare says once that ratios of rows without a spread (repeats 1) are not judged against "
                   "noise", [l for l in p.stderr.splitlines() if l.startswith("note")] ==
                   [f"note: {b}: ratios not judged against noise where a row has no spread (repeats 1 here, 1 in "
                    f"{data('host_z.csv')}): run both with --repeats 3 or more"], p.stderr)

    def compare_keys(self):
        """fields, messages and method are in the key: a loose pair, and a warning per row."""
        a, b = data("host_faces.csv"), data("host_faces_separate.csv")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        ref, other = self.plain_csv(a), self.plain_csv(b)
        for r, o in zip(ref, other):
            line = (f"warning: {b} N={r['N']} H=1: fields 3 vs 1, messages separate vs aggregated, "
                    "method persistent vs p2p")
            self.check(f"compare warns that N={r['N']} paired on size, H, directions despite fields, "
                       "messages, method", line in p.stderr.splitlines(), p.stderr)
            want = f"x{float(o['Uni_GBps']) / float(r['Uni_GBps']):.2f}"
            cells = table.get((r["N"], "1"), [""] * 10)
            self.check(f"compare N={r['N']} across methods: ratio {want}, and the table says what differs",
                       cells[9] == want and " ".join(cells[10:]) == "fields 3, messages separate, method persistent",
                       cells)
        self.check("compare: fields, messages and method are key settings: no once-per-file warning for them",
                   not any(re.match(rf"warning: {re.escape(b)}: ", l) for l in p.stderr.splitlines()), p.stderr)

        persistent = self.csv_variant(data("host_z.csv"), "host_z_persistent.csv",
                                      lambda rows: [r.update(method="persistent") for r in rows])
        p = self.run("compare", data("host_z.csv"), persistent)
        self.check("compare pairs another method loosely and warns per row",
                   [l for l in p.stderr.splitlines() if l.startswith("warning")] ==
                   [f"warning: {persistent} N={n} H=1: method persistent vs p2p" for n in (16, 32, 48)],
                   p.stderr)
        both = self.temp("host_z_both.csv", open(persistent).read() + open(data("host_z.csv")).read())
        p = self.run("compare", data("host_z.csv"), both)
        notes = [l for l in p.stderr.splitlines() if l.startswith("note") and "not judged" not in l]
        self.check("compare prefers the row with the same method: x1.00, the persistent rows noted",
                   all(c[-1] == "x1.00" for c in self.table_rows(p.stdout).values()) and "warning" not in p.stderr
                   and notes == [f"note: {both}:{n}: N={s} H=1 z 1x1x2 datatype persistent star fields 1 "
                                 f"aggregated has no row in {data('host_z.csv')}"
                                 for n, s in ((2, 16), (3, 32), (4, 48))], p.stderr)

        two = self.temp("faces_two_runs.csv", open(a, newline="").read()
                        + "".join(open(b, newline="").readlines()[1:]))
        p = self.run("compare", two, b)
        body = [l.split() for l in p.stdout.splitlines() if l and not l.startswith("#")]
        self.check("compare shows method, fields, messages as columns when the reference's rows differ in "
                   "them; each row pairs with its own method",
                   re.search(r"^#\s+N\s+H\s+directions\s+grid\s+pack\s+method\s+fields\s+messages\s+Time_us",
                             p.stdout, re.M) is not None
                   and [(c[5], c[-1]) for c in body] == [("p2p", "-"), ("p2p", "-"), ("persistent", "x1.00"),
                                                         ("persistent", "x1.00")], p.stdout)

        b = data("host_z_kernel.csv")
        p = self.run("compare", data("host_z.csv"), b)
        lines = p.stderr.splitlines()
        self.check("compare: pack kernel pairs loosely (pack in the key), transport and schedule warned once",
                   f"warning: {b} N=16 H=1: pack kernel vs datatype" in lines
                   and lines.count(f"warning: {b}: transport direct vs datatype") == 1
                   and lines.count(f"warning: {b}: schedule bulk vs -") == 1, p.stderr)
        body = [l.split() for l in p.stdout.splitlines() if l and not l.startswith("#")]
        self.check("compare's table shows what differs, in the table: differs[2] 'pack kernel' on the paired "
                   "rows, and file 2's line names transport and schedule against file 1's",
                   re.search(r"^#.*ratio\[2\]\s+differs\[2\]$", p.stdout, re.M) is not None
                   and [c[-2:] for c in body[:2]] == [["pack", "kernel"], ["pack", "kernel"]]
                   and body[2][-1] == "-"
                   and "differs from [1] in transport direct (vs datatype), schedule bulk (vs -)" in p.stdout,
                   p.stdout)

        b = data("host_z.csv")
        p = self.run("compare", data("host_local_box.csv"), b)
        lines = p.stderr.splitlines()
        self.check("compare: nothing paired: the key settings and local are named once, with rma_sync",
                   all(f"warning: {b}: {w}" in lines for w in ("method p2p vs rma", "stencil star vs box",
                                                                 "local 0 vs 1", "rma_sync - vs pscw")), p.stderr)

    def compare_boxes(self):
        """Boxes of extents pair by their box, whatever columns the files wrote; periodic is in the key;
        the placement is a run setting."""
        a, b = data("host_box_walls.csv"), data("host_box_walls.json")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        self.check("compare: a box of extents and a cube in one run: the size column 'size', cells Global=16x12x8 "
                   "and N=12, each paired x1.00 across CSV and JSON, no warning",
                   p.returncode == 0 and re.search(r"^#\s+size\s+H\s+directions", p.stdout, re.M) is not None
                   and sorted(table) == [("Global=16x12x8", "1"), ("N=12", "1")]
                   and all(c[-1] == "x1.00" for c in table.values()) and "warning" not in p.stderr,
                   p.stdout + p.stderr)
        cubes = self.csv_variant(a, "cube_only.csv", lambda rows: (rows.pop(0), rows[0].update(N="12")))
        p = self.run("compare", cubes, b)
        table = self.table_rows(p.stdout)
        box_line = line_of(open(b).read(), '"Global":"16x12x8"')
        self.check("compare: N=12 of a run of cubes pairs with the 12x12x12 row of a run that wrote no N",
                   p.returncode == 0 and re.search(r"^#\s+N\s+H", p.stdout, re.M) is not None
                   and list(table) == [("12", "1")] and table[("12", "1")][-1] == "x1.00"
                   and f"note: {b}:{box_line}: Global=16x12x8 H=1 all" in p.stderr,
                   p.stdout + p.stderr)
        walls = self.csv_variant(a, "no_walls.csv", lambda rows: [r.update(periodic="xyz", BoundaryFaces="0")
                                                                  for r in rows])
        p = self.run("compare", a, walls)
        lines = p.stderr.splitlines()
        self.check("compare: periodic is in the key: walls and none pair loosely, a warning per row",
                   p.returncode == 0 and f"warning: {walls} Global=16x12x8 H=1: periodic xyz vs x" in lines
                   and f"warning: {walls} N=12 H=1: periodic xyz vs x" in lines
                   and not any(l.startswith(f"warning: {walls}: periodic") for l in lines), p.stderr)
        both = self.temp("walls_both.csv", open(a).read() + "".join(open(walls).readlines()[1:]))
        p = self.run("compare", both, a)
        body = [l.split() for l in p.stdout.splitlines() if l and not l.startswith("#")]
        self.check("compare shows periodic as a column when the reference's rows differ in it, and pairs each "
                   "with its own",
                   re.search(r"^#\s+size\s+H\s+directions\s+grid\s+pack\s+periodic\s+Time_us", p.stdout, re.M)
                   is not None and [(c[5], c[-1]) for c in body] == [("x", "x1.00"), ("x", "x1.00"), ("xyz", "-"),
                                                                     ("xyz", "-")], p.stdout)
        cart = self.csv_variant(a, "cart.csv", lambda rows: [r.update(placement="cart") for r in rows])
        p = self.run("compare", a, cart)
        self.check("compare: another placement pairs every row (x1.00), warned once per file",
                   p.returncode == 0 and [l for l in p.stderr.splitlines() if l.startswith("warning")]
                   == [f"warning: {cart}: placement cart vs linear"]
                   and all(c[-1] == "x1.00" for c in self.table_rows(p.stdout).values()), p.stdout + p.stderr)
        nodes = self.csv_variant(a, "nodes.csv", lambda rows: [r.update(placement="nodes", node_grid="1x1x1")
                                                               for r in rows])
        p = self.run("compare", a, nodes)
        self.check("compare names the node grid beside the placement",
                   [l for l in p.stderr.splitlines() if l.startswith("warning")]
                   == [f"warning: {nodes}: placement nodes vs linear", f"warning: {nodes}: node_grid 1x1x1 vs -"],
                   p.stderr)
        a, b = data("host_local_extents.csv"), data("host_local_extents.json")
        p = self.run("compare", a, b)
        table = self.table_rows(p.stdout)
        self.check("compare: per-rank bricks pair as Local=8x6x4 and L=6, x1.00",
                   p.returncode == 0 and sorted(table) == [("L=6", "1"), ("Local=8x6x4", "1")]
                   and all(c[-1] == "x1.00" for c in table.values()), p.stdout + p.stderr)
        p = self.run("compare", data("host_box_walls.csv"), b)
        self.check("compare never pairs a global box with a per-rank brick",
                   p.returncode == 0 and all(c[-3:] == ["-", "-", "-"] for c in self.table_rows(p.stdout).values()),
                   p.stdout)

    def compare_status(self):
        """A failed or incomplete run's file: a warning that says so, and its rows still shown."""
        failed, incomplete = data("host_failed.json"), data("host_incomplete.csv")
        reason = self.hr.read(failed).status["reason"] or ""
        p = self.run("compare", data("host_z.csv"), failed, incomplete)
        table = self.table_rows(p.stdout)
        lines = p.stderr.splitlines()
        self.check("host_failed.json says why it failed: the spoiled ghost cell of N=32",
                   reason.startswith("check N=32 failed: rank 1 face ") and "found 12345" in reason, reason)
        self.check("compare warns of a failed run's file: exit code and reason, its row shown",
                   p.returncode == 0 and f"warning: {failed}: run failed (exit 1): {reason}; the 1 row it "
                   "measured is shown" in lines, p.stderr)
        self.check("compare warns of an incomplete run's file, its row shown",
                   f"warning: {incomplete}: run incomplete: the file was written while the run was still "
                   "measuring (a job killed from outside, or one still running); the 1 row it measured is shown"
                   in lines, p.stderr)
        self.check("compare shows the failed and the incomplete file's row N=16 (ratios, not '-'), and '-' "
                   "for the rows they never measured",
                   table[("16", "1")][-1].startswith("x") and table[("16", "1")][-4].startswith("x")
                   and table[("32", "1")][-6:] == ["-"] * 6, p.stdout)
        self.check("compare's head says which file's run failed and which is incomplete",
                   re.search(r"^# \[2\] .*, run failed \(exit 1\)$", p.stdout, re.M) is not None
                   and re.search(r"^# \[3\] .*, run incomplete$", p.stdout, re.M) is not None, p.stdout)
        p = self.run("compare", failed, data("host_z.json"))
        self.check("compare warns of a failed reference too, and pairs its row",
                   p.returncode == 0 and any(l.startswith(f"warning: {failed}: run failed (exit 1): ")
                                             for l in p.stderr.splitlines())
                   and self.table_rows(p.stdout)[("16", "1")][-1].startswith("x"), p.stdout + p.stderr)
        two = self.temp("complete_then_failed.csv", open(data("host_z.csv"), newline="").read()
                        + open(data("host_failed.csv"), newline="").read())
        p = self.run("compare", data("host_z.json"), two)
        self.check("compare names the failed run of a CSV file of two runs by its first line",
                   any(l.startswith(f"warning: {two}:6: run failed (exit 1): ") for l in p.stderr.splitlines())
                   and not any(l.startswith(f"warning: {two}:2:") for l in p.stderr.splitlines()), p.stderr)
        p = self.run("compare", data("host_z.csv"), data("host_x_self.json"))
        self.check("compare: a complete run's file, even one that warned (nothing crossed ranks), gets no "
                   "status warning", p.returncode == 0 and "run failed" not in p.stderr
                   and "run incomplete" not in p.stderr, p.stderr)

    def compare_noise(self):
        """Oversubscribed against not; a ratio within the two runs' combined spread."""
        ref = data("host_z.csv")
        over = self.csv_variant(ref, "host_z_over.csv", lambda rows: [
            r.update(oversubscribed="1", ranks_per_core="2.00") for r in rows])
        p = self.run("compare", ref, over)
        lines = p.stderr.splitlines()
        want = (f"warning: {over}: oversubscribed, 2.00 ranks per core vs not oversubscribed, 1.00 ranks per "
                f"core in {ref}: an oversubscribed run times the scheduler as much as MPI")
        self.check("compare warns once when one side is oversubscribed and the other not",
                   p.returncode == 0 and lines.count(want) == 1, p.stderr)
        self.check("compare's head says which file is oversubscribed",
                   re.search(r"^# \[2\] .*, oversubscribed \(2\.00 ranks per core\)$", p.stdout, re.M)
                   is not None, p.stdout)
        other_mpi = self.csv_variant(ref, "host_z_mpich.csv", lambda rows: [
            r.update(mpi_library="MPICH Version: 5.0.2") for r in rows])
        p = self.run("compare", ref, other_mpi)
        self.check("compare warns once when the two runs used different MPI libraries",
                   p.returncode == 0 and sum(1 for l in p.stderr.splitlines()
                                             if l.startswith(f"warning: {other_mpi}: mpi_library 'MPICH Version: "
                                                             "5.0.2' vs '")) == 1, p.stderr)
        p = self.run("compare", ref, ref)
        self.check("compare: no library warning for one library", "mpi_library" not in p.stderr, p.stderr)
        p = self.run("compare", over, over)
        self.check("compare: no oversubscription warning when both sides are", "oversubscribed," not in p.stderr,
                   p.stderr)
        p = self.run("compare", v2("host_z.csv"), over)
        self.check("compare: no oversubscription warning against a version-2 file, which did not record it",
                   p.returncode == 0 and "oversubscribed," not in p.stderr, p.stderr)

        a = data("host_overlap.csv")

        def twice_as_fast(rows):
            for r in rows:
                for k in ("Time_us", "Min_us", "Max_us"):
                    r[k] = f"{float(r[k]) / 2:.1f}"
                for k in ("Uni_GBps", "Duplex_GBps"):
                    r[k] = f"{float(r[k]) * 2:.3f}"
        fast = self.csv_variant(a, "host_overlap_fast.csv", twice_as_fast)
        p = self.run("compare", a, fast)
        self.check("compare: a ratio of x2 beyond both rows' spreads is not called noise",
                   p.returncode == 0 and SPREAD not in p.stderr
                   and all(c[-1] in ("x2.00", "x1.99", "x2.01") for c in self.table_rows(p.stdout).values()),
                   p.stdout + p.stderr)

        def slower(rows):
            r = rows[0]  # N=16 H=1: 5 % slower, within its spread
            r["Time_us"] = f"{float(r['Time_us']) * 1.05:.1f}"
            r["Uni_GBps"] = f"{float(r['Send_B']) / float(r['Time_us']) / 1e3:.3f}"
            r["Duplex_GBps"] = f"{2 * float(r['Uni_GBps']):.3f}"
        slow = self.csv_variant(a, "host_overlap_slow.csv", slower)
        p = self.run("compare", a, slow)
        spread = [l for l in p.stderr.splitlines() if SPREAD in l]
        self.check("compare: a row 5% slower within its spread is named, with the range of ratios the spreads "
                   "allow", any(re.match(rf"warning: {re.escape(slow)} N=16 H=1: ratio x0\.9[0-9] {SPREAD} "
                                         r"\(x0\.[0-9]{2} to x1\.[0-9]{2} from each row's Min_us and Max_us\): "
                                         r"not told apart from noise$", l) for l in spread), p.stderr)

    def check_stdlib_only(self):
        for name in ("compare", "halobw_results.py"):
            with open(os.path.join(self.scripts, name)) as f:
                tree = ast.parse(f.read())
            mods = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    mods |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    mods.add(node.module.split(".")[0])
            foreign = sorted(m for m in mods if m not in sys.stdlib_module_names and m != "halobw_results")
            self.check(f"{name} imports the standard library only", not foreign, foreign)

    # -- plot ------------------------------------------------------------------------------------

    def test_plot(self):
        out = self.fresh("halo.png")
        p = self.run("plot", data("host_z.json"), data("host_overlap.csv"), v1("cuda_direct.csv"),
                     v1("cuda_staged.json"), data("host_x_self.csv"), "-o", out, "--title", "fixtures")
        self.check("plot exits 0 (version 1 and 2 files together)", p.returncode == 0, p.stderr)
        self.png("plot", out)
        self.check("plot notes the rows with Send_B 0 it skips",
                   f"note: {data('host_x_self.csv')}:2: N=16 H=1 x" in p.stderr, p.stderr)

        out2 = self.fresh("none.png")
        p = self.run("plot", data("host_x_self.csv"), "-o", out2)
        self.check("plot with nothing to plot exits 1 and writes nothing",
                   p.returncode == 1 and not os.path.exists(out2), p.stderr)
        lines = self.bad_lines()
        for path in (data("bad_truncated.json"), data("bad_field_count.csv"), v1("bad_truncated.json")):
            p = self.run("plot", data("host_z.csv"), path, "-o", out2)
            self.expect_error(f"plot {os.path.relpath(path, DATA)}: exit 2 and file:line", p,
                              f"plot: {path}:{lines[path]}: ")
        p = self.run("plot", data("host_z.csv"))
        self.check("plot without -o: usage error, exit 2", p.returncode == 2 and "usage:" in p.stderr,
                   p.stderr)
        p = self.run("plot", "--help")
        self.check("plot --help documents --overlap",
                   p.returncode == 0 and "--overlap" in p.stdout and "Hidden" in p.stdout, p.stdout)

        out = self.fresh("overlap.png")
        p = self.run("plot", "--overlap", data("host_overlap.csv"), data("host_local_overlap.json"),
                     data("host_z.csv"), "-o", out)
        self.check("plot --overlap exits 0 (N and L rows, a file without overlap columns)",
                   p.returncode == 0, p.stderr)
        self.png("plot --overlap", out)
        self.check("plot --overlap notes a file without the overlap columns",
                   f"note: {data('host_z.csv')}: no row has the overlap columns" in p.stderr, p.stderr)

        na = self.csv_variant(data("host_overlap.csv"), "hidden_na.csv",
                              lambda rows: rows[0].update(Hidden="n/a"))
        out = self.fresh("overlap_na.png")
        p = self.run("plot", "--overlap", na, "-o", out)
        self.check("plot --overlap leaves out Hidden n/a", p.returncode == 0 and os.path.exists(out), p.stderr)
        self.plot_status()
        self.plot_hidden()
        self.plot_boxes()
        self.plot_readable()
        self.plot_simulated()

    def plot_simulated(self):
        """A simulated run's lines say so in the legend, and are never one line with a measured run's."""
        plot = self.plot_module()
        files = [self.hr.read(v4("host_z.json")), self.hr.read(v4("smpi_z.csv"))]
        series = plot.collect(files)
        names = plot.labels(series)
        tagged = [names[id(s)] for s in series if names[id(s)].endswith(" (simulated)")]
        self.check("plot labels the simulated run's line (simulated), the measured run's not",
                   len(series) == 2 and tagged == [names[id(series[1])]]
                   and tagged[0].startswith("smpi_z.csv "), list(names.values()))
        # The same configuration simulated and measured in one CSV file: two lines, one tagged.
        with open(v4("host_z.csv")) as a, open(v4("smpi_z.csv")) as b:
            both = self.temp("both.csv", a.read() + b.read().split("\n", 1)[1])
        series = plot.collect([self.hr.read(both)])
        names = plot.labels(series)
        self.check("plot: a measured and a simulated run of one CSV file are two lines, the simulated one tagged",
                   len(series) == 2 and sum(n.endswith(" (simulated)") for n in names.values()) == 1,
                   list(names.values()))
        out = self.fresh("simulated.png")
        p = self.run("plot", v4("host_z.json"), v4("smpi_z.json"), "-o", out)
        self.check("plot of a measured and a simulated run exits 0", p.returncode == 0, p.stderr)
        self.png("plot of a measured and a simulated run", out)

    def plot_readable(self):
        """For people who look: Min/Max bars where --repeats gave them, enough labelled ticks
        to read every point, a line under the plot that explains the legend's keys, and a word in an
        empty Hidden panel."""
        import argparse
        import contextlib
        plot = self.plot_module()
        plt, ticker = plot.import_pyplot()
        args = argparse.Namespace(title=None, overlap=False)
        f = self.hr.read(data("host_overlap.json"))
        series = plot.collect([f])
        with contextlib.redirect_stderr(io.StringIO()):
            fig = plot.plot_rates(args, [f], series, plot.labels(series))
        ax = fig.axes[0]
        bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.check("plot draws each row's Min/Max as a bar where --repeats gave them, and says so in the legend",
                   len(bars) == len(series) and any(t.startswith("bars: the slowest to the fastest timed block")
                                                    for t in legend), legend)
        self.check("plot explains its legend's keys in a line under the plot",
                   any(t.get_text().startswith("legend: FILE directions/grid/pack/transport") for t in fig.texts),
                   [t.get_text() for t in fig.texts])
        plt.close(fig)
        for lo, hi in ((4.2, 6.1), (1.5, 14.0), (0.01, 50.0)):
            fig, ax = plt.subplots()
            ax.set_yscale("log")
            ax.plot([1, 2], [lo, hi])
            plot.log_axis(ticker, ax.yaxis, lambda v, _pos=None: f"{v:.3g}", [lo, hi])
            fig.canvas.draw()
            y0, y1 = ax.get_ylim()
            shown = [t.get_text() for t in ax.yaxis.get_ticklabels() if t.get_text() and y0 <= t.get_position()[1] <= y1]
            self.check(f"plot labels at least 3 ticks on a log axis from {lo} to {hi}", len(shown) >= 3, shown)
            plt.close(fig)
        args.overlap = True
        for name, want in (("host_overlap.json", True), ("hidden_some.csv", False)):
            path = data(name) if want else os.path.join(self.work, name)
            f = self.hr.read(path)
            series = plot.collect([f])
            with contextlib.redirect_stderr(io.StringIO()):
                fig = plot.plot_overlap(args, [f], series, plot.labels(series))
            said = any(t.get_text().startswith("no share to draw") for t in fig.axes[1].texts)
            self.check(f"plot --overlap {name}: a note in the Hidden panel {'when' if want else 'only when'} no "
                       "row has a share", said == want, [t.get_text() for t in fig.axes[1].texts])
            plt.close(fig)

    def plot_boxes(self):
        """--overlap with boxes of extents: each at the side of a cube of as many cells, labelled with its
        extents; a Hidden of none is a gap there too."""
        boxes = data("host_box_overlap.json")
        out = self.fresh("overlap_boxes.png")
        p = self.run("plot", "--overlap", boxes, data("host_overlap.csv"), "-o", out)
        self.check("plot --overlap exits 0 with boxes of extents (Global) beside cubes (N)", p.returncode == 0,
                   p.stderr)
        self.png("plot --overlap with boxes", out)
        plot = self.plot_module()
        rows = self.hr.read(boxes).rows
        ticks = plot.tick_labels(rows)
        self.check("plot: a box's tick is at the side of a cube of as many cells (16x16x8 at 2048^(1/3)), labelled "
                   "with its extents; a cube's at its side",
                   ticks == {2048 ** (1 / 3): "16x16x8", 16.0: "16", 8192 ** (1 / 3): "32x16x16"}, ticks)
        same = rows[:1] + [copy.copy(rows[0])]
        same[1].measured = dict(rows[0].measured, Global="8x16x16")
        self.check("plot: boxes of as many cells share a tick, both named",
                   plot.tick_labels(same) == {2048 ** (1 / 3): "16x16x8/8x16x16"}, plot.tick_labels(same))
        import contextlib
        with contextlib.redirect_stderr(io.StringIO()):  # its notes of Hidden none
            points = plot.hidden_points(rows)
        self.check("plot: Hidden points stand at the rows' sides, in order",
                   [round(x, 6) for x, _ in points] == [round(r.side, 6) for r in rows], points)
        self.check("plot: the x axis names the kinds of size it shows",
                   plot.SIZE_AXIS["Global"].startswith("Global: global box") and
                   plot.SIZE_AXIS["Local"].startswith("Local: per-rank brick"), plot.SIZE_AXIS)

    def plot_status(self):
        """Files that are no result are skipped; failed and incomplete runs are plotted, with a warning."""
        presets = os.path.join(os.path.dirname(self.scripts), "CMakePresets.json")
        out = self.fresh("skip.png")
        p = self.run("plot", data("host_z.json"), NOT_A_RESULT, presets, "-o", out)
        lines = p.stderr.splitlines()
        self.check("plot skips JSON documents that are no result (CMakePresets.json), with a note each, and "
                   "plots the rest", p.returncode == 0 and os.path.exists(out)
                   and f'note: {NOT_A_RESULT}:1: "schema" must be "halo-bandwidth-result", absent: not a '
                   "halo-bandwidth result: skipped" in lines
                   and any(l.startswith(f"note: {presets}:") and l.endswith("skipped") for l in lines), p.stderr)
        empty = self.temp("empty.json", "")
        other = self.temp("other.csv", "a,b,c\n1,2,3\n")
        out = self.fresh("none_result.png")
        p = self.run("plot", NOT_A_RESULT, empty, other, "-o", out)
        self.check("plot with no result file among its files: a note for each, exit 1, no PNG",
                   p.returncode == 1 and not os.path.exists(out) and p.stderr.count("skipped") == 3
                   and "no file is a halo-bandwidth result" in p.stderr, p.stderr)
        p = self.run("plot", data("host_z.csv"), data("bad_truncated.json"), "-o", out)
        self.check("plot: a result file cut short is still an error, not skipped",
                   p.returncode == 2 and p.stderr.startswith(f"plot: {data('bad_truncated.json')}:"), p.stderr)

        out = self.fresh("failed.png")
        failed, incomplete = data("host_failed.json"), data("host_incomplete.csv")
        p = self.run("plot", failed, incomplete, "-o", out)
        lines = p.stderr.splitlines()
        self.check("plot warns of a failed run's file (exit code, reason) and of an incomplete one",
                   p.returncode == 0 and any(l.startswith(f"warning: {failed}: run failed (exit 1): check N=32 "
                                                          "failed: ") and l.endswith("; its rows measured before "
                                                                                     "are plotted") for l in lines)
                   and any(l.startswith(f"warning: {incomplete}: run incomplete: ") for l in lines), p.stderr)
        self.png("plot of a failed and an incomplete run", out)

    def plot_module(self):
        """scripts/plot imported as a module (it has no .py)."""
        import importlib.machinery
        import importlib.util
        path = os.path.join(self.scripts, "plot")
        loader = importlib.machinery.SourceFileLoader("halobw_plot", path)
        spec = importlib.util.spec_from_loader("halobw_plot", loader)
        module = importlib.util.module_from_spec(spec)
        loader.exec_module(module)
        return module

    def plot_hidden(self):
        """Hidden none is a gap (no point); version 2's Hidden, another formula, is left out."""
        def some_none(rows):
            rows[0]["Hidden"] = "0.40"   # N=16 H=1
            rows[1]["Hidden"] = ""       # N=16 H=2: no share
            rows[2]["Hidden"] = "0.75"   # N=32 H=1
            rows[3]["Hidden"] = ""       # N=32 H=2
        mixed = self.csv_variant(data("host_overlap.csv"), "hidden_some.csv", some_none)
        out = self.fresh("overlap_some.png")
        p = self.run("plot", "--overlap", mixed, "-o", out)
        notes = [l for l in p.stderr.splitlines() if "Hidden none" in l]
        self.check("plot --overlap notes each row whose Hidden is none: no point",
                   p.returncode == 0 and os.path.exists(out) and len(notes) == 2
                   and all(l.startswith(f"note: {mixed}:") and l.endswith("or not a share): no point") for l in notes)
                   and any(":3: N=16 H=2: Hidden none" in l for l in notes), p.stderr)
        plot = self.plot_module()
        import contextlib
        f = self.hr.read(mixed)
        with contextlib.redirect_stderr(io.StringIO()):
            pts = {h: plot.hidden_points([r for r in f.rows if r["H"] == h]) for h in (1, 2)}
        nan = [[y != y for _, y in pts[h]] for h in (1, 2)]
        self.check("plot's Hidden points: the share where there is one, NaN (a gap, no marker) where none",
                   [x for x, _ in pts[1]] == [16, 32] and [y for _, y in pts[1]] == [0.40, 0.75]
                   and nan == [[False, False], [True, True]], pts)
        with contextlib.redirect_stderr(io.StringIO()):
            old = plot.hidden_points(self.hr.read(v2("host_overlap.csv")).rows)
        self.check("plot's Hidden points: a version-2 file's Hidden (another formula) is left out",
                   old and all(y != y for _, y in old), old)
        p = self.run("plot", "--overlap", v2("host_overlap.json"), "-o", self.fresh("overlap_v2.png"))
        self.check("plot --overlap says why a version-2 file's Hidden is left out",
                   p.returncode == 0 and f"note: {v2('host_overlap.json')}: version 2: its Hidden is (Blocking_us - "
                   "Overlap_us) / Time_us, not today's share: left out of the Hidden panel" in p.stderr, p.stderr)

        import argparse as ap
        with contextlib.redirect_stderr(io.StringIO()):
            series = plot.collect([f])
            fig = plot.plot_overlap(ap.Namespace(title=None), [f], series, plot.labels(series))
        bottom = fig.axes[1]
        label = bottom.get_ylabel().replace("\n", " ")
        lines = [l for l in bottom.get_lines() if list(l.get_xdata()) == [16, 32]]  # not the lines at 0 and 1
        ys = sorted(tuple(bool(v == v) for v in l.get_ydata()) for l in lines)
        self.check("plot --overlap labels the Hidden axis with today's formula",
                   label == "Hidden: (Blocking_us - Overlap_us) / (Blocking_us - Comp_us)", label)
        self.check("plot --overlap draws H 1's two shares and nothing of H 2 (both none)",
                   ys == [(True, True)], ys)
        import matplotlib.pyplot as plt
        plt.close(fig)

        out = self.fresh("overlap_none.png")
        p = self.run("plot", "--overlap", data("host_z.json"), v1("host_z.csv"), "-o", out)
        self.check("plot --overlap without overlap rows exits 1 and writes nothing",
                   p.returncode == 1 and not os.path.exists(out) and "--overlap" in p.stderr, p.stderr)

    # -- schema ----------------------------------------------------------------------------------

    def validator(self):
        try:
            import jsonschema
        except ImportError:
            self.check("jsonschema is importable", False,
                       f"not by {sys.executable}: apt-get install python3-jsonschema, run with /usr/bin/python3")
            return None
        with open(self.args.schema) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        try:
            cls.check_schema(schema)
        except jsonschema.SchemaError as e:
            self.check("the schema is a valid JSON Schema", False, e.message)
            return None
        return cls(schema)

    @staticmethod
    def errors(validator, doc):
        return ["/".join(map(str, e.absolute_path)) + ": " + e.message for e in validator.iter_errors(doc)]

    def schema_verdict(self, v, what, change, doc, valid):
        """The schema's verdict on a copy of `doc` changed by `change`: valid, or not."""
        doc = copy.deepcopy(doc)
        change(doc)
        errs = self.errors(v, doc)
        if valid:
            self.check(f"the schema accepts {what}", not errs, errs)
        else:
            self.check(f"the schema rejects {what}", bool(errs))

    def test_schema(self):
        v = self.validator()
        if v is None:
            return
        draft = v.META_SCHEMA.get("$schema", "")
        self.check("the schema is valid draft 2020-12", "2020-12" in draft, draft)
        goods = fixtures("json")
        self.check("there are version-3 JSON fixtures, a failed and an incomplete run's among them",
                   len(goods) >= 7 and data("host_failed.json") in goods and data("host_incomplete.json") in goods,
                   goods)
        for path in goods:
            with open(path) as f:
                errs = self.errors(v, json.load(f))
            self.check(f"{os.path.basename(path)} validates against the schema", not errs, errs)
        for where in (V1, V2):
            for path in fixtures("json", where=where):
                with open(path) as f:
                    self.check(f"the version-3 schema rejects {os.path.relpath(path, DATA)}",
                               bool(self.errors(v, json.load(f))))
        with open(NOT_A_RESULT) as f:
            self.check("the schema rejects not_a_result.json", bool(self.errors(v, json.load(f))))
        for path in fixtures("json", where=V4):
            with open(path) as f:
                doc = json.load(f)
            self.check(f"v4/{os.path.basename(path)} (version 4) validates against the schema",
                       doc["schema_version"] == 4 and not self.errors(v, doc), self.errors(v, doc))
        with open(v4("smpi_z.json")) as f:
            sim = json.load(f)
        self.schema_verdict(v, "version 4 without run.simulator", lambda d: d["run"].pop("simulator"), sim,
                            valid=False)
        self.schema_verdict(v, "version 3 with run.simulator", lambda d: d.update(schema_version=3), sim,
                            valid=False)
        self.schema_verdict(v, "a platform_sha256 that is not 64 hex digits",
                            lambda d: d["run"]["simulator"].update(platform_sha256="abc"), sim, valid=False)
        self.schema_verdict(v, "engine none with a platform",
                            lambda d: d["run"]["simulator"].update(engine="none"), sim, valid=False)
        self.schema_verdict(v, "a simulated run whose platform is not named (smpirun by hand)",
                            lambda d: d["run"]["simulator"].update(platform=None, platform_sha256=None), sim,
                            valid=True)
        with open(data("bad_n_and_l.json")) as f:
            self.check("the schema rejects bad_n_and_l.json", bool(self.errors(v, json.load(f))))

        with open(data("host_overlap.json")) as f:
            base = json.load(f)  # every group but box

        def self_only_doc():
            with open(data("host_x_self.json")) as f:
                return json.load(f)

        def accepted(what, change, doc=base):
            self.schema_verdict(v, what, change, doc, valid=True)

        accepted("Hidden null (no share)", lambda d: d["rows"][0].update(Hidden=None))
        accepted("Hidden 0 and Hidden 1", lambda d: (d["rows"][0].update(Hidden=0), d["rows"][1].update(Hidden=1)))
        accepted("oversubscribed 1 with 1.00 ranks per core (257 ranks on 256 cores, rounded)",
                 lambda d: d["run"].update(oversubscribed=1, ranks_per_core=1.0))
        accepted("status failed with exit code 4 and a reason",
                 lambda d: d["status"].update(state="failed", exit_code=4, reason="timeout on rank 0 after 2 s"))
        accepted("status incomplete", lambda d: d["status"].update(state="incomplete", exit_code=None))
        with open(data("host_local_box.json")) as f:
            local = json.load(f)

        def broken(what, change, doc=base):
            self.schema_verdict(v, what, change, doc, valid=False)

        row = first_row

        broken("schema_version 1", lambda d: d.update(schema_version=1))
        broken("schema_version 2", lambda d: d.update(schema_version=2))
        broken("schema_version 5", lambda d: d.update(schema_version=5))
        broken("schema_version 4 without run.simulator", lambda d: d.update(schema_version=4))
        broken("a row without Uni_GBps", lambda d: row(d).pop("Uni_GBps"))
        broken("a row without Send_min_B", lambda d: row(d).pop("Send_min_B"))
        broken("a row without Global", lambda d: row(d).pop("Global"))
        broken("a row without H", lambda d: row(d).pop("H"))
        broken("a row of per-rank sizes with neither L nor Local", lambda d: row(d).pop("L"), local)
        broken("a row with both N and L", lambda d: row(d).update(L=8))
        broken("an N row in a local run", lambda d: row(d).update(N=row(d).pop("L")), local)
        broken("an L row in a run of global sizes", lambda d: row(d).update(L=row(d).pop("N")))
        broken("a misspelt row field", lambda d: row(d).update(Uni_Gbps=1.0))
        broken("a fractional N", lambda d: row(d).update(N=16.5))
        broken("H 0", lambda d: row(d).update(H=0))
        broken("Global as a number", lambda d: row(d).update(Global=4096))
        broken("Global of two sides", lambda d: row(d).update(Global="16x16"))
        broken("Peer_GBps as the string n/a", lambda d: row(d).update(Peer_GBps="n/a"))
        broken("Eff as the string n/a", lambda d: row(d).update(Eff="n/a"))
        broken("Hidden as the string n/a", lambda d: row(d).update(Hidden="n/a"))
        broken("Hidden above 1", lambda d: row(d).update(Hidden=1.5))
        broken("Hidden below 0", lambda d: row(d).update(Hidden=-0.1))
        broken("an overlap row without Noise_us", lambda d: row(d).pop("Noise_us"))
        broken("Noise_us negative", lambda d: row(d).update(Noise_us=-1.0))
        broken("Noise_us as null", lambda d: row(d).update(Noise_us=None))
        broken("Noise_us in a run without --overlap", lambda d: row(d).update(Noise_us=1.0), self_only_doc())
        broken("a document without status", lambda d: d.pop("status"))
        broken("a status state other than complete, failed, incomplete",
               lambda d: d["status"].update(state="done"))
        broken("a status without warnings", lambda d: d["status"].pop("warnings"))
        broken("a status with an unknown member", lambda d: d["status"].update(signal=9))
        broken("a warning that is no string", lambda d: d["status"].update(warnings=[1]))
        broken("status complete with exit code 1", lambda d: d["status"].update(exit_code=1))
        broken("status complete with a reason", lambda d: d["status"].update(reason="why"))
        broken("status failed with exit code 0",
               lambda d: d["status"].update(state="failed", exit_code=0, reason="why"))
        broken("status failed without a reason", lambda d: d["status"].update(state="failed", exit_code=3))
        broken("status failed with an empty reason",
               lambda d: d["status"].update(state="failed", exit_code=3, reason=""))
        broken("status incomplete with an exit code", lambda d: d["status"].update(state="incomplete"))
        broken("status rows as text", lambda d: d["status"].update(rows="4"))
        broken("a run without oversubscribed", lambda d: d["run"].pop("oversubscribed"))
        broken("a run without ranks_per_core", lambda d: d["run"].pop("ranks_per_core"))
        broken("oversubscribed 2", lambda d: d["run"].update(oversubscribed=2))
        broken("ranks_per_core 0", lambda d: d["run"].update(ranks_per_core=0))
        broken("oversubscribed 1 with 0.50 ranks per core",
               lambda d: d["run"].update(oversubscribed=1, ranks_per_core=0.5))
        broken("oversubscribed 0 with 2.00 ranks per core",
               lambda d: d["run"].update(oversubscribed=0, ranks_per_core=2.0))
        broken("a host without cores", lambda d: d["run"]["hosts"][0].pop("cores"))
        broken("a host with 0 cores", lambda d: d["run"]["hosts"][0].update(cores=0))
        broken("Copy_GBps as null", lambda d: row(d).update(Copy_GBps=None))
        broken("Comp_us as null", lambda d: row(d).update(Comp_us=None))
        broken("Time_us negative", lambda d: row(d).update(Time_us=-1.0))
        broken("half the breakdown group (no Mpi_us)", lambda d: row(d).pop("Mpi_us"))
        broken("a row without Hidden in an overlap run", lambda d: row(d).pop("Hidden"))
        broken("overlap columns in a run with overlap 0", lambda d: d["run"].update(overlap=0))
        broken("Min_us and Max_us with repeats 1", lambda d: d["run"].update(repeats=1))
        broken("Copy_GBps and Peer_GBps without run.limits", lambda d: d["run"].pop("limits"))
        broken("a --limit row with Send_B > 0 without Copy_GBps", lambda d: row(d).pop("Copy_GBps"))
        with open(data("host_x_self.json")) as f:
            self_only = json.load(f)
        self.check("host_x_self.json: --limit rows with Send_B 0 carry Peer_GBps but no Copy_GBps",
                   all(r["Send_B"] == 0 and "Copy_GBps" not in r and r["Peer_GBps"] is None
                       for r in self_only["rows"]) and "limits" in self_only["run"], self_only["rows"])
        broken("Copy_GBps in a row with Send_B 0", lambda d: row(d).update(Copy_GBps=1.0), self_only)
        broken("Field_MiB with hugepages off", lambda d: d["run"].update(hugepages="off"))
        broken("RemoteEdges with stencil star", lambda d: row(d).update(RemoteEdges=0, RemoteCorners=0))
        broken("a box run's row without RemoteCorners", lambda d: row(d).pop("RemoteCorners"), local)
        broken("gpu_aware as a number", lambda d: d["run"].update(gpu_aware=1))
        broken("a run without schedule", lambda d: d["run"].pop("schedule"))
        broken("a schedule other than bulk, pipelined or -", lambda d: d["run"].update(schedule="eager"))
        for key in ("hugepages", "stencil", "overlap", "streams", "progress", "local", "fields", "messages",
                    "method", "rma_sync"):
            broken(f"a run without {key}", lambda d, key=key: d["run"].pop(key))
        broken("hugepages yes", lambda d: d["run"].update(hugepages="yes"))
        broken("method shmem", lambda d: d["run"].update(method="shmem"))
        broken("streams 3", lambda d: d["run"].update(streams=3))
        broken("fields 0", lambda d: d["run"].update(fields=0))
        broken("messages as one", lambda d: d["run"].update(messages="one"))
        broken("rma_sync pscw with method p2p", lambda d: d["run"].update(rma_sync="pscw"))
        broken("rma_sync - with method rma", lambda d: d["run"].update(rma_sync="-"), local)
        broken("directions z with stencil box", lambda d: d["run"].update(directions="z"), local)
        broken("directions box with stencil star", lambda d: d["run"].update(directions="box"))
        broken("halo as an integer (version 1)", lambda d: d["run"].update(halo=1))
        broken("an empty halo list", lambda d: d["run"].update(halo=[]))
        broken("a grid of two numbers", lambda d: d["run"].update(grid=[2, 2]))
        broken("an environment value that is a number",
               lambda d: d["run"]["environment"].update(CUDA_VISIBLE_DEVICES=0))
        broken("an environment without SLURM_JOB_ID", lambda d: d["run"]["environment"].pop("SLURM_JOB_ID"))
        broken("an environment with an unknown variable", lambda d: d["run"]["environment"].update(FOO=None))
        broken("a run without environment", lambda d: d["run"].pop("environment"))
        broken("a program name other than halo-bandwidth", lambda d: d["program"].update(name="x"))
        broken("a program without mpi_thread", lambda d: d["program"].pop("mpi_thread"))
        broken("an mpi_thread that is no thread level", lambda d: d["program"].update(mpi_thread="FUNNELED"))
        self.schema_v3_rows(v)
        self.schema_shapes(v)

    def schema_shapes(self, v):
        """Boxes of extents (N, L absent; Local), walls (periodic, BoundaryFaces) and nodes (placement,
        node_grid, OffNode_B, NodeOut_B)."""
        docs = {}
        for name in ("host_box_walls", "host_local_extents", "host_nodes", "host_z"):
            with open(data(name + ".json")) as f:
                docs[name] = json.load(f)
        walls, local, nodes, z = (docs[n] for n in ("host_box_walls", "host_local_extents", "host_nodes", "host_z"))

        def accepted(what, change, doc):
            self.schema_verdict(v, what, change, doc, valid=True)

        def broken(what, change, doc):
            self.schema_verdict(v, what, change, doc, valid=False)

        row = first_row

        self.check("host_box_walls.json: a box of extents and a cube, neither with N; walls along y and z",
                   [(r.get("N"), r["Global"]) for r in walls["rows"]] == [(None, "16x12x8"), (None, "12x12x12")]
                   and walls["run"]["periodic"] == "x" and all(r["BoundaryFaces"] == 2 for r in walls["rows"]),
                   walls["rows"])
        self.check("host_local_extents.json: Local in every row (8x6x4 and the cube 6x6x6), no L; placement cart",
                   [(r.get("L"), r.get("Local")) for r in local["rows"]] == [(None, "8x6x4"), (None, "6x6x6")]
                   and local["run"]["placement"] == "cart" and local["run"]["node_grid"] == "-", local["rows"])
        self.check("host_nodes.json: placement nodes on one node, node_grid 1x1x1, nothing off the node",
                   nodes["run"]["placement"] == "nodes" and nodes["run"]["node_grid"] == "1x1x1"
                   and all(r["OffNode_B"] == 0 == r["NodeOut_B"] for r in nodes["rows"]), nodes["run"])
        accepted("N in a row of global sizes (a run of cubes)", lambda d: None, z)
        accepted("a row of global sizes with Global alone", lambda d: row(d).pop("N"), z)
        accepted("OffNode_B and NodeOut_B on two nodes",
                 lambda d: (d["run"].update(nodes=2), row(d).update(OffNodeFaces=1, OffNode_B=512, NodeOut_B=1024)), z)
        accepted("periodic none with BoundaryFaces 6", lambda d: (d["run"].update(periodic="none"),
                                                                  row(d).update(BoundaryFaces=6)), z)
        broken("Local in a run of global sizes", lambda d: row(d).update(Local="16x16x16"), z)
        broken("L and Local in one row", lambda d: row(d).update(L=8), local)
        broken("N in a run of per-rank sizes", lambda d: row(d).update(N=8), local)
        broken("Local of two extents", lambda d: row(d).update(Local="8x6"), local)
        broken("Local as a number", lambda d: row(d).update(Local=288), local)
        for key in ("BoundaryFaces", "OffNode_B", "NodeOut_B"):
            broken(f"a row without {key}", lambda d, key=key: row(d).pop(key), walls)
        broken("BoundaryFaces 7", lambda d: row(d).update(BoundaryFaces=7), walls)
        broken("BoundaryFaces 1 with every axis periodic", lambda d: row(d).update(BoundaryFaces=1), z)
        broken("OffNode_B on one node", lambda d: row(d).update(OffNode_B=64, NodeOut_B=64), z)
        broken("OffNodeFaces on one node", lambda d: row(d).update(OffNodeFaces=1), z)
        broken("NodeOut_B as null", lambda d: row(d).update(NodeOut_B=None), walls)
        for key in ("periodic", "placement", "node_grid"):
            broken(f"a run without {key}", lambda d, key=key: d["run"].pop(key), z)
        broken("periodic zx (axes out of order)", lambda d: d["run"].update(periodic="zx"), z)
        broken("periodic as a list", lambda d: d["run"].update(periodic=["x"]), z)
        broken("placement spiral", lambda d: d["run"].update(placement="spiral"), z)
        broken("placement nodes with node_grid -", lambda d: d["run"].update(node_grid="-"), nodes)
        broken("placement linear with a node grid", lambda d: d["run"].update(node_grid="1x1x1"), z)
        broken("node_grid of two numbers", lambda d: d["run"].update(node_grid="2x1"), nodes)

    def schema_v3_rows(self, v):
        """What this round added to the rows and the run: Iters, the slowest rank, --per-rank's list,
        iters auto, min_time, per_rank."""
        with open(data("host_auto_per_rank.json")) as f:
            per_rank = json.load(f)
        with open(data("host_z.json")) as f:
            z = json.load(f)

        def accepted(what, change, doc):
            self.schema_verdict(v, what, change, doc, valid=True)

        def broken(what, change, doc):
            self.schema_verdict(v, what, change, doc, valid=False)

        row = first_row

        self.check("host_auto_per_rank.json: iters auto, a K per row, every rank listed",
                   per_rank["run"]["iters"] == "auto" and per_rank["run"]["per_rank"] == 1
                   and all(len(r["ranks"]) == per_rank["run"]["ranks"] for r in per_rank["rows"]), per_rank["run"])
        accepted("Skew null (the median rank's time 0)", lambda d: row(d).update(Skew=None), z)
        accepted("iters auto with Iters 5 and 1000000",
                 lambda d: (d["run"].update(iters="auto"), [r.update(Iters=5) for r in d["rows"]],
                            d["rows"][1].update(Iters=10 ** 6)), z)
        for key in ("Iters", "Slowest", "Slowest_host", "Skew"):
            broken(f"a row without {key}", lambda d, key=key: row(d).pop(key), z)
        broken("Slowest -1", lambda d: row(d).update(Slowest=-1), z)
        broken("Slowest as text", lambda d: row(d).update(Slowest="1"), z)
        broken("an empty Slowest_host", lambda d: row(d).update(Slowest_host=""), z)
        broken("Skew below 1", lambda d: row(d).update(Skew=0.5), z)
        broken("Skew as the string n/a", lambda d: row(d).update(Skew="n/a"), z)
        broken("Iters 0", lambda d: row(d).update(Iters=0), z)
        broken("iters auto with Iters 4", lambda d: row(d).update(Iters=4), per_rank)
        broken("iters as a word other than auto", lambda d: d["run"].update(iters="some"), z)
        broken("a run without min_time", lambda d: d["run"].pop("min_time"), z)
        broken("min_time 0", lambda d: d["run"].update(min_time=0), z)
        broken("a run without per_rank", lambda d: d["run"].pop("per_rank"), z)
        broken("a --per-rank row without ranks", lambda d: row(d).pop("ranks"), per_rank)
        broken("ranks in a run without --per-rank", lambda d: row(d).update(ranks=row(per_rank)["ranks"]), z)
        broken("a listed rank without host", lambda d: row(d)["ranks"][0].pop("host"), per_rank)
        broken("a listed rank with an unknown member", lambda d: row(d)["ranks"][0].update(node=1), per_rank)
        broken("a listed rank's Rank_us negative", lambda d: row(d)["ranks"][0].update(Rank_us=-1.0), per_rank)

        hr = self.hr
        schema = v.schema
        row_props = list(schema["$defs"]["row"]["properties"])
        self.check("the schema's row fields are the reader's COLUMNS, in order, then its ROW_LISTS",
                   row_props == list(hr.COLUMNS) + list(hr.ROW_LISTS), row_props)
        self.check("the reader's MEASURES and OPTIONAL are the COLUMNS",
                   sorted(hr.MEASURES + hr.OPTIONAL) == sorted(hr.COLUMNS)
                   and not set(hr.MEASURES) & set(hr.OPTIONAL))
        run_props = set(schema["properties"]["run"]["properties"])
        self.check("the schema's run has every run setting of the CSV",
                   set(hr.SETTINGS) - {"program", "version", "commit"} <= run_props,
                   set(hr.SETTINGS) - {"program", "version", "commit"} - run_props)
        env = schema["properties"]["run"]["properties"]["environment"]["required"]
        self.check("the schema's environment is the reader's ENVIRONMENT", tuple(env) == hr.ENVIRONMENT, env)

        doc_md = os.path.join(os.path.dirname(os.path.abspath(self.args.schema)), "output.md")
        if self.check("docs/output.md is next to the schema", os.path.exists(doc_md), doc_md):
            with open(doc_md) as f:
                text = f.read()
            names = set(hr.CSV_COLUMNS) | set(row_props) | run_props | set(env)
            names |= set(schema["properties"]["program"]["properties"])
            quoted = re.findall(r"`([^`\n]+)`", text)
            missing = sorted(n for n in names
                             if not any(re.search(r"(^|[.])" + re.escape(n) + r"($|[.])", q) for q in quoted))
            self.check("docs/output.md names every field (in `...`)", not missing, missing)
            undefined = [n for n in hr.CSV_COLUMNS if f"| `{n}` |" not in text]
            self.check("docs/output.md defines every CSV column in a table row", not undefined, undefined)
            self.check("docs/output.md gives the schema name and version",
                       "halo-bandwidth-result" in text and "`schema_version`" in text and
                       re.search(r"schema_version.{0,40}\b4\b", text) is not None)

    def validate_files(self, paths):
        v = None
        for path in paths:
            try:
                with open(path, encoding="utf-8") as f:
                    is_json = f.read().lstrip().startswith("{")
            except (OSError, UnicodeDecodeError) as e:
                self.check(f"--validate {path}: readable", False, str(e))
                continue
            err = self.read_error(path)
            self.check(f"--validate {path}: read by halobw_results", err is None, str(err))
            if is_json:
                if v is None:
                    v = self.validator()
                    if v is None:
                        return
                try:
                    with open(path) as f:
                        doc = json.load(f)
                except ValueError as e:
                    self.check(f"--validate {path}: against the schema", False, str(e))
                    continue
                errs = self.errors(v, doc)
                self.check(f"--validate {path}: against the schema", not errs, errs)
            else:
                problems = self.hr.csv_format_problems(path)
                self.check(f"--validate {path}: exact CSV columns, quoting and decimals", not problems,
                           "; ".join(problems[:5]))

    # -- readers ---------------------------------------------------------------------------------

    def readers_v4(self):
        """Version 4: what ran the ranks, in both formats; the format checked exactly."""
        hr = self.hr
        for name in V4_PAIRS:
            c, j = hr.read(v4(name + ".csv")), hr.read(v4(name + ".json"))
            self.check(f"v4/{name}: the CSV and the JSON file are version 4", c.version == j.version == 4)
            self.check_same(c, j)
            self.check(f"v4/{name}.csv: the exact CSV format", not hr.csv_format_problems(c.path),
                       hr.csv_format_problems(c.path)[:3])
        m, s = hr.read(v4("host_z.json")).runs[0], hr.read(v4("smpi_z.csv")).runs[0]
        self.check("a measured run records simulator none and nothing else",
                   m.simulator == {"engine": "none", "version": None, "platform": None, "platform_sha256": None}
                   and not hr.simulated(m) and hr.simulation_text(m) is None, m.simulator)
        self.check("a simulated run records SimGrid SMPI, its version, the platform and its sha256",
                   s.simulator["engine"] == "SimGrid SMPI" and re.match(r"^3\.[0-9]+$", s.simulator["version"] or "")
                   and s.simulator["platform"] == "platforms/this-machine.xml"
                   and re.match(r"^[0-9a-f]{64}$", s.simulator["platform_sha256"] or "") and hr.simulated(s)
                   and s.provenance["mpi_library"].startswith("SMPI Version "), s.simulator)
        for path in (data("host_z.csv"), data("host_z.json"), v2("host_z.csv"), v1("host_z.json")):
            run = hr.read(path).runs[0]
            self.check(f"{os.path.relpath(path, DATA)} (before version 4) reads as measured, from its MPI library",
                       run.simulator["engine"] == "none" and not hr.simulated(run), run.simulator)
        with open(v4("smpi_z.json")) as fh:
            text = fh.read()
        at = line_of(text, '"simulator"')
        cases = [
            ("no_simulator.json", re.sub(r',\s*"simulator": \{[^}]*\}', "", text), line_of(text, '"run"'),
             "simulator"),
            ("bad_sha.json", re.sub(r'"platform_sha256": "[0-9a-f]+"', '"platform_sha256": "abc"', text), at,
             "platform_sha256"),
            ("none_with_platform.json", text.replace('"engine": "SimGrid SMPI"', '"engine": "none"'), at, "none"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"reader rejects {name} at line {line}, naming {word}",
                       e is not None and e.line == line and word in e.message, e and str(e))
        bad = self.csv_variant(v4("host_z.csv"), "empty_simulator.csv", lambda rows: rows[0].update(simulator=""))
        e = self.read_error(bad)
        self.check("reader rejects an empty simulator column", e is not None and "simulator" in e.message,
                   e and str(e))

    def test_readers(self):
        hr = self.hr
        self.readers_v4()
        for name in PAIRS:
            c, j = hr.read(data(name + ".csv")), hr.read(data(name + ".json"))
            self.check(f"{name}: the CSV and the JSON file are version 3", c.version == j.version == 3)
            self.check_same(c, j)
        for name in V2_PAIRS:
            c, j = hr.read(v2(name + ".csv")), hr.read(v2(name + ".json"))
            self.check(f"v2/{name}: the CSV and the JSON file are version 2", c.version == j.version == 2)
            self.check_same(c, j)
        for name in V1_PAIRS:
            c, j = hr.read(v1(name + ".csv")), hr.read(v1(name + ".json"))
            self.check(f"v1/{name}: the CSV and the JSON file are version 1", c.version == j.version == 1)
            self.check_same(c, j)

        for path in fixtures("csv") + fixtures("csv", where=V1) + fixtures("csv", where=V2):
            problems = hr.csv_format_problems(path)
            self.check(f"{os.path.relpath(path, DATA)} has the exact format", not problems, problems)
        for path in fixtures("csv", bad=True) + fixtures("json", bad=True) \
                + fixtures("csv", bad=True, where=V1) + fixtures("json", bad=True, where=V1):
            e = self.read_error(path)
            want = self.bad_lines().get(path)
            self.check(f"{os.path.relpath(path, DATA)} is rejected" + (f" at line {want}" if want else ""),
                       e is not None and (want is None or e.line == want), str(e))

        self.plain_csv_checks()
        self.quoting_checks()
        self.version_checks()
        self.json_checks()
        self.csv_checks()
        self.format_checks()
        self.v3_checks()
        self.shape_checks()

    def check_same(self, c, j):
        hr = self.hr
        name = f"{os.path.relpath(c.path, DATA)} and {os.path.basename(j.path)} read the same"
        problems = []
        if len(c.rows) != len(j.rows):
            problems.append(f"{len(c.rows)} vs {len(j.rows)} rows")
        for rc, rj in zip(c.rows, j.rows):
            for k in hr.SETTINGS + hr.COLUMNS:
                a, b = rc[k], rj[k]
                if isinstance(a, float) and isinstance(b, float):
                    tol = 0.5 * 10 ** -hr.DECIMALS[k] * (1 + 1e-9) + 1e-12
                    if abs(a - b) > tol:
                        problems.append(f"{rc.size_name}={rc.size} {k}: {a} vs {b}")
                elif a != b or type(a) is not type(b):
                    problems.append(f"{rc.size_name}={rc.size} {k}: {a!r} vs {b!r}")
        self.check(name + " (settings exact, numbers to the CSV's precision)", not problems, problems[:5])
        self.check(f"{os.path.basename(c.path)}: the CSV's status columns say what the JSON's status says",
                   c.status == j.status and (c.version >= 3) == (c.status is not None), (c.status, j.status))
        if c.version >= 2:
            same = ("build", "mpi_library", "mpi_thread", "hosts", "environment")
            same += hr.SIMULATOR if c.version >= 4 else ()
            pc, pj = c.runs[0].provenance, j.runs[0].provenance
            self.check(f"{os.path.basename(c.path)}: the provenance columns say what the JSON says",
                       all(pc.get(k) == pj.get(k) for k in same)
                       and set(pc) == set(hr.PROVENANCE if c.version >= 4 else hr.V3_PROVENANCE)
                       and c.runs[0].simulator == j.runs[0].simulator,
                       {k: (pc.get(k), pj.get(k)) for k in same if pc.get(k) != pj.get(k)})

    def plain_csv_checks(self):
        """The CSV is plain: csv.DictReader opens it as it is, no line to filter."""
        hr = self.hr
        for path in fixtures("csv") + fixtures("csv", where=V4):
            name = os.path.relpath(path, DATA)
            columns = hr.CSV_COLUMNS if path.startswith(V4) else hr.V3_CSV_COLUMNS
            with open(path, newline="") as f:
                text = f.read()
            self.check(f"{name}: no comment line", not any(l.startswith("#") for l in text.split("\n")))
            rows = list(csv.DictReader(io.StringIO(text, newline="")))
            with open(path, newline="") as f:
                header = next(csv.reader(f))
            problems = []
            if tuple(header) != columns:
                problems.append("header")
            for n, r in enumerate(rows, 2):
                if r["program"] == "program":
                    continue  # the repeated header of concatenated files
                if None in r or None in r.values():
                    problems.append(f"row {n}: {len(r)} fields")
                    continue
                for k in hr.COLUMNS:
                    value = r[k]
                    if value in ("", "n/a") or hr.DECIMALS.get(k) == hr.TEXT:
                        continue
                    try:
                        int(value) if k in hr.INT_FIELDS else float(value)
                    except ValueError:
                        problems.append(f"row {n}: {k} {value!r}")
                # local 1: exactly one of L (a cube) and Local (a brick); local 0: neither (N, or Global alone).
                sizes = [k for k in ("N", "L", "Local") if r[k] != ""]
                if sizes not in ((["L"], ["Local"]) if r["local"] == "1" else ([], ["N"])):
                    problems.append(f"row {n}: local {r['local']} with the size columns {sizes}")
            self.check(f"{name}: csv.DictReader reads it unfiltered: {len(rows)} rows of {len(columns)} "
                       "columns, numbers parse, the size columns as local says", not problems and rows, problems[:5])
        try:
            import pandas  # noqa: F401  (not needed; checked when present)
        except ImportError:
            print("skip  pandas.read_csv (pandas is not installed)")
        else:
            df = pandas.read_csv(data("host_overlap.csv"))
            self.check("pandas.read_csv with no options reads host_overlap.csv",
                       list(df.columns) == list(self.hr.V3_CSV_COLUMNS) and len(df) == 4)

    def quoting_checks(self):
        hr = self.hr
        f = hr.read(data("host_overlap.csv"))
        with open(data("host_overlap.json")) as fh:
            doc = json.load(fh)
        self.check("csv quoting: a halo list reads as one field, \"1,2\"",
                   all(r["halo"] == "1,2" for r in f.rows) and [r["H"] for r in f.rows] == [1, 2, 1, 2])
        self.check("csv quoting: the command line and MPI library, with their commas, read whole",
                   "--sizes 16,32 --halo 1,2" in f.runs[0].provenance["command_line"]
                   and f.runs[0].provenance["mpi_library"] == doc["program"]["mpi_library"],
                   f.runs[0].provenance)

        name = 'NVIDIA "H100", 80GB'
        tricky = self.csv_variant(data("host_z.csv"), "quoted.csv", lambda rows: [
            r.update(device=name, command_line="halo-bandwidth --sizes 16,32\n--axis z") for r in rows])
        f = hr.read(tricky)
        self.check("csv quoting: a doubled quote and commas in one field, a line break in another",
                   all(r["device"] == name for r in f.rows) and [r.line for r in f.rows] == [2, 4, 6]
                   and f.runs[0].provenance["command_line"].endswith("\n--axis z"),
                   [(r.line, r["device"]) for r in f.rows])
        self.check("csv quoting: the exact check accepts RFC 4180 quoting", not hr.csv_format_problems(tricky),
                   hr.csv_format_problems(tricky))

        with open(data("host_z.csv"), newline="") as fh:
            lines = fh.read().split("\n")
        over = self.temp("overquoted.csv", "\n".join(lines[:1] + [lines[1].replace(",host,host,", ',"host",host,', 1)]
                                                     + lines[2:]))
        problems = hr.csv_format_problems(over)
        self.check("csv quoting: the reader takes a needlessly quoted field; the exact check flags it",
                   self.read_error(over) is None and hr.read(over).rows[0]["backend"] == "host"
                   and len(problems) == 1 and "quoting" in problems[0], problems)
        junk = self.temp("junk_after_quote.csv", "\n".join(lines[:2] + [lines[2].replace(
            '"halo-bandwidth', '"halo-bandwidth x"y', 1)] + lines[3:]))
        e = self.read_error(junk)
        self.check("csv quoting: a quote inside a quoted field that is not doubled is an error at its line",
                   e is not None and e.line in (3, 4), str(e))

    def version_checks(self):
        hr = self.hr
        f = hr.read(data("concat.csv"))
        self.check("concatenated CSV: the repeated header starts a run: 2 runs, 5 rows",
                   f.kind == "csv" and f.version == 3 and len(f.runs) == 2 and len(f.rows) == 5
                   and [r.line for r in f.rows] == [2, 3, 4, 6, 7]
                   and f.rows[3]["grid"] == "1x2x2" and f.rows[4]["Send_min_B"] < f.rows[4]["Send_B"]
                   and "--grid 1,2,2" in f.runs[1].provenance["command_line"],
                   [(r.line, r["grid"]) for r in f.rows])

        f = hr.read(v1("concat.csv"))
        self.check("v1 concatenated CSV: comments and repeated header skipped, 2 runs, 5 rows",
                   f.kind == "csv" and f.version == 1 and len(f.runs) == 2 and len(f.rows) == 5
                   and [r.line for r in f.rows] == [3, 4, 5, 8, 9]
                   and f.rows[3]["grid"] == "1x3x2" and f.rows[3]["Send_min_B"] == 21504,
                   [(r.line, r["grid"]) for r in f.rows])
        for path in (v1("host_z.csv"), v1("host_z.json")):
            f = hr.read(path)
            r = f.rows[0]
            self.check(f"v1/{os.path.basename(path)} reads as later versions' rows: H from halo, Global NxNxN, "
                       "no L, the settings v1 predates as v1 ran",
                       f.version == 1 and r["H"] == 1 and r["Global"] == "64x64x64" and r["L"] is None
                       and r.size_name == "N" and r["halo"] == "1" and r["hugepages"] == "off"
                       and r["method"] == "p2p" and r["rma_sync"] == "-" and r["fields"] == 1
                       and r["stencil"] == "star" and r["local"] == 0 and r["Mpi_us"] is None
                       and r["Comp_us"] is None, r.as_dict())
        for path in (v1("host_z.csv"), v1("host_z.json"), v2("host_z.csv"), v2("host_overlap.json")):
            f = hr.read(path)
            self.check(f"{os.path.relpath(path, DATA)}: the settings version 3 added read as every older run was "
                       "(periodic xyz, placement linear, node_grid -), its new columns None",
                       all(r["periodic"] == "xyz" and r["placement"] == "linear" and r["node_grid"] == "-"
                           and r["BoundaryFaces"] is None and r["OffNode_B"] is None and r["Local"] is None
                           and r.size_name == "N" and r.key()[4] == "xyz" for r in f.rows), f.rows[0].as_dict())
        f = hr.read(v1("host_z_halo2.csv"))
        self.check("v1: the halo setting becomes each row's H", all(r["H"] == 2 for r in f.rows))

    def json_checks(self):
        hr = self.hr
        f = hr.read(data("host_local_box.json"))
        r = f.rows[0]
        self.check("JSON reader: an L row", r.size_name == "L" and r.size == 8 and r["L"] == 8 and r["N"] is None
                   and r["Global"] == "8x8x16" and r["H"] == 1 and isinstance(r["RemoteEdges"], int), r.as_dict())
        self.check("JSON reader: the new settings and their types",
                   r["method"] == "rma" and r["rma_sync"] == "pscw" and r["stencil"] == "box"
                   and r["directions"] == "box" and r["local"] == 1 and r["halo"] == "1" and r["fields"] == 1
                   and r["messages"] == "aggregated" and r["hugepages"] == "on" and r["overlap"] == 0
                   and r["streams"] == 1 and r["progress"] == "wait"
                   and f.runs[0].meta["program"]["mpi_thread"].startswith("MPI_THREAD_"), r.as_dict())
        self.check("JSON reader: the key (size, H, directions, grid, periodic, pack, fields, messages, method, "
                   "stencil)",
                   r.key() == (("L", 8), 1, "box", "1x1x2", "xyz", "datatype", 1, "aggregated", "rma", "box"), r.key())
        f = hr.read(data("host_overlap.json"))
        self.check("JSON reader: halo [1, 2] reads as \"1,2\", each row's H, Hidden a share or none, Noise_us, "
                   "Peer_GBps n/a",
                   all(r["halo"] == "1,2" for r in f.rows) and [r["H"] for r in f.rows] == [1, 2, 1, 2]
                   and all((r["Hidden"] == hr.NA or 0 <= r["Hidden"] <= 1) and isinstance(r["Noise_us"], float)
                           and r["Peer_GBps"] == hr.NA for r in f.rows))
        r = hr.read(data("host_z.json")).rows[0]
        self.check("an optional column not measured is None",
                   all(r[k] is None for k in ("Min_us", "Peer_GBps", "Comp_us", "RemoteEdges", "Mpi_us", "L")))
        r = hr.read(data("host_x_self.json")).rows[0]
        self.check("Eff null (Send_B 0) reads as n/a", r["Eff"] == hr.NA and r["Xfer_GBps"] == 0.0)
        self.check("Send_B 0 with --limit: Copy_GBps None (not measured), Peer_GBps n/a",
                   r["Copy_GBps"] is None and r["Peer_GBps"] == hr.NA, r.as_dict())

        f = hr.read(v1("cuda_staged.json"))
        r = f.rows[0]
        self.check("v1 JSON reader: settings and types", f.kind == "json" and r["grid"] == "1x2x2"
                   and r["schedule"] == "pipelined"
                   and r["gpu_aware"] == "0" and r["contiguous"] == 1 and isinstance(r["N"], int)
                   and isinstance(r["Time_us"], float) and r["Peer_GBps"] == hr.NA
                   and r["Copy_GBps"] == 1187.23417 and f.runs[0].meta["run"]["hosts"][0]["name"] == "gpu017",
                   r.as_dict())
        self.check("a version-1 JSON file without rows reads as no rows", hr.read(v1("empty_rows.json")).rows == [])

        with open(data("host_z.json")) as fh:
            text = fh.read()
        first = line_of(text, '{"N":16,')
        cases = [
            ("row_lacks_uni.json", text.replace('"Uni_GBps":', '"Uni_GBp":', 1), first, "Uni_GBps"),
            ("ranks_string.json", text.replace('"ranks": 2,', '"ranks": "2",'), line_of(text, '"ranks": 2,'),
             "ranks"),
            ("version5.json", text.replace('"schema_version": 3', '"schema_version": 5'), 3, "schema_version"),
            ("nan.json", re.sub(r'"Time_us":[0-9.e+-]+', '"Time_us":NaN', text, count=1), first, "finite"),
            ("bad_schedule.json", text.replace('"schedule": "-"', '"schedule": "eager"'),
             line_of(text, '"schedule"'), "schedule"),
            ("bad_method.json", text.replace('"method": "p2p"', '"method": "shmem"'), line_of(text, '"method"'),
             "method"),
            ("rma_sync.json", text.replace('"rma_sync": "-"', '"rma_sync": "fence"'), line_of(text, '"run"'),
             "rma_sync"),
            ("halo_int.json", re.sub(r'"halo": \[\s*1\s*\]', '"halo": 1', text), line_of(text, '"halo"'), "halo"),
            ("no_mpi_thread.json", re.sub(r',\s*"mpi_thread": "[^"]*"', "", text), line_of(text, '"program"'),
             "mpi_thread"),
            ("l_row.json", text.replace('{"N":16,', '{"L":16,'), first, "local is 0"),
            ("h_3.json", text.replace('"H":1,', '"H":3,', 1), first, "H 3"),
            ("global.json", text.replace('"16x16x16"', '"16x16x15"'), first, "Global"),
            ("global_number.json", text.replace('"16x16x16"', '4096'), first, "Global"),
            ("no_global.json", text.replace('"Global":"16x16x16",', ''), first, "Global"),
            ("extra.json", text + "{}", text.count("\n") + 1, "Extra data"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"JSON reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))

    def csv_checks(self):
        hr = self.hr
        with open(data("host_z.csv"), newline="") as fh:
            lines = fh.read().split("\n")
        header = lines[0]
        z = data("host_z.csv")

        def variant(name, edit):
            return self.csv_variant(z, name, lambda rows: edit(rows[1]))

        cases = [
            ("crlf.csv", self.temp("crlf.csv", "\r\n".join(lines)), None, ""),
            ("comment.csv", self.temp("comment.csv", "# a note\n" + "\n".join(lines)), None, ""),
            ("other_header.csv", self.temp("other_header.csv", "\n".join(
                lines[:3] + [header.replace(",Peer_GBps", "")] + lines[3:])), 4, "differs"),
            ("send_min.csv", variant("send_min.csv", lambda r: r.update(Send_min_B=str(int(r["Send_B"]) + 1))),
             3, "Send_min_B"),
            ("gpu_aware.csv", variant("gpu_aware.csv", lambda r: r.update(gpu_aware="yes")), 3, "gpu_aware"),
            ("schedule.csv", variant("schedule.csv", lambda r: r.update(schedule="eager")), 3, "schedule"),
            ("method.csv", variant("method.csv", lambda r: r.update(method="shmem")), 3, "method"),
            ("rma_sync.csv", variant("rma_sync.csv", lambda r: r.update(method="rma")), 3, "rma_sync"),
            ("hugepages.csv", variant("hugepages.csv", lambda r: r.update(hugepages="yes")), 3, "hugepages"),
            ("no_schedule.csv", self.drop_column(z, "no_schedule.csv", "schedule"), 1, "schedule"),
            ("grid.csv", variant("grid.csv", lambda r: r.update(grid="1x1")), 3, "grid"),
            ("underscore.csv", variant("underscore.csv", lambda r: r.update(Time_us="3_4")), 3, "Time_us"),
            ("n_and_l.csv", variant("n_and_l.csv", lambda r: r.update(L="8")), 3, "exactly one of N and L"),
            # A run of cubes has N in every row: Global alone in one of them is no size the benchmark writes.
            ("neither.csv", variant("neither.csv", lambda r: r.update(N="")), 3,
             "the size is Global alone here but N in the run's first row (line 2)"),
            ("l_in_global_run.csv", variant("l_in_global_run.csv", lambda r: r.update(L=r.pop("N"), N="")), 3,
             "local is 0"),
            ("h_empty.csv", variant("h_empty.csv", lambda r: r.update(H="")), 3, "H is empty"),
            ("h_3.csv", variant("h_3.csv", lambda r: r.update(H="3")), 3, "H 3"),
            ("global.csv", variant("global.csv", lambda r: r.update(Global="32x32x31")), 3, "Global"),
            ("global_text.csv", variant("global_text.csv", lambda r: r.update(Global="32 cubed")), 3, "Global"),
            ("halo.csv", variant("halo.csv", lambda r: r.update(halo="1;2")), 3, "halo"),
            ("na_in_n.csv", variant("na_in_n.csv", lambda r: r.update(N="n/a")), 3, "N"),
            ("comments_only.csv", self.temp("comments_only.csv", "# nothing\n"), 1, "header"),
            ("empty.csv", self.temp("empty.csv", ""), 1, "empty"),
        ]
        for name, path, line, word in cases:
            e = self.read_error(path)
            if line is None:
                self.check(f"CSV reader accepts {name}", e is None, str(e))
            else:
                self.check(f"CSV reader rejects {name} at line {line}",
                           e is not None and e.line == line and word in e.message, str(e))

        na = self.csv_variant(data("host_overlap.csv"), "copy_na.csv",
                              lambda rows: rows[0].update(Copy_GBps="n/a"))
        f = hr.read(na)
        problems = hr.csv_format_problems(na)
        self.check("the reader takes n/a in any optional column; the exact check only in Eff, Peer_GBps, Hidden",
                   f.rows[0]["Copy_GBps"] == hr.NA and len(problems) == 1 and "Copy_GBps" in problems[0], problems)
        na = self.csv_variant(data("host_overlap.csv"), "hidden_na.csv", lambda rows: rows[0].update(Hidden="n/a"))
        problems = hr.csv_format_problems(na)
        self.check("Hidden n/a reads as n/a; the exact check flags it (version 3 writes an empty Hidden)",
                   hr.read(na).rows[0]["Hidden"] == hr.NA and len(problems) == 1 and "Hidden" in problems[0],
                   problems)
        self.check("version 2's Hidden n/a is exact there", not hr.csv_format_problems(self.csv_variant(
            v2("host_overlap.csv"), "v2_hidden_na.csv", lambda rows: rows[0].update(Hidden="n/a"))))
        empty = self.csv_variant(data("host_overlap.csv"), "hidden_empty.csv",
                                 lambda rows: [r.update(Hidden=h) for r, h in zip(rows, ("", "0.50", "", "1.00"))])
        f = hr.read(empty)
        self.check("an empty Hidden in an overlap row reads as n/a (no share), a number as the share; exact",
                   [r["Hidden"] for r in f.rows] == [hr.NA, 0.5, hr.NA, 1.0] and not hr.csv_format_problems(empty),
                   ([r["Hidden"] for r in f.rows], hr.csv_format_problems(empty)))

    def shape_checks(self):
        """Boxes of extents (the size named by the box), walls, placements and bytes off the node."""
        hr = self.hr
        for path in (data("host_box_walls.csv"), data("host_box_walls.json")):
            f = hr.read(path)
            got = [(r.size_name, r.size, r.extents, round(r.side, 3), r["N"], r["Global"]) for r in f.rows]
            self.check(f"{os.path.basename(path)}: a box of extents reads as Global=16x12x8 (at the side of a cube "
                       "of 1536 cells), the cube beside it as N=12 though the file gives no N",
                       got == [("Global", "16x12x8", (16, 12, 8), round(1536 ** (1 / 3), 3), None, "16x12x8"),
                               ("N", 12, (12, 12, 12), 12.0, None, "12x12x12")], got)
            r = f.rows[0]
            self.check(f"{os.path.basename(path)}: periodic x, walls counted, linear placement, nothing off the node; "
                       "periodic in the key",
                       r["periodic"] == "x" and r["placement"] == "linear" and r["node_grid"] == "-"
                       and all(x["BoundaryFaces"] == 2 and x["OffNode_B"] == 0 == x["NodeOut_B"] for x in f.rows)
                       and r.key() == (("Global", "16x12x8"), 1, "all", r["grid"], "x", "datatype", 1, "aggregated",
                                       "p2p", "star")
                       and hr.describe_key(r).startswith("Global=16x12x8 H=1 all "), (r.as_dict(), r.key()))
        for path in (data("host_local_extents.csv"), data("host_local_extents.json")):
            f = hr.read(path)
            grid = hr.box_of(f.rows[0]["grid"])
            got = [(r.size_name, r.size, r.extents, r["L"], r["Local"], r["Global"]) for r in f.rows]
            want = [("Local", "8x6x4", (8, 6, 4), None, "8x6x4", hr.grid_str(g * e for g, e in zip(grid, (8, 6, 4)))),
                    ("L", 6, (6, 6, 6), None, "6x6x6", hr.grid_str(g * 6 for g in grid))]
            self.check(f"{os.path.basename(path)}: per-rank bricks read as Local=8x6x4 and L=6 (the cube 6x6x6 in "
                       "Local), Global the grid times the brick; periodic none, placement cart",
                       got == want and all(r["periodic"] == "none" and r["placement"] == "cart" for r in f.rows),
                       got)
        f = hr.read(data("host_nodes.json"))
        self.check("host_nodes.json: placement nodes, node grid 1x1x1 on one node, N rows",
                   all(r["placement"] == "nodes" and r["node_grid"] == "1x1x1" and r["nodes"] == 1
                       and r.size_name == "N" for r in f.rows) and [r.size for r in f.rows] == [12, 12, 16, 16],
                   [(r.size, r["H"]) for r in f.rows])

        with open(data("host_box_walls.json")) as fh:
            walls = fh.read()
        with open(data("host_z.json")) as fh:
            z = fh.read()
        with open(data("host_local_extents.json")) as fh:
            local = fh.read()
        with open(data("host_nodes.json")) as fh:
            nodes = fh.read()
        w1, z1, l1 = line_of(walls, '{"Global":"16x12x8"'), line_of(z, '{"N":16,'), line_of(local, '{"Local":"8x6x4"')
        run_of = lambda text: line_of(text, '"run"')
        cases = [
            ("local_in_global.json", z.replace('{"N":16,', '{"N":16,"Local":"16x16x16",', 1), z1, "not both"),
            ("local_global_alone.json", walls.replace('{"Global":"16x12x8"', '{"Local":"16x12x8","Global":"16x12x8"'),
             w1, "local is 0"),
            ("l_and_local.json", local.replace('{"Local":"8x6x4"', '{"L":8,"Local":"8x6x4"'), l1,
             "exactly one of L (a cube) and Local (a brick), not both"),
            ("local_two.json", local.replace('{"Local":"8x6x4"', '{"Local":"8x6"'), l1, "Local must be LXxLYxLZ"),
            ("local_global.json", re.sub(r'("Local":"8x6x4","Global":")[0-9x]+', r"\g<1>8x6x5", local), l1,
             "Local=8x6x4 on grid"),
            ("n_in_one_row.json", walls.replace('{"Global":"12x12x12"', '{"N":12,"Global":"12x12x12"'),
             line_of(walls, '{"Global":"12x12x12"'), "the size is N here but Global alone in the run's first row"),
            ("n_of_a_box.json", walls.replace('{"Global":"16x12x8"', '{"N":16,"Global":"16x12x8"'), w1,
             "Global 16x12x8 is not 16x16x16 (N=16)"),
            ("boundary_periodic.json", re.sub(r'"BoundaryFaces":0', '"BoundaryFaces":1', z, count=1), z1,
             "BoundaryFaces 1 with every axis periodic"),
            ("boundary_7.json", re.sub(r'"BoundaryFaces":2', '"BoundaryFaces":7', walls, count=1), w1,
             "a rank has 6 faces"),
            ("offnode_one_node.json", re.sub(r'"OffNode_B":0,"NodeOut_B":0', '"OffNode_B":64,"NodeOut_B":64', z,
                                             count=1), z1, "on one node: nothing leaves it"),
            ("offnode_above_send.json", re.sub(r'"OffNode_B":0,"NodeOut_B":0', '"OffNode_B":99999,"NodeOut_B":99999',
                                               z.replace('"nodes": 1,', '"nodes": 2,'), count=1), z1,
             "OffNode_B 99999 exceeds Send_B"),
            ("nodeout_below.json", re.sub(r'"OffNode_B":0,"NodeOut_B":0', '"OffNode_B":64,"NodeOut_B":32',
                                          z.replace('"nodes": 1,', '"nodes": 2,'), count=1), z1, "or NodeOut_B 32"),
            ("no_boundary.json", re.sub(r'"BoundaryFaces":0,', "", z, count=1), z1, "lacks BoundaryFaces"),
            ("periodic_zx.json", z.replace('"periodic": "xyz"', '"periodic": "zx"'), line_of(z, '"periodic"'),
             "periodic: 'zx' is not the periodic axes in order"),
            ("placement_spiral.json", z.replace('"placement": "linear"', '"placement": "spiral"'),
             line_of(z, '"placement"'), "placement: 'spiral' is not one of linear|nodes|cart"),
            ("node_grid_linear.json", z.replace('"node_grid": "-"', '"node_grid": "1x1x1"'), run_of(z),
             "node_grid 1x1x1 with placement linear"),
            ("node_grid_dash.json", nodes.replace('"node_grid": "1x1x1"', '"node_grid": "-"'), run_of(nodes),
             "node_grid - with placement nodes"),
            ("node_grid_count.json", nodes.replace('"node_grid": "1x1x1"', '"node_grid": "1x2x1"'), run_of(nodes),
             "the node grid holds every node once and tiles the grid"),
            ("node_grid_text.json", nodes.replace('"node_grid": "1x1x1"', '"node_grid": "one"'),
             line_of(nodes, '"node_grid"'), "node_grid: 'one' is neither AxBxC nor -"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"JSON reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))
        self.check("the JSON reader takes a node grid that tiles the grid, one node per block",
                   self.read_error(self.temp("node_grid_2.json", nodes.replace('"node_grid": "1x1x1"',
                                                                               '"node_grid": "1x1x2"').replace(
                       '"nodes": 1,', '"nodes": 2,'))) is None)

        bw, le = data("host_box_walls.csv"), data("host_local_extents.csv")
        cases = [
            ("local_in_global.csv", self.csv_variant(bw, "local_in_global.csv", lambda rows: rows[0].update(
                Local="16x12x8")), 2, "local is 0"),
            ("local_text.csv", self.csv_variant(le, "local_text.csv", lambda rows: rows[0].update(Local="8 by 6")),
             2, "Local: '8 by 6' is not LXxLYxLZ"),
            ("l_for_local.csv", self.csv_variant(le, "l_for_local.csv", lambda rows: rows[1].update(L="6", Local="")),
             3, "the size is L here but Local in the run's first row"),
            ("no_size.csv", self.csv_variant(le, "no_size.csv", lambda rows: rows[0].update(Local="")), 2,
             "neither given"),
            ("boundary_empty.csv", self.csv_variant(bw, "boundary_empty.csv", lambda rows: rows[0].update(
                BoundaryFaces="")), 2, "lacks BoundaryFaces"),
            ("boundary_xyz.csv", self.csv_variant(bw, "boundary_xyz.csv", lambda rows: [
                r.update(periodic="xyz") for r in rows]), 2, "BoundaryFaces 2 with every axis periodic"),
            ("periodic_w.csv", self.csv_variant(bw, "periodic_w.csv", lambda rows: [
                r.update(periodic="w") for r in rows]), 2, "periodic"),
            ("placement_nodes.csv", self.csv_variant(bw, "placement_nodes.csv", lambda rows: [
                r.update(placement="nodes") for r in rows]), 2, "node_grid - with placement nodes"),
        ]
        for name, path, line, word in cases:
            e = self.read_error(path)
            self.check(f"CSV reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))
        odd = self.csv_variant(le, "local_padded.csv", lambda rows: rows[0].update(Local="8x6x04"))
        problems = hr.csv_format_problems(odd)
        self.check("the exact check flags a Local the benchmark would not write (8x6x04)",
                   any("Local" in p for p in problems), problems)

    def v3_checks(self):
        """What version 3 added: the status, oversubscribed and ranks_per_core, hosts' cores, Noise_us,
        Hidden in [0, 1]; and version-2 files still read."""
        hr = self.hr
        for path in (data("host_failed.csv"), data("host_failed.json")):
            f = hr.read(path)
            st = f.status
            self.check(f"{os.path.basename(path)}: status failed, exit 1, the reason, 1 row",
                       st["state"] == "failed" and st["exit_code"] == 1 and st["rows"] == 1 == len(f.rows)
                       and st["reason"].startswith("check N=32 failed: rank 1 face ") and st["warnings"] == []
                       and f.runs[0].status == st and hr.problem_runs(f) == [(path, hr.status_problem(st))], st)
        for path in (data("host_incomplete.csv"), data("host_incomplete.json")):
            st = hr.read(path).status
            self.check(f"{os.path.basename(path)}: status incomplete, no exit code, no reason, 1 row",
                       st == {"state": "incomplete", "exit_code": None, "reason": None, "rows": 1, "warnings": []},
                       st)
        for path in (data("host_z.csv"), data("host_z.json")):
            st = hr.read(path).status
            self.check(f"{os.path.basename(path)}: status complete, exit 0, 3 rows",
                       st == {"state": "complete", "exit_code": 0, "reason": None, "rows": 3, "warnings": []}, st)
        want = ["nothing crossed ranks: on grid 1x1x2 the \u00b1x faces wrap to the same rank; use --axis z or "
                "--grid 2,1,1"]
        for path in (data("host_x_self.csv"), data("host_x_self.json")):
            st = hr.read(path).status
            self.check(f"{os.path.basename(path)}: the run that sent nothing carries the warning, whole (its '; ' "
                       "is no separator)", st["state"] == "complete" and st["warnings"] == want, st)
        self.check("the CSV's warnings split where a known warning starts",
                   hr.split_warnings(want[0] + "; " + want[0]) == want * 2 and hr.split_warnings("") == [])
        r = hr.read(data("host_z.json")).runs[0]
        self.check("version 3: oversubscribed and ranks_per_core read, and each host's cores",
                   r.settings["oversubscribed"] in (0, 1) and isinstance(r.settings["ranks_per_core"], float)
                   and r.meta["run"]["hosts"][0]["cores"] >= 1
                   and r.provenance["hosts"].endswith(f" cores {r.meta['run']['hosts'][0]['cores']}"), r.settings)
        for path in (v2("host_z.csv"), v2("host_z.json"), v1("host_z.csv"), v1("host_z.json")):
            f = hr.read(path)
            self.check(f"{os.path.relpath(path, DATA)}: read as version {f.version}: no status, oversubscribed, "
                       "ranks_per_core, Noise_us (not recorded then)",
                       f.status is None and f.runs[0].status is None and hr.problem_runs(f) == []
                       and all(r["oversubscribed"] is None and r["ranks_per_core"] is None and r["Noise_us"] is None
                               for r in f.rows), f.rows[0].as_dict())
        f = hr.read(v2("host_overlap.json"))
        self.check("v2/host_overlap.json: version 2's Hidden, outside [0, 1] there, still reads",
                   f.version == 2 and any(r["Hidden"] < 0 or r["Hidden"] > 1 for r in f.rows if r["Hidden"] != hr.NA),
                   [r["Hidden"] for r in f.rows])

        with open(data("host_overlap.json")) as fh:
            text = fh.read()
        first = line_of(text, '{"N":16,')
        state_line = line_of(text, '"state"')
        hidden = re.sub(r'"Hidden":(null|[0-9.e+-]+)', '"Hidden":1.5', text, count=1)
        cases = [
            ("no_status.json", re.sub(r',\s*"status": \{[^}]*\}', "", text), 1, "status"),
            ("state_done.json", text.replace('"state": "complete"', '"state": "done"'), state_line, "status"),
            ("rows_count.json", re.sub(r'"rows": 4,', '"rows": 3,', text), line_of(text, '"rows": 4,'),
             "status.rows is 3"),
            ("failed_no_reason.json", text.replace('"state": "complete"', '"state": "failed"'), state_line,
             "reason"),
            ("complete_exit_1.json", text.replace('"exit_code": 0', '"exit_code": 1'), state_line, "exit code 0"),
            ("hidden_1_5.json", hidden, first, "Hidden 1.5 is outside [0, 1]"),
            ("noise_negative.json", re.sub(r'"Noise_us":[0-9.e+-]+', '"Noise_us":-1.0', text, count=1), first,
             "Noise_us"),
            ("per_core.json", re.sub(r'"ranks_per_core": [0-9.]+', '"ranks_per_core": 0.5', text),
             line_of(text, '"ranks_per_core"'), "not the most ranks per core over run.hosts"),
            ("no_cores.json", re.sub(r',\s*"cores": [0-9]+', "", text), line_of(text, '"hosts"') + 1, "cores"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"JSON reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))

        z = data("host_z.csv")
        cases = [
            ("status_differs.csv", self.csv_variant(z, "status_differs.csv", lambda rows: rows[1].update(
                status="failed", exit_code="3", reason="why")), 3, "status columns"),
            ("status_done.csv", self.csv_variant(z, "status_done.csv", lambda rows: [
                r.update(status="done") for r in rows]), 2, "status"),
            ("exit_text.csv", self.csv_variant(z, "exit_text.csv", lambda rows: [
                r.update(exit_code="one") for r in rows]), 2, "exit_code"),
            ("failed_no_reason.csv", self.csv_variant(z, "failed_no_reason.csv", lambda rows: [
                r.update(status="failed", exit_code="1") for r in rows]), 2, "reason"),
            ("incomplete_exit.csv", self.csv_variant(z, "incomplete_exit.csv", lambda rows: [
                r.update(status="incomplete") for r in rows]), 2, "no exit code"),
            ("oversubscribed.csv", self.csv_variant(z, "oversubscribed.csv", lambda rows: [
                r.update(oversubscribed="1", ranks_per_core="0.50") for r in rows]), 2, "oversubscribed"),
            ("hidden_2.csv", self.csv_variant(data("host_overlap.csv"), "hidden_2.csv", lambda rows: rows[0].update(
                Hidden="2.00")), 2, "Hidden 2.0 is outside [0, 1]"),
            ("no_status_column.csv", self.drop_column(z, "no_status_column.csv", "warnings"), 1, "warnings"),
        ]
        for name, path, line, word in cases:
            e = self.read_error(path)
            self.check(f"CSV reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))
        for path, word in ((NOT_A_RESULT, "not a halo-bandwidth result"),
                           (self.temp("other.csv", "a,b,c\n1,2,3\n"), "expected the CSV header row"),
                           (self.temp("empty.json", ""), "empty"),
                           (self.temp("array.json", "[1, 2]\n"), "expected the CSV header row")):
            e = self.read_error(path)
            self.check(f"{os.path.basename(path)} is no result at all (NotAResult, which plot skips)",
                       isinstance(e, hr.NotAResult) and word in e.message, repr(e))
        e = self.read_error(data("bad_truncated.json"))
        self.check("a result file cut short is malformed, not NotAResult",
                   e is not None and not isinstance(e, hr.NotAResult), repr(e))
        self.per_rank_checks()

        cases = [
            ("status_word.csv", self.csv_variant(z, "status_word.csv", lambda rows: rows[0].update(
                status=" complete")), "status"),
            ("noise_missing.csv", self.csv_variant(data("host_overlap.csv"), "noise_missing.csv",
                                                   lambda rows: rows[0].update(Noise_us="")), "group overlap"),
            ("noise_decimals.csv", self.csv_variant(data("host_overlap.csv"), "noise_decimals.csv",
                                                    lambda rows: rows[0].update(Noise_us="1.25")), "Noise_us"),
            ("per_core_decimals.csv", self.csv_variant(z, "per_core_decimals.csv", lambda rows: [
                r.update(ranks_per_core="1.0") for r in rows]), "ranks_per_core"),
            ("v2_header.csv", self.drop_column(z, "v2_header.csv", "Noise_us"), "header"),
        ]
        for name, path, word in cases:
            problems = hr.csv_format_problems(path)
            self.check(f"the exact check flags {name}", any(word in p for p in problems), problems)

    def per_rank_checks(self):
        """Iters (a number, or K chosen by time with iters auto), the slowest rank and --per-rank's list."""
        hr = self.hr
        for path in (data("host_auto_per_rank.csv"), data("host_auto_per_rank.json")):
            f = hr.read(path)
            r = f.rows[0]
            self.check(f"{os.path.basename(path)}: iters auto, min_time, per_rank; a K per row from 5 to 10^6; "
                       "the slowest rank one of the ranks, on a host, Skew at least 1",
                       r["iters"] == hr.AUTO and r["min_time"] == 0.01 and r["per_rank"] == 1
                       and all(5 <= x["Iters"] <= 10 ** 6 and 0 <= x["Slowest"] < x["ranks"] and x["Slowest_host"]
                               and (x["Skew"] == hr.NA or x["Skew"] >= 1) for x in f.rows), r.as_dict())
        j = hr.read(data("host_auto_per_rank.json")).rows[0]
        self.check("JSON reader: --per-rank's ranks, in order, each with its host, Rank_us and Send_B",
                   [e["rank"] for e in j.ranks] == list(range(j["ranks"])) and all(
                       isinstance(e["Rank_us"], float) and e["Send_B"] <= j["Send_B"] for e in j.ranks)
                   and hr.read(data("host_auto_per_rank.csv")).rows[0].ranks is None, j.ranks)
        z = hr.read(data("host_z.json")).rows[0]
        self.check("a run with --iters N: Iters is N in every row, no ranks listed",
                   z["iters"] == 3 and z["Iters"] == 3 and z.ranks is None and z["min_time"] == 0.2, z.as_dict())
        for path in (v2("host_z.json"), v1("host_z.csv")):
            r = hr.read(path).rows[0]
            self.check(f"{os.path.relpath(path, DATA)}: Iters, Slowest, Skew, min_time, per_rank not recorded then",
                       all(r[k] is None for k in ("Iters", "Slowest", "Slowest_host", "Skew", "min_time",
                                                  "per_rank")), r.as_dict())
        with open(data("host_auto_per_rank.json")) as fh:
            text = fh.read()
        first = line_of(text, '{"N":16,')
        cases = [
            ("iters_4.json", re.sub(r'"Iters":[0-9]+', '"Iters":4', text, count=1), first, "Iters 4 with iters auto"),
            ("slowest_4.json", re.sub(r'"Slowest":[0-9]+', '"Slowest":4', text, count=1), first,
             "Slowest 4 is not one of the 4 ranks"),
            ("skew_half.json", re.sub(r'"Skew":[0-9.e+-]+', '"Skew":0.5', text, count=1), first, "Skew 0.5"),
            ("no_ranks.json", re.sub(r',"ranks":\[[^]]*\]', "", text, count=1), first, "lacks \"ranks\""),
            ("rank_order.json", text.replace('{"rank":0,', '{"rank":5,', 1), first, "the ranks in order"),
            ("iters_word.json", text.replace('"iters": "auto"', '"iters": "some"'), line_of(text, '"iters"'),
             "iters"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"JSON reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))
        src = data("host_auto_per_rank.csv")
        cases = [
            ("iters_fixed.csv", self.csv_variant(data("host_z.csv"), "iters_fixed.csv", lambda rows: rows[0].update(
                Iters="7")), 2, "Iters 7 is not the run's iters 3"),
            ("slowest_host.csv", self.csv_variant(src, "slowest_host.csv", lambda rows: rows[0].update(
                Slowest_host="")), 2, "lacks Slowest_host"),
            ("skew_low.csv", self.csv_variant(src, "skew_low.csv", lambda rows: rows[0].update(Skew="0.99")), 2,
             "Skew 0.99"),
            ("iters_auto_word.csv", self.csv_variant(src, "iters_auto_word.csv", lambda rows: [
                r.update(iters="Auto") for r in rows]), 2, "iters"),
        ]
        for name, path, line, word in cases:
            e = self.read_error(path)
            self.check(f"CSV reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))
        for name, edit, word in (("skew_decimals.csv", lambda rows: rows[0].update(Skew="1.5"), "Skew"),
                                 ("min_time_decimals.csv", lambda rows: [r.update(min_time="0.01") for r in rows],
                                  "min_time")):
            problems = hr.csv_format_problems(self.csv_variant(src, name, edit))
            self.check(f"the exact check flags {name}", any(word in p for p in problems), problems)

    def drop_column(self, src, name, column):
        with open(src, newline="") as f:
            recs = list(csv.reader(f))
        i = recs[0].index(column)
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([r[:i] + r[i + 1:] for r in recs])
        return self.temp(name, out.getvalue())

    def format_checks(self):
        """csv_format_problems: the exact format of a version-3 CSV file."""
        hr = self.hr
        with open(data("host_z.csv"), newline="") as fh:
            text = fh.read()
        z = data("host_overlap.csv")

        def problems_of(name, path):
            self.check(f"the reader reads {name}", self.read_error(path) is None, str(self.read_error(path)))
            return hr.csv_format_problems(path)

        cases = [
            ("comment.csv", self.temp("comment.csv", "# a note\n" + text), "comment"),
            ("crlf.csv", self.temp("crlf.csv", text.replace("\n", "\r\n")), "CRLF"),
            ("decimals.csv", self.csv_variant(z, "decimals.csv", lambda rows: rows[0].update(
                Time_us=rows[0]["Time_us"] + "0")), "Time_us"),
            ("rate_decimals.csv", self.csv_variant(z, "rate_decimals.csv", lambda rows: rows[0].update(
                Uni_GBps=rows[0]["Uni_GBps"][:-1])), "Uni_GBps"),
            ("half_group.csv", self.csv_variant(z, "half_group.csv", lambda rows: rows[0].update(Max_us="")),
             "group spread"),
            ("box_star.csv", self.csv_variant(data("host_z.csv"), "box_star.csv", lambda rows: rows[0].update(
                RemoteEdges="0", RemoteCorners="0")), "group box"),
            ("no_overlap.csv", self.csv_variant(z, "no_overlap.csv", lambda rows: [r.update(overlap="0")
                                                                                 for r in rows]), "group overlap"),
            ("huge_off.csv", self.csv_variant(z, "huge_off.csv", lambda rows: [r.update(hugepages="off")
                                                                             for r in rows]), "Field_MiB"),
            ("copy_send_0.csv", self.csv_variant(data("host_x_self.csv"), "copy_send_0.csv",
                                                 lambda rows: rows[0].update(Copy_GBps="1.000")), "Copy_GBps"),
            ("no_copy.csv", self.csv_variant(z, "no_copy.csv", lambda rows: rows[0].update(Copy_GBps="")),
             "group limit"),
            ("order.csv", self.reorder(data("host_z.csv"), "order.csv"), "header"),
        ]
        for name, path, word in cases:
            problems = problems_of(name, path)
            self.check(f"the exact check flags {name}", any(word in p for p in problems), problems)

    def reorder(self, src, name):
        """src with its Time_us and Send_B columns swapped (a reader does not care; the exact check does)."""
        with open(src, newline="") as f:
            recs = list(csv.reader(f))
        i, j = recs[0].index("Send_B"), recs[0].index("Time_us")
        for r in recs:
            r[i], r[j] = r[j], r[i]
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(recs)
        return self.temp(name, out.getvalue())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripts-dir", required=True, help="the repository's scripts/ directory")
    parser.add_argument("--schema", required=True, help="docs/output.schema.json")
    parser.add_argument("--validate", nargs="+", default=[], metavar="FILE",
                        help="result files to check too (JSON: schema and reader; CSV: reader and exact format)")
    parser.add_argument("--only", action="append", choices=GROUPS, help="run only this group (repeatable)")
    parser.add_argument("--work-dir", help="scratch directory (default: a temporary one, removed)")
    args = parser.parse_args()

    suite = Suite(args)
    groups = args.only or list(GROUPS)
    own_work = args.work_dir is None
    suite.work = tempfile.mkdtemp(prefix="halobw-tools-") if own_work else os.path.abspath(args.work_dir)
    os.makedirs(suite.work, exist_ok=True)
    try:
        for g in groups:
            print(f"# {g}")
            try:
                getattr(suite, f"test_{g}")()
            except Exception as e:  # a crash in a test is a failure, not a traceback
                import traceback
                traceback.print_exc()
                suite.check(f"{g} tests ran to the end", False, repr(e))
        if args.validate:
            print("# validate")
            suite.validate_files(args.validate)
    finally:
        if own_work:
            shutil.rmtree(suite.work, ignore_errors=True)
    print(f"{suite.passed} passed, {suite.failed} failed")
    return 1 if suite.failed else 0


if __name__ == "__main__":
    sys.exit(main())
