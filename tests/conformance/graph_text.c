/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * gt_write(): one TOSA operator as a SPIR-V graph module in text (see graph_text.h). Two
 * passes: the operands are turned into names first, which records every declaration they need
 * (element types, 32-bit constants, shapes, tensor types, scalar and tensor constants); then the
 * module is printed in the order SPIR-V requires, each declaration once. Names say what they
 * are (%t_i8_1x4, %sh_1x4, %i32_4, %f16_x3c00), so the text reads well in a failure report.
 * What the operators mean is the reference's and the decoder's business, not this file's.
 */
#include "graph_text.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GT_MAX_DECLS 256 /* of each kind: RESCALE may have 64 channels of scales */

/* ---- text buffer ----------------------------------------------------------------------- */

struct buf {
   char *p;
   size_t n, cap;
   bool failed;
};

static void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
buf_printf(struct buf *b, const char *fmt, ...)
{
   if (b->failed)
      return;
   for (;;) {
      va_list ap;
      va_start(ap, fmt);
      int len = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
      va_end(ap);
      if (len < 0) {
         b->failed = true;
         return;
      }
      if (b->p && b->n + (size_t)len < b->cap) {
         b->n += (size_t)len;
         return;
      }
      size_t cap = b->cap ? b->cap * 2 : 4096;
      while (cap < b->n + (size_t)len + 1)
         cap *= 2;
      char *p = realloc(b->p, cap);
      if (!p) {
         b->failed = true;
         return;
      }
      b->p = p;
      b->cap = cap;
   }
}

/* ---- element types --------------------------------------------------------------------- */

struct elem_info {
   const char *name; /* id name and name prefix */
   const char *decl; /* the type instruction after '=' */
   uint32_t bits;    /* integer or float width */
   uint32_t ebits;   /* float exponent bits (0: integer or bool) */
};

static const struct elem_info elem_infos[REF_DTYPE_COUNT] = {
    [REF_DTYPE_BOOL] = {"bool", "OpTypeBool", 1, 0},
    [REF_DTYPE_I8] = {"i8", "OpTypeInt 8 0", 8, 0},
    [REF_DTYPE_I16] = {"i16", "OpTypeInt 16 0", 16, 0},
    [REF_DTYPE_I32] = {"i32", "OpTypeInt 32 0", 32, 0},
    [REF_DTYPE_I48] = {"i48", "OpTypeInt 64 0", 64, 0},
    [REF_DTYPE_FP16] = {"f16", "OpTypeFloat 16", 16, 5},
    [REF_DTYPE_BF16] = {"bf16", "OpTypeFloat 16 BFloat16KHR", 16, 8},
    [REF_DTYPE_FP32] = {"f32", "OpTypeFloat 32", 32, 8},
    [REF_DTYPE_FP8E4M3] = {"e4m3", "OpTypeFloat 8 Float8E4M3EXT", 8, 4},
    [REF_DTYPE_FP8E5M2] = {"e5m2", "OpTypeFloat 8 Float8E5M2EXT", 8, 5},
};

static const struct elem_info *
elem(enum ref_dtype dtype)
{
   if ((unsigned)dtype >= REF_DTYPE_COUNT || !elem_infos[dtype].name)
      return NULL;
   return &elem_infos[dtype];
}

/* ---- what the module declares ----------------------------------------------------------- */

struct decls {
   uint32_t dtypes; /* bit per enum ref_dtype */
   uint32_t ranks;  /* bit per array length used by a shape */
   bool bools;      /* %true / %false */
   int64_t i32s[GT_MAX_DECLS];
   uint32_t i32_count;
   struct gt_type tensors[GT_MAX_DECLS]; /* tensor types (their shapes follow) */
   uint32_t tensor_count;
   struct gt_scalar scalars[GT_MAX_DECLS]; /* element constants other than %i32_N */
   uint32_t scalar_count;
   bool overflow;
};

static void
need_i32(struct decls *d, int64_t v)
{
   for (uint32_t i = 0; i < d->i32_count; i++) {
      if (d->i32s[i] == v)
         return;
   }
   if (d->i32_count == GT_MAX_DECLS) {
      d->overflow = true;
      return;
   }
   d->i32s[d->i32_count++] = v;
}

