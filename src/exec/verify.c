/*
 * --verify: differential execution of the input and the optimized module.
 * Every kernel runs on the same launches in both; every buffer must come
 * back byte for byte equal (the whole allocation, including bytes before
 * an argument's start and padding the input did not write).
 *
 * A random launch is useless when the input itself cannot run on it: real
 * kernels take sizes and strides (`n`, a row length `w`, a leading
 * dimension) that must agree with the NDRange and the buffers, and a
 * launch whose `w` is smaller than the row length or whose buffers are too
 * short tests nothing.  So launches are synthesized, not drawn:
 *
 *  - the shape comes first (xe_verify_plan_shape): per launch slot a
 *    deterministic mix of what a rewrite must survive (partial work-groups,
 *    local sizes that are not a multiple of the sub-group size, 2-D local
 *    shapes whose sub-groups span rows, sub-group sizes 8, 16 and 32,
 *    non-zero global offsets, buffers that start 4 or 8 bytes into their
 *    allocation), within
 *    what the module declares (LocalSize, SubgroupSize) and the host
 *    contract of the manifest allows (uniform work-groups, offset and
 *    argument alignment);
 *  - integer scalars are values tied to that shape (the global size of a
 *    dimension, their product, powers of two, small primes, a little less
 *    than the size), the first launch giving every one the row length;
 *  - buffers start at a size derived from the NDRange and grow to what the
 *    input reaches: the input runs first, and an out-of-bounds access of
 *    argument k grows k and runs again;
 *  - images cover the NDRange (global + offset per dimension) and double
 *    when the input goes outside one; their formats and the samplers vary
 *    per slot (xe_verify_plan_images);
 *  - memory the kernel reads pointers and sizes from is laid out by its
 *    declared type (xe_exec_param_memory): a by-value capture (SYCL's
 *    kernel functor members: ranges, ids, indexers) gets shape-tied
 *    scalars like the scalar arguments, and every pointer in it or in an
 *    array of pointers points into a hidden buffer of its own, appended
 *    after the arguments, sized, grown and compared like the others; what
 *    such pointers reach holds no zeros (shapes and strides, which the
 *    kernel divides by), and after a division by zero no integer buffer
 *    does.
 *
 * Each launch slot gets a bounded number of input runs (MAX_ATTEMPTS).
 * Why the input run failed decides the next attempt (retry_for): grow a
 * buffer, pick other scalars, or fall back to a plain shape (a kernel that
 * itself block-reads needs full sub-groups).  A reason to reject an input
 * run that succeeded (a data race, once the interpreter detects them) is
 * one more case there.  The log says per kernel how many launches were
 * verified.
 *
 * This file holds the entry (xe_exec_verify_ex: per kernel, its facts and
 * its launches), the host contract and which dimensions a kernel reads;
 * verify_plan.c synthesizes launches, verify_run.c runs and compares them
 * (verify.h, their local header).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "pass.h"
#include "verify.h"

/* ---- the host contract ---- */

/* The host contract of the optimized module (docs/manifest.md), read
 * once per verification with the manifest reader (src/manifest/):
 * manifest.kernels[K] sections that constrain a launch.
 *  - spec_constants: an entry with flag_default true fixes argument
 *    `index` to `value_default`.
 *  - padding, kind "buffer": argument `arg` holds at least `min_elements`
 *    (a formula over arguments and launch sizes) elements, and elements the
 *    excluded work-items write are garbage the host ignores: the argument is
 *    marked padded.
 *  - launch, uniform_work_groups: no partial work-groups.
 *  - alignment, global_offset: the offset of `dimension` is a multiple of
 *    `multiple_of`; argument_alignment: the argument starts aligned.
 * (LocalSize/SubgroupSize requirements are execution modes of the module,
 * which the launches follow.)  Passes that add other sections extend this
 * function. */
