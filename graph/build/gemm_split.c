/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Split-K of the tiled GEMM kernels (D56, issue 14): where a MATMUL's or CONV2D's output has too
 * few tiles to fill a GPU and K is long, the SPLITK variant (the 64 x 64 tile of
 * matmul_tiled.comp / conv2d_tiled.comp with DG_GEMM_SPLIT_K; since D65 also the INT_DOT_SPLITK
 * variant of matmul_dot.comp / conv2d_dot.comp) runs S workgroups per tile, each
 * summing one part of K into a session scratch tensor [S, <output dims>] of partial sums in the
 * accumulator's 4-byte type, and a second stage (gemm_reduce.comp) adds the S parts in order
 * and stores the output as the unsplit kernel would, through the fused epilogue of the
 * elementwise chain after the node where its _EPI variant exists (D52). Also
 * VMEL_GRAPH_SPLIT_K, which turns it off or forces a part count on any device (tests on
 * lavapipe). The choice of kind and tile stays in gemm_build.c.
 */
#include "gemm_split.h"

#include <stdlib.h>
#include <string.h>

#include "dg_op.h"
#include "kernel_abi/gemm_args.h"

#define DG_SPLIT_K_ENV "VMEL_GRAPH_SPLIT_K"

/* The partial sums of one GEMM at most: bounds the session memory split-K adds, and keeps every
 * byte offset of the scratch tensor within the kernels' 32 bits. */
#define SPLIT_MAX_BYTES (256ull << 20)

uint32_t
dg_split_k_from_env(void)
{
   const char *v = getenv(DG_SPLIT_K_ENV);
   if (!v || !*v || strcmp(v, "auto") == 0)
      return 0;
   char *end;
   unsigned long parts = strtoul(v, &end, 10);
   if (*end == '\0' && v[0] >= '0' && v[0] <= '9' && parts <= DG_SPLIT_K_MAX)
      return parts < 2 ? 1 : (uint32_t)parts;
   lyr_logw("%s=%s is no part count (auto, 0 or 1: off, 2 .. %u); using auto", DG_SPLIT_K_ENV, v,
            DG_SPLIT_K_MAX);
   return 0;
}

/*
 * The parts to split K into: 1 (no split) where the output's tiles fill the device, else enough
 * parts to reach its workgroup target with each part keeping `min_steps` K steps of its kind
 * (DG_SPLIT_MIN_STEPS steps of 16 k: 64 k, whatever the kind's step); the
 * forced count of VMEL_GRAPH_SPLIT_K on any device. The target: dg_gemm_min_workgroups() (on a
 * CPU device its thread count, D61: below it threads idle; above it more parts only add
 * partial sums: lavapipe on 2 threads, MATMUL
 * [1,64,4096] x [1,4096,64] fp32 7.96 ms in 2 parts, 12.5 in 8, 18.6 unsplit). At most one
 * part per K step and DG_SPLIT_K_MAX parts, within SPLIT_MAX_BYTES of partial sums; then the
 * count for which each part has the same number of steps (the kernels' dg_gemm_part_steps())
 * but the last.
 */
uint64_t
dg_gemm_min_workgroups(const struct dg_build *b)
{
   return dg_build_cpu_device(b) ? dg_build_cpu_threads(b) : DG_GPU_MIN_TILES;
}

static uint32_t
split_parts(const struct dg_build *b, uint64_t tiles, uint64_t steps, uint64_t min_steps,
            uint64_t elements)
{
   uint32_t setting = dg_build_split_k(b);
   uint64_t parts;
   if (setting == 1)
      return 1;
   if (setting >= 2) {
      parts = setting;
   } else {
      uint64_t target = dg_gemm_min_workgroups(b);
      if (tiles >= target)
         return 1;
      parts = (target + tiles - 1) / tiles;
      if (parts > steps / min_steps)
         parts = steps / min_steps;
   }
   if (parts > steps)
      parts = steps;
   if (parts > DG_SPLIT_K_MAX)
      parts = DG_SPLIT_K_MAX;
   if (elements == 0 || parts > SPLIT_MAX_BYTES / (4 * elements))
      parts = elements ? SPLIT_MAX_BYTES / (4 * elements) : 1;
   if (parts < 2)
      return 1;
   uint64_t per = (steps + parts - 1) / parts;
   return (uint32_t)((steps + per - 1) / per);
}

/* The reduce stage: the partial sums `parts`, CONV2D's bias (MATMUL: the partial sums again,
 * unread), the output or the fused chain's last tensor and the chain's extra tensors. */