static void
i32_name(int64_t v, char *buf, size_t size)
{
   if (v < 0)
      snprintf(buf, size, "%%i32_m%" PRIu64, (uint64_t)0 - (uint64_t)v);
   else
      snprintf(buf, size, "%%i32_%" PRId64, v);
}

static void
shape_suffix(const struct gt_type *t, char *buf, size_t size)
{
   size_t n = 0;
   buf[0] = '\0';
   for (uint32_t i = 0; i < t->rank && n < size; i++)
      n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, i ? "x" : "", t->shape[i]);
}

static bool
same_shape(const struct gt_type *a, const struct gt_type *b)
{
   if (a->rank != b->rank)
      return false;
   for (uint32_t i = 0; i < a->rank; i++) {
      if (a->shape[i] != b->shape[i])
         return false;
   }
   return true;
}

/* Records a tensor type and writes its name. */
static void
need_tensor(struct decls *d, const struct gt_type *t, char *name, size_t size)
{
   char sh[128];
   shape_suffix(t, sh, sizeof(sh));
   snprintf(name, size, "%%t_%s_%s", elem(t->dtype)->name, sh);
   d->dtypes |= 1u << t->dtype;
   d->ranks |= 1u << t->rank;
   need_i32(d, t->rank);
   for (uint32_t i = 0; i < t->rank; i++)
      need_i32(d, t->shape[i]);
   for (uint32_t i = 0; i < d->tensor_count; i++) {
      if (d->tensors[i].dtype == t->dtype && same_shape(&d->tensors[i], t))
         return;
   }
   if (d->tensor_count == GT_MAX_DECLS) {
      d->overflow = true;
      return;
   }
   d->tensors[d->tensor_count++] = *t;
}

static int64_t
sign_extend(uint64_t bits, uint32_t width)
{
   if (width >= 64)
      return (int64_t)bits;
   uint64_t sign = UINT64_C(1) << (width - 1);
   bits &= (sign << 1) - 1;
   return (int64_t)((bits ^ sign) - sign);
}

