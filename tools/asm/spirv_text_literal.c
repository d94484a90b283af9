/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Shared by the assembler and the disassembler: the per-id facts both track
 * (scalar types, result types, imported sets), the encoding and formatting of
 * context-dependent literals (integers of any width up to 64; fp16, bf16,
 * fp32, fp64, fp8 E4M3/E5M2), and the growable buffers.
 *
 * Floats are printed in the shortest decimal form that encodes back to the
 * same bits. Infinities and NaNs use the SPIRV-Tools hex-float convention: a
 * normalized hex float whose exponent is one past the format's largest, e.g.
 * 0x1p+128 (fp32 +inf) or -0x1.8p+128 (an fp32 quiet NaN), which keeps NaN
 * payloads exact.
 */
#include "spirv_text_private.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv/spirv_arm_ml.h"

/* ---- per-id facts ------------------------------------------------------------ */

bool
text_ids_init(struct text_ids *t, uint32_t cap)
{
   memset(t, 0, sizeof(*t));
   t->cap = cap;
   t->set = calloc(cap ? cap : 1, sizeof(*t->set));
   t->types = calloc(cap ? cap : 1, sizeof(*t->types));
   t->value_type = calloc(cap ? cap : 1, sizeof(*t->value_type));
   if (!t->set || !t->types || !t->value_type) {
      text_ids_finish(t);
      return false;
   }
   return true;
}

void
text_ids_finish(struct text_ids *t)
{
   free(t->set);
   free(t->types);
   free(t->value_type);
   memset(t, 0, sizeof(*t));
}

enum text_set
text_set_from_name(const char *name)
{
   if (strcmp(name, "GLSL.std.450") == 0)
      return TEXT_SET_GLSL;
   switch (spirv_ext_inst_set_from_name(name)) {
   case SPIRV_EXT_INST_SET_TOSA_001000_1:
      return TEXT_SET_TOSA;
   case SPIRV_EXT_INST_SET_MOTION_ENGINE_100:
      return TEXT_SET_ME;
   case SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1:
      return TEXT_SET_DEBUG;
   case SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER:
      return TEXT_SET_NONSEMANTIC;
   default:
      return TEXT_SET_OTHER;
   }
}

void
text_ids_track(struct text_ids *t, const uint32_t *w)
{
   uint32_t opcode = w[0] & 0xffffu, wc = w[0] >> 16;

   switch (opcode) {
   case 21: /* OpTypeInt <Result> Width Signedness */
      if (wc >= 4 && w[1] < t->cap) {
         t->types[w[1]] = (struct num_type){.cls = NUM_INT, .width = w[2], .is_signed = w[3] != 0};
      }
      return;
   case 22: /* OpTypeFloat <Result> Width [FPEncoding] */
      if (wc >= 3 && w[1] < t->cap) {
         t->types[w[1]] = (struct num_type){.cls = NUM_FLOAT,
                                            .width = w[2],
                                            .has_encoding = wc >= 4,
                                            .encoding = wc >= 4 ? w[3] : 0};
      }
      return;
   case 11: /* OpExtInstImport <Result> Name */
      if (wc >= 3 && w[1] < t->cap) {
         const char *name = (const char *)(w + 2);
         if (memchr(name, '\0', (size_t)(wc - 2) * 4))
            t->set[w[1]] = (uint8_t)text_set_from_name(name);
      }
      return;
   default:
      break;
   }

   const struct spirv_inst_desc *desc = spirv_grammar_inst(opcode);
   if (desc && desc->operand_count >= 2 && wc >= 3 &&
       desc->operands[0].kind == SPIRV_KIND_IdResultType &&
       desc->operands[1].kind == SPIRV_KIND_IdResult && w[2] < t->cap)
      t->value_type[w[2]] = w[1];
}

const struct num_type *
text_ids_num_type(const struct text_ids *t, uint32_t type)
{
   if (type == 0 || type >= t->cap || t->types[type].cls == NUM_NONE)
      return NULL;
   return &t->types[type];
}

const struct num_type *
text_ids_value_num_type(const struct text_ids *t, uint32_t id)
{
   if (id == 0 || id >= t->cap)
      return NULL;
   return text_ids_num_type(t, t->value_type[id]);
}

/* ---- floating point formats ---------------------------------------------------- */

struct fp_format {
   unsigned ebits, mbits;
   bool ieee; /* false: E4M3, which has no infinities and one NaN mantissa */
};

