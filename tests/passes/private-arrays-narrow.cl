// private-arrays: the guide's private histogram in small.  `ulong bins[16]`
// counts 64 values, so no bin exceeds 64: the pass narrows the elements to
// 8 bits (loads widen back with OpUConvert, stores narrow), which lets IGC
// keep the array in fewer registers.  The cost model says the array in
// registers is faster on dg2 but slower on pvc (per-lane indirect moves), so
// the rewrite is made for --target=dg2 (RUN) and refused for the default
// dg2,pvc (RUN-PVC).  llvm-spirv-15 leaves the zero initializer's
// UniformConstant out of the interface and writes the blocks out of
// dominance order, so interface-vars and block-order run first (the output
// must validate).
//
// RUN: --passes=interface-vars,block-order,private-arrays --target=dg2
// CHECK-DAG: %uchar = OpTypeInt 8 0
// CHECK-DAG: [[ARR:%_arr_uchar_ulong_16]] = OpTypeArray %uchar %ulong_16
// CHECK-DAG: [[PTR:%[A-Za-z0-9_]+]] = OpTypePointer Function [[ARR]]
// CHECK-LABEL: %small_hist = OpFunction
// CHECK: %bins = OpVariable [[PTR]] Function
// CHECK: [[P:%[A-Za-z0-9_]+]] = OpInBoundsPtrAccessChain %_ptr_Function_uchar %bins %ulong_0 %idxprom7
// CHECK-NEXT: [[OLD:%[0-9]+]] = OpLoad %uchar [[P]] Aligned 1
// CHECK-NEXT: [[WIDE:%[0-9]+]] = OpUConvert %ulong [[OLD]]
// CHECK-NEXT: [[SUM:%[A-Za-z0-9_]+]] = OpIAdd %ulong [[WIDE]] %ulong_1
// CHECK-NEXT: [[NARROW:%[0-9]+]] = OpUConvert %uchar [[SUM]]
// CHECK-NEXT: OpStore [[P]] [[NARROW]] Aligned 1
// REMARK: small_hist: [interface-vars] applied: added 1 global variable
// REMARK: small_hist: [block-order] applied: reordered the blocks
// REMARK: small_hist: [private-arrays] applied: narrow: 'bins' elements 64 -> 8 bits: values stay below 65 (constants and bounded increments)
// MANIFEST-NOT: {{.}}
//
// RUN-PVC: --passes=interface-vars,block-order,private-arrays
// PVC: %bins = OpVariable %_ptr_Function__arr_ulong_ulong_16 Function
// PVC-NOT: %uchar
// PVC-REMARK: small_hist: [private-arrays] missed: 'bins[16]' -> [16] x 1 bytes not made: the cost model says slower on pvc (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc{{(/[a-z]+)*}} {{[0-9]+}} -> {{[0-9]+}}{{(, [a-z/]+ [0-9]+ -> [0-9]+)*}} cycles; a dynamically indexed array in registers costs per-lane indirect moves)
kernel void small_hist(global const uint *in, global ulong *out)
{
    size_t i = get_global_id(0);
    ulong bins[16];
    for (int k = 0; k < 16; k++)
        bins[k] = 0;
    for (int k = 0; k < 64; k++)
        bins[in[i * 64 + k] & 15] += 1;
    for (int k = 0; k < 16; k++)
        out[i * 16 + k] = bins[k];
}