static uint64_t
width_mask(uint32_t width)
{
   return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

/* The name of an element constant: %i8_m5, %i48_7, %f16_x3c00, %true. */
static void
scalar_name(const struct gt_scalar *s, char *buf, size_t size)
{
   const struct elem_info *e = elem(s->dtype);
   if (s->dtype == REF_DTYPE_BOOL) {
      snprintf(buf, size, "%s", s->bits ? "%true" : "%false");
   } else if (e->ebits) {
      snprintf(buf, size, "%%%s_x%0*" PRIx64, e->name, (int)(e->bits / 4),
               s->bits & width_mask(e->bits));
   } else {
      int64_t v = sign_extend(s->bits, e->bits);
      if (v < 0)
         snprintf(buf, size, "%%%s_m%" PRIu64, e->name, (uint64_t)0 - (uint64_t)v);
      else
         snprintf(buf, size, "%%%s_%" PRId64, e->name, v);
   }
}

/* Records an element constant and writes its name; %i32 constants share the %i32_N pool. */
static void
need_scalar(struct decls *d, const struct gt_scalar *s, char *name, size_t size)
{
   d->dtypes |= 1u << s->dtype;
   if (s->dtype == REF_DTYPE_I32) {
      int64_t v = sign_extend(s->bits, 32);
      need_i32(d, v);
      i32_name(v, name, size);
      return;
   }
   scalar_name(s, name, size);
   if (s->dtype == REF_DTYPE_BOOL) {
      d->bools = true;
      return;
   }
   uint64_t mask = width_mask(elem(s->dtype)->bits);
   for (uint32_t i = 0; i < d->scalar_count; i++) {
      if (d->scalars[i].dtype == s->dtype && ((d->scalars[i].bits ^ s->bits) & mask) == 0)
         return;
   }
   if (d->scalar_count == GT_MAX_DECLS) {
      d->overflow = true;
      return;
   }
   d->scalars[d->scalar_count++] = *s;
}

/* The literal of a float bit pattern that vmel-as encodes back to exactly those bits: the
 * SPIRV-Tools special form (exponent one past the largest) for an all-ones exponent field,
 * else the exact value as a C99 hex float. */
static void
float_literal(const struct elem_info *e, uint64_t bits, char *buf, size_t size)
{
   uint32_t mbits = e->bits - 1 - e->ebits;
   uint64_t mant = bits & width_mask(mbits);
   uint64_t field = (bits >> mbits) & width_mask(e->ebits);
   bool neg = (bits >> (e->bits - 1)) & 1;
   int bias = (1 << (e->ebits - 1)) - 1;
   if (field == width_mask(e->ebits)) {
      unsigned digits = (mbits + 3) / 4;
      uint64_t m = mant << (digits * 4 - mbits);
      if (!m) {
         snprintf(buf, size, "%s0x1p+%d", neg ? "-" : "", bias + 1);
         return;
      }
      while ((m & 0xf) == 0) {
         m >>= 4;
         digits--;
      }
      snprintf(buf, size, "%s0x1.%0*" PRIx64 "p+%d", neg ? "-" : "", (int)digits, m, bias + 1);
      return;
   }
   double v = field ? ldexp((double)(mant | (UINT64_C(1) << mbits)), (int)field - bias - (int)mbits)
                    : ldexp((double)mant, 1 - bias - (int)mbits);
   snprintf(buf, size, "%s%a", neg ? "-" : "", v);
}

static void
scalar_literal(const struct gt_scalar *s, char *buf, size_t size)
{
   const struct elem_info *e = elem(s->dtype);
   if (e->ebits) {
      float_literal(e, s->bits, buf, size);
      return;
   }
   int64_t v = sign_extend(s->bits, e->bits);
   if (v >= 0)
      snprintf(buf, size, "%" PRId64, v);
   else
      snprintf(buf, size, "0x%" PRIx64, s->bits & width_mask(e->bits));
}

/* ---- operands ---------------------------------------------------------------------------- */

#define GT_MAX_OPERANDS (GT_MAX_INPUTS + 16)
#define GT_NAME 160

/* A tensor constant to print: %name = OpConstantComposite %t_<type>_<n> <element names>. */
struct tconst {
   char name[32];
   char type[GT_NAME];
   char *elements; /* space-separated names, malloc()ed */
};

struct writer {
   const struct gt_op *op;
   struct decls d;
   char operands[GT_MAX_OPERANDS][GT_NAME];
   uint32_t operand_count;
   struct tconst tconsts[GT_MAX_OPERANDS];
   uint32_t tconst_count;
   char input_types[GT_MAX_INPUTS][GT_NAME];
   char output_type[GT_NAME];
   bool failed;
};

static char *
operand_slot(struct writer *w)
{
   if (w->operand_count == GT_MAX_OPERANDS) {
      w->failed = true;
      return w->operands[GT_MAX_OPERANDS - 1];
   }
   return w->operands[w->operand_count++];
}

static void
op_u32(struct writer *w, int64_t v)
{
   need_i32(&w->d, v);
   i32_name(v, operand_slot(w), GT_NAME);
}

static void
op_bool(struct writer *w, bool v)
{
   w->d.bools = true;
   w->d.dtypes |= 1u << REF_DTYPE_BOOL;
   snprintf(operand_slot(w), GT_NAME, "%s", v ? "%true" : "%false");
}

static void
op_scalar(struct writer *w, const struct gt_scalar *s)
{
   need_scalar(&w->d, s, operand_slot(w), GT_NAME);
}

/* A constant tensor<dtype>[count] named %role from bit patterns. */
static void
op_tensor_const(struct writer *w, const char *role, enum ref_dtype dtype, uint32_t count,
                const uint64_t *bits)
{
   if (w->tconst_count == GT_MAX_OPERANDS || count == 0 || !bits) {
      w->failed = true;
      return;
   }
   struct tconst *t = &w->tconsts[w->tconst_count++];
   snprintf(t->name, sizeof(t->name), "%%%s", role);
   struct gt_type type = {.dtype = dtype, .rank = 1, .shape = {count}};
   need_tensor(&w->d, &type, t->type, sizeof(t->type));
   struct buf b = {0};
   for (uint32_t i = 0; i < count; i++) {
      char name[GT_NAME];
      struct gt_scalar s = {dtype, bits[i]};
      need_scalar(&w->d, &s, name, sizeof(name));
      buf_printf(&b, "%s%s", i ? " " : "", name);
   }
   t->elements = b.p;
   if (b.failed || !b.p)
      w->failed = true;
   snprintf(operand_slot(w), GT_NAME, "%s", t->name);
}

static void
op_list(struct writer *w, const char *role, const int32_t *values, uint32_t count)
{
   uint64_t bits[GT_MAX_RANK * 2];
   if (count > GT_MAX_RANK * 2) {
      w->failed = true;
      return;
   }
   for (uint32_t i = 0; i < count; i++)
      bits[i] = (uint32_t)values[i];
   op_tensor_const(w, role, REF_DTYPE_I32, count, bits);
}

static void
op_zero_point(struct writer *w, const char *role, const struct gt_scalar *s)
{
   op_tensor_const(w, role, s->dtype, 1, &s->bits);
}

static void
op_const(struct writer *w, const char *role, const struct gt_const *c)
{
   op_tensor_const(w, role, c->dtype, c->count, c->bits);
}

/* Whether tensor input i is a graph input / a graph constant of its own (not an alias). */
static bool
is_graph_input(const struct gt_op *op, uint32_t i)
{
   return !op->inputs[i].alias && op->inputs[i].source == GT_GRAPH_INPUT;
}

static bool
is_graph_constant(const struct gt_op *op, uint32_t i)
{
   return !op->inputs[i].alias && op->inputs[i].source == GT_GRAPH_CONSTANT;
}

/* The tensor input `index`: %in<k> (graph input k) or %const<k> (graph constant k). */
static void
op_input(struct writer *w, uint32_t index)
{
   const struct gt_op *op = w->op;
   if (op->inputs[index].alias)
      index = op->inputs[index].alias - 1; /* types_valid(): an alias names a non-alias */
   bool input = is_graph_input(op, index);
   uint32_t k = 0;
   for (uint32_t i = 0; i < index; i++)
      k += input ? is_graph_input(op, i) : is_graph_constant(op, i);
   snprintf(operand_slot(w), GT_NAME, "%%%s%u", input ? "in" : "const", k);
}

/* The operands of the OpExtInst, in TOSA.001000.1 order. */
static void
collect_operands(struct writer *w)
{
   const struct gt_op *op = w->op;
   switch (op->op) {
   case TOSA_REF_OP_ADD:
   case TOSA_REF_OP_SUB:
      op_input(w, 0);
      op_input(w, 1);
      break;
   case TOSA_REF_OP_MUL:
      op_input(w, 0);
      op_input(w, 1);
      op_zero_point(w, "shift", &op->attr.mul.shift);
      break;
   case TOSA_REF_OP_CLAMP:
      op_scalar(w, &op->attr.clamp.min_val);
      op_scalar(w, &op->attr.clamp.max_val);
      op_u32(w, op->attr.clamp.nan_mode);
      op_input(w, 0);
      break;
   case TOSA_REF_OP_RESHAPE:
      op_input(w, 0);
      op_list(w, "shape", op->attr.reshape.shape, op->attr.reshape.shape_count);
      break;
   case TOSA_REF_OP_CONCAT:
      op_u32(w, op->attr.concat.axis);
      for (uint32_t i = 0; i < op->input_count; i++)
         op_input(w, i);
      break;
   case TOSA_REF_OP_MAX_POOL2D:
      op_list(w, "kernel", op->attr.max_pool2d.kernel, 2);
      op_list(w, "stride", op->attr.max_pool2d.stride, 2);
      op_list(w, "pad", op->attr.max_pool2d.pad, 4);
      op_u32(w, op->attr.max_pool2d.nan_mode);
      op_input(w, 0);
      break;
   case TOSA_REF_OP_CONV2D:
      op_list(w, "pad", op->attr.conv2d.pad, 4);
      op_list(w, "stride", op->attr.conv2d.stride, 2);
      op_list(w, "dilation", op->attr.conv2d.dilation, 2);
      op_u32(w, op->attr.conv2d.acc_type);
      op_bool(w, op->attr.conv2d.local_bound);
      op_input(w, 0);
      op_input(w, 1);
      op_input(w, 2);
      op_zero_point(w, "input_zp", &op->attr.conv2d.input_zp);
      op_zero_point(w, "weight_zp", &op->attr.conv2d.weight_zp);
      break;
   case TOSA_REF_OP_MATMUL:
      op_input(w, 0);
      op_input(w, 1);
      op_zero_point(w, "a_zp", &op->attr.matmul.a_zp);
      op_zero_point(w, "b_zp", &op->attr.matmul.b_zp);
      break;
   case TOSA_REF_OP_RESCALE:
      op_bool(w, op->attr.rescale.scale32);
      op_u32(w, op->attr.rescale.rounding_mode);
      op_bool(w, op->attr.rescale.per_channel);
      op_bool(w, op->attr.rescale.input_unsigned);
      op_bool(w, op->attr.rescale.output_unsigned);
      op_input(w, 0);
      op_const(w, "multiplier", &op->attr.rescale.multiplier);
      op_const(w, "shift", &op->attr.rescale.shift);
      op_zero_point(w, "input_zp", &op->attr.rescale.input_zp);
      op_zero_point(w, "output_zp", &op->attr.rescale.output_zp);
      break;
   default:
      w->failed = true;
      break;
   }
}

/* ---- printing ---------------------------------------------------------------------------- */

static void
print_header(struct buf *b, uint32_t dtypes)
{
   buf_printf(b, "; TOSA.001000.1 single-operator graph (tests/conformance/graph_text.c)\n");
   buf_printf(b, "OpCapability Shader\nOpCapability VulkanMemoryModel\n");
   if (dtypes & (1u << REF_DTYPE_I8))
      buf_printf(b, "OpCapability Int8\n");
   if (dtypes & (1u << REF_DTYPE_I16))
      buf_printf(b, "OpCapability Int16\n");
   if (dtypes & (1u << REF_DTYPE_I48))
      buf_printf(b, "OpCapability Int64\n");
   if (dtypes & (1u << REF_DTYPE_FP16))
      buf_printf(b, "OpCapability Float16\n");
   if (dtypes & (1u << REF_DTYPE_BF16))
      buf_printf(b, "OpCapability BFloat16TypeKHR\n");
   if (dtypes & ((1u << REF_DTYPE_FP8E4M3) | (1u << REF_DTYPE_FP8E5M2)))
      buf_printf(b, "OpCapability Float8EXT\n");
   buf_printf(b, "OpCapability TensorsARM\nOpCapability GraphARM\n");
   buf_printf(b, "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_ARM_graph\"\n");
   if (dtypes & (1u << REF_DTYPE_BF16))
      buf_printf(b, "OpExtension \"SPV_KHR_bfloat16\"\n");
   if (dtypes & ((1u << REF_DTYPE_FP8E4M3) | (1u << REF_DTYPE_FP8E5M2)))
      buf_printf(b, "OpExtension \"SPV_EXT_float8\"\n");
   buf_printf(b, "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n");
   buf_printf(b, "OpMemoryModel Logical Vulkan\n");
}

static int
cmp_i64(const void *a, const void *b)
{
   int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
   return (x > y) - (x < y);
}

/* Element types, constants, shapes and tensor types, in dependency order. */
static void
print_types(struct buf *b, struct decls *d)
{
   d->dtypes |= 1u << REF_DTYPE_I32;
   for (uint32_t t = 0; t < REF_DTYPE_COUNT; t++) {
      if ((d->dtypes & (1u << t)) && elem(t))
         buf_printf(b, "%%%s = %s\n", elem(t)->name, elem(t)->decl);
   }
   if (d->bools)
      buf_printf(b, "%%true = OpConstantTrue %%bool\n%%false = OpConstantFalse %%bool\n");
   qsort(d->i32s, d->i32_count, sizeof(d->i32s[0]), cmp_i64);
   for (uint32_t i = 0; i < d->i32_count; i++) {
      char name[GT_NAME], literal[40];
      struct gt_scalar s = {REF_DTYPE_I32, (uint64_t)d->i32s[i]};
      i32_name(d->i32s[i], name, sizeof(name));
      scalar_literal(&s, literal, sizeof(literal));
      buf_printf(b, "%s = OpConstant %%i32 %s\n", name, literal);
   }
   for (uint32_t i = 0; i < d->scalar_count; i++) {
      char name[GT_NAME], literal[64];
      scalar_name(&d->scalars[i], name, sizeof(name));
      scalar_literal(&d->scalars[i], literal, sizeof(literal));
      buf_printf(b, "%s = OpConstant %%%s %s\n", name, elem(d->scalars[i].dtype)->name, literal);
   }
   for (uint32_t r = 1; r <= GT_MAX_RANK; r++) {
      if (d->ranks & (1u << r))
         buf_printf(b, "%%arr_%u = OpTypeArray %%i32 %%i32_%u\n", r, r);
   }
   /* Shapes, once each (tensor types of different element types share them). */
   for (uint32_t i = 0; i < d->tensor_count; i++) {
      bool seen = false;
      for (uint32_t j = 0; j < i && !seen; j++)
         seen = same_shape(&d->tensors[i], &d->tensors[j]);
      if (seen)
         continue;
      char sh[128];
      shape_suffix(&d->tensors[i], sh, sizeof(sh));
      buf_printf(b, "%%sh_%s = OpConstantComposite %%arr_%u", sh, d->tensors[i].rank);
      for (uint32_t k = 0; k < d->tensors[i].rank; k++) {
         char name[GT_NAME];
         i32_name(d->tensors[i].shape[k], name, sizeof(name));
         buf_printf(b, " %s", name);
      }
      buf_printf(b, "\n");
   }
   for (uint32_t i = 0; i < d->tensor_count; i++) {
      char sh[128];
      shape_suffix(&d->tensors[i], sh, sizeof(sh));
      buf_printf(b, "%%t_%s_%s = OpTypeTensorARM %%%s %%i32_%u %%sh_%s\n",
                 elem(d->tensors[i].dtype)->name, sh, elem(d->tensors[i].dtype)->name,
                 d->tensors[i].rank, sh);
   }
}

static bool
types_valid(const struct gt_op *op)
{
   if (op->input_count == 0 || op->input_count > GT_MAX_INPUTS)
      return false;
   const struct gt_type *all[GT_MAX_INPUTS + 1];
   for (uint32_t i = 0; i < op->input_count; i++)
      all[i] = &op->inputs[i].type;
   all[op->input_count] = &op->output;
   for (uint32_t i = 0; i <= op->input_count; i++) {
      if (i < op->input_count && op->inputs[i].alias)
         continue;
      if (!elem(all[i]->dtype) || all[i]->rank < 1 || all[i]->rank > GT_MAX_RANK)
         return false;
   }
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (op->inputs[i].alias > i ||
          (op->inputs[i].alias && op->inputs[op->inputs[i].alias - 1].alias))
         return false;
   }
   return true;
}

