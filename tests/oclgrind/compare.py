#!/usr/bin/env python3
"""Run SPIR-V kernels on xeopt's interpreter and on Oclgrind, compare buffers.

Oclgrind (an OpenCL device simulator built on LLVM 14) is a second, independent
reading of the same kernel: the module goes back to LLVM IR with
`llvm-spirv-14 -r`, Oclgrind's `oclgrind-kernel` runs it from a generated .sim
file, and every buffer it dumps must equal, byte for byte, what `xeopt run
--dump` writes for the same launch.  See docs/oclgrind.md.

Launches use `xeopt run`'s JSON format ({"global", "local", "args": [
"buf:TYPE:COUNT:FILL", "TYPE:VALUE", "local:BYTES"]}).  The buffer contents
for Oclgrind are materialized here exactly as `xeopt run` does (splitmix64
seeded with seed * 7919 + argument index, src/exec/launch.c); every buffer,
read-only ones included, is compared, so a drift between the two generators
shows up as a difference, never as a silent pass.

Two modes:
  compare.py [options] MODULE.spv [--kernel K] [--launch L.json]
      one module by hand: every kernel (or K), default or given launch.
  compare.py [options] --suite TESTDATA_DIR
      the ctest entry: every testdata module without sub-group operations,
      as given and after the xeopt pipeline (all passes but block-io and
      subgroup-versioning, every rewrite made without asking the cost
      model, and with the opt-ins the golden cases use).
Exit status: 0 all agree; 1 a difference or a failure; 77 the tools are
missing (a failure instead when XEOPT_REQUIRE_OCLGRIND=1).
"""

import argparse
import concurrent.futures
import functools
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

SKIP = 77

# ---------------------------------------------------------------------------
# SPIR-V facts (binary module, no disassembler needed)

OP_NAME, OP_EXT_INST_IMPORT, OP_EXT_INST = 5, 11, 12
OP_ENTRY_POINT, OP_EXECUTION_MODE, OP_EXECUTION_MODE_ID = 15, 16, 331
OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR = 21, 22, 23
OP_TYPE_ARRAY, OP_TYPE_STRUCT, OP_TYPE_POINTER = 28, 30, 32
OP_CONSTANT, OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_FUNCTION_END = 43, 54, 55, 56
OP_FUNCTION_CALL, OP_DECORATE, OP_CONTROL_BARRIER = 57, 71, 224
EM_LOCAL_SIZE, EM_SUBGROUP_SIZE = 17, 35
# OpTypeImage, OpTypeSampler, OpTypeSampledImage: oclgrind-kernel's .sim
# format has no image or sampler arguments (its parser allocates every
# memory argument as a plain buffer; images need the runtime's
# clCreateImage), so modules with images are skipped (docs/oclgrind.md).
IMAGE_TYPE_OPS = {25, 26, 27}
SC_WORKGROUP, SC_FUNCTION = 4, 7
DEC_BUILTIN = 11
SCOPE_SUBGROUP = 3
# BuiltIns that only exist for sub-groups: SubgroupSize, SubgroupMaxSize,
# NumSubgroups, NumEnqueuedSubgroups, SubgroupId, SubgroupLocalInvocationId,
# Subgroup{Eq,Ge,Gt,Le,Lt}Mask.
SUBGROUP_BUILTINS = {36, 37, 38, 39, 40, 41, 4416, 4417, 4418, 4419, 4420}
# OpGroup* / OpGroupNonUniform* take an execution scope as their first
# operand after the result: they are sub-group operations when it is Subgroup.
# (OpGroupAsyncCopy, OpGroupWaitEvents, OpGroupAll..OpGroupSMax,
# OpGroupNonUniform*, OpGroup*KHR of SPV_KHR_uniform_group_instructions.)
GROUP_OPS = set(range(259, 271)) | set(range(333, 367)) | set(range(6401, 6409))
# Operations that are sub-group operations whatever their operands:
# SPV_KHR_shader_ballot / subgroup_vote and SPV_INTEL_subgroups.
SUBGROUP_OPS = set(range(4421, 4433)) | set(range(5571, 5582))
# OpenCL.std instructions whose result OpenCL allows to be inexact (ULP
# bounds in the OpenCL C spec, section 7.4): the two libms may differ there.
# Everything else (integer ops, fabs, floor, fma, fmin, ldexp, ...) and the
# core arithmetic must agree bit for bit.
INEXACT_OPENCL_STD = (set(range(0, 12)) | set(range(14, 23)) | {32, 35, 36} |
                      set(range(37, 41)) | {42, 48, 49, 50, 54, 56} |
                      set(range(57, 66)) | set(range(67, 94)))
# The tolerance for float results of those, in units in the last place.  The
# OpenCL full-profile bounds are 2-16 ulp per function; 4 ulp is what two
# good libms (glibc's and LLVM/Oclgrind's) stay within on the data used here.
ULP_TOLERANCE = int(os.environ.get("XEOPT_OCLGRIND_ULP", "4"))

