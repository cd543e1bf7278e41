#!/usr/bin/env python3
"""Every `--output PATH` example in README.md and docs/ runs as written on a fresh clone.

halo-bandwidth refuses `--output` into a folder that does not exist (exit 2,
"the folder results does not exist (create it first: mkdir -p results)"). So
each example's folder must either be in a fresh clone (a folder that holds
tracked files: `.` or `docs/results`), or be made by the example itself: a
`mkdir -p FOLDER` earlier on the same line, on the line before, or earlier in
the same fenced code block (a block is one example, run top to bottom).
Commands are run from the repository root, as the README's are.

usage: docs_examples.py --root REPO [--self-test]
Exit status 0 when every example's folder is there, 1 otherwise (each on stderr).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

# `--output PATH`; a placeholder in capitals (FILE, OUT.png) is no example.
OUTPUT = re.compile(r"--output[ =]([^\s`|)\"']+)")
MKDIR = re.compile(r"\bmkdir\s+-p\s+((?:[^\s;&|`]+\s*)+)")


def documents(root):
    paths = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"),
                                                               recursive=True))
    return [p for p in paths if os.path.exists(p)]


def tracked_folders(root):
    """The folders of a fresh clone: those holding a tracked file (and their parents), or, outside a
    git checkout, those on disk except build folders."""
    try:
        files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True,
                               check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return {os.path.relpath(d, root) for d, _, _ in os.walk(root) if "build" not in d.split(os.sep)}
    folders = {"."}
    for f in files:
        d = os.path.dirname(f)
        while d:
            folders.add(d)
            d = os.path.dirname(d)
    return folders


def made(text):
    """The folders `mkdir -p` makes in a piece of text (each with its parents)."""
    out = set()
    for m in MKDIR.finditer(text):
        for d in m.group(1).split():
            d = os.path.normpath(d)
            while d and d != ".":
                out.add(d)
                d = os.path.dirname(d)
    return out


def examples(text):
    """(line number, PATH, the text before it on its line, the line before, the code block so far)."""
    lines = text.splitlines()
    block_start = None
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            block_start = None if block_start is not None else i + 1
            continue
        for m in OUTPUT.finditer(line):
            path = m.group(1)
            if re.fullmatch(r"[A-Z][A-Z0-9_.]*", path) or path.endswith(":"):
                continue  # a placeholder (--output FILE), or an error message quoted (--output x.csv: ...)
            earlier = "\n".join(lines[block_start:i]) if block_start is not None else ""
            yield i + 1, path, line[:m.start()], lines[i - 1] if i else "", earlier


def problems(root, folders=None):
    folders = tracked_folders(root) if folders is None else folders
    out, seen = [], 0
    for doc in documents(root):
        with open(doc, encoding="utf-8") as f:
            text = f.read()
        for lineno, path, before, previous, block in examples(text):
            seen += 1
            folder = os.path.normpath(os.path.dirname(path)) if os.path.dirname(path) else "."
            if os.path.isabs(path) or folder in folders or folder in made(before + "\n" + previous + "\n" + block):
                continue
            out.append(f"{os.path.relpath(doc, root)}:{lineno}: --output {path}: the folder {folder} is not in a "
                       f"fresh clone and the example does not make it (add `mkdir -p {folder}` before it)")
    return seen, out


def self_test():
    folders = {".", "docs", "docs/results"}
    cases = {
        "mpirun -n 2 build/halo-bandwidth --output results/host.csv\n": 1,
        "mkdir -p results && mpirun -n 2 build/halo-bandwidth --output results/host.csv\n": 0,
        "mkdir -p results\nmpirun -n 2 build/halo-bandwidth --output results/host.csv\n": 0,
        "```sh\nmkdir -p results\necho\necho\nmpirun -n 2 build/halo-bandwidth --output results/a.csv\n```\n": 0,
        "```sh\nmkdir -p results\n```\n\n```sh\nmpirun -n 2 build/halo-bandwidth --output results/a.csv\n```\n": 1,
        "mkdir -p other\nmpirun --output results/a.csv\n": 1,
        "mpirun --output h100.json and `--output FILE` and --output docs/results/x.json\n": 0,
        "mkdir -p out/deep && mpirun --output out/a.csv\n": 0,
        "refused: `--output results/host.csv: the folder results does not exist`\n": 0,
    }
    import tempfile
    for text, want in cases.items():
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "README.md"), "w") as f:
                f.write(text)
            _, found = problems(root, folders)
            assert len(found) == want, (text, found)
    print(f"docs_examples self-test: {len(cases)} cases")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        self_test()
    seen, found = problems(os.path.abspath(args.root))
    for p in found:
        print(f"FAIL {p}", file=sys.stderr)
    if not seen:
        print("FAIL no --output example found in README.md or docs/", file=sys.stderr)
        return 1
    print(f"{seen} --output examples, {len(found)} whose folder a fresh clone lacks")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
