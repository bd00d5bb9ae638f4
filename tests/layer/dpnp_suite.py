#!/usr/bin/env python3
"""dpnp's own test suite without and with the xeopt OpenCL layer: same outcomes.

dpnp (PyPI, with dpctl and Intel's SYCL runtime) is a real application:
every array operation it runs on a device is a SYCL kernel, and on the
OpenCL backend each SYCL device image reaches the driver as a SPIR-V
program through clCreateProgramWithIL.  The layer (libxeopt_cl_layer.so,
loaded by Debian's ocl-icd from OPENCL_LAYERS) optimizes each of them.
This driver runs a part of dpnp's own tests (shipped in the wheel as
dpnp/tests) on Intel's CPU OpenCL runtime twice, without the layer and with
it, and requires the same test ids to pass, fail and be skipped in both
runs, and the layer's summary to show optimized programs and no failed
ones.  See docs/oclcpu.md, "dpnp under the layer".

  dpnp_suite.py --setup --runtime DIR      pip-installs dpnp, dpctl, pytest
                                           and the runtime into DIR/dpnp-venv
  dpnp_suite.py --runtime DIR --layer SO   the comparison (the ctest entry)
  dpnp_suite.py ... --full                 dpnp's whole suite (hours; bench/)
  dpnp_suite.py ... --tests 'ARGS'         these pytest arguments instead
  dpnp_suite.py ... --layer-env V=X        the layer's run with XEOPT_LAYER_V=X
                                           too (repeatable; ctest
                                           layer_dpnp_always: SPECIALIZE=always)
  dpnp_suite.py ... --expect-difference    the test of the test (with
                                           XEOPT_DPNP_PLANT=1: one passed
                                           test counted failed under the layer)
Exit status: 0 same outcomes and the layer optimized programs; 1 otherwise;
77 dpnp or the runtime is not installed (a failure instead when
XEOPT_REQUIRE_OCLCPU=1, which also installs them first).

The subset (SUBSET below, 1,387 tests, 457 programs) takes about 70 s
a run on this 2-core machine; why these files is said there.  bench/layer-overhead imports this
file for the environment, the runs and the summary.
"""

import argparse
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

SKIP = 77
# The versions measured (dpnp 0.20.0, dpctl 0.22.1 on intel-opencl-rt
# 2026.2); the runtime pins are tests/oclcpu/compare.py's.  The runtime
# comes again into this venv (dpcpp-cpp-rt depends on it anyway), so the
# venv is self-contained: about 2.9 GB installed.
PIP_PACKAGES = ['dpnp==0.20.*', 'dpctl==0.22.*', 'pytest',
                'intel-opencl-rt==2026.*', 'intel-cmplr-lib-rt==2026.*']
VENV = 'dpnp-venv'
# Debian's ocl-icd: the loader that reads OPENCL_LAYERS.  The wheels' own
# libOpenCL.so.1 (the Khronos loader, in the venv's lib/) does not load
# layers, so Debian's is preloaded: the SYCL runtime's dlopen of
# libOpenCL.so.1 then finds the one already loaded.
OCL_ICD = '/usr/lib/x86_64-linux-gnu/libOpenCL.so.1'

# The subset for CI, pytest arguments under dpnp/tests.  Chosen by running
# candidate files and classes alone under a counting layer and keeping, one
# by one, the one that adds the most new distinct SPIR-V programs per second
# (figures: tests, distinct programs, seconds, measured alone on this 2-core
# machine while other jobs ran; idle, a run takes about half): sorting and
# searching, histograms (atomics, local memory), reductions, scans,
# element-wise kernels of every integer dtype and oneMKL LAPACK's SYCL
# kernels.  Whole files of thousands of tests (test_sum.py: 5,387,
# test_mathematical.py: 4,660, test_linalg.py: 5,539) make few new programs
# per second and are left out; --full runs them.
SUBSET = [
    'test_histogram.py',                    # 312 tests, 178 programs, 27 s
    'test_sort.py',                         # 441, 124, 40 s
    'test_statistics.py::TestMaxMin',       # 326, 109, 29 s
    'test_bitwise.py',                      # 182, 54, 22 s
    'test_linalg.py::TestDet',              # 31, 46, 9 s
    'test_linalg.py::TestSolve',            # 95, 31, 10 s
]


# ---------------------------------------------------------------------------
# The environment

def site_packages(venv):
    found = glob.glob(os.path.join(venv, 'lib', 'python3*', 'site-packages'))
    return found[0] if found else None


