/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Element types, tensors and number conversions of the TOSA reference: struct ref_tensor (packed
 * as TOSA 1.0.1 pseudocode/library/tensor_utils.tosac lays tensors out), element access, the
 * float encodings (IEEE binary16/binary32, bfloat16, OCP OFP8 E4M3/E5M2; TOSA 1.0.1
 * introduction.adoc "Supported Number Formats") with one generic round-to-nearest-even encoder,
 * normal_min/normal_max/normal_frac of numeric_accuracy_helpers.tosac, the status message, and
 * the integer helpers of arithmetic_helpers.tosac shared by the operator files.
 */
#include "ref_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
 * Status
 */

static _Thread_local char last_message[512];

int
ref_status(int status, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(last_message, sizeof(last_message), fmt, ap);
   va_end(ap);
   return status;
}

const char *
tosa_ref_last_message(void)
{
   return last_message;
}

const char *
tosa_ref_status_name(int status)
{
   switch (status) {
   case TOSA_REF_OK:
      return "OK";
   case TOSA_REF_UNPREDICTABLE:
      return "UNPREDICTABLE";
   case TOSA_REF_ERROR:
      return "ERROR";
   case TOSA_REF_UNSUPPORTED:
      return "UNSUPPORTED";
   case TOSA_REF_BAD_ARGUMENT:
      return "BAD_ARGUMENT";
   case TOSA_REF_NO_MEMORY:
      return "NO_MEMORY";
   default:
      return "?";
   }
}

/* ---------------------------------------------------------------------------------------------
 * Element types
 */

size_t
ref_dtype_size(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_BOOL:
   case REF_DTYPE_I8:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
      return 1;
   case REF_DTYPE_I16:
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
      return 2;
   case REF_DTYPE_I32:
   case REF_DTYPE_FP32:
      return 4;
   case REF_DTYPE_I48:
   case REF_DTYPE_FP64:
      return 8;
   default:
      return 0;
   }
}

const char *
ref_dtype_name(enum ref_dtype dtype)
{
   static const char *const names[REF_DTYPE_COUNT] = {
       [REF_DTYPE_BOOL] = "bool",       [REF_DTYPE_I8] = "i8",     [REF_DTYPE_I16] = "i16",
       [REF_DTYPE_I32] = "i32",         [REF_DTYPE_I48] = "i48",   [REF_DTYPE_FP16] = "fp16",
       [REF_DTYPE_BF16] = "bf16",       [REF_DTYPE_FP32] = "fp32", [REF_DTYPE_FP8E4M3] = "fp8e4m3",
       [REF_DTYPE_FP8E5M2] = "fp8e5m2", [REF_DTYPE_FP64] = "fp64",
   };
   if ((unsigned)dtype >= REF_DTYPE_COUNT)
      return "?";
   return names[dtype];
}

bool
ref_dtype_is_float(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP32:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
   case REF_DTYPE_FP64:
      return true;
   default:
      return false;
   }
}

unsigned
ref_dtype_int_bits(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_BOOL:
      return 1;
   case REF_DTYPE_I8:
      return 8;
   case REF_DTYPE_I16:
      return 16;
   case REF_DTYPE_I32:
      return 32;
   case REF_DTYPE_I48:
      return 48;
   default:
      return 0;
   }
}

/* ---------------------------------------------------------------------------------------------
 * Integer helpers (arithmetic_helpers.tosac)
 */

int64_t
ref_int_min(unsigned bits)
{
   return -((int64_t)1 << (bits - 1));
}

int64_t
ref_int_max(unsigned bits)
{
   return ((int64_t)1 << (bits - 1)) - 1;
}

int64_t
ref_wrap_signed(int64_t v, unsigned bits)
{
   if (bits >= 64)
      return v;
   uint64_t mask = ((uint64_t)1 << bits) - 1;
   uint64_t sign = (uint64_t)1 << (bits - 1);
   uint64_t u = ((uint64_t)v & mask) ^ sign;
   /* (u - sign) computed in signed arithmetic: u and sign are both < 2^63. */
   return (int64_t)u - (int64_t)sign;
}

int64_t
ref_asr(int64_t v, unsigned s)
{
   if (v >= 0)
      return v >> s;
   /* floor(v / 2^s) = -(floor((-v - 1) / 2^s)) - 1 = ~((~v) >> s), with ~v = -v - 1 >= 0. */
   return ~((~v) >> s);
}

