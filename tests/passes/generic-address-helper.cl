// generic-address: a memcpy-like helper taking generic pointers, called
// with a global and with a local source (clang -O0 keeps the helper and its
// generic casts).  Each call goes to a copy of the helper specialised to its
// arguments' address spaces: the copy casts the generic pointer back to the
// one storage class that reaches it (OpGenericCastToPtr), so IGC needs no
// per-access address-space test.  The exported original stays for other
// modules.  Each copy is named for its arguments' spaces, in order; the
// remarks name generic_helper, the one kernel that runs the copies.
//
// CLANG: -O0
// RUN: --passes=generic-address
// CHECK-LABEL: %generic_helper = OpFunction
// CHECK: OpFunctionCall %void [[GG:%copy_n_CrossWorkgroup_CrossWorkgroup]]
// CHECK: OpFunctionCall %void [[GL:%copy_n_CrossWorkgroup_Workgroup]]
// CHECK: OpFunctionEnd
// The global-to-global copy: both pointers are CrossWorkgroup.
// CHECK: [[GG]] = OpFunction %void None
// CHECK: OpGenericCastToPtr %_ptr_CrossWorkgroup_uint
// CHECK: OpGenericCastToPtr %_ptr_CrossWorkgroup_uint
// CHECK: OpFunctionEnd
// The local source (dst global, src local): Workgroup, then the global destination.
// CHECK: [[GL]] = OpFunction %void None
// CHECK: OpGenericCastToPtr %_ptr_Workgroup_uint
// CHECK: OpGenericCastToPtr %_ptr_CrossWorkgroup_uint
// CHECK: OpFunctionEnd
// REMARK: generic_helper: [generic-address] applied: copy_n is exported, so it stays as it is for other modules; its calls here go to 2 internal copies, one per combination of argument address spaces
// REMARK: generic_helper: [generic-address] applied: in copy_n.CrossWorkgroup.CrossWorkgroup: 4 generic pointer values given a specific storage class
// REMARK: generic_helper: [generic-address] applied: in copy_n.CrossWorkgroup.Workgroup: 4 generic pointer values given a specific storage class
// MANIFEST-NOT: {{.}}
void copy_n(int *dst, const int *src, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = src[k];
}

kernel void generic_helper(global int *out, global const int *in, local int *tmp, int n)
{
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = get_group_id(0);
    copy_n(out + g * 2 * n, in + g * n, n);
    copy_n(out + g * 2 * n + n, tmp, n);
}
