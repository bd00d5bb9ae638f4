// xeopt-test: -O2
// verify_byte_params: a `global uchar *` argument read as uints, as LLVM's
// opaque pointers write a struct-of-counts argument (clang 21's backend:
// hashcat's `kernel_param_t *`).  --verify fills it with small uints, as it
// would the declared struct: random bytes read as a uint index far past
// any buffer, and no launch would be valid.
kernel void verify_byte_params(global const uchar *prm, global const float *table,
                               global float *out)
{
    global const uint *p = (global const uint *)prm;
    size_t i = get_global_id(0);
    out[i] = table[p[0]] + (float)i;
}
