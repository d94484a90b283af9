/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A validated TOSA model (tosa_model.h) lowered to SPIR-V text (tosa_import.h). Every type and
 * scalar constant is defined once: definitions are memoized by their right-hand side. An
 * operator's operands follow a recipe (op_recipes[]) in TOSA.001000.1 order (spec-facts §3.2):
 * attributes from the operator's attribute table first, then its inputs, where zero points,
 * shifts, tables and multipliers must come from CONST and shape operands from CONST_SHAPE.
 * Constant tensors become OpConstantComposite trees (OpConstantNull when all zero).
 */
#include "tosa_import.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv/spirv_arm_ml.h"
#include "spirv_text.h"
#include "spirv_text_private.h"
#include "tosa_model.h"

/* ---- operator recipes ---------------------------------------------------------------------
 * Two characters per operand: a kind and a field (attributes) or input index.
 *   A  int32 attribute as a u32 scalar      B  bool attribute
 *   N  NanPropagationMode (1..2)             T  acc_type DType as acc_type_t (1..4)
 *   M  ResizeMode (1..2)                     R  RoundingMode (1..3)
 *   L  int32 list attribute as tensor<i32>[n]
 *   V  raw bytes of the input's element type (CLAMP min/max) as a scalar constant
 *   d  an input of any origin               c  an input that must be a CONST
 *   s  an input that must be a CONST_SHAPE  *  all inputs (CONCAT's list)
 */
struct op_recipe {
   const char *ops;
   const char *attrs[5]; /* attribute field names, by field index */
};

#define UNARY {"d0", {NULL}}
#define BINARY {"d0d1", {NULL}}
#define CONV {"L0L1L2T4B3d0d1d2c3c4", {"pad", "stride", "dilation", "local_bound", "acc_type"}}
#define REDUCE {"A0d0", {"axis"}}
#define REDUCE_NAN {"A0N1d0", {"axis", "nan_mode"}}

static const struct op_recipe op_recipes[TOSA_OP_RESCALE + 1] = {
   [1] = REDUCE_NAN, /* ARGMAX */
   [2] = {"L0L1L2T3d0c1c2", {"kernel", "stride", "pad", "acc_type"}},
   [3] = CONV, [4] = CONV, [5] = CONV,
   [6] = {"B0B1d0d1", {"inverse", "local_bound"}},
   [7] = {"d0d1c2c3", {NULL}}, /* MATMUL */
   [8] = {"L0L1L2N3d0", {"kernel", "stride", "pad", "nan_mode"}},
   [9] = {"B0d0", {"local_bound"}},
   [10] = {"L0L1T3B2d0d1d2c3c4", {"out_pad", "stride", "local_bound", "acc_type"}},
   [11] = {"V0V1N2d0", {"min_val", "max_val", "nan_mode"}},
   [12] = UNARY, [13] = UNARY, [14] = UNARY, [15] = BINARY,
   [16] = {"B0d0d1", {"round"}},
   [17] = BINARY, [18] = BINARY, [19] = BINARY, [20] = BINARY, [21] = BINARY, [22] = BINARY,
   [23] = BINARY, [24] = BINARY, [25] = BINARY,
   [26] = {"N0d0d1", {"nan_mode"}}, [27] = {"N0d0d1", {"nan_mode"}},
   [28] = {"d0d1c2", {NULL}}, /* MUL */
   [29] = BINARY, [30] = BINARY,
   [31] = {"d0c1", {NULL}}, /* TABLE */
   [32] = UNARY, [33] = UNARY, [34] = UNARY, [35] = UNARY, [36] = UNARY, [37] = UNARY,
   [38] = UNARY, [39] = UNARY, [40] = UNARY,
   [41] = {"d0c1c2", {NULL}}, /* NEGATE */
   [42] = UNARY, [43] = UNARY, [44] = UNARY,
   [45] = {"d0d1d2", {NULL}}, /* SELECT */
   [46] = BINARY, [47] = BINARY, [48] = BINARY,
   [49] = REDUCE, [50] = REDUCE, [51] = REDUCE_NAN, [52] = REDUCE_NAN, [53] = REDUCE,
   [54] = REDUCE,
   [55] = {"A0*0", {"axis"}}, /* CONCAT */
   [56] = {"d0s1c2", {NULL}}, /* PAD */
   [57] = {"d0s1", {NULL}},   /* RESHAPE */
   [58] = REDUCE,             /* REVERSE */
   [59] = {"d0s1s2", {NULL}}, /* SLICE */
   [60] = {"d0s1", {NULL}},   /* TILE */
   [61] = {"L0d0", {"perms"}},
   [62] = BINARY,             /* GATHER */
   [63] = {"d0d1d2", {NULL}}, /* SCATTER */
   [64] = {"M0d0s1s2s3", {"mode"}},
   [65] = UNARY, /* CAST */
   [66] = {"B0R1B2B3B4d0c1c2c3c4",
           {"scale32", "rounding_mode", "per_channel", "input_unsigned", "output_unsigned"}},
};

