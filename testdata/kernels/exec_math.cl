// xeopt-test: -O2
// exec_math: a sample of every OpenCL.std family the interpreter runs
// (trigonometric, hyperbolic, exp/log, pow/root, rounding, remainders and
// their pointer results, min/max, native/half, common, geometric, integer,
// select) on float, integers and vectors; tests/test_exec_math.c checks each value
// against the C library.  The result order here is the test's order.
// The double kernel is exec_math_fp64.cl (dg2 has no fp64).

/* x in [0, 1), y in [1, 5). */
kernel void math_float(global const float *a, global const float *b, global float *o, global int *io)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i], t, c;
    int e, q;
    global float *r = o + i * 96;
    global int *n = io + i * 8;
    int k = 0;
    r[k++] = sin(x); r[k++] = cos(x); r[k++] = tan(x);
    r[k++] = asin(x); r[k++] = acos(x); r[k++] = atan(x); r[k++] = atan2(x, y);
    r[k++] = sinpi(x); r[k++] = cospi(x); r[k++] = tanpi(x * 0.25f);
    r[k++] = asinpi(x); r[k++] = acospi(x); r[k++] = atanpi(x); r[k++] = atan2pi(x, y);
    r[k++] = sincos(x, &c); r[k++] = c;
    r[k++] = sinh(x); r[k++] = cosh(x); r[k++] = tanh(x);
    r[k++] = asinh(x); r[k++] = acosh(y); r[k++] = atanh(x * 0.5f);
    r[k++] = exp(x); r[k++] = exp2(x); r[k++] = exp10(x); r[k++] = expm1(x);
    r[k++] = log(y); r[k++] = log2(y); r[k++] = log10(y); r[k++] = log1p(x); r[k++] = logb(y);
    n[0] = ilogb(y);
    r[k++] = pow(y, x); r[k++] = pown(y, 3); r[k++] = powr(y, x); r[k++] = rootn(y, 3);
    r[k++] = sqrt(y); r[k++] = rsqrt(y); r[k++] = cbrt(y); r[k++] = hypot(x, y);
    r[k++] = fma(x, y, x); r[k++] = mad(x, y, x);
    float z = x * 10.0f - 5.0f;
    r[k++] = ceil(z); r[k++] = floor(z); r[k++] = rint(z); r[k++] = round(z); r[k++] = trunc(z);
    r[k++] = fmod(y, x + 0.25f); r[k++] = remainder(y, x + 0.25f);
    r[k++] = remquo(y, x + 0.25f, &q); n[1] = q;
    r[k++] = fract(z, &t); r[k++] = t;
    r[k++] = modf(z, &t); r[k++] = t;
    r[k++] = frexp(y, &e); n[2] = e;
    r[k++] = ldexp(x, 3);
    r[k++] = fmin(x, y - 1.0f); r[k++] = fmax(x, y - 1.0f); r[k++] = fdim(y, x);
    r[k++] = copysign(x, z); r[k++] = nextafter(x, y);
    r[k++] = native_sin(x); r[k++] = native_exp(x); r[k++] = half_cos(x); r[k++] = half_log(y);
    r[k++] = native_divide(x, y); r[k++] = native_recip(y); r[k++] = half_sqrt(y);
    r[k++] = degrees(x); r[k++] = radians(y); r[k++] = mix(x, y, 0.25f);
    r[k++] = step(0.5f, x); r[k++] = smoothstep(0.25f, 0.75f, x); r[k++] = sign(z);
    r[k++] = clamp(x, 0.25f, 0.75f);
    r[k++] = erf(x); r[k++] = erfc(x); r[k++] = tgamma(y); r[k++] = lgamma(y);
    r[k++] = maxmag(z, x); r[k++] = minmag(z, x);
    n[3] = k;
}

kernel void math_int(global const int *a, global const int *b, global int *o, global uint *uo)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = (uint)x, uy = (uint)y;
    global int *r = o + i * 32;
    global uint *u = uo + i * 16;
    int k = 0;
    r[k++] = (int)abs(x); r[k++] = (int)abs_diff(x, y); r[k++] = add_sat(x, y); r[k++] = sub_sat(x, y);
    r[k++] = hadd(x, y); r[k++] = rhadd(x, y); r[k++] = clamp(x, -100, 100);
    r[k++] = (int)clz(x); r[k++] = (int)ctz(x); r[k++] = (int)popcount(x);
    r[k++] = mad_hi(x, y, 7); r[k++] = mul_hi(x, y); r[k++] = mad24(x & 0x7fffff, y & 0x7fff, 3);
    r[k++] = mul24(x & 0x7fffff, y & 0x7fff); r[k++] = rotate(x, y); r[k++] = min(x, y); r[k++] = max(x, y);
    r[k++] = mad_sat(x, y, x);
    short hs = (short)x; ushort ls = (ushort)y;
    r[k++] = upsample(hs, ls);
    int m = 0;
    u[m++] = add_sat(ux, uy); u[m++] = sub_sat(ux, uy); u[m++] = hadd(ux, uy); u[m++] = rhadd(ux, uy);
    u[m++] = mul_hi(ux, uy); u[m++] = min(ux, uy); u[m++] = max(ux, uy); u[m++] = clamp(ux, 10u, 1000u);
    u[m++] = abs_diff(ux, uy); u[m++] = rotate(ux, 5u);
    long l = (long)x * 100000; ulong ul = (ulong)ux * 4000000000ul;
    r[20] = (int)(mul_hi(l, l) & 0x7fffffff); r[21] = (int)(mul_hi(ul, ul) >> 16);
    r[22] = (int)clz(l); r[23] = (int)popcount(ul);
    r[24] = (int)add_sat((char)x, (char)y); r[25] = (int)sub_sat((uchar)x, (uchar)y);
}

kernel void math_vec(global const float4 *a, global const float4 *b, global float4 *o, global float *s)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    global float4 *r = o + i * 16;
    global float *q = s + i * 8;
    r[0] = cross(x, y); r[1] = normalize(y); r[2] = fast_normalize(y);
    r[3] = fmax(x, 0.5f); r[4] = clamp(x, 0.25f, 0.75f); r[5] = mix(x, y, 0.5f);
    r[6] = step(0.5f, x); r[7] = ldexp(x, 2); r[8] = sin(x);
    r[9] = select(x, y, (int4)(-1, 0, -1, 0)); r[10] = bitselect(x, y, as_float4((uint4)(0xffff0000u)));
    r[11] = smoothstep(0.0f, 1.0f, x);
    r[12] = shuffle(x, (uint4)(3, 2, 1, 0)); r[13] = shuffle2(x, y, (uint4)(4, 0, 5, 1));
    r[14] = pown(y, (int4)(1, 2, 3, 4));
    q[0] = dot(x, y); q[1] = length(y); q[2] = distance(x, y); q[3] = fast_length(y);
    q[4] = fast_distance(x, y); q[5] = length(x.xy);
    float3 c3 = cross(x.xyz, y.xyz);
    q[6] = c3.z;
}
