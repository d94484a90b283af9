/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Arm.MotionEngine.100 block matching (decision D47; graph/ops/me_ops.def,
 * graph/ops/motion_engine.c): MIN_SAD (DG_ME_OP 0), MIN_SAD_COST (1),
 * RAW_SAD (2).
 *
 * Tensors (binding order): 0 input0, the template frame [N,C,H,W]; 1 input1,
 * the search frame [N,C,H,W] (8-bit pixels read as unsigned 0..255); 2 result
 * 0: MIN_SAD(_COST)'s motion vectors [N,C,OH,2*OW] (i8 dx at 2*ox, dy at
 * 2*ox + 1) or RAW_SAD's costs [N,C*SH*SW,OH,OW] (i16, unsigned); 3
 * MIN_SAD_COST's minimum costs [N,C,OH,OW] (i16, unsigned).
 * One work item: one block position (n, c, oy, ox), row-major. Its block is the
 * kernel_h x kernel_w pixels from (oy * stride_y - pad_top, ox * stride_x -
 * pad_left) of the template; candidate (dx, dy) compares it with the search
 * frame's pixels displaced by (dx * wstride_x, dy * wstride_y). A pixel
 * outside its frame reads 0 (both frames). The candidates, in order: RASTER,
 * dy from -offset_y then dx from -offset_x, row-major over the search window;
 * SPIRAL (centred square window), (0, 0) then ring k = 1.. radius, each from
 * (-k, k): along +x to (k - 1, k), down from (k, k) to (k, 1 - k), along -x
 * from (k, -k) to (1 - k, -k), up from (-k, -k) to (-k, k - 1). The first
 * candidate with the smallest SAD wins (a later one must be strictly smaller).
 * RAW_SAD writes candidate r (RASTER order) of channel c at channel
 * c * SH * SW + r.
 * Attributes (struct dg_attrs_min_sad, ...): kernel_h, kernel_w, search_h,
 * search_w, stride_y, stride_x, wstride_y, wstride_x, offset_y, offset_x,
 * pad_top, pad_left, search_pattern (not RAW_SAD's).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_ME_OP
#define DG_ME_OP 0
#endif

#if DG_ME_OP == 0
DG_DECLARE_ATTRS_MIN_SAD
DG_TENSOR(DG_MIN_SAD_INPUT0, input0);
DG_TENSOR(DG_MIN_SAD_INPUT1, input1);
DG_TENSOR(DG_MIN_SAD_OUTPUT, result0);
#elif DG_ME_OP == 1
DG_DECLARE_ATTRS_MIN_SAD_COST
DG_TENSOR(DG_MIN_SAD_COST_INPUT0, input0);
DG_TENSOR(DG_MIN_SAD_COST_INPUT1, input1);
DG_TENSOR(DG_MIN_SAD_COST_OUTPUT, result0);
DG_TENSOR(DG_MIN_SAD_COST_OUTPUT + 1, cost);
#else
DG_DECLARE_ATTRS_RAW_SAD
DG_TENSOR(DG_RAW_SAD_INPUT0, input0);
DG_TENSOR(DG_RAW_SAD_INPUT1, input1);
DG_TENSOR(DG_RAW_SAD_OUTPUT, result0);
const uint search_pattern = 0u;
#endif

/* A pixel of a frame, 0 outside it. */
uint
pixel(vmel_tensor_record r, uint n, uint c, int y, int x)
{
   if (y < 0 || x < 0 || y >= int(r.dims[2]) || x >= int(r.dims[3]))
      return 0u;
   return dg_load_bits8(dg_address(r, dg_offset4(r, n, c, uint(y), uint(x))));
}

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record t_r = DG_RECORD(input0);
   vmel_tensor_record s_r = DG_RECORD(input1);
   vmel_tensor_record o_r = DG_RECORD(result0);
   uint oh = t_r.dims[2] / stride_y, ow = t_r.dims[3] / stride_x;
   uint ox = index % ow;
   uint oy = (index / ow) % oh;
   uint nc = index / (ow * oh);
   uint c = nc % t_r.dims[1], n = nc / t_r.dims[1];
   int by = int(oy * stride_y) - int(pad_top), bx = int(ox * stride_x) - int(pad_left);

   uint best = 0xffffffffu;
   int best_dx = 0, best_dy = 0;
   uint count = search_h * search_w;
   for (uint k = 0u; k < count; k++) {
      int dx, dy;
      if (search_pattern == 0u) {
         dy = int(k / search_w) - int(offset_y);
         dx = int(k % search_w) - int(offset_x);
      } else if (k == 0u) {
         dx = 0;
         dy = 0;
      } else {
         /* Ring `ring` (1..offset_y) holds 8 * ring candidates from index (2 ring - 1)^2. */
         int ring = 1;
         while ((2 * ring + 1) * (2 * ring + 1) <= int(k))
            ring++;
         int j = int(k) - (2 * ring - 1) * (2 * ring - 1);
         int side = j / (2 * ring), t = j % (2 * ring);
         if (side == 0) {
            dx = t - ring;
            dy = ring;
         } else if (side == 1) {
            dx = ring;
            dy = ring - t;
         } else if (side == 2) {
            dx = ring - t;
            dy = -ring;
         } else {
            dx = -ring;
            dy = t - ring;
         }
      }
      int sy = by + dy * int(wstride_y), sx = bx + dx * int(wstride_x);
      uint sad = 0u;
      for (int y = 0; y < int(kernel_h); y++) {
         for (int x = 0; x < int(kernel_w); x++) {
            int a = int(pixel(t_r, n, c, by + y, bx + x));
            int b = int(pixel(s_r, n, c, sy + y, sx + x));
            sad += uint(abs(a - b));
         }
      }
#if DG_ME_OP == 2
      dg_store_bits16(dg_address(o_r, dg_offset4(o_r, n, c * count + k, oy, ox)), sad);
#else
      if (sad < best) {
         best = sad;
         best_dx = dx;
         best_dy = dy;
      }
#endif
   }
#if DG_ME_OP != 2
   dg_store_bits8(dg_address(o_r, dg_offset4(o_r, n, c, oy, 2u * ox)), uint(best_dx));
   dg_store_bits8(dg_address(o_r, dg_offset4(o_r, n, c, oy, 2u * ox + 1u)), uint(best_dy));
#endif
#if DG_ME_OP == 1
   vmel_tensor_record c_r = DG_RECORD(cost);
   dg_store_bits16(dg_address(c_r, dg_offset4(c_r, n, c, oy, ox)), best);
#endif
}
