#!/usr/bin/env python3
"""Mutation sweep of xeopt's own code (issue 33).

Plants one small semantic bug at a time in src/analysis, src/passes,
src/exec, src/manifest and src/ir of a *copy* of the source tree, rebuilds
it incrementally, and runs the tests against it; a mutant is

  killed      a test failed (or timed out) on it,
  survived    every test passed,
  equivalent  its object code is identical to the original's (checked
              automatically), or it is listed with a reason in
              bench/mutate/equivalent.txt,
  no-build    it did not compile.

Operators: relational flips (< <=, > >=, == !=), +1 / -1 on integer
constants, + / - swaps, && / || swaps, a dropped right operand of && or ||
(`a && b` becomes `a || 0 && b`, i.e. `a`), a dropped `!`, swapped operands
of a binary `-` or of a comparison between two plain names.

The tests per mutant, stopping at the first failure: the ctest entries of
FAST_TESTS (quick unit tests and the one-file pass tests), then
`xeopt -O2 --verify` on every testdata/spv module (a module whose baseline
run fails is left out).

  sweep.py --tree /work/mut-tree -n 300 --seed 1 --results r.jsonl
  sweep.py --report r.jsonl [--markdown]     table per file
  sweep.py --ci --tree DIR --build DIR       the fixed CI sample (ci-sample.txt)

--tree must be a copy (a git worktree or an rsync'd folder); the sweep
writes into its source files and restores each after its mutant.  The
build folder is --tree/build-mutate unless --build says otherwise; it is
configured with Ninja when missing.
"""
import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIRS = ["src/analysis", "src/passes", "src/exec", "src/manifest", "src/ir"]

# Quick ctest entries (seconds each, not the corpus, memcheck or IGC-heavy
# ISA suites), in the order they run: the cheapest first.
FAST_TESTS = [
    "test_exec_intops", "test_exec", "test_exec_math", "test_exec_classify", "test_exec_image",
    "test_ir", "test_affine", "test_ranges", "test_lanes", "test_manifest", "test_badfiles",
    "test_badinput", "test_interface_vars", "test_versioning", "test_verify_launches",
    "test_spec_constants", "test_padding_oracle", "test_roundtrip",
    "test_padding", "test_generic_address", "test_cost_weights", "test_cost",
]
PASS_TESTS = "pass/"   # every one-file pass test (label pass)


# ---- mutation sites ----

def mask_line(line, state):
    """The line with comments, strings and char literals blanked (so that
    operators inside them are not mutated); state carries an open /* */."""
    out = []
    i = 0
    n = len(line)
    in_comment = state["comment"]
    while i < n:
        if in_comment:
            j = line.find("*/", i)
            if j < 0:
                out.append(" " * (n - i))
                i = n
            else:
                out.append(" " * (j + 2 - i))
                i = j + 2
                in_comment = False
            continue
        c = line[i]
        if line.startswith("/*", i):
            in_comment = True
            out.append("  ")
            i += 2
        elif line.startswith("//", i):
            out.append(" " * (n - i))
            i = n
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    state["comment"] = in_comment
    return "".join(out)


NAME = r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|->)[A-Za-z_][A-Za-z0-9_]*)*"
OPERATORS = [
    # (operator name, regex on the masked line, replacement function)
    ("rel", re.compile(r"(?<![<>=!])(<=|>=|==|!=)(?![=])"),
     lambda m: {"<=": "<", ">=": ">", "==": "!=", "!=": "=="}[m.group(1)]),
    ("rel", re.compile(r"(?<![<>\-=])([<>])(?![<>=])"),
     lambda m: m.group(1) + "="),
    ("const", re.compile(r"(?<![\w.])(\d+)(?![\w.])"), lambda m: str(int(m.group(1)) + 1)),
    ("const", re.compile(r"(?<![\w.])([1-9]\d*)(?![\w.])"), lambda m: str(int(m.group(1)) - 1)),
    ("sign", re.compile(r"(?<=[\w)\]] )\+(?= [\w(])"), lambda m: "-"),
    ("sign", re.compile(r"(?<=[\w)\]] )-(?= [\w(])"), lambda m: "+"),
    ("logic", re.compile(r"(&&|\|\|)"), lambda m: "||" if m.group(1) == "&&" else "&&"),
    ("drop", re.compile(r"(&&|\|\|)"), lambda m: "|| 0 &&"),
    ("drop", re.compile(r"(?<![!=])!(?!=)"), lambda m: ""),
    ("swap", re.compile(r"(?<![\w.>])(" + NAME + r") (-|<|<=|>|>=) (" + NAME + r")(?![\w(\[.])"),
     lambda m: m.group(3) + " " + m.group(2) + " " + m.group(1)),
]

