#!/usr/bin/env python3
"""Writes the schema_version 4 fixtures of tests/tools (data/v4/) from the real benchmark.

usage: make_fixtures.py [--exe build/halo-bandwidth] [--mpiexec mpiexec]
                        [--smpi-exe build-smpi/halo-bandwidth]

v4/host_z is a measured run (simulator none); v4/smpi_z the same options run under
SimGrid's SMPI by scripts/simulate on platforms/this-machine.xml (simulator SimGrid SMPI,
the platform and its SHA-256). Each is two runs with the same options, one per format;
so that a pair holds the same numbers (test_tools.py checks that both readers give the
same rows), the CSV's measured numbers are then replaced by the JSON's, printed with the
CSV's decimals exactly as the benchmark prints them, and the measured choices (Iters,
Slowest, Slowest_host) copied from the JSON too. Everything else in the CSV (settings,
whole numbers, Global, quoting, provenance, status) is as the benchmark wrote it.

The version-3 fixtures in data/ (complete, failed and incomplete runs, the bad_*
files derived from them, concat.csv and not_a_result.json) were written by this script
before version 4 (git log -p tests/tools/data/make_fixtures.py shows how) and are kept as
they were, as are the version-1 and version-2 fixtures in v1/ and v2/: they prove older
files still read.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts"))
import halobw_results as hr  # noqa: E402

COMMON = ["--iters", "3", "--warmup", "2"]
# name, ranks, options: each written once per format into v4/, the CSV's numbers then the JSON's.
V4_FIXTURES = [("host_z", 2, ["--axis", "z", "--sizes", "16,32,48"])]
# The same options simulated by SimGrid's SMPI on the platform calibrated to this machine.
SIMULATED = ("smpi_z", 2, ["--axis", "z", "--sizes", "16,32,48"], "platforms/this-machine.xml")


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


def simulate(root, smpi_exe, ranks, options, platform, fmt, out):
    """One run under SMPI through scripts/simulate (which names the platform and its SHA-256)."""
    cmd = [sys.executable, os.path.join(root, "scripts", "simulate"), "--platform", os.path.join(root, platform),
           "-n", str(ranks), "--exe", smpi_exe, "--", *COMMON, *options, "--format", fmt, "--output", out,
           "--quiet", "--timeout", "0"]
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{out}: exit {p.returncode}\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    ap.add_argument("--exe", default=os.path.join(root, "build", "halo-bandwidth"))
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--smpi-exe", default=os.path.join(root, "build-smpi", "halo-bandwidth"),
                    help="the program built with the smpi preset, for the simulated fixture")
    args = ap.parse_args()
    exe = os.path.abspath(args.exe)
    v4 = os.path.join(HERE, "v4")
    os.makedirs(v4, exist_ok=True)
    for name, ranks, options in V4_FIXTURES:
        for fmt in ("csv", "json"):
            run(exe, args.mpiexec, ranks, options, fmt, os.path.join(v4, f"{name}.{fmt}"))
        align(os.path.join(v4, f"{name}.csv"), os.path.join(v4, f"{name}.json"))
    name, ranks, options, platform = SIMULATED
    for fmt in ("csv", "json"):
        simulate(root, os.path.abspath(args.smpi_exe), ranks, options, platform, fmt,
                 os.path.join(v4, f"{name}.{fmt}"))
    align(os.path.join(v4, f"{name}.csv"), os.path.join(v4, f"{name}.json"))
    for n in sorted(os.listdir(v4)):
        f = hr.read(os.path.join(v4, n))
        problems = hr.csv_format_problems(f.path) if f.kind == "csv" else []
        print(f"v4/{n}: version {f.version}, {len(f.rows)} rows, {f.status['state']}, "
              f"simulator {f.runs[0].simulator['engine']}" + (f"; {problems}" if problems else ""))


if __name__ == "__main__":
    main()
