// private-arrays, length asked of the model: the model prices the array at
// the length the rewrite would give it (every index below 128, below 16),
// not at its declared length.  hist_mask's 256 -> 128 stays in scratch
// either way and is made; hist_small's 64 -> 16 would move a dynamically
// indexed array into registers, which the model prices as slower on dg2
// (per-lane indirect moves), so it is not made and the remark names both
// lengths.
//
// RUN: --passes=interface-vars,block-order,private-arrays --target=dg2
// CHECK-LABEL: %hist_mask = OpFunction
// CHECK: OpVariable %_ptr_Function__arr_uint_ulong_128 Function
// CHECK-LABEL: %hist_small = OpFunction
// CHECK: OpVariable %_ptr_Function__arr_uint_ulong_64 Function
// REMARK-DAG: hist_mask: [private-arrays] applied: length: 'h[256]' -> [128]: every index is below 128
// REMARK-DAG: hist_small: [private-arrays] missed: 'h[64]' -> [16] x 4 bytes not made: the cost model says slower on dg2
// REMARK-NOT: hist_small: [private-arrays] applied
kernel void hist_mask(global const uint *in, global uint *out, int n)
{
    uint h[256];
    for (int k = 0; k < 128; k++) h[k] = 0;
    for (int k = 0; k < n; k++) h[in[k] & 127]++;
    for (int k = 0; k < 128; k++) out[get_global_id(0) * 128 + k] = h[k];
}

kernel void hist_small(global const uint *in, global uint *out, int n)
{
    uint h[64];
    for (int k = 0; k < 16; k++) h[k] = 0;
    for (int k = 0; k < n; k++) h[in[k] & 15]++;
    for (int k = 0; k < 16; k++) out[get_global_id(0) * 16 + k] = h[k];
}
