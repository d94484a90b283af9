/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 SCATTER (pseudocode/operators/SCATTER.tosac), the last of its
 * three dispatches (graph/build/gather_ops.c): values_out[n,k,c] is
 * input[n,w,c] for the largest w with indices[n,w] == k, or values_in[n,k,c]
 * where no index names k. The earlier dispatches (scatter_last.comp) left
 * last[n,k] = that w + 1, or 0. Bits are copied unchanged by the
 * data-movement driver (dg_move.glsl) from either source, a whole output row
 * [n,k,:] being one run of one of them.
 *
 * REQUIREs (data-dependent), decision D36: an index outside [0, K)
 * writes nothing; of several w naming one k the largest wins (a maximum, so
 * the result does not depend on the order the atomics ran in). Every
 * position is written exactly once, by this dispatch: no write races.
 *
 * Tensors (binding order): 0 values_in [N,K,C], 1 indices [N,W] (not read
 * here), 2 input [N,W,C], 3 values_out [N,K,C], 4 last [N,K] (u32 scratch).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#define DG_MV_SOURCE2
DG_TENSOR(DG_SCATTER_VALUES_IN, input);
DG_TENSOR(DG_SCATTER_INDICES, indices); /* bound, not read: last[] holds what it says */
DG_TENSOR(DG_SCATTER_INPUT, input2);
DG_TENSOR(DG_SCATTER_OUTPUT, output);
DG_TENSOR(DG_SCATTER_LAST, last);

bool dg_mv_from2;

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   vmel_tensor_record last_r = DG_RECORD(last);
   uint w1 =
       dg_ref32(dg_address(last_r, c[0] * last_r.strides[0] + c[1] * last_r.strides[1])).value;
   pad = false;
   dg_mv_from2 = w1 != 0u;
   if (dg_mv_from2) {
      vmel_tensor_record upd_r = DG_RECORD(input2);
      src = dg_offset3(upd_r, c[0], w1 - 1u, c[2]);
      step = int(upd_r.strides[2]);
   } else {
      src = dg_offset3(in_r, c[0], c[1], c[2]);
      step = int(in_r.strides[2]);
   }
   return out_r.dims[2] - c[2];
}

#include "dg_move.glsl"