static bool
fp_format_of(const struct num_type *t, struct fp_format *f)
{
   if (t->cls != NUM_FLOAT)
      return false;
   if (!t->has_encoding) {
      switch (t->width) {
      case 16:
         *f = (struct fp_format){5, 10, true};
         return true;
      case 32:
         *f = (struct fp_format){8, 23, true};
         return true;
      case 64:
         *f = (struct fp_format){11, 52, true};
         return true;
      default:
         return false;
      }
   }
   if (t->encoding == SPV_ARM_FP_ENCODING_BFLOAT16_KHR && t->width == 16)
      *f = (struct fp_format){8, 7, true};
   else if (t->encoding == SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT && t->width == 8)
      *f = (struct fp_format){4, 3, false};
   else if (t->encoding == SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT && t->width == 8)
      *f = (struct fp_format){5, 2, true};
   else
      return false;
   return true;
}

uint32_t
num_type_words(const struct num_type *type)
{
   struct fp_format f;
   switch (type->cls) {
   case NUM_INT:
      if (type->width >= 1 && type->width <= 32)
         return 1;
      return type->width > 32 && type->width <= 64 ? 2 : 0;
   case NUM_FLOAT:
      if (!fp_format_of(type, &f))
         return 0;
      return type->width == 64 ? 2 : 1;
   default:
      return 0;
   }
}

