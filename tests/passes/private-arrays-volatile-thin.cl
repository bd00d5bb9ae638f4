// private-arrays: dropping Volatile is asked of the model as one change
// for a function's private variables, scalars included, and not made
// where the gain is under 5% on every target device.  hashcat's
// m00000_mxx through clang's backend stores and reloads three scalar flags
// volatile (its `hc_atomic_inc (volatile ... )` helpers, inlined) on the
// rare path that reports a found hash: dropping that moved IGC 2.40 on ptl
// from SIMD32 to SIMD16, 166,195 -> 171,711 by the ISA estimate per
// work-item and 1,718,756 -> 2,713,346 by IGC's.  Here `flag` is one
// volatile scalar beside a long loop nest.  With --target=none the model is not
// asked and Volatile goes (RUN-NONE); private-arrays-volatile.cl is a
// clear gain.
//
// RUN: --passes=interface-vars,block-order,private-arrays
// CHECK-LABEL: %vol_thin = OpFunction
// CHECK: OpStore %flag {{%u?int_1}} Volatile
// REMARK: vol_thin: [private-arrays] missed: volatile: 1 private variable keep Volatile: the cost model's gain is under 5% on every target device (estimate dg2 {{[0-9]+ -> [0-9]+}}, {{.*}} cycles), where IGC's own choices decide
// REMARK-NOT: [private-arrays] applied
// MANIFEST-NOT: {{.}}
//
// RUN-NONE: --passes=interface-vars,block-order,private-arrays --target=none
// NONE-LABEL: %vol_thin = OpFunction
// NONE-NOT: Volatile
// NONE-REMARK: vol_thin: [private-arrays] applied: volatile: dropped Volatile from 2 Function-storage loads/stores (private memory is visible to no one else)
kernel void vol_thin(global const float *in, global float *out, global uint *found, int n)
{
    size_t x = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
            s += sin(in[x + j] * 0.5f) * cos((float)k) + exp(in[x + k]);
    if (s == 0.0f) {
        volatile int flag = 1;
        atomic_add(found, flag);
    }
    out[x] = s;
}
