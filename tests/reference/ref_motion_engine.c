/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Reference of the Arm.MotionEngine.100 block matching (me_ref.h; D47). For
 * each block position the candidate displacements are listed, put in search
 * order by sorting on a key (RASTER: row, then column of the window; SPIRAL:
 * ring max(|dx|, |dy|), then the position along the ring clockwise from its
 * corner (-k, k)), each candidate's sum of absolute differences is computed
 * with every pixel outside a frame read as 0, and the first candidate in that
 * order with the smallest sum is the result.
 */
#include <stdlib.h>

#include "me_ref.h"
#include "ref_internal.h"

static const char *const op_names[3] = {"MIN_SAD", "MIN_SAD_COST", "RAW_SAD"};

struct cand {
   int dx, dy;
   int64_t key;
};

static int
cand_cmp(const void *a, const void *b)
{
   int64_t ka = ((const struct cand *)a)->key, kb = ((const struct cand *)b)->key;
   return ka < kb ? -1 : ka > kb;
}

/* The position of (dx, dy) along ring k = max(|dx|, |dy|) >= 1, clockwise with y up: the top
 * row from (-k, k) going right, the right column going down, the bottom row going left, the
 * left column going up. */
static int64_t
ring_position(int dx, int dy, int k)
{
   if (dy == k && dx < k)
      return dx + k;
   if (dx == k && dy > -k)
      return 2 * k + (k - dy);
   if (dy == -k && dx > -k)
      return 4 * k + (k - dx);
   return 6 * k + (dy + k);
}

static int
check_args(const char *op, enum me_ref_op kind, const struct me_ref_args *a)
{
   for (int i = 0; i < 2; i++) {
      const uint32_t *sizes[4] = {a->kernel, a->search, a->stride, a->wstride};
      for (int s = 0; s < 4; s++)
         if (sizes[s][i] < 1 || sizes[s][i] > 256)
            return ref_status(TOSA_REF_ERROR, "%s: a size %u outside 1..256", op, sizes[s][i]);
      if (a->offset[i] >= a->search[i])
         return ref_status(TOSA_REF_ERROR, "%s: window offset %u outside the window of %u", op,
                           a->offset[i], a->search[i]);
      int64_t lo = -(int64_t)a->offset[i], hi = (int64_t)a->search[i] - 1 - a->offset[i];
      if (lo < -128 || hi > 127)
         return ref_status(TOSA_REF_ERROR, "%s: displacements %lld..%lld are no i8", op,
                           (long long)lo, (long long)hi);
      if (a->pad[i] >= a->kernel[i])
         return ref_status(TOSA_REF_ERROR, "%s: padding %u not below the kernel %u", op, a->pad[i],
                           a->kernel[i]);
   }
   if (kind != ME_REF_RAW_SAD) {
      if (a->pattern > 1)
         return ref_status(TOSA_REF_ERROR, "%s: search pattern %u", op, a->pattern);
      if (a->pattern == 1 &&
          (a->search[0] != a->search[1] || a->search[0] % 2 != 1 ||
           2 * a->offset[0] + 1 != a->search[0] || 2 * a->offset[1] + 1 != a->search[1]))
         return ref_status(TOSA_REF_ERROR, "%s: SPIRAL needs a centred odd square window", op);
   }
   if (kind != ME_REF_MIN_SAD && (uint64_t)a->kernel[0] * a->kernel[1] * 255 > 0xffff)
      return ref_status(TOSA_REF_ERROR, "%s: costs of a %ux%u kernel exceed 16 bits", op,
                        a->kernel[0], a->kernel[1]);
   return TOSA_REF_OK;
}

static bool
shape_is(const struct ref_tensor *t, int64_t d0, int64_t d1, int64_t d2, int64_t d3)
{
   return t->rank == 4 && t->shape[0] == d0 && t->shape[1] == d1 && t->shape[2] == d2 &&
          t->shape[3] == d3;
}

static int64_t
pixel(const struct ref_tensor *t, int64_t n, int64_t c, int64_t y, int64_t x)
{
   if (y < 0 || x < 0 || y >= t->shape[2] || x >= t->shape[3])
      return 0;
   int64_t idx[4] = {n, c, y, x};
   return (int64_t)(ref_tensor_get_bits(t, ref_tensor_offset(t, idx)) & 0xffu);
}

