// padding, refused: a 2-D guard (not a threshold on one id, so only the
// same_index proof could remove it) where the first store of the region
// writes a value that depends on the ids other than through its index
// (`rows[k] = y`, k = y*w + x).  Item (x + w, y - 1) of the padded launch
// has the same k as item (x, y) and would overwrite rows[k] with y - 1.
// The check runs over every store, the first one included: the guard stays,
// the remark names rows, and no manifest is written.  The second store
// (`out[k] = 7`) alone would pass.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %store_row = OpFunction
// CHECK: OpBranchConditional
// REMARK: store_row: [padding] missed: guard 'get_global_id(0) < w && get_global_id(1) < h' stays: the guard is not a threshold on one id; and a value stored to rows depends on the ids other than through its index
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
kernel void store_row(global int *out, global int *rows, int w, int h)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < w && y < h) {
        rows[y * w + x] = y;
        out[y * w + x] = 7;
    }
}