TYPE_NAMES = {('i', 8): 'char', ('i', 16): 'short', ('i', 32): 'int', ('i', 64): 'long',
              ('f', 16): 'half', ('f', 32): 'float', ('f', 64): 'double'}


def _string(words):
    b = b''.join(struct.pack('<I', w) for w in words)
    return b[:b.index(b'\0')].decode()


class Param:
    """A kernel parameter: kind 'buffer', 'local', 'scalar' or 'image' (an image or
    sampler: the module is skipped); for buffers
    and scalars `type` (an xeopt run type name) and `per` (scalars of that
    type per pointee, e.g. 4 for float4), or type None when it is not a
    plain scalar/vector (struct by value, pointer to struct...) and `size`
    its byte size."""

    def __init__(self, kind, type_name, per, size):
        # kind 'byval': a struct passed by value, given as bytes.
        self.kind, self.type, self.per, self.size = kind, type_name, per, size


class Kernel:
    def __init__(self, name):
        self.name = name
        self.params = []
        self.local_size = None
        self.subgroup_size = None


class Module:
    """What the driver needs to know about a SPIR-V module."""

    def __init__(self, path):
        data = open(path, 'rb').read()
        if len(data) < 20 or len(data) % 4:
            raise ValueError(f'{path}: not a SPIR-V module')
        words = struct.unpack(f'<{len(data) // 4}I', data)
        if words[0] != 0x07230203:
            raise ValueError(f'{path}: not a little-endian SPIR-V module')
        self.kernels = {}
        self.subgroup_reasons = set()
        self.uses_images = False
        self.inexact_math = set()
        types, consts, names = {}, {}, {}
        entry = {}          # function id -> kernel name
        fn_params = {}      # function id -> [type ids]
        modes = []
        builtin = {}
        ext_sets = {}
        cur_fn = None
        i = 5
        while i < len(words):
            n, op = words[i] >> 16, words[i] & 0xffff
            if n == 0:
                raise ValueError(f'{path}: bad instruction at word {i}')
            ins = words[i:i + n]
            i += n
            if op == OP_NAME:
                names[ins[1]] = _string(ins[2:])
            elif op in IMAGE_TYPE_OPS:
                self.uses_images = True
                types[ins[1]] = ('img',)
            elif op == OP_EXT_INST_IMPORT:
                ext_sets[ins[1]] = _string(ins[2:])
            elif op == OP_EXT_INST:
                if ext_sets.get(ins[3]) == 'OpenCL.std' and ins[4] in INEXACT_OPENCL_STD:
                    self.inexact_math.add(ins[4])
            elif op == OP_ENTRY_POINT:
                entry[ins[2]] = _string(ins[3:])
            elif op in (OP_EXECUTION_MODE, OP_EXECUTION_MODE_ID):
                modes.append(ins[1:])
            elif op == OP_TYPE_INT:
                types[ins[1]] = ('i', ins[2])
            elif op == OP_TYPE_FLOAT:
                types[ins[1]] = ('f', ins[2])
            elif op == OP_TYPE_VECTOR:
                types[ins[1]] = ('v', ins[2], ins[3])
            elif op == OP_TYPE_ARRAY:
                types[ins[1]] = ('a', ins[2], ins[3])
            elif op == OP_TYPE_STRUCT:
                types[ins[1]] = ('s', list(ins[2:]))
            elif op == OP_TYPE_POINTER:
                types[ins[1]] = ('p', ins[2], ins[3])
            elif op == OP_CONSTANT:
                consts[ins[2]] = ins[3] | ((ins[4] << 32) if n > 4 else 0)
            elif op == OP_FUNCTION:
                cur_fn = ins[2]
                fn_params[cur_fn] = []
            elif op == OP_FUNCTION_PARAMETER:
                fn_params[cur_fn].append(ins[1])
            elif op == OP_FUNCTION_END:
                cur_fn = None
            elif op == OP_DECORATE and ins[2] == DEC_BUILTIN:
                builtin[ins[1]] = ins[3]
                if ins[3] in SUBGROUP_BUILTINS:
                    self.subgroup_reasons.add(f'BuiltIn {ins[3]}')
            elif op in SUBGROUP_OPS:
                self.subgroup_reasons.add(f'Op {op}')
            elif op in GROUP_OPS and n > 3 and consts.get(ins[3]) == SCOPE_SUBGROUP:
                self.subgroup_reasons.add(f'Op {op} with Subgroup scope')
            elif op == OP_CONTROL_BARRIER and consts.get(ins[1]) == SCOPE_SUBGROUP:
                self.subgroup_reasons.add('OpControlBarrier with Subgroup scope')

        def size_of(t):
            d = types.get(t)
            if d is None:
                return None
            if d[0] in 'if':
                return max(d[1] // 8, 1)
            if d[0] == 'v':
                s = size_of(d[1])
                return s and s * (4 if d[2] == 3 else d[2])
            if d[0] == 'a':
                s = size_of(d[1])
                return s and s * consts.get(d[2], 0)
            if d[0] == 'p':
                return 8
            if d[0] == 's':
                # OpenCL C layout: members at their natural alignment.
                off, al = 0, 1
                for m in d[1]:
                    s, a = size_of(m), align_of(m)
                    if s is None:
                        return None
                    off = (off + a - 1) // a * a + s
                    al = max(al, a)
                return (off + al - 1) // al * al
            return None

        def align_of(t):
            d = types.get(t)
            if d[0] == 'a':
                return align_of(d[1])
            if d[0] == 's':
                return max([align_of(m) for m in d[1]] or [1])
            return size_of(t)

        def scalar(t):
            """(type name, scalars per value) of a scalar or vector type."""
            d = types.get(t)
            if d is None:
                return None, 0
            if d[0] in 'if':
                return TYPE_NAMES.get((d[0], d[1])), 1
            if d[0] == 'v':
                name, _ = scalar(d[1])
                return name, (4 if d[2] == 3 else d[2])
            return None, 0

        for fn, name in entry.items():
            k = Kernel(name)
            for t in fn_params.get(fn, []):
                d = types[t]
                if d[0] == 'img':
                    k.params.append(Param('image', None, 1, 8))
                elif d[0] == 'p':
                    # A Function-storage pointer parameter is a struct (or
                    # array) passed by value (FuncParamAttr ByVal): xeopt
                    # run gives it a buffer, OpenCL a private copy.
                    kind = {SC_WORKGROUP: 'local', SC_FUNCTION: 'byval'}.get(d[1], 'buffer')
                    tn, per = scalar(d[2])
                    if tn is None:
                        tn, per = 'uchar', size_of(d[2]) or 1
                    elif tn == 'char':
                        tn = 'uchar'
                    k.params.append(Param(kind, tn, per, size_of(d[2]) or 1))
                else:
                    tn, per = scalar(t)
                    k.params.append(Param('scalar', tn if per == 1 else None, per, size_of(t)))
            self.kernels[name] = k
        for m in modes:
            if m[0] not in entry:
                continue
            k = self.kernels[entry[m[0]]]
            if m[1] == EM_LOCAL_SIZE:
                k.local_size = list(m[2:5])
            elif m[1] == EM_SUBGROUP_SIZE:
                k.subgroup_size = m[2]


# ---------------------------------------------------------------------------
# Launches and their buffers, materialized as `xeopt run` does

MASK64 = (1 << 64) - 1
SIZES = {'char': 1, 'uchar': 1, 'short': 2, 'ushort': 2, 'int': 4, 'uint': 4, 'long': 8,
         'ulong': 8, 'half': 2, 'float': 4, 'double': 8}
FLOATS = {'half': 'e', 'float': 'f', 'double': 'd'}


def splitmix64(state):
    state = (state + 0x9e3779b97f4a7c15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK64
    return state, z ^ (z >> 31)


def _put(type_name, x, bits=None):
    """One element as `put` in src/exec/launch.c stores it."""
    size = SIZES[type_name]
    if type_name in FLOATS:
        return struct.pack('<' + FLOATS[type_name], x)
    if bits is None:
        bits = int(x)          # (uint64_t)(int64_t)x or (uint64_t)x: truncation
    return (bits & MASK64).to_bytes(8, 'little')[:size]


@functools.lru_cache(maxsize=256)
def materialize(spec, seed):
    """The bytes of one argument string ("buf:int:64:random", "int:5";
    None for "local:BYTES")."""
    parts = spec.split(':')
    if parts[0] == 'local':
        return None
    if parts[0] != 'buf':
        return _put(parts[0], float(parts[1]))
    type_name, count = parts[1], int(parts[2], 0)
    fill = ':'.join(parts[3:]) or 'zero'
    size = SIZES[type_name]
    if fill == 'zero':
        return bytes(count * size)
    if fill == 'iota':
        return b''.join(_put(type_name, float(e), e) for e in range(count))
    if fill.startswith('const='):
        return _put(type_name, float(fill[6:])) * count
    if fill != 'random':
        raise ValueError(f'unknown fill {fill}')
    out = bytearray()
    st = seed & MASK64
    for _ in range(count):
        st, r = splitmix64(st)
        if type_name in FLOATS:
            out += _put(type_name, (r % 2001 - 1000) / 64.0)
        else:
            out += _put(type_name, 0, r % 256)
    return bytes(out)


def default_launch(kernel, over=None):
    """A launch for a kernel, like --verify's first trial (src/exec/verify.c):
    the required work-group size or 16, four work-groups in x; integer
    scalars the total work-item count minus 3 (a guard `i < n` then cuts a
    partial last group, and a trip count stays small); buffers large enough
    for a[i * n + k], with random data.  over: the suite's overrides,
    {"global": [..], "local": [..], "scalars": {"I": V}, "fills": {"I": FILL},
    "counts": {"I": ELEMENTS}} (argument indices as strings)."""
    over = over or {}
    local = list(over.get('local') or kernel.local_size or [16, 1, 1])
    glob = list(over.get('global') or [local[0] * 4, local[1], local[2]])
    total = glob[0] * glob[1] * glob[2]
    lt = local[0] * local[1] * local[2]
    n = max(total - 3, 1)
    scalars = {int(k): v for k, v in over.get('scalars', {}).items()}
    for i, p in enumerate(kernel.params):
        if p.kind == 'scalar':
            if p.type is None:
                raise Unsupported(f'kernel {kernel.name}: a by-value argument that is not a scalar')
            scalars.setdefault(i, 1.25 if p.type in FLOATS else n)
    ints = [int(v) for i, v in scalars.items() if kernel.params[i].type not in FLOATS]
    smax = max(ints) if ints else n
    args = []
    for i, p in enumerate(kernel.params):
        if p.kind == 'scalar':
            args.append(f'{p.type}:{scalars[i]}')
        elif p.kind == 'local':
            args.append(f'local:{lt * 64 * p.size}')
        elif p.kind == 'byval':
            args.append(f'buf:uchar:{p.size}:{over.get("fills", {}).get(str(i), "random")}')
        else:
            count = over.get('counts', {}).get(str(i)) or (total * (smax + 4) + 64) * p.per
            args.append(f'buf:{p.type}:{count}:{over.get("fills", {}).get(str(i), "random")}')
    return {'kernel': kernel.name, 'global': glob, 'local': local, 'args': args}


class Unsupported(Exception):
    """A kernel or launch this driver cannot give both executors."""


class Failure(Exception):
    """An executor failed where it should have run."""


# ---------------------------------------------------------------------------
# The two executors

def run_tool(cmd, timeout=300, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def run_xeopt(xeopt, spv, launch, seed, work):
    """Buffers (index -> bytes) after `xeopt run`."""
    lf = os.path.join(work, 'launch.json')
    with open(lf, 'w') as f:
        json.dump(launch, f)
    dump = os.path.join(work, 'xeopt-out')
    shutil.rmtree(dump, ignore_errors=True)
    rc, out, err = run_tool([xeopt, 'run', spv, '--launch', lf, '--seed', str(seed), '--dump', dump])
    if rc:
        raise Failure(f'xeopt run failed: {err.strip()}')
    bufs = {}
    for k, a in enumerate(launch['args']):
        if a.startswith('buf:'):
            with open(os.path.join(dump, f'arg{k}.bin'), 'rb') as f:
                bufs[k] = f.read()
    return bufs


OP_UNDEF, OP_COMPOSITE_CONSTRUCT, OP_COMPOSITE_INSERT = 1, 80, 82


def for_llvm_spirv14(data):
    """The module with every OpCompositeConstruct of an n-component vector
    from n values rewritten as a chain of OpCompositeInsert into an OpUndef,
    or None when there is none.  llvm-spirv 14.0.0 reads the constituents
    of OpCompositeConstruct as constants and crashes on any other value
    (fixed upstream in KhronosGroup/SPIRV-LLVM-Translator#2256/#2296, after
    the release Debian ships); clang never writes them, xeopt's private-arrays
    pass does.  The rewrite keeps every operand as it was."""
    words = list(struct.unpack(f'<{len(data) // 4}I', data))
    vec_len, out, undef, first_fn = {}, words[:5], {}, None
    bound = words[3]
    changed = False
    i = 5
    while i < len(words):
        n, op = words[i] >> 16, words[i] & 0xffff
        ins = words[i:i + n]
        i += n
        if op == OP_TYPE_VECTOR:
            vec_len[ins[1]] = ins[3]
        if op == OP_FUNCTION and first_fn is None:
            first_fn = len(out)
        if op == OP_COMPOSITE_CONSTRUCT and vec_len.get(ins[1]) == n - 3 and n > 4:
            t, res, parts = ins[1], ins[2], ins[3:]
            if t not in undef:
                undef[t] = bound
                bound += 1
            prev = undef[t]
            for k, c in enumerate(parts):
                dst = res if k == len(parts) - 1 else bound
                if dst != res:
                    bound += 1
                out += [(6 << 16) | OP_COMPOSITE_INSERT, t, dst, c, prev, k]
                prev = dst
            changed = True
            continue
        out += ins
    if not changed:
        return None
    out[3] = bound
    decl = [w for t, u in undef.items() for w in ((3 << 16) | OP_UNDEF, t, u)]
    out[first_fn:first_fn] = decl
    return struct.pack(f'<{len(out)}I', *out)


def to_llvm(spv, work, name='module.bc'):
    bc = os.path.join(work, name)
    fixed = for_llvm_spirv14(open(spv, 'rb').read())
    if fixed:
        spv = bc[:-3] + '.llvm-spirv-14.spv'
        with open(spv, 'wb') as f:
            f.write(fixed)
    rc, out, err = run_tool(['llvm-spirv-14', '-r', spv, '-o', bc])
    if rc:
        raise Unsupported(f'llvm-spirv-14 -r: {(err or out).strip().splitlines()[0]}')
    return bc


# .sim element types by width: (type, struct format).
WORD = {8: ('ulong', 'Q'), 4: ('uint', 'I'), 2: ('ushort', 'H'), 1: ('uchar', 'B')}


def run_oclgrind(bc, launch, byval, seed, work, data_races=False):
    """Buffers (index -> bytes) after oclgrind-kernel on the same launch.
    byval: indices of struct arguments passed by value (private copies for
    Oclgrind, not dumped)."""
    lines = [bc, launch['kernel'], ' '.join(map(str, launch['global'])),
             ' '.join(map(str, launch['local']))]
    order = []
    for k, a in enumerate(launch['args']):
        data = materialize(a, seed * 7919 + k)
        if a.startswith('local:'):
            lines.append(f'<size={a.split(":")[1]} uchar>')
            continue
        dump = ' dump' if a.startswith('buf:') and k not in byval else ''
        # The widest word that divides the size: 8 times fewer lines to
        # write, parse and dump than bytes.
        w = next(w for w in (8, 4, 2, 1) if len(data) % w == 0)
        if dump:
            order.append((k, w))
        words = struct.unpack(f'<{len(data) // w}{WORD[w][1]}', data)
        lines.append(f'<size={len(data)} {WORD[w][0]} hex{dump}>')
        for o in range(0, len(words), 16):
            lines.append(' '.join(f'{x:x}' for x in words[o:o + 16]))
    sim = bc[:-3] + '.sim'
    with open(sim, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    cmd = ['oclgrind-kernel', '--num-threads', '1']
    if data_races:
        cmd.append('--data-races')
    rc, out, err = run_tool(cmd + [sim])
    # Oclgrind reports invalid accesses, races and unsupported builtins on
    # stderr and keeps going; any of them makes the run unusable.
    if rc or err.strip():
        raise Failure(f'oclgrind-kernel: {(err.strip() or "exit status %d" % rc)}')
    bufs, cur = {}, None
    for line in out.splitlines():
        if line.startswith("Argument '"):
            if len(bufs) == len(order):
                raise Failure('oclgrind-kernel dumped more buffers than asked')
            k, w = order[len(bufs)]
            cur = bufs[k] = (w, [])
        elif cur and ' = 0x' in line:
            cur[1].append(int(line.rsplit(' = 0x', 1)[1], 16))
    if len(bufs) != len(order):
        raise Failure(f'oclgrind-kernel dumped {len(bufs)} of {len(order)} buffers')
    res = {k: struct.pack(f'<{len(v)}{WORD[w][1]}', *v) for k, (w, v) in bufs.items()}
    if os.environ.get('XEOPT_OCLGRIND_PLANT') == '1' and res:
        # The test of the test (ctest oclgrind_compare_planted): one bit of
        # Oclgrind's first buffer flipped must make the comparison fail.
        k = min(res)
        res[k] = bytes([res[k][0] ^ 1]) + res[k][1:]
    return res


# ---------------------------------------------------------------------------
# Comparison

def ulp_distance(a, b):
    """Distance between two float32 bit patterns in units in the last place
    (on the monotonic integer line of IEEE floats)."""
    def key(x):
        return x if x < 0x80000000 else 0x80000000 - x
    return abs(key(a) - key(b))


def compare_buffers(ref, got, launch, byval, inexact, ignore=None):
    """Differences between two buffer sets as text lines.  inexact: float
    buffers may differ by ULP_TOLERANCE (the module calls inexact OpenCL.std
    functions).  ignore[k]: a predicate on byte offsets the host contract
    says are garbage (padding)."""
    diffs = []
    for k, a in sorted(ref.items()):
        if k in byval:
            continue
        b = got.get(k)
        if b is None or len(a) != len(b):
            diffs.append(f'arg {k}: size {len(a)} vs {None if b is None else len(b)}')
            continue
        if a == b:
            continue
        type_name = launch['args'][k].split(':')[1]
        size = SIZES.get(type_name, 1)
        bad = []
        for e in range(len(a) // size):
            x, y = a[e * size:(e + 1) * size], b[e * size:(e + 1) * size]
            if x == y or (ignore and ignore(k, e * size)):
                continue
            if inexact and type_name == 'float':
                u, v = struct.unpack('<I', x)[0], struct.unpack('<I', y)[0]
                fx, fy = struct.unpack('<f', x)[0], struct.unpack('<f', y)[0]
                if (math.isnan(fx) and math.isnan(fy)) or ulp_distance(u, v) <= ULP_TOLERANCE:
                    continue
            bad.append(e)
        if bad:
            e = bad[0]
            x, y = a[e * size:(e + 1) * size], b[e * size:(e + 1) * size]
            val = ''
            if type_name in FLOATS:
                f = FLOATS[type_name]
                val = f' ({struct.unpack("<" + f, x)[0]!r} vs {struct.unpack("<" + f, y)[0]!r})'
            diffs.append(f'arg {k} ({type_name}): {len(bad)} elements differ, first [{e}]: '
                         f'0x{x[::-1].hex()} vs 0x{y[::-1].hex()}{val}')
    return diffs


# ---------------------------------------------------------------------------
# Manifest: the launch an optimized module's host contract asks for

def apply_manifest(manifest, launch):
    """Returns (launch, padded arg indices): scalars fixed by spec-constant
    defaults, buffers grown to the padding section's min_elements."""
    launch = json.loads(json.dumps(launch))
    k = (manifest or {}).get('kernels', {}).get(launch['kernel'], {})
    sval = {}
    for i, a in enumerate(launch['args']):
        if not a.startswith(('buf:', 'local:')):
            sval[i] = float(a.split(':')[1])
    for sc in k.get('spec_constants', []):
        if sc.get('flag_default') and 'index' in sc:
            i = sc['index']
            t = launch['args'][i].split(':')[0]
            launch['args'][i] = f'{t}:{int(sc["value_default"])}'
            sval[i] = float(sc['value_default'])

    def formula(f):
        if 'max_of' in f:
            return max(formula(t) for t in f['max_of'])
        r = 0
        for t in f.get('terms', []):
            v = t.get('coeff', 1)
            if 'arg' in t:
                v *= sval.get(t['arg'], 0)
            q, d = t.get('launch'), t.get('dim', 0) % 3
            if q == 'global_size':
                v *= launch['global'][d]
            elif q == 'local_size':
                v *= launch['local'][d]
            elif q == 'global_offset':
                v *= 0
            r += v
        return int(r)

    padded = set()
    for p in k.get('padding', []):
        if p.get('kind') != 'buffer':
            continue
        i = p['arg']
        padded.add(i)
        parts = launch['args'][i].split(':')
        need = formula(p['min_elements'])
        if need > int(parts[2]):
            parts[2] = str(need)
            launch['args'][i] = ':'.join(parts)
    return launch, padded


# ---------------------------------------------------------------------------
# One comparison

class Job:
    """One module and kernel: the input on both executors, then optimized
    variants (lists of xeopt options) on both.  known: reasons from the
    suite's known list, for 'input' and 'opt' (every variant)."""

    def __init__(self, spv, kernel, over=None, variants=(), known=None, launch=None):
        self.spv, self.kernel, self.over, self.launch = spv, kernel, over, launch
        self.variants = list(variants)
        self.known = known or {}


def first_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[0] if lines else text


def xeopt_reference(ctx, spv, launch, work, notes):
    """Buffers after our interpreter on the module.  llvm-spirv-15 writes
    some blocks before their dominators and xeopt run refuses modules that
    do not validate: those run on their block-order'd form (a reordering
    only), with a note."""
    try:
        return spv, run_xeopt(ctx.xeopt, spv, launch, ctx.seed, work)
    except Failure as e:
        if 'does not validate' not in str(e):
            raise
    ordered = os.path.join(work, 'block-order.spv')
    rc, _, err = run_tool([ctx.xeopt, '--passes=block-order', '-q', spv, '-o', ordered])
    if rc:
        raise Failure(f'xeopt --passes=block-order: {err.strip()}')
    notes.append('xeopt runs the block-order\'d input (the input does not validate)')
    return ordered, run_xeopt(ctx.xeopt, ordered, launch, ctx.seed, work)


def run_stage(tag, known, body):
    """Runs one comparison; returns (status, lines).  status: 'ok', 'known'
    (failed or differed, as the known list says), 'diff' or 'fail'."""
    try:
        diffs = body()
        status = 'diff' if diffs else 'ok'
        lines = [f'DIFF {tag}'] + [f'    {d}' for d in diffs] if diffs else [f'ok   {tag}']
    except (Unsupported, Failure) as e:
        status, lines = 'fail', [f'FAIL {tag}: {e}']
    except subprocess.TimeoutExpired as e:
        status, lines = 'fail', [f'FAIL {tag}: timeout: {" ".join(map(str, e.cmd))}']
    # A known reason explains a run that cannot happen (a tool's gap), never
    # a difference in results.
    if known and status == 'fail':
        return 'known', [f'known {tag}: {known}'] + ['    ' + first_line(l) for l in lines[:2]]
    if known:
        lines.append(f'  note: {tag} runs although the known list says: {known} (take it out)')
    return status, lines


def run_job(job, ctx):
    """Returns [(status, lines)], one per comparison (input, variants)."""
    name = f'{os.path.basename(job.spv)[:-4]}:{job.kernel}'
    work = tempfile.mkdtemp(prefix='og-', dir=ctx.work)
    results = []
    try:
        mod = Module(job.spv)
        k = mod.kernels[job.kernel]
        launch = job.launch or default_launch(k, job.over)
        byval = {i for i, p in enumerate(k.params) if p.kind == 'byval'}
        inexact = bool(mod.inexact_math)
        seed = ctx.seed
        state = {}

        def reference(l):
            key = json.dumps(l)
            if key not in state:
                notes = []
                state[key] = xeopt_reference(ctx, job.spv, l, work, notes)
                state.setdefault('notes', notes)
            return state[key][1]

        # Outcomes by (module bytes, manifest): a variant whose output is
        # the input, or another variant's output, is not run again.
        seen = {}

        def memo(key, fn):
            if key not in seen:
                try:
                    seen[key] = (None, fn())
                except (Unsupported, Failure, subprocess.TimeoutExpired) as e:
                    seen[key] = (e, None)
            else:
                same.append(True)
            if seen[key][0]:
                raise seen[key][0]
            return seen[key][1]
        same = []
        in_bytes = open(job.spv, 'rb').read()

        def input_stage():
            ref = reference(launch)
            og = run_oclgrind(to_llvm(job.spv, work), launch, byval, seed, work, ctx.data_races)
            d = compare_buffers(ref, og, launch, byval, inexact)
            return d + [f'launch: {json.dumps(launch)}'] if d else []
        tag = f'{name} input' + (f' (float results within {ULP_TOLERANCE} ulp)' if inexact else '')
        results.append(run_stage(tag, job.known.get('input'),
                                 lambda: memo((in_bytes, 'null'), input_stage)))
        for opts in job.variants:
            out = os.path.join(work, 'opt.spv')
            man = os.path.join(work, 'opt.json')

            def opt_stage(opts=opts):
                manifest = json.load(open(man)) if os.path.exists(man) else None
                vl, padded = apply_manifest(manifest, launch)
                vref = reference(vl)
                init = {i: materialize(a, seed * 7919 + i) for i, a in enumerate(vl['args'])
                        if a.startswith('buf:')}

                def ignore(i, off):
                    # Bytes the input left at their initial value in a padded
                    # buffer: the host ignores them, the output may write there.
                    return i in padded and vref[i][off] == init[i][off]
                # Our interpreter on the output first (what --verify does):
                # a difference there is a finding whatever Oclgrind can run.
                vx = run_xeopt(ctx.xeopt, out, vl, seed, work)
                d = [f'xeopt(input) vs xeopt(output): {x}'
                     for x in compare_buffers(vref, vx, vl, byval, False, ignore)]
                if not d:
                    vog = run_oclgrind(to_llvm(out, work, 'opt.bc'), vl, byval, seed, work, ctx.data_races)
                    d = [f'xeopt(input) vs oclgrind(output): {x}'
                         for x in compare_buffers(vref, vog, vl, byval, inexact, ignore)]
                return d + [f'launch: {json.dumps(vl)}'] if d else []

            def optimized(opts=opts):
                if os.path.exists(man):
                    os.remove(man)
                rc, _, err = run_tool([ctx.xeopt, '-q', *opts, job.spv, '-o', out, f'--manifest={man}'])
                if rc:
                    raise Failure(f'xeopt: {err.strip()}')
                mtext = json.dumps(json.load(open(man)), sort_keys=True) if os.path.exists(man) else 'null'
                return memo((open(out, 'rb').read(), mtext), opt_stage)
            del same[:]
            st = run_stage(f'{name} {" ".join(opts)}', job.known.get('opt'), optimized)
            if same and st[0] == 'ok':
                st[1][0] += ' (the same module as before)'
            results.append(st)
        for n in state.get('notes', []):
            results[0][1].append(f'  note: {name}: {n}')
    except (Unsupported, Failure, ValueError, KeyError) as e:
        results.append(('fail', [f'FAIL {name}: {e}']))
    finally:
        if not ctx.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            results[0][1].append(f'  files: {work}')
    return results


# ---------------------------------------------------------------------------
# The testdata suite

SUITE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'suite.json')


def golden_optins(testdata):
    """spv basename -> the xeopt opt-in option lists the golden cases use on
    it (cases expected to be refused, '-bad-', left out)."""
    optins = {}
    gold = os.path.join(testdata, 'golden')
    for f in sorted(os.listdir(gold)):
        if not f.endswith('.cases'):
            continue
        for line in open(os.path.join(gold, f)):
            line = line.split('#')[0].split()
            if len(line) < 3 or '-bad' in line[0]:
                continue
            ins = [o for o in line[2:] if o.startswith(('--assume-', '--specialize', '--subgroup-size',
                                                         '--local-size'))]
            if ins:
                lst = optins.setdefault(os.path.basename(line[1]), [])
                if ins not in lst:
                    lst.append(ins)
    return optins


def suite_jobs(ctx, testdata):
    """The jobs of the testdata suite (tests/oclgrind/suite.json: launch
    overrides, modules skipped, known differences), and the skip lines."""
    cfg = json.load(open(SUITE_FILE))
    rc, out, err = run_tool([ctx.xeopt, '--list-passes'])
    if rc:
        raise Failure(f'xeopt --list-passes: {err}')
    # The -O2 pipeline without the passes that emit sub-group operations
    # (block reads/writes, the versioning test's reduction), which Oclgrind
    # does not have; --list-passes prints the pipeline order.
    subgroup_passes = {'block-io', 'subgroup-versioning'}
    passes = [l.split()[0] for l in out.splitlines() if l.strip()]
    # --target=none: every rewrite the passes can make, not only those the
    # cost model lets through (generic-address leaves a module without a
    # DontInline call to IGC when the model is asked).
    base = ['--passes=' + ','.join(p for p in passes if p not in subgroup_passes), '--target=none']
    optins = golden_optins(testdata)
    jobs, skipped = [], []
    spvdir = os.path.join(testdata, 'spv')
    for f in sorted(os.listdir(spvdir)):
        if not f.endswith('.spv'):
            continue
        path = os.path.join(spvdir, f)
        mod = Module(path)
        if mod.subgroup_reasons:
            skipped.append(f'skip {f[:-4]}: sub-group operations ({", ".join(sorted(mod.subgroup_reasons))})')
            continue
        if mod.uses_images:
            skipped.append(f'skip {f[:-4]}: images (oclgrind-kernel has no image or sampler arguments)')
            continue
        for kname in sorted(mod.kernels):
            key = f'{f[:-4]}:{kname}'

            def get(section, key=key, f=f):
                d = cfg.get(section, {})
                return d.get(key) or d.get(f[:-4])
            if get('skip'):
                skipped.append(f'skip {key}: {get("skip")}')
                continue
            variants = [base] + [base + o for o in optins.get(f, [])]
            jobs.append(Job(path, kname, get('launches'), variants, get('known')))
    return jobs, skipped


def tools_present():
    return all(shutil.which(t) for t in ('oclgrind-kernel', 'llvm-spirv-14'))


class Ctx:
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('module', nargs='?', help='a SPIR-V module (by-hand mode)')
    ap.add_argument('--suite', metavar='TESTDATA', help='run the testdata suite (the ctest entry)')
    ap.add_argument('--xeopt', default=shutil.which('xeopt') or 'xeopt', help='the xeopt binary')
    ap.add_argument('--kernel', help='only this kernel')
    ap.add_argument('--launch', help='an xeopt run JSON launch (default: one chosen here)')
    ap.add_argument('--seed', type=int, default=1, help='random fill seed (xeopt run --seed)')
    ap.add_argument('--opt', action='append', default=[],
                    help='also compare the module xeopt writes with these options '
                         '(one string, e.g. --opt="-O2 --assume-padded"); repeatable')
    ap.add_argument('--data-races', action='store_true', help="Oclgrind's race detection on")
    ap.add_argument('-j', '--jobs', type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument('--keep', action='store_true', help='keep the work files (.sim, .bc, launch)')
    ap.add_argument('--expect-difference', action='store_true',
                    help='exit 0 only if some comparison differs and none failed (the test of the test)')
    ap.add_argument('-v', '--verbose', action='store_true', help='print agreeing cases too')
    args = ap.parse_args()
    if not tools_present():
        msg = 'oclgrind-kernel or llvm-spirv-14 is missing (scripts/deps.sh installs them)'
        if os.environ.get('XEOPT_REQUIRE_OCLGRIND') == '1':
            print(f'compare.py: {msg}, and XEOPT_REQUIRE_OCLGRIND=1', file=sys.stderr)
            return 1
        print(f'compare.py: {msg}: skipped', file=sys.stderr)
        return SKIP
    ctx = Ctx()
    ctx.xeopt = os.path.abspath(args.xeopt) if os.path.exists(args.xeopt) else args.xeopt
    ctx.seed, ctx.data_races, ctx.keep = args.seed, args.data_races, args.keep
    ctx.work = tempfile.mkdtemp(prefix='xeopt-oclgrind-')
    start = time.time()
    skipped = []
    if args.suite:
        jobs, skipped = suite_jobs(ctx, args.suite)
    elif args.module:
        mod = Module(args.module)
        names = [args.kernel] if args.kernel else sorted(mod.kernels)
        launch = json.load(open(args.launch)) if args.launch else None
        variants = [o.split() for o in args.opt]
        # A testdata module keeps its suite.json launch overrides.
        over = json.load(open(SUITE_FILE)).get('launches', {})
        base = os.path.basename(args.module)[:-4]
        jobs = [Job(os.path.abspath(args.module), n, over.get(f'{base}:{n}') or over.get(base), variants,
                    launch=dict(launch, kernel=n) if launch else None) for n in names]
        if mod.subgroup_reasons:
            print(f'warning: {args.module} uses sub-group operations, which Oclgrind does not model: '
                  f'{", ".join(sorted(mod.subgroup_reasons))}', file=sys.stderr)
    else:
        ap.error('give a module or --suite')
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as ex:
        for results in ex.map(lambda j: run_job(j, ctx), jobs):
            for status, lines in results:
                counts[status] = counts.get(status, 0) + 1
                for l in lines:
                    if args.verbose or args.module or not l.startswith(('ok ', '  note:')):
                        print(l)
    for s in skipped:
        print(s)
    if not ctx.keep:
        shutil.rmtree(ctx.work, ignore_errors=True)
    print(f'compare.py: {len(jobs)} kernels, {sum(counts.values())} comparisons: '
          f'{counts.get("ok", 0)} agree, {counts.get("known", 0)} known (suite.json), '
          f'{counts.get("diff", 0)} differ, {counts.get("fail", 0)} failed; '
          f'{len(skipped)} skipped; {time.time() - start:.1f} s')
    if args.expect_difference:
        return 0 if counts.get('diff') and not counts.get('fail') else 1
    return 1 if counts.get('diff') or counts.get('fail') else 0


if __name__ == '__main__':
    sys.exit(main())
