#!/usr/bin/env python3
"""The exchanger's host performance, each figure set against a reference
measured in the same run (not a test: timings are never asserted by ctest).

  1. datatype path, ±z on 1x1x2: Eff = Uni_GBps / Xfer_GBps (MPI alone on
     contiguous buffers of the same sizes); target Eff >= 0.9 at N >= 256.
  2. kernel path: Pack_us and Unpack_us against a memcpy of the same bytes
     (z and y faces) and against a plain strided-read loop over the same face
     (x faces), both timed by build/halobw-pack-reference; target <= 1.25x.
  3. kernel path Eff, bulk schedule (pack all, send all, wait, unpack all)
     against pipelined (send each face as packed, unpack each as it lands).
  4. self-copy cost per face against a memcpy of the same bytes (1 rank, all
     six faces self).
  5. the watchdog's cost: timed rates with --timeout 0 against the default.

Usage: scripts/bench_host.py [--build build] [--sizes 128,256,512] [--markdown FILE]
"""
import argparse
import os
import platform
import subprocess
import sys


def mpiexec(ranks):
    cmd = ["mpiexec", "-n", str(ranks)]
    version = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout
    if "Open MPI" in version or "OpenRTE" in version:
        if (os.cpu_count() or 1) < ranks:
            cmd.append("--oversubscribe")
    return cmd


def table(build, ranks, flags):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = mpiexec(ranks) + [os.path.join(build, "halo-bandwidth")] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    cols, rows = None, {}
    for line in out.splitlines():
        if line.startswith("# N "):
            cols = line[2:].split()
        elif line and not line.startswith("#"):
            row = dict(zip(cols, line.split()))
            rows[int(row["N"])] = row
    return rows, " ".join(["mpiexec -n", str(ranks), "halo-bandwidth"] + flags)


