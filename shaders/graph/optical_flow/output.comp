/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow, the output grid (step 8 of docs/optical-flow.md): level 0's field sampled
 * bilinearly at each output cell's centre into the flow image (R16G16_SFLOAT at the
 * placeholder set 7 binding 0) and, with OF_COST, the mean cost of the blocks the cell covers
 * into the cost image (R16_UINT, binding 1). u[0]: the field, u[1], u[2]: its grid, u[3]:
 * pixels per output vector, u[4], u[5]: output grid, u[6]: the block costs.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 7, binding = 0, rg16f) uniform writeonly image2D flow_image;
#ifdef OF_COST
layout(set = 7, binding = 1, r16ui) uniform writeonly uimage2D cost_image;
#endif

void
main()
{
   const uvec2 o = gl_GlobalInvocationID.xy;
   const uint grid = pc.u[3];
   if (o.x >= pc.u[4] || o.y >= pc.u[5])
      return;
   const int gw = int(pc.u[1]), gh = int(pc.u[2]);
   precise float cxp = float(o.x * grid) + 0.5 * float(grid - 1u);
   precise float cyp = float(o.y * grid) + 0.5 * float(grid - 1u);
   const vec2 v = of_field_sample(pc.u[0], gw, gh, (cxp - 1.5) / 4.0, (cyp - 1.5) / 4.0);
   imageStore(flow_image, ivec2(o), vec4(v, 0.0, 0.0));
#ifdef OF_COST
   const int b0x = int(o.x * grid) / OF_STEP, b0y = int(o.y * grid) / OF_STEP;
   const int b1x = int(o.x * grid + grid - 1u) / OF_STEP;
   const int b1y = int(o.y * grid + grid - 1u) / OF_STEP;
   precise float s = 0.0;
   int m = 0;
   for (int y = b0y; y <= b1y && y < gh; y++)
      for (int x = b0x; x <= b1x && x < gw; x++) {
         s += of_f(pc.u[6] + uint(y * gw + x));
         m++;
      }
   const float c = m > 0 ? s / float(m) : 0.0;
   imageStore(cost_image, ivec2(o), uvec4(uint(min(65535.0, c + 0.5)), 0u, 0u, 0u));
#endif
}
