// subgroup-versioning: a guard around a loop whose load walks `in` with the
// item's index (`in[k * n + i]`), in a kernel that declares no sub-group or
// local size.  No host promise, so the pass asks each sub-group at run time:
// every lane's predicate (the guard holds, its index is lane 0's plus its
// lane number without 32-bit wrap, out's base is 16-byte aligned) is summed
// with one OpGroupIAdd Reduce and compared with SubgroupMaxSize, so partial
// sub-groups take the original code.  The fast copy has no guard and uses a
// block read in the loop and a block write after it.  RUN uses
// --target=none, which versions without asking; the cost model accepts it
// on pvc, bmg, lnl and ptl (the MODEL run: the remark gives the estimates):
// the fast copy's loop body is shorter, and the model weights the two paths
// by the share of sub-groups that take them (docs/cost-model.md,
// "Versioning").  On dg2 it is slower (the DEFAULT run, every device): IGC
// compiles the versioned kernel SIMD16 there and the input SIMD32, 46%
// longer per work-item (testdata's version_loop, the same kernel), which
// the model counts as it predicts the widths.  No host contract changes.
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK: OpEntryPoint Kernel {{%[0-9]+}} "guarded_loop" {{.*}}%SubgroupMaxSize
// CHECK: OpDecorate %SubgroupMaxSize BuiltIn SubgroupMaxSize
// CHECK-LABEL: %guarded_loop = OpFunction
// CHECK: %cmp = OpSLessThan %bool %conv %n
// CHECK: [[MAX:%[0-9]+]] = OpLoad %uint %SubgroupMaxSize
// CHECK: [[LANE0:%[0-9]+]] = OpGroupBroadcast %uint %uint_3 %conv %uint_0
// CHECK: [[LANEPRED:%[0-9]+]] = OpSelect %uint %cmp {{%[0-9]+}} %uint_0
// CHECK-NEXT: [[SUM:%[0-9]+]] = OpGroupIAdd %uint %uint_3 Reduce [[LANEPRED]]
// CHECK-NEXT: [[FULL:%[0-9]+]] = OpIEqual %bool [[SUM]] [[MAX]]
// CHECK-NEXT: [[TEST:%[0-9]+]] = OpLogicalAnd %bool [[FULL]]
// CHECK-NEXT: OpBranchConditional [[TEST]] [[FAST:%[0-9]+]] [[SLOW:%[0-9]+]]
// The original code, guard and per-lane accesses as they were:
// CHECK: [[SLOW]] = OpLabel
// CHECK-NEXT: OpBranchConditional %cmp %for_cond_preheader %if_end
// CHECK: OpStore %arrayidx6
// CHECK: OpLoad %float %arrayidx
// The fast copy: no guard, block write and block read.
// CHECK: [[FAST]] = OpLabel
// CHECK-NOT: %cmp
// CHECK: OpSubgroupBlockWriteINTEL
// CHECK: OpSubgroupBlockReadINTEL %uint
// CHECK: OpFunctionEnd
// REMARK: guarded_loop: [subgroup-versioning] applied: store via %arrayidx6: sub-group block write in the fast copy (tested: contiguous, 16-byte aligned base)
// REMARK-NEXT: guarded_loop: [subgroup-versioning] applied: load via %arrayidx: sub-group block read in the fast copy (tested: %conv contiguous without wrap; the index adds a uniform value without wrap; base aligned as the load says)
// REMARK-NEXT: guarded_loop: [subgroup-versioning] applied: versioned the region guarded by %cmp: a fast copy without the guard, with 1 block read(s) and 1 block write(s), runs when the sub-group is full, the guard holds in every lane and every address is contiguous and aligned (test: sub-group add-reduction of the per-lane predicate == SubgroupMaxSize); otherwise the original code{{$}}
// MANIFEST-NOT: {{.}}
//
// RUN-MODEL: --passes=subgroup-versioning --target=pvc,bmg,lnl,ptl
// MODEL-LABEL: %guarded_loop = OpFunction
// MODEL: OpGroupIAdd %uint %uint_3 Reduce
// MODEL: OpSubgroupBlockReadINTEL %uint
// MODEL: OpFunctionEnd
// MODEL-REMARK: guarded_loop: [subgroup-versioning] applied: versioned the region guarded by %cmp: {{.*}}; otherwise the original code (cost model: pvc/bmg/lnl/ptl {{[0-9]+}} -> {{[0-9]+}} cycles)
//
// RUN-DEFAULT: --passes=subgroup-versioning
// DEFAULT-NOT: OpSubgroupBlockReadINTEL
// DEFAULT-REMARK: guarded_loop: [subgroup-versioning] missed: no fast copy of the region guarded by %cmp: the cost model says slower on dg2 (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc/bmg/lnl/ptl {{[0-9]+}} -> {{[0-9]+}} cycles; {{.*}}, once IGC's SIMD width is counted: SIMD32 -> SIMD16)
kernel void guarded_loop(global const float *in, global float *out, int n, int m)
{
    int i = get_global_id(0);
    if (i < n) {
        float acc = 0.0f;
        for (int k = 0; k < m; k++)
            acc += in[k * n + i];
        out[i] = acc;
    }
}