def reference(build, n, grid, axis, ranks):
    """memcpy_us and strided_us of rank 0's faces, the slowest of `ranks` copies
    run at once, so the references share the memory system as the ranks do."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = mpiexec(ranks) + [os.path.join(build, "halobw-pack-reference"), str(n), grid, axis, "1", "200"]
    lines = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout.splitlines()
    values = [line.split() for line in lines if line.strip()]
    return max(float(v[2]) for v in values), max(float(v[3]) for v in values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="128,256,512")
    ap.add_argument("--markdown", help="also write the figures as Markdown tables here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    common = ["--sizes", args.sizes, "--breakdown", "--repeats", "5", "--iters", "50", "--warmup", "5"]
    md, ok = [], True

    def emit(text=""):
        print(text)
        md.append(text)

    mpi = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    emit(f"Machine: {platform.node()}, {os.cpu_count()} cores, {platform.processor() or platform.machine()}; {mpi}")
    emit()

    rows, cmd = table(args.build, 2, ["--axis", "z", "--grid", "1,1,2", "--pack", "datatype"] + common)
    emit(f"### 1. Datatype path, ±z on 1x1x2\n\n`{cmd}`\n")
    emit("| N | Send_B | Time_us | Uni_GBps | Xfer_us | Xfer_GBps | Eff | target |")
    emit("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        r = rows[n]
        target = "Eff >= 0.9" if n >= 256 else "-"
        good = n < 256 or float(r["Eff"]) >= 0.9
        ok = ok and good
        emit(f"| {n} | {r['Send_B']} | {r['Time_us']} | {r['Uni_GBps']} | {r['Xfer_us']} | {r['Xfer_GBps']} | "
             f"{r['Eff']} | {target + (' met' if good else ' MISSED') if n >= 256 else '-'} |")
    emit()

    emit("### 2. Kernel path: pack and unpack against their references\n")
    emit("| faces | grid | N | Pack_us | Unpack_us | reference | ref_us | Pack/ref | Unpack/ref |")
    emit("|---|---|---|---|---|---|---|---|---|")
    cmds = []
    for axis, grid in (("z", "1,1,2"), ("y", "1,2,1"), ("x", "2,1,1")):
        rows, cmd = table(args.build, 2, ["--axis", axis, "--grid", grid, "--pack", "kernel"] + common)
        cmds.append(cmd)
        for n in sizes:
            memcpy_us, strided_us = reference(args.build, n, grid, axis, 2)
            ref_name, ref = ("strided loop", strided_us) if axis == "x" else ("memcpy", memcpy_us)
            r = rows[n]
            pack, unpack = float(r["Pack_us"]), float(r["Unpack_us"])
            ok = ok and pack <= 1.25 * ref and unpack <= 1.25 * ref
            emit(f"| ±{axis} | {grid.replace(',', 'x')} | {n} | {pack:.1f} | {unpack:.1f} | {ref_name} | {ref:.1f} | "
                 f"{pack / ref:.2f} | {unpack / ref:.2f} |")
    emit()
    emit("Commands: " + "; ".join(f"`{c}`" for c in cmds) +
         f"; references: `mpiexec -n 2 {args.build}/halobw-pack-reference N GRID AXIS 1 200` (two copies at "
         "once, as the two ranks run; the slower one counts)")
    emit()

    emit("### 3. Kernel path Eff: bulk against pipelined schedule\n")
    emit("| faces | N | Eff bulk | Eff pipelined | Time_us bulk | Time_us pipelined |")
    emit("|---|---|---|---|---|---|")
    cmds = []
    for axis, grid in (("z", "1,1,2"), ("x", "2,1,1")):
        got = {}
        for schedule in ("bulk", "pipelined"):
            got[schedule], cmd = table(args.build, 2, ["--axis", axis, "--grid", grid, "--pack", "kernel",
                                                         "--schedule", schedule] + common)
            cmds.append(cmd)
        for n in sizes:
            b, p = got["bulk"][n], got["pipelined"][n]
            emit(f"| ±{axis} | {n} | {b['Eff']} | {p['Eff']} | {b['Time_us']} | {p['Time_us']} |")
    emit()
    emit("Commands: " + "; ".join(f"`{c}`" for c in cmds))
    emit()

    emit("### 4. Self copy per face (1 rank: both faces of the axis are self)\n")
    emit("| faces | N | Unpack_us (2 self copies) | per face | memcpy per face | ratio |")
    emit("|---|---|---|---|---|---|")
    cmds = []
    for axis in ("z", "y", "x"):
        rows, cmd = table(args.build, 1, ["--axis", axis, "--pack", "kernel"] + common)
        cmds.append(cmd)
        for n in sizes:
            memcpy_us, _ = reference(args.build, n, "1,1,1", axis, 1)
            per_face = float(rows[n]["Unpack_us"]) / 2
            emit(f"| ±{axis} | {n} | {rows[n]['Unpack_us']} | {per_face:.1f} | {memcpy_us / 2:.1f} | "
                 f"{per_face / (memcpy_us / 2):.2f} |")
    emit()
    emit("Commands: " + "; ".join(f"`{c}`" for c in cmds))
    emit()
    emit("### 5. The watchdog's cost: timed rates with --timeout 0 (MPI_Waitall) and 300 (polling)\n")
    emit("| path | N | Uni_GBps, watchdog off | Uni_GBps, watchdog on | on / off |")
    emit("|---|---|---|---|---|")
    cmds = []
    for pack in ("datatype", "kernel"):
        got = {}
        for timeout in ("0", "300"):
            got[timeout], cmd = table(args.build, 2, ["--axis", "z", "--grid", "1,1,2", "--pack", pack,
                                                       "--timeout", timeout] + common)
            cmds.append(cmd)
        for n in sizes:
            off, on = float(got["0"][n]["Uni_GBps"]), float(got["300"][n]["Uni_GBps"])
            emit(f"| {pack} ±z | {n} | {off:.3f} | {on:.3f} | {on / off:.2f} |")
    emit()
    emit("Commands: " + "; ".join(f"`{c}`" for c in cmds))
    emit()
    emit("All targets met." if ok else "Some targets were missed (see MISSED and ratios above 1.25).")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
