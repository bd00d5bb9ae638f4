kernel void exec_loop(global const float *a, global float *out, int trips)
{
   size_t i = get_global_id(0);
   float s = 0.0f;
   for (int k = 0; k < trips; k++)
      s = fma(a[i], (float)k, s) + fmax(a[i], 0.5f);
   out[i] = s + sqrt(fabs(a[i])) + (float)max((int)i, 3) + clamp((int)i - 10, 0, 5);
}
