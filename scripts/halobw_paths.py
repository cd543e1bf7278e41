"""Where halo-bandwidth's files are, seen from the tools: a source checkout
(these scripts in scripts/) or a tree that cmake --install made (these scripts
in libexec/halo-bandwidth/ beside halobw_install.py, which names the other
folders relative to theirs).

ROOT: the folder that platform paths in result files are relative to (the
checkout, or share/halo-bandwidth); PLATFORMS: the platform files; SCHEMA:
docs/output.schema.json; DOCS: the docs; EXE_DIR: where halo-bandwidth itself
is (None in a checkout: its build folder is the user's choice).
"""

import os

TOOLS = os.path.dirname(os.path.realpath(__file__))

try:
    import halobw_install as _installed
except ImportError:
    _installed = None


def _beside(rel):
    return os.path.normpath(os.path.join(TOOLS, rel))


if _installed is not None:
    INSTALLED = True
    ROOT = _beside(_installed.DATADIR)
    SCHEMA = os.path.join(ROOT, "output.schema.json")
    DOCS = _beside(_installed.DOCDIR)
    EXE_DIR = _beside(_installed.BINDIR)
else:
    INSTALLED = False
    ROOT = os.path.dirname(TOOLS)
    SCHEMA = os.path.join(ROOT, "docs", "output.schema.json")
    DOCS = os.path.join(ROOT, "docs")
    EXE_DIR = None
PLATFORMS = os.path.join(ROOT, "platforms")
