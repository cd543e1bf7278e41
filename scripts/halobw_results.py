"""Reads halo-bandwidth result files, CSV or JSON, into one common form.

Shared by scripts/compare and scripts/plot; standard library only. The formats
are described in docs/output.md. Both readers give the same thing:

    ResultFile  .path, .kind ("csv" or "json"), .version (1 to 4), .runs, .rows,
                .status      how the run ended (see Run.status): for a CSV file of several
                             runs, the first run that did not complete, else the first run's
    Run         .settings    dict of the run settings (SETTINGS), grid as "GXxGYxGZ",
                             halo as "1" or "1,2,4"
                .provenance  dict of the PROVENANCE texts as the CSV writes them
                             ({} for a version-1 CSV, which kept them in '#' lines)
                .meta        the rest of a JSON document's "program" and "run" ({} for CSV)
                .status      version 3: {"state": "complete" | "failed" | "incomplete",
                             "exit_code": int or None, "reason": str or None, "rows": int,
                             "warnings": [str]}; None for versions 1 and 2 (not recorded)
                .version     1 to 4
                .simulator   what ran the ranks: {"engine": "none" | "SimGrid SMPI",
                             "version", "platform", "platform_sha256": str or None};
                             engine "none" for a measured run (simulated(run) says which).
                             Before version 4 not recorded: inferred from the MPI library
                             ("SMPI Version 3.32. ..." is SimGrid SMPI 3.32), platform None
                .line        where the run starts (CSV: its first row; JSON: the "run" object)
    Row         row["N"], row["L"], row.get("Min_us"), ... for every field in SETTINGS,
                MEASURES and OPTIONAL; .size_name and .size (below), .extents, .side;
                .run, .line, .path

Types: the integer fields are int, the measured numbers float, Global, Local and
the other settings str. The size columns: N (a global cube side) and L (a per-rank
cube side) are whole numbers, Local (a per-rank brick LXxLYxLZ) text; a run of
global sizes (`local` 0) has N in every row when every row is a cube and in none
otherwise (its Global names the box), a run of per-rank sizes (`local` 1) L in every
row when every brick is a cube, else Local in every row. Whatever the file gives,
a row's size is named by its box: .size_name is "N" (the global box is a cube; .size
its side), "Global" (it is not; .size the text GXxGYxGZ), "L" (the per-rank brick is
a cube; .size its side) or "Local" (it is not; .size LXxLYxLZ). So a 12x12x12 row of
a run that also had a 16x12x8 row (no N written) still has size ("N", 12), and pairs
with N=12 of another file. .extents is that box as three whole numbers, .side the
side of a cube of as many cells (a float: the x position of a row in plot --overlap;
N or L itself for a cube). An optional measurement that was not taken is None; one that could not be
measured (CSV "n/a", JSON null: Eff, Peer_GBps) is NA, the string "n/a". A
Hidden that is no share (version 3: the difference it measures lies within
Noise_us, or the steps leave the range where it is a share; JSON null, an
empty CSV field in a row with the overlap columns) is NA too, as is version
2's Hidden "n/a". The readers accept NA in any optional measurement; the
schema and csv_format_problems() allow it only in NA_FIELDS (version 3 CSV:
n/a only in Eff and Peer_GBps, an empty Hidden instead).

Every schema version reads (SCHEMA_VERSIONS). Version 4 added what ran the ranks
(SIMULATOR: the CSV's columns simulator, simulator_version, platform and
platform_sha256 after environment; JSON "run.simulator"), so that a simulated run
never passes for a measured one. Version 3 added the status (the
CSV's last four columns, JSON "status"), the settings oversubscribed and
ranks_per_core, each host's cores, and the column Noise_us, and changed
Hidden's formula; a version-2 file reads with oversubscribed, ranks_per_core
and Noise_us None and status None. Version 3 also added boxes of extents (Local,
N and L absent for boxes that are no cubes), walls (the setting periodic, the
column BoundaryFaces) and nodes (the settings placement and node_grid, the
columns OffNode_B and NodeOut_B): an older file reads with periodic "xyz",
placement "linear" and node_grid "-" (V3_DEFAULTS: every older run was so) and
those columns None. A version-1 file (JSON "schema_version": 1; a CSV
whose header has the old column set, '#' comment lines allowed) reads into the
same form: the settings it predates take the values version 1 always ran with
(V1_DEFAULTS), each row's H is the run's halo and Global is NxNxN.

A malformed file raises ResultError, whose str() is "FILE:LINE: what is wrong".
"""
import csv
import io
import json
import json.decoder
import json.scanner
import math
import re

SCHEMA_NAME = "halo-bandwidth-result"
SCHEMA_VERSION = 4
SCHEMA_VERSIONS = (1, 2, 3, 4)  # the versions this module reads
PROGRAM = "halo-bandwidth"
NA = "n/a"

# Run settings, one per CSV column in this order (the JSON file holds them in "program" and "run").
SETTINGS = ("program", "version", "commit", "backend", "device", "ranks", "nodes", "oversubscribed",
            "ranks_per_core", "grid", "periodic", "placement", "node_grid", "grid_source", "directions", "halo",
            "iters", "min_time", "warmup", "repeats", "pack", "self", "transport", "schedule", "gpu_aware",
            "contiguous", "hugepages", "stencil", "overlap", "streams", "progress", "local", "fields", "messages",
            "method", "rma_sync", "per_rank")
# The settings version 3 added: None in the runs of older files, which did not record them.
V3_SETTINGS = ("oversubscribed", "ranks_per_core", "min_time", "per_rank")
# The settings version 3 added that every older run had one value of: every axis periodic (no walls),
# rank r on cell r (placement linear, no node grid). Older runs read with these.
V3_DEFAULTS = {"periodic": "xyz", "placement": "linear", "node_grid": "-"}
# iters is a whole number, or "auto" (version 3: each row's K chosen by time, in its Iters).
AUTO = "auto"
# Every column of a row, in file order (the registry's order: build/halobw-columns).
COLUMNS = ("N", "L", "Local", "Global", "H", "Send_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces",
           "SelfFaces", "OffNodeFaces", "BoundaryFaces", "OffNode_B", "NodeOut_B", "RemoteEdges", "RemoteCorners",
           "Send_min_B", "Iters", "Slowest", "Slowest_host", "Skew", "Min_us", "Max_us", "Pack_us", "Mpi_us",
           "Stage_us", "Unpack_us", "Xfer_us", "Xfer_GBps", "Eff", "Copy_GBps", "Peer_GBps", "Comp_us", "Blocking_us",
           "Overlap_us", "Exposed_us", "Noise_us", "Hidden", "Comp_GBps", "Field_MiB", "Huge_MiB")
# Measured in every row of every file (the registry's groups standard and send_min).
MEASURES = ("Send_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces", "SelfFaces",
            "OffNodeFaces", "Send_min_B")
# The other columns, in file order. Of these, the size columns (SIZES) and ROW_IDS are not
# measurements; V3_ROW_COLUMNS are in every version-3 row; the rest are measured only when the
# run asks.
OPTIONAL = tuple(c for c in COLUMNS if c not in MEASURES)
# The size columns: N (local 0, every row a cube), L (local 1, every brick a cube) or Local (local 1,
# some brick not a cube); a row of global sizes that are not all cubes has none of them, Global
# names its box. Versions 1 and 2: exactly one of N and L.
SIZES = ("N", "L", "Local")
# In every row of a version-2 file besides MEASURES and the size (version 1: derived).
ROW_IDS = ("Global", "H")
# In every row of a version-3 file besides those: the faces at walls, the bytes off the node (of the
# busiest rank, of the busiest node), the row's K, and the slowest rank (its time before the
# trailing barrier), its host, and that time over the median rank's (Skew, NA where the median
# rank's is 0). None in the rows of older files.
V3_ROW_COLUMNS = ("BoundaryFaces", "OffNode_B", "NodeOut_B", "Iters", "Slowest", "Slowest_host", "Skew")
# The columns version 3 added.
V3_COLUMNS = ("Local", "Noise_us") + V3_ROW_COLUMNS
# A JSON row's members that are no column (not in the CSV): --per-rank's list of every rank.
ROW_LISTS = ("ranks",)
# The optional measurements: empty / absent when not measured, NA when they could not be.
OPTIONAL_MEASURES = tuple(c for c in OPTIONAL if c not in SIZES + ROW_IDS)
# The last columns of a CSV row: what JSON holds in "program" and "run" besides the settings.
V3_PROVENANCE = ("command_line", "start_utc", "build", "mpi_library", "mpi_thread", "hosts",
                 "environment")
