// generic-address, applied in the kernel's own body: at -O0 clang keeps
// `p` in a generic-pointer variable, and only global memory reaches it, so
// the load through it becomes a CrossWorkgroup load.  Two kernels, each
// with such a pointer: both are rewritten, the first as the second (the
// pass names a function by the kernel it is the entry point of; a kernel
// it failed to name would be skipped as a dead helper).
//
// CLANG: -O0
// RUN: --passes=generic-address
// CHECK-LABEL: %first = OpFunction
// CHECK: [[P:%[0-9]+]] = OpLoad %_ptr_Generic_float %p
// CHECK-NEXT: [[G:%[0-9]+]] = OpGenericCastToPtr %_ptr_CrossWorkgroup_float [[P]]
// CHECK-NEXT: OpLoad %float [[G]]
// CHECK-LABEL: %second = OpFunction
// CHECK: [[P2:%[0-9]+]] = OpLoad %_ptr_Generic_float %p
// CHECK-NEXT: [[G2:%[0-9]+]] = OpGenericCastToPtr %_ptr_CrossWorkgroup_float [[P2]]
// CHECK-NEXT: OpLoad %float [[G2]]
// REMARK: first: [generic-address] applied
// REMARK: second: [generic-address] applied
kernel void first(global float *g, global float *out)
{
    size_t i = get_global_id(0);
    float *p = g + i;
    out[i] = *p * 2.0f;
}

kernel void second(global float *g, global float *out)
{
    size_t i = get_global_id(0);
    float *p = g + i;
    out[i] = *p + 1.0f;
}
