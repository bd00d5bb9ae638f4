// generic-address, refused: `p` points into local or global memory
// depending on a run-time argument, so two address spaces reach it and it
// must stay generic; the load through it keeps its generic pointer.
//
// CLANG: -O0
// RUN: --passes=generic-address
// CHECK-LABEL: %mixed = OpFunction
// CHECK: %p = OpVariable %_ptr_Function__ptr_Generic_float Function
// CHECK: [[P:%[0-9]+]] = OpLoad %_ptr_Generic_float %p
// CHECK-NEXT: OpLoad %float [[P]]
// CHECK-NOT: OpGenericCastToPtr
// CHECK: OpFunctionEnd
// REMARK: mixed: [generic-address] missed: in mixed, pointer %{{.*}} stays generic: two address spaces reach it
// REMARK-NOT: applied
kernel void mixed(global float *g, local float *l, global float *out, int use_local)
{
    size_t i = get_global_id(0);
    size_t li = get_local_id(0);
    l[li] = g[i] + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float *p;
    if (use_local)
        p = l + li;
    else
        p = g + i;
    out[i] = *p;
}
