kernel void exec_wg(global const int *src, global int *dst)
{
   size_t i = get_global_id(0);
   int x = src[i];
   dst[i] = work_group_reduce_add(x) * 1000 + work_group_broadcast(x, 5) +
            work_group_scan_inclusive_max(x) * 100000 + work_group_any(x == 7);
}
