/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TRANSPOSE (§2.9 "Data Layout"; pseudocode/operators/
 * TRANSPOSE.tosac): output element c is the input element whose coordinate
 * perms[i] is c[i]. Bits are copied unchanged.
 *
 * Two paths (docs/decisions.md "D33"):
 *  - the innermost axis stays (perms[r-1] == r-1), or the tile does not fit:
 *    the data-movement driver (dg_move.glsl), an output row being one run of
 *    the input stepping by the stride of input axis perms[r-1] (vectors where
 *    packed and aligned);
 *  - the innermost axis moves and the two axes involved divide into tiles
 *    (output dims[r-1] a multiple of DG_TR_TA = 32, the output axis q that is
 *    the input's innermost a multiple of DG_TR_TB = 16): one workgroup (64
 *    invocations, 8 elements each: the same grid as the driver's) moves one
 *    32 x 16 tile through shared memory, reading 8 consecutive elements along
 *    the input's innermost axis and writing 8 consecutive elements along the
 *    output's, so both are contiguous (the writes as vector words where
 *    packed and aligned).
 *
 * Tensors (binding order): 0 input1, 1 output (rank 1 to 6, equal ranks;
 * creation checked that perms is a permutation and shape[i] ==
 * shape1[perms[i]]).
 * One work item: 8 output elements (DG_TEMPLATE_GRID ELEMENTS8): consecutive
 * ones on the driver's path; on the tiled path, work item i of workgroup t is
 * 8 elements of tile t.
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

/* Whether the tiled path runs (constants): the innermost axis moves and the tile divides the
 * two axes; *q is the output axis that is the input's innermost. */
bool
dg_tr_tiled(vmel_tensor_record in_r, vmel_tensor_record out_r, out uint q)
{
   uint perm[VMEL_TENSOR_MAX_RANK] = uint[](perm0, perm1, perm2, perm3, perm4, perm5);
   uint last = out_r.rank - 1u;
   q = last;
   for (uint d = 0u; d < VMEL_TENSOR_MAX_RANK; d++) {
      if (d < out_r.rank && perm[d] == last)
         q = d;
   }
   return gl_WorkGroupSize.x == 64u && q != last && out_r.dims[last] % DG_TR_TA == 0u &&
          out_r.dims[q] % DG_TR_TB == 0u;
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
   if (!dg_tr_tiled(in_r, out_r, q)) {
      dg_mv_main();
      return;
   }
   /* Whole workgroups: the output has a multiple of 32 x 16 elements, so vmel_work_count is a
    * multiple of 64 and a workgroup is either all in range or all out. */
   if (vmel_work_index() >= vmel_work_count)
      return;
   uint last = out_r.rank - 1u;
   uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   uint lane = gl_LocalInvocationIndex;

   /* The tile's origin: tile `group` row-major over the output's shape with dims[last] / 32
    * and dims[q] / 16 tiles along those axes. */
   uint c[VMEL_TENSOR_MAX_RANK];
   uint t = group;
   for (int d = VMEL_TENSOR_MAX_RANK - 1; d >= 0; d--) {
      c[d] = 0u;
      if (uint(d) < out_r.rank) {
         uint tile = uint(d) == last ? DG_TR_TA : uint(d) == q ? DG_TR_TB : 1u;
         uint extent = out_r.dims[d] / tile;
         c[d] = (t % extent) * tile;
         t /= extent;
      }
   }
   const uint size = uint(DG_MV_SIZE);

   /* Read: lane = 2 a + h reads output coordinates (last: a, q: 8 h .. 8 h + 7), 8
    * consecutive elements of the input's innermost axis. */
   {
      uint a = lane / 2u, h = lane % 2u;
      uint r[VMEL_TENSOR_MAX_RANK] = c;
      r[last] += a;
      r[q] += 8u * h;
      uint src = dg_tr_source(in_r, out_r, r);
      uint step = in_r.strides[in_r.rank - 1u];
      for (uint k = 0u; k < 8u; k++)
         dg_tr_tile[a * (DG_TR_TB + 1u) + 8u * h + k] =
             uint(dg_mv_ref(dg_address(in_r, src + k * step)).value);
   }
   barrier();

   /* Write: lane = 4 b + p writes output coordinates (q: b, last: 8 p .. 8 p + 7), 8
    * consecutive elements of the output's innermost axis. */
   uint b = lane / 4u, p = lane % 4u;
   uint w_c[VMEL_TENSOR_MAX_RANK] = c;
   w_c[q] += b;
   w_c[last] += 8u * p;
   uint dst = dg_offset(out_r, w_c);
   uint so = out_r.strides[last];
   uvec2 ao = dg_address(out_r, dst);
   const uint align = min(8u * size, 16u) - 1u;
   if (so == size && (ao.x & align) == 0u) {
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
      for (uint k = 0u; k < 8u; k++)
         dg_mv_store_bits(dg_address(out_r, dst + k * so),
                          dg_tr_tile[(8u * p + k) * (DG_TR_TB + 1u) + b]);
   }
}