int
me_ref_eval(enum me_ref_op kind, const struct me_ref_args *a, const struct ref_tensor *in0,
            const struct ref_tensor *in1, struct ref_tensor *out0, struct ref_tensor *out1)
{
   if ((unsigned)kind > ME_REF_RAW_SAD || !a || !in0 || !in1 || !out0 ||
       (kind == ME_REF_MIN_SAD_COST) != (out1 != NULL))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "Motion Engine: bad arguments");
   const char *op = op_names[kind];
   enum ref_dtype vec_type = kind == ME_REF_RAW_SAD ? REF_DTYPE_I16 : REF_DTYPE_I8;
   if (in0->dtype != REF_DTYPE_I8 || in1->dtype != REF_DTYPE_I8 || out0->dtype != vec_type ||
       (out1 && out1->dtype != REF_DTYPE_I16))
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: element types", op);
   int st = check_args(op, kind, a);
   if (st != TOSA_REF_OK)
      return st;
   if (in0->rank != 4 || !shape_is(in1, in0->shape[0], in0->shape[1], in0->shape[2], in0->shape[3]))
      return ref_status(TOSA_REF_ERROR, "%s: the frames are not both of one [N,C,H,W]", op);
   int64_t nn = in0->shape[0], cc = in0->shape[1];
   int64_t oh = in0->shape[2] / a->stride[0], ow = in0->shape[3] / a->stride[1];
   int64_t count = (int64_t)a->search[0] * a->search[1];
   if (oh < 1 || ow < 1)
      return ref_status(TOSA_REF_ERROR, "%s: a stride larger than the frame", op);
   if (kind == ME_REF_RAW_SAD ? !shape_is(out0, nn, cc * count, oh, ow)
                              : !shape_is(out0, nn, cc, oh, 2 * ow))
      return ref_status(TOSA_REF_ERROR, "%s: result 0's shape", op);
   if (out1 && !shape_is(out1, nn, cc, oh, ow))
      return ref_status(TOSA_REF_ERROR, "%s: result 1's shape", op);

   struct cand *cands = malloc((size_t)count * sizeof(*cands));
   if (!cands)
      return ref_status(TOSA_REF_NO_MEMORY, "%s: out of memory", op);
   /* The window in raster order; the raster index is RAW_SAD's channel offset. */
   for (int64_t r = 0; r < count; r++) {
      int vy = (int)(r / a->search[1]), vx = (int)(r % a->search[1]);
      struct cand *k = &cands[r];
      k->dx = vx - (int)a->offset[1];
      k->dy = vy - (int)a->offset[0];
      k->key = r;
      if (kind != ME_REF_RAW_SAD && a->pattern == 1) {
         int ring = abs(k->dx) > abs(k->dy) ? abs(k->dx) : abs(k->dy);
         k->key = ring == 0 ? 0 : (int64_t)ring * 1000000 + ring_position(k->dx, k->dy, ring);
      }
   }
   qsort(cands, (size_t)count, sizeof(*cands), cand_cmp);

   for (int64_t n = 0; n < nn; n++)
      for (int64_t c = 0; c < cc; c++)
         for (int64_t oy = 0; oy < oh; oy++)
            for (int64_t ox = 0; ox < ow; ox++) {
               int64_t y0 = oy * a->stride[0] - a->pad[0], x0 = ox * a->stride[1] - a->pad[1];
               int64_t best = -1;
               int best_dx = 0, best_dy = 0;
               for (int64_t i = 0; i < count; i++) {
                  const struct cand *k = &cands[i];
                  int64_t sad = 0;
                  for (int64_t y = 0; y < a->kernel[0]; y++)
                     for (int64_t x = 0; x < a->kernel[1]; x++) {
                        int64_t t = pixel(in0, n, c, y0 + y, x0 + x);
                        int64_t s = pixel(in1, n, c, y0 + y + (int64_t)k->dy * a->wstride[0],
                                          x0 + x + (int64_t)k->dx * a->wstride[1]);
                        sad += t > s ? t - s : s - t;
                     }
                  if (kind == ME_REF_RAW_SAD) {
                     int64_t raster = (int64_t)(k->dy + (int)a->offset[0]) * a->search[1] +
                                      (k->dx + (int)a->offset[1]);
                     int64_t idx[4] = {n, c * count + raster, oy, ox};
                     ref_tensor_set_bits(out0, ref_tensor_offset(out0, idx), (uint64_t)sad);
                  } else if (best < 0 || sad < best) {
                     best = sad;
                     best_dx = k->dx;
                     best_dy = k->dy;
                  }
               }
               if (kind == ME_REF_RAW_SAD)
                  continue;
               int64_t ix[4] = {n, c, oy, 2 * ox}, iy[4] = {n, c, oy, 2 * ox + 1};
               ref_tensor_set_int(out0, ref_tensor_offset(out0, ix), best_dx);
               ref_tensor_set_int(out0, ref_tensor_offset(out0, iy), best_dy);
               if (out1) {
                  int64_t ic[4] = {n, c, oy, ox};
                  ref_tensor_set_bits(out1, ref_tensor_offset(out1, ic), (uint64_t)best);
               }
            }
   free(cands);
   return TOSA_REF_OK;
}
