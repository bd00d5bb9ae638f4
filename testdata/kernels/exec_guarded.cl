kernel void exec_guarded(global const int *src, global int *dst, int n)
{
   int i = get_global_id(0);
   if (i < n)
      dst[i] = src[i] * 3 - 7;
}
