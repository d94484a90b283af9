/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 GATHER (pseudocode/operators/GATHER.tosac): output[n,w,c] is
 * values[n, indices[n,w], c]. Bits are copied unchanged by the data-movement
 * driver (dg_move.glsl): a whole output row [n,w,:] is one run of the values
 * row it selects, moved as vector words where packed and aligned.
 *
 * REQUIRE(0 <= k && k < K) is data-dependent; an index outside [0, K) gives
 * an output row of zero bits (+0.0 for the float types) and reads nothing
 * (decision D36).
 *
 * Tensors (binding order): 0 values [N,K,C], 1 indices [N,W] (i32),
 * 2 output [N,W,C]. One work item: 8 consecutive output elements
 * (DG_TEMPLATE_GRID ELEMENTS8). No attributes.
 * Variant define: DG_MV_SIZE, the element size in bytes (1, 2 or 4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_TENSOR(DG_GATHER_VALUES, input);
DG_TENSOR(DG_GATHER_INDICES, indices);
DG_TENSOR(DG_GATHER_OUTPUT, output);

uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   vmel_tensor_record idx_r = DG_RECORD(indices);
   int k = dg_load_i32(dg_address(idx_r, c[0] * idx_r.strides[0] + c[1] * idx_r.strides[1]));
   /* Unsigned compare: a negative index is above K too. */
   pad = uint(k) >= in_r.dims[1];
   src = pad ? 0u : dg_offset3(in_r, c[0], uint(k), c[2]);
   step = int(in_r.strides[2]);
   return out_r.dims[2] - c[2];
}

#include "dg_move.glsl"
