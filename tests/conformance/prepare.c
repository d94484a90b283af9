/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * conf_prepare(): a case's input data, from its fill recipe and the case's random generator,
 * and the reference's verdict and result (tests/reference/tosa_ref.h) with the tolerance the
 * layers' result must meet. The reference sees exactly the operands the module holds: zero
 * points, shift and multiplier are made from the same bit patterns graph_text.c writes.
 *
 * Two graph-level rules have no place in the reference's API and are decided here: the RESHAPE
 * `shape` operand must be the output shape, and CLAMP's min_val and max_val must have the
 * input's element type (both are invalid graphs otherwise: TOSA_REF_ERROR / _UNSUPPORTED).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

/* ---- input data --------------------------------------------------------------------------- */

#define MAX_SPECIALS 16

/* Special float values of a type, as bit patterns. */
static uint32_t
float_specials(enum ref_dtype dt, uint64_t *out)
{
   uint32_t mbits = (uint32_t)ref_dtype_normal_frac(dt);
   uint32_t width = (uint32_t)ref_dtype_size(dt) * 8;
   uint64_t sign = UINT64_C(1) << (width - 1);
   const double values[] = {NAN,
                            INFINITY,
                            -INFINITY,
                            0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            ref_dtype_normal_max(dt),
                            -ref_dtype_normal_max(dt),
                            ref_dtype_normal_min(dt),
                            -ref_dtype_normal_min(dt)};
   uint32_t n = 0;
   for (uint32_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
      out[n++] = ref_fp_encode(dt, values[i], false);
   out[n++] = 1;                                  /* smallest subnormal */
   out[n++] = sign | 1;                           /* its negative */
   out[n++] = (UINT64_C(1) << mbits) - 1;         /* largest subnormal */
   out[n++] = ref_fp_encode(dt, -NAN, false) | 1; /* a negative NaN with another payload */
   return n;
}

static void
int_limits(enum ref_dtype dt, const struct conf_range *r, int64_t *lo, int64_t *hi)
{
   unsigned bits = ref_dtype_int_bits(dt);
   if (dt == REF_DTYPE_BOOL) {
      *lo = 0;
      *hi = 1;
   } else if (r->is_unsigned && bits < 32) {
      *lo = 0;
      *hi = (INT64_C(1) << bits) - 1;
   } else {
      *lo = -(INT64_C(1) << (bits - 1));
      *hi = (INT64_C(1) << (bits - 1)) - 1;
   }
   if (r->lo != 0 || r->hi != 0) {
      *lo = r->lo > *lo ? r->lo : *lo;
      *hi = r->hi < *hi ? r->hi : *hi;
   }
}

static uint32_t
int_specials(int64_t lo, int64_t hi, uint64_t *out)
{
   const int64_t values[] = {lo, hi, 0, 1, -1, lo + 1, hi - 1};
   uint32_t n = 0;
   for (uint32_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
      if (values[i] >= lo && values[i] <= hi)
         out[n++] = (uint64_t)values[i];
   }
   return n;
}

static void
fill_tensor(struct ref_tensor *t, enum conf_fill fill, const struct conf_range *r,
            struct conf_rng *rng)
{
   bool is_float = ref_dtype_is_float(t->dtype);
   uint64_t specials[MAX_SPECIALS];
   uint32_t nspecials;
   int64_t lo = 0, hi = 0;
   if (is_float) {
      nspecials = float_specials(t->dtype, specials);
   } else {
      int_limits(t->dtype, r, &lo, &hi);
      nspecials = int_specials(lo, hi, specials);
   }
   double fp = r->fp > 0 ? r->fp : 1.0;
   unsigned width = (unsigned)ref_dtype_size(t->dtype) * 8;
   uint64_t mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
   for (int64_t i = 0; i < t->count; i++) {
      if (fill == CONF_FILL_CROSS) {
         uint64_t bits = specials[i % nspecials];
         if (is_float)
            ref_tensor_set_bits(t, i, bits);
         else
            ref_tensor_set_int(t, i, (int64_t)bits);
      } else if (fill == CONF_FILL_BITS) {
         if (t->dtype == REF_DTYPE_BOOL)
            ref_tensor_set_int(t, i, (int64_t)(conf_rng_next(rng) & 1));
         else if (t->dtype == REF_DTYPE_I48)
            ref_tensor_set_int(t, i, conf_rng_int(rng, lo, hi));
         else
            ref_tensor_set_bits(t, i, conf_rng_next(rng) & mask);
      } else if (fill == CONF_FILL_SPECIALS && conf_rng_next(rng) % 6 == 0) {
         uint64_t bits = specials[conf_rng_next(rng) % nspecials];
         if (is_float)
            ref_tensor_set_bits(t, i, bits);
         else
            ref_tensor_set_int(t, i, (int64_t)bits);
      } else if (is_float) {
         ref_tensor_set_fp(t, i, conf_rng_double(rng, -fp, fp));
      } else {
         ref_tensor_set_int(t, i, conf_rng_int(rng, lo, hi));
      }
   }
}

/* ---- operands as reference tensors ------------------------------------------------------ */

static struct ref_tensor *
type_tensor(const struct gt_type *t)
{
   return ref_tensor_create(t->dtype, t->rank, t->shape);
}

static struct ref_tensor *
scalar_tensor(const struct gt_scalar *s)
{
   struct ref_tensor *t = ref_tensor_create_v(s->dtype, 1, INT64_C(1));
   if (t)
      ref_tensor_set_bits(t, 0, s->bits);
   return t;
}

static struct ref_tensor *
const_tensor(const struct gt_const *c)
{
   struct ref_tensor *t = ref_tensor_create_v(c->dtype, 1, (int64_t)c->count);
   for (uint32_t i = 0; t && i < c->count; i++)
      ref_tensor_set_bits(t, i, c->bits[i]);
   return t;
}

/* The element value of a scalar read as its type: integers sign-extended. */
static int64_t
scalar_int(const struct gt_scalar *s)
{
   unsigned bits = s->dtype == REF_DTYPE_I48 ? 64 : ref_dtype_int_bits(s->dtype);
   if (bits >= 64)
      return (int64_t)s->bits;
   uint64_t sign = UINT64_C(1) << (bits - 1);
   uint64_t v = s->bits & ((sign << 1) - 1);
   return (int64_t)((v ^ sign) - sign);
}

static double
scalar_fp(const struct gt_scalar *s)
{
   return ref_fp_decode(s->dtype, (uint32_t)s->bits);
}

static void
set_status(struct conf_inst *inst, int status)
{
   inst->status = status;
   if (status != TOSA_REF_OK)
      snprintf(inst->message, sizeof(inst->message), "%s", tosa_ref_last_message());
}

static void
set_status_message(struct conf_inst *inst, int status, const char *message)
{
   inst->status = status;
   snprintf(inst->message, sizeof(inst->message), "%s", message);
}

/* A tensor of the output's shape (FP64 for the unrounded result and the bound). */
static struct ref_tensor *
like_output(const struct conf_inst *inst, enum ref_dtype dtype)
{
   return ref_tensor_create(dtype, inst->output->rank, inst->output->shape);
}

/* Replaces inst->ref (of the output type) with an FP64 tensor for the checks that need the
 * unrounded fp64 result. */
static bool
ref_to_fp64(struct conf_inst *inst)
{
   struct ref_tensor *r = like_output(inst, REF_DTYPE_FP64);
   if (!r)
      return false;
   ref_tensor_destroy(inst->ref);
   inst->ref = r;
   return true;
}

/* ---- the reference, per operator ---------------------------------------------------------- */

static int
binary(enum tosa_ref_op op, const struct ref_tensor *a, const struct ref_tensor *b,
       const struct ref_tensor *shift, struct ref_tensor *out)
{
   return op == TOSA_REF_OP_ADD   ? tosa_ref_add(a, b, out)
          : op == TOSA_REF_OP_SUB ? tosa_ref_sub(a, b, out)
                                  : tosa_ref_mul(a, b, shift, out);
}

/* A copy of t with each subnormal value replaced by a zero of its sign; NULL into *out when t
 * holds none (or is not of a type TOSA lets an implementation flush). */
static bool
flushed_copy(const struct ref_tensor *t, struct ref_tensor **out)
{
   *out = NULL;
   if (!t || !ref_dtype_may_flush(t->dtype))
      return true;
   const double normal_min = ref_dtype_normal_min(t->dtype);
   struct ref_tensor *f = NULL;
   for (int64_t i = 0; i < t->count; i++) {
      double v = ref_tensor_get_fp(t, i);
      if (v == 0.0 || !(fabs(v) < normal_min))
         continue;
      if (!f) {
         if (!(f = ref_tensor_create(t->dtype, t->rank, t->shape)))
            return false;
         memcpy(f->data, t->data, (size_t)t->count * ref_dtype_size(t->dtype));
      }
      ref_tensor_set_fp(f, i, signbit(v) ? -0.0 : 0.0);
   }
   *out = f;
   return true;
}

/* The FP64 reference again with every subnormal input flushed (inst->ref_ftz), when any input
 * holds one. */
static bool
ref_binary_ftz(const struct conf_case *c, struct conf_inst *inst, const struct ref_tensor *shift)
{
   struct ref_tensor *fa = NULL, *fb = NULL;
   bool ok = flushed_copy(inst->inputs[0], &fa) && flushed_copy(inst->inputs[1], &fb);
   if (ok && (fa || fb)) {
      ok = (inst->ref_ftz = like_output(inst, REF_DTYPE_FP64)) != NULL;
      if (ok && binary(c->op.op, fa ? fa : inst->inputs[0], fb ? fb : inst->inputs[1], shift,
                       inst->ref_ftz) != TOSA_REF_OK) {
         ref_tensor_destroy(inst->ref_ftz);
         inst->ref_ftz = NULL;
      }
   }
   ref_tensor_destroy(fa);
   ref_tensor_destroy(fb);
   return ok;
}

static bool
ref_binary(const struct conf_case *c, struct conf_inst *inst)
{
   struct ref_tensor *shift = NULL;
   if (c->op.op == TOSA_REF_OP_MUL && !(shift = scalar_tensor(&c->op.attr.mul.shift)))
      return false;
   bool ok = true;
   set_status(inst, binary(c->op.op, inst->inputs[0], inst->inputs[1], shift, inst->ref));
   /* TOSA_REF_TOL_ULP checks against the unrounded fp64 result. */
   if (inst->status == TOSA_REF_OK && ref_dtype_is_float(inst->ref->dtype) &&
       (ok = ref_to_fp64(inst)))
      set_status(inst, binary(c->op.op, inst->inputs[0], inst->inputs[1], shift, inst->ref));
   if (ok && inst->status == TOSA_REF_OK && inst->ref->dtype == REF_DTYPE_FP64)
      ok = ref_binary_ftz(c, inst, shift);
   ref_tensor_destroy(shift);
   return ok;
}

static void
ref_clamp(const struct conf_case *c, struct conf_inst *inst)
{
   const struct gt_scalar *min = &c->op.attr.clamp.min_val, *max = &c->op.attr.clamp.max_val;
   enum ref_dtype dt = inst->inputs[0]->dtype;
   if (min->dtype != dt || max->dtype != dt) {
      set_status_message(inst, TOSA_REF_UNSUPPORTED,
                         "CLAMP: min_val/max_val are not of the input's element type");
      return;
   }
   struct tosa_ref_clamp_args args = {.nan_mode = c->op.attr.clamp.nan_mode};
   if (ref_dtype_is_float(dt)) {
      args.min_fp = scalar_fp(min);
      args.max_fp = scalar_fp(max);
   } else {
      args.min_int = scalar_int(min);
      args.max_int = scalar_int(max);
   }
   set_status(inst, tosa_ref_clamp(&args, inst->inputs[0], inst->ref));
}

static void
ref_reshape(const struct conf_case *c, struct conf_inst *inst)
{
   const struct gt_type *out = &c->op.output;
   bool same = c->op.attr.reshape.shape_count == out->rank;
   for (uint32_t i = 0; same && i < out->rank; i++)
      same = c->op.attr.reshape.shape[i] == out->shape[i];
   if (!same) {
      set_status_message(inst, TOSA_REF_ERROR,
                         "RESHAPE: the shape operand is not the output shape");
      return;
   }
   set_status(inst, tosa_ref_reshape(inst->inputs[0], inst->ref));
}

static void
ref_concat(const struct conf_case *c, struct conf_inst *inst)
{
   struct tosa_ref_concat_args args = {.axis = (int32_t)c->op.attr.concat.axis};
   const struct ref_tensor *ins[GT_MAX_INPUTS];
   for (uint32_t i = 0; i < c->op.input_count; i++)
      ins[i] = inst->inputs[i];
   set_status(inst, tosa_ref_concat(&args, ins, c->op.input_count, inst->ref));
}

static void
ref_max_pool2d(const struct conf_case *c, struct conf_inst *inst)
{
   struct tosa_ref_max_pool2d_args args = {.nan_mode = c->op.attr.max_pool2d.nan_mode};
   memcpy(args.kernel, c->op.attr.max_pool2d.kernel, sizeof(args.kernel));
   memcpy(args.stride, c->op.attr.max_pool2d.stride, sizeof(args.stride));
   memcpy(args.pad, c->op.attr.max_pool2d.pad, sizeof(args.pad));
   set_status(inst, tosa_ref_max_pool2d(&args, inst->inputs[0], inst->ref));
}

static enum ref_dtype
acc_dtype(uint32_t acc)
{
   return acc == TOSA_REF_ACC_FP16    ? REF_DTYPE_FP16
          : acc == TOSA_REF_ACC_FP32  ? REF_DTYPE_FP32
          : acc == TOSA_REF_ACC_INT48 ? REF_DTYPE_I48
                                      : REF_DTYPE_I32;
}

static int
dot(const struct conf_case *c, struct conf_inst *inst, struct ref_tensor *z0, struct ref_tensor *z1,
    enum tosa_ref_dot_mode mode, struct ref_tensor *out)
{
   struct ref_tensor **in = inst->inputs;
   if (c->op.op == TOSA_REF_OP_MATMUL) {
      struct tosa_ref_matmul_args args = {.mode = mode};
      return tosa_ref_matmul(&args, in[0], in[1], z0, z1, out);
   }
   struct tosa_ref_conv2d_args args = {.acc_type = c->op.attr.conv2d.acc_type,
                                       .local_bound = c->op.attr.conv2d.local_bound,
                                       .mode = mode};
   memcpy(args.pad, c->op.attr.conv2d.pad, sizeof(args.pad));
   memcpy(args.stride, c->op.attr.conv2d.stride, sizeof(args.stride));
   memcpy(args.dilation, c->op.attr.conv2d.dilation, sizeof(args.dilation));
   return tosa_ref_conv2d(&args, in[0], in[1], in[2], z0, z1, out);
}

/* CONV2D and MATMUL: the result, and for float rows the fp64 result and the bound. */
static bool
ref_dot(const struct conf_case *c, struct conf_inst *inst)
{
   bool conv = c->op.op == TOSA_REF_OP_CONV2D;
   struct ref_tensor *z0 =
       scalar_tensor(conv ? &c->op.attr.conv2d.input_zp : &c->op.attr.matmul.a_zp);
   struct ref_tensor *z1 =
       scalar_tensor(conv ? &c->op.attr.conv2d.weight_zp : &c->op.attr.matmul.b_zp);
   bool ok = z0 && z1;
   if (ok)
      set_status(inst, dot(c, inst, z0, z1, TOSA_REF_DOT_RESULT, inst->ref));
   if (ok && inst->status == TOSA_REF_OK && ref_dtype_is_float(inst->ref->dtype)) {
      ok = ref_to_fp64(inst) && (inst->bnd = like_output(inst, REF_DTYPE_FP64));
      if (ok)
         set_status(inst, dot(c, inst, z0, z1, TOSA_REF_DOT_RESULT, inst->ref));
      if (ok && inst->status == TOSA_REF_OK)
         set_status(inst, dot(c, inst, z0, z1, TOSA_REF_DOT_BOUND, inst->bnd));
      const struct ref_tensor *w = inst->inputs[1];
      inst->dot = (struct tosa_ref_dot_check){
          .out_type = inst->output->dtype,
          .acc_type = conv ? acc_dtype(c->op.attr.conv2d.acc_type) : inst->output->dtype,
          .ks = conv ? w->shape[1] * w->shape[2] * w->shape[3] : inst->inputs[0]->shape[2],
          .has_bias = true,
          .test_set = -1,
      };
   }
   ref_tensor_destroy(z0);
   ref_tensor_destroy(z1);
   return ok;
}

static bool
ref_rescale(struct conf_inst *inst)
{
   const struct gt_op *op = &inst->op;
   struct tosa_ref_rescale_args args = {
       .scale32 = op->attr.rescale.scale32,
       .rounding_mode = op->attr.rescale.rounding_mode,
       .per_channel = op->attr.rescale.per_channel,
       .input_unsigned = op->attr.rescale.input_unsigned,
       .output_unsigned = op->attr.rescale.output_unsigned,
   };
   struct ref_tensor *m = const_tensor(&op->attr.rescale.multiplier);
   struct ref_tensor *s = const_tensor(&op->attr.rescale.shift);
   struct ref_tensor *izp = scalar_tensor(&op->attr.rescale.input_zp);
   struct ref_tensor *ozp = scalar_tensor(&op->attr.rescale.output_zp);
   const struct ref_tensor *in = inst->inputs[0];
   bool ok = m && s && izp && ozp;
   if (ok)
      set_status(inst, tosa_ref_rescale(&args, in, m, s, izp, ozp, inst->ref));
   if (ok && inst->status == TOSA_REF_OK && args.rounding_mode == TOSA_REF_ROUND_INEXACT) {
      ok = (inst->lo = ref_tensor_create(REF_DTYPE_I32, in->rank, in->shape)) &&
           (inst->hi = ref_tensor_create(REF_DTYPE_I32, in->rank, in->shape));
      if (ok)
         set_status(inst,
                    tosa_ref_rescale_inexact_range(&args, in, m, s, izp, ozp, inst->lo, inst->hi));
   }
   ref_tensor_destroy(m);
   ref_tensor_destroy(s);
   ref_tensor_destroy(izp);
   ref_tensor_destroy(ozp);
   return ok;
}

/* ---- conf_prepare ----------------------------------------------------------------------- */

void
conf_case_op(const struct conf_case *c, struct gt_op *op)
{
   *op = c->op;
   if (c->op.op == TOSA_REF_OP_RESCALE) {
      op->attr.rescale.multiplier.bits = c->multiplier;
      op->attr.rescale.shift.bits = c->shift;
   }
}

bool
conf_prepare(const struct conf_case *c, struct conf_rng *rng, struct conf_inst *inst)
{
   memset(inst, 0, sizeof(*inst));
   conf_case_op(c, &inst->op);
   for (uint32_t i = 0; i < c->op.input_count; i++) {
      uint32_t alias = c->op.inputs[i].alias;
      if (alias && alias <= i) {
         /* The same value as an earlier operand: the reference sees the same data. */
         const struct ref_tensor *src = inst->inputs[alias - 1];
         inst->op.inputs[i] = inst->op.inputs[alias - 1];
         inst->op.inputs[i].alias = alias;
         if (!(inst->inputs[i] = ref_tensor_create(src->dtype, src->rank, src->shape)))
            return false;
         memcpy(inst->inputs[i]->data, src->data, (size_t)src->count * ref_dtype_size(src->dtype));
         continue;
      }
      if (!(inst->inputs[i] = type_tensor(&c->op.inputs[i].type)))
         return false;
      fill_tensor(inst->inputs[i], c->fill, &c->range[i], rng);
   }
   if (!(inst->output = type_tensor(&c->op.output)) || !(inst->ref = type_tensor(&c->op.output)))
      return false;

   bool ok = true;
   switch (c->op.op) {
   case TOSA_REF_OP_ADD:
   case TOSA_REF_OP_SUB:
   case TOSA_REF_OP_MUL:
      ok = ref_binary(c, inst);
      break;
   case TOSA_REF_OP_CLAMP:
      ref_clamp(c, inst);
      break;
   case TOSA_REF_OP_RESHAPE:
      ref_reshape(c, inst);
      break;
   case TOSA_REF_OP_CONCAT:
      ref_concat(c, inst);
      break;
   case TOSA_REF_OP_MAX_POOL2D:
      ref_max_pool2d(c, inst);
      break;
   case TOSA_REF_OP_CONV2D:
   case TOSA_REF_OP_MATMUL:
      ok = ref_dot(c, inst);
      break;
   case TOSA_REF_OP_RESCALE:
      ok = ref_rescale(inst);
      break;
   default:
      set_status_message(inst, TOSA_REF_BAD_ARGUMENT, "no reference for this operator");
      break;
   }
   enum tosa_ref_rounding rounding = c->op.op == TOSA_REF_OP_RESCALE
                                         ? (enum tosa_ref_rounding)c->op.attr.rescale.rounding_mode
                                         : TOSA_REF_ROUND_SINGLE;
   inst->tol = tosa_ref_tolerance(c->op.op, c->op.output.dtype, rounding);
   return ok;
}

void
conf_inst_finish(struct conf_inst *inst)
{
   for (uint32_t i = 0; i < GT_MAX_INPUTS; i++)
      ref_tensor_destroy(inst->inputs[i]);
   ref_tensor_destroy(inst->output);
   ref_tensor_destroy(inst->ref);
   ref_tensor_destroy(inst->ref_ftz);
   ref_tensor_destroy(inst->bnd);
   ref_tensor_destroy(inst->lo);
   ref_tensor_destroy(inst->hi);
   memset(inst, 0, sizeof(*inst));
}