int64_t
ref_add_s(int64_t a, int64_t b, unsigned bits, bool *require_ok)
{
   /* a and b are values of a type of at most 48 bits, so the int64 sum is exact. */
   int64_t c = a + b;
   if (c < ref_int_min(bits) || c > ref_int_max(bits)) {
      *require_ok = false;
      c = ref_wrap_signed(c, bits);
   }
   return c;
}

int64_t
ref_sub_s(int64_t a, int64_t b, unsigned bits, bool *require_ok)
{
   int64_t c = a - b;
   if (c < ref_int_min(bits) || c > ref_int_max(bits)) {
      *require_ok = false;
      c = ref_wrap_signed(c, bits);
   }
   return c;
}

double
ref_fmax_nan(double a, double b, enum tosa_ref_nan_mode mode)
{
   /* apply_max_s: compare_nan() when either is NaN, else (a >= b) ? a : b. */
   if (isnan(a) || isnan(b)) {
      if (mode == TOSA_REF_NAN_PROPAGATE)
         return NAN;
      return isnan(a) ? b : a;
   }
   return a >= b ? a : b;
}

double
ref_fmin_nan(double a, double b, enum tosa_ref_nan_mode mode)
{
   if (isnan(a) || isnan(b)) {
      if (mode == TOSA_REF_NAN_PROPAGATE)
         return NAN;
      return isnan(a) ? b : a;
   }
   return a < b ? a : b;
}

/* ---------------------------------------------------------------------------------------------
 * Float formats
 */

struct fp_format {
   unsigned exp_bits;
   unsigned man_bits;
   int bias;
   /* true: IEEE-style, the all-ones exponent holds inf (mantissa 0) and NaN. false: OCP E4M3,
    * no infinity, the all-ones exponent is a normal binade except S.1111.111 (NaN). */
   bool ieee_special;
};

static const struct fp_format *
fp_format_of(enum ref_dtype dtype)
{
   static const struct fp_format fp32 = {8, 23, 127, true};
   static const struct fp_format fp16 = {5, 10, 15, true};
   static const struct fp_format bf16 = {8, 7, 127, true};
   static const struct fp_format e4m3 = {4, 3, 7, false};
   static const struct fp_format e5m2 = {5, 2, 15, true};
   switch (dtype) {
   case REF_DTYPE_FP32:
      return &fp32;
   case REF_DTYPE_FP16:
      return &fp16;
   case REF_DTYPE_BF16:
      return &bf16;
   case REF_DTYPE_FP8E4M3:
      return &e4m3;
   case REF_DTYPE_FP8E5M2:
      return &e5m2;
   default:
      return NULL;
   }
}

static uint32_t
fp_max_finite_bits(const struct fp_format *f)
{
   uint32_t man_mask = (1u << f->man_bits) - 1;
   uint32_t exp_max = (1u << f->exp_bits) - 1;
   if (f->ieee_special)
      return ((exp_max - 1) << f->man_bits) | man_mask;
   return (exp_max << f->man_bits) | (man_mask - 1);
}

static uint32_t
fp_nan_bits(const struct fp_format *f)
{
   uint32_t exp_max = (1u << f->exp_bits) - 1;
   if (f->ieee_special)
      return (exp_max << f->man_bits) | (1u << (f->man_bits - 1)); /* quiet NaN */
   return (exp_max << f->man_bits) | ((1u << f->man_bits) - 1);
}

static uint32_t
fp_encode(const struct fp_format *f, double v, bool saturate)
{
   uint32_t sign = signbit(v) ? 1u << (f->exp_bits + f->man_bits) : 0;
   uint32_t exp_max = (1u << f->exp_bits) - 1;
   uint32_t max_finite = fp_max_finite_bits(f);
   uint32_t overflow;

   if (f->ieee_special)
      overflow = saturate ? max_finite : exp_max << f->man_bits; /* inf */
   else
      overflow = saturate ? max_finite : fp_nan_bits(f);

   if (isnan(v))
      return sign | fp_nan_bits(f);
   double a = fabs(v);
   if (isinf(a))
      return sign | overflow;
   if (a == 0.0)
      return sign;

   /* a = m * 2^e with 0.5 <= m < 1, so a = 1.f * 2^(e - 1). */
   int e;
   frexp(a, &e);
   int exponent = e - 1;
   int emin = 1 - f->bias;
   if (exponent < emin)
      exponent = emin; /* subnormal in the target: quantum 2^(emin - man_bits) */

   /* q = a / quantum < 2^(man_bits + 1), exact in a double; round it to an integer, ties to
    * even. */
   double q = ldexp(a, (int)f->man_bits - exponent);
   double n = floor(q);
   double frac = q - n;
   if (frac > 0.5 || (frac == 0.5 && fmod(n, 2.0) != 0.0))
      n += 1.0;
   if (n == 0.0)
      return sign;

   /* Normal: bits = ((exponent + bias) << man) | (n - 2^man) = ((exponent - emin) << man) + n.
    * Subnormal (exponent == emin, n < 2^man): bits = n. A carry out of the mantissa moves into
    * the exponent field by itself. */
   uint64_t bits = ((uint64_t)(exponent - emin) << f->man_bits) + (uint64_t)n;
   if (bits > max_finite)
      return sign | overflow;
   return sign | (uint32_t)bits;
}

