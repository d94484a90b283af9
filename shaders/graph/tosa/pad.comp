/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 PAD (§2.9 "Data Layout"; pseudocode/operators/PAD.tosac): output
 * element c is input element (c0 - before0, ...) where that lies inside the
 * input, else pad_const. Bits are copied unchanged by the data-movement driver
 * (dg_move.glsl): along an output row the padding before, the input row and
 * the padding after are three runs (a row in the padding of an outer
 * dimension is one), padding runs storing the pad value's bits, as vectors
 * where aligned.
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks;
 * creation checked shape[i] == before_i + shape1[i] + after_i, all >= 0).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes (struct dg_attrs_pad): before0 .. before5 (padding[2i], 0 past
 * the rank), pad_bits (pad_const's bit pattern, zero-extended).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_PAD

DG_TENSOR(DG_PAD_INPUT1, input);
DG_TENSOR(DG_PAD_OUTPUT, output);

#define DG_MV_PAD_BITS pad_bits

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint before[VMEL_TENSOR_MAX_RANK] = uint[](before0, before1, before2, before3, before4, before5);
   uint last = out_r.rank - 1u;
   uint s[VMEL_TENSOR_MAX_RANK];
   bool outer_pad = false;
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++) {
      int x = int(c[d]) - int(before[d]);
      s[d] = uint(x);
      if (d < last && (x < 0 || x >= int(in_r.dims[d])))
         outer_pad = true;
   }
   int x = int(c[last]) - int(before[last]);
   src = 0u;
   step = int(in_r.strides[last]);
   pad = true;
   if (outer_pad || x >= int(in_r.dims[last]))
      return out_r.dims[last];
   if (x < 0)
      return uint(-x);
   pad = false;
   src = dg_offset(in_r, s);
   return in_r.dims[last] - uint(x);
}

#include "dg_move.glsl"
