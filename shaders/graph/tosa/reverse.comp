/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 REVERSE (§2.9 "Data Layout"; pseudocode/operators/REVERSE.tosac):
 * output element c is input element c with c[axis] replaced by
 * shape[axis] - 1 - c[axis]. Bits are copied unchanged by the data-movement
 * driver (dg_move.glsl): a whole output row is one run of the input, stepping
 * forwards, or backwards where the axis is the innermost (the vector path
 * then reverses the elements inside the words it loads).
 *
 * Tensors (binding order): 0 input1, 1 output (same shape, rank 1 to 6).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes (struct dg_attrs_reverse): axis (creation checked axis < rank).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_REVERSE

DG_TENSOR(DG_REVERSE_INPUT1, input);
DG_TENSOR(DG_REVERSE_OUTPUT, output);

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint last = out_r.rank - 1u;
   uint s[VMEL_TENSOR_MAX_RANK];
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++)
      s[d] = d == axis ? in_r.dims[d] - 1u - c[d] : c[d];
   src = dg_offset(in_r, s);
   step = axis == last ? -int(in_r.strides[last]) : int(in_r.strides[last]);
   pad = false;
   return out_r.dims[last];
}

#include "dg_move.glsl"
