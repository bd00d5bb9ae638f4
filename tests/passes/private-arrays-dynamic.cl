// private-arrays, refused: `a[idx[i]]` indexes the array with a loaded value
// of unknown range and stores values the pass cannot bound, so neither the
// length nor the element type can shrink; the array stays as it is and each
// remark says which proof is missing.
//
// RUN: --passes=interface-vars,block-order,private-arrays
// CHECK: %_arr_uint_ulong_32 = OpTypeArray %uint %ulong_32
// CHECK-LABEL: %priv_dynamic = OpFunction
// CHECK: %a = OpVariable %_ptr_Function__arr_uint_ulong_32 Function
// CHECK-NOT: OpUConvert %uint
// REMARK: priv_dynamic: [private-arrays] missed: length of 'a[32]': index %{{[0-9]+}} has no proven range
// REMARK-NEXT: priv_dynamic: [private-arrays] missed: narrow 'a': the store of %{{[0-9]+}} stores a value that is neither a constant nor load + constant
// REMARK-NEXT: priv_dynamic: [private-arrays] note: 'a[32]' unchanged: no rewrite proven
// REMARK-NOT: applied
kernel void priv_dynamic(global const int *in, global const int *idx, global int *out)
{
    size_t i = get_global_id(0);
    int a[32];
    for (int k = 0; k < 32; k++)
        a[k] = in[i * 32 + k] * 3;
    out[i] = a[idx[i]];
}
