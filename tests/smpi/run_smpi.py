#!/usr/bin/env python3
"""The program under SimGrid's SMPI (preset smpi), through scripts/simulate.

Suites:
  e2e        64 simulated ranks on platforms/fat-tree-1024.xml (8 a node, so 8 nodes), --check on every
             method that works under SMPI (p2p on both packs, persistent on --pack kernel, rma pscw and
             fence, a box stencil, --placement nodes, --overlap, --breakdown, --per-rank): exit 0 and one
             "check ... passed" line per row; the header names the simulator; the methods SMPI gets wrong
             (neighbor, persistent with datatypes) and the MPI-4 methods its 3.1 headers lack (partitioned,
             neighbor-persistent) refused: exit 2, one line on stderr naming SMPI, no row;
             a rank that never sends (HALOBW_TEST_HOOK_SKIP_SENDS): exit 4 and one line, from SimGrid's deadlock;
             a send to no rank (HALOBW_TEST_HOOK_BAD_PEER): exit 3 and the rank's error, after its MPI_Abort;
             what a simulated run says of itself: the host's readings that mean nothing in a simulation
             (huge pages, host memory per node, peak resident memory) n/a, the nodes' cores the platform's
             (64), not this machine's, and the JSON and CSV files recording SimGrid SMPI, its version, the
             platform and the platform file's SHA-256
  model      the network model's rates, with the computation not simulated (so the simulated times are
             deterministic): on platforms/lumi-g-like.xml, 2 ranks exchanging ±z in one node and on two nodes
             give back seed 000's pair rates that the platform was built from (19.74 and 11.24 GB/s one way,
             within 10%); on platforms/this-machine.xml, 2 ranks in one node give twice the loopback's
             bandwidth (each of the two messages a rank sends at once gets all of it: SimGrid's loopback
             is a FATPIPE), within 10%. Large faces, so that latency is below 1% of the time
  together   two simulations of 64 ranks started at once, three times: both pass --check. Each rank's
             copy of the program and of Kokkos is named by rank and library alone; scripts/simulate gives
             every run its own folder for them (TMPDIR), where in a shared /tmp one run deleted the
             other's copies and failed to dlopen them (3 pairs of 3, before)
  limits     the two 30-line programs beside the refusals: tests/smpi/persistent.c and neighbor.c must
             still fail under this SimGrid. When one passes, SimGrid was fixed: lift the refusal it backs
             (src/exchange/method_persistent.cpp, method_neighbor.cpp) and this case
Exit 77 (ctest: skipped) where smpirun is not installed.
Usage: run_smpi.py --exe HALO_BANDWIDTH --persistent PROGRAM --neighbor PROGRAM SUITE
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIMULATE = os.path.join(ROOT, "scripts", "simulate")
PLATFORM = os.path.join(ROOT, "platforms", "fat-tree-1024.xml")
RANKS = 64
FAST = ["--local", "8", "--iters", "2", "--warmup", "1", "--repeats", "1", "--check"]

# Each case: halo-bandwidth's options beside FAST (every one passes --check).
WORKING = [
    ["--faces"],
    ["--faces", "--pack", "kernel"],
    ["--faces", "--method", "persistent", "--pack", "kernel"],
    ["--faces", "--method", "rma", "--rma-sync", "pscw"],
    ["--faces", "--method", "rma", "--rma-sync", "fence"],
    ["--stencil", "box", "--placement", "nodes"],
    ["--faces", "--overlap", "--breakdown", "--per-rank"],
]
# Each refused case: its options, and what its one line must name.
REFUSED = [
    (["--faces", "--method", "neighbor"], "--method neighbor: SimGrid SMPI"),
    (["--faces", "--method", "persistent"], "--method persistent with MPI datatypes: SimGrid SMPI"),
    # SMPI's headers are MPI 3.1: the registry refuses MPI-4's methods before anything is set up.
    (["--faces", "--method", "partitioned"], "lacks MPI-4 partitioned point-to-point"),
    (["--faces", "--method", "neighbor-persistent"], "lacks persistent neighbourhood collectives"),
]


class Failed(Exception):
    pass


def simulate(exe, ranks, flags, program=None, env=None, platform=PLATFORM, ours=()):
    cmd = [sys.executable, SIMULATE, "--platform", platform, "-n", str(ranks), "--exe", program or exe, *ours]
    cmd += ["--"] + flags
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout, p.stderr, " ".join(cmd)


# The header's lines that say a host reading means nothing in a simulation.
NOT_APPLICABLE = ("# hugepages on: n/a (simulated): the model has no memory pages; this machine (",
                  f"host memory per node n/a (simulated): the simulation's one process holds all {RANKS} ranks' ",
                  f"# peak resident memory per rank n/a (simulated): the simulation's one process, all {RANKS} ranks")
# fat-tree-1024.xml: 64 cores a host (its cluster's core), 8 ranks a host (halobw/ranks_per_node).
PLATFORM_CORES = 64


def check_marks(cmd, out, folder):
    """What the first two runs say of themselves: the n/a readings in the table's header, and the
    simulator, its version, the platform and its SHA-256 in the JSON and CSV files."""
    missing = [line for line in NOT_APPLICABLE if line not in out]
    huge_rows = [l for l in out.splitlines() if l.startswith("# hugepages ") and not l.startswith("# hugepages on:")]
    if missing or "oversubscribed" in out or huge_rows:
        raise Failed(f"{cmd}\nthe header lacks {missing}, or calls the run oversubscribed, or counts this "
                     f"machine's huge pages\n{out}")
    with open(PLATFORM, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(folder, "sim.json")) as f:
        doc = json.load(f)
    sim, run = doc["run"]["simulator"], doc["run"]
    want = {"engine": "SimGrid SMPI", "platform": "platforms/fat-tree-1024.xml", "platform_sha256": sha}
    if (doc["schema_version"] != 4 or any(sim[k] != v for k, v in want.items())
            or not (sim["version"] or "").startswith("3.")
            or any(h["cores"] != PLATFORM_CORES for h in run["hosts"]) or run["oversubscribed"] != 0
            or any("Huge_MiB" in r for r in doc["rows"])):
        raise Failed(f"{cmd}\nsim.json: run.simulator {sim}, want {want}; hosts' cores "
                     f"{[h['cores'] for h in run['hosts']]}, want {PLATFORM_CORES}; no Huge_MiB")
    with open(os.path.join(folder, "sim.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    got = [(r["simulator"], r["simulator_version"], r["platform"], r["platform_sha256"]) for r in rows]
    if not rows or set(got) != {("SimGrid SMPI", sim["version"], want["platform"], sha)} or any(
            r["Huge_MiB"] for r in rows):
        raise Failed(f"{cmd}\nsim.csv: simulator columns {set(got)}, want SimGrid SMPI {sim['version']} "
                     f"{want['platform']} {sha}")
    print(f"ok: the header's n/a readings, the nodes' {PLATFORM_CORES} cores, and SimGrid SMPI {sim['version']} "
          "on the platform with its sha256 in the JSON and CSV files")


def checked_rows(rc, out, err, cmd):
    """The table's rows of a run that must exit 0 with a passed --check on every row."""
    passed = [l for l in out.splitlines() if l.startswith("# check ") and " passed " in l]
    rows = [l for l in out.splitlines() if l and not l.startswith("#")]
    if rc != 0 or not rows or len(passed) != len(rows):
        raise Failed(f"{cmd}\nexit {rc}, {len(rows)} rows, {len(passed)} checks passed\n{out}\n{err}")
    return rows


