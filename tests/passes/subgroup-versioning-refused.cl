// subgroup-versioning, refused, one reason per kernel.  guarded_barrier: the
// region has a barrier, and sub-groups of one work-group could take
// different copies.  guarded_copy: a copy's one block read and write do not
// pay for the run-time test, so the cost model (default --target=dg2,pvc)
// refuses it and gives both estimates.  Neither kernel changes.
//
// RUN: --passes=subgroup-versioning
// CHECK-NOT: OpGroupIAdd
// CHECK-NOT: OpSubgroupBlock
// CHECK-NOT: SubgroupMaxSize
// REMARK-DAG: guarded_barrier: [subgroup-versioning] missed: no fast copy of the region guarded by %cmp: the region has a barrier (sub-groups of one work-group could take different copies)
// REMARK-DAG: guarded_copy: [subgroup-versioning] missed: {{.*}}cost model{{.*}}dg2 {{[0-9]+}} -> {{[0-9]+}}, pvc{{(/[a-z]+)*}} {{[0-9]+}} -> {{[0-9]+}}
// REMARK-NOT: applied
// MANIFEST-NOT: {{.}}
kernel void guarded_barrier(global const float *in, global float *out, local float *tmp, int n)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    if (i < n) {
        tmp[l] = in[i];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[i] = tmp[l];
    }
}

kernel void guarded_copy(global int *dst, global const int *src, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}
