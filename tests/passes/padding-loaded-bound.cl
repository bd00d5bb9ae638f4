// padding, refused with a reason: hashcat's kernels open with
// `if (gid >= kernel_param->gid_max) return;`, a bounds check whose bound
// the host writes into a buffer instead of passing it as an argument.  The
// affine analysis cannot name such a bound, so padding cannot pad to it;
// the remark says so, which also makes the kernel count as having a bounds
// guard (bench/corpus's candidates).  A bound loaded through a lane-varying
// pointer is no bounds check (each lane compares with its own value): no
// remark.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %loaded_bound = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %lane_bound = OpFunction
// CHECK: OpBranchConditional
// REMARK: loaded_bound: [padding] missed: guard 'get_global_id(0) < load(%gid_max)' stays: its bound is loaded from memory, and padding needs a bound computed from scalar kernel arguments
// REMARK-NOT: lane_bound
// MANIFEST-NOT: {{.}}
typedef struct { ulong cnt[12]; ulong gid_max; } param_t;

kernel void loaded_bound(global float *out, global const param_t *p)
{
    size_t gid = get_global_id(0);
    if (gid >= p->gid_max)
        return;
    out[gid] = 1.0f;
}

kernel void lane_bound(global float *out, global const ulong *b)
{
    size_t gid = get_global_id(0);
    if (gid >= b[gid])
        return;
    out[gid] = 1.0f;
}
