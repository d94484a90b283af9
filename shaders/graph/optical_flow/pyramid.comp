/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow: one pyramid level from the one above, the separable [1 3 3 1]/8 at stride 2,
 * edges clamped, (sum + 32) >> 6 (integer, as the CPU reference). u[0]: header word of the
 * slot; u[1], u[2]: source and destination level offsets; u[3], u[4]: source size; u[5],
 * u[6]: destination size; u[7]: words per pyramid.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

void
main()
{
   const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
   const int sw = int(pc.u[3]), sh = int(pc.u[4]), dw = int(pc.u[5]), dh = int(pc.u[6]);
   if (x >= dw || y >= dh)
      return;
   const uint src = of_level_base(pc.u[0], pc.u[1], pc.u[7]);
   const uint dst = of_level_base(pc.u[0], pc.u[2], pc.u[7]);
   const int k[4] = int[4](1, 3, 3, 1);
   int s = 0;
   for (int j = 0; j < 4; j++) {
      int r = 0;
      for (int i = 0; i < 4; i++)
         r += k[i] * of_px(src, sw, sh, 2 * x - 1 + i, 2 * y - 1 + j);
      s += k[j] * r;
   }
   cache_w[dst + uint(y * dw + x)] = uint((s + 32) >> 6);
}
