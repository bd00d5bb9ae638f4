kernel void exec_unsupported(global float *a)
{
   size_t i = get_global_id(0);
   printf("%d\n", (int)i);
   a[i] = a[i] + 1.0f;
}
