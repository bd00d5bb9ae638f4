/*
 * block-io: the wide form (pass.c's header): loads of
 * `p[base + k*SG + lane]`, k = 0..n-1 (n = 2, 4, 8), in one block with no
 * memory write between them, are grouped into one vector block read.
 */
#include "block_io.h"

/* Groups acc's loads (those whose inst is set) into wide block reads:
 * first->width, the later members' merged and next_in_group. */
void bio_merge_loads(xe_module *m, access *acc, unsigned nacc, const xe_lanes *plain,
                     const xe_lanes *assumed, uint32_t sg)
{
   for (unsigned a = 0; a < nacc; a++) {
      access *first = &acc[a];
      if (!first->inst || first->store || first->merged)
         continue;
      xe_lane0_addr la = xe_lane0_addr_of(m, first->use_offset ? assumed : plain, first->ptr);
      if (!la.ok)
         continue;
      uint64_t step = (uint64_t)sg * (xe_type_width(m, first->elem_type) / 8);
      access *members[8] = { first };
      unsigned n = 1;
      unsigned b = a + 1;
      /* Scan forward in the block while nothing writes memory. */
      for (xe_inst *i = first->inst->next; i && n < 8; i = i->next) {
         /* Accesses the pass leaves alone (inst cleared) are judged by
          * no_write below like any other instruction. */
         while (b < nacc && !acc[b].inst)
            b++;
         if (b < nacc && acc[b].inst == i) {
            access *c = &acc[b++];
            if (c->store)
               break;
            if (!c->merged && c->elem_type == first->elem_type) {
               xe_lane0_addr lc = xe_lane0_addr_of(m, c->use_offset ? assumed : plain, c->ptr);
               if (lc.ok && xe_lane0_addr_same_key(&la, &lc) && lc.off == la.off + (int64_t)(n * step))
                  members[n++] = c;
            }
            continue;
         }
         if (!xe_inst_no_memory_write(m, i))
            break;
      }
      unsigned width = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
      if (width < 2)
         continue;
      first->width = width;
      for (unsigned k = 1; k < width; k++) {
         members[k]->merged = true;
         members[k - 1]->next_in_group = members[k];
      }
   }
}

/* The applied remark of each group merge_loads made (bio_merge_loads). */
void bio_remark_merges(xe_module *m, xe_remarks *r, const char *kernel, const access *acc,
                       unsigned nacc)
{
   for (unsigned a = 0; a < nacc; a++) {
      if (!acc[a].inst || acc[a].merged || acc[a].width < 2)
         continue;
      const access *last = &acc[a];
      while (last->next_in_group)
         last = last->next_in_group;
      char n0[64], n1[64];
      xe_remark(r, kernel, XE_REMARK_APPLIED, "loads via %s .. %s: merged into one %u-wide block read",
                xe_id_text(m, acc[a].ptr, n0, sizeof(n0)), xe_id_text(m, last->ptr, n1, sizeof(n1)),
                acc[a].width);
   }
}