static double
fp_decode(const struct fp_format *f, uint32_t bits)
{
   uint32_t man_mask = (1u << f->man_bits) - 1;
   uint32_t exp_max = (1u << f->exp_bits) - 1;
   bool negative = (bits >> (f->exp_bits + f->man_bits)) & 1;
   uint32_t exp = (bits >> f->man_bits) & exp_max;
   uint32_t man = bits & man_mask;
   int emin = 1 - f->bias;
   double value;

   if (f->ieee_special && exp == exp_max)
      value = man == 0 ? INFINITY : NAN;
   else if (!f->ieee_special && exp == exp_max && man == man_mask)
      value = NAN;
   else if (exp == 0)
      value = ldexp((double)man, emin - (int)f->man_bits);
   else
      value = ldexp((double)(man | (1u << f->man_bits)), (int)exp - f->bias - (int)f->man_bits);
   return negative ? -value : value;
}

uint32_t
ref_fp_encode(enum ref_dtype dtype, double v, bool saturate)
{
   const struct fp_format *f = fp_format_of(dtype);
   return f ? fp_encode(f, v, saturate) : 0;
}

double
ref_fp_decode(enum ref_dtype dtype, uint32_t bits)
{
   const struct fp_format *f = fp_format_of(dtype);
   return f ? fp_decode(f, bits) : NAN;
}

static float
bits_to_f32(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, sizeof(f));
   return f;
}

float
ref_fp16_to_fp32(uint16_t bits)
{
   return (float)ref_fp_decode(REF_DTYPE_FP16, bits);
}

uint16_t
ref_fp32_to_fp16(float value)
{
   return (uint16_t)ref_fp_encode(REF_DTYPE_FP16, value, false);
}

float
ref_bf16_to_fp32(uint16_t bits)
{
   return bits_to_f32((uint32_t)bits << 16);
}

uint16_t
ref_fp32_to_bf16(float value)
{
   return (uint16_t)ref_fp_encode(REF_DTYPE_BF16, value, false);
}

float
ref_fp8e4m3_to_fp32(uint8_t bits)
{
   return (float)ref_fp_decode(REF_DTYPE_FP8E4M3, bits);
}

uint8_t
ref_fp32_to_fp8e4m3(float value, bool saturate)
{
   return (uint8_t)ref_fp_encode(REF_DTYPE_FP8E4M3, value, saturate);
}

float
ref_fp8e5m2_to_fp32(uint8_t bits)
{
   return (float)ref_fp_decode(REF_DTYPE_FP8E5M2, bits);
}

uint8_t
ref_fp32_to_fp8e5m2(float value, bool saturate)
{
   return (uint8_t)ref_fp_encode(REF_DTYPE_FP8E5M2, value, saturate);
}

bool
ref_fp_representable(enum ref_dtype dtype, double v)
{
   if (dtype == REF_DTYPE_FP64)
      return true;
   if (!fp_format_of(dtype))
      return false;
   if (isnan(v))
      return true;
   return ref_fp_decode(dtype, ref_fp_encode(dtype, v, false)) == v;
}

bool
ref_dtype_may_flush(enum ref_dtype dtype)
{
   return dtype == REF_DTYPE_BF16 || dtype == REF_DTYPE_FP16 || dtype == REF_DTYPE_FP32;
}

