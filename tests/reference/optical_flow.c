/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The optical-flow CPU reference (optical_flow.h, D48). Each step is a fixed
 * window over a grid of blocks, independent per block, so that each maps to
 * one GPU kernel: pyramid (4x4 filter at stride 2), candidate + integer SAD
 * search (the Motion Engine's MIN_SAD), Lucas-Kanade refinement, outlier
 * replacement by the 3x3 median, upsampling to the output grid.
 */
#include "optical_flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OF_STEP 4  /* pixels between vectors at every level */
#define OF_BLOCK 8 /* matching window, centred on its 4x4 cell */
#define OF_HALF ((OF_BLOCK - OF_STEP) / 2)
#define OF_MIN_COARSE_W 32u
#define OF_MIN_COARSE_H 24u

struct of_level_cfg {
   int radius;      /* integer search: -radius..radius around the best candidate */
   int lk_iters;    /* Lucas-Kanade steps per level */
   bool neighbours; /* neighbours' predictors as candidates */
};

static struct of_level_cfg
level_cfg(enum of_perf perf)
{
   switch (perf) {
   case OF_PERF_SLOW:
      return (struct of_level_cfg){4, 3, true};
   case OF_PERF_FAST:
      return (struct of_level_cfg){2, 1, false};
   default:
      return (struct of_level_cfg){3, 2, true};
   }
}

static inline int
clampi(int v, int lo, int hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

uint32_t
of_grid_w(uint32_t width, uint32_t grid)
{
   return (width + grid - 1) / grid;
}

uint32_t
of_grid_h(uint32_t height, uint32_t grid)
{
   return (height + grid - 1) / grid;
}

uint32_t
of_levels(uint32_t width, uint32_t height, enum of_perf perf)
{
   (void)perf; /* the search radius differs per level of performance, not the pyramid */
   uint32_t n = 1;
   while (n < OF_MAX_LEVELS && (width >> n) >= OF_MIN_COARSE_W && (height >> n) >= OF_MIN_COARSE_H)
      n++;
   return n;
}

void
of_pyramid_free(struct of_pyramid *p)
{
   for (uint32_t l = 0; l < OF_MAX_LEVELS; l++) {
      free(p->img[l]);
      p->img[l] = NULL;
   }
   p->levels = 0;
}

/* One level down: separable [1 3 3 1]/8 at stride 2 (centred on the half-size pixel), edges
 * clamped. */
static void
downsample(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh)
{
   static const int k[4] = {1, 3, 3, 1};
   for (uint32_t y = 0; y < dh; y++)
      for (uint32_t x = 0; x < dw; x++) {
         int s = 0;
         for (int j = 0; j < 4; j++) {
            int yy = clampi((int)(2 * y) - 1 + j, 0, (int)sh - 1);
            int r = 0;
            for (int i = 0; i < 4; i++)
               r += k[i] *
                    src[(size_t)yy * sw + (size_t)clampi((int)(2 * x) - 1 + i, 0, (int)sw - 1)];
            s += k[j] * r;
         }
         dst[(size_t)y * dw + x] = (uint8_t)((s + 32) >> 6);
      }
}

bool
of_pyramid_build(struct of_pyramid *p, const struct of_image *im, uint32_t levels)
{
   if (!im || !im->data || im->width == 0 || im->height == 0 || im->stride < im->width ||
       (im->bits != 8 && im->bits != 16) || levels == 0 || levels > OF_MAX_LEVELS)
      return false;
   of_pyramid_free(p);
   uint32_t w = im->width, h = im->height;
   for (uint32_t l = 0; l < levels; l++) {
      p->w[l] = w;
      p->h[l] = h;
      p->img[l] = malloc((size_t)w * h);
      if (!p->img[l]) {
         of_pyramid_free(p);
         return false;
      }
      w = (w + 1) / 2;
      h = (h + 1) / 2;
   }
   p->levels = levels;
   for (uint32_t y = 0; y < im->height; y++)
      for (uint32_t x = 0; x < im->width; x++) {
         size_t i = (size_t)y * im->stride + x;
         p->img[0][(size_t)y * im->width + x] =
             im->bits == 8 ? ((const uint8_t *)im->data)[i]
                           : (uint8_t)(((const uint16_t *)im->data)[i] >> 8);
      }
   for (uint32_t l = 1; l < levels; l++)
      downsample(p->img[l - 1], p->w[l - 1], p->h[l - 1], p->img[l], p->w[l], p->h[l]);
   return true;
}

void
of_cache_init(struct of_cache *c)
{
   memset(c, 0, sizeof(*c));
   c->input_slot = c->reference_slot = -1;
}

void
of_cache_free(struct of_cache *c)
{
   of_pyramid_free(&c->slot[0]);
   of_pyramid_free(&c->slot[1]);
   c->input_slot = c->reference_slot = -1;
}

bool
of_cache_update(struct of_cache *c, const struct of_image *input, const struct of_image *reference,
                uint32_t levels, uint32_t flags, unsigned *built)
{
   int in = -1, ref = -1;
   unsigned n = 0;
   if (flags & OF_EXEC_INPUT_UNCHANGED)
      in = c->input_slot;
   else if (flags & OF_EXEC_INPUT_IS_PREVIOUS_REFERENCE)
      in = c->reference_slot;
   if (flags & OF_EXEC_REFERENCE_UNCHANGED)
      ref = c->reference_slot;
   else if (flags & OF_EXEC_REFERENCE_IS_PREVIOUS_INPUT)
      ref = c->input_slot;
   bool want_in = flags & (OF_EXEC_INPUT_UNCHANGED | OF_EXEC_INPUT_IS_PREVIOUS_REFERENCE);
   bool want_ref = flags & (OF_EXEC_REFERENCE_UNCHANGED | OF_EXEC_REFERENCE_IS_PREVIOUS_INPUT);
   if ((want_in && (in < 0 || c->slot[in].levels != levels)) ||
       (want_ref && (ref < 0 || c->slot[ref].levels != levels)) || (in >= 0 && in == ref))
      return false;
   if (in < 0) {
      in = ref == 0 ? 1 : 0;
      if (!of_pyramid_build(&c->slot[in], input, levels))
         goto fail;
      n++;
   }
   if (ref < 0) {
      ref = 1 - in;
      if (!of_pyramid_build(&c->slot[ref], reference, levels))
         goto fail;
      n++;
   }
   c->input_slot = in;
   c->reference_slot = ref;
   if (built)
      *built = n;
   return true;
fail:
   /* a slot may hold a half-updated pair: nothing is reusable after a failure */
   c->input_slot = c->reference_slot = -1;
   return false;
}

/* ---- matching ---------------------------------------------------------- */

struct level {
   const uint8_t *in, *ref;
   int w, h;
};

static inline int
px(const uint8_t *img, int w, int h, int x, int y)
{
   return img[(size_t)clampi(y, 0, h - 1) * (size_t)w + (size_t)clampi(x, 0, w - 1)];
}

/* Bilinear sample of a level with clamped edges. */
static inline float
bil(const uint8_t *img, int w, int h, float x, float y)
{
   float fx = floorf(x), fy = floorf(y);
   int x0 = (int)fx, y0 = (int)fy;
   float ax = x - fx, ay = y - fy;
   float a = (float)px(img, w, h, x0, y0), b = (float)px(img, w, h, x0 + 1, y0);
   float c = (float)px(img, w, h, x0, y0 + 1), d = (float)px(img, w, h, x0 + 1, y0 + 1);
   return (a + (b - a) * ax) * (1.0f - ay) + (c + (d - c) * ax) * ay;
}

/* Integer SAD of the block whose window starts at (x0, y0), candidate (dx, dy). */
static uint32_t
sad_int(const struct level *L, int x0, int y0, int dx, int dy)
{
   uint32_t s = 0;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++)
         s += (uint32_t)abs(px(L->in, L->w, L->h, x0 + x, y0 + y) -
                            px(L->ref, L->w, L->h, x0 + x + dx, y0 + y + dy));
   return s;
}

static float
sad_sub(const struct level *L, int x0, int y0, float vx, float vy)
{
   float s = 0.0f;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++)
         s += fabsf((float)px(L->in, L->w, L->h, x0 + x, y0 + y) -
                    bil(L->ref, L->w, L->h, (float)(x0 + x) + vx, (float)(y0 + y) + vy));
   return s;
}

