/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Kernel variants (DG_VARIANT in graph/ops/tosa_ops.def; D44): the faster
 * kernels an operator's build function may run instead of its row's
 * one-output-per-invocation kernel, and the switch that keeps the latter
 * everywhere, VMEL_GRAPH_KERNELS=reference (the baseline every benchmark ratio
 * is measured against in one run). The mode is read at pipeline creation
 * (dg_stage.c) and is part of the pipeline cache key (dg_cache.c).
 */
#include "dg_build.h"

#include <stdlib.h>
#include <string.h>

#include "dg_op.h"
#include "vmel_kernels_graph.h"

#define DG_KERNELS_ENV "VMEL_GRAPH_KERNELS"

enum dg_kernel_mode
dg_kernel_mode_from_env(void)
{
   const char *v = getenv(DG_KERNELS_ENV);
   if (!v || !*v || strcmp(v, "fast") == 0)
      return DG_KERNELS_FAST;
   if (strcmp(v, "reference") == 0)
      return DG_KERNELS_REFERENCE;
   if (strcmp(v, "fast-gpu") == 0)
      return DG_KERNELS_FAST_GPU;
   if (strcmp(v, "fast-cpu") == 0)
      return DG_KERNELS_FAST_CPU;
   if (strcmp(v, "coop-nv") == 0)
      return DG_KERNELS_COOP_NV;
   if (strcmp(v, "coop-khr") == 0)
      return DG_KERNELS_COOP_KHR;
   if (strcmp(v, "int-dot") == 0)
      return DG_KERNELS_INT_DOT;
   if (strcmp(v, "coop-khr-square") == 0)
      return DG_KERNELS_COOP_KHR_SQUARE;
   lyr_logw("%s=%s names no kernel mode (fast, reference, fast-gpu, fast-cpu, coop-nv, "
            "coop-khr, coop-khr-square, int-dot); using fast",
            DG_KERNELS_ENV, v);
   return DG_KERNELS_FAST;
}

static const struct {
   uint16_t base, kind, variant;
} variants[] = {
#define DG_VARIANT(KERNEL, KIND, VARIANT)                                                         \
   {DG_KERNEL_##KERNEL, DG_VARIANT_##KIND, DG_KERNEL_##VARIANT},
#include "dg_decl_expand.h"
    {UINT16_MAX, UINT16_MAX, UINT16_MAX}};

uint32_t
dg_build_variant(const struct dg_build *b, const struct dg_node *n, enum dg_variant_kind kind)
{
   if (dg_build_kernel_mode(b) == DG_KERNELS_REFERENCE)
      return DG_PLAN_NONE;
   uint32_t base = dg_op_row(n->row)->kernel;
   for (uint32_t i = 0; variants[i].base != UINT16_MAX; i++) {
      if (variants[i].base == base && variants[i].kind == (uint16_t)kind)
         return dg_kernel_for_features(variants[i].variant,
                                       dg_build_fp16_arith(b) ? DG_KERNEL_F16_ARITH : 0);
   }
   return DG_PLAN_NONE;
}
