#!/usr/bin/env python3
"""The front-end invariance matrix: does every rewrite find the same kernels
whichever front end wrote the module?

Each OpenCL C file is compiled by every front end (scripts/frontend.sh:
clang15, clang21, clang21-backend, ocloc22, ocloc26), each module goes
through `xeopt -O2 --target=none --validate --verify` (every rewrite, no
cost model) and again with every host promise (--assume-padded
--assume-aligned --subgroup-size=16 --local-size=256,1,1), and the remarks
say which (kernel, pass) pairs were applied.  A pair applied from a
reference front end (clang15 or ocloc22) must also be applied from each of
the others (a front end that does not compile a file is said, not counted:
its limit, not ours).  An exception is allowed only when listed in EXCEPTIONS (tests/frontends/
exceptions.txt: "FILE KERNEL PASS FRONT_END MODE reason...", each field a
shell pattern) with the module
difference that explains it.  Every output must pass spirv-val 2026 (and
--validate, which is SPIRV-Tools 2023.1) and --verify.

Usage:
  matrix.py --xeopt BIN --work DIR [--exceptions F] [--igc] FILE.cl|DIR ...
  (sources: .cl files, or folders of them; a first line
  `// xeopt-test: ...` gives -O0 (such files are left out: the matrix is
  about what optimizing front ends write), `subgroups` (cl_intel_subgroups))
Prints the matrix (per pass and mode, kernels applied per front end), then
every pair applied under a reference front end and not under another, with
the remark that front end's module got instead.  Exit 0 when no such pair is
unlisted, no output is invalid and --verify agreed; 1 otherwise; 77 when the
sid toolchains are missing (a failure with XEOPT_REQUIRE_OCLOC=1).
--igc also compiles every output with ocloc 22.43 and ocloc 26 for dg2 and pvc,
where that IGC took the input, and counts rejections.
"""
import argparse
import collections
import concurrent.futures
import fnmatch
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT_ENDS = ["clang15", "clang21", "clang21-backend", "ocloc22", "ocloc26"]
REFERENCES = ["clang15", "ocloc22"]
# Repairs, not rewrites: they fix what one producer writes wrong, so they
# apply to some front ends' output and not to others' by design.
REPAIRS = {"block-order", "interface-vars", "canonicalize"}
# simplify-cfg normalizes one family's shape (ocloc's cleanup switch and
# early returns): it is compared within a family only.
FAMILY = {"clang15": ["clang21", "clang21-backend"], "ocloc22": ["ocloc26"]}
WITHIN_FAMILY = {"simplify-cfg"}
MODES = {
    "none": ["--target=none"],
    "promised": ["--target=none", "--assume-padded", "--assume-aligned",
                 "--subgroup-size=16", "--local-size=256,1,1"],
}
REMARK = re.compile(r"^xeopt: remark: (?:(\S+): )?\[([a-z-]+)\] (applied|missed|note): (.*)$")


def toolchains():
    return os.environ.get("XEOPT_TOOLCHAINS", os.path.join(ROOT, "build", "toolchains"))


def sources(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".cl"))
        else:
            out.append(p)
    return out


def header_flags(src):
    with open(src, errors="replace") as f:
        first = f.readline()
    m = re.match(r"^//\s*xeopt-test:(.*)$", first)
    return m.group(1).split() if m else []


def compile_one(fe, src, out):
    flags = header_flags(src)
    opts, env = ["-w"], dict(os.environ)
    if "subgroups" in flags:
        opts.append("-cl-ext=+cl_intel_subgroups")
        env["XEOPT_SPIRV_EXT"] = "--spirv-ext=+SPV_INTEL_subgroups"
    os.makedirs(os.path.dirname(out), exist_ok=True)
    r = subprocess.run([os.path.join(ROOT, "scripts", "frontend.sh"), fe, src, out] + opts,
                       env=env, capture_output=True, text=True)
    return r.returncode == 0, r.stderr[-400:]


def parse_remarks(log):
    """From a run's stderr: the (kernel, pass) pairs applied, and what each
    pair's remarks said (repairs left out)."""
    applied, said = set(), collections.defaultdict(list)
    for line in log.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        kernel, p, kind, msg = m.groups()
        if p in REPAIRS:
            continue
        # a remark on a helper function names no kernel: it counts for the module
        kernel = kernel or "(module)"
        said[(kernel, p)].append(f"{kind}: {msg}")
        if kind == "applied":
            applied.add((kernel, p))
    return applied, said


def missing_pairs(want, got):
    """The pairs of want not in got.  A pass applied in a helper names no
    kernel on one module and the kernel on another (one front end inlines
    what the other keeps as a call): "(module)" is matched by the pass
    applied anywhere."""
    return {(k, p) for (k, p) in want - got if k != "(module)" or not any(q == p for _, q in got)}