def e2e(args):
    folder = tempfile.mkdtemp(prefix="halobw-smpi-")
    files = [["--format", "json", "--output", os.path.join(folder, "sim.json")],
             ["--format", "csv", "--output", os.path.join(folder, "sim.csv")]]
    for n, flags in enumerate(WORKING):
        rc, out, err, cmd = simulate(args.exe, RANKS, FAST + flags + (files[n] if n < len(files) else []))
        rows = checked_rows(rc, out, err, cmd)
        if "# simulated by SimGrid SMPI " not in out or " on platform platforms/fat-tree-1024.xml" not in out:
            raise Failed(f"{cmd}\nthe header does not name the simulator\n{out}")
        print(f"ok: {' '.join(flags)}: {len(rows)} row(s), check passed")
        if n == len(files) - 1:
            check_marks(cmd, out, folder)
            shutil.rmtree(folder)
    for flags, fragment in REFUSED:
        rc, out, err, cmd = simulate(args.exe, RANKS, FAST + flags)
        lines = err.strip().splitlines()
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 2 or len(lines) != 1 or fragment not in lines[0] or rows:
            raise Failed(f"{cmd}\nexpected exit 2, one line naming '{fragment}', no row; got exit {rc}\n"
                         f"stderr:\n{err}\nstdout:\n{out}")
        print(f"ok: {' '.join(flags)}: refused: {lines[0]}")
    # A rank that never sends (the test hook): every other rank waits for good.
    rc, out, err, cmd = simulate(args.exe, RANKS, FAST + ["--faces"], env={"HALOBW_TEST_HOOK_SKIP_SENDS": "1"})
    if rc != 4 or "halo-bandwidth: timeout: SimGrid found every rank waiting" not in err:
        raise Failed(f"HALOBW_TEST_HOOK_SKIP_SENDS=1 {cmd}\nexpected exit 4 and the deadlock line; got exit {rc}\n{err}")
    print("ok: a rank that never sends: exit 4, SimGrid's deadlock named")
    # A send to a rank that does not exist (the test hook): that rank's error line, MPI_Abort, exit 3.
    rc, out, err, cmd = simulate(args.exe, RANKS, FAST + ["--faces"], env={"HALOBW_TEST_HOOK_BAD_PEER": "1"})
    if rc != 3 or "halo-bandwidth: error on rank 1: MPI_Isend failed" not in err or "timeout" in err:
        raise Failed(f"HALOBW_TEST_HOOK_BAD_PEER=1 {cmd}\nexpected exit 3 and rank 1's error; got exit {rc}\n{err}")
    print("ok: a send to no rank: exit 3, the rank's error named")


