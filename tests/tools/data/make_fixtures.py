#!/usr/bin/env python3
"""Regenerates the schema_version 3 fixtures of tests/tools from the real benchmark.

usage: make_fixtures.py [--exe build/halo-bandwidth] [--mpiexec mpiexec]

Each fixture below is one run of halo-bandwidth (small sizes, --iters 3). A CSV/JSON
pair is two runs with the same options, one per format; so that the pair holds the same
numbers (test_tools.py checks that both readers give the same rows), the CSV's measured
numbers are then replaced by the JSON's, printed with the CSV's decimals exactly as the
benchmark prints them. Everything else in the CSV (settings, whole numbers, Global,
quoting, provenance, status) is as the benchmark wrote it. The bad_*.{csv,json} files
are derived from the good ones by one deliberate fault each.

The measured choices (Slowest, Slowest_host, and Iters with --iters auto) are copied
from the JSON too.

Runs that do not complete, as the benchmark leaves their files:
  host_failed     --check finds a spoiled ghost cell in the second row (exit 1): status
                  failed, the first row kept (HALOBW_TEST_HOOK_CORRUPT, _FROM_ROW)
  host_incomplete the job killed from outside while the second row hangs (a rank that
                  never sends, no watchdog): the checkpoint written after the first row,
                  status incomplete
not_a_result.json is a JSON document of another kind (as CMakePresets.json), which
scripts/plot skips. The version-1 and version-2 fixtures in v1/ and v2/ are kept as they
were: they prove old files still read.
"""
import argparse
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
import halobw_results as hr  # noqa: E402

COMMON = ["--iters", "3", "--warmup", "2"]
# name, ranks, options, formats
FIXTURES = [
    ("host_z", 2, ["--axis", "z", "--sizes", "16,32,48"], ("csv", "json")),
    ("host_overlap", 2, ["--axis", "z", "--sizes", "16,32", "--halo", "1,2", "--fields", "2", "--breakdown",
                         "--overlap", "--limit", "--repeats", "2"], ("csv", "json")),
    ("host_local_box", 2, ["--local", "8,12", "--stencil", "box", "--method", "rma"], ("csv", "json")),
    ("host_x_self", 2, ["--axis", "x", "--sizes", "16,32", "--breakdown", "--limit"], ("csv", "json")),
    ("host_z_kernel", 2, ["--axis", "z", "--sizes", "16,32", "--pack", "kernel", "--schedule", "bulk"],
     ("csv",)),
    ("host_faces", 4, ["--faces", "--sizes", "16,24"], ("csv",)),
    ("host_faces_separate", 4, ["--faces", "--sizes", "16,24", "--fields", "3", "--messages", "separate",
                                "--method", "persistent"], ("csv",)),
    ("host_uneven", 4, ["--grid", "1,2,2", "--axis", "z", "--sizes", "16,17", "--hugepages", "off"],
     ("csv", "json")),
    ("host_local_overlap", 2, ["--local", "8,16", "--axis", "z", "--overlap", "--streams", "2", "--progress",
                               "poll", "--method", "neighbor"], ("json",)),
    # K chosen by time per row, and every rank's time, bytes and host (JSON).
    ("host_auto_per_rank", 4, ["--faces", "--sizes", "16,17", "--iters", "auto", "--min-time", "0.01",
                               "--per-rank"], ("csv", "json")),
    # A box of extents beside a cube (no N in either row: Global names the box) and walls along y and z.
    ("host_box_walls", 4, ["--faces", "--sizes", "16x12x8,12", "--periodic", "x"], ("csv", "json")),
    # Per-rank bricks, one no cube (Local in every row), walls on every axis, MPI_Cart_create's placement.
    ("host_local_extents", 2, ["--local", "8x6x4,6", "--stencil", "box", "--periodic", "none", "--placement",
                               "cart"], ("csv", "json")),
    # --overlap on a box of extents beside a cube (plot --overlap's axis for boxes).
    ("host_box_overlap", 2, ["--axis", "z", "--sizes", "16x16x8,16,32x16x16", "--overlap"], ("json",)),
    # The node-aware placement on one node (node grid 1x1x1), a halo sweep.
    ("host_nodes", 4, ["--faces", "--sizes", "12,16", "--halo", "1,2", "--placement", "nodes"], ("json",)),
]


