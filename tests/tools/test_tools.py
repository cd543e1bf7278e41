#!/usr/bin/env python3
"""Tests of the result-file tooling: scripts/compare, scripts/plot, the shared reader
scripts/halobw_results.py, and the JSON schema docs/output.schema.json.

usage: test_tools.py --scripts-dir DIR --schema FILE [--only GROUP ...] [--work-dir DIR]
                     [--validate FILE ...]

Groups: compare, plot, schema, readers (default: all). --validate checks result files
written by the benchmark: a JSON file against the schema and the reader, a CSV file
against the reader and the exact column list and decimals of docs/output.md.
Run it with the Python that has matplotlib and jsonschema (Debian: /usr/bin/python3);
the scripts under test are run with the same interpreter.
Prints one line per check and a last line "N passed, M failed"; exit status 1 on failure.
"""
import argparse
import ast
import copy
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
GROUPS = ("compare", "plot", "schema", "readers")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def data(name):
    return os.path.join(DATA, name)


def fixtures(ext, bad=False):
    return sorted(os.path.join(DATA, f) for f in os.listdir(DATA)
                  if f.endswith("." + ext) and f.startswith("bad_") == bad)


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
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

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

    # -- compare -------------------------------------------------------------------------------

    @staticmethod
    def plain_csv(path):
        """The rows of a CSV fixture, read with the csv module, independently of halobw_results."""
        with open(path, newline="") as f:
            lines = [l for l in f if not l.startswith("#")]
        return list(csv.DictReader(lines))

    @staticmethod
    def table_rows(stdout):
        """{N: [cells]} of compare's table."""
        rows = {}
        for line in stdout.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            cells = line.split()
            rows[int(cells[0])] = cells
        return rows

    def test_compare(self):
        for script in ("compare", "plot"):
            path = os.path.join(self.scripts, script)
            with open(path) as f:
                first = f.readline().rstrip("\n")
            self.check(f"{script} is executable with a python3 shebang",
                       os.access(path, os.X_OK) and first == "#!/usr/bin/env python3", first)
        self.check_stdlib_only()

        a, b = data("cuda_direct.csv"), data("cuda_staged.csv")
        p = self.run("compare", a, b)
        self.check("compare two files exits 0", p.returncode == 0, p.stderr)
        header = [l for l in p.stdout.splitlines() if "Time_us[1]" in l]
        self.check("compare prints a header line starting with #",
                   len(header) == 1 and header[0].startswith("#"), p.stdout)
        table = self.table_rows(p.stdout)
        ref, other = self.plain_csv(a), self.plain_csv(b)
        self.check("compare prints one row per reference row", sorted(table) == [int(r["N"]) for r in ref],
                   p.stdout)
        for r, o in zip(ref, other):
            want = f"x{float(o['Uni_GBps']) / float(r['Uni_GBps']):.2f}"
            cells = table.get(int(r["N"]), [])
            self.check(f"compare N={r['N']}: ratio {want}, both rates and times",
                       cells[-1:] == [want] and r["Uni_GBps"] in cells and o["Uni_GBps"] in cells
                       and f"{float(o['Time_us']):.1f}" in cells, f"row {cells}")
        self.check("compare N=1024: ratio x0.37 (50.798 / 138.011)", table.get(1024, [""])[-1] == "x0.37",
                   table.get(1024))

        p = self.run("compare", data("host_z.csv"), data("host_z.json"), data("concat.csv"))
        table = self.table_rows(p.stdout)
        self.check("compare CSV against JSON and concatenated CSV of the same run: x1.00, no warning",
                   p.returncode == 0 and len(table) == 3 and "warning" not in p.stderr
                   and all(c.count("x1.00") == 2 for c in table.values()), p.stdout + p.stderr)
        self.check("compare notes rows of a later file that match no reference row",
                   f"note: {data('concat.csv')}:8: N=64 z 1x3x2" in p.stderr, p.stderr)

        b = data("host_z_halo2.csv")
        p = self.run("compare", data("host_z.csv"), b)
        table = self.table_rows(p.stdout)
        for n in (64, 128):
            self.check(f"compare warns of a different halo at N={n}",
                       f"warning: {b} N={n}: halo 2 vs 1" in p.stderr.splitlines(), p.stderr)
        self.check("compare pairs on N and directions when the halo differs, '-' without a row",
                   table.get(64, [""])[-1] == "x1.27" and table.get(256, [])[-3:] == ["-", "-", "-"],
                   p.stdout)
        self.check("compare: no run-setting warning when only the halo differs",
                   not any(re.match(r"warning: [^ ]+: ", l) for l in p.stderr.splitlines()), p.stderr)

        b = data("cuda_staged.json")
        p = self.run("compare", data("cuda_direct.json"), b)
        lines = p.stderr.splitlines()
        self.check("compare warns once of a different transport",
                   lines.count(f"warning: {b}: transport staged vs direct") == 1, p.stderr)
        self.check("compare warns once of a different gpu_aware",
                   lines.count(f"warning: {b}: gpu_aware 0 vs 1") == 1, p.stderr)
        self.check("compare: no schedule warning when both runs are pipelined",
                   not any(l.startswith(f"warning: {b}: schedule ") for l in lines), p.stderr)
        self.check("compare names each file's schedule in the table's head",
                   "transport direct, schedule pipelined, gpu_aware 1" in p.stdout
                   and "transport staged, schedule pipelined, gpu_aware 0" in p.stdout, p.stdout)

        with open(data("cuda_direct.json")) as f:
            text = f.read()
        b = self.temp("cuda_direct_bulk.json", text.replace('"schedule": "pipelined"', '"schedule": "bulk"'))
        p = self.run("compare", data("cuda_direct.json"), b)
        lines = p.stderr.splitlines()
        self.check("compare warns once of a different schedule, and of nothing else",
                   p.returncode == 0 and lines == [f"warning: {b}: schedule bulk vs pipelined"], p.stderr)

        p = self.run("compare", data("host_x_self.csv"), data("host_z.csv"))
        self.check("compare prints '-' for the ratio when the reference rate is 0 or nothing matches",
                   p.returncode == 0 and all(c[-1] == "-" for c in self.table_rows(p.stdout).values()),
                   p.stdout)
        p = self.run("compare", data("empty_rows.json"), data("host_z.csv"))
        self.check("compare with a reference without rows exits 0", p.returncode == 0, p.stderr)

        for name, line in (("bad_field_count.csv", 4), ("bad_number.csv", 3), ("bad_missing_column.csv", 2),
                           ("bad_truncated.json", 30)):
            p = self.run("compare", data("host_z.csv"), data(name))
            self.expect_error(f"compare {name}: exit 2 and file:{line}", p, f"compare: {data(name)}:{line}: ")
        with open(data("bad_truncated.json")) as f:
            self.check("bad_truncated.json ends on line 30, without a newline", f.read().count("\n") == 29)
        p = self.run("compare", data("host_z.csv"))
        self.check("compare with one file: usage error, exit 2",
                   p.returncode == 2 and "usage:" in p.stderr, p.stderr)
        p = self.run("compare", data("host_z.csv"), os.path.join(self.work, "missing.csv"))
        self.expect_error("compare with a missing file: exit 2", p,
                          f"compare: {os.path.join(self.work, 'missing.csv')}: cannot read")
        p = self.run("compare", "--help")
        self.check("compare --help exits 0", p.returncode == 0 and "usage: compare" in p.stdout, p.stderr)

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
        p = self.run("plot", data("host_z.json"), data("cuda_direct.csv"), data("cuda_staged.json"),
                     data("host_x_self.csv"), "-o", out, "--title", "fixtures")
        self.check("plot exits 0", p.returncode == 0, p.stderr)
        head = b""
        if os.path.exists(out):
            with open(out, "rb") as f:
                head = f.read(8)
        size = os.path.getsize(out) if os.path.exists(out) else 0
        self.check("plot writes a PNG", head == PNG_SIGNATURE, head)
        self.check("the PNG is over 10 kB and under 2 MB", 10_000 < size < 2_000_000, f"{size} bytes")
        self.check("plot notes the rows with Send_B 0 it skips",
                   f"note: {data('host_x_self.csv')}:2: N=64" in p.stderr, p.stderr)

        out2 = self.fresh("none.png")
        p = self.run("plot", data("host_x_self.csv"), "-o", out2)
        self.check("plot with nothing to plot exits 1 and writes nothing",
                   p.returncode == 1 and not os.path.exists(out2), p.stderr)
        p = self.run("plot", data("host_z.csv"), data("bad_truncated.json"), "-o", out2)
        self.expect_error("plot bad_truncated.json: exit 2 and file:line", p,
                          f"plot: {data('bad_truncated.json')}:30: ")
        p = self.run("plot", data("bad_field_count.csv"), "-o", out2)
        self.expect_error("plot bad_field_count.csv: exit 2 and file:line", p,
                          f"plot: {data('bad_field_count.csv')}:4: ")
        p = self.run("plot", data("host_z.csv"))
        self.check("plot without -o: usage error, exit 2", p.returncode == 2 and "usage:" in p.stderr,
                   p.stderr)

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

    def test_schema(self):
        v = self.validator()
        if v is None:
            return
        draft = v.META_SCHEMA.get("$schema", "")
        self.check("the schema is valid draft 2020-12 or draft-07",
                   "2020-12" in draft or "draft-07" in draft, draft)
        goods = fixtures("json")
        self.check("there are JSON fixtures", len(goods) >= 3, goods)
        for path in goods:
            with open(path) as f:
                errs = self.errors(v, json.load(f))
            self.check(f"{os.path.basename(path)} validates against the schema", not errs, errs)

        with open(data("cuda_direct.json")) as f:
            base = json.load(f)

        def broken(what, change):
            doc = copy.deepcopy(base)
            change(doc)
            self.check(f"the schema rejects {what}", bool(self.errors(v, doc)))

        broken("schema_version 2", lambda d: d.update(schema_version=2))
        broken("a row without Uni_GBps", lambda d: d["rows"][0].pop("Uni_GBps"))
        broken("a misspelt row field", lambda d: d["rows"][0].update(Uni_Gbps=1.0))
        broken("Peer_GBps as the string n/a", lambda d: d["rows"][0].update(Peer_GBps="n/a"))
        broken("gpu_aware as a number", lambda d: d["run"].update(gpu_aware=1))
        broken("a run without schedule", lambda d: d["run"].pop("schedule"))
        broken("a schedule other than bulk, pipelined or -", lambda d: d["run"].update(schedule="eager"))
        broken("a grid of two numbers", lambda d: d["run"].update(grid=[2, 2]))
        broken("an environment value that is a number",
               lambda d: d["run"]["environment"].update(CUDA_VISIBLE_DEVICES=0))
        broken("a run without environment", lambda d: d["run"].pop("environment"))
        broken("a program name other than halo-bandwidth", lambda d: d["program"].update(name="x"))
        broken("a fractional N", lambda d: d["rows"][0].update(N=64.5))
        broken("Eff as the string n/a", lambda d: d["rows"][0].update(Eff="n/a"))
        broken("Copy_GBps as null", lambda d: d["rows"][0].update(Copy_GBps=None))

        hr = self.hr
        schema = v.schema
        row_props = set(schema["$defs"]["row"]["properties"])
        self.check("the schema's row fields are the reader's MEASURES + OPTIONAL",
                   row_props == set(hr.MEASURES + hr.OPTIONAL), row_props ^ set(hr.MEASURES + hr.OPTIONAL))
        run_props = set(schema["properties"]["run"]["properties"])
        self.check("the schema's run has every run setting of the CSV",
                   set(hr.SETTINGS) - {"program", "version", "commit"} <= run_props)

        doc_md = os.path.join(os.path.dirname(os.path.abspath(self.args.schema)), "output.md")
        if self.check("docs/output.md is next to the schema", os.path.exists(doc_md), doc_md):
            with open(doc_md) as f:
                text = f.read()
            names = set(hr.CSV_COLUMNS) | row_props | run_props
            names |= set(schema["properties"]["program"]["properties"])
            names |= set(schema["properties"]["run"]["properties"]["environment"]["required"])
            quoted = re.findall(r"`([^`\n]+)`", text)
            missing = sorted(n for n in names
                             if not any(re.search(r"(^|[.])" + re.escape(n) + r"($|[.])", q) for q in quoted))
            self.check("docs/output.md names every field (in `...`)", not missing, missing)
            self.check("docs/output.md gives the schema name and version",
                       "halo-bandwidth-result" in text and "`schema_version`" in text and
                       re.search(r"schema_version.{0,40}\b1\b", text) is not None)

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
                self.check(f"--validate {path}: exact CSV columns and decimals", not problems,
                           "; ".join(problems[:5]))

    # -- readers ---------------------------------------------------------------------------------

    def test_readers(self):
        hr = self.hr
        pairs = [(c, c[:-4] + ".json") for c in fixtures("csv") if os.path.exists(c[:-4] + ".json")]
        self.check("there are CSV/JSON fixture pairs of the same run", len(pairs) >= 3, pairs)
        for c, j in pairs:
            self.check_same(hr.read(c), hr.read(j))

        for path in fixtures("csv"):
            problems = hr.csv_format_problems(path)
            self.check(f"{os.path.basename(path)} has the exact columns and decimals", not problems, problems)
        with open(data("cuda_direct.csv")) as f:
            lines = f.read().split("\n")
        loose = self.temp("copy_na.csv", "\n".join(lines[:1] + [lines[1].replace(",1187.234,", ",n/a,")]))
        f = hr.read(loose)
        self.check("the reader takes n/a in any optional column; the exact check only in Eff and Peer_GBps",
                   f.rows[0]["Copy_GBps"] == hr.NA and len(hr.csv_format_problems(loose)) == 1,
                   hr.csv_format_problems(loose))
        r = hr.read(data("host_x_self.json")).rows[0]
        self.check("Eff null (Send_B 0) reads as n/a", r["Eff"] == hr.NA and r["Xfer_GBps"] == 0.0)
        for path in fixtures("csv", bad=True) + fixtures("json", bad=True):
            self.check(f"{os.path.basename(path)} is rejected", self.read_error(path) is not None)

        f = hr.read(data("concat.csv"))
        self.check("concatenated CSV: repeated header and comments skipped, 2 runs, 5 rows",
                   f.kind == "csv" and len(f.runs) == 2 and len(f.rows) == 5
                   and [r.line for r in f.rows] == [3, 4, 5, 8, 9]
                   and f.rows[3]["grid"] == "1x3x2" and f.rows[3]["Send_min_B"] == 21504,
                   [(r.line, r["grid"]) for r in f.rows])
        f = hr.read(data("cuda_staged.json"))
        r = f.rows[0]
        self.check("JSON reader: settings and types", f.kind == "json" and r["grid"] == "1x2x2"
                   and r["schedule"] == "pipelined"
                   and r["gpu_aware"] == "0" and r["contiguous"] == 1 and isinstance(r["N"], int)
                   and isinstance(r["Time_us"], float) and r["Peer_GBps"] == hr.NA
                   and r["Copy_GBps"] == 1187.23417 and f.runs[0].meta["run"]["hosts"][0]["name"] == "gpu017",
                   r.as_dict())
        r = hr.read(data("host_z.json")).rows[0]
        self.check("an optional field not measured is None", r["Min_us"] is None and r["Peer_GBps"] is None)
        self.check("a JSON file without rows reads as no rows", hr.read(data("empty_rows.json")).rows == [])

        with open(data("host_z.json")) as f:
            text = f.read()
        cases = [
            ("row_lacks_uni.json", text.replace('"Uni_GBps": 16.74', '"Uni_GBp": 16.74'), 30, "Uni_GBps"),
            ("ranks_string.json", text.replace('"ranks": 2,', '"ranks": "2",'), 10, "ranks"),
            ("version2.json", text.replace('"schema_version": 1', '"schema_version": 2'), 3, "schema_version"),
            ("nan.json", text.replace('"Time_us": 15.6531', '"Time_us": NaN'), 30, "finite"),
            ("bad_schedule.json", text.replace('"schedule": "-"', '"schedule": "eager"'), 23, "schedule"),
            ("bad_pack.json", text.replace('"pack": "datatype"', '"pack": "kernels"'), 20, "pack"),
            ("extra.json", text + "{}", 34, "Extra data"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            self.check(f"JSON reader rejects {name} at line {line}",
                       e is not None and e.line == line and word in e.message, str(e))

        with open(data("host_z.csv")) as f:
            lines = f.read().split("\n")
        header = lines[1]
        cases = [
            ("crlf.csv", "\r\n".join(lines), None, ""),
            ("other_header.csv", "\n".join(lines[:3] + [header.replace(",Peer_GBps", "")] + lines[3:]), 4,
             "differs"),
            ("send_min.csv", "\n".join(lines[:2] + [lines[2].replace(",65536,65536,", ",65536,65537,")]), 3,
             "Send_min_B"),
            ("gpu_aware.csv", "\n".join(lines[:2] + [lines[2].replace(",n/a,0,", ",yes,0,")]), 3, "gpu_aware"),
            ("schedule.csv", "\n".join(lines[:2] + [lines[2].replace(",datatype,-,", ",datatype,eager,")]), 3,
             "schedule"),
            ("no_schedule.csv", "\n".join(lines[:1] + [lines[1].replace(",schedule,", ",")]
                                           + [l.replace(",datatype,-,", ",datatype,") for l in lines[2:]]), 2,
             "schedule"),
            ("grid.csv", "\n".join(lines[:2] + [lines[2].replace(",1x1x2,", ",1x1,")]), 3, "grid"),
            ("underscore.csv", "\n".join(lines[:2] + [lines[2].replace(",7.6,", ",7_6,")]), 3, "Time_us"),
            ("comments_only.csv", "# nothing\n", 1, "header"),
            ("empty.csv", "", 1, "empty"),
        ]
        for name, bad, line, word in cases:
            e = self.read_error(self.temp(name, bad))
            if line is None:
                self.check(f"CSV reader accepts {name}", e is None, str(e))
            else:
                self.check(f"CSV reader rejects {name} at line {line}",
                           e is not None and e.line == line and word in e.message, str(e))

    def check_same(self, c, j):
        hr = self.hr
        name = f"{os.path.basename(c.path)} and {os.path.basename(j.path)} read the same"
        problems = []
        if len(c.rows) != len(j.rows):
            problems.append(f"{len(c.rows)} vs {len(j.rows)} rows")
        for rc, rj in zip(c.rows, j.rows):
            for k in hr.CSV_COLUMNS:
                a, b = rc[k], rj[k]
                if isinstance(a, float) and isinstance(b, float):
                    tol = 0.5 * 10 ** -hr.DECIMALS[k] * (1 + 1e-9) + 1e-12
                    if abs(a - b) > tol:
                        problems.append(f"N={rc['N']} {k}: {a} vs {b}")
                elif a != b or type(a) is not type(b):
                    problems.append(f"N={rc['N']} {k}: {a!r} vs {b!r}")
        self.check(name + " (settings exact, numbers to the CSV's precision)", not problems, problems[:5])


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
