// padding: `if (i < n) out[i] = in[i];` loses its guard when the host pads
// both buffers to the rounded-up NDRange (--assume-padded); the manifest says
// how many elements each buffer needs.  Without the opt-in the pass only
// says what it could do (RUN-NOTE).
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %padding_guard = OpFunction
// CHECK-NOT: OpBranchConditional
// CHECK: OpLoad %float
// CHECK: OpStore
// CHECK: OpFunctionEnd
// REMARK: padding_guard: [padding] applied: removed guard 'get_global_id(0) < n' {{.*}}(disjoint); buffers padded: out (arg 0) to global_size[0] + global_offset[0] elements, in (arg 1) to global_size[0] + global_offset[0] elements
// MANIFEST: "padding_guard":
// MANIFEST: "kind": "guard",
// MANIFEST-NEXT: "condition": "x < n",
// MANIFEST-NEXT: "proof": "disjoint"
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 0,
// MANIFEST: "text": "global_size[0] + global_offset[0]",
// MANIFEST: "kind": "buffer",
// MANIFEST-NEXT: "arg": 1,
//
// RUN-NOTE: --passes=padding
// NOTE: OpBranchConditional
// NOTE-REMARK: padding_guard: [padding] note: could remove guard 'get_global_id(0) < n' {{.*}}with --assume-padded if buffers were padded: out (arg 0) to global_size[0] + global_offset[0] elements
// NOTE-MANIFEST-NOT: {{.}}
kernel void padding_guard(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
