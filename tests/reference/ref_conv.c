/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * CONV2D of the reference (TOSA 1.0.1 chapters/tensor_ops.adoc, pseudocode/operators/
 * CONV2D.tosac): NHWC input, OHWI weight, per-channel or broadcast bias, zero points only for
 * i8 operands, padding taps contributing 0, acc_t i32 or i48 for the integer rows with every
 * apply_add_s REQUIRE checked. Float rows are computed in fp64 in pseudocode order (the
 * "reference_fp64" of tosa_reference_check_dotproduct), or, in TOSA_REF_DOT_BOUND mode, as that
 * check's output_bnd. The LEVEL_CHECKs come from tosa.xml's argument table.
 */
#include "ref_internal.h"

#include <math.h>

/* TOSA.001000.1 CONV2D rows (spec-facts §3.3); zero points have the in and weight types. */
static const struct ref_conv_row conv_rows[] = {
    {REF_DTYPE_I8, REF_DTYPE_I8, REF_DTYPE_I32, REF_DTYPE_I32, TOSA_REF_ACC_INT32},
    {REF_DTYPE_I16, REF_DTYPE_I8, REF_DTYPE_I48, REF_DTYPE_I48, TOSA_REF_ACC_INT48},
    {REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP32},
    {REF_DTYPE_BF16, REF_DTYPE_BF16, REF_DTYPE_BF16, REF_DTYPE_BF16, TOSA_REF_ACC_FP32},
    {REF_DTYPE_FP32, REF_DTYPE_FP32, REF_DTYPE_FP32, REF_DTYPE_FP32, TOSA_REF_ACC_FP32},
};

const struct ref_conv_row *
ref_conv_find_row(const struct ref_tensor *in, const struct ref_tensor *w,
                  const struct ref_tensor *b, const struct ref_tensor *izp,
                  const struct ref_tensor *wzp, const struct ref_tensor *out,
                  enum tosa_ref_acc_type acc)
{
   for (size_t i = 0; i < sizeof(conv_rows) / sizeof(conv_rows[0]); i++) {
      const struct ref_conv_row *r = &conv_rows[i];
      bool out_ok =
          out->dtype == r->out || (ref_dtype_is_float(r->out) && out->dtype == REF_DTYPE_FP64);
      if (in->dtype == r->in && w->dtype == r->weight && b->dtype == r->bias &&
          izp->dtype == r->in && wzp->dtype == r->weight && out_ok && acc == r->acc)
         return r;
   }
   return NULL;
}

bool
ref_zp_nonzero(const struct ref_tensor *zp)
{
   if (ref_dtype_is_float(zp->dtype))
      return !(ref_tensor_get_fp(zp, 0) == 0.0);
   return ref_tensor_get_int(zp, 0) != 0;
}

static double
zp_value(const struct ref_tensor *zp)
{
   if (ref_dtype_is_float(zp->dtype))
      return ref_tensor_get_fp(zp, 0);
   return (double)ref_tensor_get_int(zp, 0);
}

int
tosa_ref_conv2d_output_hw(const struct tosa_ref_conv2d_args *a, int64_t ih, int64_t iw, int64_t kh,
                          int64_t kw, int64_t *oh, int64_t *ow)
{
   /* The ERROR_IFs of CONV2D.tosac that come before the output size, in its order. */
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] < 0)
         return ref_status(TOSA_REF_ERROR, "CONV2D: ERROR_IF(pad[%d] < 0): %d", i, a->pad[i]);
   }
   if (a->stride[0] < 1 || a->stride[1] < 1)
      return ref_status(TOSA_REF_ERROR, "CONV2D: ERROR_IF(stride_y < 1 || stride_x < 1): %d %d",
                        a->stride[0], a->stride[1]);
   if (a->dilation[0] < 1 || a->dilation[1] < 1)
      return ref_status(TOSA_REF_ERROR, "CONV2D: ERROR_IF(dilation_y < 1 || dilation_x < 1): %d %d",
                        a->dilation[0], a->dilation[1]);
   /* OH = idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y, stride_y) + 1 */
   int64_t num_y = ih - 1 + a->pad[0] + a->pad[1] - (kh - 1) * a->dilation[0];
   int64_t num_x = iw - 1 + a->pad[2] + a->pad[3] - (kw - 1) * a->dilation[1];
   if (num_y % a->stride[0] != 0 || num_x % a->stride[1] != 0)
      return ref_status(TOSA_REF_ERROR,
                        "CONV2D: idiv_check: ERROR_IF(%lld %% %d != 0 || %lld %% %d != 0)",
                        (long long)num_y, a->stride[0], (long long)num_x, a->stride[1]);
   *oh = num_y / a->stride[0] + 1;
   *ow = num_x / a->stride[1] + 1;
   if (*oh < 1 || *ow < 1)
      return ref_status(TOSA_REF_ERROR, "CONV2D: output size %lld x %lld is empty", (long long)*oh,
                        (long long)*ow);
   return TOSA_REF_OK;
}

