constant int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
typedef struct { int a; char b; long c; } S;
kernel void exec_misc(global int *out, S s, global const half *h, global uchar *u)
{
   size_t i = get_global_id(0);
   int p[8] = {1, 2, 3, 4, 5, 6, 7, 8};
   out[i] = table[i % 8] * 10 + p[(i + 1) % 8] + s.a + s.b + (int)s.c + (int)(vload_half(i, (global const half*)h) * 2.0f);
   u[i] = convert_uchar_sat(out[i]);
}
