/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Seeds for the fuzz corpora from the unit tests (D41): the tests are linked again with
 * -Wl,--wrap for the functions the fuzz targets call, and these wrappers write what
 * the tests pass them to $VMEL_FUZZ_SEEDS/<target>/ before calling the real function:
 *   dg_graph_decode     module words            -> graph/
 *   dg_stage_plan_build an accepted plan, as a cache payload and as cache data of
 *                       fuzz_cache_device       -> cache/
 *   tsr_lower_tensors   module words            -> lower/
 *   npy_parse           file bytes              -> npy/
 * Each distinct input once (a 64-bit hash). The tests run
 * as usual; their verdict does not matter here. tests/fuzz/make_seeds.sh runs them and
 * merges the seeds into the corpora.
 */
#include "dg_cache.h"
#include "dg_decode.h"
#include "dg_stage_plan.h"
#include "fuzz_plan.h"
#include "npy.h"
#include "seeds.h"
#include "tsr_lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEN_MAX 16384

static uint64_t seen[SEEN_MAX];
static unsigned seen_count;

static uint64_t
hash(const void *data, size_t size)
{
   uint64_t h = 0xcbf29ce484222325ull;
   for (size_t i = 0; i < size; i++)
      h = (h ^ ((const uint8_t *)data)[i]) * 0x100000001b3ull;
   return h ^ size;
}

void
seed_dump(const char *target, const void *data, size_t size)
{
   const char *dir = getenv("VMEL_FUZZ_SEEDS");
   if (!dir || !data || !size)
      return;
   uint64_t h = hash(data, size) ^ hash(target, strlen(target));
   for (unsigned i = 0; i < seen_count; i++)
      if (seen[i] == h)
         return;
   if (seen_count == SEEN_MAX)
      return;
   seen[seen_count++] = h;
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s/%016llx", dir, target, (unsigned long long)h);
   FILE *f = fopen(path, "wb");
   if (!f)
      return;
   fwrite(data, 1, size, f);
   fclose(f);
}

VkResult __real_dg_graph_decode(const struct dg_decode_info *info, const VkAllocationCallbacks *alloc,
                                struct dg_graph **graph, struct dg_diag *diag);
VkResult __wrap_dg_graph_decode(const struct dg_decode_info *info, const VkAllocationCallbacks *alloc,
                                struct dg_graph **graph, struct dg_diag *diag);

VkResult
__wrap_dg_graph_decode(const struct dg_decode_info *info, const VkAllocationCallbacks *alloc,
                       struct dg_graph **graph, struct dg_diag *diag)
{
   if (info)
      seed_dump("graph", info->code, info->code_words * 4);
   return __real_dg_graph_decode(info, alloc, graph, diag);
}

VkResult __real_dg_stage_plan_build(const struct dg_plan_input *in,
                                    const VkAllocationCallbacks *alloc, struct dg_stage_plan **out);
VkResult __wrap_dg_stage_plan_build(const struct dg_plan_input *in,
                                    const VkAllocationCallbacks *alloc, struct dg_stage_plan **out);

VkResult
__wrap_dg_stage_plan_build(const struct dg_plan_input *in, const VkAllocationCallbacks *alloc,
                           struct dg_stage_plan **out)
{
   VkResult res = __real_dg_stage_plan_build(in, alloc, out);
   if (res != VK_SUCCESS || !getenv("VMEL_FUZZ_SEEDS"))
      return res;
   const struct dg_stage_plan *p = *out;
   const struct dg_graph *g = in->graph;
   struct dg_cache_stage_meta *st = calloc((size_t)p->stage_count + 1, sizeof(*st));
   if (!st)
      return res;
   for (uint32_t i = 0; i < p->stage_count; i++) {
      const struct dg_plan_stage *ps = &p->stages[i];
      bool node = ps->node_count && ps->first_node < g->node_count;
      st[i].op = node ? g->nodes[ps->first_node].op : DG_PLAN_NONE;
      st[i].result_id = node ? g->nodes[ps->first_node].result_id : 0;
   }
   struct dg_cache_meta meta = {.graph_id = g->graph_id, .node_count = g->node_count};
   size_t size = dg_cache_plan_write(p, &meta, st, NULL);
   uint8_t *payload = malloc(size);
   uint64_t section = DG_CACHE_SECTION_HEADER_SIZE + dg_cache_entry_bytes(size);
   size_t total = DG_CACHE_HEADER_SIZE + (size_t)section;
   uint8_t *data = calloc(1, total);
   if (payload && data) {
      dg_cache_plan_write(p, &meta, st, payload);
      seed_dump("cache", payload, size);
      dg_cache_write_header(data, &fuzz_cache_device);
      dg_cache_write_section_header(data + DG_CACHE_HEADER_SIZE, &fuzz_cache_device, section, 1);
      static const uint8_t key[DG_CACHE_KEY_SIZE] = {1, 2, 3};
      dg_cache_write_entry(data + DG_CACHE_HEADER_SIZE + DG_CACHE_SECTION_HEADER_SIZE, key,
                           payload, size);
      seed_dump("cache", data, total);
   }
   free(payload);
   free(data);
   free(st);
   return res;
}

VkResult __real_tsr_lower_tensors(const uint32_t *words, size_t count,
                                  const struct tsr_lower_options *opts, uint32_t **out,
                                  size_t *out_count, char *err, size_t err_len);
VkResult __wrap_tsr_lower_tensors(const uint32_t *words, size_t count,
                                  const struct tsr_lower_options *opts, uint32_t **out,
                                  size_t *out_count, char *err, size_t err_len);

VkResult
__wrap_tsr_lower_tensors(const uint32_t *words, size_t count, const struct tsr_lower_options *opts,
                         uint32_t **out, size_t *out_count, char *err, size_t err_len)
{
   seed_dump("lower", words, count * 4);
   return __real_tsr_lower_tensors(words, count, opts, out, out_count, err, err_len);
}

bool __real_npy_parse(const void *bytes, size_t len, struct npy_array *out, char *err,
                      size_t err_len);
bool __wrap_npy_parse(const void *bytes, size_t len, struct npy_array *out, char *err,
                      size_t err_len);

bool
__wrap_npy_parse(const void *bytes, size_t len, struct npy_array *out, char *err, size_t err_len)
{
   seed_dump("npy", bytes, len);
   return __real_npy_parse(bytes, len, out, err, err_len);
}