SKIP_LINE = re.compile(r"^\s*(#|static const char \*|\w[\w ]*\[\] = )")


def sites_of(tree, rel):
    """Every mutation site of one file: dicts with file, line (1-based),
    col, op, old line and new line."""
    with open(os.path.join(tree, rel), encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    state = {"comment": False}
    out = []
    for ln, line in enumerate(lines, 1):
        masked = mask_line(line, state)
        if SKIP_LINE.match(masked) or not masked.strip():
            continue
        # A line of only a case label or an array/enum/struct initializer
        # is data, mutating it mostly tests tables, not logic; keep them.
        for op, rx, fn in OPERATORS:
            for m in rx.finditer(masked):
                s, e = m.span()
                new = fn(m)
                if op == "const" and re.search(r"\[\s*$", masked[:s]) and "=" not in masked[:s]:
                    continue   # an array dimension in a declaration
                mutated = line[:s] + new + line[e:]
                if mutated == line:
                    continue
                out.append({"file": rel, "line": ln, "col": s + 1, "op": op,
                            "old": line, "new": mutated})
    return out


def all_sites(tree):
    sites = []
    for d in DIRS:
        for path in sorted(glob.glob(os.path.join(tree, d, "**", "*.c"), recursive=True)):
            sites.extend(sites_of(tree, os.path.relpath(path, tree)))
    return sites


def mutant_id(s):
    """A stable name: file, op, a hash of the old and new line (not the
    line number, which moves as the file is edited) and the line number
    as a hint."""
    h = hashlib.sha1((s["old"] + "\0" + s["new"]).encode()).hexdigest()[:10]
    return "%s:%d:%s:%s" % (s["file"], s["line"], s["op"], h)


# ---- building and running ----

def run(cmd, cwd=None, timeout=None, env=None, limit=False):
    try:
        p = subprocess.run(cmd, cwd=cwd, timeout=timeout, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace",
                           preexec_fn=limit_memory if limit else None)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode(errors="replace")
        return "timeout", out


def configure(tree, build, build_type):
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        rc, out = run(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=" + build_type] + gen)
        if rc != 0:
            sys.exit("sweep: cmake failed:\n" + out[-3000:])


def test_targets(build, tests):
    return ["xeopt"] + [t for t in tests if t.startswith("test_") or t == "level_zero_host"]


def build_targets(build, targets, timeout=900, jobs=2):
    if os.path.exists(os.path.join(build, "build.ninja")):
        return run(["ninja", "-C", build, "-j", str(jobs)] + targets, timeout=timeout)
    return run(["cmake", "--build", build, "-j", str(jobs), "--target"] + targets, timeout=timeout)


def object_of(build, rel):
    hits = glob.glob(os.path.join(build, "CMakeFiles", "*", rel + ".o"))
    return hits[0] if hits else None


def code_hash(obj):
    """A hash of the object's code and data without debug information
    (the columns and lines of a mutated line differ even when the code
    does not)."""
    if not obj or not os.path.exists(obj):
        return None
    tmp = obj + ".nodebug"
    rc, _ = run(["objcopy", "--strip-debug", "--remove-section=.comment", obj, tmp])
    if rc != 0:
        return None
    with open(tmp, "rb") as f:
        h = hashlib.sha1(f.read()).hexdigest()
    os.unlink(tmp)
    return h


def testdata_modules(tree):
    return sorted(glob.glob(os.path.join(tree, "testdata", "spv", "*.spv")))


def verify_one(xeopt, spv, timeout):
    rc, out = run([xeopt, "-O2", "--verify", spv, "-o", "/dev/null"], timeout=timeout, limit=True)
    return rc


def path_without_igc(build):
    """A PATH without IGC (ocloc, iga64): a folder of links to everything
    else on PATH.  The tests then skip their IGC steps (XEOPT_REQUIRE_OCLOC
    unset), which take most of the time of the pass and padding tests; IGC
    judges xeopt's output, rarely xeopt's semantics."""
    farm = os.path.join(build, "mutate-bin")
    if not os.path.isdir(farm):
        os.makedirs(farm + ".tmp", exist_ok=True)
        for d in os.environ.get("PATH", "/usr/bin:/bin").split(":"):
            if not os.path.isdir(d):
                continue
            for name in os.listdir(d):
                if name.startswith("ocloc") or name.startswith("iga64"):
                    continue
                link = os.path.join(farm + ".tmp", name)
                if not os.path.lexists(link):
                    os.symlink(os.path.join(d, name), link)
        os.rename(farm + ".tmp", farm)
    return farm


def test_jobs(tree, build, tests, with_pass, verify, timeout, verify_timeout, igc=False):
    """The checks of one mutant in the order they run (cheap first): the
    unit tests of `tests` (their ctest command: the executable with
    XEOPT_CHECK_PASSES=1), the one-file pass tests (tests/passes/run.py, as
    ctest runs them), `xeopt -O2 --verify` on the modules in verify, and
    the slow unit tests last.  Each job: (name, argv, cwd, env, timeout)."""
    env = dict(os.environ, XEOPT_CHECK_PASSES="1", XEOPT_REQUIRE_OCLOC="0")
    env.pop("XEOPT_VALGRIND", None)
    if not igc:
        env["PATH"] = path_without_igc(build)
    tdir = os.path.join(build, "tests")
    xeopt = os.path.join(build, "xeopt")
    slow = {"test_roundtrip", "test_verify_launches", "test_cost"}
    def unit(t):
        exe = os.path.join(tdir, t) if t.startswith("test_") else os.path.join(build, t)
        return (t, [exe], tdir, env, timeout)
    jobs = [unit(t) for t in tests if t not in slow]
    if with_pass:
        for src in sorted(glob.glob(os.path.join(tree, "tests", "passes", "*.cl")) +
                          glob.glob(os.path.join(tree, "tests", "passes", "*.spvasm"))):
            name = os.path.splitext(os.path.basename(src))[0]
            jobs.append(("pass/" + name, [sys.executable, os.path.join(tree, "tests", "passes", "run.py"),
                         "--xeopt", xeopt, "--work", os.path.join(tdir, "passes", name), src],
                         tdir, env, timeout))
    for spv in verify:
        jobs.append(("verify " + os.path.basename(spv), [xeopt, "-O2", "--verify", spv, "-o", "/dev/null"],
                     tdir, env, verify_timeout))
    jobs += [unit(t) for t in tests if t in slow]
    return jobs


MEMORY_LIMIT = 3 << 30   # address space per test process: a mutant may allocate without end


def limit_memory():
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_jobs(jobs, parallel=2, times=None, limits=None):
    """Runs the jobs, `parallel` at a time, in order; stops at the first
    failure.  Returns None when all passed, else (name, status).  times:
    a dict that receives each job's seconds; limits: per-job timeouts
    (name -> seconds) that replace the job's own."""
    import signal
    pending = list(jobs)
    running = []   # (job, Popen, start)
    failed = None
    try:
        while (pending or running) and not failed:
            while pending and len(running) < parallel:
                job = pending.pop(0)
                name, argv, cwd, env, tmo = job
                p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True,
                                     preexec_fn=limit_memory)
                running.append((job, p, time.time()))
            time.sleep(0.02)
            for item in list(running):
                job, p, t0 = item
                rc = p.poll()
                tmo = limits.get(job[0], job[4]) if limits else job[4]
                if rc is None and time.time() - t0 > tmo:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
                    rc = "timeout"
                if rc is not None:
                    if times is not None:
                        times[job[0]] = time.time() - t0
                    running.remove(item)
                    if rc != 0:
                        failed = (job[0], rc)
                        break
    finally:
        for job, p, t0 in running:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
    return failed


class Sweep:
    def __init__(self, args):
        self.tree = os.path.abspath(args.tree)
        if os.path.realpath(self.tree) == os.path.realpath(ROOT) and not args.allow_in_place:
            sys.exit("sweep: --tree must be a copy of the source tree, not the tree itself")
        self.build = os.path.abspath(args.build or os.path.join(self.tree, "build-mutate"))
        self.tests = args.tests.split(",") if args.tests else FAST_TESTS
        self.args = args
        self.baseline = {}
        self.verify_ok = []

    def prepare(self):
        configure(self.tree, self.build, self.args.build_type)
        rc, out = build_targets(self.build, test_targets(self.build, self.tests), timeout=3600)
        if rc != 0:
            sys.exit("sweep: the unmutated tree does not build:\n" + out[-3000:])
        xeopt = os.path.join(self.build, "xeopt")
        if not self.args.no_verify:
            timed = []
            for spv in testdata_modules(self.tree):
                t0 = time.time()
                if verify_one(xeopt, spv, self.args.verify_timeout) == 0:
                    timed.append((time.time() - t0, spv))
            self.verify_ok = [spv for _, spv in sorted(timed)]   # quickest first
        self.jobs = test_jobs(self.tree, self.build, [] if self.args.no_ctest else self.tests,
                              not self.args.no_ctest and not self.args.no_pass_tests, self.verify_ok,
                              self.args.test_timeout, self.args.verify_timeout, self.args.igc)
        times = {}
        failed = run_jobs(self.jobs, times=times)
        if failed:
            sys.exit("sweep: the unmutated tree fails %s (%s)" % failed)
        # A mutant that makes a check take 4 times as long (and 20 s more)
        # as it took unmutated is killed (a timeout).
        self.limits = {name: 4 * t + 20 for name, t in times.items()}

    def base_hash(self, rel):
        if rel not in self.baseline:
            self.baseline[rel] = code_hash(object_of(self.build, rel))
        return self.baseline[rel]

    def one(self, s):
        path = os.path.join(self.tree, s["file"])
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            orig = f.read()
        lines = orig.split("\n")
        # Find the line by content near its number (the file may have moved).
        idx = s["line"] - 1
        if not (0 <= idx < len(lines) and lines[idx] == s["old"]):
            cands = [i for i, l in enumerate(lines) if l == s["old"]]
            if not cands:
                return {"status": "stale", "stage": "the line is no longer in the file"}
            idx = min(cands, key=lambda i: abs(i - idx))
        base = self.base_hash(s["file"])
        lines[idx] = s["new"]
        t0 = time.time()
        try:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("\n".join(lines))
            rc, out = build_targets(self.build, test_targets(self.build, self.tests),
                                    timeout=self.args.build_timeout)
            if rc != 0:
                return {"status": "no-build", "stage": "build", "detail": tail(out), "secs": time.time() - t0}
            h = code_hash(object_of(self.build, s["file"]))
            if h is not None and h == base:
                return {"status": "equivalent", "stage": "identical object code", "secs": time.time() - t0}
            failed = run_jobs(self.jobs, limits=self.limits)
            if failed:
                return {"status": "killed", "stage": "%s (%s)" % failed, "secs": time.time() - t0}
            return {"status": "survived", "stage": "", "secs": time.time() - t0}
        finally:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(orig)


def tail(text, n=600):
    return text[-n:] if text else ""


def load_results(path):
    res = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    res[r["id"]] = r
    return res


def load_equivalent():
    """bench/mutate/equivalent.txt: `ID  reason` per line (# comments)."""
    eq = {}
    path = os.path.join(HERE, "equivalent.txt")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    parts = line.split(None, 1)
                    eq[parts[0]] = parts[1] if len(parts) > 1 else ""
    return eq


def sample(sites, n, seed, shuffled=False):
    rng = random.Random(seed)
    picked = rng.sample(sites, min(n, len(sites)))
    if shuffled:
        # In the sample's own random order: a sweep stopped early is still
        # a random sample (two objects recompile per mutant).
        return picked
    # Built in file order: one object recompiles per mutant.
    return sorted(picked, key=lambda s: (s["file"], s["line"], s["col"], s["op"]))


def report(results, markdown=False, out=sys.stdout):
    eq = load_equivalent()
    per = {}
    for r in results.values():
        st = r["status"]
        if st == "survived" and r["id"] in eq:
            st = "equivalent"
        f = per.setdefault(r["file"], {"killed": 0, "survived": 0, "equivalent": 0, "no-build": 0, "stale": 0})
        f[st] = f.get(st, 0) + 1
    cols = ["killed", "survived", "equivalent", "no-build"]
    tot = {c: sum(f.get(c, 0) for f in per.values()) for c in cols + ["stale"]}
    def score(f):
        k, s = f["killed"], f["survived"]
        return "%.0f%%" % (100.0 * k / (k + s)) if k + s else "-"
    if markdown:
        print("| file | mutants | killed | survived | equivalent | did not build | score |", file=out)
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |", file=out)
        for name in sorted(per):
            f = per[name]
            print("| %s | %d | %d | %d | %d | %d | %s |" % (name, sum(f[c] for c in cols), f["killed"],
                  f["survived"], f["equivalent"], f["no-build"], score(f)), file=out)
        print("| **total** | %d | %d | %d | %d | %d | %s |" % (sum(tot[c] for c in cols), tot["killed"],
              tot["survived"], tot["equivalent"], tot["no-build"], score(tot)), file=out)
    else:
        print("%-44s %7s %7s %8s %10s %8s %6s" % ("file", "mutants", "killed", "survived", "equivalent",
                                                 "no-build", "score"), file=out)
        for name in sorted(per):
            f = per[name]
            print("%-44s %7d %7d %8d %10d %8d %6s" % (name, sum(f[c] for c in cols), f["killed"], f["survived"],
                  f["equivalent"], f["no-build"], score(f)), file=out)
        print("%-44s %7d %7d %8d %10d %8d %6s" % ("total", sum(tot[c] for c in cols), tot["killed"],
              tot["survived"], tot["equivalent"], tot["no-build"], score(tot)), file=out)
    surv = [r for r in results.values() if r["status"] == "survived" and r["id"] not in eq]
    if surv:
        print("\nSurvivors (not explained in equivalent.txt):", file=out)
        for r in sorted(surv, key=lambda r: r["id"]):
            print("  %s\n    - %s\n    + %s" % (r["id"], r["old"].strip(), r["new"].strip()), file=out)
    explained = [r for r in results.values() if r["status"] == "survived" and r["id"] in eq]
    if explained:
        print("\nEquivalent by hand (equivalent.txt):", file=out)
        for r in sorted(explained, key=lambda r: r["id"]):
            print("  %s: %s" % (r["id"], eq[r["id"]]), file=out)
    return tot


# ---- the CI sample ----

def ci(args):
    """Mutants of ci-sample.txt (`ID<TAB>old line<TAB>new line<TAB>test`), each
    run against the one ctest entry (regex) that must kill it; fails when one
    survives.  The source is copied into --tree (without the top-level build*
    folders and .git) and built there; mutants are run, in the file's order,
    until --time-box seconds after the start (the build included)."""
    src = os.path.abspath(args.source or ROOT)
    tree = os.path.abspath(args.tree)
    if os.path.realpath(tree) == os.path.realpath(src):
        sys.exit("mutate_sample: --tree must not be the source tree")
    t_start = time.time()
    def top_level(d, names):
        return [n for n in names if d == src and (n.startswith("build") or n == ".git")]
    shutil.copytree(src, tree, ignore=top_level, dirs_exist_ok=True, symlinks=True)
    build = os.path.abspath(args.build or os.path.join(tree, "build-mutate"))
    configure(tree, build, args.build_type)
    entries = []
    with open(args.sample or os.path.join(HERE, "ci-sample.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                mid, old, new, test = line.rstrip("\n").split("\t")
                entries.append((mid, old, new, test))
    deadline = t_start + args.time_box
    tests = sorted({t for _, _, _, t in entries})
    names = {re.sub(r"^\^|\$$", "", t) for t in tests}
    targets = ["xeopt"] + sorted(n for n in names if re.fullmatch(r"test_\w+", n))
    t0 = time.time()
    rc, out = build_targets(build, targets, timeout=args.time_box)
    if rc != 0:
        sys.exit("mutate_sample: the unmutated tree does not build:\n" + tail(out, 3000))
    print("mutate_sample: built %s in %.0f s" % (" ".join(targets), time.time() - t0))
    ctest_env = dict(os.environ, XEOPT_REQUIRE_OCLOC="0", PATH=path_without_igc(build))
    def ctest_one(test):
        """0 passed, 1 failed; None when the entry did not run (no such
        test, or its executable missing): an error of the sample, not a kill."""
        rc, out = run(["ctest", "-R", test, "--timeout", "120", "--output-on-failure"], cwd=build,
                      timeout=600, env=ctest_env, limit=True)
        if "No tests were found" in out or "Not Run" in out or "Could not find executable" in out:
            return None, out
        return (0 if rc == 0 else 1), out
    # Every test of the sample must pass unmutated, or a kill means nothing.
    for test in tests:
        rc, out = ctest_one(test)
        if rc != 0:
            print("mutate_sample: FAIL: %s %s on the unmutated tree:\n%s" %
                  (test, "did not run" if rc is None else "fails", tail(out, 3000)))
            return 1
    print("mutate_sample: the sample's %d tests pass unmutated (%.0f s)" % (len(tests), time.time() - t0))
    survived, stale, killed = [], [], 0
    for k, (mid, old, new, test) in enumerate(entries):
        if k >= args.min_run and time.time() > deadline:
            print("mutate_sample: time box reached; %d mutants not run" % (len(entries) - k))
            break
        rel = mid.split(":")[0]
        path = os.path.join(tree, rel)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            orig = f.read()
        lines = orig.split("\n")
        hits = [i for i, l in enumerate(lines) if l == old]
        if len(hits) != 1:
            stale.append(mid)
            print("mutate_sample: %s: stale (the line occurs %d times in %s)" % (mid, len(hits), rel))
            continue
        lines[hits[0]] = new
        try:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("\n".join(lines))
            t1 = time.time()
            rc, out = build_targets(build, targets, timeout=600)
            if rc != 0:
                survived.append(mid + " (did not build)")
                print("mutate_sample: %s did not build:\n%s" % (mid, tail(out)))
                continue
            rc, out = ctest_one(test)
            if rc is None:
                survived.append(mid + " (its test did not run)")
                print("mutate_sample: %s: %s did not run:\n%s" % (mid, test, tail(out)))
                continue
            status = "killed" if rc != 0 else "SURVIVED"
            print("mutate_sample: %-60s %-8s by %s (%.0f s)" % (mid, status, test, time.time() - t1))
            if rc == 0:
                survived.append(mid)
            else:
                killed += 1
        finally:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(orig)
    # Leave the tree as the source had it (the next build must not see a mutant).
    build_targets(build, targets, timeout=600)
    print("mutate_sample: %d killed, %d survived, %d stale" % (killed, len(survived), len(stale)))
    if survived:
        print("mutate_sample: FAIL: expected killed: " + ", ".join(survived))
        return 1
    if len(stale) * 2 > len(entries):
        print("mutate_sample: FAIL: most of ci-sample.txt is stale; refresh it")
        return 1
    return 0


def main():
    import signal
    # SIGTERM (a timeout, kill PID) restores the mutated file on the way out.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", help="the copy of the source tree to mutate")
    ap.add_argument("--build", help="its build folder (default TREE/build-mutate)")
    ap.add_argument("--build-type", default="RelWithDebInfo")
    ap.add_argument("-n", type=int, default=300, help="mutants in the sample")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--results", help="JSON lines, appended; mutants already there are not rerun")
    ap.add_argument("--report", metavar="RESULTS", help="print the table of a results file")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the sampled mutants and exit")
    ap.add_argument("--count", action="store_true", help="print the number of sites per operator")
    ap.add_argument("--shuffled", action="store_true",
                    help="run the sample in random order (a sweep stopped early is still random)")
    ap.add_argument("--from-results", metavar="RESULTS",
                    help="run the mutants of an earlier results file instead of a new sample (with --only)")
    ap.add_argument("--rerun", action="store_true",
                    help="run mutants already in --results again (with --only: after adding tests); the newer line counts")
    ap.add_argument("--sample-rev", metavar="REV",
                    help="draw the seeded sample from the sites of commit REV (git archive of its src/), "
                         "then find each mutant's line in --tree by content: the sweep of record keeps "
                         "its sample while the tests it runs are the newest")
    ap.add_argument("--only", help="regex on mutant ids: run only these of the sample")
    ap.add_argument("--tests", help="comma-separated ctest entries instead of FAST_TESTS")
    ap.add_argument("--no-pass-tests", action="store_true")
    ap.add_argument("--no-ctest", action="store_true")
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--igc", action="store_true", help="keep ocloc on PATH (the tests' IGC steps run)")
    ap.add_argument("--test-timeout", type=int, default=120)
    ap.add_argument("--verify-timeout", type=int, default=60)
    ap.add_argument("--build-timeout", type=int, default=600)
    ap.add_argument("--time-box", type=float, default=170, help="--ci: seconds for the whole sample")
    ap.add_argument("--ci", action="store_true")
    ap.add_argument("--sample", help="--ci: the sample file (default bench/mutate/ci-sample.txt)")
    ap.add_argument("--min-run", type=int, default=4, help="--ci: the first N mutants run whatever the time")
    ap.add_argument("--source", help="--ci: the source tree to copy (default this checkout)")
    ap.add_argument("--allow-in-place", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.report:
        tot = report(load_results(args.report), args.markdown)
        return 0
    if args.ci:
        if not args.tree:
            sys.exit("--ci needs --tree")
        return ci(args)
    if not args.tree:
        sys.exit("--tree is required")
    sites = all_sites(os.path.abspath(args.tree))
    if args.sample_rev:
        import tempfile
        with tempfile.TemporaryDirectory() as old:
            arch = subprocess.run(["git", "-C", ROOT, "archive", args.sample_rev, "src"],
                                  stdout=subprocess.PIPE, check=True).stdout
            subprocess.run(["tar", "-x", "-C", old], input=arch, check=True)
            sites = all_sites(old)
    if args.count:
        ops = {}
        for s in sites:
            ops[s["op"]] = ops.get(s["op"], 0) + 1
        print(len(sites), "sites:", ", ".join("%s %d" % kv for kv in sorted(ops.items())))
        return 0
    picked = sample(sites, args.n, args.seed, args.shuffled)
    for s in picked:
        s["id"] = mutant_id(s)
    if args.from_results:
        # The mutants of an earlier sweep, as they were (the seeded sample
        # depends on the sites, which move when the source changes).
        picked = [{k: r[k] for k in ("id", "file", "line", "op", "old", "new")}
                  for r in load_results(args.from_results).values()]
    if args.only:
        picked = [s for s in picked if re.search(args.only, s["id"])]
    if args.list:
        for s in picked:
            print("%s\n  - %s\n  + %s" % (s["id"], s["old"].strip(), s["new"].strip()))
        return 0
    done = load_results(args.results)
    todo = [s for s in picked if args.rerun or s["id"] not in done]
    sw = Sweep(args)
    print("sweep: %d sites, %d sampled (seed %d), %d to run; preparing %s" %
          (len(sites), len(picked), args.seed, len(todo), sw.build), flush=True)
    sw.prepare()
    print("sweep: baseline ok; %d testdata modules pass --verify" % len(sw.verify_ok), flush=True)
    for k, s in enumerate(todo, 1):
        r = sw.one(s)
        r.update({"id": s["id"], "file": s["file"], "line": s["line"], "op": s["op"],
                  "old": s["old"], "new": s["new"]})
        print("[%d/%d] %-60s %-10s %s (%.0f s)" % (k, len(todo), s["id"], r["status"], r.get("stage", ""),
              r.get("secs", 0)), flush=True)
        if args.results:
            with open(args.results, "a") as f:
                f.write(json.dumps(r) + "\n")
        done[s["id"]] = r
    # Rebuild the restored tree so that its build matches the source again.
    build_targets(sw.build, test_targets(sw.build, sw.tests))
    report({k: v for k, v in done.items() if k in {s["id"] for s in picked}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