/* Lucas-Kanade steps with the input block's gradients (constant 2x2 system per block). */
static void
lk_refine(const struct level *L, int x0, int y0, int iters, float *vx, float *vy)
{
   float gx[OF_BLOCK * OF_BLOCK], gy[OF_BLOCK * OF_BLOCK], iv[OF_BLOCK * OF_BLOCK];
   float a = 0, b = 0, c = 0;
   for (int y = 0; y < OF_BLOCK; y++)
      for (int x = 0; x < OF_BLOCK; x++) {
         int i = y * OF_BLOCK + x, X = x0 + x, Y = y0 + y;
         gx[i] = 0.5f * (float)(px(L->in, L->w, L->h, X + 1, Y) - px(L->in, L->w, L->h, X - 1, Y));
         gy[i] = 0.5f * (float)(px(L->in, L->w, L->h, X, Y + 1) - px(L->in, L->w, L->h, X, Y - 1));
         iv[i] = (float)px(L->in, L->w, L->h, X, Y);
         a += gx[i] * gx[i];
         b += gx[i] * gy[i];
         c += gy[i] * gy[i];
      }
   float det = a * c - b * b;
   if (det < 1e-3f * (a + c) * (a + c) || a + c < 1.0f)
      return; /* no texture or an edge only: keep the integer vector */
   for (int it = 0; it < iters; it++) {
      float ex = 0, ey = 0;
      for (int y = 0; y < OF_BLOCK; y++)
         for (int x = 0; x < OF_BLOCK; x++) {
            int i = y * OF_BLOCK + x;
            float e = iv[i] - bil(L->ref, L->w, L->h, (float)(x0 + x) + *vx, (float)(y0 + y) + *vy);
            ex += gx[i] * e;
            ey += gy[i] * e;
         }
      float dx = (c * ex - b * ey) / det, dy = (a * ey - b * ex) / det;
      dx = fmaxf(-1.0f, fminf(1.0f, dx));
      dy = fmaxf(-1.0f, fminf(1.0f, dy));
      *vx += dx;
      *vy += dy;
      if (fabsf(dx) + fabsf(dy) < 0.01f)
         break;
   }
}

