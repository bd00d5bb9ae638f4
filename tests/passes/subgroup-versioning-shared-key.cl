// subgroup-versioning: a 5-point stencil through a helper the region calls,
// the shape of darktable's demosaic kernels as Intel's front end leaves them
// (`mad24` index, neighbours `i - w`, `i - 1`, `i + 1`, `i + w`, a call).
// The five indices differ from `i` by values that are the same in every
// lane, so the general test compares one index lane by lane (one
// OpGroupBroadcast): lane k's `i + u` is lane 0's plus k whenever lane k's
// `i` is.  The call is duplicated as a call (`sq` has no barrier).
//
// Wrap: with `int` indices clang marks `i - w` etc. NoSignedWrap, so every
// lane's `i + u` is exact once `i` itself does not wrap: one wrap check, on
// `i`.  With `uint` indices (stencil_u) nothing promises that, and each
// index whose zero extension must not wrap between lanes gets its own
// check.  RUN uses --target=none (the model refuses both on pvc).
//
// RUN: --passes=subgroup-versioning --target=none
// CHECK-LABEL: %stencil = OpFunction
// CHECK: [[I:%[0-9]+]] = OpExtInst %uint {{%[0-9]+}} s_mad24
// CHECK-NEXT: [[I0:%[0-9]+]] = OpGroupBroadcast %uint %uint_3 [[I]] %uint_0
// CHECK-NOT: OpGroupBroadcast
// CHECK: OpISub %uint [[I0]] %w
// CHECK: OpSLessThanEqual %bool [[I0]]
// CHECK-NOT: OpSLessThanEqual
// CHECK: OpGroupIAdd %uint %uint_3 Reduce
// CHECK: OpFunctionCall %float %sq
// CHECK: OpFunctionCall %float %sq
// CHECK: OpFunctionEnd
// CHECK-LABEL: %stencil_u = OpFunction
// CHECK: [[J0:%[0-9]+]] = OpGroupBroadcast %uint %uint_3
// CHECK-NOT: OpGroupBroadcast
// CHECK: [[K0:%[0-9]+]] = OpISub %uint [[J0]] %w
// CHECK: OpULessThanEqual %bool [[K0]]
// CHECK-COUNT-4: OpULessThanEqual %bool
// CHECK-NOT: OpULessThanEqual
// CHECK: OpGroupIAdd %uint %uint_3 Reduce
// CHECK: OpFunctionEnd
// REMARK: stencil: [subgroup-versioning] applied: versioned the region guarded by %or.cond: a fast copy without the guard, with 5 block read(s) and 1 block write(s),{{.*}}
// REMARK: stencil_u: [subgroup-versioning] applied: versioned the region guarded by %or.cond: a fast copy without the guard, with 5 block read(s) and 1 block write(s),{{.*}}
// MANIFEST-NOT: {{.}}
//
// RUN-MODEL: --passes=subgroup-versioning
// MODEL-REMARK: stencil: [subgroup-versioning] missed: no fast copy of the region guarded by %or.cond: the cost model says slower on {{.*}}; 6 block access(es) and the guard do not pay for the sub-group test)
__attribute__((noinline)) float sq(float v) { return v * v; }

kernel void stencil(global const float *in, global float *out, int w, int h)
{
    int x = 1 + get_global_id(0), y = 1 + get_global_id(1);
    if (x > w - 2 || y > h - 2)
        return;
    int i = mad24(y, w, x);
    out[i] = sq(in[i - w] + in[i - 1] + in[i] + in[i + 1] + in[i + w]);
}

kernel void stencil_u(global const float *in, global float *out, uint w, uint h)
{
    uint x = 1 + get_global_id(0), y = 1 + get_global_id(1);
    if (x > w - 2 || y > h - 2)
        return;
    uint i = y * w + x;
    out[i] = sq(in[i - w] + in[i - 1] + in[i] + in[i + 1] + in[i + w]);
}
