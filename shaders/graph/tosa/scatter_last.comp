/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * SCATTER's winner table (graph/build/gather_ops.c; scatter.comp reads it):
 * last[n,k] becomes the largest w + 1 with indices[n,w] == k, or 0 where no
 * index names k. Two dispatches of this template:
 *   DG_SCATTER_PASS 0: last[n,k] = 0, one work item per element of last;
 *   DG_SCATTER_PASS 1: atomicMax(last[n, indices[n,w]], w + 1), one work item
 *     per index; an index outside [0, K) is skipped (its write is dropped,
 *     decision D36). A maximum does not depend on the order in which
 *     the atomics run: the winner is deterministic.
 *
 * Tensors (binding order, kernel_abi/tosa_args.h): 0 indices [N,W] (i32),
 * 1 last [N,K] (u32, packed session scratch). No attributes.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_TENSOR(DG_SCATTER_LAST_INDICES, indices);
DG_TENSOR(DG_SCATTER_LAST_TABLE, last);

void
main()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record last_r = DG_RECORD(last);
#if DG_SCATTER_PASS == 0
   uint n = item / last_r.dims[1], k = item % last_r.dims[1];
   dg_ref32(dg_address(last_r, n * last_r.strides[0] + k * last_r.strides[1])).value = 0u;
#else
   vmel_tensor_record idx_r = DG_RECORD(indices);
   uint n = item / idx_r.dims[1], w = item % idx_r.dims[1];
   int k = dg_load_i32(dg_address(idx_r, n * idx_r.strides[0] + w * idx_r.strides[1]));
   /* Unsigned compare: a negative index is above K too. */
   if (uint(k) < last_r.dims[1])
      atomicMax(
          dg_ref32(dg_address(last_r, n * last_r.strides[0] + uint(k) * last_r.strides[1])).value,
          w + 1u);
#endif
}
