static void bump(int *p, int v) { *p += v; }
kernel void exec_generic(global int *g, local int *l)
{
   size_t i = get_global_id(0), li = get_local_id(0);
   int priv = (int)i;
   l[li] = 100;
   bump(&g[i], 5);
   bump(&priv, 2);
   bump(&l[li], (int)li);
   barrier(CLK_LOCAL_MEM_FENCE);
   g[i] += priv * 1000 + l[(li + 1) % get_local_size(0)];
}