double
ref_dtype_normal_min(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_FP32:
   case REF_DTYPE_BF16:
      return ldexp(1.0, -126);
   case REF_DTYPE_FP16:
   case REF_DTYPE_FP8E5M2:
      return ldexp(1.0, -14);
   case REF_DTYPE_FP8E4M3:
      return ldexp(1.0, -6);
   case REF_DTYPE_FP64:
      return ldexp(1.0, -1022);
   default:
      return 0.0;
   }
}

double
ref_dtype_normal_max(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_FP32:
      return ldexp(1.0, 128) - ldexp(1.0, 127 - 23);
   case REF_DTYPE_BF16:
      return ldexp(1.0, 128) - ldexp(1.0, 127 - 7);
   case REF_DTYPE_FP16:
      return ldexp(1.0, 16) - ldexp(1.0, 15 - 10);
   case REF_DTYPE_FP8E4M3:
      return ldexp(1.0, 9) - ldexp(1.0, 8 - 2);
   case REF_DTYPE_FP8E5M2:
      return ldexp(1.0, 16) - ldexp(1.0, 15 - 2);
   case REF_DTYPE_FP64:
      return 1.7976931348623157e308;
   default:
      return 0.0;
   }
}

int
ref_dtype_normal_frac(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_FP32:
      return 23;
   case REF_DTYPE_BF16:
      return 7;
   case REF_DTYPE_FP16:
      return 10;
   case REF_DTYPE_FP8E4M3:
      return 3;
   case REF_DTYPE_FP8E5M2:
      return 2;
   case REF_DTYPE_FP64:
      return 52;
   default:
      return 0;
   }
}

/* ---------------------------------------------------------------------------------------------
 * Tensors
 */

struct ref_tensor *
ref_tensor_create(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   if ((unsigned)dtype >= REF_DTYPE_COUNT || rank > REF_MAX_RANK || (rank > 0 && !shape))
      return NULL;
   size_t elem = ref_dtype_size(dtype);
   /* The largest element count whose byte size fits both size_t and int64_t. (SIZE_MAX / elem
    * does not fit int64_t when elem is 1, so it is clamped first.) */
   uint64_t limit = SIZE_MAX / elem;
   if (limit > (uint64_t)INT64_MAX)
      limit = (uint64_t)INT64_MAX;
   int64_t count = 1;
   for (uint32_t i = 0; i < rank; i++) {
      if (shape[i] < 1 || (uint64_t)shape[i] > limit / (uint64_t)count)
         return NULL;
      count *= shape[i];
   }

   struct ref_tensor *t = calloc(1, sizeof(*t));
   if (!t)
      return NULL;
   t->data = calloc((size_t)count, elem);
   if (!t->data) {
      free(t);
      return NULL;
   }
   t->dtype = dtype;
   t->rank = rank;
   for (uint32_t i = 0; i < REF_MAX_RANK; i++)
      t->shape[i] = i < rank ? shape[i] : 1;
   t->count = count;
   return t;
}

struct ref_tensor *
ref_tensor_create_v(enum ref_dtype dtype, uint32_t rank, ...)
{
   int64_t shape[REF_MAX_RANK] = {0};
   if (rank > REF_MAX_RANK)
      return NULL;
   va_list ap;
   va_start(ap, rank);
   for (uint32_t i = 0; i < rank; i++)
      shape[i] = va_arg(ap, int64_t);
   va_end(ap);
   return ref_tensor_create(dtype, rank, shape);
}

void
ref_tensor_destroy(struct ref_tensor *t)
{
   if (!t)
      return;
   free(t->data);
   free(t);
}

void
ref_tensor_zero(struct ref_tensor *t)
{
   memset(t->data, 0, (size_t)t->count * ref_dtype_size(t->dtype));
}

bool
ref_tensor_valid(const struct ref_tensor *t)
{
   return t && t->data && t->rank <= REF_MAX_RANK && (unsigned)t->dtype < REF_DTYPE_COUNT &&
          t->count >= 1;
}

bool
ref_same_shape(const struct ref_tensor *a, const struct ref_tensor *b)
{
   if (a->rank != b->rank)
      return false;
   for (uint32_t i = 0; i < a->rank; i++) {
      if (a->shape[i] != b->shape[i])
         return false;
   }
   return true;
}

const char *
ref_shape_str(const struct ref_tensor *t, char *buf, size_t size)
{
   size_t n = (size_t)snprintf(buf, size, "[");
   for (uint32_t i = 0; i < t->rank && n < size; i++)
      n += (size_t)snprintf(buf + n, size - n, i ? ",%lld" : "%lld", (long long)t->shape[i]);
   if (n < size)
      snprintf(buf + n, size - n, "]");
   return buf;
}

