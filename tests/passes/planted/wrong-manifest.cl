// Planted: the manifest pads arguments 0 and 1; the MANIFEST-NOT line says
// argument 1 is not there.  The test must fail at the manifest check.
// EXPECT-FAIL: manifest wrong-manifest\.cl:6:\d+: error: MANIFEST-NOT. excluded string found
// RUN: --passes=padding --assume-padded
// MANIFEST: "arg": 0,
// MANIFEST-NOT: "arg": 1,
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