# name, ranks, options, fault hooks, the exit code the run ends with
FAILED = ("host_failed", 2, ["--axis", "z", "--sizes", "16,32,48", "--check"],
          {"HALOBW_TEST_HOOK_CORRUPT": "1", "HALOBW_TEST_HOOK_FROM_ROW": "2"}, 1)
INCOMPLETE = ("host_incomplete", 2, ["--axis", "z", "--sizes", "16,32", "--timeout", "0"],
              {"HALOBW_TEST_HOOK_SKIP_SENDS": "1", "HALOBW_TEST_HOOK_FROM_ROW": "2"})
NOT_A_RESULT = """{
  "version": 6,
  "cmakeMinimumRequired": {"major": 3, "minor": 25, "patch": 0},
  "configurePresets": [{"name": "host", "binaryDir": "${sourceDir}/build"}]
}
"""


def command(exe, mpiexec, ranks, options, fmt, out):
    common = COMMON[2:] if "--iters" in options else COMMON
    return [mpiexec, "--oversubscribe", "-n", str(ranks), exe, *common, *options, "--format", fmt,
            "--output", os.path.basename(out), "--quiet"]


def environment(hooks=None):
    env = dict(os.environ, **(hooks or {}))
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def run(exe, mpiexec, ranks, options, fmt, out, hooks=None, rc=0):
    p = subprocess.run(command(exe, mpiexec, ranks, options, fmt, out), env=environment(hooks),
                       cwd=os.path.dirname(out), capture_output=True, text=True)
    if p.returncode != rc:
        sys.exit(f"{out}: exit {p.returncode}, want {rc}\n{p.stderr}")


