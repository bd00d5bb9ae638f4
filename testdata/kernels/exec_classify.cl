// xeopt-test: -O2
// Float classification (OpIsFinite, OpIsNormal, OpSignBitSet, OpIsNan,
// OpIsInf; islessgreater becomes an ordered not-equal) for
// tests/test_exec_classify.c.
kernel void exec_classify(global const float *a, global const float *b, global int *out)
{
   int i = get_global_id(0);
   float x = a[i], y = b[i];
   out[i] = isfinite(x) | isnormal(x) << 1 | signbit(x) << 2 | islessgreater(x, y) << 3 |
            isnan(x) << 4 | isinf(x) << 5;
}
