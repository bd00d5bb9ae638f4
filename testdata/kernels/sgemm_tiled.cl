// xeopt-test: -O2
// sgemm_tiled: single-precision C = A x B (row-major, M x K times K x N),
// the textbook shared-local-memory tiling: each 16 x 16 work-group stages
// one 16 x 16 tile of A and of B per step, then every work-item accumulates
// its element of C from the two tiles.  Sub-group size 16: the 16 lanes of a
// sub-group are one row of the tile, so the tile loads and the store of C
// are lane-contiguous (block I/O candidates once the host promises the
// sizes and alignment).  K and N must be multiples of 16; written for this
// project (issue 16's GEMM row).
#define TS 16
__attribute__((reqd_work_group_size(TS, TS, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sgemm_tiled(global const float *A, global const float *B, global float *C,
                        int M, int N, int K)
{
    const int col = get_local_id(0), row = get_local_id(1);
    const int gc = get_group_id(0) * TS + col, gr = get_group_id(1) * TS + row;
    local float As[TS][TS], Bs[TS][TS];
    float acc = 0.0f;
    for (int t = 0; t < K / TS; t++) {
        As[row][col] = A[gr * K + t * TS + col];
        Bs[row][col] = B[(t * TS + row) * N + gc];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[row][k] * Bs[k][col];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (gr < M)
        C[gr * N + gc] = acc;
}