int64_t
ref_tensor_offset(const struct ref_tensor *t, const int64_t *index)
{
   /* tensor_index_to_offset: offset = offset * shape[i] + index[i]. */
   int64_t offset = 0;
   for (uint32_t i = 0; i < t->rank; i++) {
      if (index[i] < 0 || index[i] >= t->shape[i])
         return -1;
      offset = offset * t->shape[i] + index[i];
   }
   return offset;
}

void
ref_tensor_index(const struct ref_tensor *t, int64_t offset, int64_t *index)
{
   /* tensor_offset_to_index */
   for (int32_t i = (int32_t)t->rank - 1; i >= 0; i--) {
      index[i] = offset % t->shape[i];
      offset /= t->shape[i];
   }
}

uint64_t
ref_tensor_get_bits(const struct ref_tensor *t, int64_t offset)
{
   const unsigned char *p = (const unsigned char *)t->data + offset * ref_dtype_size(t->dtype);
   switch (ref_dtype_size(t->dtype)) {
   case 1:
      return *p;
   case 2: {
      uint16_t v;
      memcpy(&v, p, sizeof(v));
      return v;
   }
   case 4: {
      uint32_t v;
      memcpy(&v, p, sizeof(v));
      return v;
   }
   default: {
      uint64_t v;
      memcpy(&v, p, sizeof(v));
      return v;
   }
   }
}

void
ref_tensor_set_bits(struct ref_tensor *t, int64_t offset, uint64_t bits)
{
   unsigned char *p = (unsigned char *)t->data + offset * ref_dtype_size(t->dtype);
   switch (ref_dtype_size(t->dtype)) {
   case 1: {
      uint8_t v = (uint8_t)bits;
      memcpy(p, &v, sizeof(v));
      break;
   }
   case 2: {
      uint16_t v = (uint16_t)bits;
      memcpy(p, &v, sizeof(v));
      break;
   }
   case 4: {
      uint32_t v = (uint32_t)bits;
      memcpy(p, &v, sizeof(v));
      break;
   }
   default:
      memcpy(p, &bits, sizeof(bits));
      break;
   }
}

int64_t
ref_tensor_get_int(const struct ref_tensor *t, int64_t offset)
{
   uint64_t bits = ref_tensor_get_bits(t, offset);
   if (t->dtype == REF_DTYPE_BOOL)
      return bits != 0;
   unsigned width = ref_dtype_int_bits(t->dtype);
   if (width == 0)
      return 0;
   return ref_wrap_signed((int64_t)bits, width);
}

void
ref_tensor_set_int(struct ref_tensor *t, int64_t offset, int64_t v)
{
   if (t->dtype == REF_DTYPE_BOOL) {
      ref_tensor_set_bits(t, offset, v != 0);
      return;
   }
   unsigned width = ref_dtype_int_bits(t->dtype);
   if (width == 0)
      return;
   /* I48 is stored sign-extended to 64 bits; narrower types keep their low bits. */
   ref_tensor_set_bits(t, offset, (uint64_t)ref_wrap_signed(v, width));
}

double
ref_tensor_get_fp(const struct ref_tensor *t, int64_t offset)
{
   uint64_t bits = ref_tensor_get_bits(t, offset);
   switch (t->dtype) {
   case REF_DTYPE_FP64: {
      double d;
      memcpy(&d, &bits, sizeof(d));
      return d;
   }
   case REF_DTYPE_FP32:
      return (double)bits_to_f32((uint32_t)bits);
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
      return ref_fp_decode(t->dtype, (uint32_t)bits);
   default:
      return NAN;
   }
}

void
ref_tensor_set_fp(struct ref_tensor *t, int64_t offset, double v)
{
   switch (t->dtype) {
   case REF_DTYPE_FP64: {
      uint64_t bits;
      memcpy(&bits, &v, sizeof(bits));
      ref_tensor_set_bits(t, offset, bits);
      break;
   }
   case REF_DTYPE_FP32:
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
      ref_tensor_set_bits(t, offset, ref_fp_encode(t->dtype, v, false));
      break;
   default:
      break;
   }
}

void
ref_tensor_fill_int(struct ref_tensor *t, const int64_t *values)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_int(t, i, values[i]);
}

void
ref_tensor_fill_fp(struct ref_tensor *t, const double *values)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_fp(t, i, values[i]);
}
