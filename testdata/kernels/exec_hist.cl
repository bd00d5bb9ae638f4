kernel void exec_hist(global const uchar *src, global int *hist, int per_item)
{
   int h[16];
   for (int k = 0; k < 16; k++)
      h[k] = 0;
   size_t base = get_global_id(0) * per_item;
   for (int k = 0; k < per_item; k++)
      h[src[base + k] & 15]++;
   for (int k = 0; k < 16; k++)
      if (h[k])
         atomic_add(&hist[k], h[k]);
}
