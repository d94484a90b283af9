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
 * One work item: one block position (n, c, oy, ox), row-major. DG_ME_TILED variants: one
 * workgroup per tile of DG_ME_TILE x DG_ME_TILE blocks of one (n, c), which first copies the
 * tile's template region and the search region its window covers into shared memory (zeros
 * outside the frames), then matches each block from there.
 * Block (oy, ox) is the kernel_h x kernel_w pixels from (oy * stride_y - pad_top,
 * ox * stride_x - pad_left) of the template; candidate (dx, dy) compares it with the search
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
#include "kernel_abi/me_tile.h"

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

#ifdef DG_ME_TILED
/* The tile's template and search regions, four pixels a word: template pixel (y, x) of the
 * region at byte y * TW + x, search pixel (y, x) at byte SEARCH_BASE + y * SW + x. The
 * build chooses this variant only when both fit DG_ME_SHARED_WORDS (me_build.c). */
const uint TH = (DG_ME_TILE - 1u) * stride_y + kernel_h, TW = (DG_ME_TILE - 1u) * stride_x + kernel_w;
const uint SH = TH + (search_h - 1u) * wstride_y, SW = TW + (search_w - 1u) * wstride_x;
const uint SEARCH_BASE = (TH * TW + 3u) & ~3u;
shared uint region[DG_ME_SHARED_WORDS];

uint
shared_pixel(uint byte_index)
{
   return bitfieldExtract(region[byte_index >> 2], int(8u * (byte_index & 3u)), 8);
}

/* Loads the tile's regions: word by word, each word's four pixels from either frame. */
void
load_regions(vmel_tensor_record t_r, vmel_tensor_record s_r, uint n, uint c, int ry, int rx)
{
   int sy0 = ry - int(offset_y * wstride_y), sx0 = rx - int(offset_x * wstride_x);
   uint words = (SEARCH_BASE + SH * SW + 3u) / 4u;
   for (uint w = gl_LocalInvocationIndex; w < words; w += gl_WorkGroupSize.x) {
      uint packed = 0u;
      for (uint b = 0u; b < 4u; b++) {
         uint i = 4u * w + b, v = 0u;
         if (i < TH * TW)
            v = pixel(t_r, n, c, ry + int(i / TW), rx + int(i % TW));
         else if (i >= SEARCH_BASE && i - SEARCH_BASE < SH * SW)
            v = pixel(s_r, n, c, sy0 + int((i - SEARCH_BASE) / SW),
                      sx0 + int((i - SEARCH_BASE) % SW));
         packed |= v << (8u * b);
      }
      region[w] = packed;
   }
}
#endif

void
main()
{
   vmel_tensor_record t_r = DG_RECORD(input0);
   vmel_tensor_record s_r = DG_RECORD(input1);
   vmel_tensor_record o_r = DG_RECORD(result0);
   uint oh = t_r.dims[2] / stride_y, ow = t_r.dims[3] / stride_x;
#ifdef DG_ME_TILED
   /* One workgroup per tile of DG_ME_TILE x DG_ME_TILE blocks of one (n, c); every
    * invocation loads, then those on a block match it. */
   uint tiles_x = (ow + DG_ME_TILE - 1u) / DG_ME_TILE, tiles_y = (oh + DG_ME_TILE - 1u) / DG_ME_TILE;
   uint tile = vmel_work_index() / gl_WorkGroupSize.x;
   if (tile * gl_WorkGroupSize.x >= vmel_work_count)
      return; /* a whole workgroup past the end: no barrier is left waiting */
   uint nc = tile / (tiles_x * tiles_y);
   uint c = nc % t_r.dims[1], n = nc / t_r.dims[1];
   uint ty = (tile / tiles_x) % tiles_y, tx = tile % tiles_x;
   int ry = int(ty * DG_ME_TILE * stride_y) - int(pad_top);
   int rx = int(tx * DG_ME_TILE * stride_x) - int(pad_left);
   load_regions(t_r, s_r, n, c, ry, rx);
   barrier();
   uint ly = gl_LocalInvocationIndex / DG_ME_TILE, lx = gl_LocalInvocationIndex % DG_ME_TILE;
   uint oy = ty * DG_ME_TILE + ly, ox = tx * DG_ME_TILE + lx;
   if (oy >= oh || ox >= ow)
      return;
   /* The block's corner in the template region and its co-located corner in the search one. */
   uint t0 = ly * stride_y * TW + lx * stride_x;
   uint s0 = SEARCH_BASE + (ly * stride_y + offset_y * wstride_y) * SW + lx * stride_x +
             offset_x * wstride_x;
#else
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   uint ox = index % ow;
   uint oy = (index / ow) % oh;
   uint nc = index / (ow * oh);
   uint c = nc % t_r.dims[1], n = nc / t_r.dims[1];
   int by = int(oy * stride_y) - int(pad_top), bx = int(ox * stride_x) - int(pad_left);
#endif

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
      uint sad = 0u;
#ifdef DG_ME_TILED
      uint sd = uint(int(s0) + dy * int(wstride_y * SW) + dx * int(wstride_x));
      for (uint y = 0u; y < kernel_h; y++) {
         for (uint x = 0u; x < kernel_w; x++) {
            int a = int(shared_pixel(t0 + y * TW + x));
            int b = int(shared_pixel(sd + y * SW + x));
            sad += uint(abs(a - b));
         }
      }
#else
      int sy = by + dy * int(wstride_y), sx = bx + dx * int(wstride_x);
      for (int y = 0; y < int(kernel_h); y++) {
         for (int x = 0; x < int(kernel_w); x++) {
            int a = int(pixel(t_r, n, c, by + y, bx + x));
            int b = int(pixel(s_r, n, c, sy + y, sx + x));
            sad += uint(abs(a - b));
         }
      }
#endif
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
