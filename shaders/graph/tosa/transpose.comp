/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TRANSPOSE (§2.9 "Data Layout"; pseudocode/operators/
 * TRANSPOSE.tosac): output element c is the input element whose coordinate
 * perms[i] is c[i]. Bits are copied unchanged by the data-movement driver
 * (dg_move.glsl): an output row is one run of the input stepping by the
 * stride of input axis perms[r-1] (packed, with vectors, where the innermost
 * axis stays; element by element where it moves: docs/decisions.md "D2x (data)").
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks;
 * creation checked that perms is a permutation and shape[i] ==
 * shape1[perms[i]]).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes (struct dg_attrs_transpose): perm0 .. perm5 (the identity past
 * the rank).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_TRANSPOSE

DG_TENSOR(DG_TRANSPOSE_INPUT1, input);
DG_TENSOR(DG_TRANSPOSE_OUTPUT, output);

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint perm[VMEL_TENSOR_MAX_RANK] = uint[](perm0, perm1, perm2, perm3, perm4, perm5);
   uint last = out_r.rank - 1u;
   uint s[VMEL_TENSOR_MAX_RANK];
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++)
      s[d] = 0u;
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++) {
      if (d < out_r.rank)
         s[min(perm[d], VMEL_TENSOR_MAX_RANK - 1u)] = c[d];
   }
   src = dg_offset(in_r, s);
   step = int(in_r.strides[min(perm[last], VMEL_TENSOR_MAX_RANK - 1u)]);
   pad = false;
   return out_r.dims[last];
}

#include "dg_move.glsl"