# Of those, what version 4 added: what ran the ranks, a simulator ("SimGrid SMPI") with its version,
# the platform file it modeled and that file's SHA-256, or "none" and three empty fields: a measured
# run. JSON: run.simulator {"engine", "version", "platform", "platform_sha256"}.
SIMULATOR = ("simulator", "simulator_version", "platform", "platform_sha256")
NOT_SIMULATED = "none"
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
PROVENANCE = V3_PROVENANCE + SIMULATOR
# The very last columns of a version-3 CSV row: how the run ended, the same on every row of a run.
STATUS_COLUMNS = ("status", "exit_code", "reason", "warnings")
CSV_COLUMNS = SETTINGS + COLUMNS + PROVENANCE + STATUS_COLUMNS
V3_CSV_COLUMNS = SETTINGS + COLUMNS + V3_PROVENANCE + STATUS_COLUMNS
# How a run ended (the status's "state"): every row measured; ended early with an exit code and
# a reason, the rows those measured before; or still measuring when the file was written (the
# file of a job killed from outside, or of a run still going).
STATES = ("complete", "failed", "incomplete")
# The warnings the benchmark records, by their start: the CSV joins a run's warnings with "; ",
# which may occur inside one too, so the reader splits only where one of these starts.
WARNINGS = ("nothing crossed ranks: ",)
# Optional fields the benchmark may write as JSON null: n/a (could not be measured) and, for
# Hidden, no share (version 3).
NA_FIELDS = ("Skew", "Eff", "Peer_GBps", "Hidden")
# Of those, the ones a version-3 CSV writes as n/a; its Hidden is an empty field instead.
CSV_NA_FIELDS = ("Skew", "Eff", "Peer_GBps")
# Fields a version-3 CSV may leave empty in a row that has their group: Hidden, no share.
UNRESOLVED_FIELDS = ("Hidden",)
# Each optional measurement's group: a row has all of a group or none of it, but for
# Copy_GBps, which the benchmark leaves out of rows with Send_B 0 (nothing to copy).
GROUPS = {
    "box": ("RemoteEdges", "RemoteCorners"),                 # stencil box
    "spread": ("Min_us", "Max_us"),                          # repeats > 1
    "breakdown": ("Pack_us", "Mpi_us", "Stage_us", "Unpack_us", "Xfer_us", "Xfer_GBps", "Eff"),
    "limit": ("Copy_GBps", "Peer_GBps"),                     # --limit (no Copy_GBps when Send_B is 0)
    "overlap": ("Comp_us", "Blocking_us", "Overlap_us", "Exposed_us", "Noise_us", "Hidden", "Comp_GBps"),
    "hugepages": ("Field_MiB", "Huge_MiB"),                  # hugepages on, host memory
}

# Rows are matched across files by this key; "size" is (size_name, size), named by the row's box:
# ("N", 64), ("Global", "128x512x512"), ("L", 32) or ("Local", "64x64x32"). Boxes pair by their
# extents, whichever columns the files wrote.
KEY = ("size", "H", "directions", "grid", "periodic", "pack", "fields", "messages", "method", "stencil")

INT_FIELDS = frozenset(("ranks", "nodes", "oversubscribed", "iters", "warmup", "repeats", "contiguous", "overlap",
                        "streams", "local", "fields", "per_rank", "N", "L", "H", "Send_B", "RemoteFaces",
                        "SelfFaces", "OffNodeFaces", "BoundaryFaces", "OffNode_B", "NodeOut_B", "RemoteEdges",
                        "RemoteCorners", "Send_min_B", "Iters", "Slowest"))
TEXT = -2  # the decimals of a text column (Global, Local, Slowest_host), as the registry has it
# The text columns that name a box: three whole numbers joined by x.
BOX_COLUMNS = ("Local", "Global")
# Decimals the CSV prints; JSON numbers are not rounded.
DECIMALS = {"Global": TEXT, "Local": TEXT, "Slowest_host": TEXT, "Skew": 2, "min_time": 3, "Time_us": 1,
            "Uni_GBps": 3, "Duplex_GBps": 3, "Min_us": 1, "Max_us": 1,
            "Pack_us": 1, "Mpi_us": 1, "Stage_us": 1, "Unpack_us": 1, "Xfer_us": 1, "Xfer_GBps": 3,
            "Eff": 2, "Copy_GBps": 3, "Peer_GBps": 3, "Comp_us": 1, "Blocking_us": 1,
            "Overlap_us": 1, "Exposed_us": 1, "Noise_us": 1, "Hidden": 2, "Comp_GBps": 3,
            "Field_MiB": 1, "Huge_MiB": 1, "ranks_per_core": 2}


def csv_number(name, v):
    """A number as the benchmark's CSV prints it: fixed with DECIMALS[name]; a rate (GB/s) with more
    below 0.1, so that it keeps 3 significant digits (docs/output.md)."""
    places = DECIMALS[name]
    if name.endswith("_GBps") and v != 0 and math.isfinite(v):
        rounded = float(f"{v:.2e}")  # decided on the value rounded to 3 digits: 0.0009996 is 0.00100
        places = min(15, max(places, 2 - math.floor(math.log10(abs(rounded)))))
    return f"{v:.{places}f}"


# Least value of the integer fields.
INT_MIN = {"ranks": 1, "nodes": 1, "iters": 1, "repeats": 1, "fields": 1, "N": 1, "L": 1, "H": 1, "Iters": 1}
# --iters auto: each row's K lies in this range.
AUTO_ITERS = (5, 1000000)
ENUMS = {
    "backend": ("host", "cuda", "hip"),
    "grid_source": ("auto", "--grid", "OPENPFC_FD_PROC_GRID"),
    # One pair of faces (--axis), all six (--faces), or all 26 pieces (--stencil box).
    "directions": ("x", "y", "z", "all", "box"),
    # Which rank holds which cell of the grid, as the run used it (nodes may fall back to linear).
    "placement": ("linear", "nodes", "cart"),
    "pack": ("datatype", "kernel"),
    "self": ("copy", "mpi"),
    "transport": ("datatype", "direct", "staged"),
    # How packed faces travel; "-" on the datatype transport, which packs nothing.
    "schedule": ("bulk", "pipelined", "-"),
    "gpu_aware": ("n/a", "0", "1"),
    "contiguous": (0, 1),
    "oversubscribed": (0, 1),
    "hugepages": ("on", "off"),
    "stencil": ("star", "box"),
    "overlap": (0, 1),
    "streams": (1, 2),
    "progress": ("wait", "poll"),
    "local": (0, 1),
    "per_rank": (0, 1),
    "messages": ("auto", "peer", "aggregated", "separate"),
    "method": ("p2p", "persistent", "partitioned", "neighbor", "neighbor-persistent", "rma", "shm"),
    # The synchronisation of --method rma; "-" with the other methods.
    "rma_sync": ("pscw", "fence", "-"),
}
# Settings that may be empty in a CSV row (free text the tools do not use).
MAY_BE_EMPTY = frozenset(("version", "commit", "device"))
GRID_RE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*x[1-9][0-9]*$")
# The axes that wrap around (--periodic), in order, or none.
PERIODIC_RE = re.compile(r"^(none|xyz|xy|xz|yz|x|y|z)$")
HALO_RE = re.compile(r"^[1-9][0-9]*(,[1-9][0-9]*)*$")
INT_RE = re.compile(r"^[0-9]+$")
NUMBER_RE = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$")

