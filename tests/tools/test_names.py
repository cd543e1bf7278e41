#!/usr/bin/env python3
"""Every enum's names are written once, in its table (include/halobw/base/names.hpp:
Names<E>::list beside each enum); halobw-columns prints them. This test holds every other
place that spells them against those tables: the choices --help prints, the JSON schema,
scripts/halobw_results.py, the option tables of the docs (README.md, docs/*.md), the
methods docs/method.md describes, and the method lists of scripts/bench_host.py. It fails
when any of them disagrees.

usage: test_names.py --columns-exe BUILD/halobw-columns --exe BUILD/halo-bandwidth
                     --root SOURCE_DIR
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True

# Choices --help prints that are no enum: an axis, a number, or a count or the word auto.
LITERAL = {"--axis": {"x", "y", "z"}, "--streams": {"1", "2"}, "--iters": {"K", "auto"}}
# Values a result file adds to an enum's names: "-" where the setting does not apply.
NOT_APPLICABLE = "-"
# The enums a result file records, by the setting's name, and the enum's key in halobw-columns.
RECORDED = {"backend": "backend", "pack": "pack", "self": "self", "transport": "transport",
            "schedule": "schedule", "hugepages": "toggle", "stencil": "stencil", "progress": "progress",
            "messages": "messages", "method": "method", "rma_sync": "rma_sync", "placement": "placement",
            "grid_source": "grid_source"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--columns-exe", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    names = json.loads(subprocess.run([args.columns_exe], capture_output=True, text=True,
                                      check=True).stdout)["names"]
    tables = {k: list(v) for k, v in names.items()}
    failures = []

    def check(what, ok, detail=""):
        print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"))
        if not ok:
            failures.append(what)

    def which(choices):
        """The enum whose names are exactly `choices`, in any order, or None."""
        for key, values in tables.items():
            if set(values) == set(choices) and len(values) == len(choices):
                return key
        return None

    # --help: every "--flag a|b|c" is one enum's table, in its order.
    env = dict(os.environ, COLUMNS="200")
    help_text = subprocess.run([args.exe, "--help"], capture_output=True, text=True, env=env).stdout
    flags = re.findall(r"^\s+(--[a-z-]+) ([A-Za-z0-9_/-]+(?:\|[A-Za-z0-9_/-]+)+)", help_text, re.M)
    check("--help lists choices", len(flags) >= 10, help_text[:400])
    seen = set()
    for flag, text in flags:
        choices = text.split("|")
        if flag in LITERAL:
            check(f"--help {flag} lists its literal values", set(choices) == LITERAL[flag], text)
            continue
        key = which(choices)
        seen.add(key)
        check(f"--help {flag} {text} is one enum's table, in order", key is not None and tables[key] == choices,
              f"{text}; tables: {tables}")
    for key in ("method", "pack", "schedule", "stencil", "messages", "rma_sync", "self", "backend", "format"):
        check(f"--help offers every name of {key}", key in seen, f"{flags}")

    # The schema: each recorded enum's values are its names (and "-" where it may not apply).
    schema = json.load(open(os.path.join(args.root, "docs", "output.schema.json")))
    text = json.dumps(schema)
    run = schema["properties"]["run"]["properties"]
    for setting, key in RECORDED.items():
        prop = run.get(setting) or schema.get("$defs", {}).get(setting) or {}
        values = [v for v in prop.get("enum", []) if v != NOT_APPLICABLE]
        if not values:
            found = re.search(rf'"{setting}": \{{"enum": (\[[^\]]*\])', text)
            values = [v for v in json.loads(found.group(1)) if v != NOT_APPLICABLE] if found else []
        check(f"schema {setting} is the names of {key}", sorted(values) == sorted(tables[key]),
              f"{values} vs {tables[key]}")
    state = schema["properties"].get("status", {}).get("properties", {}).get("state", {}).get("enum")
    if state is None:
        found = re.search(r'"state": \{"enum": (\[[^\]]*\])', text)
        state = json.loads(found.group(1)) if found else []
    check("schema status.state is the names of the run states", sorted(state) == sorted(tables["state"]),
          f"{state} vs {tables['state']}")

    # scripts/halobw_results.py, the reader of compare and plot.
    sys.path.insert(0, os.path.join(args.root, "scripts"))
    import halobw_results as hr
    for setting, key in RECORDED.items():
        values = [v for v in hr.ENUMS.get(setting, ()) if v != NOT_APPLICABLE]
        check(f"halobw_results.ENUMS[{setting}] is the names of {key}", sorted(values) == sorted(tables[key]),
              f"{values} vs {tables[key]}")

    # The option tables of the docs: each "| `--flag a\|b` |" lists one enum's names.
    docs = [os.path.join(args.root, "README.md")] + sorted(glob.glob(os.path.join(args.root, "docs", "*.md")))
    rows = 0
    for path in docs:
        for line in open(path, encoding="utf-8"):
            if not line.startswith("| `--"):
                continue
            for flag, text in re.findall(r"`(--[a-z-]+) ([A-Za-z0-9_/-]+(?:\\\|[A-Za-z0-9_/-]+)+)`", line):
                choices = text.split("\\|")
                if flag in LITERAL:
                    continue
                rows += 1
                check(f"{os.path.relpath(path, args.root)}: {flag} lists one enum's names", which(choices),
                      f"{choices}; tables: {tables}")
    check("the docs have option tables with choices", rows >= 5, rows)
    output_md = open(os.path.join(args.root, "docs", "output.md"), encoding="utf-8").read()
    for setting, key in RECORDED.items():
        row = re.search(rf"^\| `{setting}` \|.*\| ([^|]*) \|$", output_md, re.M)
        if row and "`" in row.group(1):
            values = [v for v in re.findall(r"`([^`]+)`", row.group(1)) if v != NOT_APPLICABLE]
            check(f"docs/output.md: the values of {setting} are the names of {key}",
                  sorted(values) == sorted(tables[key]), f"{values} vs {tables[key]}")
    method_md = open(os.path.join(args.root, "docs", "method.md"), encoding="utf-8").read()
    for m in tables["method"]:
        check(f"docs/method.md describes --method {m}", re.search(rf"^- `{re.escape(m)}`", method_md, re.M),
              "no line '- `" + m + "`'")

    # The lists of methods in the benchmark script (the test suites take theirs from --help).
    import bench_host
    listed = {n.split()[0] for n, _ in bench_host.METHODS}
    check("scripts/bench_host.py METHODS names every method", listed == set(tables["method"]),
          f"{sorted(listed)} vs {tables['method']}")

    if failures:
        print(f"{len(failures)} disagreement(s) with the tables of names", file=sys.stderr)
        return 1
    print("every place that spells an enum agrees with its table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
