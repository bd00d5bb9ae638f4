// padding_group: the index written from group and local ids,
// get_group_id(0) * get_local_size(0) + get_local_id(0), i.e. the global id
// without the global offset: the padding needs global_size[0] elements.
kernel void padding_group(global float *out, global const float *in, int n)
{
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (i < n)
        out[i] = in[i] + 2.0f;
}