static float
med3x3(const float *v, int n)
{
   float t[9];
   memcpy(t, v, (size_t)n * sizeof(float));
   for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
         float s = t[j];
         t[j] = t[j - 1];
         t[j - 1] = s;
      }
   return t[n / 2];
}

/* Bilinear sample of a grid field (2 floats per vector) at grid coordinates (gx, gy), clamped. */
static void
field_sample(const float *f, int gw, int gh, float gx, float gy, float out[2])
{
   gx = fmaxf(0.0f, fminf((float)(gw - 1), gx));
   gy = fmaxf(0.0f, fminf((float)(gh - 1), gy));
   int x0 = (int)gx, y0 = (int)gy;
   int x1 = x0 + 1 < gw ? x0 + 1 : x0, y1 = y0 + 1 < gh ? y0 + 1 : y0;
   float ax = gx - (float)x0, ay = gy - (float)y0;
   for (int k = 0; k < 2; k++) {
      float a = f[2 * ((size_t)y0 * gw + x0) + k], b = f[2 * ((size_t)y0 * gw + x1) + k];
      float c = f[2 * ((size_t)y1 * gw + x0) + k], d = f[2 * ((size_t)y1 * gw + x1) + k];
      out[k] = (a + (b - a) * ax) * (1.0f - ay) + (c + (d - c) * ax) * ay;
   }
}

/* Hint vector (pixels of level 0) at a level-l cell, scaled to level l. */
static void
hint_at(const struct of_params *prm, int l, int bx, int by, float out[2])
{
   float s = (float)(1 << l);
   float cx = ((float)(bx * OF_STEP) + 2.0f) * s - 0.5f,
         cy = ((float)(by * OF_STEP) + 2.0f) * s - 0.5f;
   uint32_t hw = of_grid_w(prm->width, prm->hint_grid), hh = of_grid_h(prm->height, prm->hint_grid);
   int hx = clampi((int)(cx / (float)prm->hint_grid), 0, (int)hw - 1);
   int hy = clampi((int)(cy / (float)prm->hint_grid), 0, (int)hh - 1);
   out[0] = prm->hint[2 * ((size_t)hy * hw + hx)] / s;
   out[1] = prm->hint[2 * ((size_t)hy * hw + hx) + 1] / s;
}

