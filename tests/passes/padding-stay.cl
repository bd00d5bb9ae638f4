// padding, refused: guards that stay even with --assume-padded, because an
// item past n would change a result inside [0, n).  store_out0: every item
// writes out[0], so item n would overwrite item 0's value.  shift_left:
// item n would write a[n], which item n-1 reads.  Both guards stay, each
// remark says why, and no manifest is written (no contract changed).
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %store_out0 = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %shift_left = OpFunction
// CHECK: OpBranchConditional
// REMARK: store_out0: [padding] missed: guard 'get_global_id(0) < n' stays: the store index into out is not `s*id + c` in the guarded id
// REMARK: shift_left: [padding] missed: guard 'get_global_id(0) < n' stays: stores to a past the bound may hit elements in bounds
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
kernel void store_out0(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[0] = in[i];
}

kernel void shift_left(global float *a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        a[i] = a[i + 1];
}