static void
fail(char *err, size_t err_len, const char *message)
{
   if (err && err_len)
      snprintf(err, err_len, "%s", message);
}

/* One pointer type per tensor type an interface variable has: %p_t_<type>. */
static void
print_pointers(struct buf *b, const struct writer *w)
{
   const char *types[GT_MAX_INPUTS + 1];
   uint32_t n = 0;
   for (uint32_t i = 0; i <= w->op->input_count; i++) {
      const char *t = i < w->op->input_count ? w->input_types[i] : w->output_type;
      if (i < w->op->input_count && !is_graph_input(w->op, i))
         continue;
      bool seen = false;
      for (uint32_t j = 0; j < n && !seen; j++)
         seen = strcmp(types[j], t) == 0;
      if (seen)
         continue;
      types[n++] = t;
      buf_printf(b, "%%p_%s = OpTypePointer UniformConstant %s\n", t + 1, t);
   }
}

/* Interface variables, graph constants, the graph type, the entry point and the graph. */
static void
print_graph(struct buf *b, struct writer *w, uint32_t n_in)
{
   const struct gt_op *op = w->op;
   uint32_t k = 0;
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (!is_graph_input(op, i))
         continue;
      buf_printf(b, "%%var_in%u = OpVariable %%p_%s UniformConstant\n", k, w->input_types[i] + 1);
      k++;
   }
   buf_printf(b, "%%var_out = OpVariable %%p_%s UniformConstant\n", w->output_type + 1);
   for (uint32_t i = 0; i < w->tconst_count; i++)
      buf_printf(b, "%s = OpConstantComposite %s %s\n", w->tconsts[i].name, w->tconsts[i].type,
                 w->tconsts[i].elements);
   k = 0;
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (!is_graph_constant(op, i))
         continue;
      buf_printf(b, "%%const%u = OpGraphConstantARM %s %u\n", k, w->input_types[i], k);
      k++;
   }
   buf_printf(b, "%%graph_type = OpTypeGraphARM %u", n_in);
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (is_graph_input(op, i))
         buf_printf(b, " %s", w->input_types[i]);
   }
   buf_printf(b, " %s\n", w->output_type);
   buf_printf(b, "OpGraphEntryPointARM %%graph \"main\"");
   for (uint32_t i = 0; i < n_in; i++)
      buf_printf(b, " %%var_in%u", i);
   buf_printf(b, " %%var_out\n%%graph = OpGraphARM %%graph_type\n");
   k = 0;
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (!is_graph_input(op, i))
         continue;
      buf_printf(b, "%%in%u = OpGraphInputARM %s %%i32_%u\n", k, w->input_types[i], k);
      k++;
   }
   buf_printf(b, "%%result = OpExtInst %s %%tosa %s", w->output_type, gt_op_name(op->op));
   for (uint32_t i = 0; i < w->operand_count; i++)
      buf_printf(b, " %s", w->operands[i]);
   buf_printf(b, "\nOpGraphSetOutputARM %%result %%i32_0\nOpGraphEndARM\n");
}

