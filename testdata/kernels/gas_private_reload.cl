// xeopt-test: -O0
// gas_private_reload: a generic pointer (from a global buffer) is stored in a
// private variable and reloaded before use; the pass has to see through the
// store/load (at -O0 every local variable lives in a Function-storage slot).
kernel void gas_private_reload(global int *buf, int n)
{
    size_t i = get_global_id(0);
    int *p = (int *)buf;      /* generic pointer */
    int *q;
    q = p + i;                /* stored to a private slot */
    int v = *q;               /* reloaded, then dereferenced */
    *q = v + n;
}
