// private-arrays, the model per device: a rewrite made for --target=pvc and
// refused for --target=bmg.
//
// hist_wide: the guide's private histogram with 64-bit bins whose values stay
// below 2^21, so the pass narrows them to uint (256 B -> 128 B).  The model
// keeps a dynamically indexed array in registers up to reg_limit bytes per
// work-item: 64 on pvc (IGC 22.43), 192 on bmg (IGC 2.40).  So on pvc both
// arrays are in scratch and narrowing halves the bytes moved; on bmg the
// narrowed array moves into registers, where each of its 512 data-indexed
// accesses costs per-lane indirect moves.  IGC agrees with both verdicts
// (bench/isa --stats, ISA estimate input -> narrowed): IGC 22.43 on pvc
// 18,820 -> 9,355 (private messages 258 -> 192), IGC 2.40 on bmg
// 8,396 -> 24,467 (1,040 -> 0 private messages, the indirect moves).  IGC
// 2.40 on pvc loses too (10,208 -> 24,581): the pvc weights are IGC 22.43's
// (docs/cost-model.md, "IGC 2.x").
//
// few_dynamic: shortening a[32] (128 B) to a[16] (64 B) with three
// data-indexed accesses.  On pvc it brings the array under reg_limit, and the
// 32 scratch messages of the constant-indexed accesses outweigh the three
// indirect moves (IGC 22.43 69 -> 68 instructions); on bmg both lengths are
// in registers, so the estimate does not change and the rewrite is made
// (IGC 2.40 74 -> 74).
//
// RUN: --passes=interface-vars,block-order,private-arrays --target=pvc
// CHECK-LABEL: %hist_wide = OpFunction
// CHECK: OpVariable %_ptr_Function__arr_uint_ulong_32 Function
// CHECK-LABEL: %few_dynamic = OpFunction
// CHECK: OpVariable %_ptr_Function__arr_uint_ulong_16 Function
// REMARK-DAG: hist_wide: [private-arrays] applied: narrow: 'histogram' elements 64 -> 32 bits: values stay below 2097153
// REMARK-DAG: few_dynamic: [private-arrays] applied: length: 'a[32]' -> [16]: every index is below 16
//
// RUN-BMG: --passes=interface-vars,block-order,private-arrays --target=bmg
// BMG-LABEL: %hist_wide = OpFunction
// BMG: OpVariable %_ptr_Function__arr_ulong_ulong_32 Function
// BMG-LABEL: %few_dynamic = OpFunction
// BMG: OpVariable %_ptr_Function__arr_uint_ulong_16 Function
// BMG-REMARK-DAG: hist_wide: [private-arrays] missed: 'histogram[32]' -> [32] x 4 bytes not made: the cost model says slower on bmg (estimate bmg {{[0-9]+}} -> {{[0-9]+}} cycles; a dynamically indexed array in registers costs per-lane indirect moves)
// BMG-REMARK-DAG: few_dynamic: [private-arrays] applied: length: 'a[32]' -> [16]: every index is below 16
__attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void hist_wide(global const ulong *input, global ulong *hist)
{
    int base = get_group_id(0) * 64 * 64 + get_sub_group_id() * 16 * 64;
    int lane = get_sub_group_local_id();
    ulong histogram[32];
    for (int k = 0; k < 32; k++)
        histogram[k] = 0;
    for (int k = 0; k < 64; k++) {
        ulong x = input[base + 16 * k + lane];
#pragma unroll
        for (int i = 0; i < 8; i++) {
            histogram[x & 31] += 4096;
            x = x >> 8;
        }
    }
    size_t gid = get_global_id(0);
    for (int k = 0; k < 32; k++)
        hist[gid * 32 + k] = histogram[k];
}

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
