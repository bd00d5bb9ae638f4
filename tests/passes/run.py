#!/usr/bin/env python3
"""Runs one one-file pass test (tests/passes/README.md describes the format).

A test file holds its input (OpenCL C in NAME.cl, or SPIR-V assembly in
NAME.spvasm), RUN lines with xeopt options, and FileCheck lines for what each
run must print.  For every RUN line this script:

  1. builds the input once: clang-15 + llvm-spirv-15 for .cl (the commands of
     testdata/regen.sh), spirv-as --target-env spv1.4 for .spvasm;
  2. runs `xeopt --validate --verify --remarks OPTIONS in.spv -o out.spv
     --manifest=out.json`, which must exit 0 (--verify runs the input and the
     output in the reference interpreter and compares every buffer);
  3. runs spirv-val on the output;
  4. FileChecks the output's disassembly (spirv-dis), the remark lines and the
     manifest (empty when none was written) against the file, each with its
     own prefix: CHECK, REMARK and MANIFEST for `RUN:`, or TAG, TAG-REMARK and
     TAG-MANIFEST for `RUN-TAG:`; a stream with no lines of its prefix is not
     checked, and a run that checks no stream is an error in the test;
  5. compiles the output with IGC (`ocloc compile -spirv_input`) for dg2 (the
     OCLOC line names other devices).  Without ocloc this step is skipped,
     unless XEOPT_REQUIRE_OCLOC=1, which makes it a failure.

Planted tests (an `EXPECT-FAIL: STAGE [REGEX]` line) must fail, at that
stage (build, xeopt, spirv-val, output, remarks, manifest, ocloc, or format
for a malformed test file) and with a failure message REGEX matches (Python
re.search): they show that a wrong line makes a test fail, and for the
reason planted.

Every file a step writes stays in the work directory (--work, default
./NAME beside the current directory) for inspection.  Exit status: 0 pass,
1 fail (or a planted test that did not fail as expected), 2 usage error,
77 skipped (a test planted to fail in IGC where ocloc is missing).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

STAGES = ("format", "build", "xeopt", "spirv-val", "output", "remarks", "manifest", "ocloc")

# Directives the runner reads; FileCheck prefixes are found by FileCheck itself.
# A tag is upper-case, like a FileCheck prefix, so `RUN-PAD:` is a run and
# `PAD-REMARK:` one of its checks.
RUN_RE = re.compile(r"\bRUN(?:-([A-Z][A-Z0-9_]*))?:(.*)$")
KEY_RE = re.compile(r"\b(CLANG|LLVM-SPIRV|OCLOC|TARGET-ENV|EXPECT-FAIL):(.*)$")
# A comment line that starts like a directive: `// WORD:` or `; WORD:`.
DIRECTIVE_RE = re.compile(r"^\s*(?://|;)\s*([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*):")


class TestFailure(Exception):
    """A step failed; stage is one of STAGES."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


def tool(env, default):
    return os.environ.get(env, default)


