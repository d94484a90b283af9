/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow, one pyramid level, one block per invocation (steps 3-5 of
 * docs/optical-flow.md): the predictors (the coarser level's field upsampled and doubled), the
 * candidates (own predictor, zero, hint, the four neighbours' predictors), the MIN_SAD RASTER
 * search around the best one, Lucas-Kanade refinement; the raw vector goes to the field at
 * u[8]. Push constants: u[0] level offset, u[1] words per pyramid, u[2], u[3] level size,
 * u[4], u[5] its grid, u[6] the coarser field, u[7] its grid (w | h << 16; 0: top level),
 * u[9] radius | LK steps << 8 | neighbours << 16, u[10] the hint field (~0u: none),
 * u[11] hint grid | level << 8, u[12] frame width | height << 16.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

uint in_base, ref_base;
int W, H;

uint
sad_int(int x0, int y0, int dx, int dy)
{
   uint s = 0u;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++)
         s += uint(abs(of_px(in_base, W, H, x0 + x, y0 + y) -
                       of_px(ref_base, W, H, x0 + x + dx, y0 + y + dy)));
   return s;
}

vec2
predictor(int bx, int by, int gw, int gh)
{
   const uint pg = pc.u[7];
   if (pg == 0u)
      return vec2(0.0);
   bx = clamp(bx, 0, gw - 1);
   by = clamp(by, 0, gh - 1);
   precise vec2 p = of_field_sample(pc.u[6], int(pg & 0xffffu), int(pg >> 16),
                                    (2.0 * float(bx) - 1.0) / 4.0, (2.0 * float(by) - 1.0) / 4.0);
   p = p * 2.0;
   return p;
}

vec2
hint_at(int bx, int by)
{
   const uint hg = pc.u[11] & 0xffu, level = pc.u[11] >> 8;
   const uint fw = pc.u[12] & 0xffffu, fh = pc.u[12] >> 16;
   const float s = float(1u << level);
   precise float cx = (float(bx * OF_STEP) + 2.0) * s - 0.5;
   precise float cy = (float(by * OF_STEP) + 2.0) * s - 0.5;
   const int hw = int((fw + hg - 1u) / hg), hh = int((fh + hg - 1u) / hg);
   const int hx = clamp(int(cx / float(hg)), 0, hw - 1);
   const int hy = clamp(int(cy / float(hg)), 0, hh - 1);
   const uint i = pc.u[10] + 2u * uint(hy * hw + hx);
   return vec2(of_f(i) / s, of_f(i + 1u) / s);
}

void
lk_refine(int x0, int y0, int iters, inout float vx, inout float vy)
{
   float gx[OF_BLOCK * OF_BLOCK], gy[OF_BLOCK * OF_BLOCK], iv[OF_BLOCK * OF_BLOCK];
   precise float a = 0.0, b = 0.0, c = 0.0;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++) {
         const int i = y * OF_BLOCK + x, X = x0 + x, Y = y0 + y;
         gx[i] = 0.5 * float(of_px(in_base, W, H, X + 1, Y) - of_px(in_base, W, H, X - 1, Y));
         gy[i] = 0.5 * float(of_px(in_base, W, H, X, Y + 1) - of_px(in_base, W, H, X, Y - 1));
         iv[i] = float(of_px(in_base, W, H, X, Y));
         a += gx[i] * gx[i];
         b += gx[i] * gy[i];
         c += gy[i] * gy[i];
      }
   precise float det = a * c - b * b;
   if (det < 1e-3 * (a + c) * (a + c) || a + c < 1.0)
      return;
   for (int it = 0; it < iters; it++) {
      precise float ex = 0.0, ey = 0.0;
      for (int y = 0; y < OF_BLOCK; y++)
         for (int x = 0; x < OF_BLOCK; x++) {
            const int i = y * OF_BLOCK + x;
            precise float e =
               iv[i] - of_bil(ref_base, W, H, float(x0 + x) + vx, float(y0 + y) + vy);
            ex += gx[i] * e;
            ey += gy[i] * e;
         }
      precise float dx = (c * ex - b * ey) / det, dy = (a * ey - b * ex) / det;
      dx = max(-1.0, min(1.0, dx));
      dy = max(-1.0, min(1.0, dy));
      vx += dx;
      vy += dy;
      if (abs(dx) + abs(dy) < 0.01)
         break;
   }
}

void
main()
{
   const int bx = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
   const int gw = int(pc.u[4]), gh = int(pc.u[5]);
   if (bx >= gw || by >= gh)
      return;
   in_base = of_level_base(0u, pc.u[0], pc.u[1]);
   ref_base = of_level_base(1u, pc.u[0], pc.u[1]);
   W = int(pc.u[2]);
   H = int(pc.u[3]);
   const int radius = int(pc.u[9] & 0xffu), iters = int((pc.u[9] >> 8) & 0xffu);
   const bool neighbours = (pc.u[9] >> 16) != 0u;
   const int x0 = bx * OF_STEP - OF_HALF, y0 = by * OF_STEP - OF_HALF;

   vec2 cand[7];
   int nc = 0;
   cand[nc++] = predictor(bx, by, gw, gh);
   cand[nc++] = vec2(0.0);
   if (pc.u[10] != ~0u)
      cand[nc++] = hint_at(bx, by);
   if (neighbours) {
      cand[nc++] = predictor(bx - 1, by, gw, gh);
      cand[nc++] = predictor(bx + 1, by, gw, gh);
      cand[nc++] = predictor(bx, by - 1, gw, gh);
      cand[nc++] = predictor(bx, by + 1, gw, gh);
   }
   int cx = 0, cy = 0;
   uint best = ~0u;
   for (int k = 0; k < nc; k++) {
      const int dx = int(roundEven(cand[k].x)), dy = int(roundEven(cand[k].y));
      const uint s = sad_int(x0, y0, dx, dy);
      if (s < best) {
         best = s;
         cx = dx;
         cy = dy;
      }
   }
   int bxv = cx, byv = cy;
   for (int dy = -radius; dy <= radius; dy++)
      for (int dx = -radius; dx <= radius; dx++) {
         const uint s = sad_int(x0, y0, cx + dx, cy + dy);
         if (s < best) {
            best = s;
            bxv = cx + dx;
            byv = cy + dy;
         }
      }
   float vx = float(bxv), vy = float(byv);
   lk_refine(x0, y0, iters, vx, vy);
   const uint o = pc.u[8] + 2u * uint(by * gw + bx);
   work_w[o] = floatBitsToUint(vx);
   work_w[o + 1u] = floatBitsToUint(vy);
}
