/* Generic address space cases (seed opencl20-generic-address-space). */
void generic_xtoy(uchar *in, uchar *out, uint from, uint to, uint len)
{
   for (uint i = from; i < from + len;)
      out[to++] = in[i++];
}

kernel void generic_address_memcpy(global uchar *g, global uchar *dst, uint n)
{
   local uchar tile[64];
   tile[get_local_id(0)] = g[get_global_id(0)];
   barrier(CLK_LOCAL_MEM_FENCE);
   generic_xtoy(g, dst, 0, 0, n);
   generic_xtoy(tile, dst, 0, n, n & 63);
}

/* The same helper, called only with global pointers. */
void generic_xtoy_g(uchar *in, uchar *out, uint from, uint to, uint len)
{
   for (uint i = from; i < from + len;)
      out[to++] = in[i++];
}

kernel void generic_address_global_only(global uchar *a, global uchar *b, uint n)
{
   generic_xtoy_g(a, b, 0, 0, n);
}

kernel void generic_address_private_var(global int *a, global int *b)
{
   int *p = a + get_global_id(0);
   int *q = b;
   q[get_global_id(0)] = *p + 1;
}

kernel void generic_address_phi(global int *a, global int *out, int c)
{
   local int l[16];
   l[get_local_id(0)] = a[get_global_id(0)];
   barrier(CLK_LOCAL_MEM_FENCE);
   int *p = c ? (int *)a : (int *)l;
   out[get_global_id(0)] = p[get_local_id(0)];
}

kernel void generic_address_to_global(global int *a, global int *out)
{
   int *p = a;
   global int *g = to_global(p);
   local int *l = to_local(p);
   out[get_global_id(0)] = g ? g[get_global_id(0)] : (l ? 1 : 2);
}
