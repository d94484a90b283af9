/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow: the hint image (R16G16_SFLOAT storage image at the placeholder set 7 binding
 * 0, one vector per hint-grid cell, pixels) into the session's hint field at word u[2].
 * u[0], u[1]: the hint grid's size.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 7, binding = 0, rg16f) uniform readonly image2D hint_image;

void
main()
{
   const uvec2 p = gl_GlobalInvocationID.xy;
   if (p.x >= pc.u[0] || p.y >= pc.u[1])
      return;
   const vec2 v = imageLoad(hint_image, ivec2(p)).xy;
   const uint i = pc.u[2] + 2u * (p.y * pc.u[0] + p.x);
   work_w[i] = floatBitsToUint(v.x);
   work_w[i + 1u] = floatBitsToUint(v.y);
}