# Version 2 (schema_version 2 JSON; CSV with these columns): no status, no Noise_us, no
# V3_SETTINGS; its Hidden was (Blocking_us - Overlap_us) / Time_us, n/a when Time_us was 0.
V2_SETTINGS = tuple(s for s in SETTINGS if s not in V3_SETTINGS and s not in V3_DEFAULTS)
V2_COLUMNS = tuple(c for c in COLUMNS if c not in V3_COLUMNS)
V2_CSV_COLUMNS = V2_SETTINGS + V2_COLUMNS + V3_PROVENANCE
# Version 1 (schema_version 1 JSON; CSV with '#' comment lines and these columns).
V1_SETTINGS = V2_SETTINGS[:V2_SETTINGS.index("contiguous") + 1]
V1_MEASURES = ("N", "Send_B", "Send_min_B", "Time_us", "Uni_GBps", "Duplex_GBps", "RemoteFaces",
               "SelfFaces", "OffNodeFaces")
V1_OPTIONAL = ("Min_us", "Max_us", "Pack_us", "Xfer_us", "Stage_us", "Unpack_us", "Xfer_GBps", "Eff",
               "Copy_GBps", "Peer_GBps")
V1_CSV_COLUMNS = V1_SETTINGS + V1_MEASURES + V1_OPTIONAL
# The settings version 1 predates, as every version-1 run had them. Version 1's Pack_us,
# Stage_us and Unpack_us were each timed alone, not phases of the timed loop (docs/output.md).
V1_DEFAULTS = {"hugepages": "off", "stencil": "star", "overlap": 0, "streams": 1, "progress": "wait",
               "local": 0, "fields": 1, "messages": "aggregated", "method": "p2p", "rma_sync": "-"}
# The environment variables a version-2 JSON run records (version 1: the first five).
ENVIRONMENT = ("OPENPFC_FD_PROC_GRID", "OPENPFC_ASSUME_GPU_AWARE_MPI", "MPICH_GPU_SUPPORT_ENABLED",
               "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "SLURM_JOB_ID",
               "SLURM_JOB_NODELIST", "SLURM_NTASKS", "SLURM_TASKS_PER_NODE", "SLURM_LOCALID")


