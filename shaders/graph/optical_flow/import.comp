/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow: a frame (the application's storage image at the placeholder set 7 binding
 * 0; R8_UNORM, or R16_UNORM with OF_R16, keeping the top 8 bits) into level 0 of the pyramid
 * slot that header word u[0] names. u[1], u[2]: width, height; u[3]: words per pyramid.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
#ifdef OF_R16
layout(set = 7, binding = 0, r16) uniform readonly image2D frame;
#else
layout(set = 7, binding = 0, r8) uniform readonly image2D frame;
#endif

void
main()
{
   const uvec2 p = gl_GlobalInvocationID.xy;
   const uint w = pc.u[1], h = pc.u[2];
   if (p.x >= w || p.y >= h)
      return;
   const float v = imageLoad(frame, ivec2(p)).r;
#ifdef OF_R16
   const uint s = uint(round(v * 65535.0)) >> 8;
#else
   const uint s = uint(round(v * 255.0));
#endif
   cache_w[of_level_base(pc.u[0], 0u, pc.u[3]) + p.y * w + p.x] = s;
}
