#!/usr/bin/env python3
"""README.md's promises, checked (issue 32).

  check.py --readme README.md --bench bench/README.md --bin BUILD_DIR [--root SRC]

1. Size: README.md is at most 12 KB (12,000 bytes).
2. Quick start: its first ```sh block holds exactly two commands,
   ./scripts/demo.sh and ./scripts/test.sh; both exist and are executable,
   and .ci/run runs ./scripts/test.sh.  (They install packages and take long,
   so they are not run here.)
3. Command-line examples: every fenced block right after an HTML comment
   `<!-- test: run -->` is run, in order, with bash -e -o pipefail in one
   temporary directory that has links to the source tree's testdata/,
   examples/ and docs/ and `build` -> BUILD_DIR, and BUILD_DIR first on PATH:
   as a user runs them from the clone after a quick-start command.  A block
   marked `<!-- test: run, needs ocloc -->` is skipped when ocloc is not on
   PATH, unless XEOPT_REQUIRE_OCLOC=1.  Any failing command fails the test.
4. Numbers: every "A → B" (or "A -> B") in README.md appears in bench/README.md
   or a note of bench/notes/
   (either arrow).
Exit status 0 pass, 1 fail, 77 nothing failed but a block was skipped.
"""
import argparse, glob, os, re, shutil, subprocess, sys, tempfile

def blocks(text):
    """(marker or None, info string, body) for every fenced block."""
    out, lines, i, marker = [], text.split('\n'), 0, None
    while i < len(lines):
        line = lines[i]
        m = re.match(r'\s*<!--\s*test:\s*(.*?)\s*-->\s*$', line)
        if m:
            marker = m.group(1)
        elif line.startswith('```'):
            info, body, i = line[3:].strip(), [], i + 1
            while i < len(lines) and not lines[i].startswith('```'):
                body.append(lines[i]); i += 1
            out.append((marker, info, '\n'.join(body) + '\n'))
            marker = None
        elif line.strip():
            marker = None
        i += 1
    return out

def commands(body):
    """Shell commands of a block: continuation lines joined, comments dropped."""
    cmds, cur = [], ''
    for line in body.split('\n'):
        cur += line
        if cur.endswith('\\'):
            cur = cur[:-1]; continue
        c = re.sub(r'\s+#.*$', '', cur).strip()
        if c and not c.startswith('#'):
            cmds.append(c)
        cur = ''
    return cmds

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--readme', required=True)
    ap.add_argument('--bench')
    ap.add_argument('--bin', required=True)
    ap.add_argument('--root', help='source tree (default: README.md\'s directory)')
    ap.add_argument('--max-bytes', type=int, default=12000)
    a = ap.parse_args()
    root = os.path.abspath(a.root or os.path.dirname(os.path.abspath(a.readme)))
    text = open(a.readme, encoding='utf-8').read()
    fails, skipped = [], 0

    size = len(text.encode('utf-8'))
    print(f'README size: {size} bytes (limit {a.max_bytes})')
    if size > a.max_bytes:
        fails.append(f'README is {size} bytes, more than {a.max_bytes}')

    bl = blocks(text)
    qs = next((b for b in bl if b[1] == 'sh'), None)
    qcmds = commands(qs[2]) if qs else []
    want = ['./scripts/demo.sh', './scripts/test.sh']
    if qcmds != want:
        fails.append(f'quick start: the first sh block should be exactly {want}, is {qcmds}')
    for c in want:
        p = os.path.join(root, c)
        if not (os.path.isfile(p) and os.access(p, os.X_OK)):
            fails.append(f'quick start: {c} is not an executable file in {root}')
    ci = os.path.join(root, '.ci', 'run')
    if not os.path.isfile(ci) or not re.search(r'^\s*\./scripts/test\.sh\s*$',
                                               open(ci).read(), re.M):
        fails.append('.ci/run does not run ./scripts/test.sh')

    run = [b for b in bl if b[0] and b[0].startswith('run')]
    if not run:
        fails.append('no block marked <!-- test: run -->')
    tmp = tempfile.mkdtemp(prefix='xeopt-readme-')
    for d in ('testdata', 'examples', 'docs'):
        if os.path.isdir(os.path.join(root, d)):
            os.symlink(os.path.join(root, d), os.path.join(tmp, d))
    os.symlink(os.path.abspath(a.bin), os.path.join(tmp, 'build'))
    env = dict(os.environ, PATH=os.path.abspath(a.bin) + os.pathsep + os.environ.get('PATH', ''))
    for n, (marker, info, body) in enumerate(run, 1):
        if 'needs ocloc' in marker and not shutil.which('ocloc', path=env['PATH']):
            if os.environ.get('XEOPT_REQUIRE_OCLOC') == '1':
                fails.append(f'block {n}: needs ocloc, which is missing (XEOPT_REQUIRE_OCLOC=1)')
            else:
                print(f'block {n}: skipped (no ocloc)'); skipped += 1
            continue
        print(f'--- block {n} ({marker})\n{body}', end='', flush=True)
        r = subprocess.run(['bash', '-e', '-o', 'pipefail', '-x', '-c', body],
                           cwd=tmp, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        print(r.stdout[-6000:])
        if r.returncode != 0:
            fails.append(f'block {n}: exit {r.returncode} (the last "+" line above failed)')
    shutil.rmtree(tmp, ignore_errors=True)

    if a.bench:
        norm = lambda t: re.sub(r'\s+', ' ', t.replace('->', '→'))
        # bench/README.md is an index: the measurements are in the notes it links.
        notes = sorted(glob.glob(os.path.join(os.path.dirname(a.bench), 'notes', '*.md')))
        bench = norm(' '.join(open(f, encoding='utf-8').read() for f in [a.bench] + notes))
        for m in sorted(set(re.findall(r'\d[\d,.]* → \d[\d,.]*', norm(text)))):
            if m not in bench:
                fails.append(f'"{m}" is in README.md but not in bench/README.md or bench/notes/')

    for f in fails:
        print('FAIL:', f)
    if fails:
        return 1
    print('PASS' + (f' ({skipped} block(s) skipped)' if skipped else ''))
    return 77 if skipped else 0

if __name__ == '__main__':
    sys.exit(main())
