// xeopt-test: -O2 fp64
// exec_math_fp64: exec_math.cl's sample of OpenCL.std on double, checked
// against libm by tests/test_exec_math.c.  In testdata/exec/: IGC cannot
// compile double for dg2, and the whole-pipeline tests compile every
// testdata/spv module for dg2.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void math_double(global const double *a, global const double *b, global double *o)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i], c;
    global double *r = o + i * 32;
    int k = 0;
    r[k++] = sin(x); r[k++] = atan2(x, y); r[k++] = sincos(x, &c); r[k++] = c;
    r[k++] = cosh(x); r[k++] = atanh(x * 0.5); r[k++] = exp10(x); r[k++] = log1p(x);
    r[k++] = pow(y, x); r[k++] = rootn(y, 3); r[k++] = rsqrt(y); r[k++] = hypot(x, y);
    r[k++] = fma(x, y, x); r[k++] = rint(x * 10.0 - 5.0); r[k++] = fmod(y, x + 0.25);
    r[k++] = nextafter(x, y); r[k++] = mix(x, y, 0.25); r[k++] = smoothstep(0.25, 0.75, x);
    r[k++] = cbrt(y); r[k++] = tanpi(x * 0.25);
}
