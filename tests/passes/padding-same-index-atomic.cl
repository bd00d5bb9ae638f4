// padding, the same_index proof in a kernel that also has an atomic outside
// the guarded region: `in` is only read, so an item outside the NDRange
// (x >= w or y >= h) that runs the copy reads in's padding and writes
// either out's padding or exactly what the item of the same index writes.
// The atomic_inc writes only through `count`; its other operands (scope,
// semantics: constants) are no pointers and write no buffer, so `in` does
// not count as written.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %copy_count = OpFunction
// CHECK: %conv2 = OpUConvert %uint %call1
// CHECK-NEXT: OpBranch %if_then
// CHECK: OpStore %arrayidx10
// CHECK: OpBranchConditional %or_cond
// CHECK: OpAtomicIIncrement
// CHECK: OpFunctionEnd
// REMARK: copy_count: [padding] applied: removed guard 'get_global_id(0) < w && get_global_id(1) < h' (same_index); buffers padded: out (arg 0) to {{.*}}, in (arg 1) to {{.*}} elements
// REMARK-NOT: both read and written
// MANIFEST: "copy_count":
// MANIFEST: "kind": "guard",
// MANIFEST-NEXT: "condition": "x < w && y < h",
// MANIFEST-NEXT: "proof": "same_index"
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 0,
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 1,
// MANIFEST-NOT: "arg": 4,
kernel void copy_count(global float *out, global const float *in, int w, int h, global int *count)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = in[y * w + x] * 2.0f;
    if (x == 0 && y == 0)
        atomic_inc(count);
}
