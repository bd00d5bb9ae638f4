kernel void exec_reduce(global const int *src, global int *out, local int *tmp)
{
   size_t l = get_local_id(0), n = get_local_size(0);
   tmp[l] = src[get_global_id(0)];
   barrier(CLK_LOCAL_MEM_FENCE);
   for (size_t s = n / 2; s > 0; s /= 2) {
      if (l < s)
         tmp[l] += tmp[l + s];
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   if (l == 0)
      out[get_group_id(0)] = tmp[0];
}