def run_xeopt(xeopt, spv, out, mode):
    cmd = [xeopt, "-O2", "--validate", "--verify", "--remarks"] + MODES[mode] + [spv, "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    applied, said = parse_remarks(r.stderr)
    return r.returncode, r.stderr, applied, said


def spirv_val(out):
    val = os.path.join(toolchains(), "bin", "spirv-val-2026")
    r = subprocess.run([val, out], capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr)[-400:]


def igc(ocloc, spv, device):
    d = spv + f".{os.path.basename(ocloc)}.{device}.d"
    r = subprocess.run([ocloc, "compile", "-q", "-spirv_input", "-file", spv, "-device", device,
                        "-out_dir", d], capture_output=True, text=True)
    shutil.rmtree(d, ignore_errors=True)
    return r.returncode == 0


def job(args, src, fe):
    name = os.path.splitext(os.path.basename(src))[0]
    spv = os.path.join(args.work, fe, name + ".spv")
    ok, why = compile_one(fe, src, spv)
    res = {"src": name, "fe": fe, "compiled": ok, "why": why, "modes": {}, "problems": []}
    if not ok:
        return res
    for mode in MODES:
        out = os.path.join(args.work, fe, f"{name}.{mode}.out.spv")
        rc, err, applied, said = run_xeopt(args.xeopt, spv, out, mode)
        res["modes"][mode] = (applied, said)
        if rc != 0:
            res["problems"].append(f"xeopt exit {rc} ({mode}): {err.strip().splitlines()[-1:]}")
            continue
        good, msg = spirv_val(out)
        if not good:
            res["problems"].append(f"spirv-val 2026 rejects the {mode} output: {msg.strip()}")
        if args.igc:
            ocloc26 = os.path.join(toolchains(), "bin", "ocloc-26")
            for dev in ("dg2", "pvc"):
                if igc("ocloc", spv, dev) and not igc("ocloc", out, dev):
                    res["problems"].append(f"ocloc 22.43 rejects the {mode} output for {dev}")
                if igc(ocloc26, spv, dev) and not igc(ocloc26, out, dev):
                    res["problems"].append(f"ocloc 26 rejects the {mode} output for {dev}")
    return res


def listed(ex, key):
    """The exception (pattern, reason) that covers key, or None: each field
    of an exception is a shell pattern (fnmatch), so one line can name the
    kernels or front ends that share one module difference."""
    for pat, why in ex.items():
        if all(fnmatch.fnmatchcase(k, p) for k, p in zip(key, pat)):
            return pat, why
    return None


def load_exceptions(path):
    ex = {}
    if path and os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            f = line.split(None, 5)
            if len(f) < 6:
                sys.exit(f"matrix.py: {path}: an exception needs FILE KERNEL PASS FRONT_END MODE reason: {line}")
            ex[tuple(f[:5])] = f[5]
    return ex


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--xeopt", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--exceptions", default=os.path.join(ROOT, "tests", "frontends", "exceptions.txt"))
    ap.add_argument("--igc", action="store_true")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    tc = os.path.join(toolchains(), "bin")
    if not all(os.path.exists(os.path.join(tc, t)) for t in ("clang-21", "ocloc-26", "spirv-val-2026")):
        print(f"matrix.py: the sid toolchains are missing in {tc} (scripts/toolchains.sh)")
        return 1 if os.environ.get("XEOPT_REQUIRE_OCLOC") == "1" else 77

    srcs = [s for s in sources(args.sources) if "-O0" not in header_flags(s)]
    left_out = len(sources(args.sources)) - len(srcs)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda sf: job(args, *sf), [(s, fe) for s in srcs for fe in FRONT_ENDS]))
    by = {(r["src"], r["fe"]): r for r in results}
    ex = load_exceptions(args.exceptions)
    used = set()

    print(f"front-end invariance: {len(srcs)} files ({left_out} -O0 files left out), "
          f"xeopt -O2 --target=none, and with every host promise")
    print("\ncompiled: " + ", ".join(
        f"{fe} {sum(by[(os.path.splitext(os.path.basename(s))[0], fe)]['compiled'] for s in srcs)}"
        for fe in FRONT_ENDS))
    passes = sorted({p for r in results for m in r["modes"].values() for (_, p) in m[0]})
    print("\nkernels where a pass applied, per front end")
    print("| pass | mode | " + " | ".join(FRONT_ENDS) + " |")
    print("|---|---|" + "---:|" * len(FRONT_ENDS))
    for p in passes:
        for mode in MODES:
            row = []
            for fe in FRONT_ENDS:
                row.append(str(sum(1 for r in results if r["fe"] == fe and mode in r["modes"]
                                   for (_, q) in r["modes"][mode][0] if q == p)))
            print(f"| {p} | {mode} | " + " | ".join(row) + " |")

    failures = 0
    print("\npairs applied from a reference front end and not from another:")
    for s in srcs:
        name = os.path.splitext(os.path.basename(s))[0]
        for mode in MODES:
            for fe in FRONT_ENDS:
                if fe in REFERENCES:
                    continue
                want = set()
                for ref in REFERENCES:
                    r = by[(name, ref)]
                    if r["compiled"] and mode in r["modes"]:
                        want |= {(k, p) for (k, p) in r["modes"][mode][0]
                                 if p not in WITHIN_FAMILY or fe in FAMILY[ref]}
                r = by[(name, fe)]
                if not r["compiled"]:
                    # the front end's own limit, not ours: said, not counted
                    if mode == "none":
                        why = r["why"].strip().splitlines()
                        print(f"  note: {fe} does not compile {name}: {why[-1][:160] if why else ''}")
                    continue
                applied, said = r["modes"].get(mode, (set(), {}))
                missing = missing_pairs(want, applied)
                for (k, p) in sorted(missing):
                    key = (name, k, p, fe, mode)
                    why = "; ".join(said.get((k, p), ["no remark"]))[:300]
                    hit = listed(ex, key)
                    if hit:
                        used.add(hit[0])
                        print(f"  listed {name} {k} [{p}] {fe} {mode}: {hit[1]}")
                    else:
                        failures += 1
                        print(f"  FAIL {name} {k} [{p}] {fe} {mode}: {why}")
    for r in results:
        for prob in r["problems"]:
            failures += 1
            print(f"  FAIL {r['src']} ({r['fe']}): {prob}")
    for key in sorted(set(ex) - used):
        print(f"  note: exception no longer needed: {' '.join(key)}")
    print(f"\n{len(srcs) * len(FRONT_ENDS) * len(MODES)} runs, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