# The model's rates: 2 ranks, ±z on 1x1x2, one 8 MiB face each way (Send_B 16 MiB a rank), no computation
# injected. Each case: platform, ranks per node, the one-way rate expected (GB/s), and where it comes from.
# A message per face (--messages aggregated), as seed 000's program sent them and as the platforms were
# calibrated: SimGrid's FATPIPE loopback gives each message all of its bandwidth, so the default's one
# message per peer (both faces in one) gets half the in-node rate (docs/simulate.md).
MODEL_FLAGS = ["--axis", "z", "--grid", "1,1,2", "--sizes", "1024x1024x4", "--iters", "3", "--warmup", "1",
               "--hugepages", "off", "--messages", "aggregated"]
NO_COMPUTATION = ["--cfg=smpi/simulate-computation:no"]
SEED_IN_NODE, SEED_OFF_NODE = 19.74, 11.24  # seed 000, LUMI-G, n = 2048: in-package pair, two nodes


def loopback_gbps(platform):
    """The loopback bandwidth of the platform's cluster, in GB/s (the XML's "6.15GBps")."""
    text = next(el.get("loopback_bw") for el in ET.parse(platform).getroot().iter() if el.tag == "cluster")
    value, unit = re.fullmatch(r"([0-9.]+)([GM])Bps", text).groups()
    return float(value) * (1 if unit == "G" else 1e-3)


def model(args):
    lumi = os.path.join(ROOT, "platforms", "lumi-g-like.xml")
    here = os.path.join(ROOT, "platforms", "this-machine.xml")
    cases = [(lumi, 2, SEED_IN_NODE, "seed 000's in-package pair"),
             (lumi, 1, SEED_OFF_NODE, "seed 000's pair on two nodes"),
             (here, 2, 2 * loopback_gbps(here), "twice this-machine.xml's loopback_bw")]
    for platform, per_node, want, source in cases:
        rc, out, err, cmd = simulate(args.exe, 2, MODEL_FLAGS, platform=platform,
                                     ours=NO_COMPUTATION + ["--ranks-per-node", str(per_node)])
        cols = next((l[2:].split() for l in out.splitlines() if l.startswith("# Global ")), None)
        rows = [dict(zip(cols, l.split())) for l in out.splitlines() if l and not l.startswith("#")] if cols else []
        if rc != 0 or len(rows) != 1:
            raise Failed(f"{cmd}\nexit {rc}, {len(rows)} rows\n{out}\n{err}")
        got = float(rows[0]["Uni_GBps"])
        nodes = "one node" if per_node == 2 else "two nodes"
        if not 0.9 * want <= got <= 1.1 * want:
            raise Failed(f"{cmd}\nUni_GBps {got} on {nodes}, expected {want:.2f} ({source}) within 10%\n{out}")
        print(f"ok: {os.path.basename(platform)}, 2 ranks on {nodes}: {got} GB/s, {source} {want:.2f} within 10%")


# Each program, its ranks, and what shows that SMPI still gets it wrong: the
# wrong values it prints (exit 1), or SimGrid's abort.
LIMITS = [
    ("persistent", 2, lambda rc, out, err: rc == 1 and "WRONG values" in out),
    ("neighbor", 4, lambda rc, out, err: rc != 0 and "Not yet implemented: PMPI_Dist_graph_create_adjacent" in err),
]


def together(args):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for _ in range(3):
            runs = [pool.submit(simulate, args.exe, RANKS, FAST + ["--faces"]) for _ in range(2)]
            for run in runs:
                checked_rows(*run.result())
    print("ok: two simulations at once, three times: both passed --check")


def limits(args):
    for name, ranks, still_wrong in LIMITS:
        rc, out, err, cmd = simulate(args.exe, ranks, [], getattr(args, name))
        if rc == 0 and "right values" in out:
            raise Failed(f"{cmd}\ntests/smpi/{name}.c passes under this SimGrid: lift the refusal of "
                         f"--method {name} under SMPI, and this case\n{out}")
        if not still_wrong(rc, out, err):
            raise Failed(f"{cmd}\ntests/smpi/{name}.c did not run as expected: exit {rc}\n{out}\n{err}")
        print(f"ok: tests/smpi/{name}.c still fails under SMPI (exit {rc}): the refusal stands")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--exe", required=True)
    p.add_argument("--persistent", required=True)
    p.add_argument("--neighbor", required=True)
    p.add_argument("suite", choices=["e2e", "model", "together", "limits"])
    args = p.parse_args()
    if shutil.which("smpirun") is None:
        print("SKIP: SimGrid's smpirun is not installed (Debian's libsimgrid-dev: scripts/setup.sh smpi)")
        return 77
    try:
        {"e2e": e2e, "model": model, "together": together, "limits": limits}[args.suite](args)
    except Failed as e:
        print(f"FAILED: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