def tests_dir(rt):
    sp = site_packages(os.path.join(rt, VENV))
    d = sp and os.path.join(sp, 'dpnp', 'tests')
    return d if d and os.path.isdir(d) else None


def base_env(rt):
    """The environment in which dpnp sees one device, Intel's CPU runtime
    from rt/dpnp-venv, through Debian's ocl-icd, with no layer; None when
    dpnp or the runtime is not installed there."""
    venv = os.path.join(rt, VENV)
    lib = os.path.join(venv, 'lib')
    so = os.path.join(lib, 'libintelocl.so')
    if not os.path.exists(so) or not tests_dir(rt) or not os.path.exists(OCL_ICD):
        return None
    vendors = os.path.join(rt, 'dpnp-vendors')
    os.makedirs(vendors, exist_ok=True)
    icd = os.path.join(vendors, 'intel-cpu.icd')
    if not os.path.exists(icd) or open(icd).read().strip() != so:
        with open(icd, 'w') as f:
            f.write(so + '\n')
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(('XEOPT_LAYER_', 'SYCL_', 'UR_', 'OCL_ICD_'))
           and k not in ('OPENCL_LAYERS', 'ONEAPI_DEVICE_SELECTOR', 'PYTHONPATH')}
    env.update(OCL_ICD_VENDORS=vendors, ONEAPI_DEVICE_SELECTOR='opencl:cpu',
               # The SYCL runtime's on-disk program cache (off by default)
               # would hand later runs binaries (clCreateProgramWithBinary)
               # the layer never sees.
               SYCL_CACHE_PERSISTENT='0',
               LD_LIBRARY_PATH=lib + (':' + os.environ['LD_LIBRARY_PATH']
                                      if os.environ.get('LD_LIBRARY_PATH') else ''),
               LD_PRELOAD=OCL_ICD + (' ' + os.environ['LD_PRELOAD'] if os.environ.get('LD_PRELOAD') else ''))
    return env


def layer_env(env, layer, cache, log):
    return dict(env, OPENCL_LAYERS=os.path.abspath(layer), XEOPT_LAYER_DEVICES='all',
                XEOPT_LAYER_CACHE=cache, XEOPT_LAYER_LOG=log)


def setup(rt):
    """pip-installs dpnp, dpctl, pytest and the runtime into rt/dpnp-venv
    (the pip cache is rt/pip-cache)."""
    venv = os.path.join(rt, VENV)
    os.makedirs(rt, exist_ok=True)
    if not os.path.exists(os.path.join(venv, 'bin', 'pip')):
        subprocess.run([sys.executable, '-m', 'venv', venv], check=True)
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(rt, 'pip-cache'), PIP_DISABLE_PIP_VERSION_CHECK='1')
    subprocess.run([os.path.join(venv, 'bin', 'pip'), 'install', '-q', *PIP_PACKAGES], check=True, env=env)
    return base_env(rt)


# ---------------------------------------------------------------------------
# One pytest run

class Run:
    """One pytest process: outcomes {test id: passed|failed|skipped},
    wall seconds, the layer's summary (None without the layer), and what
    went wrong (None when pytest finished: exit 0 or 1)."""

    def __init__(self):
        self.outcomes, self.seconds, self.summary, self.error = {}, 0.0, None, None

    def count(self, what):
        return sum(o == what for o in self.outcomes.values())


def pytest_args(rt, tests):
    """tests with each path under dpnp/tests (a file or directory there,
    optionally with ::names) made absolute; options and their values (-k
    EXPR) as given."""
    d = tests_dir(rt)
    return [os.path.normpath(os.path.join(d, a)) if not a.startswith('-')
            and os.path.exists(os.path.join(d, a.split('::')[0])) else a for a in tests]


def read_junit(path):
    """Test ids and outcomes from pytest's JUnit XML: an id is the
    testcase's classname and name; error (a failing fixture) counts as
    failed, xfail and skip as skipped."""
    out = {}
    for tc in ET.parse(path).getroot().iter('testcase'):
        tid = f'{tc.get("classname")}::{tc.get("name")}'
        kinds = {c.tag for c in tc}
        o = 'failed' if kinds & {'failure', 'error'} else 'skipped' if 'skipped' in kinds else 'passed'
        k, base = 2, tid
        while tid in out:          # same id twice (a test and its teardown error)
            tid, k = f'{base}#{k}', k + 1
        out[tid] = o
    return out


