/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The Motion Engine CPU reference (tests/reference/me_ref.h, D47) on answers
 * worked out by hand: Arm's three examples, both patterns' first candidate when
 * every SAD ties, the whole SPIRAL order of rings 1 and 2 (one search pixel
 * matching at a time), RAW_SAD's channel layout, and the invalid attributes.
 */
#include "me_ref.h"
#include "test.h"

TEST_MAIN_STATE;

static struct ref_tensor *
frame(int64_t h, int64_t w, const int *v)
{
   struct ref_tensor *t = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(1), h, w);
   for (int64_t i = 0; t && i < t->count; i++)
      ref_tensor_set_int(t, i, v ? v[i] : 0);
   return t;
}

static const struct me_ref_args base = {
    .kernel = {3, 3}, .search = {3, 3}, .stride = {1, 1}, .wstride = {1, 1}, .offset = {1, 1}};

static void
arm_examples(void)
{
   static const int tmpl[25] = {0,  0, 0, 0,  0,  0,  10, 10, 10, 0, 0, 10, 50,
                                10, 0, 0, 10, 10, 10, 0,  0,  0,  0, 0, 0};
   static const int srch[25] = {0,  0,  0, 0, 0,  0,  0,  0, 0, 0,  0,  0, 10,
                                10, 10, 0, 0, 10, 50, 10, 0, 0, 10, 10, 10};
   struct ref_tensor *a = frame(5, 5, tmpl), *b = frame(5, 5, srch);
   struct ref_tensor *v =
       ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(1), INT64_C(5), INT64_C(10));
   struct ref_tensor *c =
       ref_tensor_create_v(REF_DTYPE_I16, 4, INT64_C(1), INT64_C(1), INT64_C(5), INT64_C(5));
   struct me_ref_args x = {.kernel = {3, 3},
                           .search = {7, 7},
                           .stride = {1, 1},
                           .wstride = {1, 1},
                           .offset = {3, 3},
                           .pad = {1, 1},
                           .pattern = 1};
   ok(me_ref_eval(ME_REF_MIN_SAD_COST, &x, a, b, v, c) == TOSA_REF_OK, "Arm MIN_SAD_COST");
   bool all = true;
   for (int64_t i = 0; i < v->count; i++)
      all &= ref_tensor_get_int(v, i) == 1;
   for (int64_t i = 0; i < c->count; i++)
      all &= ref_tensor_get_int(c, i) == 0;
   ok(all, "every block finds (1, 1) at cost 0");

   /* RAW_SAD: zeros against ones, 3x3, padding 1, one candidate. */
   struct ref_tensor *z = frame(5, 5, NULL), *o = frame(5, 5, NULL);
   for (int64_t i = 0; i < o->count; i++)
      ref_tensor_set_int(o, i, 1);
   struct ref_tensor *r =
       ref_tensor_create_v(REF_DTYPE_I16, 4, INT64_C(1), INT64_C(1), INT64_C(5), INT64_C(5));
   struct me_ref_args y = {
       .kernel = {3, 3}, .search = {1, 1}, .stride = {1, 1}, .wstride = {1, 1}, .pad = {1, 1}};
   ok(me_ref_eval(ME_REF_RAW_SAD, &y, z, o, r, NULL) == TOSA_REF_OK, "Arm RAW_SAD");
   static const int want[25] = {4, 6, 6, 6, 4, 6, 9, 9, 9, 6, 6, 9, 9,
                                9, 6, 6, 9, 9, 9, 6, 4, 6, 6, 6, 4};
   for (int i = 0; i < 25; i++)
      check_eq_i64(ref_tensor_get_int(r, i), want[i]);
   ref_tensor_destroy(a);
   ref_tensor_destroy(b);
   ref_tensor_destroy(v);
   ref_tensor_destroy(c);
   ref_tensor_destroy(z);
   ref_tensor_destroy(o);
   ref_tensor_destroy(r);
}

