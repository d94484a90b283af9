/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 apply_scale_32 and apply_scale_16 (library/scale_helpers.tosac), bit-exact in
 * int64, shared by rescale.comp (its header has the whole operator) and the fused epilogues
 * (dg_gemm_epilogue.glsl). Include after dg_kernel.glsl.
 */
#ifndef DG_RESCALE_GLSL
#define DG_RESCALE_GLSL

int
apply_scale_32(int value, int m, int s, bool double_round)
{
   int64_t round = int64_t(1) << (s - 1);
   if (double_round && s > 31)
      round += value >= 0 ? int64_t(1 << 30) : -int64_t(1 << 30);
   int64_t result = int64_t(value) * int64_t(m) + round;
   return int(result >> s);
}

int
apply_scale_16(int64_t value, int m, int s)
{
   int64_t round = int64_t(1) << (s - 1);
   int64_t result = value * int64_t(m) + round;
   return int(result >> s);
}

#endif /* DG_RESCALE_GLSL */