class ResultError(Exception):
    """A file that cannot be read or does not follow the format."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message

    def __str__(self):
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class NotAResult(ResultError):
    """A file that is no halo-bandwidth result at all: a JSON document of another schema, a CSV
    file without the result columns, an empty file, bytes that are not UTF-8 text. scripts/plot
    skips such a file (`scripts/plot *.json` in the repository root meets CMakePresets.json);
    compare refuses it like any malformed file."""


class Run:
    def __init__(self, path, line, settings, meta=None, provenance=None, version=SCHEMA_VERSION,
                 status=None, simulator=None):
        self.path, self.line, self.settings = path, line, settings
        self.meta, self.provenance, self.version = meta or {}, provenance or {}, version
        self.status = status
        self.simulator = simulator or simulator_of_library(self.provenance.get("mpi_library", ""))

    def __repr__(self):
        return f"Run({self.path}:{self.line} {self.settings})"


class Row:
    """One size (and halo width) of one run: the run's settings and the row's measurements."""

    def __init__(self, path, line, run, measured, ranks=None):
        self.path, self.line, self.run, self.measured = path, line, run, measured
        self.ranks = ranks  # --per-rank, JSON: [{"rank", "host", "Rank_us", "Send_B"}, ...]; else None

    def __getitem__(self, name):
        if name in self.measured:
            return self.measured[name]
        if name == "size":
            return (self.size_name, self.size)
        return self.run.settings[name]

    def get(self, name, default=None):
        try:
            value = self[name]
        except KeyError:
            return default
        return default if value is None else value

    @property
    def extents(self):
        """The box the row's size names, (X, Y, Z) cells: the per-rank brick of a run of --local
        (from L or Local), else the global box (from Global, or version 1's N)."""
        m = self.measured
        if m.get("L") is not None:
            return (m["L"],) * 3
        if m.get("Local") is not None:
            return box_of(m["Local"])
        if m.get("Global") is not None and not self.run.settings.get("local"):
            return box_of(m["Global"])
        return (m["N"],) * 3

    @property
    def size_name(self):
        """"N" (the global box is a cube), "Global" (it is not), "L" (the per-rank brick is a cube)
        or "Local" (it is not)."""
        local = self.measured.get("L") is not None or self.measured.get("Local") is not None
        e = self.extents
        if e[0] == e[1] == e[2]:
            return "L" if local else "N"
        return "Local" if local else "Global"

    @property
    def size(self):
        """The cube's side (N, L), or the box as text (Global, Local)."""
        e = self.extents
        return e[0] if e[0] == e[1] == e[2] else grid_str(e)

    @property
    def side(self):
        """The side of a cube of as many cells as the row's box: N or L for a cube."""
        e = self.extents
        return float(e[0]) if e[0] == e[1] == e[2] else (e[0] * e[1] * e[2]) ** (1.0 / 3.0)

    def key(self):
        return tuple(self[k] for k in KEY)

    def as_dict(self):
        d = dict(self.run.settings)
        d.update(self.measured)
        return d

    def __repr__(self):
        return f"Row({self.path}:{self.line} {self.as_dict()})"


class ResultFile:
    def __init__(self, path, kind, runs, rows, version=SCHEMA_VERSION, status=None):
        self.path, self.kind, self.runs, self.rows, self.version = path, kind, runs, rows, version
        self._status = status

    @property
    def status(self):
        """How the run ended (Run.status): JSON, the document's; CSV, the first run that did not
        complete, else the first run's; None when the file does not record it (versions 1, 2)."""
        if self._status is not None:
            return self._status
        statuses = [r.status for r in self.runs if r.status is not None]
        for st in statuses:
            if st["state"] != "complete":
                return st
        return statuses[0] if statuses else None


def simulator_of_library(library):
    """What ran the ranks of a file before version 4, from its MPI library's description: SimGrid's
    SMPI names itself ("SMPI Version 3.32. ..."); any other library ran a measured run."""
    m = re.match(r"SMPI Version ([0-9]+\.[0-9]+)", library or "")
    return {"engine": "SimGrid SMPI" if m else NOT_SIMULATED, "version": m.group(1) if m else None,
            "platform": None, "platform_sha256": None}


def simulated(run):
    """Whether a simulator ran the run's ranks (its times are the model's, not measured)."""
    return run.simulator["engine"] != NOT_SIMULATED


def simulation_text(run):
    """"simulated by SimGrid SMPI 3.32 on platform P" (the platform where recorded), or None for a
    measured run."""
    if not simulated(run):
        return None
    sim = run.simulator
    text = "simulated by " + " ".join(v for v in (sim["engine"], sim["version"]) if v)
    return text + (f" on platform {sim['platform']}" if sim["platform"] else "")


def _check_simulator(path, line, sim):
    """A measured run names no version or platform; a simulated one an engine; a SHA-256 is 64 hex."""
    if not sim["engine"]:
        raise ResultError(path, line, f"simulator is empty: {NOT_SIMULATED!r} for a measured run")
    if sim["engine"] == NOT_SIMULATED and any(sim[k] for k in ("version", "platform", "platform_sha256")):
        raise ResultError(path, line, f"simulator {NOT_SIMULATED} (a measured run) with a version or a platform")
    if sim["platform_sha256"] and not SHA256_RE.match(sim["platform_sha256"]):
        raise ResultError(path, line, f"platform_sha256: {sim['platform_sha256']!r} is not 64 hex digits")


def status_problem(status):
    """How a run that did not complete ended, in words, or None (complete, or not recorded):
    "run failed (exit 1): REASON", "run incomplete: ..."."""
    if not status or status["state"] == "complete":
        return None
    if status["state"] == "failed":
        return f"run failed (exit {status['exit_code']}): {status['reason']}"
    return ("run incomplete: the file was written while the run was still measuring (a job killed from "
            "outside, or one still running)")


def problem_runs(f):
    """(where, words) of each run of f that did not complete: where is the file, or FILE:LINE
    when the file holds several runs."""
    out = []
    for run in f.runs:
        words = status_problem(run.status)
        if words:
            out.append((f.path if len(f.runs) == 1 else f"{f.path}:{run.line}", words))
    if not f.runs and status_problem(f.status):
        out.append((f.path, status_problem(f.status)))
    return out


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
        raise NotAResult(path, line, "not UTF-8 text") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise NotAResult(path, 1, "empty file: expected a CSV header or a JSON document")
    if text.lstrip().startswith("{"):
        return _read_json(path, text)
    return _read_csv(path, text)


def read_all(paths):
    return [read(p) for p in paths]


def grid_str(grid):
    return "x".join(str(g) for g in grid)


def box_of(text):
    """"16x12x8" -> (16, 12, 8)."""
    return tuple(int(v) for v in text.split("x"))


def describe_key(row):
    """The row's key in words: "N=64 H=1 z 1x1x2 datatype p2p star fields 1 aggregated"."""
    return (f"{row.size_name}={row.size} H={row['H']} {row['directions']} {row['grid']} {row['pack']} "
            f"{row['method']} {row['stencil']} fields {row['fields']} {row['messages']}")


# ---------------------------------------------------------------------------------------------
# Checks shared by both readers (they raise ResultError(path, line, ...)).


def _check_setting(path, line, name, value):
    if name == "program" and value != PROGRAM:
        raise ResultError(path, line, f"program: {value!r} is not {PROGRAM!r}")
    if name == "grid" and not GRID_RE.match(value):
        raise ResultError(path, line, f"grid: {value!r} is not GXxGYxGZ")
    if name == "periodic" and not PERIODIC_RE.match(value):
        raise ResultError(path, line, f"periodic: {value!r} is not the periodic axes in order (xyz, xz, ...) or none")
    if name == "node_grid" and value != "-" and not GRID_RE.match(value):
        raise ResultError(path, line, f"node_grid: {value!r} is neither AxBxC nor -")
    if name == "halo" and not HALO_RE.match(value):
        raise ResultError(path, line, f"halo: {value!r} is not a list of whole numbers of at least 1")
    if name in ENUMS and value not in ENUMS[name]:
        allowed = "|".join(str(v) for v in ENUMS[name])
        raise ResultError(path, line, f"{name}: {value!r} is not one of {allowed}")
    if name == "ranks_per_core" and not value > 0:
        raise ResultError(path, line, f"ranks_per_core: {value!r} is not above 0")


def _check_run(path, line, s):
    """Settings that must agree with each other."""
    if (s["stencil"] == "box") != (s["directions"] == "box"):
        raise ResultError(path, line, f"directions {s['directions']} with stencil {s['stencil']}: "
                          "directions is box exactly when the stencil is box")
    if (s["method"] == "rma") != (s["rma_sync"] != "-"):
        raise ResultError(path, line, f"rma_sync {s['rma_sync']} with method {s['method']}: "
                          "rma_sync is pscw or fence with method rma, else -")
    if (s["placement"] == "nodes") != (s["node_grid"] != "-"):
        raise ResultError(path, line, f"node_grid {s['node_grid']} with placement {s['placement']}: the node grid "
                          "AxBxC goes with placement nodes, - with the others")
    if s["node_grid"] != "-":
        nodes, grid = box_of(s["node_grid"]), box_of(s["grid"])
        if nodes[0] * nodes[1] * nodes[2] != s["nodes"] or any(g % n for g, n in zip(grid, nodes)):
            raise ResultError(path, line, f"node_grid {s['node_grid']} on grid {s['grid']} with {s['nodes']} nodes: "
                              "the node grid holds every node once and tiles the grid")
    over, per_core = s.get("oversubscribed"), s.get("ranks_per_core")
    # ranks_per_core is rounded to 2 decimals: 257 ranks on 256 cores print 1.00, oversubscribed.
    if over is not None and per_core is not None and (per_core < 1 if over else per_core > 1):
        raise ResultError(path, line, f"oversubscribed {over} with ranks_per_core {per_core:.2f}: "
                          "oversubscribed is 1 exactly when some node has more ranks than cores")


def _check_row(path, line, s, m, version=SCHEMA_VERSION):
    """The row against itself and its run's settings."""
    want, size = _check_size(path, line, s, m, version)
    if want is not None and m["Global"] != want:
        raise ResultError(path, line, f"Global {m['Global']} is not {want} ({size})")
    if str(m["H"]) not in s["halo"].split(","):
        raise ResultError(path, line, f"H {m['H']} is not among the run's halo widths {s['halo']}")
    if m["Send_min_B"] > m["Send_B"]:
        raise ResultError(path, line, f"Send_min_B {m['Send_min_B']} exceeds Send_B {m['Send_B']}")
    hidden = m.get("Hidden")
    if s.get("ranks_per_core") is not None and isinstance(hidden, float) and not 0 <= hidden <= 1:
        # Version 3: a share, or none (NA); version 2's Hidden could leave [0, 1].
        raise ResultError(path, line, f"Hidden {hidden} is outside [0, 1] (a share, or none)")
    if isinstance(m.get("Noise_us"), float) and m["Noise_us"] < 0:
        raise ResultError(path, line, f"Noise_us {m['Noise_us']} is negative")
    if version >= 3:
        _check_v3_row(path, line, s, m)


def _check_size(path, line, s, m, version):
    """The row's size columns against the run's local setting: the Global box they give (None
    where Global alone names the box) and the size in words."""
    n, l, brick = m.get("N"), m.get("L"), m.get("Local")
    grid = box_of(s["grid"])
    if n is not None and (l is not None or brick is not None) or version < 3 and n is None and l is None:
        raise ResultError(path, line, "a row has exactly one of N and L" +
                          (", not both" if n is not None else ", neither given"))
    if s["local"] == 0:
        if l is not None or brick is not None:
            raise ResultError(path, line, "local is 0 (global sizes): the row has N (or Global alone), not "
                              + ("L" if l is not None else "Local"))
        return (grid_str([n] * 3), f"N={n}") if n is not None else (None, "")
    if n is not None:
        raise ResultError(path, line, "local is 1 (per-rank sizes): the row needs L (or Local), not N")
    if l is not None and brick is not None or l is None and brick is None:
        raise ResultError(path, line, "local is 1 (per-rank sizes): the row has exactly one of L (a cube) and "
                          "Local (a brick)" + (", not both" if l is not None else ", neither given"))
    if l is not None:
        return grid_str(g * l for g in grid), f"L={l} on grid {s['grid']}"
    return grid_str(g * e for g, e in zip(grid, box_of(brick))), f"Local={brick} on grid {s['grid']}"


def _check_v3_row(path, line, s, m):
    """Version 3: the row's K against the run's iters, and the slowest rank."""
    missing = [k for k in V3_ROW_COLUMNS if m.get(k) is None or m.get(k) == ""]
    if missing:
        raise ResultError(path, line, f"a version-3 row lacks {','.join(missing)}")
    if s["iters"] == AUTO and not AUTO_ITERS[0] <= m["Iters"] <= AUTO_ITERS[1]:
        raise ResultError(path, line, f"Iters {m['Iters']} with iters auto: K is from {AUTO_ITERS[0]} to "
                          f"{AUTO_ITERS[1]}")
    if s["iters"] != AUTO and m["Iters"] != s["iters"]:
        raise ResultError(path, line, f"Iters {m['Iters']} is not the run's iters {s['iters']}")
    if s["periodic"] == "xyz" and m["BoundaryFaces"] != 0:
        raise ResultError(path, line, f"BoundaryFaces {m['BoundaryFaces']} with every axis periodic: a wall has faces "
                          "only on an open axis")
    if m["BoundaryFaces"] > 6:
        raise ResultError(path, line, f"BoundaryFaces {m['BoundaryFaces']}: a rank has 6 faces")
    if s["nodes"] == 1 and (m["OffNodeFaces"] or m["OffNode_B"] or m["NodeOut_B"]):
        raise ResultError(path, line, f"OffNodeFaces {m['OffNodeFaces']}, OffNode_B {m['OffNode_B']}, NodeOut_B "
                          f"{m['NodeOut_B']} on one node: nothing leaves it")
    if not m["OffNode_B"] <= m["Send_B"] or not m["OffNode_B"] <= m["NodeOut_B"]:
        raise ResultError(path, line, f"OffNode_B {m['OffNode_B']} exceeds Send_B {m['Send_B']} or NodeOut_B "
                          f"{m['NodeOut_B']}: a rank sends off its node part of what it sends, and its node sends "
                          "at least that")
    if m["Slowest"] >= s["ranks"]:
        raise ResultError(path, line, f"Slowest {m['Slowest']} is not one of the {s['ranks']} ranks")
    if isinstance(m["Skew"], float) and m["Skew"] < 1:
        raise ResultError(path, line, f"Skew {m['Skew']} is below 1: the slowest rank's time over the median's")


def _check_status(path, line, st):
    """A status object (JSON "status", or the CSV's status columns) against itself."""
    state, code, reason = st["state"], st["exit_code"], st["reason"]
    if state not in STATES:
        raise ResultError(path, line, f"status: {state!r} is not one of {'|'.join(STATES)}")
    if state == "complete" and (code != 0 or reason):
        raise ResultError(path, line, f"status complete with exit_code {code} and reason {reason!r}: "
                          "a complete run has exit code 0 and no reason")
    if state == "failed" and (not isinstance(code, int) or code < 1 or not reason):
        raise ResultError(path, line, f"status failed with exit_code {code} and reason {reason!r}: "
                          "a failed run has an exit code of at least 1 and a reason")
    if state == "incomplete" and code is not None:
        raise ResultError(path, line, f"status incomplete with exit_code {code}: a run still measuring "
                          "has no exit code")


def split_warnings(text):
    """The CSV's warnings field as a list: split at "; " only where a known warning starts."""
    if not text:
        return []
    starts = "|".join(re.escape(w) for w in WARNINGS)
    return re.split(r"; (?=" + starts + ")", text)


def _check_size_columns(path, rows):
    """Each size column (N, L, Local) in every row of a run or in none: the benchmark writes N only
    when every row of the run is a cube, L only when every brick is one, else Local."""
    first = {}
    for row in rows:
        have = tuple(row.measured.get(k) is not None for k in SIZES)
        run_first = first.setdefault(id(row.run), (row, have))
        if have != run_first[1]:
            a, b = run_first[0], row
            names = lambda r: ",".join(k for k in SIZES if r.measured.get(k) is not None) or "Global alone"
            raise ResultError(path, row.line, f"the size is {names(b)} here but {names(a)} in the run's first row "
                              f"(line {a.line}): a run names every row's size alike (N or L where every row is "
                              "a cube, else Global or Local)")


def _v1_row(s, m):
    """Fills in a version-1 row's columns that version 1 did not write."""
    m["L"] = None
    m["H"] = int(s["halo"])
    m["Global"] = grid_str([m["N"]] * 3) if isinstance(m.get("N"), int) else None


# ---------------------------------------------------------------------------------------------
# CSV


def _csv_records(path, text):
    """(line, fields) of each CSV record, parsed by the csv module; '#' comment lines and blank
    lines between records are skipped. A quoted field may span lines."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        start = i
        first = lines[i].rstrip("\r")
        i += 1
        if not first.strip() or first.lstrip().startswith("#"):
            continue
        parts = [first]
        # An odd number of quotes so far: a quoted field goes on past this line.
        while sum(p.count('"') for p in parts) % 2 == 1:
            if i == len(lines):
                raise ResultError(path, start + 1, "a quoted field is not closed before the end of the file")
            parts.append(lines[i].rstrip("\r"))
            i += 1
        record = "\n".join(parts)
        try:
            rows = list(csv.reader(io.StringIO(record, newline=""), strict=True))
        except csv.Error as e:
            raise ResultError(path, start + 1, f"malformed CSV: {e}") from None
        yield start + 1, [f.strip() for f in rows[0]] if rows else [""], record


def _csv_value(path, line, name, text):
    """Converts one CSV field; raises ResultError naming the column."""
    if name in OPTIONAL:
        if text == "" and name not in ROW_IDS:
            return None
        if text == NA and name in OPTIONAL_MEASURES:
            return NA
    if text == "":
        if name in MAY_BE_EMPTY or name in PROVENANCE:
            return text
        raise ResultError(path, line, f"{name} is empty")
    if name == "iters" and text == AUTO:
        return AUTO
    if name in INT_FIELDS:
        if not INT_RE.match(text):
            raise ResultError(path, line, f"{name}: {text!r} is not a whole number")
        value = int(text)
        if value < INT_MIN.get(name, 0):
            raise ResultError(path, line, f"{name}: {value} is below {INT_MIN[name]}")
    elif name in BOX_COLUMNS:
        if not GRID_RE.match(text):
            raise ResultError(path, line, f"{name}: {text!r} is not {name[0]}Xx{name[0]}Yx{name[0]}Z")
        value = text
    elif DECIMALS.get(name) == TEXT:
        value = text
    elif name in DECIMALS:
        if not NUMBER_RE.match(text):
            raise ResultError(path, line, f"{name}: {text!r} is not a number")
        value = float(text)
        if not math.isfinite(value):
            raise ResultError(path, line, f"{name}: {text!r} is not a finite number")
    else:
        value = text
    _check_setting(path, line, name, value)
    return value


def _looks_like_header(fields):
    return fields[:1] == ["program"] or ("Send_B" in fields and "Time_us" in fields)


def _header_version(path, line, fields):
    """The version of a CSV header (1 to 4); raises ResultError when it lacks columns."""
    seen = set()
    for name in fields:
        if name in seen:
            raise ResultError(path, line, f"column {name} appears twice in the header")
        seen.add(name)
    if not seen & set(CSV_COLUMNS):
        raise NotAResult(path, line, "expected the CSV header row (program,version,...) or a JSON document")
    v3_only = set(V3_CSV_COLUMNS) - set(V2_CSV_COLUMNS)
    v2_only = set(V2_CSV_COLUMNS) - set(V1_CSV_COLUMNS)
    if seen & set(SIMULATOR):
        version, need = 4, SETTINGS + MEASURES + SIZES + ROW_IDS + SIMULATOR + STATUS_COLUMNS
    elif seen & v3_only:
        version, need = 3, SETTINGS + MEASURES + SIZES + ROW_IDS + STATUS_COLUMNS
    elif seen & v2_only:
        version, need = 2, V2_SETTINGS + MEASURES + ("N", "L") + ROW_IDS
    else:
        version, need = 1, V1_SETTINGS + V1_MEASURES
    missing = [c for c in need if c not in seen]
    if missing:
        raise ResultError(path, line, "header lacks column" + ("s " if len(missing) > 1 else " ")
                          + ",".join(missing))
    return version


def _csv_status(path, line, record):
    """The status columns of a version-3 CSV row, as the JSON status object (rows counted later)."""
    code = record["exit_code"]
    if code != "" and not INT_RE.match(code):
        raise ResultError(path, line, f"exit_code: {code!r} is not a whole number")
    st = {"state": record["status"], "exit_code": int(code) if code != "" else None,
          "reason": record["reason"] or None, "rows": 0, "warnings": split_warnings(record["warnings"])}
    _check_status(path, line, st)
    return st


def status_line(record):
    """Whether a version-3 CSV line is the one line of a run that failed before its first row: every
    column of a row empty (docs/output.md, Status)."""
    return all(record.get(n, "") == "" for n in COLUMNS)


def _csv_simulator(path, line, record):
    """Version 4: the simulator columns as JSON's run.simulator (None before: inferred by Run)."""
    if "simulator" not in record:
        return None
    sim = {"engine": record["simulator"]}
    sim.update({k: record[n] or None for k, n in zip(("version", "platform", "platform_sha256"), SIMULATOR[1:])})
    _check_simulator(path, line, sim)
    return sim


def _read_csv(path, text):
    header = header_line = current = None
    version = None
    runs, rows = [], []
    new_run = False
    for lineno, fields, _ in _csv_records(path, text):
        if header is None:
            version = _header_version(path, lineno, fields)
            header, header_line = fields, lineno
            continue
        if fields == header:
            new_run = True  # a repeated header: the rows that follow are another run
            continue
        if _looks_like_header(fields):
            raise ResultError(path, lineno, f"a header that differs from the header on line {header_line}")
        if len(fields) != len(header):
            raise ResultError(path, lineno, f"{len(fields)} fields, but the header (line {header_line}) "
                              f"has {len(header)}")
        record = dict(zip(header, fields))
        settings = {}
        for n in SETTINGS:
            if n in record:
                settings[n] = _csv_value(path, lineno, n, record[n])
            elif version == 1 and n in V1_DEFAULTS:
                settings[n] = V1_DEFAULTS[n]
            elif n in V3_SETTINGS:
                settings[n] = None  # not recorded before version 3
            elif n in V3_DEFAULTS:
                settings[n] = V3_DEFAULTS[n]  # as every run before version 3 was
        if version == 1:
            settings["halo"] = str(settings["halo"])
        _check_run(path, lineno, settings)
        if version >= 3 and status_line(record):
            # A run that failed before its first row: its settings and status, and no row.
            status = _csv_status(path, lineno, record)
            if status["state"] != "failed" or rows or runs:
                raise ResultError(path, lineno, "a line with no row is only the whole file of a run that failed "
                                  "before its first row (status failed)")
            runs.append(Run(path, lineno, settings, provenance={n: record[n] for n in PROVENANCE if n in record},
                            version=version, status=status, simulator=_csv_simulator(path, lineno, record)))
            new_run = False
            continue
        measured = {n: _csv_value(path, lineno, n, record[n]) if n in record else None for n in COLUMNS}
        if version == 1:
            _v1_row(settings, measured)
        if version >= 3 and measured["Comp_us"] is not None and measured["Hidden"] is None:
            measured["Hidden"] = NA  # an empty Hidden in a row with the overlap columns: no share
        _check_row(path, lineno, settings, measured, version)
        provenance = {n: record[n] for n in PROVENANCE if n in record}
        status = _csv_status(path, lineno, record) if version >= 3 else None
        if (current is None or new_run or current.settings != settings
                or current.provenance != provenance):
            current = Run(path, lineno, settings, provenance=provenance, version=version, status=status,
                          simulator=_csv_simulator(path, lineno, record))
            runs.append(current)
            new_run = False
        elif status is not None and {**status, "rows": 0} != {**current.status, "rows": 0}:
            raise ResultError(path, lineno, "the status columns (status, exit_code, reason, warnings) differ "
                              f"from those of the run's first row (line {current.line}): they are the same "
                              "on every row of a run")
        if current.status is not None:
            current.status["rows"] += 1
        rows.append(Row(path, lineno, current, measured))
    if header is None:
        raise NotAResult(path, 1, "no CSV header row (only comments)")
    _check_size_columns(path, rows)
    return ResultFile(path, "csv", runs, rows, version)


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

    def wrap(self, obj, key, check, *args):
        """Runs check(path, 0, *args), moving its ResultError to obj's line of key."""
        try:
            check(self.path, 0, *args)
        except ResultError as e:
            self.fail(obj, key, e.message)


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


def compact(values):
    """A list of integers as the CSV's hosts column writes it: "0-3", "-1*4", "0-3,0-3"."""
    out, i = [], 0
    while i < len(values):
        j = i
        if i + 1 < len(values) and values[i + 1] == values[i]:
            while j + 1 < len(values) and values[j + 1] == values[i]:
                j += 1
            out.append(f"{values[i]}*{j - i + 1}")
        else:
            while values[i] >= 0 and j + 1 < len(values) and values[j + 1] == values[j] + 1:
                j += 1
            out.append(f"{values[i]}-{values[j]}" if j > i else str(values[i]))
        i = j + 1
    return ",".join(out)


def _json_provenance(program, run):
    """The PROVENANCE texts of a JSON document, as the CSV would write them."""
    p = {"command_line": " ".join(run.get("command_line", [])), "start_utc": run.get("start_utc", "")}
    if all(k in program for k in ("build_type", "compiler", "kokkos", "backends")):
        p["build"] = (f"{program['build_type']}; {program['compiler']}; {program['kokkos']}; "
                      f"backends {' '.join(program['backends'])}")
    for k in ("mpi_library", "mpi_thread"):
        if k in program:
            p[k] = program[k]
    try:
        p["hosts"] = "; ".join(f"{h['name']} ranks {compact(h['ranks'])} devices {compact(h['devices'])}"
                               + (f" cores {h['cores']}" if "cores" in h else "")
                               for h in run.get("hosts", []))
    except (KeyError, TypeError):
        pass
    env = run.get("environment")
    if isinstance(env, dict):
        p["environment"] = "; ".join(f"{k}={'(unset)' if v is None else v}" for k, v in env.items())
    sim = run.get("simulator")
    if isinstance(sim, dict):
        for name, key in zip(SIMULATOR, ("engine", "version", "platform", "platform_sha256")):
            p[name] = sim.get(key) or ""
    return p


def _json_simulator(c, run):
    """Version 4's run.simulator: the engine a string, the rest strings or null."""
    sim = c.obj(run, "simulator", "run")
    out = {"engine": c.string(sim, "engine", "run.simulator")}
    for key in ("version", "platform", "platform_sha256"):
        out[key] = c.member(sim, key, "run.simulator", ("string", "null"), "a string or null") or None
    extra = [k for k in sim if k not in out]
    if extra:
        c.fail(sim, extra[0], f"run.simulator.{extra[0]}: no such member")
    c.wrap(run, "simulator", _check_simulator, out)
    return out


def _read_json(path, text):
    try:
        doc = _decoder().decode(text)
    except json.JSONDecodeError as e:
        raise ResultError(path, e.lineno, f"malformed JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise ResultError(path, 1, "malformed JSON: nested too deeply") from None
    c = _JsonChecker(path, text)
    if not isinstance(doc, _Obj):
        raise NotAResult(path, 1, "the JSON document must be an object")
    if doc.get("schema") != SCHEMA_NAME:
        line = c.key_line(doc, "schema") if "schema" in doc else c.line_of(doc.start)
        what = f'not {_json_repr(doc["schema"])}' if "schema" in doc else "absent"
        raise NotAResult(path, line, f'"schema" must be "{SCHEMA_NAME}", {what}: not a halo-bandwidth result')
    version = c.integer(doc, "schema_version", "document")
    if version not in SCHEMA_VERSIONS:
        c.fail(doc, "schema_version", f"schema_version {version}: this script reads versions "
               + " and ".join(str(v) for v in SCHEMA_VERSIONS))

    program = c.obj(doc, "program", "document")
    run = c.obj(doc, "run", "document")
    s = {}
    s["program"] = c.string(program, "name", "program")
    c.wrap(program, "name", _check_setting, "program", s["program"])
    s["version"] = c.string(program, "version", "program")
    s["commit"] = c.string(program, "commit", "program")
    if version >= 2:
        c.string(program, "mpi_thread", "program")
    grid = c.member(run, "grid", "run", ("array",), "an array of 3 whole numbers")
    if len(grid) != 3 or not all(_is_kind(g, ("integer",)) and g >= 1 for g in grid):
        c.fail(run, "grid", f"run.grid must be 3 whole numbers of at least 1, not {_json_repr(grid)}")
    if version >= 2:
        halo = c.member(run, "halo", "run", ("array",), "an array of whole numbers")
        if not halo or not all(_is_kind(h, ("integer",)) and h >= 1 for h in halo):
            c.fail(run, "halo", f"run.halo must be whole numbers of at least 1, not {_json_repr(halo)}")
        halo = ",".join(str(int(h)) for h in halo)
    else:
        halo = str(c.integer(run, "halo", "run"))
    for key in SETTINGS[3:]:
        if key == "grid":
            s[key] = grid_str(int(g) for g in grid)
        elif key == "halo":
            s[key] = halo
        elif version == 1 and key in V1_DEFAULTS and key not in run:
            s[key] = V1_DEFAULTS[key]
        elif key in V3_SETTINGS and version < 3:
            s[key] = None  # not recorded before version 3
            continue
        elif key in V3_DEFAULTS and version < 3:
            s[key] = V3_DEFAULTS[key]  # as every run before version 3 was
        elif key in ("ranks_per_core", "min_time"):
            s[key] = c.number(run, key, "run")
        elif key == "iters" and version >= 3 and run.get("iters") == AUTO:
            s[key] = AUTO
        elif key in INT_FIELDS:
            s[key] = c.integer(run, key, "run")
        else:
            s[key] = c.string(run, key, "run")
        c.wrap(run, key, _check_setting, key, s[key])
    c.wrap(run, None, _check_run, s)
    # The rest is checked loosely here (docs/output.schema.json is exact).
    c.member(run, "command_line", "run", ("array",), "an array of strings")
    c.string(run, "start_utc", "run")
    hosts = c.member(run, "hosts", "run", ("array",), "an array")
    if version >= 3:
        _check_hosts(c, run, hosts, s)
    env = c.obj(run, "environment", "run")
    for key, value in env.items():
        if not _is_kind(value, ("string", "null")):
            c.fail(env, key, f"run.environment.{key} must be a string or null, not {_json_repr(value)}")
    if "limits" in run:
        c.obj(run, "limits", "run")
    simulator = _json_simulator(c, run) if version >= 4 else None

    meta = {"program": dict(program), "run": dict(run)}
    items = c.member(doc, "rows", "document", ("array",), "an array")
    status = _json_status(c, doc, len(items)) if version >= 3 else None
    the_run = Run(path, c.line_of(run.start), s, meta, _json_provenance(program, run), version, status,
                  simulator)
    rows = []
    for i, item in enumerate(items):
        where = f"rows[{i}]"
        if not isinstance(item, _Obj):
            c.fail(doc, "rows", f"{where} must be an object, not {_json_repr(item)}")
        m = {}
        for key in MEASURES:
            m[key] = c.integer(item, key, where) if key in INT_FIELDS else c.number(item, key, where)
        for key in ("N", "L"):
            m[key] = c.integer(item, key, where) if key in item else None
        m["Local"] = None
        if "Local" in item and version >= 3:
            m["Local"] = c.string(item, "Local", where)
            if not GRID_RE.match(m["Local"]):
                c.fail(item, "Local", f"{where}.Local must be LXxLYxLZ, not {_json_repr(m['Local'])}")
        if version == 1:
            if m["N"] is None:
                c.fail(item, None, f'{where} lacks "N"')
            _v1_row(s, m)
        else:
            m["Global"] = c.string(item, "Global", where)
            if not GRID_RE.match(m["Global"]):
                c.fail(item, "Global", f"{where}.Global must be GXxGYxGZ, not {_json_repr(m['Global'])}")
            m["H"] = c.integer(item, "H", where)
        for key in OPTIONAL_MEASURES:
            if key not in item:
                m[key] = None
            elif DECIMALS.get(key) == TEXT:
                m[key] = c.string(item, key, where)
            elif key in INT_FIELDS:
                m[key] = c.integer(item, key, where)
            else:
                m[key] = c.number(item, key, where, nullable=True)
                if m[key] is None:
                    m[key] = NA
        line = c.line_of(item.start)
        _check_row(path, line, s, m, version)
        ranks = _json_ranks(c, item, where, s, m) if version >= 3 else None
        rows.append(Row(path, line, the_run, m, ranks))
    _check_size_columns(path, rows)
    return ResultFile(path, "json", [the_run], rows, version, status)


def _json_ranks(c, item, where, s, m):
    """Version 3, --per-rank: a row's "ranks", every rank in order with its host, its time (Rank_us,
    before the trailing barrier) and its bytes; none without --per-rank."""
    if not s["per_rank"]:
        if "ranks" in item:
            c.fail(item, "ranks", f"{where}.ranks without per_rank: only --per-rank lists the ranks")
        return None
    listed = c.member(item, "ranks", where, ("array",), "an array of the ranks")
    out = []
    for i, e in enumerate(listed):
        w = f"{where}.ranks[{i}]"
        if not isinstance(e, _Obj):
            c.fail(item, "ranks", f"{w} must be an object, not {_json_repr(e)}")
        f = {"rank": c.integer(e, "rank", w), "host": c.string(e, "host", w), "Rank_us": c.number(e, "Rank_us", w),
             "Send_B": c.integer(e, "Send_B", w)}
        if f["rank"] != i or not m["Send_min_B"] <= f["Send_B"] <= m["Send_B"]:
            c.fail(e, "rank", f"{w}: rank {f['rank']} sending {f['Send_B']} B: the ranks in order, each between "
                   f"Send_min_B and Send_B")
        out.append(f)
    if len(out) != s["ranks"]:
        c.fail(item, "ranks", f"{where}.ranks lists {len(out)} ranks of {s['ranks']}")
    return out


def _check_hosts(c, run, hosts, s):
    """Version 3: each host's cores, and ranks_per_core the most ranks per core over them."""
    most = 0.0
    for i, h in enumerate(hosts):
        if not isinstance(h, _Obj):
            c.fail(run, "hosts", f"run.hosts[{i}] must be an object, not {_json_repr(h)}")
        ranks = c.member(h, "ranks", f"run.hosts[{i}]", ("array",), "an array")
        cores = c.member(h, "cores", f"run.hosts[{i}]", ("integer",), "a whole number")
        if cores < 1:
            c.fail(h, "cores", f"run.hosts[{i}].cores is {cores}, below 1")
        most = max(most, len(ranks) / cores)
    if hosts and abs(most - s["ranks_per_core"]) > 0.005 + 1e-9:
        c.fail(run, "ranks_per_core", f"run.ranks_per_core {s['ranks_per_core']} is not the most ranks per "
               f"core over run.hosts ({most:.2f})")


def _json_status(c, doc, rows):
    """Version 3: the document's status object, checked against itself and the rows."""
    st = c.obj(doc, "status", "document")
    state = c.string(st, "state", "status")
    code = c.member(st, "exit_code", "status", ("integer", "null"), "a whole number or null")
    reason = c.member(st, "reason", "status", ("string", "null"), "a string or null")
    count = c.integer(st, "rows", "status")
    warnings = c.member(st, "warnings", "status", ("array",), "an array of strings")
    if not all(isinstance(w, str) for w in warnings):
        c.fail(st, "warnings", f"status.warnings must be an array of strings, not {_json_repr(warnings)}")
    out = {"state": state, "exit_code": None if code is None else int(code), "reason": reason,
           "rows": count, "warnings": list(warnings)}
    c.wrap(st, "state", _check_status, out)
    if count != rows:
        c.fail(st, "rows", f"status.rows is {count}, but the document has {rows} rows")
    return out


# ---------------------------------------------------------------------------------------------
# Strict check of a CSV file as the benchmark writes it (used by tests/tools/test_tools.py).


def csv_field(text):
    """A field as the benchmark quotes it (RFC 4180): quoted when it holds , " CR or LF."""
    if not any(ch in text for ch in ',"\r\n'):
        return text
    return '"' + text.replace('"', '""') + '"'


def csv_format_problems(path):
    """Problems with a CSV file beyond what the reader needs. Versions 2 to 4: no comment or
    blank lines; the header names exactly CSV_COLUMNS (version 3: V3_CSV_COLUMNS; version 2:
    V2_CSV_COLUMNS) in order; each
    field quoted exactly when it must be; each number with the documented decimals; n/a only in
    CSV_NA_FIELDS (version 2: NA_FIELDS); an empty Hidden (no share) only in a row with the other
    overlap columns (version 3); each optional group of columns all filled or all empty, filled
    exactly when the run's settings ask for it (box, spread, overlap); the status columns valid.
    Version 1: the header names exactly V1_CSV_COLUMNS (comments allowed). Returns a list of
    "FILE:LINE: ..." strings (empty when the file is exact)."""
    try:
        f = read(path)
    except ResultError as e:
        return [str(e)]
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    if f.version == 1:
        return _v1_format_problems(path, text)
    problems = []
    columns = {4: CSV_COLUMNS, 3: V3_CSV_COLUMNS}.get(f.version, V2_CSV_COLUMNS)
    for lineno, raw in enumerate(text.split("\n"), 1):
        if raw.startswith("#"):
            problems.append(f"{path}:{lineno}: a comment line (version {f.version} CSV has none)")
        elif not raw.strip() and lineno < text.count("\n") + 1:
            problems.append(f"{path}:{lineno}: a blank line")
        if raw.endswith("\r"):
            problems.append(f"{path}:{lineno}: CRLF line end (the benchmark writes LF)")
    if text and not text.endswith("\n"):
        problems.append(f"{path}: the last line has no line end")
    header_seen = False
    for lineno, fields, record in _csv_records(path, text):
        raw_fields = next(csv.reader(io.StringIO(record, newline="")))
        if ",".join(csv_field(v) for v in raw_fields) != record:
            problems.append(f"{path}:{lineno}: quoting: a field is quoted that need not be, or not as "
                            "RFC 4180 has it")
        if not header_seen or _looks_like_header(fields):
            if tuple(raw_fields) != columns:
                problems.append(f"{path}:{lineno}: header is not exactly {','.join(columns)}")
                return problems
            header_seen = True
            continue
        rec = dict(zip(columns, raw_fields))
        if f.version >= 3 and status_line(rec):
            continue  # a run that failed before its first row: the reader checked its settings and status
        for name, value in rec.items():
            if name not in PROVENANCE + ("reason", "warnings") and value != value.strip():
                problems.append(f"{path}:{lineno}: {name}: {value!r} has spaces")
            problem = _field_problem(name, value, f.version)
            if problem:
                problems.append(f"{path}:{lineno}: {name}: {value!r} is not {problem}")
        problems += [f"{path}:{lineno}: {p}" for p in _group_problems(rec)]
    return problems


def _field_problem(name, text, version=SCHEMA_VERSION):
    """What a field of a version-2 or -3 row should have been, or None."""
    if text == NA and name in (CSV_NA_FIELDS if version >= 3 else NA_FIELDS):
        return None
    if name == "status":
        return None if text in STATES else "|".join(STATES)
    if name == "exit_code":
        return None if re.match(r"^(|0|[1-9][0-9]*)$", text) else "a whole number or empty"
    if text == "" and (name in OPTIONAL_MEASURES or name in SIZES or name in MAY_BE_EMPTY):
        return None
    if name == "iters" and text == AUTO and version >= 3:
        return None
    if DECIMALS.get(name) == TEXT and name not in BOX_COLUMNS:
        return None
    if name in BOX_COLUMNS:
        return None if GRID_RE.match(text) else f"{name[0]}Xx{name[0]}Yx{name[0]}Z"
    if name in INT_FIELDS:
        return None if re.match(r"^(0|[1-9][0-9]*)$", text) else "a whole number"
    if name.endswith("_GBps") and re.match(r"^[0-9]+\.[0-9]{3,}$", text):
        ok = text == csv_number(name, float(text))
        return None if ok else "3 decimals, more below 0.1 for 3 significant digits"
    if name in DECIMALS:
        want = r"^-?[0-9]+\.[0-9]{%d}$" % DECIMALS[name]
        return None if re.match(want, text) else f"fixed with {DECIMALS[name]} decimals"
    return None


def _group_problems(rec):
    out = []
    for group, names in GROUPS.items():
        names = tuple(n for n in names if n in rec)  # version 2 has no Noise_us
        if group == "limit" and rec["Send_B"] == "0":
            # Nothing to copy: the benchmark leaves Copy_GBps out when Send_B is 0.
            if rec["Copy_GBps"] != "":
                out.append("Copy_GBps filled with Send_B 0")
            names = ("Peer_GBps",)
        filled = [n for n in names if rec[n] != ""]
        if "status" in rec and filled:
            # Version 3: an empty Hidden in a row with the other overlap columns is no share.
            filled += [n for n in names if rec[n] == "" and n in UNRESOLVED_FIELDS]
        if filled and len(filled) != len(names):
            out.append(f"group {group}: {','.join(filled)} filled but not "
                       + ",".join(n for n in names if n not in filled))
    wants = {"box": rec["stencil"] == "box", "spread": rec["repeats"] != "1", "overlap": rec["overlap"] == "1"}
    for group, want in wants.items():
        have = rec[GROUPS[group][0]] != ""
        if have != want:
            out.append(f"group {group} {'filled' if have else 'empty'} with stencil {rec['stencil']}, "
                       f"repeats {rec['repeats']}, overlap {rec['overlap']}")
    if rec["hugepages"] == "off" and rec["Field_MiB"] != "":
        out.append("Field_MiB filled with hugepages off")
    if "status" in rec:
        empty = [n for n in V3_ROW_COLUMNS if rec[n] == ""]
        if empty:
            out.append(f"{','.join(empty)} empty: every version-3 row has them")
    return out


def _v1_format_problems(path, text):
    problems = []
    header_seen = False
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if not header_seen or _looks_like_header(fields):
            if tuple(fields) != V1_CSV_COLUMNS:
                problems.append(f"{path}:{lineno}: header is not exactly {','.join(V1_CSV_COLUMNS)}")
                return problems
            header_seen = True
            continue
        for name, value in zip(V1_CSV_COLUMNS, fields):
            if value != value.strip():
                problems.append(f"{path}:{lineno}: {name}: {value!r} has spaces")
            if value == NA and name in ("Eff", "Peer_GBps") or value == "" and (
                    name in V1_OPTIONAL or name in MAY_BE_EMPTY):
                continue
            if name == "halo":
                problem = None if re.match(r"^[1-9][0-9]*$", value) else "a whole number"
            else:
                problem = _field_problem(name, value)
            if problem:
                problems.append(f"{path}:{lineno}: {name}: {value!r} is not {problem}")
    return problems