static int
check_conv(const struct tosa_ref_conv2d_args *a, const struct ref_conv_row *row,
           const struct ref_tensor *in, const struct ref_tensor *w, const struct ref_tensor *b,
           const struct ref_tensor *izp, const struct ref_tensor *wzp, const struct ref_tensor *out)
{
   if (in->rank != 4 || w->rank != 4 || b->rank != 1 || out->rank != 4)
      return ref_status(TOSA_REF_ERROR,
                        "CONV2D: ranks must be input 4, weight 4, bias 1, output 4");
   if (izp->rank != 1 || izp->shape[0] != 1 || wzp->rank != 1 || wzp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "CONV2D: zero points must have shape [1]");
   if (w->shape[3] != in->shape[3])
      return ref_status(TOSA_REF_ERROR, "CONV2D: weight IC %lld != input IC %lld",
                        (long long)w->shape[3], (long long)in->shape[3]);
   if (row->in != REF_DTYPE_I8 && ref_zp_nonzero(izp))
      return ref_status(TOSA_REF_ERROR,
                        "CONV2D: ERROR_IF(!is_same<in_t,i8_t>() && input_zp != 0): %s, %g",
                        ref_dtype_name(row->in), zp_value(izp));
   if (row->weight != REF_DTYPE_I8 && ref_zp_nonzero(wzp))
      return ref_status(TOSA_REF_ERROR,
                        "CONV2D: ERROR_IF(!is_same<weight_t,int8_t>() && weight_zp != 0): %s, %g",
                        ref_dtype_name(row->weight), zp_value(wzp));
   int64_t oh, ow;
   int st =
       tosa_ref_conv2d_output_hw(a, in->shape[1], in->shape[2], w->shape[1], w->shape[2], &oh, &ow);
   if (st != TOSA_REF_OK)
      return st;
   if (out->shape[1] != oh || out->shape[2] != ow)
      return ref_status(TOSA_REF_ERROR, "CONV2D: ERROR_IF(OH != %lld || OW != %lld): %lld %lld",
                        (long long)oh, (long long)ow, (long long)out->shape[1],
                        (long long)out->shape[2]);
   if (out->shape[0] != in->shape[0] || out->shape[3] != w->shape[0])
      return ref_status(TOSA_REF_ERROR, "CONV2D: output [N,..,OC] must be [%lld,..,%lld]",
                        (long long)in->shape[0], (long long)w->shape[0]);
   if (b->shape[0] != w->shape[0] && b->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "CONV2D: ERROR_IF(BC != OC && BC != 1): %lld, %lld",
                        (long long)b->shape[0], (long long)w->shape[0]);
   return TOSA_REF_OK;
}

static int
check_conv_level(const struct tosa_ref_conv2d_args *a, const struct ref_tensor *w)
{
   int64_t max_kernel = a->level_none ? REF_LEVEL_NONE_MAX_KERNEL : REF_LEVEL_8K_MAX_KERNEL;
   int64_t max_stride = a->level_none ? REF_LEVEL_NONE_MAX_STRIDE : REF_LEVEL_8K_MAX_STRIDE;
   if (a->dilation[0] * w->shape[1] > max_kernel || a->dilation[1] * w->shape[2] > max_kernel)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "CONV2D: LEVEL_CHECK(dilation * K <= MAX_KERNEL %lld)",
                        (long long)max_kernel);
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "CONV2D: LEVEL_CHECK(pad %d <= %lld)", a->pad[i],
                           (long long)max_kernel);
   }
   if (a->stride[0] > max_stride || a->stride[1] > max_stride)
      return ref_status(TOSA_REF_UNPREDICTABLE, "CONV2D: LEVEL_CHECK(stride <= %lld)",
                        (long long)max_stride);
   return TOSA_REF_OK;
}

