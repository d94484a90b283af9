/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: graph decoding, static validation and stage planning (graph/: dg_core),
 * everything vkCreateDataGraphPipelinesARM does before it calls Vulkan. The input is a
 * graph module's words. Its interface is read as vmel-run reads it (run_module.c, fuzzed
 * too), and the create info is derived from it as an application would write it: one
 * resource info per input and output with a matching tensor description, one graph
 * constant per OpGraphConstantARM with data of the right size. Then the module is
 * decoded; an accepted graph is planned against a layout of its interface; an accepted
 * plan is used as the layer uses one and must survive the cache payload round trip.
 * Checked: results the contract allows, a message with every refusal, no leak.
 *
 * Random bytes rarely get past a module's header and id rules, so the mutator
 * (fuzz_spirv_mutate.c) edits modules at the instruction level.
 */
#include "fuzz.h"
#include "fuzz_plan.h"

#include "dg_decode.h"
#include "lyr_alloc.h"
#include "run_module.h"

#define MAX_CONSTANT_BYTES (1u << 20)

struct create_info {
   VkDataGraphPipelineResourceInfoARM res[2 * RUN_MAX_TENSORS];
   VkTensorDescriptionARM res_desc[2 * RUN_MAX_TENSORS];
   int64_t res_dims[2 * RUN_MAX_TENSORS][RUN_MAX_RANK];
   VkDataGraphPipelineConstantARM consts[RUN_MAX_CONSTANTS];
   VkTensorDescriptionARM const_desc[RUN_MAX_CONSTANTS];
   int64_t const_dims[RUN_MAX_CONSTANTS][RUN_MAX_RANK];
   void *const_data[RUN_MAX_CONSTANTS];
};

/* The description of a declared tensor; an unshaped one gets dimensions of 2 (rank 1
 * when unranked). Returns its size in bytes (0: unknown format). */
static uint64_t
describe(const struct run_tensor_decl *t, VkTensorDescriptionARM *desc, int64_t *dims)
{
   enum run_dtype dtype;
   bool known = run_elem_default(&t->elem, &dtype);
   uint32_t rank = t->ranked && t->rank ? t->rank : 1;
   if (rank > RUN_MAX_RANK)
      rank = RUN_MAX_RANK;
   uint64_t elements = 1;
   for (uint32_t i = 0; i < rank; i++) {
      dims[i] = t->shaped ? t->dims[i] : 2;
      elements *= dims[i] > 0 && dims[i] < (1 << 24) ? (uint64_t)dims[i] : 1u << 24;
   }
   *desc = (VkTensorDescriptionARM){
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = known ? run_dtype_format(dtype) : VK_FORMAT_UNDEFINED,
      .dimensionCount = rank,
      .pDimensions = dims,
      .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   return known ? elements * npy_dtype_size(run_dtype_npy(dtype)) : 0;
}

static void
fill_create_info(const struct run_module *m, struct create_info *ci, struct dg_decode_info *info)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < m->input_count + m->output_count; i++) {
      const struct run_tensor_decl *t =
          i < m->input_count ? &m->inputs[i] : &m->outputs[i - m->input_count];
      describe(t, &ci->res_desc[n], ci->res_dims[n]);
      ci->res[n] = (VkDataGraphPipelineResourceInfoARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
         .pNext = &ci->res_desc[n],
         .descriptorSet = t->set,
         .binding = t->binding,
      };
      n++;
   }
   uint64_t budget = MAX_CONSTANT_BYTES;
   for (uint32_t i = 0; i < m->constant_count; i++) {
      uint64_t bytes = describe(&m->constants[i], &ci->const_desc[i], ci->const_dims[i]);
      void *data = NULL;
      if (bytes && bytes <= budget && (data = malloc((size_t)bytes))) {
         budget -= bytes;
         /* Small values of every sign and size, the same for every run of an input. */
         for (uint64_t b = 0; b < bytes; b++)
            ((uint8_t *)data)[b] = (uint8_t)(b % 7 == 3 ? 0x80 : b % 5);
      }
      ci->const_data[i] = data;
      ci->consts[i] = (VkDataGraphPipelineConstantARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
         .pNext = &ci->const_desc[i],
         .id = m->constants[i].constant_id,
         .pConstantData = data,
      };
   }
   info->resource_infos = ci->res;
   info->resource_info_count = n;
   info->constants = ci->consts;
   info->constant_count = m->constant_count;
}

