"""Line patterns in the project's C and C++ sources, comments left out: the
scan behind the boundary tests (process_boundary.py, vendor_shim.py)."""
import re

SUFFIXES = (".c", ".cpp", ".cu", ".hpp", ".h")


def code_only(text):
    """The text without // and /* */ comments (string literals kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"(?m)//.*$", "", text)


def scan(root, folders, owners, patterns):
    """'path:line: name: code' for each line of a source under `folders` of
    `root` (a pathlib.Path), outside the files `owners`, that matches a
    pattern of `patterns` (name -> regex)."""
    out = []
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            if rel in owners:
                continue
            for n, line in enumerate(code_only(path.read_text()).splitlines(), 1):
                for name, pat in patterns.items():
                    if re.search(pat, line):
                        out.append(f"{rel}:{n}: {name}: {line.strip()}")
    return out


def matches_any(line, patterns):
    """Whether the line, comments left out, matches any of `patterns`."""
    return any(re.search(p, code_only(line)) for p in patterns)
