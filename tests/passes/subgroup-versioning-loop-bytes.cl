// subgroup-versioning, a load in a loop that stays per-lane: `in[k * n + i]`
// (i = g + 1) has the loop form (base[ext(u + i)] with u = k * n uniform and
// i computable before the loop, NoSignedWrap on the sum) but reads bytes, and
// the load says only `Aligned 1`.  The fast copy's block read of a loop
// load is tested for contiguity, not alignment: its 4-byte alignment must
// come from the load's own Aligned operand (lane 0's address is one the
// load reads), and 1 does not give it.  Here lane 0's address is in + k * n
// + 16 j + 1, not 4-byte aligned in --verify's launches (n = 96): a block
// read there faults in the interpreter (--verify fails) and would on the
// hardware.  The store after the loop, to out[g], is still converted (its
// alignment is tested).  `i` has a second use (acc's start) so that LLVM
// does not reassociate k * n + (g + 1) and drop the sum's NoSignedWrap.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %byte_loop = OpFunction
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK-NOT: OpSubgroupBlockReadINTEL
// CHECK: OpFunctionEnd
// REMARK: byte_loop: [subgroup-versioning] missed: load via %arrayidx stays per-lane: its address cannot be computed where the test runs, nor is it base[uniform + i] with i computable there
// REMARK-NEXT: byte_loop: [subgroup-versioning] applied: store via %arrayidx8: sub-group block write in the fast copy (tested: contiguous, 16-byte aligned base)
// REMARK-NEXT: byte_loop: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 0 block read(s) and 1 block write(s), {{.*}}
// MANIFEST-NOT: {{.}}
kernel void byte_loop(global const uchar *in, global uint *out, int n, int m)
{
    int g = get_global_id(0);
    int i = g + 1;
    if (g < n) {
        uint acc = i;
        for (int k = 0; k < m; k++)
            acc += in[k * n + i];
        out[g] = acc;
    }
}
