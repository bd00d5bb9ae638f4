"""bench/lib.py: what bench/'s Python scripts share.

One copy each of the helpers the scripts used to repeat: an error exit with
the script's name, a file's SHA-1 (the caches' key), atomic JSON/bytes cache
entries, the cached `bench/isa --stats` rows, remark normalization, a plain
text table, and loading another bench script (they have no .py suffix) or a
tests/ helper as a module.

A script imports it from its own directory, so it works from any working
directory, from ctest, and when another script or test loads the script:

    sys.dont_write_bytecode = True   # no bench/__pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import lib  # noqa: E402  (bench/lib.py)

(bench/reach/estimate inserts its parent directory instead.)
"""

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
ISA = os.path.join(BENCH, "isa")


def die(prog, msg, code):
    """Writes "PROG: MSG" to standard error and exits with code (77: the
    test is skipped, a tool is missing).  Scripts bind their name once:
    `die = lib.dier("bench/corpus")`."""
    sys.stderr.write("%s: %s\n" % (prog, msg))
    sys.exit(code)


def dier(prog):
    """die(msg, code) for the script named prog ("bench/NAME")."""
    return lambda msg, code: die(prog, msg, code)


def sha(path):
    """The SHA-1 (hex) of the file at path, read in 1 MiB chunks: the key of
    every cache entry made from a module."""
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def put(path, data):
    """Writes data (bytes, else as JSON) to path atomically (a temporary file
    in the same directory, then a rename): threads share the caches."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data if isinstance(data, bytes) else json.dumps(data).encode())
    os.replace(tmp, path)


def get(path):
    """The JSON value stored at path by put(), or None when there is none."""
    if os.path.isfile(path):
        with open(path) as f:
            return json.load(f)
    return None


def last_stderr_line(stderr):
    """The last line of a tool's standard error, "?" when it wrote none."""
    return (stderr.strip().splitlines() or ["?"])[-1]


def isa_stats(spv, device, caches, name, die, nice=False, why=last_stderr_line):
    """`bench/isa --stats SPV DEVICE`, cached: the whitespace-split fields of
    each line of its output, or (a str) why it failed.

    The entry NAME is read from the first of the directories caches that has
    it; else bench/isa runs (under `nice -n 10` when nice) and its output, or
    "ERROR " and the first 200 characters of why(its standard error), is
    stored in caches[0] (written to NAME.tmp, then renamed).  Failures are
    cached too: the same module fails the same way.  Calls die(msg, 77) when
    bench/isa exits 77 (ocloc or iga64 missing).  The caller names the entry
    (its key says which columns the rows have) and reads the columns."""
    text = None
    for c in caches:
        p = os.path.join(c, name)
        if os.path.isfile(p):
            with open(p) as f:
                text = f.read()
            break
    if text is None:
        p = subprocess.run((["nice", "-n", "10"] if nice else []) + [ISA, "--stats", spv, device],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if p.returncode == 77:
            die("ocloc or iga64 missing", 77)
        text = p.stdout if p.returncode == 0 else "ERROR " + why(p.stderr)[:200]
        key = os.path.join(caches[0], name)
        with open(key + ".tmp", "w") as f:
            f.write(text)
        os.replace(key + ".tmp", key)
    if text.startswith("ERROR "):
        return text[6:].strip()
    return [line.split() for line in text.splitlines()]


def normalize(msg):
    """A remark's message with its particulars replaced by placeholders
    (quoted text, SPIR-V names, loop names, what is indexed, numbers), so
    that the same reason reads the same in every kernel."""
    msg = re.sub(r"'[^']*'", "'…'", msg)
    msg = re.sub(r"%[\w.$-]+", "%…", msg)
    msg = re.sub(r"^loop \S+:", "loop …:", msg)
    msg = re.sub(r"(index into|access to) \S+", r"\1 …", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg


def fmt_table(head, rows):
    """A plain text table of head and rows (lists of cells): the first
    column left-aligned, the others right-aligned, two spaces apart."""
    w = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    return '\n'.join('  '.join(str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i]) for i, c in enumerate(r))
                     for r in [head] + rows)


def load(name, path):
    """The Python file at path (any name, a .py suffix or none) as module
    name, executed once: later calls with the same name return the module
    from sys.modules.  Raises what loading raises (OSError, SyntaxError,
    ...)."""
    mod = sys.modules.get(name)
    if mod is not None and getattr(mod, "__file__", None) == path:
        return mod
    loader = importlib.machinery.SourceFileLoader(name, path)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    sys.modules[name] = mod
    try:
        loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def load_bench(script):
    """The bench script bench/SCRIPT (e.g. "isa", "isa-sweep") as a module
    named bench_SCRIPT (dashes as underscores); its main() does not run."""
    return load("bench_" + script.replace("-", "_"), os.path.join(BENCH, script))


def load_test(path):
    """The helper tests/PATH (e.g. "layer/dpnp_suite.py") as a module named
    for its file; its directory is on sys.path while it loads, for its own
    imports of its neighbours."""
    full = os.path.join(ROOT, "tests", path)
    sys.path.insert(0, os.path.dirname(full))
    try:
        return load(os.path.splitext(os.path.basename(full))[0], full)
    finally:
        sys.path.pop(0)