def run_killed(exe, mpiexec, ranks, options, fmt, out, hooks):
    """Starts a run that hangs in its second row, waits for the file its first row leaves, and
    kills the job: the file is the checkpoint of a run still measuring."""
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.Popen(command(exe, mpiexec, ranks, options, fmt, out), env=environment(hooks),
                         cwd=os.path.dirname(out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    deadline = time.time() + 60
    while not os.path.exists(out) and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # the second row is under way, and hangs
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    if not os.path.exists(out):
        sys.exit(f"{out}: no checkpoint written within 60 s")


def align(csv_path, json_path):
    """Writes the JSON's numbers into the CSV, with the CSV's decimals (Hidden too: an empty
    field where the JSON has null, no share)."""
    with open(json_path) as f:
        doc = json.load(f)
    with open(csv_path, newline="") as f:
        text = f.read()
    records = list(csv.reader(io.StringIO(text, newline="")))
    header, rows = records[0], records[1:]
    if len(rows) != len(doc["rows"]):
        sys.exit(f"{csv_path}: {len(rows)} rows, {json_path} {len(doc['rows'])}")
    out = [",".join(hr.csv_field(v) for v in header)]
    for fields, jrow in zip(rows, doc["rows"]):
        for i, name in enumerate(header):
            if name == "Hidden" and name in jrow:
                fields[i] = "" if jrow[name] is None else hr.csv_number(name, jrow[name])
                continue
            # Measured, not planned: which rank was slowest, and K with --iters auto, differ between runs.
            if name in ("Iters", "Slowest", "Slowest_host"):
                fields[i] = str(jrow[name])
                continue
            if name == "Skew":
                fields[i] = hr.NA if jrow[name] is None else hr.csv_number(name, jrow[name])
                continue
            if name not in hr.COLUMNS or fields[i] in ("", hr.NA):
                continue
            if name in hr.INT_FIELDS or name in hr.BOX_COLUMNS:
                if str(jrow[name]) != fields[i]:
                    sys.exit(f"{csv_path}: {name} {fields[i]} vs {jrow[name]} in {json_path}")
                continue
            fields[i] = hr.csv_number(name, jrow[name])
        out.append(",".join(hr.csv_field(v) for v in fields))
    with open(csv_path, "w", newline="") as f:
        f.write("\n".join(out) + "\n")


def lines(path):
    with open(path, newline="") as f:
        return f.read().split("\n")


def write(name, text):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


def derive_bad():
    z = lines(os.path.join(HERE, "host_z.csv"))
    # The last field of the second row cut off (the environment column).
    write("bad_field_count.csv", "\n".join(z[:2] + [z[2].rsplit(",", 1)[0]] + z[3:]))
    header = z[0].split(",")
    drop = header.index("Uni_GBps")

    def without(line):
        rec = next(csv.reader([line]))
        del rec[drop]
        return ",".join(hr.csv_field(v) for v in rec)

    write("bad_missing_column.csv", "\n".join([without(z[0])] + [without(l) for l in z[1:] if l] + [""]))
    rec = next(csv.reader([z[2]]))
    rec[header.index("Time_us")] += "us"
    write("bad_number.csv", "\n".join(z[:2] + [",".join(hr.csv_field(v) for v in rec)] + z[3:]))
    # A quoted field (the command line) that is never closed.
    write("bad_unclosed_quote.csv", "\n".join(z[:3] + [z[3].replace('",', ",", 1)] + [""]))
    j = lines(os.path.join(HERE, "host_z.json"))
    rows_at = next(i for i, l in enumerate(j) if l.startswith(' "rows"'))
    cut = j[rows_at + 2]
    write("bad_truncated.json", "\n".join(j[:rows_at + 2] + [cut[:len(cut) // 2]]))  # no line end
    first = j[rows_at + 1]
    write("bad_n_and_l.json", "\n".join(j[:rows_at + 1] + [first.replace('{"N":16,', '{"N":16,"L":8,')]
                                        + j[rows_at + 2:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    ap.add_argument("--exe", default=os.path.join(root, "build", "halo-bandwidth"))
    ap.add_argument("--mpiexec", default="mpiexec")
    args = ap.parse_args()
    exe = os.path.abspath(args.exe)
    for name, ranks, options, formats in FIXTURES:
        for fmt in formats:
            run(exe, args.mpiexec, ranks, options, fmt, os.path.join(HERE, f"{name}.{fmt}"))
        if formats == ("csv", "json"):
            align(os.path.join(HERE, f"{name}.csv"), os.path.join(HERE, f"{name}.json"))
    name, ranks, options, hooks, rc = FAILED
    for fmt in ("csv", "json"):
        run(exe, args.mpiexec, ranks, options, fmt, os.path.join(HERE, f"{name}.{fmt}"), hooks, rc)
    align(os.path.join(HERE, f"{name}.csv"), os.path.join(HERE, f"{name}.json"))
    name, ranks, options, hooks = INCOMPLETE
    for fmt in ("csv", "json"):
        run_killed(exe, args.mpiexec, ranks, options, fmt, os.path.join(HERE, f"{name}.{fmt}"), hooks)
    align(os.path.join(HERE, f"{name}.csv"), os.path.join(HERE, f"{name}.json"))
    write("not_a_result.json", NOT_A_RESULT)
    # Two runs in one CSV file, as `cat host_z.csv host_uneven.csv` makes them.
    concat = "".join(open(os.path.join(HERE, n), newline="").read() for n in ("host_z.csv", "host_uneven.csv"))
    write("concat.csv", concat)
    derive_bad()
    for n in sorted(os.listdir(HERE)):
        if n.endswith((".csv", ".json")) and not n.startswith(("bad_", "not_a_result")):
            f = hr.read(os.path.join(HERE, n))
            problems = hr.csv_format_problems(f.path) if f.kind == "csv" else []
            print(f"{n}: version {f.version}, {len(f.rows)} rows, {f.status['state']}"
                  + (f"; {problems}" if problems else ""))


if __name__ == "__main__":
    main()
