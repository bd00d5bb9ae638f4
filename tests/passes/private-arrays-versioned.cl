// private-arrays after subgroup-versioning: the kernel body is copied, so a
// zero-initialized array has its zero-init (an OpCopyMemorySized from a
// zero UniformConstant) in both copies.  Each writes zeros to the same
// bytes, so versioned_hist's bins still narrow (32 -> 8 bits), and each
// copy becomes a store of a null array.  versioned_table's array is
// initialized from a table of other values: that copy (two of them now) is
// no zero-init and the array stays as it is.
//
// RUN: -O2 --target=none
// CHECK-LABEL: %versioned_hist = OpFunction
// CHECK: %bins = OpVariable %_ptr_Function__arr_uchar_ulong_16 Function
// CHECK-COUNT-2: OpStore %bins [[NULL:%[0-9]+]] Aligned 1
// CHECK-LABEL: %versioned_table = OpFunction
// CHECK: %t = OpVariable %_ptr_Function__arr_uint_ulong_16 Function
// CHECK-COUNT-2: OpCopyMemorySized
// REMARK: versioned_hist: [subgroup-versioning] applied: versioned the kernel body
// REMARK: versioned_table: [subgroup-versioning] applied: versioned the kernel body
// REMARK: versioned_hist: [private-arrays] applied: narrow: 'bins' elements 32 -> 8 bits
// REMARK: versioned_table: [private-arrays] missed: 't[16]' unchanged: a memory copy other than zero-init or whole copy-out (OpCopyMemorySized)
// MANIFEST-NOT: {{.}}
kernel void versioned_hist(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint bins[16];
    for (int k = 0; k < 16; k++)
        bins[k] = 0;
    uint x = in[i];
    for (int k = 0; k < 8; k++)
        bins[(x >> (4 * k)) & 15] += 1;
    out[i] = bins[x & 15] + bins[(x >> 4) & 15];
}

kernel void versioned_table(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint t[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    uint x = in[i];
    for (int k = 0; k < 8; k++)
        t[(x >> (4 * k)) & 15] += 1;
    out[i] = t[x & 15] + t[(x >> 4) & 15];
}
