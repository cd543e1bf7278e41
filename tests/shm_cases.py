#!/usr/bin/env python3
"""End-to-end cases of the direct method (--method shm), each table through
scripts/check_table.py and judged on its --check lines.

Suites:
  shm        --check at 1 2 4 8 ranks: --faces, --stencil box, walls, --fields 3, uneven splits, --halo 1 and
             3, both packs and the staged transport; --overlap --check (bit for bit); --breakdown's note on
             where the copy's time goes; the note of what rank 0 copies on its node
  shm_sync   the synchronisation is needed: with its waits removed and one rank's fill late
             (HALOBW_TEST_HOOK_UNSYNCED), --check finds a ghost cell its neighbour had not yet written; a rank
             that never says its boundary is written (HALOBW_TEST_HOOK_SKIP_SENDS) is named with its flag by the
             watchdog of the rank that waits for it
"""
import re
import sys

import run_cases
from run_cases import FAST

CHECK = ["--method", "shm", "--check"] + FAST


def shm(r):
    cases = [
        ["--faces", "--sizes", "16,17"],
        ["--stencil", "box", "--sizes", "12,13", "--halo", "3", "--fields", "3"],
        ["--faces", "--sizes", "13x10x9,8", "--periodic", "y,z", "--fields", "2"],
        ["--stencil", "box", "--sizes", "13x10x9", "--periodic", "none", "--halo", "2"],
        ["--faces", "--sizes", "12", "--pack", "kernel", "--halo", "1"],
        ["--axis", "x", "--sizes", "12", "--pack", "kernel", "--gpu-aware", "off", "--fields", "3"],
    ]
    for ranks in (1, 2, 4, 8):
        for flags in cases:
            sizes = flags[flags.index("--sizes") + 1].split(",")
            boxes = any("x" in s for s in sizes)  # then every row is named by its extents
            label = lambda s: f"Global={s if 'x' in s else 'x'.join([s] * 3)}" if boxes else f"N={s}"
            r.table(ranks, flags + CHECK, rows=len(sizes), expect=["method shm"] +
                    [f"# check {label(s)} passed" for s in sizes])
    # Uneven splits: 3 ranks along x of 13 cells, 6 as 3x2x1.
    for ranks, grid in ((3, "3,1,1"), (6, "3,2,1")):
        r.table(ranks, ["--faces", "--grid", grid, "--sizes", "13", "--halo", "2"] + CHECK, rows=1,
                expect=["# check N=13 passed"])
    for ranks in (2, 4, 8):
        r.table(ranks, ["--faces", "--sizes", "16,13", "--overlap"] + CHECK, rows=2,
                expect=["# check N=16 --overlap: overlapped equals blocking, bit for bit",
                        "# check N=13 --overlap: overlapped equals blocking, bit for bit"])
    out = r.table(2, ["--stencil", "box", "--sizes", "16", "--breakdown"] + CHECK, rows=1,
                  expect=["# breakdown N=16: shm: Mpi_us holds the waits on the neighbours' flags"])
    # On one node of 2 ranks split along z: both z faces come from the other rank's field, no message.
    out = r.table(2, ["--axis", "z", "--sizes", "16"] + CHECK, rows=1,
                  expect=["# shm N=16: rank 0 copies 2 pieces out of the fields of 1 ranks on its node, read by 1; "
                          "0 messages to and from other nodes"])


def shm_sync(r):
    for ranks, flags in ((2, ["--axis", "x", "--grid", "2,1,1"]), (4, ["--faces"]), (8, ["--stencil", "box"])):
        r.cases += 1
        what = f"-n {ranks} --method shm without its waits, rank 1 filling late {' '.join(flags)}"
        rc, out, err = r.run(ranks, flags + ["--sizes", "16"] + CHECK, {"HALOBW_TEST_HOOK_UNSYNCED": "1"})
        lines = [l for l in err.splitlines() if l.startswith("halo-bandwidth:")]
        rows = [l for l in out.splitlines() if l and not l.startswith("#")]
        if rc != 1 or len(lines) != 1 or not re.search(r"check N=16 failed: rank \d+ .* by rank 1\) cell", lines[0]) \
                or rows:
            r.fail(what, f"exit {rc}, want 1 and one line naming a ghost cell sent by rank 1\n{out}\n{err}")
        else:
            print(f"ok   {what}: exit {rc}: {lines[0]}")
    r.cases += 1
    what = "-n 2 --method shm, rank 1 never says its boundary is written"
    rc, out, err = r.run(2, ["--faces", "--method", "shm", "--sizes", "16", "--timeout", "2"],
                         {"HALOBW_TEST_HOOK_SKIP_SENDS": "1"})
    named = [l for l in err.splitlines() if l.startswith("halo-bandwidth: timeout on rank 0 after 2 s in the shm flag "
                                                         "wait") and "waiting for rank 1's flag ready" in l]
    if rc != 4 or not named:
        r.fail(what, f"exit {rc}, want 4 and rank 0 naming rank 1's flag ready\n{err}")
    else:
        print(f"ok   {what}: exit {rc}: {named[0]}")


def main():
    return run_cases.run_suite(["shm", "shm_sync"], globals())


if __name__ == "__main__":
    sys.exit(main())