static VkResult
add_reduce_stage(struct dg_build *b, const struct dg_node *n, uint32_t parts, uint64_t elements)
{
   const struct dg_graph *g = dg_build_graph(b);
   bool conv = n->op == DG_OP_CONV2D;
   uint32_t tensors[3 + DG_EPI_TENSORS], count = 0;
   tensors[count++] = parts;
   tensors[count++] = conv ? dg_node_input_index(g, n, 2) : parts;
   count++; /* DG_GEMM_REDUCE_OUTPUT: the output or the chain's last tensor */
   uint32_t attr_size = conv ? 4 * dg_op_get((enum dg_op)n->op)->attr_count : 0;
   return dg_fuse_add_gemm_stage(b, n, dg_build_variant(b, n, DG_VARIANT_SPLITK_REDUCE),
                                 DG_VARIANT_SPLITK_REDUCE_EPI, tensors, count,
                                 DG_GEMM_REDUCE_OUTPUT, attr_size, elements);
}

/* The tile of each split kind's kernel (kernel_abi/gemm_args.h): the kernels and this file
 * count K steps of the same `bk` (dg_gemm_part_steps(), dg_dot_part_steps()). */
#define SPLIT_MIN_K (DG_SPLIT_MIN_STEPS * DG_GEMM_SMALL_BK) /* the k a part sums at least */
static const struct split_kind {
   enum dg_variant_kind kind;
   uint32_t bm, bn, bk, shared_bytes;
} split_kinds[] = {
   {DG_VARIANT_SPLITK, DG_GEMM_SMALL_BM, DG_GEMM_SMALL_BN, DG_GEMM_SMALL_BK,
    DG_GEMM_SHARED_BYTES(DG_GEMM_SMALL_BM, DG_GEMM_SMALL_BN, DG_GEMM_SMALL_BK)},
   {DG_VARIANT_INT_DOT_SPLITK, DG_DOT_BM, DG_DOT_BN, DG_DOT_BK, DG_DOT_SHARED_BYTES},
};
_Static_assert(SPLIT_MIN_K % DG_DOT_BK == 0, "a part's least k in whole integer-dot steps");

VkResult
dg_gemm_split_k(struct dg_build *b, const struct dg_node *n, const struct dg_gemm_dims *dims,
                enum dg_variant_kind kind, uint32_t replace, uint32_t with, bool *built)
{
   *built = false;
   const struct split_kind *k = NULL;
   for (uint32_t i = 0; i < sizeof(split_kinds) / sizeof(split_kinds[0]); i++)
      if (split_kinds[i].kind == kind)
         k = &split_kinds[i];
   if (!k)
      return VK_SUCCESS;
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   uint64_t tiles = dims->batch * ((dims->rows + k->bm - 1) / k->bm) *
                    ((dims->cols + k->bn - 1) / k->bn);
   uint64_t steps = (dims->depth + k->bk - 1) / k->bk;
   uint64_t elements = dg_shape_elements(&out->ty.shape);
   uint32_t parts = split_parts(b, tiles, steps, SPLIT_MIN_K / k->bk, elements);
   if (parts < 2 || out->ty.shape.rank >= DG_MAX_RANK || tiles == 0 ||
       tiles * parts > UINT32_MAX / DG_GEMM_LOCAL ||
       n->input_count + 1 > VMEL_GRAPH_MAX_TENSORS || n->output_count == 0)
      return VK_SUCCESS;
   uint32_t kernel = dg_build_variant(b, n, kind);
   uint32_t reduce = dg_build_variant(b, n, DG_VARIANT_SPLITK_REDUCE);
   if (kernel == DG_PLAN_NONE || reduce == DG_PLAN_NONE ||
       dg_kernel_local_size(kernel) != DG_GEMM_LOCAL ||
       !dg_build_fits_workgroup(b, DG_GEMM_LOCAL, k->shared_bytes))
      return VK_SUCCESS;

   struct dg_shape shape = {.rank = out->ty.shape.rank + 1, .dim = {parts}};
   memcpy(&shape.dim[1], out->ty.shape.dim, sizeof(int64_t) * out->ty.shape.rank);
   uint32_t scratch;
   VkResult result = dg_build_add_scratch(
      b, out->ty.type == DG_TYPE_I32 ? DG_TYPE_I32 : DG_TYPE_FP32, &shape, &scratch);
   if (result != VK_SUCCESS)
      return result;
   uint32_t tensors[VMEL_GRAPH_MAX_TENSORS], count = 0;
   for (uint32_t i = 0; i < n->input_count; i++)
      tensors[count++] = i == replace ? with : dg_node_input_index(g, n, i);
   tensors[count++] = scratch;
   const struct dg_op_info *op = dg_op_get((enum dg_op)n->op);
   result = dg_build_add_stage(b, kernel, tensors, count, 1u << (count - 1), n->attrs.word,
                               4 * op->attr_count, tiles * parts * DG_GEMM_LOCAL);
   if (result == VK_SUCCESS)
      result = add_reduce_stage(b, n, scratch, elements);
   if (result == VK_SUCCESS) {
      lyr_logd("TOSA %s %%%u: K = %llu in %u parts (%llu tiles)", n->name, n->result_id,
               (unsigned long long)dims->depth, parts, (unsigned long long)tiles);
      *built = true;
   }
   return result;
}
