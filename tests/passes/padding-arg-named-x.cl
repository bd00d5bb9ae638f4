// padding: a kernel whose arguments are named x and y, as the global id's
// short names are.  The remarks spell the ids as OpenCL C does, so the
// guard reads 'get_global_id(0) < x', never 'x < x'; a missed guard's
// reason names the index the same way (the global id without the offset
// bracketed where it is negated).  The manifest's condition keeps its
// documented short names (docs/manifest.md; testdata/golden checks it).
//
// RUN: --passes=padding --assume-padded
// REMARK: clip: [padding] applied: removed guard 'get_global_id(0) < x && get_global_id(1) < y' (same_index); buffers padded: out (arg 0) to global_size[0] + global_offset[0] + x*global_size[1] + x*global_offset[1] - x elements
// REMARK: reversed: [padding] missed: guard 'get_group_id(0)*get_local_size(0) + get_local_id(0) < x' stays: the index -(get_group_id(0)*get_local_size(0) + get_local_id(0)) + x into out may be negative
kernel void clip(global float *out, global const float *in, int x, int y)
{
    int i = get_global_id(0), j = get_global_id(1);
    if (i < x && j < y)
        out[i + x * j] = in[i + x * j] * 2.0f;
}

kernel void reversed(global float *out, int x)
{
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (i < x)
        out[x - i] = 1.0f;
}
