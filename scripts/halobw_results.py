"""Reads halo-bandwidth result files, CSV or JSON, into one common form.

Shared by scripts/compare and scripts/plot; standard library only. The formats
are described in docs/output.md. Both readers give the same thing:

    ResultFile  .path, .kind ("csv" or "json"), .runs, .rows
    Run         .settings  dict of the run settings (SETTINGS), grid as "GXxGYxGZ"
                .meta      the rest of a JSON document's "program" and "run" ({} for CSV)
                .line      where the run starts (CSV: its first row; JSON: the "run" object)
    Row         row["N"], row.get("Min_us"), ... for every field in SETTINGS,
                MEASURES and OPTIONAL; .run, .line, .path

Types: the integer fields are int, the measured numbers float, the rest str.
An optional measurement that was not taken is None; one that could not be
measured (CSV "n/a", JSON null: Peer_GBps, or Eff when Send_B is 0) is NA, the
string "n/a". The readers accept NA in any optional field; the schema and
csv_format_problems() allow it only in NA_FIELDS.

A malformed file raises ResultError, whose str() is "FILE:LINE: what is wrong".
"""
import json
import json.decoder
import json.scanner
import math
import re

SCHEMA_NAME = "halo-bandwidth-result"
SCHEMA_VERSION = 1
PROGRAM = "halo-bandwidth"
NA = "n/a"

# Run settings, one per CSV column (the JSON file holds them in "program" and "run").
SETTINGS = ("program", "version", "commit", "backend", "device", "ranks", "nodes", "grid",
            "grid_source", "directions", "halo", "iters", "warmup", "repeats", "pack", "self",
            "transport", "schedule", "gpu_aware", "contiguous")
# Measured in every row.
MEASURES = ("N", "Send_B", "Send_min_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces",
            "SelfFaces", "OffNodeFaces")
# Measured only with --repeats > 1, --breakdown or --limit.
OPTIONAL = ("Min_us", "Max_us", "Pack_us", "Xfer_us", "Stage_us", "Unpack_us", "Xfer_GBps", "Eff",
            "Copy_GBps", "Peer_GBps")
CSV_COLUMNS = SETTINGS + MEASURES + OPTIONAL
# Optional fields the benchmark may write as n/a (JSON null).
NA_FIELDS = ("Eff", "Peer_GBps")

# Rows are matched across files by this key.
KEY = ("N", "directions", "grid", "halo", "pack")

INT_FIELDS = frozenset(("ranks", "nodes", "halo", "iters", "warmup", "repeats", "contiguous", "N",
                        "Send_B", "Send_min_B", "RemoteFaces", "SelfFaces", "OffNodeFaces"))
# Decimals the CSV prints; JSON numbers are not rounded.
DECIMALS = {"Time_us": 1, "Uni_GBps": 3, "Duplex_GBps": 3, "Min_us": 1, "Max_us": 1, "Pack_us": 1,
            "Xfer_us": 1, "Stage_us": 1, "Unpack_us": 1, "Xfer_GBps": 3, "Eff": 2,
            "Copy_GBps": 3, "Peer_GBps": 3}
# Least value of the integer fields.
INT_MIN = {"ranks": 1, "nodes": 1, "halo": 1, "iters": 1, "repeats": 1, "N": 1}
ENUMS = {
    "directions": ("x", "y", "z", "all"),
    "pack": ("datatype", "kernel"),
    "self": ("copy", "mpi"),
    "transport": ("datatype", "direct", "staged"),
    # How packed faces travel; "-" on the datatype transport, which packs nothing.
    "schedule": ("bulk", "pipelined", "-"),
    "gpu_aware": ("n/a", "0", "1"),
    "contiguous": (0, 1),
}
# Settings that may be empty in a CSV row (free text the tools do not use).
MAY_BE_EMPTY = frozenset(("version", "commit", "device"))
GRID_RE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*x[1-9][0-9]*$")
INT_RE = re.compile(r"^[0-9]+$")
NUMBER_RE = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")


