// xeopt-test: -O2
// block_io_types: lane-contiguous copies of 8-, 16- and 64-bit elements and
// of half, for the cl_intel_subgroups_char/_short/_long block forms (no
// double: dg2 has no fp64).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_io_types(global uchar *c, global const uchar *c2,
                           global ushort *s, global const ushort *s2,
                           global ulong *l, global const ulong *l2,
                           global half *h, global const half *h2)
{
    size_t i = get_global_id(0);
    c[i] = c2[i];
    s[i] = s2[i];
    l[i] = l2[i];
    h[i] = h2[i];
}
