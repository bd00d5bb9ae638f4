#!/usr/bin/env python3
"""tests/bench/isa_diff.py ROOT: bench/isa --diff's reading of iga text,
without ocloc.  Two made-up dg2 kernels whose loop differs only by a
scoreboard wait (sync.nop) and whose straight-line code loses a goto/join
pair: code_ops must find the loop analyze counts, and op_delta must name
exactly what changed."""
import importlib.machinery
import importlib.util
import os
import sys

root = sys.argv[1]
loader = importlib.machinery.SourceFileLoader("isa", os.path.join(root, "bench", "isa"))
spec = importlib.util.spec_from_loader("isa", loader)
isa = importlib.util.module_from_spec(spec)
loader.exec_module(isa)

BEFORE = """\
(W)     mov (8|M0)               r2.0<1>:ud    0x0:ud
(f0.0)  goto (32|M0)                         L64                  L64
        add (16|M0)              r4.0<1>:d     r4.0<1;1,0>:d     1:w
L64:
        join (32|M0)                         L80
L80:
        add (16|M0)              r6.0<1>:d     r6.0<1;1,0>:d     1:w
        mul (16|M0)              r8.0<1>:d     r6.0<1;1,0>:d     r6.0<1;1,0>:d
        cmp (16|M0)   (lt)f1.0   null<1>:d     r6.0<1;1,0>:d     r9.0<0;1,0>:d
(f1.0)  goto.b (32|M0)                       L200                 L80
L200:
(W)     send.gtwy (1|M0)         null     r112    null:0  0x0            0x02000010           {EOT}
        nop
(W)     mov (16|M0)              null<1>:ud    0xC9A3F5E2:ud
"""
AFTER = """\
(W)     mov (8|M0)               r2.0<1>:ud    0x0:ud
        add (16|M0)              r4.0<1>:d     r4.0<1;1,0>:d     1:w
L80:
        add (16|M0)              r6.0<1>:d     r6.0<1;1,0>:d     1:w
        sync.nop                             null                             {Compacted,A@1}
        mul (16|M0)              r8.0<1>:d     r6.0<1;1,0>:d     r6.0<1;1,0>:d
        cmp (16|M0)   (lt)f0.0   null<1>:d     r6.0<1;1,0>:d     r9.0<0;1,0>:d
(f0.0)  goto.b (32|M0)                       L200                 L80
L200:
(W)     send.gtwy (1|M0)         null     r112    null:0  0x0            0x02000010           {EOT}
"""
fails = 0
for name, text, n, loop in (("before", BEFORE, 9, 4), ("after", AFTER, 8, 5)):
    ops, (a, b) = isa.code_ops(text)
    st = isa.analyze(text, 32)
    if len(ops) != n or b - a != loop or st["loop"] != b - a or st["instructions"] != n:
        print("%s: %d instructions, loop %d (analyze: %d, %d); want %d, %d"
              % (name, len(ops), b - a, st["instructions"], st["loop"], n, loop))
        fails += 1
ob, (ab, bb) = isa.code_ops(BEFORE)
oa, (aa, ba) = isa.code_ops(AFTER)
for what, got, want in (
        ("kernel", isa.op_delta(ob, oa), "-1 goto, -1 join, +1 sync.nop"),
        ("loop", isa.op_delta(ob[ab:bb], oa[aa:ba]), "+1 sync.nop"),
        ("same", isa.op_delta(ob, ob), "the same opcodes")):
    if got != want:
        print("%s: op_delta gave %r, want %r" % (what, got, want))
        fails += 1
if fails:
    sys.exit(1)
print("isa --diff: ok")
