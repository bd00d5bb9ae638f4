// private-arrays: a `volatile` private array.  Private memory is visible to
// no other work-item, so the Volatile memory operands go (the guide: never
// declare private variables volatile) and IGC may keep the values in
// registers.  clang has already split the array into 16 scalars.
//
// RUN: --passes=private-arrays
// CHECK-LABEL: %priv_volatile = OpFunction
// CHECK: %a_sroa_0 = OpVariable %_ptr_Function_uint Function
// CHECK-NOT: Volatile
// CHECK: OpFunctionEnd
// REMARK: priv_volatile: [private-arrays] applied: volatile: dropped Volatile from 32 Function-storage loads/stores (private memory is visible to no one else)
// MANIFEST-NOT: {{.}}
kernel void priv_volatile(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    volatile int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[i * 16 + k];
    int s = 0;
    for (int k = 0; k < 16; k++)
        s += a[(k * 5) & 15];
    out[i] = s;
}
