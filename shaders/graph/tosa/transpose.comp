/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TRANSPOSE (§2.9 "Data Layout"; pseudocode/operators/
 * TRANSPOSE.tosac): output element c is the input element whose coordinate
 * perms[i] is c[i]. Bits are copied unchanged.
 *
 * Two paths (docs/decisions.md "D33"):
 *  - the innermost axis stays (perms[r-1] == r-1), or the tile would be mostly
 *    empty: the data-movement driver (dg_move.glsl), an output row being one
 *    run of the input stepping by the stride of input axis perms[r-1] (vectors
 *    where packed and aligned);
 *  - the innermost axis moves (attribute tile_axis = 1 + the output axis q
 *    that is the input's innermost; creation sets it when output dims[r-1] >=
 *    16 and dims[q] >= 8): one workgroup (64 invocations, 8 elements each)
 *    moves one DG_TR_TA x DG_TR_TB = 32 x 16 tile through shared memory,
 *    reading 8 consecutive elements along the input's innermost axis and
 *    writing 8 consecutive elements along the output's, so both are
 *    contiguous (the writes as vector words where packed, aligned and whole).
 *    Tiles at the edges are partial: lanes outside the shape read and write
 *    nothing. The build (graph/build/move_ops.c) dispatches 64 work items per
 *    tile.
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks;
 * creation checked that perms is a permutation and shape[i] ==
 * shape1[perms[i]]).
 * One work item: 8 output elements (DG_TEMPLATE_GRID ELEMENTS8): consecutive
 * ones on the driver's path; on the tiled path, work item i of workgroup t is
 * up to 8 elements of tile t.
 * Attributes (struct dg_attrs_transpose): perm0 .. perm5 (the identity past
 * the rank), tile_axis.
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

#define DG_MV_ENTRY dg_mv_main
#include "dg_move.glsl"

#if DG_EW_ITEMS != 8
#error "the tile is 64 invocations x 8 elements: DG_TEMPLATE_GRID(transpose, 64, ELEMENTS8)"
#endif

/* ---- the tiled path ------------------------------------------------------------------------ */

#define DG_TR_TA 32u /* along the output's innermost axis */
#define DG_TR_TB 16u /* along the input's innermost axis */

/* Rows of DG_TR_TB + 1 words: no bank conflicts on the transposed read. */
shared uint dg_tr_tile[DG_TR_TA * (DG_TR_TB + 1u)];

/* Whether the tiled path runs (a constant): *q is the output axis that is the input's
 * innermost. */
bool
dg_tr_tiled(out uint q)
{
   q = tile_axis - 1u;
   return tile_axis != 0u;
}

/* The input's byte offset of output coordinates c. */
uint
dg_tr_source(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK])
{
   uint perm[VMEL_TENSOR_MAX_RANK] = uint[](perm0, perm1, perm2, perm3, perm4, perm5);
   uint s[VMEL_TENSOR_MAX_RANK];
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++)
      s[d] = 0u;
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++) {
      if (d < out_r.rank)
         s[min(perm[d], VMEL_TENSOR_MAX_RANK - 1u)] = c[d];
   }
   return dg_offset(in_r, s);
}

void
main()
{
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint q;
   if (!dg_tr_tiled(q)) {
      dg_mv_main();
      return;
   }
   /* Whole workgroups: the build dispatches 64 work items per tile. */
   if (vmel_work_index() >= vmel_work_count)
      return;
   uint last = out_r.rank - 1u;
   uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   uint lane = gl_LocalInvocationIndex;

   /* The tile's origin: tile `group` row-major over the output's shape with
    * ceil(dims[last] / 32) and ceil(dims[q] / 16) tiles along those axes. */
   uint c[VMEL_TENSOR_MAX_RANK];
   uint t = group;
   for (int d = VMEL_TENSOR_MAX_RANK - 1; d >= 0; d--) {
      c[d] = 0u;
      if (uint(d) < out_r.rank) {
         uint tile = uint(d) == last ? DG_TR_TA : uint(d) == q ? DG_TR_TB : 1u;
         uint extent = (out_r.dims[d] + tile - 1u) / tile;
         c[d] = (t % extent) * tile;
         t /= extent;
      }
   }
   /* The tile's extent inside the shape. */
   uint n_last = min(DG_TR_TA, out_r.dims[last] - c[last]);
   uint n_q = min(DG_TR_TB, out_r.dims[q] - c[q]);
   const uint size = uint(DG_MV_SIZE);

   /* Read: lane = 2 a + h reads output coordinates (last: a, q: 8 h .. 8 h + 7), consecutive
    * elements of the input's innermost axis. */
   {
      uint a = lane / 2u, h = lane % 2u;
      if (a < n_last && 8u * h < n_q) {
         uint r[VMEL_TENSOR_MAX_RANK] = c;
         r[last] += a;
         r[q] += 8u * h;
         uint src = dg_tr_source(in_r, out_r, r);
         uint step = in_r.strides[in_r.rank - 1u];
         uint count = min(8u, n_q - 8u * h);
         for (uint k = 0u; k < count; k++)
            dg_tr_tile[a * (DG_TR_TB + 1u) + 8u * h + k] =
                uint(dg_mv_ref(dg_address(in_r, src + k * step)).value);
      }
   }
   barrier();

   /* Write: lane = 4 b + p writes output coordinates (q: b, last: 8 p .. 8 p + 7), consecutive
    * elements of the output's innermost axis. */
   uint b = lane / 4u, p = lane % 4u;
   if (b >= n_q || 8u * p >= n_last)
      return;
   uint count = min(8u, n_last - 8u * p);
   uint w_c[VMEL_TENSOR_MAX_RANK] = c;
   w_c[q] += b;
   w_c[last] += 8u * p;
   uint dst = dg_offset(out_r, w_c);
   uint so = out_r.strides[last];
   uvec2 ao = dg_address(out_r, dst);
   const uint align = min(8u * size, 16u) - 1u;
   if (count == 8u && so == size && (ao.x & align) == 0u) {
      uint w[DG_EW_ITEMS];
      for (uint i = 0u; i < DG_EW_ITEMS; i++)
         w[i] = 0u;
      const uint per_word = 4u / size;
      for (uint k = 0u; k < 8u; k++) {
         uint bits = dg_tr_tile[(8u * p + k) * (DG_TR_TB + 1u) + b];
         if (size == 4u)
            w[k] = bits;
         else
            w[k / per_word] |= bits << ((k % per_word) * size * 8u);
      }
      dg_ew_write_words(ao, size, w);
   } else {
      for (uint k = 0u; k < count; k++)
         dg_mv_store_bits(dg_address(out_r, dst + k * so),
                          dg_tr_tile[(8u * p + k) * (DG_TR_TB + 1u) + b]);
   }
}
