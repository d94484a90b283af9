/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and CONV3D of the reference (TOSA 1.0.1 chapters/
 * tensor_ops.adoc, pseudocode/operators/<OP>.tosac), written from the pseudocode as CONV2D's
 * is (ref_conv.c): one output element is a dot product over the operator's KS taps in the
 * pseudocode's loop order; a tap names its weight element and its input element, or none where
 * the pseudocode's value is 0 (padding; TRANSPOSE_CONV2D: no input position maps there).
 * Integer rows accumulate in i32 or i48 with every apply_add_s/apply_sub_s REQUIRE checked;
 * float rows are computed in fp64 (TOSA_REF_DOT_RESULT) or as the dot-product check's output
 * bound (TOSA_REF_DOT_BOUND), with tosa_extra_multiplies true for the bound. The ERROR_IFs come
 * in each .tosac's order, the LEVEL_CHECKs from tosa.xml's argument table (UNPREDICTABLE).
 */
#include "ref_internal.h"

#include <math.h>
#include <stdlib.h>

/* The operator, for messages and the tap geometry. */
enum fam_op { FAM_DEPTHWISE, FAM_TRANSPOSE, FAM_CONV3D };

static const char *const fam_names[] = {"DEPTHWISE_CONV2D", "TRANSPOSE_CONV2D", "CONV3D"};

/* The rows are CONV2D's (ref_conv_find_row(), spec-facts §3.3), the same for the three
 * operators; bias has out_t, the zero points in_t and weight_t. */

/* Everything one evaluation needs: the attributes as arrays (unused entries 0 or 1) and the
 * sizes of the operands. Spatial axes are [D,] H, W; DEPTHWISE and TRANSPOSE have two. */
struct fam {
   enum fam_op op;
   const char *name;
   int axes;          /* spatial axes: 2 or 3 */
   int32_t pad[6];    /* before, after per axis; TRANSPOSE: out_pad */
   int32_t stride[3]; /* per axis */
   int32_t dilation[3];
   enum tosa_ref_acc_type acc_type;
   bool local_bound;
   enum tosa_ref_dot_mode mode;
   bool level_none;
   int64_t in_sp[3], k_sp[3], out_sp[3]; /* spatial sizes */
   int64_t ic, m, oc, bc; /* input channels, DEPTHWISE multiplier, output channels, BC */
   int64_t ks;            /* taps per output */
};

