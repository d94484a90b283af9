/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow, outliers (step 6 of docs/optical-flow.md): a vector more than 1 px (L1) from
 * the component-wise median of its 3x3 neighbourhood (inside the grid) takes the median.
 * u[0]: the raw field, u[1]: the output field, u[2], u[3]: the grid.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

/* The value of rank n / 2 among v[0..n): the sorted array's middle element, found by
 * counting (the arrays stay local: no copies through function parameters). */
#define OF_MEDIAN(v, n, out)                                                                       \
   for (int i_ = 0; i_ < (n); i_++) {                                                              \
      int lt_ = 0, le_ = 0;                                                                        \
      for (int k_ = 0; k_ < (n); k_++) {                                                           \
         lt_ += v[k_] < v[i_] ? 1 : 0;                                                             \
         le_ += v[k_] <= v[i_] ? 1 : 0;                                                            \
      }                                                                                            \
      if (lt_ <= (n) / 2 && (n) / 2 < le_)                                                         \
         out = v[i_];                                                                              \
   }

void
main()
{
   const int bx = int(gl_GlobalInvocationID.x), by = int(gl_GlobalInvocationID.y);
   const int gw = int(pc.u[2]), gh = int(pc.u[3]);
   if (bx >= gw || by >= gh)
      return;
   float xs[9], ys[9];
   int m = 0;
   for (int j = -1; j <= 1; j++)
      for (int i = -1; i <= 1; i++) {
         const int x = bx + i, y = by + j;
         if (x >= 0 && y >= 0 && x < gw && y < gh) {
            xs[m] = of_f(pc.u[0] + 2u * uint(y * gw + x));
            ys[m] = of_f(pc.u[0] + 2u * uint(y * gw + x) + 1u);
            m++;
         }
      }
   float mx = 0.0, my = 0.0;
   OF_MEDIAN(xs, m, mx)
   OF_MEDIAN(ys, m, my)
   const uint r = pc.u[0] + 2u * uint(by * gw + bx), o = pc.u[1] + 2u * uint(by * gw + bx);
   const float rx = of_f(r), ry = of_f(r + 1u);
   const bool outlier = abs(rx - mx) + abs(ry - my) > 1.0;
   work_w[o] = floatBitsToUint(outlier ? mx : rx);
   work_w[o + 1u] = floatBitsToUint(outlier ? my : ry);
}
