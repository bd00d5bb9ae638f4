#!/usr/bin/env python3
"""Run SPIR-V kernels on xeopt's interpreter and on Intel's CPU OpenCL runtime, compare buffers.

Intel's CPU runtime (PyPI `intel-opencl-rt`: libintelocl.so, OpenCL 3.0,
SPIR-V input, cl_intel_subgroups, required sub-group sizes) is a second
executor that, unlike Oclgrind (tests/oclgrind), runs sub-group operations:
sub-group builtins, collectives, shuffles and Intel's block reads/writes.
tests/oclcpu/host.c (built by CMake as oclcpu-host) runs one kernel of a
module on it from an `xeopt run --launch` JSON file and dumps every buffer
as `xeopt run --dump` does; this driver makes the launches, runs both and
compares the bytes.  See docs/oclcpu.md.

The launch, buffer materialization, SPIR-V reading and buffer comparison are
tests/oclgrind/compare.py's, imported.

  compare.py [options] MODULE.spv [--kernel K] [--launch L.json] [--opt=...]
  compare.py [options] --suite TESTDATA_DIR        (the ctest entry)
  compare.py --setup --runtime DIR                 (pip-installs the runtime into DIR/venv)
Exit status: 0 all agree; 1 a difference or a failure; 77 the runtime or the
host is missing (a failure instead when XEOPT_REQUIRE_OCLCPU=1, which also
installs the runtime first when it is missing).
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True   # no __pycache__ in tests/oclgrind
sys.path.insert(0, os.path.join(HERE, '..', 'oclgrind'))
import compare as og  # noqa: E402  (tests/oclgrind/compare.py)

SKIP = 77
SUITE_FILE = os.path.join(HERE, 'suite.json')
# The runtime's PyPI packages: intel-opencl-rt needs tbb (a declared
# dependency) and, undeclared, the compiler runtime (libimf, libsvml,
# libirng, libintlc) of intel-cmplr-lib-rt.
PIP_PACKAGES = ['intel-opencl-rt==2026.*', 'intel-cmplr-lib-rt==2026.*']
# Required sub-group sizes tried on sub-group kernels (the runtime offers
# 4, 8, 16, 32 and 64 on x86; Intel GPUs 8, 16 and 32).
SIZES = (8, 16, 32)
OP_SUBGROUP_BLOCK_READ, OP_SUBGROUP_BLOCK_WRITE = 5575, 5576
OP_GROUP_ALL, OP_GROUP_ANY, OP_GROUP_IADD = 261, 262, 264
OP_CAPABILITY, OP_ENTRY_POINT, OP_EXECUTION_MODE = 17, 15, 16
EM_SUBGROUP_SIZE = 35
CAP_SUBGROUP_DISPATCH = 58


# ---------------------------------------------------------------------------
# The runtime

def runtime_env(rt):
    """The environment that makes the ICD loader (Debian's ocl-icd) see
    Intel's CPU runtime in rt/venv and nothing else; None when it is not
    installed there."""
    lib = os.path.join(rt, 'venv', 'lib')
    so = os.path.join(lib, 'libintelocl.so')
    if not os.path.exists(so):
        return None
    vendors = os.path.join(rt, 'vendors')
    os.makedirs(vendors, exist_ok=True)
    icd = os.path.join(vendors, 'intel-cpu.icd')
    if not os.path.exists(icd) or open(icd).read().strip() != so:
        with open(icd, 'w') as f:
            f.write(so + '\n')
    env = dict(os.environ)
    env['OCL_ICD_VENDORS'] = vendors
    env.pop('OCL_ICD_FILENAMES', None)
    # libintelocl.so's own dependencies (libtbb.so.12, libimf.so, ...) are
    # in the same directory, which it has no RUNPATH for.
    env['LD_LIBRARY_PATH'] = lib + (':' + env['LD_LIBRARY_PATH'] if env.get('LD_LIBRARY_PATH') else '')
    return env


def setup(rt):
    """pip-installs the runtime into rt/venv (nothing outside rt: the pip
    cache is rt/pip-cache)."""
    venv = os.path.join(rt, 'venv')
    os.makedirs(rt, exist_ok=True)
    if not os.path.exists(os.path.join(venv, 'bin', 'pip')):
        subprocess.run([sys.executable, '-m', 'venv', venv], check=True)
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(rt, 'pip-cache'), PIP_DISABLE_PIP_VERSION_CHECK='1')
    subprocess.run([os.path.join(venv, 'bin', 'pip'), 'install', '-q', *PIP_PACKAGES], check=True, env=env)
    return runtime_env(rt)


# ---------------------------------------------------------------------------
# SPIR-V: required sub-group size, and what an output contains

def instructions(data):
    words = struct.unpack(f'<{len(data) // 4}I', data)
    i = 5
    while i < len(words):
        n = words[i] >> 16
        yield i, words[i:i + n]
        i += max(n, 1)


def with_subgroup_size(data, size):
    """The module with every kernel's SubgroupSize execution mode set to
    `size` (what intel_reqd_sub_group_size(size) writes), added where there
    is none, with the SubgroupDispatch capability it needs."""
    words = list(struct.unpack(f'<{len(data) // 4}I', data))
    out, entries, have, caps, modes_at, cap_at = words[:5], [], set(), set(), None, None
    for i, ins in instructions(data):
        op = ins[0] & 0xffff
        ins = list(ins)
        if op == OP_CAPABILITY:
            caps.add(ins[1])
            cap_at = len(out) + len(ins)
        elif op == OP_ENTRY_POINT:
            entries.append(ins[2])
            modes_at = len(out) + len(ins)
        elif op == OP_EXECUTION_MODE:
            if ins[2] == EM_SUBGROUP_SIZE:
                ins[3] = size
                have.add(ins[1])
            modes_at = len(out) + len(ins)
        out += ins
    add = [w for f in entries if f not in have for w in ((4 << 16) | OP_EXECUTION_MODE, f, EM_SUBGROUP_SIZE, size)]
    out[modes_at:modes_at] = add
    if CAP_SUBGROUP_DISPATCH not in caps:
        out[cap_at:cap_at] = [(2 << 16) | OP_CAPABILITY, CAP_SUBGROUP_DISPATCH]
        # SubgroupDispatch is a SPIR-V 1.1 capability.
        if out[1] < 0x00010100:
            out[1] = 0x00010100
    return struct.pack(f'<{len(out)}I', *out)


def census(data):
    """(block reads/writes, sub-group all/any tests) in a module: an output
    with more block accesses than its input is a block-I/O output, one with
    more OpGroupAll/OpGroupAny/OpGroupIAdd a versioned one
    (subgroup-versioning's run-time test and its reduction)."""
    block = tests = 0
    for _, ins in instructions(data):
        op = ins[0] & 0xffff
        block += op in (OP_SUBGROUP_BLOCK_READ, OP_SUBGROUP_BLOCK_WRITE)
        tests += op in (OP_GROUP_ALL, OP_GROUP_ANY, OP_GROUP_IADD)
    return block, tests


# ---------------------------------------------------------------------------
# Runs

class Cannot(Exception):
    """One executor cannot run this (the runtime refuses the module, the
    interpreter lacks a builtin, the launch is out of bounds for it)."""


def run_host(ctx, spv, launch, byval, work):
    lf = os.path.join(work, 'cpu-launch.json')
    with open(lf, 'w') as f:
        json.dump(launch, f)
    dump = os.path.join(work, 'cpu-out')
    shutil.rmtree(dump, ignore_errors=True)
    cmd = [ctx.host, spv, lf, dump, '--seed', str(ctx.seed)]
    for k in sorted(byval):
        cmd += ['--byval', str(k)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, env=ctx.env)
    err = p.stderr.decode(errors='replace').strip()
    if p.returncode == 4:
        raise Cannot('Intel CPU runtime refuses the module: ' + ' | '.join(
            l for l in err.splitlines() if l.strip())[:400])
    if p.returncode:
        raise og.Failure(f'oclcpu-host exit {p.returncode}: {err[-600:]}')
    bufs = {}
    for k, a in enumerate(launch['args']):
        if a.startswith('buf:'):
            with open(os.path.join(dump, f'arg{k}.bin'), 'rb') as f:
                bufs[k] = f.read()
    info = json.load(open(os.path.join(dump, 'info.json')))
    if os.environ.get('XEOPT_OCLCPU_PLANT') == '1' and bufs:
        # The test of the test (ctest oclcpu_compare_planted).
        k = max(i for i in bufs if i not in byval)
        bufs[k] = bytes([bufs[k][0] ^ 1]) + bufs[k][1:]
    return bufs, info


def run_ours(ctx, spv, launch, work):
    try:
        return og.run_xeopt(ctx.xeopt, spv, launch, ctx.seed, work)
    except og.Failure as e:
        raise Cannot(og.first_line(str(e)))


def launches(kernel, over, partial):
    """The uniform launch (oclgrind's default: 4 work-groups in x, or the
    suite's override) and, if partial, the same with a partial last
    work-group (global x cut by half a work-group plus one) and a global
    offset of 3 in x."""
    base = og.default_launch(kernel, over)
    out = [('uniform', base)]
    lx = base['local'][0]
    if partial and base['global'][0] > lx:
        p = json.loads(json.dumps(base))
        p['global'][0] -= lx // 2 + 1
        p['offset'] = [3, 0, 0]
        out.append(('partial+offset', p))
    return out


class Job:
    def __init__(self, spv, kernel, over, variants, known=None, launch=None, sizes=(), ignore=None):
        self.spv, self.kernel, self.over, self.variants = spv, kernel, over, variants
        self.ignore, self.partial = ignore, True
        self.known, self.launch, self.sizes = known or {}, launch, sizes


def compare_one(ctx, spv, kernel, launch, byval, inexact, work, sg_default, ignore=None):
    """Both executors on one module and launch; returns difference lines and
    the sub-group size used."""
    sg = sg_default
    l = dict(launch, subgroup_size=sg)
    ref = run_ours(ctx, spv, l, work)
    got, info = run_host(ctx, spv, launch, byval, work)
    if info['subgroup_size'] and info['subgroup_size'] != sg:
        # The runtime chose another size for a kernel without a required
        # one: our interpreter runs with that size too.
        sg = info['subgroup_size']
        l = dict(launch, subgroup_size=sg)
        ref = run_ours(ctx, spv, l, work)
    pred = None
    if ignore:
        # suite.json "ignore": elements whose value OpenCL leaves to the
        # implementation (native_*, half_* results), by argument, record
        # stride and index within the record.
        size = og.SIZES[launch['args'][ignore['arg']].split(':')[1]]

        def pred(k, off):
            return k == ignore['arg'] and (off // size) % ignore['stride'] in ignore['at']
    d = og.compare_buffers(ref, got, l, byval, inexact, pred)
    return (d + [f'launch: {json.dumps(l)}'] if d else []), sg


def run_job(job, ctx):
    """[(status, line list, facts)] per comparison.  status: ok, diff, fail,
    cannot, known."""
    name = f'{os.path.basename(job.spv)[:-4]}:{job.kernel}'
    work = tempfile.mkdtemp(prefix='oc-', dir=ctx.work)
    results = []
    try:
        in_bytes = open(job.spv, 'rb').read()
        mod = og.Module(job.spv)
        k = mod.kernels[job.kernel]
        byval = {i for i, p in enumerate(k.params) if p.kind == 'byval'}
        inexact = bool(mod.inexact_math)
        subgroup_in = bool(mod.subgroup_reasons)
        in_census = census(in_bytes)
        seen = {}
        # Modules: (label, bytes, the SubgroupSize they require or None).
        modules = [('input', in_bytes, k.subgroup_size)]
        for n in job.sizes:
            if k.local_size and k.local_size[0] * k.local_size[1] * k.local_size[2] < n:
                results.append(('cannot', [f'CANNOT {name} input sg{n}: LocalSize {k.local_size} '
                                           f'is smaller than the sub-group'], {}))
                continue
            modules.append((f'input sg{n}', with_subgroup_size(in_bytes, n), n))
        for label, data, req in modules:
            src = os.path.join(work, f'{label.replace(" ", "-")}.spv')
            with open(src, 'wb') as f:
                f.write(data)
            variants = [(label, src, None)]
            for opts in job.variants:
                out = src[:-4] + f'.opt{len(variants)}.spv'
                man = out[:-4] + '.json'
                p = subprocess.run([ctx.xeopt, '-q', *opts, src, '-o', out, f'--manifest={man}'],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                tag = f'{label} {" ".join(opts)}'
                if p.returncode:
                    results.append(('fail', [f'FAIL {name} {tag}: xeopt: {p.stderr.decode().strip()}'], {}))
                    continue
                variants.append((tag, out, man if os.path.exists(man) else None))
            for tag, path, man in variants:
                data_v = open(path, 'rb').read()
                manifest = json.load(open(man)) if man else None
                # An output with a host contract (xeopt writes a manifest
                # only then) runs on launches that keep it.
                contract = bool(manifest and manifest.get('kernels', {}).get(job.kernel))
                vmod = og.Module(path)
                if job.kernel not in vmod.kernels:
                    results.append(('fail', [f'FAIL {name} {tag}: kernel gone'], {}))
                    continue
                vk = vmod.kernels[job.kernel]
                c = census(data_v)
                facts = {'subgroup': bool(vmod.subgroup_reasons), 'sg_input': subgroup_in,
                         'block': c[0] > in_census[0], 'versioned': c[1] > in_census[1],
                         'output': path != src}
                # A launch with a partial work-group and an offset only
                # where the host contract allows it: not for an output that
                # relies on opt-ins (uniform work-groups, padding).
                over = job.over
                if req and not vk.local_size and (over or {}).get('local', [16])[0] < req:
                    # A work-group of at least one whole sub-group.
                    over = dict(over or {}, local=[req, 1, 1])
                # No partial work-group where the host contract or the
                # input's own block reads/writes (full sub-groups only)
                # forbid it.
                ls = job.launch and [('given', job.launch)] or launches(
                    vk, over, not contract and not in_census[0] and job.partial)
                for lname, launch in ls:
                    if manifest:
                        launch, _ = og.apply_manifest(manifest, launch)
                    key = (data_v, json.dumps(launch))
                    full = f'{name} {tag} [{lname}]'
                    if key in seen:
                        continue
                    seen[key] = True
                    sg_default = vk.subgroup_size or req or 16
                    try:
                        d, sg = compare_one(ctx, path, job.kernel, launch, byval,
                                            inexact or bool(vmod.inexact_math), work, sg_default,
                                            job.ignore)
                        full += f' sg={sg}' if facts['subgroup'] else ''
                        st = ('diff', [f'DIFF {full}'] + ['    ' + x for x in d]) if d else ('ok', [f'ok   {full}'])
                    except Cannot as e:
                        st = ('cannot', [f'CANNOT {full}: {e}'])
                    except og.Failure as e:
                        st = ('fail', [f'FAIL {full}: {e}'])
                    except subprocess.TimeoutExpired as e:
                        st = ('fail', [f'FAIL {full}: timeout {e.cmd[0]}'])
                    stage = 'opt' if facts['output'] else 'input'
                    why = job.known.get(stage)
                    if why and st[0] in ('cannot', 'fail'):
                        st = ('known', [f'known {full}: {why}', '    ' + st[1][0]])
                    elif st[0] == 'cannot' and not ctx.allow_cannot:
                        st = ('fail', ['FAIL' + st[1][0][6:] + ' (not in tests/oclcpu/suite.json)'])
                    results.append((st[0], st[1], facts))
    except (og.Unsupported, og.Failure, ValueError, KeyError) as e:
        results.append(('fail', [f'FAIL {name}: {e}'], {}))
    finally:
        if not ctx.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif results:
            results[0][1].append(f'  files: {work}')
    return results


# ---------------------------------------------------------------------------
# The testdata suite

def suite_jobs(ctx, testdata):
    cfg = json.load(open(SUITE_FILE))
    ogcfg = json.load(open(og.SUITE_FILE))
    optins = og.golden_optins(testdata)
    base = ['-O2', '--target=none']
    jobs, skipped = [], []
    spvdir = os.path.join(testdata, 'spv')
    for f in sorted(os.listdir(spvdir)):
        if not f.endswith('.spv'):
            continue
        path = os.path.join(spvdir, f)
        mod = og.Module(path)
        if mod.uses_images:
            skipped.append(f'skip {f[:-4]}: images (oclcpu-host creates buffers only)')
            continue
        for kname in sorted(mod.kernels):
            key = f'{f[:-4]}:{kname}'

            def get(c, section, key=key, f=f):
                d = c.get(section, {})
                return d.get(key) or d.get(f[:-4])
            if get(cfg, 'skip'):
                skipped.append(f'skip {key}: {get(cfg, "skip")}')
                continue
            variants = [base] + [base + o for o in optins.get(f, [])]
            k = mod.kernels[kname]
            sizes = get(cfg, 'sizes')
            sizes = sizes['sizes'] if sizes else SIZES if mod.subgroup_reasons else ()
            jobs.append(Job(path, kname, get(cfg, 'launches') or get(ogcfg, 'launches'), variants,
                            get(cfg, 'known'), sizes=sizes, ignore=get(cfg, 'ignore')))
            if get(cfg, 'uniform_only'):
                jobs[-1].partial = False
                skipped.append(f'uniform launch only {key}: {get(cfg, "uniform_only")}')
    return jobs, skipped


class Ctx:
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('module', nargs='?', help='a SPIR-V module (by-hand mode)')
    ap.add_argument('--suite', metavar='TESTDATA', help='run the testdata suite (the ctest entry)')
    ap.add_argument('--xeopt', default=shutil.which('xeopt') or 'xeopt', help='the xeopt binary')
    ap.add_argument('--host', help='the oclcpu-host binary (tests/oclcpu/host.c)')
    ap.add_argument('--runtime', default=os.environ.get('XEOPT_OCLCPU_DIR', 'oclcpu'),
                    help='the directory with the runtime in venv/ (default $XEOPT_OCLCPU_DIR or ./oclcpu)')
    ap.add_argument('--setup', action='store_true', help='pip-install the runtime into RUNTIME/venv first')
    ap.add_argument('--kernel', help='only this kernel')
    ap.add_argument('--launch', help='an xeopt run JSON launch (default: one chosen here)')
    ap.add_argument('--sizes', action='store_true', help='by hand: also with required sub-group sizes 8, 16, 32')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--opt', action='append', default=[], help='also the module xeopt writes with these options')
    ap.add_argument('-j', '--jobs', type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument('--keep', action='store_true', help='keep the work files')
    ap.add_argument('--expect-difference', action='store_true',
                    help='exit 0 only if some comparison differs and none failed (the test of the test)')
    ap.add_argument('-v', '--verbose', action='store_true', help='print agreeing cases too')
    args = ap.parse_args()
    require = os.environ.get('XEOPT_REQUIRE_OCLCPU') == '1'
    rt = os.path.abspath(args.runtime)
    env = runtime_env(rt)
    if args.setup or (env is None and require):
        try:
            env = setup(rt)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f'compare.py: installing the runtime into {rt}/venv failed: {e}', file=sys.stderr)
            return 1
        if args.setup and not (args.module or args.suite):
            return 0 if env else 1
    missing = None
    if env is None:
        missing = f'Intel CPU OpenCL runtime not installed in {rt}/venv (compare.py --setup --runtime {rt})'
    elif not args.host or not os.path.exists(args.host):
        missing = 'oclcpu-host not built (OpenCL headers, ocl-icd-opencl-dev and libcjson-dev needed)'
    if missing:
        if require:
            print(f'compare.py: {missing}, and XEOPT_REQUIRE_OCLCPU=1', file=sys.stderr)
            return 1
        print(f'compare.py: {missing}: skipped', file=sys.stderr)
        return SKIP
    og.ULP_TOLERANCE = int(os.environ.get('XEOPT_OCLCPU_ULP', og.ULP_TOLERANCE))
    ctx = Ctx()
    ctx.xeopt = os.path.abspath(args.xeopt) if os.path.exists(args.xeopt) else args.xeopt
    ctx.host, ctx.env, ctx.seed, ctx.keep = os.path.abspath(args.host), env, args.seed, args.keep
    ctx.allow_cannot = not args.suite
    ctx.work = tempfile.mkdtemp(prefix='xeopt-oclcpu-')
    start = time.time()
    skipped = []
    if args.suite:
        jobs, skipped = suite_jobs(ctx, args.suite)
    elif args.module:
        mod = og.Module(args.module)
        names = [args.kernel] if args.kernel else sorted(mod.kernels)
        launch = json.load(open(args.launch)) if args.launch else None
        over = json.load(open(og.SUITE_FILE)).get('launches', {})
        base = os.path.basename(args.module)[:-4]
        jobs = [Job(os.path.abspath(args.module), n, over.get(f'{base}:{n}') or over.get(base),
                    [o.split() for o in args.opt], launch=dict(launch, kernel=n) if launch else None,
                    sizes=SIZES if args.sizes else ()) for n in names]
    else:
        ap.error('give a module, --suite or --setup')
    counts, facts = {}, {'subgroup': 0, 'block': 0, 'versioned': 0, 'output': 0}
    sg_kernels = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as ex:
        for job, results in zip(jobs, ex.map(lambda j: run_job(j, ctx), jobs)):
            for status, lines, fx in results:
                counts[status] = counts.get(status, 0) + 1
                if status in ('ok', 'diff'):
                    for f in facts:
                        facts[f] += bool(fx.get(f))
                    if fx.get('sg_input'):
                        sg_kernels.add((job.spv, job.kernel))
                for l in lines:
                    if args.verbose or args.module or not l.startswith(('ok ', '  files')):
                        print(l)
    for s in skipped:
        print(s)
    if not ctx.keep:
        shutil.rmtree(ctx.work, ignore_errors=True)
    compared = counts.get('ok', 0) + counts.get('diff', 0)
    print(f'compare.py: {len(jobs)} kernels, {sum(counts.values())} runs: '
          f'{counts.get("ok", 0)} agree, {counts.get("diff", 0)} differ, {counts.get("fail", 0)} failed, '
          f'{counts.get("known", 0)} known (suite.json), {counts.get("cannot", 0)} cannot run; '
          f'{len(skipped)} skipped; {time.time() - start:.1f} s')
    print(f'compare.py: of the {compared} runs compared: {facts["subgroup"]} ran sub-group operations, '
          f'{len(sg_kernels)} kernels have sub-group operations of their own; {facts["output"]} runs of '
          f'xeopt outputs, of them {facts["block"]} with block I/O xeopt added and {facts["versioned"]} versioned')
    if args.expect_difference:
        return 0 if counts.get('diff') and not counts.get('fail') else 1
    return 1 if counts.get('diff') or counts.get('fail') else 0


if __name__ == '__main__':
    sys.exit(main())