def sh(cmd, cwd=None, stdin=None):
    """Runs cmd (a list); returns (exit status, stdout, stderr) as text."""
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def quote(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def parse(path):
    """Reads the directives of a test file.

    Returns a dict: runs (list of (tag or None, option string, line)),
    clang and llvm_spirv (extra arguments), ocloc (device list), expect_fail
    ((stage, regex) or None).  A malformed file raises TestFailure('format').
    """
    t = {"runs": [], "clang": [], "llvm_spirv": [], "ocloc": ["dg2"], "expect_fail": None,
         "target_env": "spv1.4"}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        m = RUN_RE.search(line)
        if m:
            t["runs"].append((m.group(1), m.group(2).strip(), n))
            continue
        m = KEY_RE.search(line)
        if not m:
            continue
        key, val = m.group(1), m.group(2).strip()
        if key == "CLANG":
            t["clang"] += shlex.split(val)
        elif key == "LLVM-SPIRV":
            t["llvm_spirv"] += shlex.split(val)
        elif key == "OCLOC":
            t["ocloc"] = [d for d in val.replace(",", " ").split() if d]
        elif key == "TARGET-ENV":
            if not re.fullmatch(r"spv1\.[0-6]", val):
                raise TestFailure("format", f"{path}:{n}: TARGET-ENV is spv1.0 .. spv1.6")
            t["target_env"] = val
        elif key == "EXPECT-FAIL":
            stage, _, want = val.partition(" ")
            if stage not in STAGES:
                raise TestFailure("format", f"{path}:{n}: EXPECT-FAIL names no stage ({', '.join(STAGES)})")
            t["expect_fail"] = (stage, want.strip())
    if not t["runs"]:
        raise TestFailure("format", f"{path}: no RUN line")
    tags = [r[0] for r in t["runs"]]
    if len(set(tags)) != len(tags):
        raise TestFailure("format", f"{path}: two RUN lines with the same tag (give each RUN-TAG: its own)")
    # FileCheck ignores a line whose prefix it was not given, so a misspelled
    # directive (CHEK:, REMARKS:, a tag with no RUN line) would check nothing
    # and the test would pass.  Every comment that starts with an upper-case
    # word and a colon must be a directive this file uses.
    known = {"RUN", "CLANG", "LLVM-SPIRV", "OCLOC", "TARGET-ENV", "EXPECT-FAIL"}
    for tag in tags:
        known |= {f"RUN-{tag}" if tag else "RUN"}
        for p in ((tag, f"{tag}-REMARK", f"{tag}-MANIFEST") if tag else ("CHECK", "REMARK", "MANIFEST")):
            known |= {p, *(f"{p}-{s}" for s in ("NEXT", "SAME", "NOT", "DAG", "LABEL", "EMPTY"))}
    for n, line in enumerate(lines, 1):
        m = DIRECTIVE_RE.match(line)
        if m and m.group(1) not in known and not re.fullmatch(r".*-COUNT-[0-9]+", m.group(1)):
            raise TestFailure("format", f"{path}:{n}: unknown directive {m.group(1)}: (no RUN line uses this "
                              "prefix, so it would check nothing)")
    return t


def expected_failure(path):
    """The (stage, regex) of a planted test's EXPECT-FAIL line, or None; read
    apart from parse() so that a test planted to fail there is recognised."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = KEY_RE.search(line)
            if m and m.group(1) == "EXPECT-FAIL":
                stage, _, want = m.group(2).strip().partition(" ")
                return (stage, want.strip())
    return None


def has_prefix(text, prefix):
    """Whether the test text has a FileCheck directive with this prefix
    (PREFIX:, PREFIX-NOT:, PREFIX-NEXT:, ..., PREFIX-COUNT-n:)."""
    return re.search(r"(?<![A-Za-z0-9_-])" + re.escape(prefix) +
                     r"(-(NEXT|SAME|NOT|DAG|LABEL|EMPTY|COUNT-[0-9]+))?:", text) is not None


def build_input(path, t, work):
    """Compiles or assembles the test's input into work/in.spv."""
    out = os.path.join(work, "in.spv")
    if path.endswith(".spvasm"):
        cmd = [tool("SPIRV_AS", "spirv-as"), "--target-env", t["target_env"], path, "-o", out]
        rc, so, se = sh(cmd)
        if rc:
            raise TestFailure("build", f"{quote(cmd)} failed:\n{so}{se}")
        return out
    if not path.endswith(".cl"):
        raise TestFailure("format", f"{path}: a test is NAME.cl or NAME.spvasm")
    bc = os.path.join(work, "in.bc")
    opt = [a for a in t["clang"] if re.fullmatch(r"-O[0-3]", a)] or ["-O2"]
    rest = [a for a in t["clang"] if not re.fullmatch(r"-O[0-3]", a)]
    cmd = [tool("CLANG", "clang-15"), "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0",
           opt[-1], "-no-opaque-pointers", "-emit-llvm-bc", "-finclude-default-header",
           *rest, path, "-o", bc]
    rc, so, se = sh(cmd)
    if rc:
        raise TestFailure("build", f"{quote(cmd)} failed:\n{so}{se}")
    cmd = [tool("LLVM_SPIRV", "llvm-spirv-15"), *t["llvm_spirv"], bc, "-o", out]
    rc, so, se = sh(cmd)
    if rc:
        raise TestFailure("build", f"{quote(cmd)} failed:\n{so}{se}")
    return out


def filecheck(path, prefix, input_path, stage, label):
    cmd = [tool("FILECHECK", "FileCheck-15"), path, "--check-prefix=" + prefix,
           "--input-file=" + input_path, "--allow-empty", "--dump-input=fail"]
    rc, so, se = sh(cmd)
    if rc:
        raise TestFailure(stage, f"{label}: FileCheck --check-prefix={prefix} on {input_path} failed:\n{so}{se}")


def ocloc(spv, devices, work, label, target_env="spv1.4"):
    exe = shutil.which(tool("OCLOC", "ocloc"))
    if target_env > "spv1.4":
        # ocloc 22.43 rejects SPIR-V 1.5 and later: ocloc 26 judges.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        tc = os.environ.get("XEOPT_TOOLCHAINS", os.path.join(root, "build", "toolchains"))
        exe = shutil.which(os.path.join(tc, "bin", "ocloc-26"))
    if not exe:
        if os.environ.get("XEOPT_REQUIRE_OCLOC") == "1":
            raise TestFailure("ocloc", "ocloc is required (XEOPT_REQUIRE_OCLOC=1) but missing")
        print(f"{label}: ocloc not found, IGC step skipped")
        return
    for d in devices:
        odir = os.path.join(work, "ocloc-" + d)
        shutil.rmtree(odir, ignore_errors=True)
        os.makedirs(odir)
        cmd = [exe, "compile", "-q", "-spirv_input", "-file", os.path.abspath(spv), "-device", d, "-output", "m"]
        rc, so, se = sh(cmd, cwd=odir)
        if rc:
            raise TestFailure("ocloc", f"{label}: IGC ({quote(cmd)}) rejects the output for {d}:\n{so}{se}")


def run_one(path, xeopt, tag, options, line, t, spv_in, work, text):
    label = f"{os.path.basename(path)}:{line} RUN{'-' + tag if tag else ''}"
    name = tag.lower() if tag else "run"
    out = os.path.join(work, name + ".spv")
    man = os.path.join(work, name + ".json")
    # Nothing from an earlier run may stand in for this one's files.
    for ext in (".spv", ".json", ".json.none", ".spvasm", ".remarks", ".stderr"):
        if os.path.exists(os.path.join(work, name + ext)):
            os.unlink(os.path.join(work, name + ext))
    subst = {"%s": os.path.abspath(path), "%S": os.path.dirname(os.path.abspath(path)), "%t": work}
    opts = [re.sub(r"%[sSt]", lambda m: subst[m.group(0)], a) for a in shlex.split(options)]
    prefixes = {"output": tag or "CHECK",
                "remarks": (tag + "-REMARK") if tag else "REMARK",
                "manifest": (tag + "-MANIFEST") if tag else "MANIFEST"}
    checked = [s for s, p in prefixes.items() if has_prefix(text, p)]
    if not checked:
        raise TestFailure("format", f"{label}: no {', '.join(prefixes.values())} line checks this run")

    cmd = [xeopt, "--validate", "--verify", "--remarks", *opts, spv_in, "-o", out, "--manifest=" + man]
    print(f"{label}: {quote(cmd)}")
    rc, so, log = sh(cmd)
    with open(os.path.join(work, name + ".stderr"), "w", encoding="utf-8") as f:
        f.write(log)
    if rc:
        raise TestFailure("xeopt", f"{label}: xeopt exited {rc}:\n{so}{log}")

    cmd = [tool("SPIRV_VAL", "spirv-val"), out]
    rc, so, se = sh(cmd)
    if rc:
        raise TestFailure("spirv-val", f"{label}: spirv-val rejects {out}:\n{so}{se}")

    dis = os.path.join(work, name + ".spvasm")
    cmd = [tool("SPIRV_DIS", "spirv-dis"), out, "-o", dis]
    rc, so, se = sh(cmd)
    if rc:
        raise TestFailure("output", f"{label}: {quote(cmd)} failed:\n{so}{se}")
    remarks = os.path.join(work, name + ".remarks")
    with open(remarks, "w", encoding="utf-8") as f:
        f.write("".join(l + "\n" for l in log.splitlines() if l.startswith("xeopt: remark: ")))
    if not os.path.exists(man):
        open(man + ".none", "w").close()
    inputs = {"output": dis, "remarks": remarks,
              "manifest": man if os.path.exists(man) else man + ".none"}
    for stage in ("output", "remarks", "manifest"):
        if stage in checked:
            filecheck(path, prefixes[stage], inputs[stage], stage, label)

    ocloc(out, t["ocloc"], work, label, t["target_env"])
    print(f"{label}: ok (checked {', '.join(checked)}; spirv-val, --verify"
          f"{', IGC ' + ','.join(t['ocloc']) if shutil.which(tool('OCLOC', 'ocloc')) else ''})")


# The front-end matrix's reading of remarks and of its exceptions
# (tests/frontends/matrix.py), so both checks count a rewrite alike.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "frontends"))
import matrix  # noqa: E402


def run_front_end(path, xeopt, work, fe):
    """The test's RUN lines on the input another front end writes
    (scripts/frontend.sh FE): its output must validate (spirv-val 2026 as
    well), --verify, compile in IGC (ocloc 22.43 and 26), and every (kernel,
    pass) applied on the clang-15 input must be applied on this one.  The
    CHECK lines are not run: they name what clang 15 writes."""
    t = parse(path)
    os.makedirs(work, exist_ok=True)
    ref_in = build_input(path, t, work)
    fe_in = os.path.join(work, "in." + fe + ".spv")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, XEOPT_SPIRV_EXT=" ".join(t["llvm_spirv"]))
    opts = [a for a in t["clang"] if not re.fullmatch(r"-O[0-3]", a)]
    cmd = [os.path.join(root, "scripts", "frontend.sh"), fe, path, fe_in, *opts]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode:
        raise TestFailure("build", f"{quote(cmd)} failed:\n{r.stdout}{r.stderr}")
    tc = os.path.join(os.environ.get("XEOPT_TOOLCHAINS", os.path.join(root, "build", "toolchains")), "bin")
    for tag, options, line in t["runs"]:
        label = f"{os.path.basename(path)}:{line} RUN{'-' + tag if tag else ''} ({fe})"
        subst = {"%s": os.path.abspath(path), "%S": os.path.dirname(os.path.abspath(path)), "%t": work}
        o = [re.sub(r"%[sSt]", lambda m: subst[m.group(0)], a) for a in shlex.split(options)]
        # Every rewrite, without the cost model: the model prices the code each
        # front end wrote, and may rightly differ (tests/frontends/matrix.py).
        if not any(a.startswith("--isa-check") for a in o):
            o.append("--target=none")
        # ocloc's early returns reach the shape the region analyses read only
        # once simplify-cfg folds its cleanup switch (as in -O2's order).
        if fe.startswith("ocloc"):
            o = [a.replace("--passes=", "--passes=simplify-cfg,", 1)
                 if a.startswith("--passes=") and "simplify-cfg" not in a else a for a in o]
        logs = {}
        for which, spv in (("clang15", ref_in), (fe, fe_in)):
            out = os.path.join(work, f"{(tag or 'run').lower()}.{which}.spv")
            cmd = [xeopt, "--validate", "--verify", "--remarks", *o, spv, "-o", out,
                   "--manifest=" + out + ".json"]
            rc, so, log = sh(cmd)
            if rc:
                raise TestFailure("xeopt", f"{label}: {quote(cmd)} exited {rc}:\n{so}{log}")
            logs[which] = log
        for val in (tool("SPIRV_VAL", "spirv-val"), os.path.join(tc, "spirv-val-2026")):
            rc, so, se = sh([val, out])
            if rc:
                raise TestFailure("spirv-val", f"{label}: {val} rejects {out}:\n{so}{se}")
        ocloc(out, t["ocloc"], work, label)
        exe26 = os.path.join(tc, "ocloc-26")
        for d in t["ocloc"]:
            rc, so, se = sh([exe26, "compile", "-q", "-spirv_input", "-file", out, "-device", d,
                             "-out_dir", os.path.join(work, "ocloc26-" + d)])
            if rc:
                raise TestFailure("ocloc", f"{label}: ocloc 26 rejects the output for {d}:\n{so}{se}")
        got = matrix.parse_remarks(logs[fe])[0]
        missing = matrix.missing_pairs(matrix.parse_remarks(logs["clang15"])[0], got)
        name = os.path.splitext(os.path.basename(path))[0]
        ex = matrix.load_exceptions(os.path.join(root, "tests", "frontends", "exceptions.txt"))
        for k, p in sorted(missing):
            if matrix.listed(ex, (name, k, p, fe, "pass")):
                print(f"{label}: listed in tests/frontends/exceptions.txt: {k} [{p}]")
                missing.discard((k, p))
        if missing:
            said = "\n".join(l for l in logs[fe].splitlines()
                             if any(f"[{p}]" in l for _, p in missing))
            raise TestFailure("front-end", f"{label}: applied on clang 15's module, not on {fe}'s: "
                              f"{sorted(missing)}\n{said}")
        print(f"{label}: ok ({len(got)} rewrites as on clang 15's module; spirv-val 2023 "
              f"and 2026, --verify, IGC 22.43 and 26 {','.join(t['ocloc'])})")