/* The operand shapes into f (ranks checked), and the ERROR_IFs of the .tosac in its order. */
static int
fam_check(struct fam *f, const struct ref_conv_row *row, const struct ref_tensor *in,
          const struct ref_tensor *w, const struct ref_tensor *b, const struct ref_tensor *izp,
          const struct ref_tensor *wzp, const struct ref_tensor *out)
{
   uint32_t rank = (uint32_t)f->axes + 2;
   if (in->rank != rank || w->rank != rank || b->rank != 1 || out->rank != rank)
      return ref_status(TOSA_REF_ERROR, "%s: ranks must be input %u, weight %u, bias 1, output %u",
                        f->name, rank, rank, rank);
   if (izp->rank != 1 || izp->shape[0] != 1 || wzp->rank != 1 || wzp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "%s: zero points must have shape [1]", f->name);
   for (int a = 0; a < f->axes; a++) {
      f->in_sp[a] = in->shape[1 + a];
      f->out_sp[a] = out->shape[1 + a];
      /* DEPTHWISE [KH,KW,C,M]; the others [OC,K...,IC] */
      f->k_sp[a] = f->op == FAM_DEPTHWISE ? w->shape[a] : w->shape[1 + a];
   }
   f->ic = in->shape[rank - 1];
   f->bc = b->shape[0];
   if (f->op == FAM_DEPTHWISE) {
      f->m = w->shape[3];
      f->oc = w->shape[2] * w->shape[3];
      f->ks = f->k_sp[0] * f->k_sp[1];
      if (w->shape[2] != f->ic)
         return ref_status(TOSA_REF_ERROR, "%s: weight C %lld != input C %lld", f->name,
                           (long long)w->shape[2], (long long)f->ic);
   } else {
      f->m = 1;
      f->oc = w->shape[0];
      f->ks = f->ic;
      for (int a = 0; a < f->axes; a++)
         f->ks *= f->k_sp[a];
      if (w->shape[rank - 1] != f->ic)
         return ref_status(TOSA_REF_ERROR, "%s: weight IC %lld != input IC %lld", f->name,
                           (long long)w->shape[rank - 1], (long long)f->ic);
   }
   if (out->shape[0] != in->shape[0] || out->shape[rank - 1] != f->oc)
      return ref_status(TOSA_REF_ERROR, "%s: output [N,...,OC] must be [%lld,...,%lld]", f->name,
                        (long long)in->shape[0], (long long)f->oc);

   if (row->in != REF_DTYPE_I8 && ref_zp_nonzero(izp))
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(!is_same<in_t,i8_t>() && input_zp != 0)",
                        f->name);
   if (row->weight != REF_DTYPE_I8 && ref_zp_nonzero(wzp))
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(!is_same<weight_t,i8_t>() && weight_zp != 0)",
                        f->name);
   if (f->op == FAM_TRANSPOSE) {
      /* ERROR_IF(out_pad_top <= -KH || out_pad_bottom <= -KH), then left/right against KW */
      for (int i = 0; i < 4; i++) {
         if (f->pad[i] <= -f->k_sp[i / 2])
            return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(out_pad[%d] %d <= -K %lld)", f->name, i,
                              f->pad[i], (long long)f->k_sp[i / 2]);
      }
   } else {
      for (int i = 0; i < 2 * f->axes; i++) {
         if (f->pad[i] < 0)
            return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(pad[%d] < 0): %d", f->name, i,
                              f->pad[i]);
      }
   }
   for (int a = 0; a < f->axes; a++) {
      if (f->stride[a] < 1)
         return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(stride[%d] < 1): %d", f->name, a,
                           f->stride[a]);
   }
   if (f->op != FAM_TRANSPOSE) {
      for (int a = 0; a < f->axes; a++) {
         if (f->dilation[a] < 1)
            return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(dilation[%d] < 1): %d", f->name, a,
                              f->dilation[a]);
      }
   }
   for (int a = 0; a < f->axes; a++) {
      int64_t want;
      if (f->op == FAM_TRANSPOSE) {
         /* OH = (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH */
         want = (f->in_sp[a] - 1) * f->stride[a] + f->pad[2 * a] + f->pad[2 * a + 1] + f->k_sp[a];
      } else {
         /* OH = idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y, stride_y) + 1 */
         int64_t num = f->in_sp[a] - 1 + f->pad[2 * a] + f->pad[2 * a + 1] -
                       (f->k_sp[a] - 1) * f->dilation[a];
         if (num % f->stride[a] != 0)
            return ref_status(TOSA_REF_ERROR, "%s: idiv_check: ERROR_IF(%lld %% %d != 0) (axis %d)",
                              f->name, (long long)num, f->stride[a], a);
         want = num / f->stride[a] + 1;
      }
      if (f->out_sp[a] != want)
         return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(output size %lld != %lld) (axis %d)",
                           f->name, (long long)f->out_sp[a], (long long)want, a);
   }
   if (f->bc != f->oc && f->bc != 1)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(BC %lld != %lld && BC != 1)", f->name,
                        (long long)f->bc, (long long)f->oc);
   return TOSA_REF_OK;
}

/* The LEVEL_CHECKs of tosa.xml's argument table (level 8K unless level_none). */
static int
fam_level(const struct fam *f)
{
   int64_t max_kernel = f->level_none ? REF_LEVEL_NONE_MAX_KERNEL : REF_LEVEL_8K_MAX_KERNEL;
   int64_t max_stride = f->level_none ? REF_LEVEL_NONE_MAX_STRIDE : REF_LEVEL_8K_MAX_STRIDE;
   for (int a = 0; a < f->axes; a++) {
      /* TRANSPOSE_CONV2D: KH, KW <= MAX_KERNEL; the others dilation * K */
      int64_t k = f->op == FAM_TRANSPOSE ? f->k_sp[a] : f->dilation[a] * f->k_sp[a];
      if (k > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(kernel %lld <= %lld)", f->name,
                           (long long)k, (long long)max_kernel);
      if (f->stride[a] > max_stride)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(stride %d <= %lld)", f->name,
                           f->stride[a], (long long)max_stride);
   }
   for (int i = 0; i < 2 * f->axes; i++) {
      if (f->pad[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(pad %d <= %lld)", f->name,
                           f->pad[i], (long long)max_kernel);
   }
   return TOSA_REF_OK;
}

