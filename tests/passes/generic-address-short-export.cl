// generic-address: an exported helper whose name fits in one word ("cp":
// its LinkageAttributes decoration is 4 operands, target, decoration, name,
// linkage type) is exported like any other: other modules may call it with
// anything, so its generic parameters stay generic and this module's one
// call goes to a copy specialised to global pointers.  Taking it for an
// internal function would rewrite the exported original in place, casting
// its parameters to CrossWorkgroup.
//
// CLANG: -O0
// RUN: --passes=generic-address
// CHECK: OpDecorate %cp LinkageAttributes "cp" Export
// CHECK-LABEL: %cp = OpFunction %void
// CHECK-NOT: OpGenericCastToPtr
// CHECK: OpFunctionEnd
// CHECK-LABEL: %short_export = OpFunction
// CHECK: OpFunctionCall %void %cp_CrossWorkgroup_CrossWorkgroup
// CHECK: OpFunctionEnd
// CHECK-LABEL: %cp_CrossWorkgroup_CrossWorkgroup = OpFunction %void None
// CHECK: OpGenericCastToPtr %_ptr_CrossWorkgroup_uint
// CHECK: OpGenericCastToPtr %_ptr_CrossWorkgroup_uint
// CHECK: OpFunctionEnd
// REMARK: short_export: [generic-address] applied: cp is exported, so it stays as it is for other modules; its calls here go to 1 internal copy
// REMARK: short_export: [generic-address] applied: in cp.CrossWorkgroup.CrossWorkgroup: 4 generic pointer values given a specific storage class
// MANIFEST-NOT: {{.}}
void cp(int *dst, const int *src, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = src[k];
}

kernel void short_export(global int *out, global const int *in, int n)
{
    int g = get_group_id(0);
    cp(out + g * n, in + g * n, n);
}
