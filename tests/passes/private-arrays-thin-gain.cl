// private-arrays: a narrowing the model calls a gain of under 5% on every
// target device is not made: IGC's own choices (registers or scratch,
// indirect moves or selects) decide such a kernel, and in both directions.
// darktable's highlights_1f_lch_xtrans through ocloc 26 narrowed its
// `int cnt[3]` to 8 bits at a model gain of 1-2%: IGC 2.40 compiled it
// longer on dg2 (2854 -> 2863 instructions, numCycles 3330 -> 3550) and
// shorter on bmg.  Here `cnt` is counted in a short loop beside a long one,
// so its narrowing moves the estimate by 2-4%.  With --target=none the
// model is not asked and the pass narrows (RUN-NONE).
//
// RUN: --passes=interface-vars,block-order,private-arrays
// CHECK: %cnt = OpVariable %_ptr_Function__arr_uint_ulong_3 Function
// REMARK: thin: [private-arrays] missed: 'cnt[3]' -> [3] x 1 bytes not made: the cost model's gain is under 5% on every target device (estimate dg2 {{[0-9]+ -> [0-9]+}}, {{.*}} cycles), where IGC's own choices decide
// REMARK-NOT: [private-arrays] applied
//
// RUN-NONE: --passes=interface-vars,block-order,private-arrays --target=none
// NONE: %cnt = OpVariable %_ptr_Function__arr_uchar_ulong_3 Function
// NONE-REMARK: thin: [private-arrays] applied: narrow: 'cnt' elements 32 -> 8 bits
kernel void thin(global const uint *in, global float *out, int n)
{
    size_t x = get_global_id(0);
    int cnt[3] = { 0, 0, 0 };
    for (int j = 0; j < 3; j++)
        cnt[in[x * 3 + j] % 3] += 1;
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++)
            s += sin((float)in[x + j] * 0.5f) * cos((float)k) + exp((float)in[x + k]);
    out[x] = s + cnt[0] + 2 * cnt[1] + 3 * cnt[2];
}