static uint64_t
mask64(unsigned bits)
{
   return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static bool
fp_is_special(uint64_t bits, const struct fp_format *f)
{
   uint64_t emask = mask64(f->ebits), mmask = mask64(f->mbits);
   uint64_t exp = (bits >> f->mbits) & emask, mant = bits & mmask;
   return exp == emask && (f->ieee || mant == mmask);
}

static double
fp_decode(uint64_t bits, const struct fp_format *f)
{
   int bias = (1 << (f->ebits - 1)) - 1;
   uint64_t exp = (bits >> f->mbits) & mask64(f->ebits);
   uint64_t mant = bits & mask64(f->mbits);
   double v =
       exp == 0 ? ldexp((double)mant, 1 - bias - (int)f->mbits)
                : ldexp((double)(mant | UINT64_C(1) << f->mbits), (int)exp - bias - (int)f->mbits);
   return (bits >> (f->ebits + f->mbits)) & 1 ? -v : v;
}

/* Round-to-nearest-even encoding of v into a format narrower than fp32
 * (fp16, bf16, fp8). Returns false when a finite v overflows. */
static bool
fp_encode_narrow(double v, const struct fp_format *f, uint64_t *out)
{
   uint64_t sign = signbit(v) ? UINT64_C(1) << (f->ebits + f->mbits) : 0;
   uint64_t emask = mask64(f->ebits), mmask = mask64(f->mbits);
   int bias = (1 << (f->ebits - 1)) - 1;

   if (isnan(v)) {
      *out = sign | emask << f->mbits | (f->ieee ? UINT64_C(1) << (f->mbits - 1) : mmask);
      return true;
   }
   v = fabs(v);
   if (isinf(v)) {
      *out = sign | emask << f->mbits;
      return f->ieee;
   }
   if (v == 0) {
      *out = sign;
      return true;
   }

   int e;
   frexp(v, &e);
   int unbiased = e - 1;
   uint64_t field, q;
   if (unbiased < 1 - bias) {
      /* Subnormal: v = q * 2^(1 - bias - mbits). */
      field = 0;
      q = (uint64_t)nearbyint(ldexp(v, (int)f->mbits - (1 - bias)));
      if (q > mmask) {
         field = 1;
         q -= mmask + 1;
      }
   } else {
      field = (uint64_t)(unbiased + bias);
      q = (uint64_t)nearbyint(ldexp(v, (int)f->mbits - unbiased));
      if (q >> (f->mbits + 1)) {
         q >>= 1;
         field++;
      }
      q -= mmask + 1;
   }
   uint64_t max_field = f->ieee ? emask - 1 : emask;
   uint64_t max_mant_at_max = f->ieee ? mmask : mmask - 1;
   if (field > max_field || (field == max_field && q > max_mant_at_max))
      return false;
   *out = sign | field << f->mbits | q;
   return true;
}

/* The special form [-]0x1[.hhh]p+E with E one past the largest exponent: the
 * all-ones exponent field with the given mantissa (infinity or NaN). Returns
 * false if tok is not in that form. */
static bool
fp_parse_special(const char *tok, const struct fp_format *f, uint64_t *out)
{
   const char *s = tok;
   uint64_t sign = 0;
   if (*s == '-' || *s == '+')
      sign = *s++ == '-' ? UINT64_C(1) << (f->ebits + f->mbits) : 0;
   if (strncmp(s, "0x1", 3) != 0 && strncmp(s, "0X1", 3) != 0)
      return false;
   s += 3;
   uint64_t mant = 0;
   unsigned digits = 0;
   if (*s == '.') {
      for (s++; isxdigit((unsigned char)*s); s++) {
         if (++digits > 16)
            return false;
         char c = (char)tolower((unsigned char)*s);
         mant = mant << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
      }
   }
   if (*s != 'p' && *s != 'P')
      return false;
   s++;
   if (*s == '+')
      s++;
   char *end;
   long exp = strtol(s, &end, 10);
   if (end == s || *end != '\0' || exp != (1L << (f->ebits - 1)))
      return false;
   unsigned bits = digits * 4;
   if (bits > f->mbits) {
      if (mant & mask64(bits - f->mbits))
         return false;
      mant >>= bits - f->mbits;
   } else {
      mant <<= f->mbits - bits;
   }
   *out = sign | mask64(f->ebits) << f->mbits | mant;
   return true;
}

static const char *
fp_encode(const struct fp_format *f, const char *tok, uint64_t *out)
{
   if (fp_parse_special(tok, f, out))
      return NULL;
   char *end;
   errno = 0;
   if (f->ebits == 8 && f->mbits == 23) {
      float v = strtof(tok, &end);
      if (end == tok || *end != '\0')
         return "expected a floating-point literal";
      if (errno == ERANGE && isinf(v))
         return "out of range for a 32-bit float";
      uint32_t bits;
      memcpy(&bits, &v, sizeof(bits));
      *out = bits;
      return NULL;
   }
   double v = strtod(tok, &end);
   if (end == tok || *end != '\0')
      return "expected a floating-point literal";
   if (errno == ERANGE && isinf(v))
      return "out of range for the float type";
   if (f->ebits == 11) {
      memcpy(out, &v, sizeof(*out));
      return NULL;
   }
   if (!fp_encode_narrow(v, f, out))
      return "out of range for the float type";
   return NULL;
}

static void
fp_format_special(uint64_t bits, const struct fp_format *f, char *buf, size_t size)
{
   bool neg = (bits >> (f->ebits + f->mbits)) & 1;
   uint64_t mant = bits & mask64(f->mbits);
   int exp = 1 << (f->ebits - 1);
   if (!mant) {
      snprintf(buf, size, "%s0x1p+%d", neg ? "-" : "", exp);
      return;
   }
   unsigned digits = (f->mbits + 3) / 4;
   mant <<= digits * 4 - f->mbits;
   while ((mant & 0xf) == 0) {
      mant >>= 4;
      digits--;
   }
   snprintf(buf, size, "%s0x1.%0*llxp+%d", neg ? "-" : "", (int)digits, (unsigned long long)mant,
            exp);
}

/* ---- integers ------------------------------------------------------------------ */

/* [+-]? (0x hex+ | dec+) into a sign and a 64-bit magnitude. */
static bool
parse_int(const char *tok, size_t len, bool *neg, uint64_t *mag, bool *hex)
{
   size_t i = 0;
   *neg = false;
   if (i < len && (tok[i] == '-' || tok[i] == '+'))
      *neg = tok[i++] == '-';
   *hex = len - i > 2 && tok[i] == '0' && (tok[i + 1] == 'x' || tok[i + 1] == 'X');
   if (*hex)
      i += 2;
   if (i >= len)
      return false;
   uint64_t v = 0;
   unsigned base = *hex ? 16 : 10;
   for (; i < len; i++) {
      int c = tolower((unsigned char)tok[i]);
      unsigned d;
      if (c >= '0' && c <= '9')
         d = (unsigned)(c - '0');
      else if (*hex && c >= 'a' && c <= 'f')
         d = (unsigned)(c - 'a' + 10);
      else
         return false;
      if (v > (UINT64_MAX - d) / base)
         return false;
      v = v * base + d;
   }
   *mag = v;
   return true;
}

bool
parse_u32_literal(const char *tok, size_t len, uint32_t *value)
{
   bool neg, hex;
   uint64_t mag;
   if (!parse_int(tok, len, &neg, &mag, &hex))
      return false;
   if (neg ? mag > UINT64_C(0x80000000) : mag > UINT32_MAX)
      return false;
   *value = neg ? (uint32_t)(0u - (uint32_t)mag) : (uint32_t)mag;
   return true;
}

static const char *
int_encode(const struct num_type *t, const char *tok, size_t len, uint32_t *out)
{
   bool neg, hex;
   uint64_t mag, bits;
   unsigned w = t->width;
   if (!parse_int(tok, len, &neg, &mag, &hex))
      return "expected an integer literal";
   if (hex && !neg) {
      /* A bit pattern of the type's width. */
      if (mag > mask64(w))
         return "hex literal wider than the integer type";
      bits = mag;
      if (t->is_signed && w < 64 && (bits >> (w - 1)) & 1)
         bits |= ~mask64(w);
   } else if (t->is_signed) {
      uint64_t limit = UINT64_C(1) << (w - 1); /* |min|; max is limit - 1 */
      if (neg ? mag > limit : mag >= limit)
         return "out of range for the signed integer type";
      bits = neg ? 0 - mag : mag;
   } else {
      if (neg && mag != 0)
         return "negative literal for an unsigned integer type";
      if (mag > mask64(w))
         return "out of range for the unsigned integer type";
      bits = mag;
   }
   out[0] = (uint32_t)bits;
   if (w > 32)
      out[1] = (uint32_t)(bits >> 32);
   return NULL;
}

static bool
int_format(const struct num_type *t, const uint32_t *w, char *buf, size_t size)
{
   unsigned width = t->width;
   uint64_t bits = width > 32 ? (uint64_t)w[1] << 32 | w[0] : w[0];
   unsigned storage = width > 32 ? 64 : 32;
   uint64_t value_bits = bits & mask64(width);
   uint64_t expect = value_bits;
   if (t->is_signed && width < 64 && (value_bits >> (width - 1)) & 1)
      expect |= ~mask64(width);
   if ((bits & mask64(storage)) != (expect & mask64(storage)))
      return false; /* high bits not the canonical extension */
   if (t->is_signed)
      snprintf(buf, size, "%lld", (long long)(int64_t)expect);
   else
      snprintf(buf, size, "%llu", (unsigned long long)value_bits);
   return true;
}

/* ---- context-dependent literals -------------------------------------------------- */

const char *
num_encode(const struct num_type *type, const char *tok, size_t len, uint32_t *out)
{
   if (num_type_words(type) == 0)
      return "the literal's type is not a supported scalar type";
   if (type->cls == NUM_INT)
      return int_encode(type, tok, len, out);

   char buf[128];
   if (len >= sizeof(buf))
      return "floating-point literal too long";
   memcpy(buf, tok, len);
   buf[len] = '\0';
   struct fp_format f;
   fp_format_of(type, &f);
   uint64_t bits;
   const char *msg = fp_encode(&f, buf, &bits);
   if (msg)
      return msg;
   out[0] = (uint32_t)bits;
   if (type->width == 64)
      out[1] = (uint32_t)(bits >> 32);
   return NULL;
}

bool
num_format(const struct num_type *type, const uint32_t *w, char *buf, size_t size)
{
   uint32_t nwords = num_type_words(type);
   if (nwords == 0)
      return false;
   if (type->cls == NUM_INT)
      return int_format(type, w, buf, size);

   struct fp_format f;
   fp_format_of(type, &f);
   unsigned bits_total = 1 + f.ebits + f.mbits;
   uint64_t bits = nwords == 2 ? (uint64_t)w[1] << 32 | w[0] : w[0];
   if (bits_total < 64 && bits >> bits_total)
      return false; /* non-zero high-order bits */
   if (fp_is_special(bits, &f)) {
      fp_format_special(bits, &f, buf, size);
      return true;
   }
   double v = fp_decode(bits, &f);
   for (int precision = 1; precision <= 17; precision++) {
      snprintf(buf, size, "%.*g", precision, v);
      uint32_t back[2] = {0, 0};
      if (!num_encode(type, buf, strlen(buf), back) && back[0] == w[0] &&
          (nwords == 1 || back[1] == w[1]))
         return true;
   }
   return false;
}

/* ---- buffers ----------------------------------------------------------------------- */

void
word_buf_push(struct word_buf *b, uint32_t word)
{
   if (b->oom)
      return;
   if (b->count == b->capacity) {
      size_t cap = b->capacity ? b->capacity * 2 : 256;
      uint32_t *data = realloc(b->data, cap * sizeof(*data));
      if (!data) {
         b->oom = true;
         return;
      }
      b->data = data;
      b->capacity = cap;
   }
   b->data[b->count++] = word;
}

void
char_buf_append(struct char_buf *b, const char *s, size_t len)
{
   if (b->oom)
      return;
   if (b->len + len + 1 > b->capacity) {
      size_t cap = b->capacity ? b->capacity : 4096;
      while (b->len + len + 1 > cap)
         cap *= 2;
      char *data = realloc(b->data, cap);
      if (!data) {
         b->oom = true;
         return;
      }
      b->data = data;
      b->capacity = cap;
   }
   memcpy(b->data + b->len, s, len);
   b->len += len;
   b->data[b->len] = '\0';
}

void
char_buf_printf(struct char_buf *b, const char *fmt, ...)
{
   char small[256];
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(small, sizeof(small), fmt, ap);
   va_end(ap);
   if (n < 0) {
      b->oom = true;
      return;
   }
   if ((size_t)n < sizeof(small)) {
      char_buf_append(b, small, (size_t)n);
      return;
   }
   char *big = malloc((size_t)n + 1);
   if (!big) {
      b->oom = true;
      return;
   }
   va_start(ap, fmt);
   vsnprintf(big, (size_t)n + 1, fmt, ap);
   va_end(ap);
   char_buf_append(b, big, (size_t)n);
   free(big);
}