/* The layout an application would create: one tensor binding per input and output. */
static void
plan(const struct dg_graph *g)
{
   struct dg_plan_app_binding b[2 * RUN_MAX_TENSORS];
   uint32_t n = 0;
   for (uint32_t i = 0; i < g->input_count + g->output_count && n < 2 * RUN_MAX_TENSORS; i++) {
      const struct dg_graph_io *io =
          i < g->input_count ? &g->inputs[i] : &g->outputs[i - g->input_count];
      bool dup = false;
      for (uint32_t j = 0; j < n; j++)
         dup |= b[j].set == io->set && b[j].binding == io->binding;
      if (!dup)
         b[n++] = (struct dg_plan_app_binding){io->set, io->binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM,
                                               1, VK_SHADER_STAGE_COMPUTE_BIT, false};
   }
   uint32_t sets = 0;
   for (uint32_t i = 0; i < n; i++)
      sets = b[i].set >= sets ? b[i].set + 1 : sets;
   struct dg_plan_layout layout = {sets, b, n};
   struct dg_plan_caps caps = {.max_groups = {65535, 65535}};
   struct dg_plan_input in = {g, &layout, &caps, NULL};
   struct dg_stage_plan *p = NULL;
   VkResult res = dg_stage_plan_build(&in, &lyr_default_alloc, &p);
   if (res != VK_SUCCESS) {
      if (res != VK_ERROR_UNKNOWN && res != VK_ERROR_VALIDATION_FAILED_EXT &&
          res != VK_ERROR_OUT_OF_HOST_MEMORY)
         fuzz_fail("planning returns %d", res);
      if (p)
         fuzz_fail("a refused plan is returned");
      return;
   }
   /* What the layer keeps beside the plan (graph/dg_stage.c). */
   struct dg_cache_stage_meta *st = calloc((size_t)p->stage_count + 1, sizeof(*st));
   if (st) {
      for (uint32_t i = 0; i < p->stage_count; i++) {
         const struct dg_plan_stage *ps = &p->stages[i];
         bool node = ps->node_count && ps->first_node < g->node_count;
         st[i] = (struct dg_cache_stage_meta){
            node ? g->nodes[ps->first_node].op : DG_PLAN_NONE,
            node ? g->nodes[ps->first_node].result_id : 0,
         };
      }
      struct dg_cache_meta meta = {.graph_id = g->graph_id, .node_count = g->node_count};
      (void)fuzz_plan_use(p, st);
      fuzz_plan_round_trip(p, &meta, st);
      free(st);
   }
   dg_stage_plan_destroy(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   size_t count;
   uint32_t *words = fuzz_words(data, size, &count);
   if (!words)
      return 0;
   struct run_module *m = calloc(1, sizeof(*m));
   struct create_info *ci = calloc(1, sizeof(*ci));
   if (!m || !ci)
      goto out;
   char err[256] = "";
   struct dg_decode_info info = {
      .code = words,
      .code_words = count,
      .entry_point = "main",
      .specialization_enabled = true,
   };
   /* A module vmel-run cannot bind (tensor arrays, ...) is still decoded, without a create
    * info: the module's own checks come first. */
   if (run_module_read(words, count, NULL, m, err, sizeof(err))) {
      info.entry_point = m->entry;
      fill_create_info(m, ci, &info);
   } else if (!err[0]) {
      fuzz_fail("vmel-run refuses a module without a message");
   }
   struct dg_graph *g = NULL;
   struct dg_diag diag;
   memset(&diag, 0, sizeof(diag));
   VkResult res = dg_graph_decode(&info, NULL, &g, &diag);
   if (getenv("VMEL_FUZZ_VERBOSE"))
      fprintf(stderr, "fuzz_graph: %s%s%s\n", res == VK_SUCCESS ? "decoded" : dg_error_name(diag.code),
              res == VK_SUCCESS ? "" : ": ", res == VK_SUCCESS ? "" : diag.message);
   if (res == VK_SUCCESS) {
      if (!g)
         fuzz_fail("decoding succeeds without a graph");
      plan(g);
      dg_graph_destroy(g);
   } else {
      if (g)
         fuzz_fail("a refused module leaves a graph");
      if (res != dg_error_result(diag.code))
         fuzz_fail("%s maps to %d, decoding returns %d", dg_error_name(diag.code),
                   dg_error_result(diag.code), res);
      if (res != VK_ERROR_OUT_OF_HOST_MEMORY && !diag.message[0])
         fuzz_fail("a module refused without a message (%s)", dg_error_name(diag.code));
   }
   for (uint32_t i = 0; i < RUN_MAX_CONSTANTS; i++)
      free(ci->const_data[i]);
out:
   free(ci);
   free(m);
   free(words);
   return 0;
}