/* max(|v|, normal_min) with apply_max_s's NaN propagation. */
static double
bound_abs(double v, double normal_min)
{
   if (isnan(v))
      return NAN;
   return fabs(v) > normal_min ? fabs(v) : normal_min;
}

/* The sizes the dot products need; N, OH, OW and OC come from the output index. */
struct conv_geom {
   int64_t ih, iw, ic, kh, kw, bc;
};

/*
 * One output element [n, oy, ox, oc] is a dot product over the taps k = (ky * KW + kx) * IC + ic,
 * k < KS = KH * KW * IC, in CONV2D.tosac's loop order; the weight of tap k is weight[oc * KS + k]
 * ([OC,KH,KW,IC] packed). conv_tap() gives the input offset of tap k, or -1 in the padding.
 */
struct conv_point {
   int64_t n, iy, ix, oc;
};

static struct conv_point
conv_point(const struct tosa_ref_conv2d_args *a, const struct ref_tensor *out, int64_t o)
{
   int64_t index[4];
   ref_tensor_index(out, o, index);
   return (struct conv_point){
       .n = index[0],
       .iy = index[1] * a->stride[0] - a->pad[0],
       .ix = index[2] * a->stride[1] - a->pad[2],
       .oc = index[3],
   };
}

static int64_t
conv_tap(const struct tosa_ref_conv2d_args *a, const struct conv_geom *g,
         const struct conv_point *p, int64_t k)
{
   int64_t ic = k % g->ic, kx = k / g->ic % g->kw, ky = k / (g->ic * g->kw);
   int64_t y = p->iy + ky * a->dilation[0];
   int64_t x = p->ix + kx * a->dilation[1];
   if (y < 0 || y >= g->ih || x < 0 || x >= g->iw)
      return -1;
   return ((p->n * g->ih + y) * g->iw + x) * g->ic + ic;
}

static bool
conv_int(const struct tosa_ref_conv2d_args *a, const struct ref_conv_row *row,
         const struct conv_geom *g, const struct ref_tensor *in, const struct ref_tensor *w,
         const struct ref_tensor *b, int64_t izp, int64_t wzp, struct ref_tensor *out)
{
   unsigned acc_bits = row->acc == TOSA_REF_ACC_INT48 ? 48 : 32;
   int64_t ks = g->kh * g->kw * g->ic;
   bool ok = true;
   for (int64_t o = 0; o < out->count; o++) {
      struct conv_point p = conv_point(a, out, o);
      int64_t acc = 0;
      for (int64_t k = 0; k < ks; k++) {
         int64_t at = conv_tap(a, g, &p, k);
         if (at < 0)
            continue; /* value 0: tosa_extra_multiplies adds nothing to an integer sum */
         int64_t value = ref_sub_s(ref_tensor_get_int(in, at), izp, acc_bits, &ok);
         int64_t weight_el = ref_sub_s(ref_tensor_get_int(w, p.oc * ks + k), wzp, acc_bits, &ok);
         /* apply_mul_s<acc_t>: static_cast of the int64 product (no REQUIRE). */
         int64_t product = ref_wrap_signed(value * weight_el, acc_bits);
         acc = ref_add_s(acc, product, acc_bits, &ok);
      }
      /* out_t is acc_t for the integer rows: the cast changes nothing. */
      int64_t bias = ref_tensor_get_int(b, g->bc == 1 ? 0 : p.oc);
      ref_tensor_set_int(out, o, ref_add_s(acc, bias, acc_bits, &ok));
   }
   return ok;
}