bool
of_compute(const struct of_params *prm, const struct of_pyramid *pin, const struct of_pyramid *pref,
           float *flow, uint16_t *cost)
{
   if (!prm || !pin || !pref || !flow || pin->levels == 0 || pin->levels != pref->levels ||
       pin->w[0] != prm->width || pin->h[0] != prm->height || pref->w[0] != prm->width ||
       pref->h[0] != prm->height)
      return false;
   if (prm->grid != 1 && prm->grid != 2 && prm->grid != 4 && prm->grid != 8)
      return false;
   if (prm->hint && prm->hint_grid != 1 && prm->hint_grid != 2 && prm->hint_grid != 4 &&
       prm->hint_grid != 8)
      return false;
   struct of_level_cfg cfg = level_cfg(prm->perf);
   int top = (int)pin->levels - 1;
   float *prev = NULL, *cur = NULL, *raw = NULL;
   float *bcost = NULL;
   int pgw = 0, pgh = 0, gw = 0, gh = 0;
   bool ok = false;
   for (int l = top; l >= 0; l--) {
      struct level L = {pin->img[l], pref->img[l], (int)pin->w[l], (int)pin->h[l]};
      gw = (L.w + OF_STEP - 1) / OF_STEP;
      gh = (L.h + OF_STEP - 1) / OF_STEP;
      size_t n = (size_t)gw * gh;
      free(cur);
      free(raw);
      cur = malloc(n * 2 * sizeof(float));
      raw = malloc(n * 2 * sizeof(float));
      if (!cur || !raw)
         goto out;
      /* 1. predictors: the coarser level's field, upsampled and doubled */
      float *pred = cur;
      for (int by = 0; by < gh; by++)
         for (int bx = 0; bx < gw; bx++) {
            float *p = &pred[2 * ((size_t)by * gw + bx)];
            if (prev) {
               /* centre 4b + 1.5 here is 2b + 0.5 one level up, grid coordinate (2b - 1) / 4 */
               field_sample(prev, pgw, pgh, (2.0f * (float)bx - 1.0f) / 4.0f,
                            (2.0f * (float)by - 1.0f) / 4.0f, p);
               p[0] *= 2.0f;
               p[1] *= 2.0f;
            } else {
               p[0] = p[1] = 0.0f;
            }
         }
      /* 2.-3. candidates, integer search, Lucas-Kanade */
      for (int by = 0; by < gh; by++)
         for (int bx = 0; bx < gw; bx++) {
            int x0 = bx * OF_STEP - OF_HALF, y0 = by * OF_STEP - OF_HALF;
            float cand[7][2];
            int nc = 0;
            const float *p = &pred[2 * ((size_t)by * gw + bx)];
            cand[nc][0] = p[0], cand[nc][1] = p[1], nc++;
            cand[nc][0] = 0.0f, cand[nc][1] = 0.0f, nc++;
            if (prm->hint)
               hint_at(prm, l, bx, by, cand[nc++]);
            if (cfg.neighbours) {
               static const int nb[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
               for (int k = 0; k < 4; k++) {
                  int x = clampi(bx + nb[k][0], 0, gw - 1), y = clampi(by + nb[k][1], 0, gh - 1);
                  cand[nc][0] = pred[2 * ((size_t)y * gw + x)];
                  cand[nc][1] = pred[2 * ((size_t)y * gw + x) + 1];
                  nc++;
               }
            }
            int cx = 0, cy = 0;
            uint32_t best = UINT32_MAX;
            for (int k = 0; k < nc; k++) {
               int dx = (int)lrintf(cand[k][0]), dy = (int)lrintf(cand[k][1]);
               uint32_t s = sad_int(&L, x0, y0, dx, dy);
               if (s < best)
                  best = s, cx = dx, cy = dy;
            }
            int bxv = cx, byv = cy;
            for (int dy = -cfg.radius; dy <= cfg.radius; dy++)
               for (int dx = -cfg.radius; dx <= cfg.radius; dx++) {
                  uint32_t s = sad_int(&L, x0, y0, cx + dx, cy + dy);
                  if (s < best)
                     best = s, bxv = cx + dx, byv = cy + dy;
               }
            float vx = (float)bxv, vy = (float)byv;
            lk_refine(&L, x0, y0, cfg.lk_iters, &vx, &vy);
            raw[2 * ((size_t)by * gw + bx)] = vx;
            raw[2 * ((size_t)by * gw + bx) + 1] = vy;
         }
      /* 4. outliers: a vector more than 1 px (L1) from its 3x3 median takes the median */
      for (int by = 0; by < gh; by++)
         for (int bx = 0; bx < gw; bx++) {
            float xs[9], ys[9];
            int m = 0;
            for (int j = -1; j <= 1; j++)
               for (int i = -1; i <= 1; i++) {
                  int x = bx + i, y = by + j;
                  if (x < 0 || y < 0 || x >= gw || y >= gh)
                     continue;
                  xs[m] = raw[2 * ((size_t)y * gw + x)];
                  ys[m] = raw[2 * ((size_t)y * gw + x) + 1];
                  m++;
               }
            float mx = med3x3(xs, m), my = med3x3(ys, m);
            const float *r = &raw[2 * ((size_t)by * gw + bx)];
            float *o = &cur[2 * ((size_t)by * gw + bx)];
            bool outlier = fabsf(r[0] - mx) + fabsf(r[1] - my) > 1.0f;
            o[0] = outlier ? mx : r[0];
            o[1] = outlier ? my : r[1];
         }
      free(prev);
      prev = cur;
      cur = NULL;
      pgw = gw;
      pgh = gh;
   }
   /* 5. cost of each level-0 block at its final vector */
   struct level L0 = {pin->img[0], pref->img[0], (int)pin->w[0], (int)pin->h[0]};
   if (cost) {
      bcost = malloc((size_t)gw * gh * sizeof(float));
      if (!bcost)
         goto out;
      for (int by = 0; by < gh; by++)
         for (int bx = 0; bx < gw; bx++) {
            const float *v = &prev[2 * ((size_t)by * gw + bx)];
            bcost[(size_t)by * gw + bx] =
                sad_sub(&L0, bx * OF_STEP - OF_HALF, by * OF_STEP - OF_HALF, v[0], v[1]);
         }
   }
   /* 6. the output grid: bilinear between block centres (4i + 1.5); cost: mean of the blocks the
    * cell covers */
   uint32_t ow = of_grid_w(prm->width, prm->grid), oh = of_grid_h(prm->height, prm->grid);
   for (uint32_t oy = 0; oy < oh; oy++)
      for (uint32_t ox = 0; ox < ow; ox++) {
         float cxp = (float)(ox * prm->grid) + 0.5f * (float)(prm->grid - 1);
         float cyp = (float)(oy * prm->grid) + 0.5f * (float)(prm->grid - 1);
         field_sample(prev, gw, gh, (cxp - 1.5f) / 4.0f, (cyp - 1.5f) / 4.0f,
                      &flow[2 * ((size_t)oy * ow + ox)]);
         if (cost) {
            int b0x = (int)(ox * prm->grid) / OF_STEP, b0y = (int)(oy * prm->grid) / OF_STEP;
            int b1x = (int)(ox * prm->grid + prm->grid - 1) / OF_STEP;
            int b1y = (int)(oy * prm->grid + prm->grid - 1) / OF_STEP;
            float s = 0.0f;
            int m = 0;
            for (int y = b0y; y <= b1y && y < gh; y++)
               for (int x = b0x; x <= b1x && x < gw; x++)
                  s += bcost[(size_t)y * gw + x], m++;
            float c = m ? s / (float)m : 0.0f;
            cost[(size_t)oy * ow + ox] = (uint16_t)fminf(65535.0f, c + 0.5f);
         }
      }
   ok = true;
out:
   free(prev);
   free(cur);
   free(raw);
   free(bcost);
   return ok;
}

/* ---- half floats ------------------------------------------------------- */

uint16_t
of_half_from_float(float f)
{
   uint32_t x;
   memcpy(&x, &f, 4);
   uint32_t sign = (x >> 16) & 0x8000u;
   uint32_t e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
   if (e == 0xff)
      return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
   int exp = (int)e - 127 + 15;
   if (exp >= 31)
      return (uint16_t)(sign | 0x7c00u);
   if (exp <= 0) {
      if (exp < -10)
         return (uint16_t)sign;
      m |= 0x800000u;
      uint32_t shift = (uint32_t)(14 - exp);
      uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (h & 1)))
         h++;
      return (uint16_t)(sign | h);
   }
   uint32_t h = ((uint32_t)exp << 10) | (m >> 13), rem = m & 0x1fffu;
   if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
      h++; /* may carry into the exponent, up to infinity: correct */
   return (uint16_t)(sign | h);
}

float
of_half_to_float(uint16_t h)
{
   uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
   if (e == 0) {
      float f = ldexpf((float)m, -24);
      return sign ? -f : f;
   }
   if (e == 31)
      x = sign | 0x7f800000u | (m << 13);
   else
      x = sign | ((e - 15 + 127) << 23) | (m << 13);
   float f;
   memcpy(&f, &x, 4);
   return f;
}
