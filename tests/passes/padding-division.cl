// padding, refused: an item past n may divide by a zero it read from the
// padding, and integer division by zero is undefined behaviour in SPIR-V
// (OpSDiv, OpSRem, OpUDiv, OpUMod alike; OpSMod in
// padding-division-smod.spvasm), so a guarded region that divides
// by anything but a non-zero constant keeps its guard.  rem_const divides
// by 7: its guard goes.
//
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %rem_arg = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %div_arg = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %umod_loaded = OpFunction
// CHECK: OpBranchConditional
// CHECK-LABEL: %rem_const = OpFunction
// CHECK-NOT: OpBranchConditional
// CHECK: OpFunctionEnd
// REMARK-DAG: rem_arg: [padding] missed: {{.*}}integer division by a non-constant in the guarded region
// REMARK-DAG: div_arg: [padding] missed: {{.*}}integer division by a non-constant in the guarded region
// REMARK-DAG: umod_loaded: [padding] missed: {{.*}}integer division by a non-constant in the guarded region
// REMARK-DAG: rem_const: [padding] applied:
kernel void rem_arg(global int *out, global const int *in, int d, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] % d;
}

kernel void div_arg(global int *out, global const int *in, int d, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] / d;
}

kernel void umod_loaded(global uint *out, global const uint *in, global const uint *m, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] % m[i];
}

kernel void rem_const(global int *out, global const int *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] % 7;
}
