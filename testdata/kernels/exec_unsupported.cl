kernel void exec_unsupported(global float *a)
{
   size_t i = get_global_id(0);
   a[i] = lgamma(a[i]);
}
