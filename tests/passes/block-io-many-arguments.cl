// block-io with --assume-aligned on a kernel of 66 pointer arguments, each
// written with a block write: the manifest must ask for the 16-byte
// alignment of every one of them, d63, d64 and d65 included (it stopped
// at 64 before); an argument the manifest leaves out is one the host may
// pass unaligned to a block write.  The interpreter runs at most 64
// arguments (XE_EXEC_MAX_ARGS), so --verify only warns here.
//
// RUN: --passes=block-io --assume-aligned --target=dg2,bmg,lnl,ptl
// (not pvc: IGC 2.40 makes these block messages itself there; block-io-copy.cl)
// CHECK-LABEL: %many_args = OpFunction
// CHECK-COUNT-66: OpSubgroupBlockWriteINTEL
// CHECK-NOT: OpStore
// CHECK: OpFunctionEnd
// MANIFEST: "requirement": "argument_alignment",
// MANIFEST-NEXT: "argument": 0,
// MANIFEST-NEXT: "name": "d0",
// MANIFEST-COUNT-63: "requirement": "argument_alignment",
// MANIFEST-NEXT: "argument": 63,
// MANIFEST-NEXT: "name": "d63",
// MANIFEST: "requirement": "argument_alignment",
// MANIFEST-NEXT: "argument": 64,
// MANIFEST-NEXT: "name": "d64",
// MANIFEST: "requirement": "argument_alignment",
// MANIFEST-NEXT: "argument": 65,
// MANIFEST-NEXT: "name": "d65",
// MANIFEST-NEXT: "bytes": 16,
// MANIFEST-NOT: "argument_alignment"
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void many_args(
                 global int *d0,
                 global int *d1,
                 global int *d2,
                 global int *d3,
                 global int *d4,
                 global int *d5,
                 global int *d6,
                 global int *d7,
                 global int *d8,
                 global int *d9,
                 global int *d10,
                 global int *d11,
                 global int *d12,
                 global int *d13,
                 global int *d14,
                 global int *d15,
                 global int *d16,
                 global int *d17,
                 global int *d18,
                 global int *d19,
                 global int *d20,
                 global int *d21,
                 global int *d22,
                 global int *d23,
                 global int *d24,
                 global int *d25,
                 global int *d26,
                 global int *d27,
                 global int *d28,
                 global int *d29,
                 global int *d30,
                 global int *d31,
                 global int *d32,
                 global int *d33,
                 global int *d34,
                 global int *d35,
                 global int *d36,
                 global int *d37,
                 global int *d38,
                 global int *d39,
                 global int *d40,
                 global int *d41,
                 global int *d42,
                 global int *d43,
                 global int *d44,
                 global int *d45,
                 global int *d46,
                 global int *d47,
                 global int *d48,
                 global int *d49,
                 global int *d50,
                 global int *d51,
                 global int *d52,
                 global int *d53,
                 global int *d54,
                 global int *d55,
                 global int *d56,
                 global int *d57,
                 global int *d58,
                 global int *d59,
                 global int *d60,
                 global int *d61,
                 global int *d62,
                 global int *d63,
                 global int *d64,
                 global int *d65)
{
    size_t i = get_global_id(0);
    d0[i] = 0;
    d1[i] = 1;
    d2[i] = 2;
    d3[i] = 3;
    d4[i] = 4;
    d5[i] = 5;
    d6[i] = 6;
    d7[i] = 7;
    d8[i] = 8;
    d9[i] = 9;
    d10[i] = 10;
    d11[i] = 11;
    d12[i] = 12;
    d13[i] = 13;
    d14[i] = 14;
    d15[i] = 15;
    d16[i] = 16;
    d17[i] = 17;
    d18[i] = 18;
    d19[i] = 19;
    d20[i] = 20;
    d21[i] = 21;
    d22[i] = 22;
    d23[i] = 23;
    d24[i] = 24;
    d25[i] = 25;
    d26[i] = 26;
    d27[i] = 27;
    d28[i] = 28;
    d29[i] = 29;
    d30[i] = 30;
    d31[i] = 31;
    d32[i] = 32;
    d33[i] = 33;
    d34[i] = 34;
    d35[i] = 35;
    d36[i] = 36;
    d37[i] = 37;
    d38[i] = 38;
    d39[i] = 39;
    d40[i] = 40;
    d41[i] = 41;
    d42[i] = 42;
    d43[i] = 43;
    d44[i] = 44;
    d45[i] = 45;
    d46[i] = 46;
    d47[i] = 47;
    d48[i] = 48;
    d49[i] = 49;
    d50[i] = 50;
    d51[i] = 51;
    d52[i] = 52;
    d53[i] = 53;
    d54[i] = 54;
    d55[i] = 55;
    d56[i] = 56;
    d57[i] = 57;
    d58[i] = 58;
    d59[i] = 59;
    d60[i] = 60;
    d61[i] = 61;
    d62[i] = 62;
    d63[i] = 63;
    d64[i] = 64;
    d65[i] = 65;
}
