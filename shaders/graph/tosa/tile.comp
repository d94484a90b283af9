/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TILE (§2.9 "Data Layout"; pseudocode/operators/TILE.tosac):
 * output element c is input element (c0 % shape1[0], ..., c[r-1] %
 * shape1[r-1]). Bits are copied unchanged by the data-movement driver
 * (dg_move.glsl): each repetition of an input row is one run.
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks;
 * creation checked shape1[i] * multiples[i] == shape[i]).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes: none (the shapes say everything).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_TENSOR(DG_TILE_INPUT1, input);
DG_TENSOR(DG_TILE_OUTPUT, output);

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint last = out_r.rank - 1u;
   uint s[VMEL_TENSOR_MAX_RANK];
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++)
      s[d] = d < in_r.rank ? c[d] % in_r.dims[d] : 0u;
   src = dg_offset(in_r, s);
   step = int(in_r.strides[last]);
   pad = false;
   return in_r.dims[last] - s[last];
}

#include "dg_move.glsl"
