#!/usr/bin/env python3
"""Every example of README.md, docs/*.md and --help runs as written, or says why it cannot here.

The examples are the commands of the fenced code blocks (a `$ ` prompt dropped, a line ending in
a backslash joined to the next) that run this project's programs: `mpirun`/`mpiexec`/`srun`,
`build*/halo-bandwidth`, `scripts/...` (with or without `/usr/bin/python3` before it), and the
`mpirun` lines of --help's examples. An example is either

- marked, by a comment `# needs: a GPU`, `# needs: a cluster`, `# needs: the smpi build` (SimGrid's
  simulated build, docs/simulate.md) or `# needs: earlier output ...` at
  the end of its line, or on a line of its own earlier in its block (then for the rest of the
  block): it is not run, and `srun` must be so marked; or
- run, the blocks of one document in order, each in a fresh folder that holds `build` (this
  build), `scripts`, `docs` and `CMakePresets.json` of the repository, with the documented
  launcher flags (Open MPI: `--oversubscribe`, as README says next to its first multi-rank
  example) and each size divided by 8 (at least 12; a range's step too) unless it is a --dry-run.
  It must exit 0, and must not warn that nothing crossed ranks unless its line says
  `# shows the warning`.

`./scripts/run.sh`, `./scripts/test.sh` and `scripts/setup.sh` are the set-up, not run here:
test.sh is what runs this suite, run.sh's job is e2e/readme's command, and scripts/setup_split
holds what they install (a test installs no package) and build.

usage: docs_launch.py --root REPO --exe build/halo-bandwidth --mpiexec MPIEXEC --kind openmpi|mpich
       docs_launch.py --self-test
Prints one line per example; exit status 1 when one fails or an srun is not marked.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROGRAMS = re.compile(r"^(?:/usr/bin/python3 )?(?:mpirun|mpiexec|srun|mkdir -p |\./scripts/|scripts/|build[\w-]*/halo-bandwidth)")
NEEDS = re.compile(r"#\s*needs: (a GPU|a cluster|earlier output|the smpi build)")
# The set-up: what runs this suite (test.sh), what e2e/readme runs (run.sh's job), what
# scripts/setup_split holds (setup.sh: it installs packages, which no test may do).
SET_UP = ("./scripts/run.sh", "./scripts/test.sh", "./scripts/setup.sh", "scripts/setup.sh")
SIZE_FLAGS = ("--sizes", "--local")


def documents(root):
    paths = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    return [p for p in paths if os.path.exists(p)]


def examples(text):
    """(block number, line number, the command, why not run or None) of each example in `text`."""
    lines = text.splitlines()
    out, block, inside, needs = [], 0, False, None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            inside = not inside
            block += inside
            needs = None
            i += 1
            continue
        start = i
        while inside and line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1].rstrip() + " " + lines[i].strip()
        i += 1
        if not inside:
            continue
        command = line.strip()
        if command.startswith("$ "):
            command = command[2:]
        m = NEEDS.search(command)
        if command.startswith("#"):
            needs = m.group(1) if m else needs
            continue
        if PROGRAMS.match(command):
            out.append((block, start + 1, command, m.group(1) if m else needs))
    return out


def shrink_side(text, dry):
    """One item of --sizes or --local, each side divided by 8 (at least 12), a step by 8 (at least 1)."""
    if dry:
        return text
    side = lambda v: str(max(int(v) // 8, 12))
    if ":" in text:
        parts = text.split(":")
        parts[0], parts[1] = side(parts[0]), side(parts[1])
        if len(parts) == 3 and not parts[2].startswith("x"):
            parts[2] = str(max(int(parts[2]) // 8, 1))
        return ":".join(parts)
    return "x".join(side(v) for v in text.split("x"))


def small(command):
    """The command with its sizes small (a --dry-run as it is): shell words kept as they are."""
    words = command.split(" ")
    dry = "--dry-run" in words
    for k, w in enumerate(words[:-1]):
        if w in SIZE_FLAGS and re.fullmatch(r"[0-9x:,]+", words[k + 1]):
            words[k + 1] = ",".join(shrink_side(t, dry) for t in words[k + 1].split(","))
    return " ".join(words)


def launched(command, mpiexec, kind):
    """mpirun/mpiexec -n N as documented: this build's launcher, Open MPI with --oversubscribe; in each
    command of an `a && b` chain."""
    if " && " in command:
        return " && ".join(launched(part, mpiexec, kind) for part in command.split(" && "))
    m = re.match(r"^(mpirun|mpiexec) -n (\d+) ", command)
    if not m:
        return command
    flags = " --oversubscribe" if kind == "openmpi" else ""
    return f"{mpiexec} -n {m.group(2)}{flags} " + command[m.end():]


def help_examples(exe):
    text = subprocess.run([exe, "--help"], capture_output=True, text=True).stdout
    part = text[text.index("Examples:"):] if "Examples:" in text else ""
    return [(0, n + 1, l.strip(), None) for n, l in enumerate(part.splitlines()) if l.strip().startswith("mpirun")]


def folder_for(root, exe):
    work = tempfile.mkdtemp(prefix="halobw-docs-")
    os.symlink(os.path.dirname(os.path.abspath(exe)), os.path.join(work, "build"))
    for name in ("scripts", "docs", "CMakePresets.json"):
        os.symlink(os.path.join(root, name), os.path.join(work, name))
    return work


def run_document(name, items, root, args, env):
    failed = 0
    work, block = None, None
    try:
        for blk, lineno, command, needs in items:
            where = f"{name}:{lineno}: {command}"
            if command.split(" ")[0] in SET_UP:
                print(f"ok   {where}: the set-up (scripts/setup_split, e2e/readme, this suite's own run)")
                continue
            if needs:
                print(f"ok   {where}: needs {needs}, not run here")
                continue
            if command.startswith("srun"):
                print(f"FAIL {where}: srun needs a cluster: mark it `# needs: a cluster`")
                failed += 1
                continue
            if blk != block:
                if work:
                    shutil.rmtree(work, ignore_errors=True)
                work, block = folder_for(root, args.exe), blk
            shell = launched(small(command.split(" #")[0].strip()), args.mpiexec, args.kind)
            p = subprocess.run(["bash", "-c", shell], cwd=work, capture_output=True, text=True, env=env, timeout=300)
            warned = "nothing crossed ranks" in p.stderr and "shows the warning" not in command
            if p.returncode != 0 or warned:
                why = "measures nothing (nothing crossed ranks)" if warned else f"exit {p.returncode}"
                print(f"FAIL {where}: {why}\n  ran: {shell}\n{p.stderr[-1500:]}")
                failed += 1
            else:
                print(f"ok   {where}: ran as `{shell}`")
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    return failed


def self_test():
    text = ("```sh\n$ mpirun -n 2 build/halo-bandwidth --sizes 64,128\nmpirun -n 4 build/halo-bandwidth \\\n"
            "    --local 64x64x32,32:128:32 --dry-run\nspack install kokkos\n```\n\n```sh\n# needs: a GPU\n"
            "srun -n 4 build-cuda/halo-bandwidth --cuda\n```\nscripts/compare a.json  # outside a block\n"
            "```sh\nscripts/compare h100.json lumi.json   # needs: earlier output (lumi.json)\n```\n")
    got = examples(text)
    assert [(b, n, nd) for b, n, _, nd in got] == [(1, 2, None), (1, 3, None), (2, 10, "a GPU"),
                                                     (3, 14, "earlier output")], got
    assert got[1][2] == "mpirun -n 4 build/halo-bandwidth --local 64x64x32,32:128:32 --dry-run", got[1]
    assert small("mpirun -n 8 b --local 64x64x32,32:128:32 --halo 1,2") == \
        "mpirun -n 8 b --local 12x12x12,12:16:4 --halo 1,2"
    assert small("b --sizes 64:1024 --iters auto") == "b --sizes 12:128 --iters auto"
    assert small("b --dry-run --sizes 4096") == "b --dry-run --sizes 4096"
    assert launched("mpirun -n 4 build/x --a", "/usr/bin/mpiexec", "openmpi") == \
        "/usr/bin/mpiexec -n 4 --oversubscribe build/x --a"
    assert launched("mpirun -n 4 build/x", "mpiexec.mpich", "mpich") == "mpiexec.mpich -n 4 build/x"
    print("docs_launch self-test: 7 checks")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root")
    ap.add_argument("--exe")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--kind", choices=["openmpi", "mpich", "other"], default="openmpi")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    self_test()
    if args.self_test:
        return 0
    root = os.path.abspath(args.root)
    env = dict(os.environ)
    if args.kind == "openmpi" and os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    failed = seen = 0
    for doc in documents(root):
        with open(doc, encoding="utf-8") as f:
            items = examples(f.read())
        seen += len(items)
        failed += run_document(os.path.relpath(doc, root), items, root, args, env)
    items = help_examples(args.exe)
    seen += len(items)
    failed += run_document("--help", items, root, args, env)
    print(f"{seen} examples, {failed} failed")
    return 1 if failed or not seen else 0


if __name__ == "__main__":
    sys.exit(main())
