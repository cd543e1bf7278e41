#!/usr/bin/env python3
"""The exchanger's host performance, each figure set against a reference
measured in the same run, interleaved: the figure and its reference run one
after the other, in alternating order, several times, and the table gives
medians (and the median of the per-pair ratios). This machine's rates are
bimodal (the same command can run 2-4x slower minutes later), so only figures
taken side by side are compared. Not a test: ctest never asserts a timing.

Sections (--sections, default all):
  watchdog  the out-of-band watchdog: --timeout 300 against --timeout 0 (no
            watchdog thread), and, with --baseline, the previous polling
            watchdog (MPI_Testall spin); 2 ranks, and 8 ranks oversubscribed

Usage: scripts/bench_host.py [--build build] [--baseline OLD_BUILD] [--sections a,b]
                             [--pairs 5] [--markdown FILE]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMP_NUM_THREADS="1", OMP_PROC_BIND="false", KOKKOS_DISABLE_WARNINGS="1")


def mpiexec(ranks):
    cmd = ["mpiexec", "-n", str(ranks)]
    version = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout
    if ("Open MPI" in version or "OpenRTE" in version) and (os.cpu_count() or 1) < ranks:
        cmd.append("--oversubscribe")
    return cmd


def table(exe, ranks, flags):
    """Rows of one run, keyed by N (or L), each a dict of column -> text."""
    cmd = mpiexec(ranks) + [exe] + flags
    out = subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True).stdout
    cols, rows = None, {}
    for line in out.splitlines():
        if line.startswith("# N ") or line.startswith("# L "):
            cols = line[2:].split()
        elif line and not line.startswith("#"):
            row = dict(zip(cols, line.split()))
            key = (int(row.get("N", row.get("L", 0))), int(row.get("H", 0)))
            rows[key] = row
    return rows


def shown(exe, ranks, flags):
    return " ".join(["mpiexec -n", str(ranks), os.path.relpath(exe)] + flags)


def interleave(configs, pairs):
    """configs: name -> (exe, ranks, flags). Runs every config once per pair,
    the order rotated each pair; returns name -> [rows of each pair]."""
    names = list(configs)
    got = {n: [] for n in names}
    for p in range(pairs):
        order = names[p % len(names):] + names[:p % len(names)]
        for n in order:
            got[n].append(table(*configs[n]))
    return got


def med(values):
    return statistics.median(values) if values else float("nan")


def ratio_text(values):
    """Median of per-pair ratios, with their quartiles: "0.99 (0.95-1.02)"."""
    if len(values) < 4:
        return f"{med(values):.3f}"
    q = statistics.quantiles(values, n=4)
    return f"{med(values):.3f} ({q[0]:.2f}-{q[2]:.2f})"


class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, text=""):
        print(text, flush=True)
        self.lines.append(text)


def section_watchdog(args, emit):
    emit("### The watchdog, out of band: its cost on the timed rates\n")
    emit("Time_us with the watchdog armed (`--timeout 300`, the default: a timer thread, and two atomic "
         "stores around each plain `MPI_Waitall`/`MPI_Barrier`) against `--timeout 0` (no watchdog thread)"
         + (", and the previous build's polling watchdog (`MPI_Testall`/`MPI_Test` spin under the deadline)"
            if args.baseline else "") + ". Median of the interleaved runs; ratio = median over pairs of "
         "Time_us(config) / Time_us(off), with the quartiles of the per-pair ratios in brackets. At 8 ranks "
         "on 2 cores each pair is given three times the runs, since the scheduler dominates there.\n")
    new = os.path.join(args.build, "halo-bandwidth")
    cases = [(2, ["--axis", "z", "--grid", "1,1,2", "--pack", "datatype", "--sizes", "128,256,512"]),
             (2, ["--axis", "z", "--grid", "1,1,2", "--pack", "kernel", "--sizes", "128,256,512"]),
             (8, ["--faces", "--pack", "kernel", "--sizes", "32,64,128"])]
    common = ["--repeats", "5", "--iters", "50", "--warmup", "5"]
    emit("| ranks | case | N | off Time_us | on Time_us | on/off | " +
         ("polling Time_us | polling/off |" if args.baseline else ""))
    emit("|---|---|---|---|---|---|" + ("---|---|" if args.baseline else ""))
    cmds = []
    for ranks, flags in cases:
        configs = {"off": (new, ranks, flags + common + ["--timeout", "0"]),
                   "on": (new, ranks, flags + common + ["--timeout", "300"])}
        if args.baseline:
            configs["polling"] = (os.path.join(args.baseline, "halo-bandwidth"), ranks,
                                  flags + common + ["--timeout", "300"])
        cmds += [shown(*c) for c in configs.values()]
        got = interleave(configs, args.pairs * (3 if ranks > (os.cpu_count() or 1) else 1))
        for key in sorted(got["off"][0]):
            t = {n: [float(r[key]["Time_us"]) for r in got[n]] for n in configs}
            ratio = lambda n: ratio_text([a / b for a, b in zip(t[n], t["off"])])
            line = (f"| {ranks} | {' '.join(flags[:2])} {flags[flags.index('--pack') + 1]} | {key[0]} | "
                    f"{med(t['off']):.1f} | {med(t['on']):.1f} | {ratio('on')} |")
            if args.baseline:
                line += f" {med(t['polling']):.1f} | {ratio('polling')} |"
            emit(line)
    emit()
    emit("Commands: " + "; ".join(f"`{c}`" for c in cmds))
    emit()


SECTIONS = {"watchdog": section_watchdog}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--baseline", help="a build of an earlier commit to compare against (watchdog section)")
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--pairs", type=int, default=5, help="interleaved repetitions of each comparison")
    ap.add_argument("--markdown", help="also write the figures as Markdown here")
    args = ap.parse_args()
    emit = Report()
    mpi = subprocess.run(["mpiexec", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    emit(f"Machine: {platform.node()}, {os.cpu_count()} cores, {platform.machine()}; {mpi}")
    emit()
    for name in args.sections.split(","):
        SECTIONS[name](args, emit)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(emit.lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
