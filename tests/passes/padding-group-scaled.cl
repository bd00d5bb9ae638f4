// padding: the index 2 * (get_group_id(0) * get_local_size(0)) + get_local_id(0)
// keeps its group base and local id apart (their coefficients differ, so
// they do not fold into the global id): the form is lx + 2*bx, every
// coefficient non-negative, and the padding is 2*global_size[0] +
// local_size[0] - 2 elements.  Folding the pair anyway (2*gx - lx) gives a
// negative coefficient, for which no buffer size can be stated: the guard
// would stay and the pass say nothing.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %padding_group_scaled = OpFunction
// CHECK-NOT: OpBranchConditional
// CHECK: OpFunctionEnd
// REMARK: padding_group_scaled: [padding] applied: removed guard 'get_local_id(0) + 2*get_group_id(0)*get_local_size(0) < n' (same_index); buffers padded: out (arg 0) to local_size[0] + 2*global_size[0] - 2 elements, in (arg 1) to local_size[0] + 2*global_size[0] - 2 elements
// MANIFEST: "condition": "lx + 2*bx < n",
// MANIFEST: "text": "local_size[0] + 2*global_size[0] - 2",
kernel void padding_group_scaled(global float *out, global const float *in, int n)
{
    int b = get_group_id(0) * get_local_size(0);
    int i = 2 * b + get_local_id(0);
    if (i < n)
        out[i] = in[i] + 2.0f;
}
