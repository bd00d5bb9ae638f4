// private-arrays, the model per device: a rewrite made for --target=pvc and
// refused for --target=bmg.  Shortening a[32] to a[16] brings the array
// under reg_limit (64 B), so IGC keeps it in registers: the 32 accesses with
// constant indices (the two loops, unrolled) stop being scratch messages,
// and the three with an index from memory become per-lane indirect moves.
// Per byte of such an access bmg's reg_indirect is 19.8 (measured with IGC
// 2.40), pvc's 9.7 (IGC 22.43): on pvc the saved messages outweigh them, on
// bmg they do not.  Measured (bench/isa --stats, instructions): IGC 22.43 on
// pvc 69 -> 68; IGC 2.40 on bmg 74 -> 74 (no gain, so refusing costs
// nothing) and on pvc 85 -> 87 (IGC 2.40 disagrees with 22.43's pvc
// weights by two instructions; docs/cost-model.md "IGC 2.x").
//
// RUN: --passes=interface-vars,block-order,private-arrays --target=pvc
// CHECK: OpVariable %_ptr_Function__arr_uint_ulong_16 Function
// REMARK: few_dynamic: [private-arrays] applied: length: 'a[32]' -> [16]: every index is below 16
//
// RUN-BMG: --passes=interface-vars,block-order,private-arrays --target=bmg
// BMG: OpVariable %_ptr_Function__arr_uint_ulong_32 Function
// BMG-REMARK: few_dynamic: [private-arrays] missed: 'a[32]' -> [16] x 4 bytes not made: the cost model says slower on bmg (estimate bmg {{[0-9]+}} -> {{[0-9]+}} cycles
// BMG-REMARK-NOT: applied
kernel void few_dynamic(global const int *in, global int *out, int n)
{
    int a[32];
    for (int j = 0; j < 16; j++)
        a[j] = in[j] * 3;
    int s = 0;
    for (int j = 0; j < 16; j++)
        s += a[j] * j;
    out[get_global_id(0)] = s + a[in[n + 1] & 15] + a[in[n + 2] & 15] + a[in[n + 3] & 15];
}
