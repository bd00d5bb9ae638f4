// xeopt-test: -O2
// verify_rowmajor: a row-major 2-D output out[y * w + x] with a row length
// argument, and an input read column-major with a compile-time pitch of
// 65536 floats.  --verify must synthesize launches the input runs on: a
// 2-D NDRange, w tied to it, and an input buffer grown to what the
// kernel reaches (the random launches of old had "no launch was valid").
kernel void verify_rowmajor(global float *out, global const float *in, int w)
{
   int x = get_global_id(0), y = get_global_id(1);
   out[y * w + x] = in[x * 65536 + y] * 2.0f;
}
