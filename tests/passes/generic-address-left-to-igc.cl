// generic-address, asked of the model: where no call is DontInline and
// every generic pointer is only loaded or stored through (no copy, atomic
// or built-in), IGC inlines every call and resolves each address space
// this pass can prove itself, so the rewrite gains nothing and a kernel
// whose model is asked is left as it is, with a note.  Measured on
// testdata's generic_address_O2 (clang -O2, this kernel among them): IGC
// 2.40 (dg2, pvc, bmg, lnl, ptl) and IGC 22.43 (dg2, pvc) compile it alike
// with the rewrite alone and without it; with it, plain -O2 also keeps
// canonicalize's forms, which move IGC's other choices.  clang -O0 makes
// every function DontInline:
// there the pass copies the helpers without it (generic-address-helper.cl);
// generic-address-copy.spvasm is the copy case.
// With --target=none the model is not asked and the pass retypes
// (RUN-NONE).
//
// RUN: --passes=generic-address
// CHECK-LABEL: %left_to_igc = OpFunction
// CHECK: %add_ptr_ascast = OpPtrCastToGeneric %_ptr_Generic_uint %add_ptr
// CHECK: OpLoad %uint %add_ptr_ascast
// CHECK: OpFunctionEnd
// REMARK: [generic-address] note: 1 kernel left to IGC: no call here is DontInline, so IGC inlines every call and resolves itself each address space this pass proves; every generic pointer is only loaded or stored through, so the rewrite gains nothing and moves IGC's other choices (--target=none makes it)
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
//
// RUN-NONE: --passes=generic-address --target=none
// NONE-LABEL: %left_to_igc = OpFunction
// NONE: %add_ptr_ascast = OpBitcast %_ptr_CrossWorkgroup_uint %add_ptr
// NONE-NOT: OpPtrCastToGeneric
// NONE-REMARK: left_to_igc: [generic-address] applied: in left_to_igc: 2 generic pointer values given a specific storage class
// NONE-REMARK-NOT: note
kernel void left_to_igc(global int *a, global int *b)
{
   int *p = a + get_global_id(0);
   int *q = b;
   q[get_global_id(0)] = *p + 1;
}
