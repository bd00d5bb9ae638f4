// padding's loaded-bound remark (pass/padding-loaded-bound) is for bounds
// checks: an expression of the ids that grows with them compared with a
// value loaded from kernel memory (`gid >= kernel_param->gid_max`).  Here
// the compared expression is 4096 - gid, which falls as gid grows: a
// countdown, not an index running past a buffer's end, so the guard gets
// no remark (the kernel does not count as having a bounds guard), while
// `gid + 8 >= p->gid_max`, growing, does.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %countdown = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %offset_bound = OpFunction
// CHECK: OpBranchConditional
// REMARK-NOT: countdown
// REMARK: offset_bound: [padding] missed: guard 'get_global_id(0) + 8 < load(%gid_max)' stays: its bound is loaded from memory, and padding needs a bound computed from scalar kernel arguments
// REMARK-NOT: countdown
// MANIFEST-NOT: {{.}}
typedef struct { ulong cnt[12]; ulong gid_max; } param_t;

kernel void countdown(global float *out, global const param_t *p)
{
    size_t gid = get_global_id(0);
    if (4096 - gid >= p->gid_max)
        return;
    out[gid] = 1.0f;
}

kernel void offset_bound(global float *out, global const param_t *p)
{
    size_t gid = get_global_id(0);
    if (gid + 8 >= p->gid_max)
        return;
    out[gid] = 1.0f;
}