/* One output element: its batch, spatial coordinates and channel. */
struct fam_point {
   int64_t n, o[3], oc, c; /* c: DEPTHWISE's input channel oc / M */
};

static struct fam_point
fam_point(const struct fam *f, const struct ref_tensor *out, int64_t offset)
{
   int64_t index[REF_MAX_RANK];
   ref_tensor_index(out, offset, index);
   struct fam_point p = {.n = index[0], .oc = index[f->axes + 1]};
   p.c = p.oc / f->m;
   for (int a = 0; a < f->axes; a++)
      p.o[a] = index[1 + a];
   return p;
}

/*
 * The taps of one output in the pseudocode's loop order: DEPTHWISE (ky, kx); the others
 * (k..., ic) with ic fastest. The counters step with fam_next() (no divisions: the references
 * of the bench graphs visit a billion taps).
 */
struct fam_tap_iter {
   int64_t k, ic, kc[3];
};

static void
fam_next(const struct fam *f, struct fam_tap_iter *it)
{
   it->k++;
   if (f->op != FAM_DEPTHWISE && ++it->ic < f->ic)
      return;
   it->ic = 0;
   for (int a = f->axes - 1; a >= 0; a--) {
      if (++it->kc[a] < f->k_sp[a])
         return;
      it->kc[a] = 0;
   }
}

/* Tap it of output p: the weight's offset into *w_at (always); returns the input's offset, or
 * -1 where the pseudocode's value is 0. */
static int64_t
fam_tap(const struct fam *f, const struct fam_point *p, const struct fam_tap_iter *it,
        int64_t *w_at)
{
   /* the weight: DEPTHWISE [KH,KW,C,M] at [ky,kx,c,m] = k * C * M + oc; else [OC,K...,IC] */
   *w_at = f->op == FAM_DEPTHWISE ? it->k * f->oc + p->oc : p->oc * f->ks + it->k;
   int64_t at = p->n;
   for (int a = 0; a < f->axes; a++) {
      int64_t c;
      if (f->op == FAM_TRANSPOSE) {
         /* y = oy - out_pad_top - ky; read at y / stride_y where 0 <= y < IH * stride_y and
          * y % stride_y == 0 */
         int64_t y = p->o[a] - f->pad[2 * a] - it->kc[a];
         if (y < 0 || y >= f->in_sp[a] * f->stride[a] || y % f->stride[a] != 0)
            return -1;
         c = y / f->stride[a];
      } else {
         c = p->o[a] * f->stride[a] - f->pad[2 * a] + it->kc[a] * f->dilation[a];
         if (c < 0 || c >= f->in_sp[a])
            return -1;
      }
      at = at * f->in_sp[a] + c;
   }
   /* DEPTHWISE reads channel c of oc = c * M + m */
   return at * f->ic + (f->op == FAM_DEPTHWISE ? p->c : it->ic);
}