class ResultError(Exception):
    """A file that cannot be read or does not follow the format."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message

    def __str__(self):
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class Run:
    def __init__(self, path, line, settings, meta=None):
        self.path, self.line, self.settings, self.meta = path, line, settings, meta or {}

    def __repr__(self):
        return f"Run({self.path}:{self.line} {self.settings})"


class Row:
    """One size of one run: the run's settings and the row's measurements."""

    def __init__(self, path, line, run, measured):
        self.path, self.line, self.run, self.measured = path, line, run, measured

    def __getitem__(self, name):
        if name in self.measured:
            return self.measured[name]
        return self.run.settings[name]

    def get(self, name, default=None):
        try:
            value = self[name]
        except KeyError:
            return default
        return default if value is None else value

    def key(self):
        return tuple(self[k] for k in KEY)

    def as_dict(self):
        d = dict(self.run.settings)
        d.update(self.measured)
        return d

    def __repr__(self):
        return f"Row({self.path}:{self.line} {self.as_dict()})"


class ResultFile:
    def __init__(self, path, kind, runs, rows):
        self.path, self.kind, self.runs, self.rows = path, kind, runs, rows


def read(path):
    """Reads one result file (CSV or JSON, told apart by its first character)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ResultError(path, None, f"cannot read: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ResultError(path, line, "not UTF-8 text") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise ResultError(path, 1, "empty file: expected a CSV header or a JSON document")
    if text.lstrip().startswith("{"):
        return _read_json(path, text)
    return _read_csv(path, text)


def read_all(paths):
    return [read(p) for p in paths]


def grid_str(grid):
    return "x".join(str(g) for g in grid)


def describe_key(row):
    return f"N={row['N']} {row['directions']} {row['grid']} halo {row['halo']} {row['pack']}"


# ---------------------------------------------------------------------------------------------
# CSV


def _csv_value(path, line, name, text):
    """Converts one CSV field; raises ResultError naming the column."""
    if name in OPTIONAL:
        if text == "":
            return None
        if text == NA:
            return NA
    if text == "":
        if name in MAY_BE_EMPTY:
            return text
        raise ResultError(path, line, f"{name} is empty")
    if name in INT_FIELDS:
        if not INT_RE.match(text):
            raise ResultError(path, line, f"{name}: {text!r} is not a whole number")
        value = int(text)
        if value < INT_MIN.get(name, 0):
            raise ResultError(path, line, f"{name}: {value} is below {INT_MIN[name]}")
    elif name in MEASURES or name in OPTIONAL:
        if not NUMBER_RE.match(text):
            raise ResultError(path, line, f"{name}: {text!r} is not a number")
        value = float(text)
        if not math.isfinite(value):
            raise ResultError(path, line, f"{name}: {text!r} is not a finite number")
    else:
        value = text
    _check_setting(path, line, name, value)
    return value


def _check_setting(path, line, name, value):
    if name == "program" and value != PROGRAM:
        raise ResultError(path, line, f"program: {value!r} is not {PROGRAM!r}")
    if name == "grid" and not GRID_RE.match(value):
        raise ResultError(path, line, f"grid: {value!r} is not GXxGYxGZ")
    if name in ENUMS and value not in ENUMS[name]:
        allowed = "|".join(str(v) for v in ENUMS[name])
        raise ResultError(path, line, f"{name}: {value!r} is not one of {allowed}")


def _is_header(fields):
    return fields[0] == "program" or ("N" in fields and "Send_B" in fields)


def _read_csv(path, text):
    header = header_line = current = None
    runs, rows = [], []
    new_run = False
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        fields = [f.strip() for f in line.split(",")]
        if header is None:
            if not set(fields) & set(CSV_COLUMNS):
                raise ResultError(path, lineno, "expected the CSV header row (program,version,...) "
                                  "or a JSON document")
            seen = set()
            for name in fields:
                if name in seen:
                    raise ResultError(path, lineno, f"column {name} appears twice in the header")
                seen.add(name)
            missing = [c for c in SETTINGS + MEASURES if c not in seen]
            if missing:
                raise ResultError(path, lineno, "header lacks column" + ("s " if len(missing) > 1 else " ")
                                  + ",".join(missing))
            header, header_line = fields, lineno
            continue
        if fields == header:
            new_run = True  # a repeated header: the rows that follow are another run
            continue
        if _is_header(fields):
            raise ResultError(path, lineno, f"a header that differs from the header on line {header_line}")
        if len(fields) != len(header):
            raise ResultError(path, lineno, f"{len(fields)} fields, but the header (line {header_line}) "
                              f"has {len(header)}")
        record = dict(zip(header, fields))
        settings = {n: _csv_value(path, lineno, n, record[n]) for n in SETTINGS}
        measured = {}
        for n in MEASURES + OPTIONAL:
            measured[n] = _csv_value(path, lineno, n, record[n]) if n in record else None
        _check_row(path, lineno, measured)
        if current is None or new_run or current.settings != settings:
            current = Run(path, lineno, settings)
            runs.append(current)
            new_run = False
        rows.append(Row(path, lineno, current, measured))
    if header is None:
        raise ResultError(path, 1, "no CSV header row (only comments)")
    return ResultFile(path, "csv", runs, rows)


def _check_row(path, line, m):
    if m["Send_min_B"] > m["Send_B"]:
        raise ResultError(path, line, f"Send_min_B {m['Send_min_B']} exceeds Send_B {m['Send_B']}")


# ---------------------------------------------------------------------------------------------
# JSON


class _Obj(dict):
    """A JSON object that remembers where it starts and ends in the text."""
    start = end = 0


def _decoder():
    dec = json.JSONDecoder()

    def parse_object(s_and_end, *args):
        obj, end = json.decoder.JSONObject(s_and_end, *args)
        o = _Obj(obj)
        o.start, o.end = s_and_end[1] - 1, end
        return o, end

    dec.parse_object = parse_object
    # NaN and Infinity are not JSON; let them through here and reject them as not finite
    # where the field is checked, which knows the line.
    dec.parse_constant = float
    dec.scan_once = json.scanner.py_make_scanner(dec)  # the C scanner would skip parse_object
    return dec


class _JsonChecker:
    def __init__(self, path, text):
        self.path, self.text = path, text

    def line_of(self, pos):
        return self.text.count("\n", 0, pos) + 1

    def key_line(self, obj, key):
        """The line of `"key":` in obj (not in an object nested in it), else obj's first line."""
        spans = []

        def collect(v):
            if isinstance(v, _Obj):
                spans.append((v.start, v.end))
            elif isinstance(v, list):
                for item in v:
                    collect(item)

        for v in obj.values():
            collect(v)
        pattern = re.compile('"' + re.escape(key) + r'"\s*:')
        for m in pattern.finditer(self.text, obj.start, obj.end):
            if not any(a <= m.start() < b for a, b in spans):
                return self.line_of(m.start())
        return self.line_of(obj.start)

    def fail(self, obj, key, message):
        line = self.key_line(obj, key) if key is not None else self.line_of(obj.start)
        raise ResultError(self.path, line, message)

    def member(self, obj, key, where, kinds, what):
        if key not in obj:
            self.fail(obj, None, f'{where} lacks "{key}"')
        value = obj[key]
        if not _is_kind(value, kinds):
            self.fail(obj, key, f'{where}.{key} must be {what}, not {_json_repr(value)}')
        return value

    def obj(self, parent, key, where):
        return self.member(parent, key, where, ("object",), "an object")

    def string(self, parent, key, where):
        return self.member(parent, key, where, ("string",), "a string")

    def integer(self, parent, key, where):
        value = int(self.member(parent, key, where, ("integer",), "a whole number"))
        least = INT_MIN.get(key, 0)
        if value < least:
            self.fail(parent, key, f"{where}.{key} is {value}, below {least}")
        return value

    def number(self, parent, key, where, nullable=False):
        kinds = ("number", "null") if nullable else ("number",)
        value = self.member(parent, key, where, kinds, "a number or null" if nullable else "a number")
        if value is None:
            return None
        if not math.isfinite(value):
            self.fail(parent, key, f"{where}.{key} is not a finite number")
        return float(value)


def _is_kind(value, kinds):
    for k in kinds:
        if k == "object" and isinstance(value, dict):
            return True
        if k == "array" and isinstance(value, list):
            return True
        if k == "string" and isinstance(value, str):
            return True
        if k == "null" and value is None:
            return True
        if k == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return True
        if k == "integer" and not isinstance(value, bool) and (
                isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
            return True
    return False


def _json_repr(value):
    s = json.dumps(value)
    return s if len(s) <= 40 else s[:37] + "..."


def _read_json(path, text):
    try:
        doc = _decoder().decode(text)
    except json.JSONDecodeError as e:
        raise ResultError(path, e.lineno, f"malformed JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise ResultError(path, 1, "malformed JSON: nested too deeply") from None
    c = _JsonChecker(path, text)
    if not isinstance(doc, _Obj):
        raise ResultError(path, 1, "the JSON document must be an object")
    if doc.get("schema") != SCHEMA_NAME:
        c.fail(doc, "schema" if "schema" in doc else None,
               f'"schema" must be "{SCHEMA_NAME}", not {_json_repr(doc.get("schema"))}')
    version = c.integer(doc, "schema_version", "document")
    if version != SCHEMA_VERSION:
        c.fail(doc, "schema_version", f"schema_version {version}: this script reads version "
               f"{SCHEMA_VERSION}")

    program = c.obj(doc, "program", "document")
    run = c.obj(doc, "run", "document")
    s = {}
    s["program"] = c.string(program, "name", "program")
    _check_json_setting(c, program, "name", "program", s["program"])
    s["version"] = c.string(program, "version", "program")
    s["commit"] = c.string(program, "commit", "program")
    for key in ("backend", "device"):
        s[key] = c.string(run, key, "run")
    for key in ("ranks", "nodes"):
        s[key] = c.integer(run, key, "run")
    grid = c.member(run, "grid", "run", ("array",), "an array of 3 whole numbers")
    if len(grid) != 3 or not all(_is_kind(g, ("integer",)) and g >= 1 for g in grid):
        c.fail(run, "grid", f"run.grid must be 3 whole numbers of at least 1, not {_json_repr(grid)}")
    s["grid"] = grid_str(int(g) for g in grid)
    s["grid_source"] = c.string(run, "grid_source", "run")
    s["directions"] = c.string(run, "directions", "run")
    for key in ("halo", "iters", "warmup", "repeats"):
        s[key] = c.integer(run, key, "run")
    for key in ("pack", "self", "transport", "schedule", "gpu_aware"):
        s[key] = c.string(run, key, "run")
    s["contiguous"] = c.integer(run, "contiguous", "run")
    for key in ("directions", "pack", "self", "transport", "schedule", "gpu_aware", "contiguous"):
        _check_json_setting(c, run, key, key, s[key])
    # The rest is checked loosely here (docs/output.schema.json is exact).
    c.member(run, "command_line", "run", ("array",), "an array of strings")
    c.string(run, "start_utc", "run")
    c.member(run, "hosts", "run", ("array",), "an array")
    env = c.obj(run, "environment", "run")
    for key, value in env.items():
        if not _is_kind(value, ("string", "null")):
            c.fail(env, key, f"run.environment.{key} must be a string or null, not {_json_repr(value)}")
    if "limits" in run:
        c.obj(run, "limits", "run")

    meta = {"program": dict(program), "run": {k: v for k, v in run.items()}}
    the_run = Run(path, c.line_of(run.start), s, meta)
    rows = []
    items = c.member(doc, "rows", "document", ("array",), "an array")
    for i, item in enumerate(items):
        where = f"rows[{i}]"
        if not isinstance(item, _Obj):
            c.fail(doc, "rows", f"{where} must be an object, not {_json_repr(item)}")
        m = {}
        for key in MEASURES:
            m[key] = c.integer(item, key, where) if key in INT_FIELDS else c.number(item, key, where)
        for key in OPTIONAL:
            if key not in item:
                m[key] = None
            else:
                m[key] = c.number(item, key, where, nullable=True)
                if m[key] is None:
                    m[key] = NA
        line = c.line_of(item.start)
        _check_row(path, line, m)
        rows.append(Row(path, line, the_run, m))
    return ResultFile(path, "json", [the_run], rows)


def _check_json_setting(c, obj, key, name, value):
    try:
        _check_setting(c.path, 0, name, value)
    except ResultError as e:
        c.fail(obj, key, e.message)


# ---------------------------------------------------------------------------------------------
# Strict check of a CSV file as the benchmark writes it (used by tests/tools/test_tools.py).


def csv_format_problems(path):
    """Problems with a CSV file beyond what the reader needs: the header must name exactly
    CSV_COLUMNS in order, and each number must carry the documented decimals.
    Returns a list of "FILE:LINE: ..." strings (empty when the file is exact)."""
    problems = []
    try:
        read(path)
    except ResultError as e:
        return [str(e)]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    header_seen = False
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if not header_seen or _is_header(fields):
            if tuple(fields) != CSV_COLUMNS:
                problems.append(f"{path}:{lineno}: header is not exactly {','.join(CSV_COLUMNS)}")
                return problems
            header_seen = True
            continue
        for name, text in zip(CSV_COLUMNS, fields):
            if text != text.strip():
                problems.append(f"{path}:{lineno}: {name}: {text!r} has spaces")
            if text == NA and name in NA_FIELDS or text == "" and (name in OPTIONAL or name in MAY_BE_EMPTY):
                continue
            if name not in DECIMALS and name not in INT_FIELDS:
                continue
            if name in INT_FIELDS:
                want = re.compile(r"^(0|[1-9][0-9]*)$")
                what = "a whole number"
            else:
                want = re.compile(r"^-?[0-9]+\.[0-9]{%d}$" % DECIMALS[name])
                what = f"fixed with {DECIMALS[name]} decimals"
            if not want.match(text):
                problems.append(f"{path}:{lineno}: {name}: {text!r} is not {what}")
    return problems
