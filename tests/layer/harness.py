#!/usr/bin/env python3
"""The OpenCL layer's application tests (docs/layer.md): results with the layer equal results without it.

tests/layer/harness.c (built as layer-harness) is the application: it runs
one launch per job, each job its own program, from IL (every testdata/spv
kernel) or from source (the same kernels' testdata/kernels/*.cl), on
Intel's CPU runtime under Debian's ocl-icd (tests/oclcpu/compare.py
installs the runtime).  This driver runs it without the layer, then with
it under each scenario, and compares every job's status and every buffer
byte for byte, and what the layer's summary (XEOPT_LAYER_LOG) says:

  layer        8 threads, a new cache: every IL and source program given
               to xeopt (none passed through), programs_failed 0, some
               programs optimized
  warm         the same cache again: every xeopt run is a cache hit
  corrupt      every cache entry damaged: recomputed, no failure
  unwritable   a cache directory that cannot be made: no cache, no failure;
               and XEOPT_LAYER_REPORT's page has a section per program
  fault-*      XEOPT_LAYER_TEST_FAULT: xeopt fails, the driver refuses the
               output, the shadow build fails, the front end refuses: the
               application's own programs run, the summary counts them
  rejected     source built with an option the front end refuses and the
               driver accepts: the application's program, as asked
  always       XEOPT_LAYER_SPECIALIZE=always (and --target=dg2, so that the
               promises enable rewrites on this CPU device): every launch
               whose facts allow a variant runs one; same results, some
               launches specialized
  facts        kernels launched again with the same facts, then with a
               changed local size or a changed specialized value (mode 1):
               the changed launch runs the base, as the log shows
  facts-svm    the same with SVM buffers, the next launch's pointers moved 4
               bytes (another alignment class): the base
  slow-variant XEOPT_LAYER_TEST_FAULT=slow-variant: the clock sees the variant
               slower, and drops it
  slow-base    the clock sees the base slower: the variant is kept; a second
               run (remembered, no hook) starts with it, from the cache
  spill-variant, variant-build, variant-xeopt   (always mode) the driver
               judge sees more spills, the variant's build fails, xeopt
               fails on the promises: every launch runs the base, same results

  harness.py --harness BIN --layer LIB --runtime DIR --testdata DIR [--only NAMES]

Exit status: 0 all agree; 1 a difference or a wrong summary; 77 the runtime
or the harness is missing (a failure when XEOPT_REQUIRE_OCLCPU=1).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, '..', 'oclcpu'))
sys.path.insert(0, os.path.join(HERE, '..', 'oclgrind'))
import compare as og  # noqa: E402  (tests/oclgrind/compare.py)
oc = __import__('importlib').util.spec_from_file_location('oclcpu', os.path.join(HERE, '..', 'oclcpu', 'compare.py'))
oclcpu = __import__('importlib').util.module_from_spec(oc)
oc.loader.exec_module(oclcpu)

SKIP = 77
OCL_ICD = '/usr/lib/x86_64-linux-gnu/libOpenCL.so.1'
# An option Intel's CPU runtime accepts and clang -cc1 (the front end the
# layer uses for a CPU device) refuses.
REJECTED_OPTION = '-cl-no-subgroup-ifp'


def jobs_for(testdata, only):
    """IL jobs for every testdata/spv kernel the CPU harness can run, and a
    source job for each whose .cl compiles as OpenCL C 2.0 on its own."""
    cfg = json.load(open(oclcpu.SUITE_FILE))
    ogcfg = json.load(open(og.SUITE_FILE))
    jobs = []
    for path in sorted(glob.glob(os.path.join(testdata, 'spv', '*.spv'))):
        name = os.path.basename(path)[:-4]
        if only and name not in only:
            continue
        mod = og.Module(path)
        if mod.uses_images:
            continue
        src = os.path.join(testdata, 'kernels', name + '.cl')
        for kname in sorted(mod.kernels):
            key = f'{name}:{kname}'
            if cfg['skip'].get(key) or cfg['skip'].get(name) or key in cfg.get('known', {}) or name in cfg.get('known', {}):
                continue
            over = ogcfg.get('launches', {}).get(key) or ogcfg.get('launches', {}).get(name) or \
                cfg.get('launches', {}).get(key) or cfg.get('launches', {}).get(name)
            k = mod.kernels[kname]
            try:
                launch = og.default_launch(k, over)
            except og.Unsupported:
                continue
            byval = [i for i, p in enumerate(k.params) if p.kind == 'byval']
            jobs.append({'name': f'{key} (IL)', 'module': path, 'kernel': kname, 'launch': launch,
                         'seed': 1, 'byval': byval})
            if os.path.exists(src):
                jobs.append({'name': f'{key} (source)', 'source': src, 'options': '-cl-std=CL2.0',
                             'kernel': kname, 'launch': launch, 'seed': 1, 'byval': byval})
    return jobs


def run(ctx, tag, jobs, threads, layer_env):
    work = os.path.join(ctx.work, tag)
    os.makedirs(work)
    jf = os.path.join(work, 'jobs.json')
    with open(jf, 'w') as f:
        json.dump(jobs, f)
    env = dict(ctx.env)
    env['LD_PRELOAD'] = OCL_ICD    # the wheel's own loader does not load layers
    log = os.path.join(work, 'summary.json')
    if layer_env is not None:
        env.update({'OPENCL_LAYERS': ctx.layer, 'XEOPT_LAYER_DEVICES': 'all',
                    'XEOPT_LAYER_LOG': log, 'XEOPT_LAYER_CACHE': os.path.join(ctx.work, 'cache')})
        env.update(layer_env)
    t0 = time.time()
    p = subprocess.run([ctx.harness, jf, os.path.join(work, 'out'), '--threads', str(threads)],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1200)
    seconds = time.time() - t0
    if p.returncode:
        raise RuntimeError(f'{tag}: layer-harness exit {p.returncode}: {p.stderr.decode()[-800:]}')
    summary = json.load(open(log)) if layer_env is not None else None
    if layer_env is not None and not os.path.exists(log):
        raise RuntimeError(f'{tag}: no summary at {log}')
    return os.path.join(work, 'out'), summary, seconds


def differences(jobs, base, got):
    out = []
    for i, job in enumerate(jobs):
        a, b = os.path.join(base, str(i)), os.path.join(got, str(i))
        names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
        for n in names:
            pa, pb = os.path.join(a, n), os.path.join(b, n)
            if not (os.path.exists(pa) and os.path.exists(pb)):
                out.append(f'{job["name"]}: {n} only in one run')
            elif open(pa, 'rb').read() != open(pb, 'rb').read():
                out.append(f'{job["name"]}: {n} differs' + (
                    f' ({open(pa).read().strip()} / {open(pb).read().strip()})' if n == 'status.txt' else ''))
    return out


def by_origin(summary, result):
    c = {'il': 0, 'source': 0}
    for p in summary['program_list']:
        if p['result'] == result:
            c[p['origin']] += 1
    return c


def damage_cache(cache):
    n = 0
    for f in glob.glob(os.path.join(cache, '*')):
        data = bytearray(open(f, 'rb').read())
        if len(data) > 80:
            data[len(data) // 2] ^= 0x5a     # the checksum no longer holds
        else:
            data = data[:len(data) // 2]
        open(f, 'wb').write(bytes(data))
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--harness', required=True)
    ap.add_argument('--layer', required=True)
    ap.add_argument('--runtime', required=True)
    ap.add_argument('--testdata', required=True)
    ap.add_argument('--only', help='comma-separated testdata module names')
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()
    require = os.environ.get('XEOPT_REQUIRE_OCLCPU') == '1'
    rt = os.path.abspath(args.runtime)
    env = oclcpu.runtime_env(rt)
    if env is None and require:
        env = oclcpu.setup(rt)
    if env is None or not os.path.exists(args.harness) or not os.path.exists(OCL_ICD):
        msg = 'Intel CPU runtime, layer-harness or ocl-icd missing'
        print(f'harness.py: {msg}' + (' and XEOPT_REQUIRE_OCLCPU=1' if require else ': skipped'),
              file=sys.stderr)
        return 1 if require else SKIP

    class Ctx:
        pass
    ctx = Ctx()
    ctx.env, ctx.harness, ctx.layer = env, os.path.abspath(args.harness), os.path.abspath(args.layer)
    ctx.work = tempfile.mkdtemp(prefix='xeopt-layer-')
    only = set(args.only.split(',')) if args.only else None
    jobs = jobs_for(args.testdata, only)
    # The fault scenarios run a sample: one job in four.
    sample = jobs[::4]
    errors = []

    def check(cond, what):
        if not cond:
            errors.append(what)

    rows = []
    base, _, t_base = run(ctx, 'base', jobs, 1, None)
    base_sample, _, _ = run(ctx, 'base-sample', sample, 1, None)
    ok_jobs = sum(open(os.path.join(base, str(i), 'status.txt')).read() == 'ok\n' for i in range(len(jobs)))
    check(ok_jobs >= len(jobs) * 9 // 10, f'base: only {ok_jobs} of {len(jobs)} jobs ran')

    scenarios = [
        ('layer', jobs, 8, {}),
        ('warm', sample, 2, {}),
        ('corrupt', sample, 1, {}),
        ('unwritable', sample, 2, {'XEOPT_LAYER_CACHE': os.path.join(ctx.work, 'file', 'cache'),
                                   'XEOPT_LAYER_REPORT': os.path.join(ctx.work, 'report.html')}),
        ('fault-xeopt', sample, 2, {'XEOPT_LAYER_TEST_FAULT': 'xeopt'}),
        ('fault-driver', sample, 2, {'XEOPT_LAYER_TEST_FAULT': 'driver'}),
        ('fault-build', sample, 2, {'XEOPT_LAYER_TEST_FAULT': 'build'}),
        ('fault-frontend', sample, 2, {'XEOPT_LAYER_TEST_FAULT': 'frontend'}),
        ('rejected', [dict(j, options=j.get('options', '') + ' ' + REJECTED_OPTION) if 'source' in j else j
                      for j in sample], 2, {}),
    ]
    open(os.path.join(ctx.work, 'file'), 'w').close()   # makes file/cache impossible, even for root
    base_rejected = None
    for tag, js, threads, extra in scenarios:
        damaged = damage_cache(os.path.join(ctx.work, 'cache')) if tag == 'corrupt' else 0
        ref = base if js is jobs else base_sample
        if tag == 'rejected':
            ref, _, _ = run(ctx, 'base-rejected', js, 1, None)
            base_rejected = ref
        out, s, secs = run(ctx, tag, js, threads, extra)
        d = differences(js, ref, out)
        for line in d[:20]:
            errors.append(f'{tag}: {line}')
        if len(d) > 20:
            errors.append(f'{tag}: ... {len(d) - 20} more differences')
        opt, failed = by_origin(s, 'optimized'), s['programs_failed']
        rows.append((tag, len(js), len(d), s['programs'], s['programs_optimized'], s['programs_unchanged'],
                     s['programs_failed'], s['programs_passed_through'], s['cache_hits'], secs))
        if tag in ('layer', 'warm', 'corrupt', 'unwritable'):
            check(failed == 0, f'{tag}: programs_failed {failed}: ' + '; '.join(
                f'{p["id"]}: {p["reason"]}' for p in s['program_list'] if p['result'] == 'failed')[:600])
            check(opt['il'] > 0 and opt['source'] > 0, f'{tag}: optimized programs by origin {opt}')
            check(s['programs'] == len(js), f'{tag}: {s["programs"]} programs seen, {len(js)} created')
        if tag == 'layer':
            passed = [f'{p["id"]} ({p["origin"]}): {p["reason"]}' for p in s['program_list']
                      if p['result'] == 'passed_through']
            check(not passed, 'layer: programs not given to xeopt: ' + '; '.join(passed)[:600])
        if tag == 'warm':
            misses = [p['id'] for p in s['program_list'] if p['cache'] == 'miss']
            check(not misses, f'warm: cache misses for programs {misses[:10]}')
        if tag == 'corrupt':
            # One thread: the first program with each key must have
            # missed (its entry was damaged); later ones hit the rewrite.
            seen, hit_damaged = set(), []
            for p in s['program_list']:
                if p['hash'] and p['hash'] not in seen and p['cache'] == 'hit':
                    hit_damaged.append(p['id'])
                seen.add(p['hash'])
            check(damaged > 0 and not hit_damaged, f'corrupt: {damaged} entries damaged, damaged ones hit: {hit_damaged[:10]}')
        if tag == 'unwritable':
            check(s['cache_hits'] == 0, 'unwritable: cache hits without a cache')
            # XEOPT_LAYER_REPORT: one section per program, each with xeopt's page body
            page = open(os.path.join(ctx.work, 'report.html')).read()
            check(page.count('<section id="program-') == s['programs'] and
                  page.count('xeopt report:') >= s['programs_optimized'] + s['programs_unchanged'],
                  f'unwritable: the report has {page.count("<section")} sections for {s["programs"]} programs')
        if tag in ('fault-xeopt', 'fault-driver', 'fault-build'):
            check(s['programs_optimized'] == 0 and failed > 0, f'{tag}: optimized {s["programs_optimized"]}, failed {failed}')
        if tag == 'fault-frontend':
            check(by_origin(s, 'passed_through')['source'] == sum('source' in j for j in js),
                  f'fault-frontend: source programs passed through {by_origin(s, "passed_through")}')
        if tag == 'rejected':
            check(by_origin(s, 'passed_through')['source'] == sum('source' in j for j in js) and failed == 0,
                  f'rejected: source programs passed through {by_origin(s, "passed_through")}, failed {failed}')
    # ---- launch facts and variants (docs/layer.md) ----
    def key_of(s, kernel, part):
        out = []
        for k in s.get('kernel_list', []):
            if k['kernel'] == kernel:
                out += [e for e in k['keys'] if part in e['key']]
        return out

    def facts_run(tag, js, extra, ref_jobs=None):
        ref, _, _ = run(ctx, 'base-' + tag, ref_jobs or js, 1, None)
        out, s, secs = run(ctx, tag, js, 1, extra)
        d = differences(js, ref, out)
        for line in d[:20]:
            errors.append(f'{tag}: {line}')
        rows.append((tag, len(js), len(d), s['programs'], s['programs_optimized'], s['programs_unchanged'],
                     s['programs_failed'], s['programs_passed_through'], s['cache_hits'], secs))
        frows.append((tag, s['launches'], s['launches_specialized'], s['variants'],
                      s['variants_dropped_by_driver'], s['variants_kept'], s['variants_dropped_by_clock']))
        return s

    frows = []
    dg2 = {'XEOPT_LAYER_OPTIONS': '-O2 --target=dg2'}
    out, s, secs = run(ctx, 'always', jobs, 2, dict(dg2, XEOPT_LAYER_SPECIALIZE='always', XEOPT_LAYER_VARIANTS='4,100000'))
    d = differences(jobs, base, out)
    for line in d[:20]:
        errors.append(f'always: {line}')
    rows.append(('always', len(jobs), len(d), s['programs'], s['programs_optimized'], s['programs_unchanged'],
                 s['programs_failed'], s['programs_passed_through'], s['cache_hits'], secs))
    frows.append(('always', s['launches'], s['launches_specialized'], s['variants'],
                  s['variants_dropped_by_driver'], s['variants_kept'], s['variants_dropped_by_clock']))
    check(s['launches_specialized'] > 0 and s['programs_failed'] == 0,
          f'always: {s["launches_specialized"]} launches specialized, {s["programs_failed"]} programs failed')
    bad = [f'{k["kernel"]} {e["key"]}: {e["reason"]}' for k in s['kernel_list'] for e in k['keys']
           if e['state'] == 'failed']
    check(not bad, 'always: variants failed: ' + '; '.join(bad)[:600])

    def job(name, again):
        for j in jobs:
            if j['name'] == name:
                return dict(j, again=again)
        return None

    sg, trip, vadd = 'sg_copy:sg_copy (IL)', 'loop_arg_trip:loop_arg_trip (IL)', 'vector_add:vector_add (IL)'
    # (harness.c links jobs 1, 5, ...: programs the layer does not stand behind)
    fj = [x for x in (job(sg, [{}, {}, {'local': [64]}]), job(vadd, []),
                      job(trip, [{}, {}, {}, {'args': {'2': 60}}])) if x]
    if len(fj) == 3:
        s = facts_run('facts', fj, dict(dg2, XEOPT_LAYER_SAMPLES='50',
                                        XEOPT_LAYER_CACHE=os.path.join(ctx.work, 'cache-facts')))
        same, changed = key_of(s, 'sg_copy', 'local=32,'), key_of(s, 'sg_copy', 'local=64,')
        check(same and same[0]['launches'] == 3 and same[0]['launches_specialized'] >= 1 and
              changed and changed[0]['launches'] == 1 and changed[0]['launches_specialized'] == 0,
              f'facts: sg_copy keys {same} {changed}')
        spec, other = key_of(s, 'loop_arg_trip', 'arg2=61'), key_of(s, 'loop_arg_trip', 'arg2=60')
        plain = [e for e in key_of(s, 'loop_arg_trip', '') if 'arg2=' not in e['key']]
        check(spec and spec[0]['launches'] == 3 and spec[0]['launches_specialized'] >= 1 and not other and
              plain and sum(e['launches_specialized'] for e in plain) == 0,
              f'facts: loop_arg_trip keys {key_of(s, "loop_arg_trip", "")}')
        # an SVM pointer moved 4 bytes: another alignment class, the base
        aj = [x for x in (job(sg, [{}, {'svm_offset': 4}]),) if x]
        if aj:
            aj[0]['svm'] = True
            s = facts_run('facts-svm', aj, dict(dg2, XEOPT_LAYER_SAMPLES='50',
                                                XEOPT_LAYER_CACHE=os.path.join(ctx.work, 'cache-facts')))
            aligned, moved = key_of(s, 'sg_copy', 'align=16,16'), key_of(s, 'sg_copy', 'align=4,4')
            check(aligned and aligned[0]['launches'] == 2 and aligned[0]['launches_specialized'] == 1 and
                  moved and moved[0]['launches'] == 1 and moved[0]['launches_specialized'] == 0,
                  f'facts-svm: sg_copy keys {key_of(s, "sg_copy", "")}')
    else:
        errors.append(f'facts: jobs {sg} and {trip} missing')
    n = 5
    cj = [x for x in (job(sg, [{}] * (4 * n)), job(vadd, []), job(vadd, [{}] * (4 * n))) if x]
    clock = {'XEOPT_LAYER_SAMPLES': str(n)}
    s = facts_run('slow-variant', cj, dict(dg2, **clock, XEOPT_LAYER_TEST_FAULT='slow-variant',
                                           XEOPT_LAYER_CACHE=os.path.join(ctx.work, 'cache-slow-variant')))
    check(s['variants'] > 0 and s['variants_dropped_by_clock'] == s['variants'] and s['variants_kept'] == 0,
          f'slow-variant: variants {s["variants"]}, dropped by the clock {s["variants_dropped_by_clock"]}')
    cache = os.path.join(ctx.work, 'cache-slow-base')
    s = facts_run('slow-base', cj, dict(dg2, **clock, XEOPT_LAYER_TEST_FAULT='slow-base', XEOPT_LAYER_CACHE=cache))
    check(s['variants'] > 0 and s['variants_kept'] == s['variants'] and s['variants_dropped_by_clock'] == 0,
          f'slow-base: variants {s["variants"]}, kept {s["variants_kept"]}')
    for fault, what in (('spill-variant', 'dropped_by_driver'), ('variant-build', 'failed'),
                        ('variant-xeopt', 'failed')):
        s = facts_run(fault, cj, dict(dg2, XEOPT_LAYER_SPECIALIZE='always', XEOPT_LAYER_TEST_FAULT=fault,
                                      XEOPT_LAYER_CACHE=os.path.join(ctx.work, 'cache-' + fault)))
        states = [e['state'] for k in s['kernel_list'] for e in k['keys']]
        check(s['launches_specialized'] == 0 and what in states and
              set(states) <= {what, 'no_change', 'base'},
              f'{fault}: {s["launches_specialized"]} launches specialized, key states {states}')
    s = facts_run('remembered', cj, dict(dg2, **clock, XEOPT_LAYER_CACHE=cache))
    keys = [e for k in s['kernel_list'] for e in k['keys'] if e['state'] != 'no_change']
    check(keys and all(e['state'] == 'kept' and e['decided_by'] == 'remembered' and
                       e['launches_specialized'] == e['launches'] for e in keys),
          f'remembered: keys {keys}'[:800])

    print(f'{"scenario":<15} {"jobs":>5} {"diff":>5} {"progs":>6} {"optim":>6} {"unchg":>6} {"fail":>5} '
          f'{"passed":>6} {"hits":>5} {"seconds":>8}')
    print(f'{"no layer":<15} {len(jobs):>5} {"":>5} {"":>6} {"":>6} {"":>6} {"":>5} {"":>6} {"":>5} {t_base:>8.1f}')
    for r in rows:
        print(f'{r[0]:<15} {r[1]:>5} {r[2]:>5} {r[3]:>6} {r[4]:>6} {r[5]:>6} {r[6]:>5} {r[7]:>6} {r[8]:>5} {r[9]:>8.1f}')
    print(f'\n{"variants":<15} {"launches":>8} {"special":>8} {"made":>5} {"driver":>6} {"kept":>5} {"clock":>5}')
    for r in frows:
        print(f'{r[0]:<15} {r[1]:>8} {r[2]:>8} {r[3]:>5} {r[4]:>6} {r[5]:>5} {r[6]:>5}')
    for e in errors:
        print('FAIL ' + e)
    if not args.keep:
        shutil.rmtree(ctx.work, ignore_errors=True)
    else:
        print(f'files: {ctx.work}')
    print(f'harness.py: {len(jobs)} jobs, {len(scenarios) + 9} scenarios, {len(errors)} failures')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
