/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Synthetic optical-flow frame pairs and quality measures (of_synth.h, D48).
 */
#include "of_synth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t
mix64(uint64_t z)
{
   z += 0x9e3779b97f4a7c15ull;
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

/* Lattice value in [0, 1) of one octave. */
static double
lattice(uint64_t seed, int64_t x, int64_t y)
{
   uint64_t h = mix64(seed ^ mix64((uint64_t)x * 0x632be59bd9b4e019ull ^ mix64((uint64_t)y)));
   return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

/* Catmull-Rom weights: a band-limited, C1 interpolation of the lattice. */
static void
cr_weights(double t, double w[4])
{
   double t2 = t * t, t3 = t2 * t;
   w[0] = 0.5 * (-t3 + 2 * t2 - t);
   w[1] = 0.5 * (3 * t3 - 5 * t2 + 2);
   w[2] = 0.5 * (-3 * t3 + 4 * t2 + t);
   w[3] = 0.5 * (t3 - t2);
}

float
of_synth_texture(uint64_t seed, double x, double y)
{
   static const double period[4] = {32.0, 16.0, 8.0, 4.0};
   static const double amp[4] = {1.0, 0.7, 0.5, 0.35};
   double sum = 0.0, total = 0.0;
   for (int o = 0; o < 4; o++) {
      uint64_t os = mix64(seed * 4 + (uint64_t)o);
      /* each octave's lattice shifted so that no two align */
      double u = x / period[o] + 0.37 * o, v = y / period[o] + 0.61 * o;
      double fu = floor(u), fv = floor(v), wx[4], wy[4];
      cr_weights(u - fu, wx);
      cr_weights(v - fv, wy);
      double s = 0.0;
      for (int j = 0; j < 4; j++)
         for (int i = 0; i < 4; i++)
            s += wx[i] * wy[j] * lattice(os, (int64_t)fu - 1 + i, (int64_t)fv - 1 + j);
      sum += amp[o] * (s - 0.5);
      total += amp[o];
   }
   double g = 128.0 + 255.0 * 1.6 * sum / total;
   return (float)(g < 0.0 ? 0.0 : g > 255.0 ? 255.0 : g);
}

static uint8_t
q8(float v)
{
   return (uint8_t)lrintf(v);
}

void
of_synth_free(struct of_synth *s)
{
   free(s->input);
   free(s->reference);
   free(s->gt);
   free(s->valid);
   memset(s, 0, sizeof(*s));
}

/* TWO_MOTIONS layers: 0 background, 1 disc, 2 square (on top). */
static int
layer_at(uint32_t w, uint32_t h, double x, double y)
{
   double sx = 0.68 * w, sy = 0.55 * h, half = h / 6.0;
   if (fabs(x - sx) <= half && fabs(y - sy) <= half)
      return 2;
   double cx = 0.3 * w, cy = 0.45 * h, r = h / 5.0;
   if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
      return 1;
   return 0;
}

bool
of_synth_make(struct of_synth *s, const struct of_synth_desc *d, uint32_t w, uint32_t h,
              uint64_t seed)
{
   memset(s, 0, sizeof(*s));
   size_t n = (size_t)w * h;
   s->w = w;
   s->h = h;
   s->input = malloc(n);
   s->reference = malloc(n);
   s->gt = malloc(n * 2 * sizeof(float));
   s->valid = malloc(n);
   if (!s->input || !s->reference || !s->gt || !s->valid || w == 0 || h == 0) {
      of_synth_free(s);
      return false;
   }
   uint64_t ts[3] = {seed, seed ^ 0x5151u, seed ^ 0xa3a3u};
   double cx = (w - 1) * 0.5, cy = (h - 1) * 0.5;
   double th = d->angle_deg * 3.14159265358979323846 / 180.0, z = d->zoom != 0.0f ? d->zoom : 1.0;
   for (uint32_t y = 0; y < h; y++)
      for (uint32_t x = 0; x < w; x++) {
         size_t i = (size_t)y * w + x;
         double gx = 0, gy = 0;
         int layer = 0;
         switch (d->kind) {
         case OF_SYNTH_TRANSLATE:
            gx = d->dx, gy = d->dy;
            break;
         case OF_SYNTH_ROTATE_ZOOM: {
            double rx = x - cx, ry = y - cy;
            gx = cx + z * (cos(th) * rx - sin(th) * ry) - x;
            gy = cy + z * (sin(th) * rx + cos(th) * ry) - y;
            break;
         }
         case OF_SYNTH_TWO_MOTIONS:
            /* the topmost layer whose reference position maps onto p */
            if (layer_at(w, h, x + d->bx, y + d->by) == 2)
               layer = 2, gx = d->bx, gy = d->by;
            else if (layer_at(w, h, x + d->ax, y + d->ay) == 1)
               layer = 1, gx = d->ax, gy = d->ay;
            else
               gx = d->dx, gy = d->dy;
            break;
         }
         double qx = x + gx, qy = y + gy;
         s->gt[2 * i] = (float)gx;
         s->gt[2 * i + 1] = (float)gy;
         s->input[i] = q8(of_synth_texture(ts[layer], qx, qy));
         bool inside = qx >= 0.0 && qy >= 0.0 && qx <= w - 1.0 && qy <= h - 1.0;
         s->valid[i] =
             inside && (d->kind != OF_SYNTH_TWO_MOTIONS || layer_at(w, h, qx, qy) == layer);
         int rl = d->kind == OF_SYNTH_TWO_MOTIONS ? layer_at(w, h, x, y) : 0;
         s->reference[i] = q8(of_synth_texture(ts[rl], x, y));
      }
   return true;
}

/* ---- measures ------------------------------------------------------------ */

struct rank_item {
   double key;
   uint32_t idx;
};

static int
cmp_item(const void *a, const void *b)
{
   const struct rank_item *x = a, *y = b;
   if (x->key != y->key)
      return x->key < y->key ? -1 : 1;
   return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Ranks 1..n with ties averaged, written by original index. */
static void
ranks(struct rank_item *it, uint32_t n, double *r)
{
   qsort(it, n, sizeof(*it), cmp_item);
   for (uint32_t i = 0; i < n;) {
      uint32_t j = i;
      while (j + 1 < n && it[j + 1].key == it[i].key)
         j++;
      double avg = 0.5 * ((double)i + (double)j) + 1.0;
      for (uint32_t k = i; k <= j; k++)
         r[it[k].idx] = avg;
      i = j + 1;
   }
}

bool
of_measure(const struct of_synth *s, const float *flow, const uint16_t *cost, uint32_t grid,
           struct of_quality *q)
{
   memset(q, 0, sizeof(*q));
   q->spearman = NAN;
   q->epe_best_half = NAN;
   uint32_t gw = (s->w + grid - 1) / grid, gh = (s->h + grid - 1) / grid;
   size_t nv = (size_t)gw * gh;
   double *vsum = calloc(nv, sizeof(double));
   uint32_t *vcnt = calloc(nv, sizeof(uint32_t));
   if (!vsum || !vcnt) {
      free(vsum);
      free(vcnt);
      return false;
   }
   double sum = 0.0;
   uint64_t out = 0;
   for (uint32_t y = 0; y < s->h; y++)
      for (uint32_t x = 0; x < s->w; x++) {
         size_t i = (size_t)y * s->w + x;
         if (!s->valid[i])
            continue;
         size_t v = (size_t)(y / grid) * gw + x / grid;
         double ex = flow[2 * v] - s->gt[2 * i], ey = flow[2 * v + 1] - s->gt[2 * i + 1];
         double e = sqrt(ex * ex + ey * ey);
         sum += e;
         out += e > 3.0;
         q->pixels++;
         vsum[v] += e;
         vcnt[v]++;
      }
   if (q->pixels) {
      q->epe = sum / (double)q->pixels;
      q->outliers = (double)out / (double)q->pixels;
   }
   bool ok = true;
   uint32_t m = 0;
   for (size_t v = 0; v < nv; v++)
      m += vcnt[v] > 0;
   q->vectors = m;
   if (cost && m > 1) {
      struct rank_item *a = malloc(m * sizeof(*a)), *b = malloc(m * sizeof(*b));
      double *ra = malloc(m * sizeof(double)), *rb = malloc(m * sizeof(double));
      uint32_t *map = malloc(m * sizeof(uint32_t));
      if (!a || !b || !ra || !rb || !map) {
         ok = false;
      } else {
         uint32_t k = 0;
         for (size_t v = 0; v < nv; v++)
            if (vcnt[v]) {
               a[k] = (struct rank_item){cost[v], k};
               b[k] = (struct rank_item){vsum[v] / vcnt[v], k};
               map[k] = (uint32_t)v;
               k++;
            }
         ranks(a, m, ra);
         ranks(b, m, rb);
         double mr = 0.5 * (m + 1.0), sab = 0, saa = 0, sbb = 0;
         for (uint32_t i = 0; i < m; i++) {
            sab += (ra[i] - mr) * (rb[i] - mr);
            saa += (ra[i] - mr) * (ra[i] - mr);
            sbb += (rb[i] - mr) * (rb[i] - mr);
         }
         q->spearman = saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
         /* a is sorted by cost (ties by index): the first half's pixels */
         double hs = 0.0;
         uint64_t hp = 0;
         for (uint32_t i = 0; i < m / 2; i++) {
            uint32_t v = map[a[i].idx];
            hs += vsum[v];
            hp += vcnt[v];
         }
         q->epe_best_half = hp ? hs / (double)hp : 0.0;
      }
      free(a);
      free(b);
      free(ra);
      free(rb);
      free(map);
   }
   free(vsum);
   free(vcnt);
   return ok;
}
