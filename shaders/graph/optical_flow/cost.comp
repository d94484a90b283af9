/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow, cost of each level-0 block: the SAD of its 8x8 window at its final, sub-pixel
 * vector (bilinear reference samples), as a float at u[7]. u[0]: level offset (0), u[1]: words
 * per pyramid, u[2], u[3]: frame size, u[4], u[5]: grid, u[6]: the final field.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

void
main()
{
   const int bx = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
   const int gw = int(pc.u[4]), gh = int(pc.u[5]);
   if (bx >= gw || by >= gh)
      return;
   const uint in_base = of_level_base(0u, pc.u[0], pc.u[1]);
   const uint ref_base = of_level_base(1u, pc.u[0], pc.u[1]);
   const int W = int(pc.u[2]), H = int(pc.u[3]);
   const uint f = pc.u[6] + 2u * uint(by * gw + bx);
   const float vx = of_f(f), vy = of_f(f + 1u);
   const int x0 = bx * OF_STEP - OF_HALF, y0 = by * OF_STEP - OF_HALF;
   precise float s = 0.0;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++)
         s += abs(float(of_px(in_base, W, H, x0 + x, y0 + y)) -
                  of_bil(ref_base, W, H, float(x0 + x) + vx, float(y0 + y) + vy));
   work_w[pc.u[7] + uint(by * gw + bx)] = floatBitsToUint(s);
}