static void
conv_float(const struct tosa_ref_conv2d_args *a, const struct ref_conv_row *row,
           const struct conv_geom *g, const struct ref_tensor *in, const struct ref_tensor *w,
           const struct ref_tensor *b, double izp, double wzp, struct ref_tensor *out)
{
   bool bound = a->mode == TOSA_REF_DOT_BOUND;
   double nmin = ref_dtype_normal_min(row->in);
   double input_max = 0.0;
   if (bound && !a->local_bound) {
      /* input_abs_max = max_value(input_abs), NaN propagating. */
      input_max = nmin;
      for (int64_t i = 0; i < in->count; i++)
         input_max = ref_fmax_nan(input_max, bound_abs(ref_tensor_get_fp(in, i), nmin),
                                  TOSA_REF_NAN_PROPAGATE);
   }

   int64_t ks = g->kh * g->kw * g->ic;
   for (int64_t o = 0; o < out->count; o++) {
      struct conv_point p = conv_point(a, out, o);
      double acc = 0.0;
      for (int64_t k = 0; k < ks; k++) {
         int64_t at = conv_tap(a, g, &p, k);
         /* tosa_extra_multiplies: false for the result, true for the bound. */
         if (at < 0 && !bound)
            continue;
         double value = 0.0;
         if (at >= 0) {
            value = ref_tensor_get_fp(in, at);
            if (bound)
               value = a->local_bound ? bound_abs(value, nmin) : input_max;
            else
               value = value - izp;
         }
         double weight_el = ref_tensor_get_fp(w, p.oc * ks + k);
         weight_el = bound ? bound_abs(weight_el, nmin) : weight_el - wzp;
         acc = acc + value * weight_el;
      }
      double bias = ref_tensor_get_fp(b, g->bc == 1 ? 0 : p.oc);
      if (bound)
         bias = bound_abs(bias, nmin);
      ref_tensor_set_fp(out, o, acc + bias);
   }
}

int
tosa_ref_conv2d(const struct tosa_ref_conv2d_args *args, const struct ref_tensor *input,
                const struct ref_tensor *weight, const struct ref_tensor *bias,
                const struct ref_tensor *input_zp, const struct ref_tensor *weight_zp,
                struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(weight) || !ref_tensor_valid(bias) ||
       !ref_tensor_valid(input_zp) || !ref_tensor_valid(weight_zp) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "CONV2D: NULL or invalid argument");
   if (args->acc_type < TOSA_REF_ACC_INT32 || args->acc_type > TOSA_REF_ACC_INT48)
      return ref_status(TOSA_REF_UNSUPPORTED, "CONV2D: acc_type %d is not an acc_type_t",
                        (int)args->acc_type);

   const struct ref_conv_row *row =
       ref_conv_find_row(input, weight, bias, input_zp, weight_zp, output, args->acc_type);
   if (!row)
      return ref_status(TOSA_REF_UNSUPPORTED,
                        "CONV2D: no type-support row for input %s, weight %s, bias %s, zero "
                        "points %s/%s, output %s, acc_type %d",
                        ref_dtype_name(input->dtype), ref_dtype_name(weight->dtype),
                        ref_dtype_name(bias->dtype), ref_dtype_name(input_zp->dtype),
                        ref_dtype_name(weight_zp->dtype), ref_dtype_name(output->dtype),
                        (int)args->acc_type);
   if (args->mode != TOSA_REF_DOT_RESULT &&
       (args->mode != TOSA_REF_DOT_BOUND || output->dtype != REF_DTYPE_FP64))
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "CONV2D: TOSA_REF_DOT_BOUND needs a float row and an FP64 output");

   int st = check_conv(args, row, input, weight, bias, input_zp, weight_zp, output);
   if (st != TOSA_REF_OK)
      return st;
   st = check_conv_level(args, weight);

   struct conv_geom g = {
       .ih = input->shape[1],
       .iw = input->shape[2],
       .ic = input->shape[3],
       .kh = weight->shape[1],
       .kw = weight->shape[2],
       .bc = bias->shape[0],
   };
   if (ref_dtype_is_float(row->in)) {
      conv_float(args, row, &g, input, weight, bias, zp_value(input_zp), zp_value(weight_zp),
                 output);
   } else if (!conv_int(args, row, &g, input, weight, bias, ref_tensor_get_int(input_zp, 0),
                        ref_tensor_get_int(weight_zp, 0), output)) {
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "CONV2D: REQUIRE: accumulator or bias addition left the %s range",
                        ref_dtype_name(row->out));
   }
   return st;
}