static bool verify_launch_from_contract(const xe_mf_kernel *c, vkernel *vk, FILE *log)
{
   if (!c) return true;
   unsigned np = (unsigned)vk->np;
   /* An entry naming an argument the kernel does not have is a manifest
    * for another module (or hand-edited): stop rather than verify
    * against part of it. */
   const char *section = NULL;
   unsigned bad = 0;
   for (unsigned e = 0; e < c->nspec_constants; e++) {
      const xe_mf_spec_constant *s = &c->spec_constants[e];
      if (s->flag_default && s->index < np)
         vk->fixed[s->index] = s->value_default;
      else if (s->flag_default && !section)
         section = "spec_constants", bad = s->index;
   }
   for (unsigned e = 0; e < c->npadding; e++) {
      const xe_mf_padding *p = &c->padding[e];
      if (p->kind == XE_MF_BUFFER && p->arg < np)
         vk->padded[p->arg] = true;
      else if (p->kind == XE_MF_BUFFER && !section)
         section = "padding", bad = p->arg;
   }
   for (unsigned e = 0; e < c->nlaunch; e++)
      vk->uniform |= c->launch[e].kind == XE_MF_UNIFORM_WORK_GROUPS;
   for (unsigned e = 0; e < c->nalignment; e++) {
      const xe_mf_requirement *q = &c->alignment[e];
      if (q->kind == XE_MF_GLOBAL_OFFSET)
         vk->offset_multiple[q->dimension] = q->multiple_of;
      else if (q->kind == XE_MF_ARGUMENT_ALIGNMENT && q->argument < np)
         vk->aligned[q->argument] = true;
      else if (q->kind == XE_MF_ARGUMENT_ALIGNMENT && !section)
         section = "alignment", bad = q->argument;
   }
   if (section)
      fprintf(log, "cannot verify kernel %s against the manifest: its %s section names "
              "argument %u, the kernel has %u parameters\n", vk->name, section, bad, np);
   return !section;
}

/* ---- what the kernel reads ---- */

static bool is_id_builtin(int b)
{
   return b == SpvBuiltInGlobalInvocationId || b == SpvBuiltInLocalInvocationId ||
          b == SpvBuiltInWorkgroupId || b == SpvBuiltInGlobalSize ||
          b == SpvBuiltInWorkgroupSize || b == SpvBuiltInNumWorkgroups ||
          b == SpvBuiltInGlobalOffset || b == SpvBuiltInEnqueuedWorkgroupSize;
}

/* How many NDRange dimensions the module's kernels distinguish: the
 * largest component extracted from a load of an id built-in, plus one
 * (3 when a component is chosen dynamically).  A 1-D kernel launched in
 * 2-D only repeats its work-items, so such launches test nothing new. */
static unsigned module_dims(const xe_module *m)
{
   unsigned dims = 1;
   xe_foreach_fn(f, m) xe_foreach_block(b, f) xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpCompositeExtract && i->opcode != SpvOpVectorExtractDynamic) continue;
      xe_inst *ld = xe_def(m, xe_op(i, 0));
      if (!ld || ld->opcode != SpvOpLoad || !is_id_builtin(xe_builtin_of(m, xe_op(ld, 0)))) continue;
      unsigned d = i->opcode == SpvOpVectorExtractDynamic ? 3 : xe_op(i, 1) + 1;
      if (d > dims) dims = d > 3 ? 3 : d;
   }
   return dims;
}

