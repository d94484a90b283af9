/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The flow colour wheel (flow_vis.h): HSV with the direction as hue and the
 * normalised length as saturation, converted to 8-bit RGB.
 */
#include "flow_vis.h"

#include <math.h>
#include <stddef.h>

static uint8_t
to_byte(float v)
{
   v = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
   return (uint8_t)(v * 255.0f + 0.5f);
}

void
flow_vis_color(float dx, float dy, float max_len, uint8_t rgb[3])
{
   if (!isfinite(dx) || !isfinite(dy)) {
      rgb[0] = rgb[1] = rgb[2] = 0;
      return;
   }
   float len = sqrtf(dx * dx + dy * dy);
   float s = max_len > 0.0f ? len / max_len : 0.0f;
   if (s > 1.0f)
      s = 1.0f;
   float hue = atan2f(dy, dx) * 0.9549296586f; /* 3 / pi: sextants, -3..3 */
   if (hue < 0.0f)
      hue += 6.0f;
   if (hue >= 6.0f)
      hue -= 6.0f;
   /* HSV with V = 1: the largest channel is 1, the smallest 1 - S. */
   float x = 1.0f - fabsf(fmodf(hue, 2.0f) - 1.0f);
   float r, g, b;
   switch ((int)hue) {
   case 0: r = 1, g = x, b = 0; break;
   case 1: r = x, g = 1, b = 0; break;
   case 2: r = 0, g = 1, b = x; break;
   case 3: r = 0, g = x, b = 1; break;
   case 4: r = x, g = 0, b = 1; break;
   default: r = 1, g = 0, b = x; break;
   }
   rgb[0] = to_byte(1.0f - s + s * r);
   rgb[1] = to_byte(1.0f - s + s * g);
   rgb[2] = to_byte(1.0f - s + s * b);
}

float
flow_vis_image(const float *flow, uint32_t w, uint32_t h, uint8_t *rgb)
{
   size_t n = (size_t)w * h;
   float max_len = 0.0f;
   for (size_t i = 0; i < n; i++) {
      float dx = flow[2 * i], dy = flow[2 * i + 1];
      if (isfinite(dx) && isfinite(dy)) {
         float len = sqrtf(dx * dx + dy * dy);
         if (len > max_len)
            max_len = len;
      }
   }
   for (size_t i = 0; i < n; i++)
      flow_vis_color(flow[2 * i], flow[2 * i + 1], max_len, rgb + 3 * i);
   return max_len;
}