static bool
fam_int(const struct fam *f, const struct ref_conv_row *row, const struct ref_tensor *in,
        const struct ref_tensor *w, const struct ref_tensor *b, int64_t izp, int64_t wzp,
        struct ref_tensor *out)
{
   unsigned acc_bits = row->acc == TOSA_REF_ACC_INT48 ? 48 : 32;
   bool ok = true;
   for (int64_t o = 0; o < out->count; o++) {
      struct fam_point p = fam_point(f, out, o);
      int64_t acc = 0;
      for (struct fam_tap_iter it = {0}; it.k < f->ks; fam_next(f, &it)) {
         int64_t w_at, at = fam_tap(f, &p, &it, &w_at);
         if (at < 0)
            continue; /* value 0: nothing added to an integer sum */
         int64_t value = ref_sub_s(ref_tensor_get_int(in, at), izp, acc_bits, &ok);
         int64_t weight_el = ref_sub_s(ref_tensor_get_int(w, w_at), wzp, acc_bits, &ok);
         /* apply_mul_s<acc_t>: static_cast of the int64 product (no REQUIRE) */
         acc = ref_add_s(acc, ref_wrap_signed(value * weight_el, acc_bits), acc_bits, &ok);
      }
      int64_t bias = ref_tensor_get_int(b, f->bc == 1 ? 0 : p.oc);
      ref_tensor_set_int(out, o, ref_add_s(acc, bias, acc_bits, &ok));
   }
   return ok;
}

/* max(|v|, normal_min) with apply_max_s's NaN propagation. */
static double
bound_abs(double v, double normal_min)
{
   if (isnan(v))
      return NAN;
   return fabs(v) > normal_min ? fabs(v) : normal_min;
}

/* The float rows; false when out of memory (the operands are read once into fp64). */
static bool
fam_float(const struct fam *f, const struct ref_conv_row *row, const struct ref_tensor *in,
          const struct ref_tensor *w, const struct ref_tensor *b, struct ref_tensor *out)
{
   bool bound = f->mode == TOSA_REF_DOT_BOUND;
   double nmin = ref_dtype_normal_min(row->in);
   double input_max = nmin;
   double *x = malloc((size_t)in->count * sizeof(double));
   double *wx = malloc((size_t)w->count * sizeof(double));
   if (!x || !wx) {
      free(x);
      free(wx);
      return false;
   }
   for (int64_t i = 0; i < in->count; i++) {
      x[i] = ref_tensor_get_fp(in, i);
      if (bound && !f->local_bound) /* input_abs_max = max_value(input_abs), NaN propagating */
         input_max = ref_fmax_nan(input_max, bound_abs(x[i], nmin), TOSA_REF_NAN_PROPAGATE);
   }
   for (int64_t i = 0; i < w->count; i++) {
      wx[i] = ref_tensor_get_fp(w, i);
      if (bound)
         wx[i] = bound_abs(wx[i], nmin);
   }
   for (int64_t o = 0; o < out->count; o++) {
      struct fam_point p = fam_point(f, out, o);
      double acc = 0.0;
      for (struct fam_tap_iter it = {0}; it.k < f->ks; fam_next(f, &it)) {
         int64_t w_at, at = fam_tap(f, &p, &it, &w_at);
         /* tosa_extra_multiplies: false for the result, true for the bound */
         if (at < 0 && !bound)
            continue;
         double value = 0.0;
         if (at >= 0) {
            value = x[at];
            if (bound)
               value = f->local_bound ? bound_abs(value, nmin) : input_max;
         }
         acc = acc + value * wx[w_at];
      }
      double bias = ref_tensor_get_fp(b, f->bc == 1 ? 0 : p.oc);
      if (bound)
         bias = bound_abs(bias, nmin);
      ref_tensor_set_fp(out, o, acc + bias);
   }
   free(x);
   free(wx);
   return true;
}