int xe_exec_verify_ex(xe_module *a, xe_module *b, unsigned n, const cJSON *user,
                      const xe_options *o, bool quiet, FILE *log)
{
   /* a and b are runnable (exec.h): the caller checked them, with the
    * repairs only it may run (xe_verify_modules, src/driver/runnable.c). */
   /* The manifest comes from the passes, or from the user (xeopt run
    * --compare --manifest); either way a broken one stops verification
    * rather than letting launches outside the contract fail it. */
   xe_mf contract = {0};
   char mf_err[256];
   if (b->manifest && xe_mf_read(b->manifest, &contract, mf_err, sizeof mf_err) != XE_MF_OK) {
      fprintf(log, "cannot verify against the optimized module's manifest: %s\n", mf_err);
      return 2;
   }
   unsigned nk;
   xe_kernel *ka = xe_kernels_all(a, &nk);
   unsigned dims = module_dims(a);
   int rc = 0;
   for (unsigned k = 0; k < nk && !rc; k++) {
      xe_kernel kb;
      if (!xe_kernel_by_name(b, ka[k].name, &kb)) {
         fprintf(log, "kernel %s is missing from the output\n", ka[k].name);
         rc = 1;
         break;
      }
      vkernel vk = {0};
      vk.name = ka[k].name;
      vk.np = xe_exec_params(a, vk.name, vk.kind, vk.elem, vk.isf, XE_EXEC_MAX_ARGS);
      int npb = xe_exec_params(b, vk.name, NULL, NULL, NULL, 0);
      if (vk.np != npb) {
         fprintf(log, "kernel %s: %d parameters in the input, %d in the output\n",
                 vk.name, vk.np, npb);
         rc = 1;
         break;
      }
      if (vk.np > XE_EXEC_MAX_ARGS) {
         fprintf(log, "warning: kernel %s NOT verified: more than %d parameters\n", vk.name,
                 XE_EXEC_MAX_ARGS);
         continue;
      }
      const uint32_t *ls = kb.local_size[0] ? kb.local_size : ka[k].local_size;
      memcpy(vk.local, ls, sizeof vk.local);
      vk.sg = kb.subgroup_size ? kb.subgroup_size : ka[k].subgroup_size;
      /* What the user promised on the command line holds for the host's
       * launches even where no pass needed it. */
      const xe_kernel_launch_opt *sg = o ? xe_options_subgroup_size(o, vk.name) : NULL;
      if (!vk.sg && sg)
         vk.sg = sg->v[0];
      const xe_kernel_launch_opt *lsz = o ? xe_options_local_size(o, vk.name) : NULL;
      if (!vk.local[0] && lsz && (uint64_t)lsz->v[0] * lsz->v[1] * lsz->v[2] <= 1024)
         memcpy(vk.local, lsz->v, sizeof vk.local);
      vk.dims = dims;
      for (int i = 0; i < vk.np; i++) vk.fixed[i] = INT64_MIN;
      /* A byte buffer the kernel reads as wider scalars (an i8 pointer
       * from LLVM's opaque pointers: clang 21's backend writes hashcat's
       * kernel_param_t * so) gets small values of that width, as the
       * declared struct would: random bytes read as a uint are counts and
       * indices in the hundreds of millions, and no launch is valid. */
      for (int i = 0; i < vk.np; i++) {
         bool f;
         unsigned w = vk.kind[i] == XE_ARG_BUFFER && vk.elem[i] == 1
                         ? xe_exec_param_access_width(a, vk.name, (unsigned)i, &f) : 0;
         if (w > 1 && w <= 8) {
            vk.elem[i] = w;
            vk.isf[i] = f;
         }
      }
      /* Pointers in by-value captures and pointer arrays point into hidden
       * buffers, one per pointer leaf, appended after the arguments. */
      vk.na = vk.np;
      for (int i = 0; i < vk.np; i++) {
         if (vk.kind[i] != XE_ARG_BUFFER) continue;
         xe_exec_param_memory(a, vk.name, (unsigned)i, &vk.mem[i]);
         for (unsigned j = 0; j < vk.mem[i].nleaves && vk.na < XE_EXEC_MAX_ARGS; j++) {
            const xe_param_leaf *lf = &vk.mem[i].leaf[j];
            if (lf->kind != XE_LEAF_PTR) continue;
            vk.hidden[i][j] = (uint8_t)vk.na;
            vk.kind[vk.na] = XE_ARG_BUFFER;
            vk.elem[vk.na] = lf->target_elem;
            vk.isf[vk.na] = lf->target_float;
            vk.na++;
         }
      }
      vk.contract = xe_mf_find(&contract, vk.name);
      if (!verify_launch_from_contract(vk.contract, &vk, log)) {
         rc = 2;
         break;
      }
      unsigned ok = 0, users = 0;
      if (user) {
         rc = xe_verify_user_launches(a, b, &vk, user, log, &users);
         if (rc) break;
      }
      uint64_t seed = 0x5eed + k;
      bool unsup = false;
      for (unsigned t = 0; t < n + n / 2 + 1 && ok < n && !rc && !unsup; t++) {
         bool valid = false;
         rc = xe_verify_one_launch(a, b, &vk, t, &seed, log, quiet, &valid, &unsup);
         ok += valid;
      }
      if (unsup || rc)
         continue;
      if (!ok && !users)
         fprintf(log, "warning: kernel %s NOT verified: no launch was valid for the input\n",
                 vk.name);
      else if (!quiet && users)
         fprintf(log, "note: kernel %s: %u of %u launches verified, and %u user launch%s\n",
                 vk.name, ok, n, users, users == 1 ? "" : "es");
      else if (!quiet)
         fprintf(log, "note: kernel %s: %u of %u launches verified\n", vk.name, ok, n);
   }
   free(ka);
   xe_mf_free(&contract);
   return rc;
}

int xe_exec_verify(xe_module *a, xe_module *b, unsigned n, bool quiet, FILE *log)
{
   return xe_exec_verify_ex(a, b, n, NULL, NULL, quiet, log);
}