def read_summary(log):
    """The layer's summary: XEOPT_LAYER_LOG, and LOG.PID files from other
    processes, numbers summed; None when the layer wrote nothing."""
    files = sorted(glob.glob(glob.escape(log) + '*'))
    total = None
    for f in files:
        try:
            s = json.load(open(f))
        except (OSError, ValueError) as e:
            raise ValueError(f'{f}: not a layer summary: {e}')
        if total is None:
            total = {'files': 0, 'program_list': []}
        total['files'] += 1
        for k, v in s.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                total[k] = total.get(k, 0) + v
            elif isinstance(v, list):
                total.setdefault(k, []).extend(v)
    return total


def run_pytest(rt, env, tests, work, timeout, log=None):
    """Runs dpnp's tests once in env; log is the layer's XEOPT_LAYER_LOG
    when the layer is on."""
    r = Run()
    os.makedirs(work, exist_ok=True)
    xml = os.path.join(work, 'junit.xml')
    out = os.path.join(work, 'pytest.out')
    cmd = [os.path.join(rt, VENV, 'bin', 'python'), '-m', 'pytest', '-p', 'no:cacheprovider', '-q',
           '--junitxml=' + xml, *pytest_args(rt, tests)]
    start = time.monotonic()
    try:
        # The working directory is not dpnp's: its dpnp/random would hide
        # the standard library's random.
        with open(out, 'w') as f:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, cwd=work, timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        rc = None
    r.seconds = time.monotonic() - start
    tail = ' | '.join(open(out, errors='replace').read().strip().splitlines()[-4:])
    if rc is None:
        r.error = f'pytest timed out after {timeout} s: {tail}'
    elif rc not in (0, 1):          # 1: some tests failed; the rest are no test run
        r.error = f'pytest exit {rc}: {tail}'
    elif not os.path.exists(xml):
        r.error = f'pytest wrote no {xml}: {tail}'
    else:
        r.outcomes = read_junit(xml)
    if log:
        try:
            r.summary = read_summary(log)
        except ValueError as e:
            r.error = r.error or str(e)
    return r


# ---------------------------------------------------------------------------
# The comparison

def differences(a, b, limit=20):
    """Lines for the test ids whose outcome differs between runs a and b."""
    lines = []
    for tid in sorted(set(a.outcomes) | set(b.outcomes)):
        x, y = a.outcomes.get(tid, 'absent'), b.outcomes.get(tid, 'absent')
        if x != y:
            lines.append(f'  {tid}: {x} without the layer, {y} with it')
    return lines[:limit] + ([f'  ... {len(lines) - limit} more'] if len(lines) > limit else []), len(lines)


def table(rows):
    """rows: (name, Run).  One line per run: test counts, the layer's
    program counts, wall seconds."""
    head = ('run', 'tests', 'passed', 'failed', 'skipped', 'programs', 'optimized', 'unchanged',
            'prog failed', 'seconds')
    body = []
    for name, r in rows:
        s = r.summary or {}
        g = (lambda k: str(s.get(k, 0))) if r.summary else (lambda k: '-')
        body.append((name, str(len(r.outcomes)), str(r.count('passed')), str(r.count('failed')),
                     str(r.count('skipped')), g('programs'), g('programs_optimized'),
                     g('programs_unchanged'), g('programs_failed'), f'{r.seconds:.1f}'))
    w = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    return '\n'.join('  '.join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(row))
                     for row in [head] + body)


def prepare(args):
    """(runtime dir, environment or an exit status)."""
    require = os.environ.get('XEOPT_REQUIRE_OCLCPU') == '1'
    rt = os.path.abspath(args.runtime)
    env = base_env(rt)
    if args.setup or (env is None and require):
        try:
            env = setup(rt)
        except (subprocess.CalledProcessError, OSError) as e:
            print(f'dpnp_suite.py: installing dpnp into {rt}/{VENV} failed: {e}', file=sys.stderr)
            return rt, 1
    if env is None:
        why = (f'dpnp or Intel\'s CPU runtime not installed in {rt}/{VENV} '
               f'(tests/layer/dpnp_suite.py --setup --runtime {rt})' if os.path.exists(OCL_ICD)
               else f'Debian\'s ICD loader {OCL_ICD} is missing (ocl-icd-libopencl1)')
        if require:
            print(f'dpnp_suite.py: {why}, and XEOPT_REQUIRE_OCLCPU=1', file=sys.stderr)
            return rt, 1
        print(f'dpnp_suite.py: {why}: skipped', file=sys.stderr)
        return rt, SKIP
    return rt, env


