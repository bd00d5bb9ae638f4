typedef struct { int a; float b; } pair;
static float4 scale(float4 v, float s) { return v * s; }
static pair mk(int a, float b) { pair p = {a, b}; return p; }
kernel void exec_vec(global float4 *io, global int *o2, global long *o3, int n)
{
   size_t i = get_global_id(0);
   float4 v = scale(io[i], 2.0f);
   v.yz = v.zy;
   pair p = mk((int)i, v.x);
   int4 c = convert_int4_sat(v * 1000.0f);
   o2[i] = c.x + c.y + c.z + c.w + p.a + (int)p.b + (n / (int)(i + 1)) + (n % 7) + (-n >> 2) + (int)((uint)n >> 1);
   o3[i] = (long)i * 0x100000001L + (long)(as_uint(v.w) ^ 0x55) + popcount((uint)n) + clz(n) + rotate((uint)n, 3u);
   io[i] = select(v, -v, v > 0.5f) + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}
