/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 SLICE (§2.9 "Data Layout"; pseudocode/operators/SLICE.tosac):
 * output element (c0, ..., c[r-1]) is input element (c0 + start[0], ...,
 * c[r-1] + start[r-1]). Bits are copied unchanged by the data-movement
 * driver (dg_move.glsl), a whole output row being one run of the input.
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes (struct dg_attrs_slice): start0 .. start5 (0 past the rank;
 * creation checked start >= 0, size > 0, start + size <= shape1).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_SLICE

DG_TENSOR(DG_SLICE_INPUT1, input);
DG_TENSOR(DG_SLICE_OUTPUT, output);

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint start[VMEL_TENSOR_MAX_RANK] = uint[](start0, start1, start2, start3, start4, start5);
   uint s[VMEL_TENSOR_MAX_RANK];
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++)
      s[d] = c[d] + start[d];
   src = dg_offset(in_r, s);
   step = int(in_r.strides[in_r.rank - 1u]);
   pad = false;
   return out_r.dims[out_r.rank - 1u];
}

#include "dg_move.glsl"
