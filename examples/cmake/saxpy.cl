// y = a * x + y over n elements; the guard keeps a rounded-up NDRange safe.
kernel void saxpy(float a, global const float *x, global float *y, int n)
{
   int i = get_global_id(0);
   if (i < n)
      y[i] = a * x[i] + y[i];
}