/* ---- memoized definitions ----------------------------------------------------------------- */

struct memo_entry {
   char *rhs;
   char *name;
};

struct lower {
   const struct tosa_model *m;
   struct char_buf names, decos, globals, body;
   struct memo_entry *memo; /* open addressing, memo_cap (a power of two) slots */
   uint32_t memo_cap, memo_count;
   uint32_t counter;
   bool used[TOSA_DT_COUNT];
   uint8_t *const_done; /* per tensor: its constant is defined */
   uint32_t *alias;     /* per tensor: the tensor whose value it is (IDENTITY) */
   uint64_t const_elements;
   bool failed;
   char err[320];
};

static bool
lfail(struct lower *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool
lfail(struct lower *L, const char *fmt, ...)
{
   if (L->failed)
      return false;
   L->failed = true;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(L->err, sizeof(L->err), fmt, ap);
   va_end(ap);
   return false;
}

static uint32_t
hash_str(const char *s)
{
   uint32_t h = 2166136261u;
   for (; *s; s++)
      h = (h ^ (uint8_t)*s) * 16777619u;
   return h;
}

static bool
memo_grow(struct lower *L)
{
   uint32_t cap = L->memo_cap ? L->memo_cap * 2 : 1024;
   struct memo_entry *e = calloc(cap, sizeof(*e));
   if (!e)
      return lfail(L, "out of memory");
   for (uint32_t i = 0; i < L->memo_cap; i++) {
      if (!L->memo[i].rhs)
         continue;
      uint32_t h = hash_str(L->memo[i].rhs) & (cap - 1);
      while (e[h].rhs)
         h = (h + 1) & (cap - 1);
      e[h] = L->memo[i];
   }
   free(L->memo);
   L->memo = e;
   L->memo_cap = cap;
   return true;
}

/* The name defined as `rhs` (defining it as `name`, or a numbered name from `hint` when name is
 * NULL); "" after a failure. */
static const char *
define(struct lower *L, const char *name, const char *hint, const char *rhs)
{
   if (L->failed)
      return "";
   if (L->memo_count * 2 >= L->memo_cap && !memo_grow(L))
      return "";
   uint32_t h = hash_str(rhs) & (L->memo_cap - 1);
   while (L->memo[h].rhs) {
      if (!strcmp(L->memo[h].rhs, rhs))
         return L->memo[h].name;
      h = (h + 1) & (L->memo_cap - 1);
   }
   char buf[160];
   if (name)
      snprintf(buf, sizeof(buf), "%s", name);
   else
      snprintf(buf, sizeof(buf), "%%%s%u", hint, L->counter++);
   char *r = strdup(rhs), *n = strdup(buf);
   if (!r || !n) {
      free(r);
      free(n);
      lfail(L, "out of memory");
      return "";
   }
   L->memo[h].rhs = r;
   L->memo[h].name = n;
   L->memo_count++;
   char_buf_printf(&L->globals, "%s = %s\n", n, r);
   return n;
}

static const char *
definef(struct lower *L, const char *name, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static const char *
definef(struct lower *L, const char *name, const char *hint, const char *fmt, ...)
{
   char rhs[4096];
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(rhs, sizeof(rhs), fmt, ap);
   va_end(ap);
   if (n < 0 || (size_t)n >= sizeof(rhs)) {
      lfail(L, "internal: a definition longer than %zu characters", sizeof(rhs));
      return "";
   }
   return define(L, name, hint, rhs);
}

/* ---- types and scalar constants ------------------------------------------------------------ */

static const struct {
   const char *name, *rhs;
} elem_types[TOSA_DT_COUNT] = {
   [TOSA_DT_BOOL] = {"%bool", "OpTypeBool"},
   [TOSA_DT_INT8] = {"%i8", "OpTypeInt 8 0"},
   [TOSA_DT_INT16] = {"%i16", "OpTypeInt 16 0"},
   [TOSA_DT_INT32] = {"%i32", "OpTypeInt 32 0"},
   [TOSA_DT_INT48] = {"%i64", "OpTypeInt 64 0"},
   [TOSA_DT_FP32] = {"%f32", "OpTypeFloat 32"},
   [TOSA_DT_FP16] = {"%f16", "OpTypeFloat 16"},
   [TOSA_DT_BF16] = {"%bf16", "OpTypeFloat 16 BFloat16KHR"},
   [TOSA_DT_SHAPE] = {"%i32", "OpTypeInt 32 0"},
   [TOSA_DT_FP8E4M3] = {"%e4m3", "OpTypeFloat 8 Float8E4M3EXT"},
   [TOSA_DT_FP8E5M2] = {"%e5m2", "OpTypeFloat 8 Float8E5M2EXT"},
};

static const char *
elem_type(struct lower *L, enum tosa_dtype dt)
{
   L->used[dt] = true;
   return define(L, elem_types[dt].name, NULL, elem_types[dt].rhs);
}

static const char *
u32_const(struct lower *L, uint32_t v)
{
   char name[24];
   snprintf(name, sizeof(name), "%%u%u", v);
   elem_type(L, TOSA_DT_INT32);
   return definef(L, name, NULL, "OpConstant %%i32 %u", v);
}

static const char *
bool_const(struct lower *L, bool v)
{
   elem_type(L, TOSA_DT_BOOL);
   return v ? define(L, "%true", NULL, "OpConstantTrue %bool")
            : define(L, "%false", NULL, "OpConstantFalse %bool");
}

static const char *
shape_str(uint32_t rank, const int64_t *dims, char *buf, size_t len)
{
   size_t n = 0;
   buf[0] = 0;
   for (uint32_t i = 0; i < rank && n < len; i++)
      n += (size_t)snprintf(buf + n, len - n, "%s%" PRId64, i ? "x" : "", dims[i]);
   return buf;
}

static const char *
tensor_type(struct lower *L, enum tosa_dtype dt, uint32_t rank, const int64_t *dims)
{
   char shape[96], name[160], dimname[16];
   if (L->failed)
      return ""; /* names below are built from earlier results, which are "" now */
   shape_str(rank, dims, shape, sizeof(shape));
   const char *elem = elem_type(L, dt);
   const char *r = u32_const(L, rank);
   snprintf(dimname, sizeof(dimname), "%%dim%u", rank);
   const char *arr = definef(L, dimname, NULL, "OpTypeArray %%i32 %s", r);
   char ids[7 * 24] = "";
   size_t n = 0;
   for (uint32_t i = 0; i < rank; i++) {
      const char *d = u32_const(L, (uint32_t)dims[i]);
      n += (size_t)snprintf(ids + n, sizeof(ids) - n, " %s", d);
   }
   snprintf(name, sizeof(name), "%%shape_%s", shape);
   const char *sh = definef(L, name, NULL, "OpConstantComposite %s%s", arr, ids);
   if (L->failed)
      return "";
   snprintf(name, sizeof(name), "%%t_%s_%s", elem + 1, shape);
   return definef(L, name, NULL, "OpTypeTensorARM %s %s %s", elem, r, sh);
}

static const char *
tensor_type_of(struct lower *L, const struct tosa_tensor *t)
{
   return tensor_type(L, t->dtype, t->rank, t->dims);
}

/* A scalar constant of `dt` from its little-endian bytes. */
static const char *
scalar_const(struct lower *L, enum tosa_dtype dt, const uint8_t *p)
{
   if (dt == TOSA_DT_BOOL)
      return bool_const(L, p[0] != 0);
   uint32_t w[2] = {0, 0};
   struct num_type nt = {.cls = NUM_INT};
   switch (dt) {
   case TOSA_DT_INT8: nt.width = 8; w[0] = p[0]; break;
   case TOSA_DT_INT16: nt.width = 16; w[0] = (uint32_t)(p[0] | p[1] << 8); break;
   case TOSA_DT_INT32:
      nt.width = 32;
      w[0] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      break;
   case TOSA_DT_INT48: {
      nt.width = 64;
      uint64_t v = 0;
      for (int i = 0; i < 6; i++)
         v |= (uint64_t)p[i] << (8 * i);
      if (v & (UINT64_C(1) << 47))
         v |= UINT64_C(0xffff) << 48;
      w[0] = (uint32_t)v;
      w[1] = (uint32_t)(v >> 32);
      break;
   }
   case TOSA_DT_FP32:
      nt.cls = NUM_FLOAT;
      nt.width = 32;
      w[0] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      break;
   case TOSA_DT_FP16:
   case TOSA_DT_BF16:
      nt.cls = NUM_FLOAT;
      nt.width = 16;
      nt.has_encoding = dt == TOSA_DT_BF16;
      nt.encoding = SPV_ARM_FP_ENCODING_BFLOAT16_KHR;
      w[0] = (uint32_t)(p[0] | p[1] << 8);
      break;
   case TOSA_DT_FP8E4M3:
   case TOSA_DT_FP8E5M2:
      nt.cls = NUM_FLOAT;
      nt.width = 8;
      nt.has_encoding = 1;
      nt.encoding = dt == TOSA_DT_FP8E4M3 ? SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT
                                          : SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT;
      w[0] = p[0];
      break;
   default:
      lfail(L, "internal: no scalar constants of type %s", tosa_dtype_name(dt));
      return "";
   }
   char lit[96];
   if (!num_format(&nt, w, lit, sizeof(lit))) {
      lfail(L, "a %s constant (0x%08x) cannot be written", tosa_dtype_name(dt), w[0]);
      return "";
   }
   return definef(L, NULL, "k", "OpConstant %s %s", elem_type(L, dt), lit);
}

/* ---- constant tensors ---------------------------------------------------------------------- */

/* Element i of a shape constant (int64, or int32 when the data has 4 bytes per element). */
static bool
shape_value(struct lower *L, const struct tosa_tensor *t, uint64_t i, int32_t *v)
{
   uint32_t size = t->data_len == t->elements * 8 ? 8 : 4;
   const uint8_t *p = t->data + i * size;
   uint64_t u = 0;
   for (uint32_t b = 0; b < size; b++)
      u |= (uint64_t)p[b] << (8 * b);
   int64_t s = size == 8 ? (int64_t)u : (int64_t)(int32_t)(uint32_t)u;
   if (s < INT32_MIN || s > INT32_MAX)
      return lfail(L, "shape \"%.*s\": value %" PRId64 " does not fit in 32 bits",
                   (int)t->name_len, t->name, s);
   *v = (int32_t)s;
   return true;
}

static const char *
leaf_const(struct lower *L, const struct tosa_tensor *t, uint64_t i)
{
   if (t->dtype == TOSA_DT_SHAPE) {
      int32_t v = 0;
      return shape_value(L, t, i, &v) ? u32_const(L, (uint32_t)v) : "";
   }
   return scalar_const(L, t->dtype, t->data + i * tosa_dtype_size(t->dtype));
}

/* The composite for dims[level..] starting at element `first`; its name into `out`. */
static void
composite(struct lower *L, const struct tosa_tensor *t, uint32_t tidx, uint32_t level,
          uint64_t first, char *out, size_t out_len)
{
   struct char_buf ids = {0};
   uint64_t stride = 1;
   for (uint32_t d = level + 1; d < t->rank; d++)
      stride *= (uint64_t)t->dims[d];
   for (int64_t i = 0; i < t->dims[level] && !L->failed; i++) {
      if (level + 1 == t->rank) {
         char_buf_printf(&ids, " %s", leaf_const(L, t, first + (uint64_t)i));
      } else {
         char child[48];
         composite(L, t, tidx, level + 1, first + (uint64_t)i * stride, child, sizeof(child));
         char_buf_printf(&ids, " %s", child);
      }
   }
   if (level == 0)
      snprintf(out, out_len, "%%c%u", tidx);
   else
      snprintf(out, out_len, "%%c%u_%u", tidx, L->counter++);
   const char *type = tensor_type(L, t->dtype == TOSA_DT_SHAPE ? TOSA_DT_INT32 : t->dtype,
                                  t->rank - level, t->dims + level);
   if (ids.oom)
      lfail(L, "out of memory");
   else if (!L->failed)
      char_buf_printf(&L->globals, "%s = OpConstantComposite %s%s\n", out, type,
                      ids.data ? ids.data : "");
   free(ids.data);
}

/* The constant holding tensor `tidx`'s data: %c<tidx>. */
static void
tensor_const(struct lower *L, uint32_t tidx)
{
   const struct tosa_tensor *t = &L->m->tensors[tidx];
   if (L->const_done[tidx] || L->failed)
      return;
   L->const_done[tidx] = 1;
   L->const_elements += t->elements;
   if (L->const_elements > TOSA_MAX_CONSTANT_ELEMENTS) {
      lfail(L, "constant \"%.*s\": the file's constants exceed %" PRIu64 " elements",
            (int)t->name_len, t->name, TOSA_MAX_CONSTANT_ELEMENTS);
      return;
   }
   bool zero = true;
   for (uint32_t i = 0; i < t->data_len && zero; i++)
      zero = t->data[i] == 0;
   if (zero) {
      const char *type = tensor_type(L, t->dtype == TOSA_DT_SHAPE ? TOSA_DT_INT32 : t->dtype,
                                     t->rank, t->dims);
      char_buf_printf(&L->globals, "%%c%u = OpConstantNull %s\n", tidx, type);
      return;
   }
   char name[48];
   composite(L, t, tidx, 0, 0, name, sizeof(name));
}

/* ---- operators ----------------------------------------------------------------------------- */

struct op_ctx {
   struct lower *L;
   const struct tosa_operator *o;
   uint32_t index;
   const char *name;
   struct char_buf operands;
};

static bool
op_fail(struct op_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool
op_fail(struct op_ctx *c, const char *fmt, ...)
{
   char why[240];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(why, sizeof(why), fmt, ap);
   va_end(ap);
   return lfail(c->L, "operator %u (%s): %s", c->index, c->name, why);
}

static const char *
attr_name(const struct op_ctx *c, uint32_t field)
{
   const char *n = field < 5 ? op_recipes[c->o->op].attrs[field] : NULL;
   return n ? n : "attribute";
}

static uint32_t
value_tensor(const struct lower *L, uint32_t tidx)
{
   return L->alias[tidx];
}

static bool
add_attr(struct op_ctx *c, char kind, uint32_t field)
{
   struct lower *L = c->L;
   struct tosa_fb *fb = (struct tosa_fb *)&L->m->fb;
   const struct tosa_fb_table *at = &c->o->attr;
   bool has = c->o->has_attr;
   const char *an = attr_name(c, field);
   uint32_t u = 0;
   int32_t i = 0;
   bool b = false;
   const char *id = "";
   switch (kind) {
   case 'A':
      if (has && !tosa_fb_i32(fb, at, field, an, 0, &i))
         return lfail(L, "operator %u (%s): %s", c->index, c->name, fb->err);
      id = u32_const(L, (uint32_t)i);
      break;
   case 'B':
      if (has && !tosa_fb_bool(fb, at, field, an, &b))
         return lfail(L, "operator %u (%s): %s", c->index, c->name, fb->err);
      id = bool_const(L, b);
      break;
   case 'N':
   case 'M':
   case 'R':
   case 'T': {
      if (has && !tosa_fb_u32(fb, at, field, an, 0, &u))
         return lfail(L, "operator %u (%s): %s", c->index, c->name, fb->err);
      uint32_t v = u;
      if (kind == 'T') {
         v = u == TOSA_DT_INT32 ? 1 : u == TOSA_DT_FP16 ? 2 : u == TOSA_DT_FP32 ? 3
             : u == TOSA_DT_INT48 ? 4 : 0;
      }
      uint32_t max = kind == 'R' ? 3 : kind == 'T' ? 4 : 2;
      if (kind == 'T' && v == 0)
         return op_fail(c, "%s is %s, not INT32, FP16, FP32 or INT48", an,
                        tosa_dtype_name(u) ? tosa_dtype_name(u) : "out of range");
      if (v == 0 || v > max)
         return op_fail(c, "%s is %u, not a valid value", an, u);
      id = u32_const(L, v);
      break;
   }
   case 'L': {
      struct tosa_fb_vec v = {0};
      if (has && !tosa_fb_vec_field(fb, at, field, an, 4, 64, &v))
         return lfail(L, "operator %u (%s): %s", c->index, c->name, fb->err);
      if (!v.count)
         return op_fail(c, "the %s attribute is missing or empty", an);
      struct char_buf ids = {0};
      for (uint32_t k = 0; k < v.count; k++)
         char_buf_printf(&ids, " %s", u32_const(L, tosa_fb_load_u32(fb, v.pos + 4 * k)));
      int64_t dim = v.count;
      const char *type = tensor_type(L, TOSA_DT_INT32, 1, &dim);
      id = ids.oom ? "" : definef(L, NULL, "a", "OpConstantComposite %s%s", type, ids.data);
      free(ids.data);
      break;
   }
   case 'V': {
      struct tosa_fb_vec v = {0};
      const struct tosa_tensor *in = &L->m->tensors[c->o->inputs[0]];
      uint32_t size = tosa_dtype_size(in->dtype);
      if (has && !tosa_fb_vec_field(fb, at, field, an, 1, 64, &v))
         return lfail(L, "operator %u (%s): %s", c->index, c->name, fb->err);
      if (in->dtype == TOSA_DT_BOOL || in->dtype == TOSA_DT_SHAPE || v.count != size)
         return op_fail(c, "%s has %u bytes, not one %s value", an, v.count,
                        tosa_dtype_name(in->dtype));
      id = scalar_const(L, in->dtype, fb->data + v.pos);
      break;
   }
   default:
      return op_fail(c, "internal: recipe kind %c", kind);
   }
   char_buf_printf(&c->operands, " %s", id);
   return !L->failed;
}

static bool
add_input(struct op_ctx *c, char kind, uint32_t k)
{
   struct lower *L = c->L;
   uint32_t tidx = value_tensor(L, c->o->inputs[k]);
   const struct tosa_tensor *t = &L->m->tensors[tidx];
   /* A shape constant: CONST_SHAPE's output, or a SHAPE tensor with data and no producer. */
   if (kind == 's' && !(t->data && t->dtype == TOSA_DT_SHAPE))
      return op_fail(c, "input %u \"%.*s\" must be a CONST_SHAPE", k, (int)t->name_len, t->name);
   if (kind == 'c' && !t->data)
      return op_fail(c, "input %u \"%.*s\" must be a constant (CONST): dynamic values are "
                     "not supported there", k, (int)t->name_len, t->name);
   if (kind != 's' && t->dtype == TOSA_DT_SHAPE)
      return op_fail(c, "input %u \"%.*s\" is a shape, not a tensor", k, (int)t->name_len,
                     t->name);
   if (t->data) {
      tensor_const(L, tidx);
      char_buf_printf(&c->operands, " %%c%u", tidx);
   } else {
      char_buf_printf(&c->operands, " %%v%u", tidx);
   }
   return !L->failed;
}

static bool
lower_operator(struct lower *L, uint32_t index)
{
   const struct tosa_operator *o = &L->m->operators[index];
   if (o->op == TOSA_OP_CONST || o->op == TOSA_OP_CONST_SHAPE)
      return true; /* defined where used */
   struct op_ctx c = {.L = L, .o = o, .index = index, .name = tosa_op_name(o->op)};
   if (o->op == TOSA_OP_IDENTITY) {
      if (o->input_count != 1 || o->output_count != 1)
         return op_fail(&c, "%u inputs and %u outputs (want 1 and 1)", o->input_count,
                        o->output_count);
      L->alias[o->outputs[0]] = value_tensor(L, o->inputs[0]);
      return true;
   }
   if (o->op > TOSA_OP_RESCALE || !op_recipes[o->op].ops)
      return op_fail(&c, "has no TOSA.001000.1 instruction");
   const struct op_recipe *r = &op_recipes[o->op];
   /* Operand counts. */
   uint32_t want_in = 0;
   bool variadic = false;
   for (const char *p = r->ops; *p; p += 2) {
      if (*p == '*')
         variadic = true;
      else if (*p >= 'a' && (uint32_t)(p[1] - '0') + 1 > want_in)
         want_in = (uint32_t)(p[1] - '0') + 1;
   }
   uint32_t want_out = o->op == TOSA_OP_FFT2D || o->op == TOSA_OP_RFFT2D ? 2 : 1;
   if (variadic ? o->input_count == 0 : o->input_count != want_in)
      return op_fail(&c, "%u inputs (want %s%u)", o->input_count, variadic ? "at least " : "",
                     variadic ? 1 : want_in);
   if (o->output_count != want_out)
      return op_fail(&c, "%u outputs (want %u)", o->output_count, want_out);
   bool ok = true;
   for (const char *p = r->ops; *p && ok; p += 2) {
      uint32_t n = (uint32_t)(p[1] - '0');
      if (*p == '*') {
         for (uint32_t k = 0; k < o->input_count && ok; k++)
            ok = add_input(&c, 'd', k);
      } else if (*p >= 'a') {
         ok = add_input(&c, *p, n);
      } else {
         ok = add_attr(&c, *p, n);
      }
   }
   for (uint32_t k = 0; k < o->output_count && ok; k++) {
      const struct tosa_tensor *t = &L->m->tensors[o->outputs[k]];
      if (t->dtype == TOSA_DT_SHAPE)
         ok = op_fail(&c, "output \"%.*s\" is a shape (EXT-DYNAMIC shape operators are not "
                      "supported)", (int)t->name_len, t->name);
   }
   if (ok && !c.operands.oom) {
      const char *inst = spirv_tosa_inst_name(o->op - 1);
      if (want_out == 1) {
         const char *type = tensor_type_of(L, &L->m->tensors[o->outputs[0]]);
         char_buf_printf(&L->body, "%%v%u = OpExtInst %s %%tosa %s%s\n", o->outputs[0], type,
                         inst, c.operands.data);
      } else {
         const char *t0 = tensor_type_of(L, &L->m->tensors[o->outputs[0]]);
         const char *t1 = tensor_type_of(L, &L->m->tensors[o->outputs[1]]);
         const char *st = definef(L, NULL, "st", "OpTypeStruct %s %s", t0, t1);
         char_buf_printf(&L->body, "%%r%u = OpExtInst %s %%tosa %s%s\n", index, st, inst,
                         c.operands.data);
         char_buf_printf(&L->body, "%%v%u = OpCompositeExtract %s %%r%u 0\n", o->outputs[0], t0,
                         index);
         char_buf_printf(&L->body, "%%v%u = OpCompositeExtract %s %%r%u 1\n", o->outputs[1], t1,
                         index);
      }
   }
   if (c.operands.oom)
      ok = lfail(L, "out of memory");
   free(c.operands.data);
   return ok && !L->failed;
}

/* ---- the module ---------------------------------------------------------------------------- */

/* OpName text: printable ASCII, quotes and backslashes escaped, at most 200 characters. */
static void
put_name(struct char_buf *b, const char *id, const struct tosa_tensor *t)
{
   char s[420];
   size_t n = 0;
   for (uint32_t i = 0; i < t->name_len && i < 200; i++) {
      char ch = t->name[i];
      if (ch < 0x20 || ch > 0x7e)
         ch = '?';
      if (ch == '"' || ch == '\\')
         s[n++] = '\\';
      s[n++] = ch;
   }
   s[n] = 0;
   char_buf_printf(b, "OpName %s \"%s\"\n", id, s);
}

static bool
lower_module(struct lower *L, struct char_buf *out)
{
   const struct tosa_model *m = L->m;
   struct char_buf gtype = {0}, iface = {0};
   uint32_t binding = 0;
   for (uint32_t pass = 0; pass < 2; pass++) {
      uint32_t count = pass ? m->output_count : m->input_count;
      const uint32_t *list = pass ? m->outputs : m->inputs;
      for (uint32_t i = 0; i < count; i++) {
         const struct tosa_tensor *t = &m->tensors[list[i]];
         const char *type = tensor_type_of(L, t);
         if (L->failed)
            break;
         char ptr[200], var[24];
         snprintf(ptr, sizeof(ptr), "%%p_%s", type + 1);
         const char *p = definef(L, ptr, NULL, "OpTypePointer UniformConstant %s", type);
         snprintf(var, sizeof(var), "%%%s%u", pass ? "out" : "in", i);
         char_buf_printf(&L->globals, "%s = OpVariable %s UniformConstant\n", var, p);
         put_name(&L->names, var, t);
         char_buf_printf(&L->decos, "OpDecorate %s DescriptorSet 0\nOpDecorate %s Binding %u\n",
                         var, var, binding++);
         char_buf_printf(&gtype, " %s", type);
         char_buf_printf(&iface, " %s", var);
      }
   }
   for (uint32_t i = 0; i < m->input_count; i++) {
      const struct tosa_tensor *t = &m->tensors[m->inputs[i]];
      char_buf_printf(&L->body, "%%v%u = OpGraphInputARM %s %s\n", m->inputs[i],
                      tensor_type_of(L, t), u32_const(L, i));
   }
   for (uint32_t i = 0; i < m->operator_count && !L->failed; i++)
      lower_operator(L, i);
   for (uint32_t i = 0; i < m->output_count && !L->failed; i++)
      char_buf_printf(&L->body, "OpGraphSetOutputARM %%v%u %s\n", value_tensor(L, m->outputs[i]),
                      u32_const(L, i));
   const char *gt = L->failed ? "" : definef(L, "%graph_type", NULL, "OpTypeGraphARM %u%s",
                                             m->input_count, gtype.data);
   bool oom = gtype.oom || iface.oom || L->names.oom || L->decos.oom || L->globals.oom ||
              L->body.oom;
   if (!L->failed && !oom) {
      char_buf_printf(out, "; TOSA %d.%d.%d flatbuffer: %u operators, %u tensors\n"
                      "; inputs: set 0, bindings 0..%u; outputs: bindings %u..%u\n",
                      m->version[0], m->version[1], m->version[2], m->operator_count,
                      m->tensor_count, m->input_count ? m->input_count - 1 : 0, m->input_count,
                      m->input_count + m->output_count - 1);
      char_buf_printf(out, "OpCapability Shader\nOpCapability VulkanMemoryModel\n");
      static const struct {
         enum tosa_dtype dt;
         const char *cap;
      } caps[] = {{TOSA_DT_INT8, "Int8"}, {TOSA_DT_INT16, "Int16"}, {TOSA_DT_INT48, "Int64"},
                  {TOSA_DT_FP16, "Float16"}, {TOSA_DT_BF16, "BFloat16TypeKHR"}};
      for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
         if (L->used[caps[i].dt])
            char_buf_printf(out, "OpCapability %s\n", caps[i].cap);
      bool fp8 = L->used[TOSA_DT_FP8E4M3] || L->used[TOSA_DT_FP8E5M2];
      if (fp8)
         char_buf_printf(out, "OpCapability Float8EXT\n");
      char_buf_printf(out, "OpCapability TensorsARM\nOpCapability GraphARM\n"
                      "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_ARM_graph\"\n");
      if (L->used[TOSA_DT_BF16])
         char_buf_printf(out, "OpExtension \"SPV_KHR_bfloat16\"\n");
      if (fp8)
         char_buf_printf(out, "OpExtension \"SPV_EXT_float8\"\n");
      char_buf_printf(out, "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                      "OpMemoryModel Logical Vulkan\n");
      char_buf_append(out, L->names.data, L->names.len);
      char_buf_append(out, L->decos.data, L->decos.len);
      char_buf_append(out, L->globals.data, L->globals.len);
      char_buf_printf(out, "OpGraphEntryPointARM %%graph \"main\"%s\n%%graph = OpGraphARM %s\n",
                      iface.data, gt);
      char_buf_append(out, L->body.data, L->body.len);
      char_buf_printf(out, "OpGraphEndARM\n");
      if (out->oom)
         oom = true;
   }
   if (oom)
      lfail(L, "out of memory");
   free(gtype.data);
   free(iface.data);
   return !L->failed;
}

bool
tosa_import_text(const void *data, size_t size, char **text, size_t *len, char *err,
                 size_t err_len)
{
   *text = NULL;
   struct tosa_model m;
   if (!tosa_model_read(data, size, &m, err, err_len))
      return false;
   struct lower L = {.m = &m};
   struct char_buf out = {0};
   L.const_done = calloc(m.tensor_count + 1, 1);
   L.alias = calloc(m.tensor_count + 1, sizeof(*L.alias));
   if (!L.const_done || !L.alias) {
      lfail(&L, "out of memory");
   } else {
      for (uint32_t i = 0; i < m.tensor_count; i++)
         L.alias[i] = i;
      memo_grow(&L);
      lower_module(&L, &out);
   }
   for (uint32_t i = 0; i < L.memo_cap; i++) {
      free(L.memo[i].rhs);
      free(L.memo[i].name);
   }
   free(L.memo);
   free(L.const_done);
   free(L.alias);
   free(L.names.data);
   free(L.decos.data);
   free(L.globals.data);
   free(L.body.data);
   tosa_model_finish(&m);
   if (L.failed) {
      snprintf(err, err_len, "%s", L.err);
      free(out.data);
      return false;
   }
   *text = out.data;
   if (len)
      *len = out.len;
   return true;
}

bool
tosa_import_words(const void *data, size_t size, uint32_t **words, size_t *count, char *err,
                  size_t err_len)
{
   char *text;
   size_t len;
   if (!tosa_import_text(data, size, &text, &len, err, err_len))
      return false;
   char why[256];
   bool ok = spirv_text_assemble(text, len, words, count, why, sizeof(why));
   if (!ok)
      snprintf(err, err_len, "internal: the generated module does not assemble: %s", why);
   free(text);
   return ok;
}
