/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What every optical-flow kernel shares (graph/of, D49): the session's two storage buffers
 * at the placeholder set 6 (patched to the internal set at pipeline creation), 16 words of
 * push constants whose meaning each kernel gives, and the sampling helpers of the CPU
 * reference (tests/reference/optical_flow.c) in the same float operations. The cache's
 * header: word 0 the slot of the input pyramid, word 1 the reference's; pyramids follow at
 * OF_HEADER_WORDS, one 32-bit word per 8-bit sample.
 */
#ifndef OF_COMMON_GLSL
#define OF_COMMON_GLSL

#define OF_HEADER_WORDS 16u
#define OF_STEP 4
#define OF_BLOCK 8
#define OF_HALF 2

layout(set = 6, binding = 0, std430) buffer OfCache { uint cache_w[]; };
layout(set = 6, binding = 1, std430) buffer OfWork { uint work_w[]; };
layout(push_constant) uniform OfPush { uint u[16]; } pc;

/* The first word of a level of the pyramid in the slot header word `which` names. */
uint
of_level_base(uint which, uint level_offset, uint pyramid_words)
{
   return OF_HEADER_WORDS + (cache_w[which] & 1u) * pyramid_words + level_offset;
}

int
of_px(uint base, int w, int h, int x, int y)
{
   return int(cache_w[base + uint(clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1))]);
}

float
of_bil(uint base, int w, int h, float x, float y)
{
   precise float fx = floor(x), fy = floor(y);
   int x0 = int(fx), y0 = int(fy);
   precise float ax = x - fx, ay = y - fy;
   float a = float(of_px(base, w, h, x0, y0)), b = float(of_px(base, w, h, x0 + 1, y0));
   float c = float(of_px(base, w, h, x0, y0 + 1)), d = float(of_px(base, w, h, x0 + 1, y0 + 1));
   precise float r = (a + (b - a) * ax) * (1.0 - ay) + (c + (d - c) * ax) * ay;
   return r;
}

float
of_f(uint i)
{
   return uintBitsToFloat(work_w[i]);
}

/* Bilinear sample of a field (2 floats per vector at word `off`) at grid coordinates. */
vec2
of_field_sample(uint off, int gw, int gh, float gx, float gy)
{
   gx = max(0.0, min(float(gw - 1), gx));
   gy = max(0.0, min(float(gh - 1), gy));
   int x0 = int(gx), y0 = int(gy);
   int x1 = x0 + 1 < gw ? x0 + 1 : x0, y1 = y0 + 1 < gh ? y0 + 1 : y0;
   precise float ax = gx - float(x0), ay = gy - float(y0);
   vec2 o;
   for (int k = 0; k < 2; k++) {
      float a = of_f(off + 2u * uint(y0 * gw + x0) + uint(k));
      float b = of_f(off + 2u * uint(y0 * gw + x1) + uint(k));
      float c = of_f(off + 2u * uint(y1 * gw + x0) + uint(k));
      float d = of_f(off + 2u * uint(y1 * gw + x1) + uint(k));
      precise float r = (a + (b - a) * ax) * (1.0 - ay) + (c + (d - c) * ax) * ay;
      o[k] = r;
   }
   return o;
}

#endif