def run_test(path, xeopt, work):
    t = parse(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    os.makedirs(work, exist_ok=True)
    spv_in = build_input(path, t, work)
    for tag, options, line in t["runs"]:
        run_one(path, xeopt, tag, options, line, t, spv_in, work, text)
    return t


def main():
    sys.stdout.reconfigure(line_buffering=True)
    ap = argparse.ArgumentParser(description="Run one one-file pass test (tests/passes/README.md).")
    ap.add_argument("--xeopt", required=True, help="the xeopt binary")
    ap.add_argument("--work", help="directory for the intermediate files (default ./NAME)")
    ap.add_argument("--front-end", help="run on this front end's module too (scripts/frontend.sh), "
                    "comparing the rewrites with clang 15's")
    ap.add_argument("test", help="NAME.cl or NAME.spvasm")
    a = ap.parse_args()
    if a.front_end:
        name = os.path.splitext(os.path.basename(a.test))[0]
        try:
            run_front_end(a.test, a.xeopt, os.path.abspath(a.work or name), a.front_end)
        except TestFailure as e:
            print(f"{name} ({a.front_end}): FAIL at stage '{e.stage}'\n{e}", file=sys.stderr)
            return 1
        print(f"{name} ({a.front_end}): PASS")
        return 0
    name = os.path.splitext(os.path.basename(a.test))[0]
    work = os.path.abspath(a.work or name)
    try:
        expect = expected_failure(a.test)
    except OSError as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2
    if (expect and expect[0] == "ocloc" and not shutil.which(tool("OCLOC", "ocloc"))
            and os.environ.get("XEOPT_REQUIRE_OCLOC") != "1"):
        print(f"{name}: skipped: planted to fail in IGC, and ocloc is not installed")
        return 77
    try:
        run_test(a.test, a.xeopt, work)
    except TestFailure as e:
        if expect and e.stage == expect[0] and re.search(expect[1], str(e)):
            print(f"{name}: failed at stage '{e.stage}' as planted (EXPECT-FAIL); the failure was:\n{e}")
            return 0
        print(f"{name}: FAIL at stage '{e.stage}'" +
              (f" (planted to fail at '{expect[0]}' with '{expect[1]}')" if expect else "") + f"\n{e}",
              file=sys.stderr)
        return 1
    if expect:
        print(f"{name}: FAIL: planted to fail at stage '{expect[0]}' but passed", file=sys.stderr)
        return 1
    print(f"{name}: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
