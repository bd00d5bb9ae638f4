// xeopt-test: -O2
// pad_atomic: guard whose body does an atomic_add on a shared counter. Padded
// lanes would change the result, so the guard must stay.
kernel void pad_atomic(global const int *in, global int *sum, int n)
{
    int i = get_global_id(0);
    if (i < n)
        atomic_add(sum, in[i]);
}
