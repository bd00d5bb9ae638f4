// padding_affine: index expressions for tests/test_affine.c; the k-th store
// stores the k-th expression.
kernel void padding_affine(global int *out, int w, int off)
{
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0);
    out[0] = (lx << 2) + 3;        // 4*lx + 3
    out[1] = y * w * 2 + x - 1;    // x + 2*y*w - 1
    out[2] = x * y;                // not affine: id * id
    out[3] = w * off;              // not affine here: argument * argument
    out[4] = (x + off) * 4;        // 4*x + 4*off
}