static int
fam_eval(struct fam *f, const struct ref_tensor *input, const struct ref_tensor *weight,
         const struct ref_tensor *bias, const struct ref_tensor *input_zp,
         const struct ref_tensor *weight_zp, struct ref_tensor *output)
{
   f->name = fam_names[f->op];
   if (!ref_tensor_valid(input) || !ref_tensor_valid(weight) || !ref_tensor_valid(bias) ||
       !ref_tensor_valid(input_zp) || !ref_tensor_valid(weight_zp) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid argument", f->name);
   const struct ref_conv_row *row =
       ref_conv_find_row(input, weight, bias, input_zp, weight_zp, output, f->acc_type);
   if (!row)
      return ref_status(TOSA_REF_UNSUPPORTED,
                        "%s: no type-support row for input %s, weight %s, bias %s, zero points "
                        "%s/%s, output %s, acc_type %d",
                        f->name, ref_dtype_name(input->dtype), ref_dtype_name(weight->dtype),
                        ref_dtype_name(bias->dtype), ref_dtype_name(input_zp->dtype),
                        ref_dtype_name(weight_zp->dtype), ref_dtype_name(output->dtype),
                        (int)f->acc_type);
   if (f->mode != TOSA_REF_DOT_RESULT &&
       (f->mode != TOSA_REF_DOT_BOUND || output->dtype != REF_DTYPE_FP64))
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "%s: TOSA_REF_DOT_BOUND needs a float row and an FP64 output", f->name);
   int st = fam_check(f, row, input, weight, bias, input_zp, weight_zp, output);
   if (st != TOSA_REF_OK)
      return st;
   st = fam_level(f);
   if (ref_dtype_is_float(row->in)) {
      if (!fam_float(f, row, input, weight, bias, output))
         return ref_status(TOSA_REF_NO_MEMORY, "%s: out of memory", f->name);
   } else if (!fam_int(f, row, input, weight, bias, ref_tensor_get_int(input_zp, 0),
                       ref_tensor_get_int(weight_zp, 0), output)) {
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "%s: REQUIRE: accumulator or bias addition left the %s range", f->name,
                        ref_dtype_name(row->out));
   }
   return st;
}

int
tosa_ref_depthwise_conv2d(const struct tosa_ref_conv2d_args *args, const struct ref_tensor *input,
                          const struct ref_tensor *weight, const struct ref_tensor *bias,
                          const struct ref_tensor *input_zp, const struct ref_tensor *weight_zp,
                          struct ref_tensor *output)
{
   if (!args)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "DEPTHWISE_CONV2D: NULL arguments");
   struct fam f = {
       .op = FAM_DEPTHWISE,
       .axes = 2,
       .pad = {args->pad[0], args->pad[1], args->pad[2], args->pad[3]},
       .stride = {args->stride[0], args->stride[1], 1},
       .dilation = {args->dilation[0], args->dilation[1], 1},
       .acc_type = args->acc_type,
       .local_bound = args->local_bound,
       .mode = args->mode,
       .level_none = args->level_none,
   };
   return fam_eval(&f, input, weight, bias, input_zp, weight_zp, output);
}

int
tosa_ref_transpose_conv2d(const struct tosa_ref_transpose_conv2d_args *args,
                          const struct ref_tensor *input, const struct ref_tensor *weight,
                          const struct ref_tensor *bias, const struct ref_tensor *input_zp,
                          const struct ref_tensor *weight_zp, struct ref_tensor *output)
{
   if (!args)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "TRANSPOSE_CONV2D: NULL arguments");
   struct fam f = {
       .op = FAM_TRANSPOSE,
       .axes = 2,
       .pad = {args->out_pad[0], args->out_pad[1], args->out_pad[2], args->out_pad[3]},
       .stride = {args->stride[0], args->stride[1], 1},
       .dilation = {1, 1, 1},
       .acc_type = args->acc_type,
       .local_bound = args->local_bound,
       .mode = args->mode,
       .level_none = args->level_none,
   };
   return fam_eval(&f, input, weight, bias, input_zp, weight_zp, output);
}

int
tosa_ref_conv3d(const struct tosa_ref_conv3d_args *args, const struct ref_tensor *input,
                const struct ref_tensor *weight, const struct ref_tensor *bias,
                const struct ref_tensor *input_zp, const struct ref_tensor *weight_zp,
                struct ref_tensor *output)
{
   if (!args)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "CONV3D: NULL arguments");
   struct fam f = {
       .op = FAM_CONV3D,
       .axes = 3,
       .acc_type = args->acc_type,
       .local_bound = args->local_bound,
       .mode = args->mode,
       .level_none = args->level_none,
   };
   for (int i = 0; i < 6; i++)
      f.pad[i] = args->pad[i];
   for (int i = 0; i < 3; i++) {
      f.stride[i] = args->stride[i];
      f.dilation[i] = args->dilation[i];
   }
   return fam_eval(&f, input, weight, bias, input_zp, weight_zp, output);
}