bool
gt_write(const struct gt_op *op, char **text, char *err, size_t err_len)
{
   *text = NULL;
   if (!gt_op_name(op->op) || !types_valid(op)) {
      fail(err, err_len, "unknown operator, element type or rank, or bad input count");
      return false;
   }
   struct writer *w = calloc(1, sizeof(*w));
   if (!w) {
      fail(err, err_len, "out of memory");
      return false;
   }
   w->op = op;
   uint32_t n_in = 0;
   for (uint32_t i = 0; i < op->input_count; i++) {
      if (op->inputs[i].alias)
         continue;
      need_tensor(&w->d, &op->inputs[i].type, w->input_types[i], GT_NAME);
      if (is_graph_input(op, i))
         need_i32(&w->d, n_in++);
   }
   need_i32(&w->d, 0);
   need_tensor(&w->d, &op->output, w->output_type, GT_NAME);
   collect_operands(w);

   struct buf b = {0};
   if (!w->failed && !w->d.overflow) {
      print_header(&b, w->d.dtypes);
      for (uint32_t k = 0; k < n_in; k++)
         buf_printf(&b, "OpDecorate %%var_in%u DescriptorSet 0\nOpDecorate %%var_in%u Binding %u\n",
                    k, k, k);
      buf_printf(&b, "OpDecorate %%var_out DescriptorSet 0\nOpDecorate %%var_out Binding %u\n",
                 n_in);
      print_types(&b, &w->d);
      print_pointers(&b, w);
      print_graph(&b, w, n_in);
   }
   bool ok = !w->failed && !w->d.overflow && !b.failed && b.p;
   for (uint32_t i = 0; i < w->tconst_count; i++)
      free(w->tconsts[i].elements);
   if (!ok) {
      fail(err, err_len,
           w->d.overflow ? "too many declarations"
           : w->failed   ? "bad operands"
                         : "out of memory");
      free(b.p);
      free(w);
      return false;
   }
   free(w);
   *text = b.p;
   return true;
}

