/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Optical flow, first kernel of a dispatch: which pyramid slot holds the input and which the
 * reference (the rule of of_cache_update in the CPU reference), from the cache header and the
 * execute flags (u[0]). The decision is on the GPU so that a command buffer recorded once and
 * submitted many times swaps the slots at every submission.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#include "of_common.glsl"

layout(local_size_x = 1) in;

void
main()
{
   const uint flags = pc.u[0];
   const int hin = int(cache_w[0] & 1u), href = int(cache_w[1] & 1u);
   int in_slot = -1, ref_slot = -1;
   if ((flags & 0x2u) != 0u)
      in_slot = hin;
   else if ((flags & 0x8u) != 0u)
      in_slot = href;
   if ((flags & 0x4u) != 0u)
      ref_slot = href;
   else if ((flags & 0x10u) != 0u)
      ref_slot = hin;
   if (in_slot < 0)
      in_slot = ref_slot == 0 ? 1 : 0;
   if (ref_slot < 0 || ref_slot == in_slot)
      ref_slot = 1 - in_slot;
   cache_w[0] = uint(in_slot);
   cache_w[1] = uint(ref_slot);
}
