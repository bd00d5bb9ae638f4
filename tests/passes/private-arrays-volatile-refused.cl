// private-arrays, Volatile kept by the cost model: a `volatile int a[16]`
// indexed by loaded data (`v & 15`).  Volatile keeps it in private memory;
// without it the 64-byte array fits in registers, where a per-lane index
// costs indirect moves (IGC 22.43: ISA estimate dg2 2799 -> 5672, pvc
// 1692 -> 5010 with Volatile dropped).  So the accesses keep Volatile and
// the remark gives both estimates; --target=none drops it without asking.
// (private-arrays-volatile.cl is the accepted case: constant indices.)
//
// RUN: --passes=private-arrays
// CHECK-LABEL: %vol_dyn = OpFunction
// CHECK: OpStore {{.*}} Volatile
// REMARK: vol_dyn: [private-arrays] missed: volatile: 'a[16]' keeps Volatile: the cost model says dropping it is slower on dg2 (estimate dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc{{(/[a-z]+)*}} {{[0-9]+}} -> {{[0-9]+}}{{(, [a-z/]+ [0-9]+ -> [0-9]+)*}} cycles; the array would move into registers, where a dynamically indexed array costs per-lane indirect moves)
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
//
// RUN-NONE: --passes=private-arrays --target=none
// NONE-LABEL: %vol_dyn = OpFunction
// NONE-NOT: Volatile
// NONE-REMARK: vol_dyn: [private-arrays] applied: volatile: dropped Volatile from 34 Function-storage loads/stores (private memory is visible to no one else)
kernel void vol_dyn(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    volatile int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = 0;
    for (int k = 0; k < 64; k++) {
        int v = in[i * 64 + k];
        a[v & 15] += v;
    }
    int s = 0;
    for (int k = 0; k < 16; k++)
        s += a[k] * k;
    out[i] = s;
}