/* ---- names ----------------------------------------------------------------------------- */

static const char *const op_names[TOSA_REF_OP_COUNT][2] = {
    [TOSA_REF_OP_ADD] = {"ADD", "add"},
    [TOSA_REF_OP_SUB] = {"SUB", "sub"},
    [TOSA_REF_OP_MUL] = {"MUL", "mul"},
    [TOSA_REF_OP_CLAMP] = {"CLAMP", "clamp"},
    [TOSA_REF_OP_RESHAPE] = {"RESHAPE", "reshape"},
    [TOSA_REF_OP_CONCAT] = {"CONCAT", "concat"},
    [TOSA_REF_OP_MAX_POOL2D] = {"MAX_POOL2D", "max_pool2d"},
    [TOSA_REF_OP_CONV2D] = {"CONV2D", "conv2d"},
    [TOSA_REF_OP_MATMUL] = {"MATMUL", "matmul"},
    [TOSA_REF_OP_RESCALE] = {"RESCALE", "rescale"},
};

const char *
gt_op_name(enum tosa_ref_op op)
{
   return (unsigned)op < TOSA_REF_OP_COUNT ? op_names[op][0] : NULL;
}

const char *
gt_op_short_name(enum tosa_ref_op op)
{
   return (unsigned)op < TOSA_REF_OP_COUNT ? op_names[op][1] : NULL;
}
