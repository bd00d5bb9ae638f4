__attribute__((intel_reqd_sub_group_size(16)))
kernel void exec_subgroup(global const uint *src, global uint *dst, global uint *dst2)
{
   size_t i = get_global_id(0);
   uint lane = get_sub_group_local_id();
   uint x = src[i];
   uint b = sub_group_broadcast(x, 3);
   uint s = intel_sub_group_shuffle(x, (lane + 1) & 15);
   size_t base = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
   uint br = intel_sub_group_block_read(src + base);
   dst[i] = b * 1000000 + s * 1000 + br + sub_group_reduce_add(lane);
   intel_sub_group_block_write(dst2 + base, x + get_sub_group_size());
}