/* A 1x1 kernel and a centred 5x5 window on 5x5 frames: the template's pixel (2, 2) is 9, the
 * search frame 9 at exactly the given displacements from (2, 2), 0 elsewhere. Returns the
 * (dx, dy) MIN_SAD picks for block (2, 2). */
static void
pick(uint32_t pattern, const int (*d)[2], int n, int *dx, int *dy)
{
   int t[25] = {0}, s[25] = {0};
   t[2 * 5 + 2] = 9;
   for (int i = 0; i < n; i++)
      s[(2 + d[i][1]) * 5 + (2 + d[i][0])] = 9;
   struct ref_tensor *a = frame(5, 5, t), *b = frame(5, 5, s);
   struct ref_tensor *v =
       ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(1), INT64_C(5), INT64_C(10));
   struct me_ref_args x = {.kernel = {1, 1},
                           .search = {5, 5},
                           .stride = {1, 1},
                           .wstride = {1, 1},
                           .offset = {2, 2},
                           .pattern = pattern};
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_OK, "pick");
   *dx = (int)ref_tensor_get_int(v, 2 * 10 + 4);
   *dy = (int)ref_tensor_get_int(v, 2 * 10 + 5);
   ref_tensor_destroy(a);
   ref_tensor_destroy(b);
   ref_tensor_destroy(v);
}

static void
orders(void)
{
   /* D47's spiral: (0,0); ring 1 from (-1,1) along +x, down the right column, back along
    * dy = -1, up the left column; ring 2 likewise. Matching every candidate from position i
    * on, the pick is candidate i. */
   static const int spiral[25][2] = {
       {0, 0},  {-1, 1}, {0, 1},   {1, 1},   {1, 0},   {1, -1}, {0, -1}, {-1, -1}, {-1, 0},
       {-2, 2}, {-1, 2}, {0, 2},   {1, 2},   {2, 2},   {2, 1},  {2, 0},  {2, -1},  {2, -2},
       {1, -2}, {0, -2}, {-1, -2}, {-2, -2}, {-2, -1}, {-2, 0}, {-2, 1}};
   for (int i = 0; i < 25; i++) {
      int dx, dy;
      pick(1, &spiral[i], 25 - i, &dx, &dy);
      ok(dx == spiral[i][0] && dy == spiral[i][1], "SPIRAL candidate %d is (%d, %d), got (%d, %d)",
         i, spiral[i][0], spiral[i][1], dx, dy);
      /* RASTER takes the matching candidate with the smallest (dy, dx), row-major. */
      int best = -1;
      for (int k = i; k < 25; k++) {
         int key = (spiral[k][1] + 2) * 5 + spiral[k][0] + 2;
         if (best < 0 || key < best)
            best = key;
      }
      pick(0, &spiral[i], 25 - i, &dx, &dy);
      ok(dx == best % 5 - 2 && dy == best / 5 - 2, "RASTER pick among %d candidates", 25 - i);
   }
}

static void
invalid(void)
{
   struct ref_tensor *a = frame(4, 4, NULL), *b = frame(4, 4, NULL);
   struct ref_tensor *v =
       ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(1), INT64_C(4), INT64_C(8));
   struct me_ref_args x = base;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_OK, "valid");
   x.kernel[0] = 0;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "kernel 0");
   x = base;
   x.offset[1] = 3;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "offset outside");
   x = base;
   x.pad[0] = 3;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "pad = kernel");
   x = base;
   x.pattern = 2;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "pattern 2");
   x = base;
   x.pattern = 1;
   x.offset[0] = 0;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "spiral off centre");
   x = base;
   x.stride[0] = 2;
   ok(me_ref_eval(ME_REF_MIN_SAD, &x, a, b, v, NULL) == TOSA_REF_ERROR, "output shape");
   ref_tensor_destroy(a);
   ref_tensor_destroy(b);
   ref_tensor_destroy(v);
}

int
main(void)
{
   arm_examples();
   orders();
   invalid();
   return test_done();
}
