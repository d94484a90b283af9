/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Stage plans in the fuzz targets (fuzz_plan.h).
 */
#include "fuzz_plan.h"

#include "fuzz.h"

#include "dg_plan.h"
#include "lyr_alloc.h"
#include "ops/dg_op.h"

const struct dg_cache_device_id fuzz_cache_device = {
   .vendor_id = 0x10005,
   .device_id = 0xf022,
   .driver_version = 1,
   .uuid = {0xf, 0x2, 0x2, 0x1, 0x5},
   .identity = {0x41, 0x44},
   .identity_valid = true,
};

uint64_t
fuzz_plan_use(const struct dg_stage_plan *p, const struct dg_cache_stage_meta *st)
{
   uint64_t sum = 0;
   uint32_t ids[DG_PLAN_SPEC_MAX], values[DG_PLAN_SPEC_MAX];
   (void)dg_stage_plan_check_instantiable(p);
   for (uint32_t s = 0; s < p->stage_count; s++) {
      uint32_t n = dg_plan_stage_spec(p, s, ids, values);
      if (n > DG_PLAN_SPEC_MAX)
         fuzz_fail("stage %u: %u specialization constants", s, n);
      for (uint32_t i = 0; i < n; i++)
         sum += ids[i] + values[i];
      const struct dg_plan_stage *ps = &p->stages[s];
      for (uint32_t k = 0; k < ps->tensor_count; k++)
         sum += p->tensors[dg_plan_tensor_root(p, ps->tensors[k])].kind;
      for (uint32_t j = 0; j < s; j++)
         sum += dg_plan_stage_depends(p, s, j);
      if (ps->internal_set != DG_PLAN_NONE)
         sum += p->internal_sets[ps->internal_set].count;
      sum += p->stages[ps->pipeline_of].kernel;
      if (st && st[s].op != DG_PLAN_NONE)
         sum += strlen(dg_op_get(st[s].op)->name);
   }
   for (uint32_t i = 0; i < p->internal_set_count; i++)
      for (uint32_t k = 0; k < p->internal_sets[i].count; k++) {
         const struct dg_plan_tensor *t = &p->tensors[p->internal_sets[i].tensors[k]];
         sum +=
             t->kind == DG_PLAN_TENSOR_CONSTANT ? p->constants[t->index].size : p->memory[t->index];
      }
   VkDeviceSize *sizes = calloc(p->memory_count + 1, sizeof(*sizes));
   struct dg_interval *iv = calloc(p->memory_count + 1, sizeof(*iv));
   if (sizes && iv) {
      for (uint32_t i = 0; i < p->memory_count; i++) {
         const struct dg_plan_tensor *t = &p->tensors[p->memory[i]];
         sizes[i] = dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
      }
      dg_stage_plan_intervals(p, sizes, iv);
      for (uint32_t i = 0; i < p->memory_count; i++)
         sum += iv[i].size + iv[i].first + iv[i].last;
   }
   free(sizes);
   free(iv);
   for (uint32_t c = 0; c < p->constant_count; c++) {
      const uint8_t *d = p->constants[c].data;
      for (uint64_t b = 0; b < p->constants[c].size; b++)
         sum += d[b];
   }
   /* Constants as the layer uploads them: packed by their tensor's description. */
   for (uint32_t t = 0; t < p->tensor_count; t++) {
      const struct dg_plan_tensor *v = &p->tensors[t];
      if (v->kind != DG_PLAN_TENSOR_CONSTANT)
         continue;
      uint64_t bytes = dg_shape_elements(&v->ty.shape) * dg_type_size(v->ty.type);
      if (bytes > (64u << 20))
         continue;
      uint8_t *dst = malloc(bytes ? bytes : 1);
      if (!dst)
         continue;
      dg_plan_constant_pack(dst, v, &p->constants[v->index]);
      for (uint64_t b = 0; b < bytes; b++)
         sum += dst[b];
      free(dst);
   }
   return sum;
}

void
fuzz_plan_round_trip(const struct dg_stage_plan *p, const struct dg_cache_meta *meta,
                     const struct dg_cache_stage_meta *st)
{
   size_t size = dg_cache_plan_write(p, meta, st, NULL);
   uint8_t *a = malloc(size ? size : 1);
   if (!a)
      return;
   dg_cache_plan_write(p, meta, st, a);
   struct dg_stage_plan *q = NULL;
   struct dg_cache_stage_meta *qst = NULL;
   struct dg_cache_meta qmeta;
   const char *why = NULL;
   VkResult res = dg_cache_plan_read(a, size, &lyr_default_alloc, &q, &qmeta, &qst, &why);
   if (res == VK_ERROR_OUT_OF_HOST_MEMORY) {
      free(a);
      return;
   }
   if (res != VK_SUCCESS)
      fuzz_fail("a written plan is not read back: %s", why ? why : "(no reason)");
   if (memcmp(&qmeta, meta, sizeof(qmeta)) != 0)
      fuzz_fail("the plan's metadata changes in the round trip");
   size_t size2 = dg_cache_plan_write(q, &qmeta, qst, NULL);
   uint8_t *b = malloc(size2 ? size2 : 1);
   if (b) {
      dg_cache_plan_write(q, &qmeta, qst, b);
      if (size2 != size || memcmp(a, b, size) != 0)
         fuzz_fail("a plan read back is written differently (%zu, %zu bytes)", size, size2);
   }
   free(b);
   lyr_free(&lyr_default_alloc, qst);
   dg_stage_plan_destroy(q);
   free(a);
}