def add_common_args(ap):
    ap.add_argument('--runtime', default=os.environ.get('XEOPT_OCLCPU_DIR', 'build/oclcpu'),
                    help='the directory with dpnp in dpnp-venv/ (default $XEOPT_OCLCPU_DIR or build/oclcpu)')
    ap.add_argument('--layer', help='the layer, libxeopt_cl_layer.so')
    ap.add_argument('--full', action='store_true', help="dpnp's whole test suite instead of the subset")
    ap.add_argument('--tests', help='pytest arguments (paths under dpnp/tests, -k ...) instead of the subset')
    ap.add_argument('--keep', action='store_true', help='keep the work directory (junit XML, pytest output, cache)')


def chosen_tests(args):
    return shlex.split(args.tests) if args.tests else ['.'] if args.full else SUBSET


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_args(ap)
    ap.add_argument('--setup', action='store_true', help='pip-install dpnp and the runtime into RUNTIME/dpnp-venv')
    ap.add_argument('--expect-difference', action='store_true',
                    help='exit 0 only if some outcome differs and nothing else failed (the test of the test)')
    ap.add_argument('--timeout', type=int, default=None, help='seconds per pytest run (default 600; --full 86400)')
    ap.add_argument('--layer-env', action='append', default=[], metavar='VAR=VALUE',
                    help='XEOPT_LAYER_VAR=VALUE in the run with the layer (repeatable)')
    args = ap.parse_args()
    rt, env = prepare(args)
    if not isinstance(env, dict):
        return env
    if args.setup and not args.layer:
        return 0
    if not args.layer or not os.path.exists(args.layer):
        ap.error(f'--layer: no layer {args.layer!r}')
    tests = chosen_tests(args)
    timeout = args.timeout or (86400 if args.full else 600)
    work = tempfile.mkdtemp(prefix='xeopt-dpnp-')
    cache, log = os.path.join(work, 'cache'), os.path.join(work, 'layer', 'log.json')
    os.makedirs(cache)
    os.makedirs(os.path.dirname(log))
    base = run_pytest(rt, env, tests, os.path.join(work, 'without'), timeout)
    lenv = layer_env(env, args.layer, cache, log)
    for kv in args.layer_env:
        k, _, v = kv.partition('=')
        lenv['XEOPT_LAYER_' + k] = v
    with_ = run_pytest(rt, lenv, tests, os.path.join(work, 'with'), timeout, log)
    if os.environ.get('XEOPT_DPNP_PLANT') == '1':
        # The test of the test (ctest layer_dpnp_planted): one test that
        # passed under the layer is counted failed.
        tid = next((t for t, o in sorted(with_.outcomes.items()) if o == 'passed'), None)
        if tid:
            with_.outcomes[tid] = 'failed'
    problems, differ = [], 0
    for name, r in (('without the layer', base), ('with the layer', with_)):
        if r.error:
            problems.append(f'run {name}: {r.error}')
    if not base.error and not with_.error:
        lines, differ = differences(base, with_)
        if differ:
            problems.append(f'{differ} tests with another outcome:\n' + '\n'.join(lines))
        s = with_.summary
        if s is None:
            problems.append(f'the layer wrote no summary {log}: not loaded? (OPENCL_LAYERS={args.layer})')
        else:
            if not s.get('programs_optimized'):
                problems.append('the layer optimized no program')
            if s.get('programs_failed'):
                problems.append(f'the layer failed on {s["programs_failed"]} programs')
    print(table([('without layer', base), ('with layer', with_)]))
    if with_.summary:
        s = with_.summary
        print(f'layer: {s.get("seconds_in_xeopt", 0):.2f} s in xeopt, {s.get("seconds_in_driver_build", 0):.2f} s '
              f'in the driver\'s builds, {s.get("cache_hits", 0)} cache hits ({s["files"]} summary files)')
        print(f'layer: {s.get("launches", 0)} launches, {s.get("launches_specialized", 0)} specialized; '
              f'variants {s.get("variants", 0)}, dropped by the driver {s.get("variants_dropped_by_driver", 0)}, '
              f'kept {s.get("variants_kept", 0)}, dropped by the clock {s.get("variants_dropped_by_clock", 0)}')
    for p in problems:
        print('FAIL ' + p)
    if args.keep:
        print(f'dpnp_suite.py: work files in {work}')
    else:
        shutil.rmtree(work, ignore_errors=True)
    if args.expect_difference:
        return 0 if differ and len(problems) == 1 else 1
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
