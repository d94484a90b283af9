/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * ref_graph_eval() (ref_graph.h): one pass over the module's words that records the types,
 * constants and graph instructions by id, then the chosen graph's TOSA instructions evaluated
 * in order with the tosa_ref_* functions. Owns the SPIR-V walk and the operand decoding of the
 * ten operators the reference implements; what an operator computes is the operator files'.
 */
#include "ref_graph.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "me_ref.h"
#include "spirv/spirv_arm_ml.h"

/* SPIR-V opcodes and enumerants this file reads (SPIRV-Headers unified1, spec-facts §2). */
enum {
   RG_OP_EXT_INST_IMPORT = 11,
   RG_OP_EXT_INST = 12,
   RG_OP_TYPE_BOOL = 20,
   RG_OP_TYPE_INT = 21,
   RG_OP_TYPE_FLOAT = 22,
   RG_OP_TYPE_ARRAY = 28,
   RG_OP_TYPE_STRUCT = 30,
   RG_OP_COMPOSITE_EXTRACT = 81,
   RG_OP_CONSTANT_TRUE = 41,
   RG_OP_CONSTANT_FALSE = 42,
   RG_OP_CONSTANT = 43,
   RG_OP_CONSTANT_COMPOSITE = 44,
   RG_OP_CONSTANT_NULL = 46,
   RG_OP_CONSTANT_COMPOSITE_REPLICATE = 4461,
   RG_OP_TYPE_TENSOR = 4163,
   RG_OP_GRAPH_CONSTANT = 4181,
   RG_OP_GRAPH_ENTRY_POINT = 4182,
   RG_OP_GRAPH = 4183,
   RG_OP_GRAPH_INPUT = 4184,
   RG_OP_GRAPH_SET_OUTPUT = 4185,
   RG_OP_GRAPH_END = 4186,
   RG_ENC_BFLOAT16 = 0,
   RG_ENC_FP8E4M3 = 4214,
   RG_ENC_FP8E5M2 = 4215,
};

/* TOSA.001000.1 instruction numbers of the operators the reference implements. */
enum {
   RG_TOSA_ARGMAX = 0,
   RG_TOSA_CONV2D = 2,
   RG_TOSA_MATMUL = 6,
   RG_TOSA_MAX_POOL2D = 7,
   RG_TOSA_CLAMP = 10,
   RG_TOSA_ERF = 11,
   RG_TOSA_SIGMOID = 12,
   RG_TOSA_TANH = 13,
   RG_TOSA_ADD = 14,
   RG_TOSA_ARITHMETIC_RIGHT_SHIFT = 15,
   RG_TOSA_BITWISE_AND = 16,
   RG_TOSA_BITWISE_OR = 17,
   RG_TOSA_BITWISE_XOR = 18,
   RG_TOSA_INTDIV = 19,
   RG_TOSA_LOGICAL_AND = 20,
   RG_TOSA_LOGICAL_LEFT_SHIFT = 21,
   RG_TOSA_LOGICAL_RIGHT_SHIFT = 22,
   RG_TOSA_LOGICAL_OR = 23,
   RG_TOSA_LOGICAL_XOR = 24,
   RG_TOSA_MAXIMUM = 25,
   RG_TOSA_MINIMUM = 26,
   RG_TOSA_MUL = 27,
   RG_TOSA_POW = 28,
   RG_TOSA_SUB = 29,
   RG_TOSA_TABLE = 30,
   RG_TOSA_ABS = 31,
   RG_TOSA_BITWISE_NOT = 32,
   RG_TOSA_CEIL = 33,
   RG_TOSA_CLZ = 34,
   RG_TOSA_COS = 35,
   RG_TOSA_EXP = 36,
   RG_TOSA_FLOOR = 37,
   RG_TOSA_LOG = 38,
   RG_TOSA_LOGICAL_NOT = 39,
   RG_TOSA_NEGATE = 40,
   RG_TOSA_RECIPROCAL = 41,
   RG_TOSA_RSQRT = 42,
   RG_TOSA_SIN = 43,
   RG_TOSA_SELECT = 44,
   RG_TOSA_EQUAL = 45,
   RG_TOSA_GREATER = 46,
   RG_TOSA_GREATER_EQUAL = 47,
   RG_TOSA_REDUCE_ALL = 48,
   RG_TOSA_REDUCE_ANY = 49,
   RG_TOSA_REDUCE_MAX = 50,
   RG_TOSA_REDUCE_MIN = 51,
   RG_TOSA_REDUCE_PRODUCT = 52,
   RG_TOSA_REDUCE_SUM = 53,
   RG_TOSA_CONCAT = 54,
   RG_TOSA_PAD = 55,
   RG_TOSA_REVERSE = 57,
   RG_TOSA_SLICE = 58,
   RG_TOSA_TILE = 59,
   RG_TOSA_TRANSPOSE = 60,
   RG_TOSA_GATHER = 61,
   RG_TOSA_SCATTER = 62,
   RG_TOSA_RESHAPE = 56,
   RG_TOSA_CAST = 64,
   RG_TOSA_RESCALE = 65,
   RG_TOSA_RESIZE = 63,
   RG_TOSA_CONV3D = 3,
   RG_TOSA_DEPTHWISE_CONV2D = 4,
   RG_TOSA_TRANSPOSE_CONV2D = 9,
   RG_TOSA_AVG_POOL2D = 1,
   RG_TOSA_FFT2D = 5,
   RG_TOSA_RFFT2D = 8,
};

/* The operators of one or two tensors and no other operand, by instruction number. */
typedef int (*rg_unary_fn)(const struct ref_tensor *, struct ref_tensor *);
typedef int (*rg_binary_fn)(const struct ref_tensor *, const struct ref_tensor *,
                            struct ref_tensor *);
static const struct {
   uint32_t number;
   enum tosa_ref_op op;
   rg_unary_fn unary;
   rg_binary_fn binary;
} rg_tensor_ops[] = {
    {RG_TOSA_BITWISE_AND, TOSA_REF_OP_BITWISE_AND, NULL, tosa_ref_bitwise_and},
    {RG_TOSA_BITWISE_OR, TOSA_REF_OP_BITWISE_OR, NULL, tosa_ref_bitwise_or},
    {RG_TOSA_BITWISE_XOR, TOSA_REF_OP_BITWISE_XOR, NULL, tosa_ref_bitwise_xor},
    {RG_TOSA_INTDIV, TOSA_REF_OP_INTDIV, NULL, tosa_ref_intdiv},
    {RG_TOSA_LOGICAL_AND, TOSA_REF_OP_LOGICAL_AND, NULL, tosa_ref_logical_and},
    {RG_TOSA_LOGICAL_LEFT_SHIFT, TOSA_REF_OP_LOGICAL_LEFT_SHIFT, NULL, tosa_ref_logical_left_shift},
    {RG_TOSA_LOGICAL_RIGHT_SHIFT, TOSA_REF_OP_LOGICAL_RIGHT_SHIFT, NULL,
     tosa_ref_logical_right_shift},
    {RG_TOSA_LOGICAL_OR, TOSA_REF_OP_LOGICAL_OR, NULL, tosa_ref_logical_or},
    {RG_TOSA_LOGICAL_XOR, TOSA_REF_OP_LOGICAL_XOR, NULL, tosa_ref_logical_xor},
    {RG_TOSA_EQUAL, TOSA_REF_OP_EQUAL, NULL, tosa_ref_equal},
    {RG_TOSA_GREATER, TOSA_REF_OP_GREATER, NULL, tosa_ref_greater},
    {RG_TOSA_GREATER_EQUAL, TOSA_REF_OP_GREATER_EQUAL, NULL, tosa_ref_greater_equal},
    {RG_TOSA_ABS, TOSA_REF_OP_ABS, tosa_ref_abs, NULL},
    {RG_TOSA_BITWISE_NOT, TOSA_REF_OP_BITWISE_NOT, tosa_ref_bitwise_not, NULL},
    {RG_TOSA_CLZ, TOSA_REF_OP_CLZ, tosa_ref_clz, NULL},
    {RG_TOSA_LOGICAL_NOT, TOSA_REF_OP_LOGICAL_NOT, tosa_ref_logical_not, NULL},
};

const char *
ref_graph_tosa_name(uint32_t number)
{
   /* The instruction set's table of names (include/spirv/spirv_arm_ml.h): facts of
    * TOSA.001000.1, not of the graph layer's decoder. */
   return spirv_tosa_inst_name(number);
}

/* ---- ids -------------------------------------------------------------------------------- */

enum rg_kind {
   RG_NONE,
   RG_TYPE_SCALAR, /* dtype */
   RG_TYPE_ARRAY,  /* elem, length */
   RG_TYPE_TENSOR, /* dtype, rank, shape */
   RG_TYPE_STRUCT, /* length members, their type ids in member_type */
   RG_TYPE_GRAPH,
   RG_SCALAR, /* type, bits */
   RG_ARRAY,  /* type, vals */
   RG_VALUE,  /* type, tensor (owned unless borrowed) */
   RG_STRUCT_VALUE, /* a multi-result operator's results: member, member_aux (owned) */
   RG_IMPORT, /* is_tosa, is_me */
   RG_OTHER,
};

struct rg_id {
   enum rg_kind kind;
   enum ref_dtype dtype;
   uint32_t type; /* id of the type of a constant or value */
   uint32_t rank, length, elem;
   int64_t shape[REF_MAX_RANK];
   uint64_t bits;
   int64_t *vals;
   struct ref_tensor *tensor;
   bool borrowed; /* tensor belongs to the caller */
   bool runtime;  /* a graph input or an operator's result: no constant instruction */
   bool is_tosa;
   bool is_me; /* Arm.MotionEngine.100 */
   int aux; /* index into rg.aux of the value's check companions, -1 none */
   uint32_t member_type[2];    /* RG_TYPE_STRUCT */
   struct ref_tensor *member[2]; /* RG_STRUCT_VALUE */
   int member_aux[2];
};

struct rg_aux {
   struct ref_tensor *fp64, *bound, *lo, *hi;
   struct tosa_ref_tolerance tol;
   struct tosa_ref_dot_check dot;
   bool out_unsigned;
   const char *op_name;
};

struct rg {
   const uint32_t *w;
   size_t n;
   uint32_t bound;
   struct rg_id *ids;
   struct rg_aux *aux;
   uint32_t aux_count, aux_cap;
   struct ref_graph_result *res;
};

static int rg_fail(struct rg *g, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
rg_fail(struct rg *g, int status, const char *fmt, ...)
{
   if (g->res->status == TOSA_REF_OK || g->res->status == TOSA_REF_UNPREDICTABLE) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(g->res->message, sizeof(g->res->message), fmt, ap);
      va_end(ap);
      g->res->status = status;
   }
   return status;
}

static struct rg_id *
rg_get(struct rg *g, uint32_t id)
{
   return id < g->bound ? &g->ids[id] : NULL;
}

static struct rg_id *
rg_def(struct rg *g, uint32_t id, enum rg_kind kind)
{
   struct rg_id *d = rg_get(g, id);
   if (!d || d->kind != RG_NONE)
      return NULL;
   d->kind = kind;
   d->aux = -1;
   return d;
}

static unsigned
dtype_bits(enum ref_dtype dt)
{
   if (dt == REF_DTYPE_BOOL)
      return 1;
   if (dt == REF_DTYPE_I48)
      return 64;
   return (unsigned)ref_dtype_size(dt) * 8;
}

/* ---- pass 1: declarations ---------------------------------------------------------------- */

static int
decl_type(struct rg *g, uint32_t op, const uint32_t *in, uint32_t wc, size_t at)
{
   struct rg_id *d = NULL;
   switch (op) {
   case RG_OP_TYPE_BOOL:
      if (wc >= 2 && (d = rg_def(g, in[1], RG_TYPE_SCALAR)))
         d->dtype = REF_DTYPE_BOOL;
      break;
   case RG_OP_TYPE_INT:
      if (wc < 4 || !(d = rg_def(g, in[1], RG_TYPE_SCALAR)))
         break;
      switch (in[2]) {
      case 8:
         d->dtype = REF_DTYPE_I8;
         break;
      case 16:
         d->dtype = REF_DTYPE_I16;
         break;
      case 32:
         d->dtype = REF_DTYPE_I32;
         break;
      case 64:
         d->dtype = REF_DTYPE_I48;
         break;
      default:
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpTypeInt %u", at, in[2]);
      }
      break;
   case RG_OP_TYPE_FLOAT:
      if (wc < 3 || !(d = rg_def(g, in[1], RG_TYPE_SCALAR)))
         break;
      if (wc == 3 && in[2] == 16)
         d->dtype = REF_DTYPE_FP16;
      else if (wc == 3 && in[2] == 32)
         d->dtype = REF_DTYPE_FP32;
      else if (wc == 4 && in[2] == 16 && in[3] == RG_ENC_BFLOAT16)
         d->dtype = REF_DTYPE_BF16;
      else if (wc == 4 && in[2] == 8 && in[3] == RG_ENC_FP8E4M3)
         d->dtype = REF_DTYPE_FP8E4M3;
      else if (wc == 4 && in[2] == 8 && in[3] == RG_ENC_FP8E5M2)
         d->dtype = REF_DTYPE_FP8E5M2;
      else
         d->kind = RG_OTHER; /* not a TOSA type; an error only if a tensor uses it */
      break;
   case RG_OP_TYPE_ARRAY: {
      if (wc < 4 || !(d = rg_def(g, in[1], RG_TYPE_ARRAY)))
         break;
      struct rg_id *len = rg_get(g, in[3]);
      if (!len || len->kind != RG_SCALAR || len->bits > 64)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: array length is no constant", at);
      d->elem = in[2];
      d->length = (uint32_t)len->bits;
      break;
   }
   case RG_OP_TYPE_TENSOR: {
      if (wc < 3 || !(d = rg_def(g, in[1], RG_TYPE_TENSOR)))
         break;
      struct rg_id *e = rg_get(g, in[2]);
      if (!e || e->kind != RG_TYPE_SCALAR)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT,
                        "word %zu: tensor element type is not a TOSA type", at);
      d->dtype = e->dtype;
      if (wc < 5)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: unshaped tensor type", at);
      struct rg_id *r = rg_get(g, in[3]), *s = rg_get(g, in[4]);
      if (!r || r->kind != RG_SCALAR || !s || s->kind != RG_ARRAY || r->bits > REF_MAX_RANK ||
          s->length != r->bits)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad tensor rank or shape", at);
      d->rank = (uint32_t)r->bits;
      for (uint32_t i = 0; i < d->rank; i++) {
         if (s->vals[i] < 1)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: tensor dimension %lld", at,
                           (long long)s->vals[i]);
         d->shape[i] = s->vals[i];
      }
      break;
   }
   default:
      return TOSA_REF_OK;
   }
   if (!d)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
   return TOSA_REF_OK;
}

static struct ref_tensor *
tensor_of_type(const struct rg_id *t)
{
   return ref_tensor_create(t->dtype, t->rank, t->shape);
}

/* Appends a constituent's elements to a composite being built. */
static bool
append_constituent(struct rg *g, const struct rg_id *c, struct ref_tensor *t, int64_t *pos)
{
   if (c->kind == RG_SCALAR) {
      if (*pos >= t->count)
         return false;
      ref_tensor_set_bits(t, (*pos)++, c->bits);
      return true;
   }
   if (c->kind == RG_VALUE && c->tensor && c->tensor->dtype == t->dtype) {
      if (*pos + c->tensor->count > t->count)
         return false;
      memcpy((char *)t->data + (size_t)*pos * ref_dtype_size(t->dtype), c->tensor->data,
             (size_t)c->tensor->count * ref_dtype_size(t->dtype));
      *pos += c->tensor->count;
      return true;
   }
   (void)g;
   return false;
}

static int
decl_constant(struct rg *g, uint32_t op, const uint32_t *in, uint32_t wc, size_t at)
{
   if (wc < 3)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: short constant", at);
   struct rg_id *type = rg_get(g, in[1]);
   if (!type || type->kind == RG_NONE)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: constant of an undefined type", at);
   if (type->kind == RG_TYPE_SCALAR) {
      struct rg_id *d = rg_def(g, in[2], RG_SCALAR);
      if (!d)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
      d->type = in[1];
      d->dtype = type->dtype;
      if (op == RG_OP_CONSTANT_TRUE)
         d->bits = 1;
      else if (op == RG_OP_CONSTANT && wc >= 4) {
         d->bits = in[3];
         if (wc >= 5)
            d->bits |= (uint64_t)in[4] << 32;
         unsigned bits = dtype_bits(type->dtype);
         if (bits < 64)
            d->bits &= (UINT64_C(1) << bits) - 1;
      }
      return TOSA_REF_OK;
   }
   if (type->kind == RG_TYPE_ARRAY) {
      struct rg_id *d = rg_def(g, in[2], RG_ARRAY);
      if (!d)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
      d->type = in[1];
      d->length = type->length;
      d->vals = calloc(type->length ? type->length : 1, sizeof(int64_t));
      if (!d->vals)
         return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
      for (uint32_t i = 0; i < type->length; i++) {
         uint32_t k = op == RG_OP_CONSTANT_COMPOSITE ? i : 0;
         if (op == RG_OP_CONSTANT_NULL)
            continue;
         struct rg_id *c = 3 + k < wc ? rg_get(g, in[3 + k]) : NULL;
         if (!c || c->kind != RG_SCALAR)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: array constituent %u", at, i);
         d->vals[i] = (int64_t)c->bits;
      }
      return TOSA_REF_OK;
   }
   if (type->kind != RG_TYPE_TENSOR)
      return TOSA_REF_OK; /* not something a TOSA operand can be */
   struct rg_id *d = rg_def(g, in[2], RG_VALUE);
   if (!d)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
   d->type = in[1];
   d->tensor = tensor_of_type(type);
   if (!d->tensor)
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   if (op == RG_OP_CONSTANT_NULL)
      return TOSA_REF_OK;
   int64_t pos = 0;
   if (op == RG_OP_CONSTANT_COMPOSITE) {
      for (uint32_t k = 3; k < wc; k++) {
         struct rg_id *c = rg_get(g, in[k]);
         if (!c || !append_constituent(g, c, d->tensor, &pos))
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: tensor constituent %u", at, k - 3);
      }
   } else {
      struct rg_id *c = wc > 3 ? rg_get(g, in[3]) : NULL;
      while (c && pos < d->tensor->count) {
         if (!append_constituent(g, c, d->tensor, &pos))
            c = NULL;
      }
      if (!c)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: replicated constituent", at);
   }
   if (pos != d->tensor->count)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: %lld constituents for %lld elements", at,
                     (long long)pos, (long long)d->tensor->count);
   return TOSA_REF_OK;
}

static bool
same_type(const struct ref_tensor *t, const struct rg_id *type)
{
   if (t->dtype != type->dtype || t->rank != type->rank)
      return false;
   for (uint32_t i = 0; i < t->rank; i++) {
      if (t->shape[i] != type->shape[i])
         return false;
   }
   return true;
}

static int
decl_graph_constant(struct rg *g, const uint32_t *in, uint32_t wc, size_t at,
                    const struct ref_graph_constant *constants, uint32_t count)
{
   struct rg_id *type = wc >= 4 ? rg_get(g, in[1]) : NULL;
   if (!type || type->kind != RG_TYPE_TENSOR)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpGraphConstantARM type", at);
   struct rg_id *d = rg_def(g, in[2], RG_VALUE);
   if (!d)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
   d->type = in[1];
   for (uint32_t i = 0; i < count; i++) {
      if (constants[i].id != in[3])
         continue;
      if (!constants[i].tensor || !same_type(constants[i].tensor, type))
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT,
                        "graph constant %u: the data's type or shape is not the declared one",
                        in[3]);
      d->tensor = (struct ref_tensor *)constants[i].tensor;
      d->borrowed = true;
      return TOSA_REF_OK;
   }
   return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "graph constant %u: no data given", in[3]);
}

static bool
string_equals(const uint32_t *words, uint32_t count, const char *s)
{
   size_t len = strlen(s);
   if ((len + 4) / 4 > count)
      return false;
   return memcmp(words, s, len + 1) == 0;
}

/* Pass 1 over every instruction; finds the graph's first word and the TOSA import. */
static int
declare(struct rg *g, const char *entry, const struct ref_graph_constant *constants,
        uint32_t constant_count, size_t *graph_at)
{
   uint32_t entry_graph = 0;
   *graph_at = 0;
   for (size_t at = 5; at < g->n;) {
      uint32_t wc = g->w[at] >> 16, op = g->w[at] & 0xffff;
      if (wc == 0 || at + wc > g->n)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad word count %u", at, wc);
      const uint32_t *in = &g->w[at];
      int st = TOSA_REF_OK;
      switch (op) {
      case RG_OP_EXT_INST_IMPORT: {
         struct rg_id *d = wc >= 3 ? rg_def(g, in[1], RG_IMPORT) : NULL;
         if (!d)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpExtInstImport", at);
         d->is_tosa = string_equals(in + 2, wc - 2, "TOSA.001000.1");
         d->is_me = string_equals(in + 2, wc - 2, "Arm.MotionEngine.100");
         break;
      }
      case RG_OP_TYPE_BOOL:
      case RG_OP_TYPE_INT:
      case RG_OP_TYPE_FLOAT:
      case RG_OP_TYPE_ARRAY:
      case RG_OP_TYPE_TENSOR:
         st = decl_type(g, op, in, wc, at);
         break;
      case RG_OP_TYPE_STRUCT: {
         /* Multi-result operators' result types (FFT2D, RFFT2D: two tensors). */
         struct rg_id *d = wc >= 3 && wc <= 4 ? rg_def(g, in[1], RG_TYPE_STRUCT) : NULL;
         if (d) {
            d->length = wc - 2;
            for (uint32_t i = 0; i < d->length; i++)
               d->member_type[i] = in[2 + i];
         }
         break;
      }
      case RG_OP_CONSTANT_TRUE:
      case RG_OP_CONSTANT_FALSE:
      case RG_OP_CONSTANT:
      case RG_OP_CONSTANT_COMPOSITE:
      case RG_OP_CONSTANT_NULL:
      case RG_OP_CONSTANT_COMPOSITE_REPLICATE:
         st = decl_constant(g, op, in, wc, at);
         break;
      case RG_OP_GRAPH_CONSTANT:
         st = decl_graph_constant(g, in, wc, at, constants, constant_count);
         break;
      case RG_OP_GRAPH_ENTRY_POINT:
         if (wc >= 3 && !entry_graph && (!entry || string_equals(in + 2, wc - 2, entry)))
            entry_graph = in[1];
         break;
      case RG_OP_GRAPH:
         if (wc >= 3 && !*graph_at && (!entry || in[2] == entry_graph))
            *graph_at = at;
         break;
      default:
         break;
      }
      if (st != TOSA_REF_OK)
         return st;
      at += wc;
   }
   if (!*graph_at)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "no graph%s%s", entry ? " for entry point " : "",
                     entry ? entry : "");
   return TOSA_REF_OK;
}

/* ---- pass 2: the graph ------------------------------------------------------------------- */

/* Operands of one TOSA instruction. */
struct rg_inst {
   const char *name;
   uint32_t result_type, result;
   const uint32_t *ops;
   uint32_t count;
   uint32_t index; /* position among the graph's TOSA instructions */
};

static int
operand_tensor(struct rg *g, const struct rg_inst *x, uint32_t k, const struct ref_tensor **out)
{
   struct rg_id *d = k < x->count ? rg_get(g, x->ops[k]) : NULL;
   if (!d || d->kind != RG_VALUE || !d->tensor)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): operand %u is not a tensor",
                     x->index, x->name, k);
   *out = d->tensor;
   return TOSA_REF_OK;
}

static int
operand_scalar(struct rg *g, const struct rg_inst *x, uint32_t k, uint64_t *bits,
               enum ref_dtype *dtype)
{
   struct rg_id *d = k < x->count ? rg_get(g, x->ops[k]) : NULL;
   if (!d || d->kind != RG_SCALAR)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT,
                     "operator %u (%s): operand %u is not a scalar constant", x->index, x->name, k);
   *bits = d->bits;
   if (dtype)
      *dtype = d->dtype;
   return TOSA_REF_OK;
}

/* A list attribute (tensor<i32>[n]) into `n` int32s. */
static int
operand_list(struct rg *g, const struct rg_inst *x, uint32_t k, int32_t *v, uint32_t n)
{
   const struct ref_tensor *t = NULL;
   int st = operand_tensor(g, x, k, &t);
   if (st != TOSA_REF_OK)
      return st;
   if (t->count != n || t->dtype != REF_DTYPE_I32)
      return rg_fail(g, TOSA_REF_ERROR, "operator %u (%s): operand %u is not tensor<i32>[%u]",
                     x->index, x->name, k, n);
   for (uint32_t i = 0; i < n; i++)
      v[i] = (int32_t)ref_tensor_get_int(t, i);
   return TOSA_REF_OK;
}

/* A shape_t operand (tensor<i32> of rank 1) of at most `max` entries into v; *length its
 * entries (the data-movement operators' ERROR_IFs compare it with the rank). */
static int
operand_rank_list(struct rg *g, const struct rg_inst *x, uint32_t k, int32_t *v, uint32_t max,
                  uint32_t *length)
{
   const struct ref_tensor *t = NULL;
   int st = operand_tensor(g, x, k, &t);
   if (st != TOSA_REF_OK)
      return st;
   if (t->rank != 1 || t->count > max || t->dtype != REF_DTYPE_I32)
      return rg_fail(g, TOSA_REF_ERROR,
                     "operator %u (%s): operand %u is not tensor<i32> of at most %u entries",
                     x->index, x->name, k, max);
   for (int64_t i = 0; i < t->count; i++)
      v[i] = (int32_t)ref_tensor_get_int(t, i);
   *length = (uint32_t)t->count;
   return TOSA_REF_OK;
}

static bool
operand_bool(struct rg *g, const struct rg_inst *x, uint32_t k, int *st)
{
   uint64_t bits = 0;
   *st = operand_scalar(g, x, k, &bits, NULL);
   return bits != 0;
}

/* The result and its companions for the checks. */
struct rg_out {
   struct ref_tensor *value, *fp64, *bound, *lo, *hi;
};

static struct ref_tensor *
like(const struct ref_tensor *t, enum ref_dtype dtype)
{
   return ref_tensor_create(dtype, t->rank, t->shape);
}

static void
rg_out_free(struct rg_out *o)
{
   ref_tensor_destroy(o->value);
   ref_tensor_destroy(o->fp64);
   ref_tensor_destroy(o->bound);
   ref_tensor_destroy(o->lo);
   ref_tensor_destroy(o->hi);
   memset(o, 0, sizeof(*o));
}

/* Worse of two statuses: errors beat UNPREDICTABLE beats OK. */
static int
worse(int a, int b)
{
   if (a < 0)
      return a;
   if (b < 0)
      return b;
   return a > b ? a : b;
}

/* x must have `want` operands (TOSA_REF_ERROR otherwise). */
static int
operand_count(struct rg *g, const struct rg_inst *x, uint32_t want)
{
   if (x->count == want)
      return TOSA_REF_OK;
   return rg_fail(g, TOSA_REF_ERROR, "operator %u (%s): %u operands, not %u", x->index, x->name,
                  x->count, want);
}

/* Operands first .. first + n - 1 of x, as tensors, into t[0 .. n - 1]. */
static int
operand_tensors(struct rg *g, const struct rg_inst *x, uint32_t first, uint32_t n,
                const struct ref_tensor **t)
{
   int st = TOSA_REF_OK;
   for (uint32_t k = 0; k < n && st == TOSA_REF_OK; k++)
      st = operand_tensor(g, x, first + k, &t[k]);
   return st;
}

/* x has exactly n operands, all tensors: into t[0 .. n - 1]. */
static int
tensor_operands(struct rg *g, const struct rg_inst *x, uint32_t n, const struct ref_tensor **t)
{
   int st = operand_count(g, x, n);
   return st != TOSA_REF_OK ? st : operand_tensors(g, x, 0, n, t);
}

/* The math operators (ref_math.c): the value, out_ref (o->fp64, which the caller allocated for a
 * float output) and, for TOSA_REF_TOL_ABS_BOUND, the bound per element. *s2: the status of the
 * companions. */
static int
eval_math(struct rg *g, const struct rg_inst *x, enum tosa_ref_op op, struct rg_out *o, int *s2)
{
   const struct ref_tensor *t[2] = {0};
   uint32_t want = op == TOSA_REF_OP_POW ? 2 : 1;
   int st = TOSA_REF_OK;
   if ((st = tensor_operands(g, x, want, t)) != TOSA_REF_OK)
      return st;
   int (*unary[])(const struct ref_tensor *, struct ref_tensor *) = {
       [TOSA_REF_OP_CEIL] = tosa_ref_ceil,
       [TOSA_REF_OP_FLOOR] = tosa_ref_floor,
       [TOSA_REF_OP_EXP] = tosa_ref_exp,
       [TOSA_REF_OP_LOG] = tosa_ref_log,
       [TOSA_REF_OP_SIN] = tosa_ref_sin,
       [TOSA_REF_OP_COS] = tosa_ref_cos,
       [TOSA_REF_OP_RECIPROCAL] = tosa_ref_reciprocal,
       [TOSA_REF_OP_RSQRT] = tosa_ref_rsqrt,
       [TOSA_REF_OP_ERF] = tosa_ref_erf,
       [TOSA_REF_OP_SIGMOID] = tosa_ref_sigmoid,
       [TOSA_REF_OP_TANH] = tosa_ref_tanh,
   };
   if (op == TOSA_REF_OP_POW) {
      st = tosa_ref_pow(t[0], t[1], o->value);
      if (o->fp64 && st >= 0)
         *s2 = tosa_ref_pow(t[0], t[1], o->fp64);
   } else {
      st = unary[op](t[0], o->value);
      if (o->fp64 && st >= 0)
         *s2 = unary[op](t[0], o->fp64);
   }
   struct tosa_ref_tolerance tol = tosa_ref_tolerance(op, o->value->dtype, TOSA_REF_ROUND_SINGLE);
   if (o->fp64 && st >= 0 && *s2 >= 0 && tol.kind == TOSA_REF_TOL_ABS_BOUND) {
      if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
         return TOSA_REF_NO_MEMORY;
      *s2 = worse(*s2, tosa_ref_math_bound(op, t[0], t[1], o->fp64, o->bound));
   }
   return st;
}

/* The reductions (ref_reduce.c): axis (and nan_mode for MAX/MIN), then the input. Float
 * REDUCE_SUM also gets out_ref and the dot-product bound, REDUCE_PRODUCT out_ref and its bound
 * per element (o->fp64, o->bound). *s2: the status of the companions. */
static int
eval_reduce(struct rg *g, const struct rg_inst *x, uint32_t number, struct rg_out *o,
            struct rg_aux *aux, enum tosa_ref_op *op, int *s2)
{
   static const enum tosa_ref_op ops[] = {
       TOSA_REF_OP_REDUCE_ALL, TOSA_REF_OP_REDUCE_ANY,     TOSA_REF_OP_REDUCE_MAX,
       TOSA_REF_OP_REDUCE_MIN, TOSA_REF_OP_REDUCE_PRODUCT, TOSA_REF_OP_REDUCE_SUM};
   *op = ops[number - RG_TOSA_REDUCE_ALL];
   bool has_nan = *op == TOSA_REF_OP_REDUCE_MAX || *op == TOSA_REF_OP_REDUCE_MIN;
   const struct ref_tensor *in = NULL;
   uint64_t axis = 0, nan = 0;
   int st;
   if ((st = operand_count(g, x, has_nan ? 3 : 2)) != TOSA_REF_OK ||
       (st = operand_scalar(g, x, 0, &axis, NULL)) != TOSA_REF_OK ||
       (has_nan && (st = operand_scalar(g, x, 1, &nan, NULL)) != TOSA_REF_OK) ||
       (st = operand_tensor(g, x, has_nan ? 2 : 1, &in)) != TOSA_REF_OK)
      return st;
   struct tosa_ref_reduce_args a = {.axis = (int32_t)(uint32_t)axis,
                                    .nan_mode = (enum tosa_ref_nan_mode)nan};
   st = tosa_ref_reduce(*op, &a, in, o->value);
   bool sum = *op == TOSA_REF_OP_REDUCE_SUM, product = *op == TOSA_REF_OP_REDUCE_PRODUCT;
   if (st < 0 || !ref_dtype_is_float(o->value->dtype) || !(sum || product))
      return st;
   if (!(o->fp64 = like(o->value, REF_DTYPE_FP64)) ||
       !(o->bound = like(o->value, REF_DTYPE_FP64)))
      return TOSA_REF_NO_MEMORY;
   *s2 = tosa_ref_reduce(*op, &a, in, o->fp64);
   if (*s2 >= 0 && sum) {
      a.mode = TOSA_REF_REDUCE_BOUND;
      *s2 = worse(*s2, tosa_ref_reduce(*op, &a, in, o->bound));
      aux->dot = (struct tosa_ref_dot_check){
          .out_type = o->value->dtype,
          .acc_type = o->value->dtype == REF_DTYPE_FP16 ? REF_DTYPE_FP16 : REF_DTYPE_FP32,
          .ks = in->shape[a.axis],
          .has_bias = true,
          .test_set = -1,
      };
   } else if (*s2 >= 0) {
      *s2 = worse(*s2, tosa_ref_reduce_product_bound(in, a.axis, o->fp64, o->bound));
   }
   return st;
}

/* DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and CONV3D: operands (lists, acc_type, local_bound, then
 * input, weight, bias, input_zp, weight_zp), the result, and for float rows the unrounded
 * result, the dot-product bound and the check's KS (Appendix A) into aux. */
static int
eval_conv_family(struct rg *g, const struct rg_inst *x, uint32_t number, bool need64,
                 const struct ref_tensor **t, struct rg_out *o, struct rg_aux *aux, int *s2,
                 bool *decoded)
{
   struct tosa_ref_conv2d_args dw = {0};
   struct tosa_ref_transpose_conv2d_args tc = {0};
   struct tosa_ref_conv3d_args c3 = {0};
   uint64_t acc = 0;
   uint32_t lists = number == RG_TOSA_TRANSPOSE_CONV2D ? 2 : 3;
   int st;
   if ((st = operand_count(g, x, lists + 7)) != TOSA_REF_OK)
      return st;
   int32_t *list[3] = {c3.pad, c3.stride, c3.dilation};
   uint32_t length[3] = {6, 3, 3};
   if (number == RG_TOSA_DEPTHWISE_CONV2D) {
      list[0] = dw.pad, list[1] = dw.stride, list[2] = dw.dilation;
      length[0] = 4, length[1] = 2, length[2] = 2;
   } else if (number == RG_TOSA_TRANSPOSE_CONV2D) {
      list[0] = tc.out_pad, list[1] = tc.stride;
      length[0] = 4, length[1] = 2;
   }
   for (uint32_t i = 0; i < lists; i++) {
      if ((st = operand_list(g, x, i, list[i], length[i])) != TOSA_REF_OK)
         return st;
   }
   if ((st = operand_scalar(g, x, lists, &acc, NULL)) != TOSA_REF_OK)
      return st;
   bool local_bound = operand_bool(g, x, lists + 1, &st);
   if (st != TOSA_REF_OK || (st = operand_tensors(g, x, lists + 2, 5, t)) != TOSA_REF_OK)
      return st;
   *decoded = true;
   dw.acc_type = tc.acc_type = c3.acc_type = (enum tosa_ref_acc_type)acc;
   dw.local_bound = tc.local_bound = c3.local_bound = local_bound;
   struct ref_tensor *outs[3] = {o->value, NULL, NULL};
   int64_t ks = 0;
   if (need64) {
      if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
         return TOSA_REF_NO_MEMORY;
      outs[1] = o->fp64;
      outs[2] = o->bound;
   }
   for (int i = 0; i < 3 && outs[i]; i++) {
      enum tosa_ref_dot_mode mode = i == 2 ? TOSA_REF_DOT_BOUND : TOSA_REF_DOT_RESULT;
      dw.mode = tc.mode = c3.mode = mode;
      int r = number == RG_TOSA_DEPTHWISE_CONV2D
                  ? tosa_ref_depthwise_conv2d(&dw, t[0], t[1], t[2], t[3], t[4], outs[i])
              : number == RG_TOSA_TRANSPOSE_CONV2D
                  ? tosa_ref_transpose_conv2d(&tc, t[0], t[1], t[2], t[3], t[4], outs[i])
                  : tosa_ref_conv3d(&c3, t[0], t[1], t[2], t[3], t[4], outs[i]);
      if (i == 0)
         st = r;
      else
         *s2 = worse(*s2, r);
      if (r < 0)
         break;
   }
   if (need64 && st >= 0) {
      const int64_t *w = t[1]->shape;
      ks = number == RG_TOSA_DEPTHWISE_CONV2D   ? w[0] * w[1]
           : number == RG_TOSA_TRANSPOSE_CONV2D ? w[1] * w[2] * w[3]
                                                : w[1] * w[2] * w[3] * w[4];
      aux->dot = (struct tosa_ref_dot_check){
          .out_type = o->value->dtype,
          .acc_type = acc == TOSA_REF_ACC_FP16 ? REF_DTYPE_FP16 : REF_DTYPE_FP32,
          .ks = ks,
          .has_bias = true,
          .test_set = -1,
      };
   }
   return st;
}

static int
eval_inst(struct rg *g, const struct rg_inst *x, uint32_t number, struct rg_out *o,
          struct rg_aux *aux)
{
   const struct ref_tensor *t[8] = {0};
   int st = TOSA_REF_OK, s2 = TOSA_REF_OK;
   bool is_float = ref_dtype_is_float(o->value->dtype);
   /* The unrounded result where a check needs it: TOSA_REF_TOL_ULP (ADD, SUB, MUL) and
    * TOSA_REF_TOL_DOT_PRODUCT (CONV2D, MATMUL); FP_EXACT compares with the rounded value. */
   bool need64 =
       is_float && (number == RG_TOSA_ADD || number == RG_TOSA_SUB || number == RG_TOSA_MUL ||
                    number == RG_TOSA_CONV2D || number == RG_TOSA_MATMUL ||
                    number == RG_TOSA_CAST || number == RG_TOSA_DEPTHWISE_CONV2D ||
                    number == RG_TOSA_TRANSPOSE_CONV2D || number == RG_TOSA_CONV3D ||
                    number == RG_TOSA_AVG_POOL2D);
   enum tosa_ref_op op;
   enum tosa_ref_rounding rounding = TOSA_REF_ROUND_SINGLE;
   if (need64 && !(o->fp64 = like(o->value, REF_DTYPE_FP64)))
      return TOSA_REF_NO_MEMORY;

   switch (number) {
   case RG_TOSA_ADD:
   case RG_TOSA_SUB:
   case RG_TOSA_MUL: {
      op = number == RG_TOSA_ADD   ? TOSA_REF_OP_ADD
           : number == RG_TOSA_SUB ? TOSA_REF_OP_SUB
                                   : TOSA_REF_OP_MUL;
      uint32_t want = number == RG_TOSA_MUL ? 3 : 2;
      if ((st = tensor_operands(g, x, want, t)) != TOSA_REF_OK)
         return st;
      if (op == TOSA_REF_OP_ADD) {
         st = tosa_ref_add(t[0], t[1], o->value);
         if (need64 && st >= 0)
            s2 = tosa_ref_add(t[0], t[1], o->fp64);
      } else if (op == TOSA_REF_OP_SUB) {
         st = tosa_ref_sub(t[0], t[1], o->value);
         if (need64 && st >= 0)
            s2 = tosa_ref_sub(t[0], t[1], o->fp64);
      } else {
         st = tosa_ref_mul(t[0], t[1], t[2], o->value);
         if (need64 && st >= 0)
            s2 = tosa_ref_mul(t[0], t[1], t[2], o->fp64);
      }
      break;
   }
   case RG_TOSA_MAXIMUM:
   case RG_TOSA_MINIMUM: {
      bool is_max = number == RG_TOSA_MAXIMUM;
      op = is_max ? TOSA_REF_OP_MAXIMUM : TOSA_REF_OP_MINIMUM;
      uint64_t nan = 0;
      if ((st = operand_count(g, x, 3)) != TOSA_REF_OK)
         return st;
      if ((st = operand_scalar(g, x, 0, &nan, NULL)) != TOSA_REF_OK ||
          (st = operand_tensors(g, x, 1, 2, t)) != TOSA_REF_OK)
         return st;
      enum tosa_ref_nan_mode mode = (enum tosa_ref_nan_mode)nan;
      st = is_max ? tosa_ref_maximum(mode, t[0], t[1], o->value)
                  : tosa_ref_minimum(mode, t[0], t[1], o->value);
      break;
   }
   case RG_TOSA_CLAMP: {
      op = TOSA_REF_OP_CLAMP;
      uint64_t lo = 0, hi = 0, nan = 0;
      enum ref_dtype lo_t = REF_DTYPE_I32, hi_t = REF_DTYPE_I32;
      if ((st = operand_count(g, x, 4)) != TOSA_REF_OK)
         return st;
      if ((st = operand_scalar(g, x, 0, &lo, &lo_t)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 1, &hi, &hi_t)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 2, &nan, NULL)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 3, &t[0])) != TOSA_REF_OK)
         return st;
      if (lo_t != t[0]->dtype || hi_t != t[0]->dtype)
         return rg_fail(g, TOSA_REF_UNSUPPORTED,
                        "operator %u (CLAMP): min_val/max_val are not of the element type",
                        x->index);
      struct tosa_ref_clamp_args a = {.nan_mode = (enum tosa_ref_nan_mode)nan};
      if (ref_dtype_is_float(lo_t)) {
         a.min_fp = ref_fp_decode(lo_t, (uint32_t)lo);
         a.max_fp = ref_fp_decode(hi_t, (uint32_t)hi);
      } else {
         unsigned bits = dtype_bits(lo_t);
         uint64_t sign = UINT64_C(1) << (bits - 1);
         a.min_int = (int64_t)((lo ^ sign) - sign);
         a.max_int = (int64_t)((hi ^ sign) - sign);
      }
      st = tosa_ref_clamp(&a, t[0], o->value);
      if (need64 && st >= 0)
         s2 = tosa_ref_clamp(&a, t[0], o->fp64);
      break;
   }
   case RG_TOSA_RESHAPE:
      op = TOSA_REF_OP_RESHAPE;
      if ((st = tensor_operands(g, x, 2, t)) != TOSA_REF_OK)
         return st;
      if (t[1]->count != o->value->rank)
         return rg_fail(g, TOSA_REF_ERROR,
                        "operator %u (RESHAPE): the shape operand has %lld entries for rank %u",
                        x->index, (long long)t[1]->count, o->value->rank);
      for (uint32_t i = 0; i < o->value->rank; i++) {
         if (ref_tensor_get_int(t[1], i) != o->value->shape[i])
            return rg_fail(g, TOSA_REF_ERROR,
                           "operator %u (RESHAPE): the shape operand is not the output's shape",
                           x->index);
      }
      need64 = false;
      st = tosa_ref_reshape(t[0], o->value);
      break;
   case RG_TOSA_CONCAT: {
      op = TOSA_REF_OP_CONCAT;
      uint64_t axis = 0;
      if (x->count < 1 || x->count - 1 > 8)
         return rg_fail(g, TOSA_REF_ERROR, "operator %u (CONCAT): %u operands", x->index, x->count);
      if ((st = operand_scalar(g, x, 0, &axis, NULL)) != TOSA_REF_OK)
         return st;
      for (uint32_t k = 1; k < x->count && st == TOSA_REF_OK; k++)
         st = operand_tensor(g, x, k, &t[k - 1]);
      if (st != TOSA_REF_OK)
         return st;
      struct tosa_ref_concat_args a = {.axis = (int32_t)(uint32_t)axis};
      need64 = false;
      st = tosa_ref_concat(&a, t, x->count - 1, o->value);
      break;
   }
   case RG_TOSA_SLICE: {
      op = TOSA_REF_OP_SLICE;
      struct tosa_ref_slice_args a = {0};
      if ((st = operand_count(g, x, 3)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 0, &t[0])) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 1, a.start, REF_MAX_RANK, &a.start_length)) !=
              TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 2, a.size, REF_MAX_RANK, &a.size_length)) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_slice(&a, t[0], o->value);
      break;
   }
   case RG_TOSA_REVERSE: {
      op = TOSA_REF_OP_REVERSE;
      uint64_t axis = 0;
      if ((st = operand_count(g, x, 2)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 0, &axis, NULL)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 1, &t[0])) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_reverse((int32_t)(uint32_t)axis, t[0], o->value);
      break;
   }
   case RG_TOSA_TILE: {
      op = TOSA_REF_OP_TILE;
      struct tosa_ref_tile_args a = {0};
      if ((st = operand_count(g, x, 2)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 0, &t[0])) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 1, a.multiples, REF_MAX_RANK, &a.length)) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_tile(&a, t[0], o->value);
      break;
   }
   case RG_TOSA_PAD: {
      op = TOSA_REF_OP_PAD;
      struct tosa_ref_pad_args a = {0};
      if ((st = operand_count(g, x, 3)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 0, &t[0])) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 1, a.padding, 2 * REF_MAX_RANK, &a.length)) !=
              TOSA_REF_OK ||
          (st = operand_tensor(g, x, 2, &t[1])) != TOSA_REF_OK)
         return st;
      if (t[1]->rank != 1 || t[1]->count != 1)
         return rg_fail(g, TOSA_REF_ERROR, "operator %u (PAD): pad_const is not of shape [1]",
                        x->index);
      a.pad_bits = ref_tensor_get_bits(t[1], 0);
      a.pad_dtype = t[1]->dtype;
      need64 = false;
      st = tosa_ref_pad(&a, t[0], o->value);
      break;
   }
   case RG_TOSA_TRANSPOSE: {
      op = TOSA_REF_OP_TRANSPOSE;
      struct tosa_ref_transpose_args a = {0};
      if ((st = operand_count(g, x, 2)) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 0, a.perms, REF_MAX_RANK, &a.length)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 1, &t[0])) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_transpose(&a, t[0], o->value);
      break;
   }
   case RG_TOSA_GATHER:
      op = TOSA_REF_OP_GATHER;
      if ((st = tensor_operands(g, x, 2, t)) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_gather(t[0], t[1], o->value);
      break;
   case RG_TOSA_SCATTER:
      op = TOSA_REF_OP_SCATTER;
      if ((st = tensor_operands(g, x, 3, t)) != TOSA_REF_OK)
         return st;
      need64 = false;
      st = tosa_ref_scatter(t[0], t[1], t[2], o->value);
      break;
   case RG_TOSA_MAX_POOL2D: {
      op = TOSA_REF_OP_MAX_POOL2D;
      struct tosa_ref_max_pool2d_args a = {0};
      uint64_t nan = 0;
      if ((st = operand_count(g, x, 5)) != TOSA_REF_OK)
         return st;
      if ((st = operand_list(g, x, 0, a.kernel, 2)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 1, a.stride, 2)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 2, a.pad, 4)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 3, &nan, NULL)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 4, &t[0])) != TOSA_REF_OK)
         return st;
      a.nan_mode = (enum tosa_ref_nan_mode)nan;
      st = tosa_ref_max_pool2d(&a, t[0], o->value);
      if (need64 && st >= 0)
         s2 = tosa_ref_max_pool2d(&a, t[0], o->fp64);
      break;
   }
   case RG_TOSA_AVG_POOL2D: {
      op = TOSA_REF_OP_AVG_POOL2D;
      struct tosa_ref_avg_pool2d_args a = {.mode = TOSA_REF_DOT_RESULT};
      uint64_t acc = 0;
      if ((st = operand_count(g, x, 7)) != TOSA_REF_OK)
         return st;
      if ((st = operand_list(g, x, 0, a.kernel, 2)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 1, a.stride, 2)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 2, a.pad, 4)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 3, &acc, NULL)) != TOSA_REF_OK ||
          (st = operand_tensors(g, x, 4, 3, t)) != TOSA_REF_OK)
         return st;
      a.acc_type = (enum tosa_ref_acc_type)acc;
      st = tosa_ref_avg_pool2d(&a, t[0], t[1], t[2], o->value);
      if (need64 && st >= 0) {
         s2 = tosa_ref_avg_pool2d(&a, t[0], t[1], t[2], o->fp64);
         if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
            return TOSA_REF_NO_MEMORY;
         a.mode = TOSA_REF_DOT_BOUND;
         if (s2 >= 0)
            s2 = worse(s2, tosa_ref_avg_pool2d(&a, t[0], t[1], t[2], o->bound));
         /* "a dot product of an input vector with a vector with elements 1/KS"; no bias,
          * has_bias as MATMUL's (the looser reading). */
         aux->dot = (struct tosa_ref_dot_check){
             .out_type = o->value->dtype,
             .acc_type = acc == TOSA_REF_ACC_FP16 ? REF_DTYPE_FP16 : REF_DTYPE_FP32,
             .ks = (int64_t)a.kernel[0] * a.kernel[1],
             .has_bias = true,
             .test_set = -1,
         };
      }
      break;
   }
   case RG_TOSA_CONV2D: {
      op = TOSA_REF_OP_CONV2D;
      struct tosa_ref_conv2d_args a = {0};
      uint64_t acc = 0;
      if ((st = operand_count(g, x, 10)) != TOSA_REF_OK)
         return st;
      if ((st = operand_list(g, x, 0, a.pad, 4)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 1, a.stride, 2)) != TOSA_REF_OK ||
          (st = operand_list(g, x, 2, a.dilation, 2)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 3, &acc, NULL)) != TOSA_REF_OK)
         return st;
      a.local_bound = operand_bool(g, x, 4, &st);
      if ((st = operand_tensors(g, x, 5, 5, t)) != TOSA_REF_OK)
         return st;
      a.acc_type = (enum tosa_ref_acc_type)acc;
      st = tosa_ref_conv2d(&a, t[0], t[1], t[2], t[3], t[4], o->value);
      if (need64 && st >= 0) {
         s2 = tosa_ref_conv2d(&a, t[0], t[1], t[2], t[3], t[4], o->fp64);
         if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
            return TOSA_REF_NO_MEMORY;
         a.mode = TOSA_REF_DOT_BOUND;
         if (s2 >= 0)
            s2 = worse(s2, tosa_ref_conv2d(&a, t[0], t[1], t[2], t[3], t[4], o->bound));
         aux->dot = (struct tosa_ref_dot_check){
             .out_type = o->value->dtype,
             .acc_type = acc == TOSA_REF_ACC_FP16 ? REF_DTYPE_FP16 : REF_DTYPE_FP32,
             .ks = t[1]->shape[1] * t[1]->shape[2] * t[1]->shape[3],
             .has_bias = true,
             .test_set = -1,
         };
      }
      break;
   }
   case RG_TOSA_DEPTHWISE_CONV2D:
   case RG_TOSA_TRANSPOSE_CONV2D:
   case RG_TOSA_CONV3D: {
      bool decoded = false;
      st = eval_conv_family(g, x, number, need64, t, o, aux, &s2, &decoded);
      if (!decoded || st == TOSA_REF_NO_MEMORY)
         return st;
      op = number == RG_TOSA_DEPTHWISE_CONV2D   ? TOSA_REF_OP_DEPTHWISE_CONV2D
           : number == RG_TOSA_TRANSPOSE_CONV2D ? TOSA_REF_OP_TRANSPOSE_CONV2D
                                                : TOSA_REF_OP_CONV3D;
      break;
   }
   case RG_TOSA_MATMUL: {
      op = TOSA_REF_OP_MATMUL;
      struct tosa_ref_matmul_args a = {.mode = TOSA_REF_DOT_RESULT};
      if ((st = tensor_operands(g, x, 4, t)) != TOSA_REF_OK)
         return st;
      st = tosa_ref_matmul(&a, t[0], t[1], t[2], t[3], o->value);
      if (need64 && st >= 0) {
         s2 = tosa_ref_matmul(&a, t[0], t[1], t[2], t[3], o->fp64);
         if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
            return TOSA_REF_NO_MEMORY;
         a.mode = TOSA_REF_DOT_BOUND;
         if (s2 >= 0)
            s2 = worse(s2, tosa_ref_matmul(&a, t[0], t[1], t[2], t[3], o->bound));
         aux->dot = (struct tosa_ref_dot_check){
             .out_type = o->value->dtype,
             .acc_type = o->value->dtype,
             .ks = t[0]->shape[2],
             .has_bias = true,
             .test_set = -1,
         };
      }
      break;
   }
   case RG_TOSA_RESCALE: {
      op = TOSA_REF_OP_RESCALE;
      struct tosa_ref_rescale_args a = {0};
      uint64_t mode = 0;
      if ((st = operand_count(g, x, 10)) != TOSA_REF_OK)
         return st;
      a.scale32 = operand_bool(g, x, 0, &st);
      if (st == TOSA_REF_OK)
         st = operand_scalar(g, x, 1, &mode, NULL);
      if (st == TOSA_REF_OK)
         a.per_channel = operand_bool(g, x, 2, &st);
      if (st == TOSA_REF_OK)
         a.input_unsigned = operand_bool(g, x, 3, &st);
      if (st == TOSA_REF_OK)
         a.output_unsigned = operand_bool(g, x, 4, &st);
      if ((st = operand_tensors(g, x, 5, 5, t)) != TOSA_REF_OK)
         return st;
      a.rounding_mode = (enum tosa_ref_rounding)mode;
      rounding = a.rounding_mode;
      aux->out_unsigned = a.output_unsigned;
      st = tosa_ref_rescale(&a, t[0], t[1], t[2], t[3], t[4], o->value);
      if (st >= 0 && a.rounding_mode == TOSA_REF_ROUND_INEXACT) {
         if (!(o->lo = like(t[0], REF_DTYPE_I32)) || !(o->hi = like(t[0], REF_DTYPE_I32)))
            return TOSA_REF_NO_MEMORY;
         s2 = tosa_ref_rescale_inexact_range(&a, t[0], t[1], t[2], t[3], t[4], o->lo, o->hi);
      }
      break;
   }
   case RG_TOSA_CAST:
      if ((st = tensor_operands(g, x, 1, t)) != TOSA_REF_OK)
         return st;
      /* The tolerance depends on the input type too: from bool/integers or from floats. */
      op = ref_dtype_is_float(t[0]->dtype) ? TOSA_REF_OP_CAST_FROM_FP : TOSA_REF_OP_CAST;
      st = tosa_ref_cast(t[0], o->value);
      if (need64 && st >= 0)
         s2 = tosa_ref_cast(t[0], o->fp64);
      break;
   case RG_TOSA_TABLE:
      op = TOSA_REF_OP_TABLE;
      if ((st = tensor_operands(g, x, 2, t)) != TOSA_REF_OK)
         return st;
      /* TOSA.001000.1: the compile-time-constant table must be a constant instruction. */
      if (rg_get(g, x->ops[1])->runtime)
         return rg_fail(g, TOSA_REF_ERROR,
                        "operator %u (TABLE): the table is not a constant instruction", x->index);
      st = tosa_ref_table(t[0], t[1], o->value);
      break;
   case RG_TOSA_BITWISE_AND:
   case RG_TOSA_BITWISE_OR:
   case RG_TOSA_BITWISE_XOR:
   case RG_TOSA_INTDIV:
   case RG_TOSA_LOGICAL_AND:
   case RG_TOSA_LOGICAL_LEFT_SHIFT:
   case RG_TOSA_LOGICAL_RIGHT_SHIFT:
   case RG_TOSA_LOGICAL_OR:
   case RG_TOSA_LOGICAL_XOR:
   case RG_TOSA_EQUAL:
   case RG_TOSA_GREATER:
   case RG_TOSA_GREATER_EQUAL:
   case RG_TOSA_ABS:
   case RG_TOSA_BITWISE_NOT:
   case RG_TOSA_CLZ:
   case RG_TOSA_LOGICAL_NOT: {
      size_t i = 0;
      while (rg_tensor_ops[i].number != number)
         i++;
      op = rg_tensor_ops[i].op;
      uint32_t want = rg_tensor_ops[i].unary ? 1 : 2;
      if ((st = tensor_operands(g, x, want, t)) != TOSA_REF_OK)
         return st;
      st = rg_tensor_ops[i].unary ? rg_tensor_ops[i].unary(t[0], o->value)
                                  : rg_tensor_ops[i].binary(t[0], t[1], o->value);
      break;
   }
   case RG_TOSA_ARITHMETIC_RIGHT_SHIFT: {
      op = TOSA_REF_OP_ARITHMETIC_RIGHT_SHIFT;
      if ((st = operand_count(g, x, 3)) != TOSA_REF_OK)
         return st;
      bool round = operand_bool(g, x, 0, &st);
      if (st != TOSA_REF_OK || (st = operand_tensors(g, x, 1, 2, t)) != TOSA_REF_OK)
         return st;
      st = tosa_ref_arithmetic_right_shift(round, t[0], t[1], o->value);
      break;
   }
   case RG_TOSA_NEGATE:
   case RG_TOSA_SELECT:
      op = number == RG_TOSA_NEGATE ? TOSA_REF_OP_NEGATE : TOSA_REF_OP_SELECT;
      if ((st = tensor_operands(g, x, 3, t)) != TOSA_REF_OK)
         return st;
      st = number == RG_TOSA_NEGATE ? tosa_ref_negate(t[0], t[1], t[2], o->value)
                                    : tosa_ref_select(t[0], t[1], t[2], o->value);
      break;
   case RG_TOSA_CEIL:
   case RG_TOSA_FLOOR:
   case RG_TOSA_EXP:
   case RG_TOSA_LOG:
   case RG_TOSA_SIN:
   case RG_TOSA_COS:
   case RG_TOSA_RECIPROCAL:
   case RG_TOSA_RSQRT:
   case RG_TOSA_ERF:
   case RG_TOSA_SIGMOID:
   case RG_TOSA_TANH:
   case RG_TOSA_POW:
      op = number == RG_TOSA_CEIL         ? TOSA_REF_OP_CEIL
           : number == RG_TOSA_FLOOR      ? TOSA_REF_OP_FLOOR
           : number == RG_TOSA_EXP        ? TOSA_REF_OP_EXP
           : number == RG_TOSA_LOG        ? TOSA_REF_OP_LOG
           : number == RG_TOSA_SIN        ? TOSA_REF_OP_SIN
           : number == RG_TOSA_COS        ? TOSA_REF_OP_COS
           : number == RG_TOSA_RECIPROCAL ? TOSA_REF_OP_RECIPROCAL
           : number == RG_TOSA_RSQRT      ? TOSA_REF_OP_RSQRT
           : number == RG_TOSA_ERF        ? TOSA_REF_OP_ERF
           : number == RG_TOSA_SIGMOID    ? TOSA_REF_OP_SIGMOID
           : number == RG_TOSA_TANH       ? TOSA_REF_OP_TANH
                                          : TOSA_REF_OP_POW;
      need64 = is_float; /* every float row: ULP or ABS_BOUND */
      if (need64 && !o->fp64 && !(o->fp64 = like(o->value, REF_DTYPE_FP64)))
         return TOSA_REF_NO_MEMORY;
      st = eval_math(g, x, op, o, &s2);
      break;
   case RG_TOSA_RESIZE: {
      op = TOSA_REF_OP_RESIZE;
      struct tosa_ref_resize_args a = {0};
      uint64_t mode = 0;
      if ((st = operand_count(g, x, 5)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 0, &mode, NULL)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 1, &t[0])) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 2, a.scale, 4, &a.scale_length)) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 3, a.offset, 2, &a.offset_length)) != TOSA_REF_OK ||
          (st = operand_rank_list(g, x, 4, a.border, 2, &a.border_length)) != TOSA_REF_OK)
         return st;
      /* TOSA.001000.1: scale, offset and border must be constant instructions. */
      for (uint32_t k = 2; k < 5; k++) {
         if (rg_get(g, x->ops[k])->runtime)
            return rg_fail(g, TOSA_REF_ERROR,
                           "operator %u (RESIZE): operand %u is not a constant instruction",
                           x->index, k);
      }
      a.mode = (enum tosa_ref_resize_mode)mode;
      need64 = is_float;
      if (need64 && !o->fp64 && !(o->fp64 = like(o->value, REF_DTYPE_FP64)))
         return TOSA_REF_NO_MEMORY;
      st = tosa_ref_resize(&a, t[0], o->value);
      if (need64 && st >= 0) {
         s2 = tosa_ref_resize(&a, t[0], o->fp64);
         if (!(o->bound = like(o->value, REF_DTYPE_FP64)))
            return TOSA_REF_NO_MEMORY;
         if (s2 >= 0)
            s2 = worse(s2, tosa_ref_resize_bound(t[0], o->bound));
      }
      break;
   }
   case RG_TOSA_REDUCE_ALL:
   case RG_TOSA_REDUCE_ANY:
   case RG_TOSA_REDUCE_MAX:
   case RG_TOSA_REDUCE_MIN:
   case RG_TOSA_REDUCE_PRODUCT:
   case RG_TOSA_REDUCE_SUM:
      st = eval_reduce(g, x, number, o, aux, &op, &s2);
      need64 = o->fp64 != NULL;
      break;
   case RG_TOSA_ARGMAX: {
      op = TOSA_REF_OP_ARGMAX;
      uint64_t axis = 0, nan = 0;
      if ((st = operand_count(g, x, 3)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 0, &axis, NULL)) != TOSA_REF_OK ||
          (st = operand_scalar(g, x, 1, &nan, NULL)) != TOSA_REF_OK ||
          (st = operand_tensor(g, x, 2, &t[0])) != TOSA_REF_OK)
         return st;
      struct tosa_ref_argmax_args a = {.axis = (int32_t)(uint32_t)axis,
                                       .nan_mode = (enum tosa_ref_nan_mode)nan};
      st = tosa_ref_argmax(&a, t[0], o->value);
      break;
   }
   default:
      return rg_fail(g, TOSA_REF_UNSUPPORTED, "operator %u: reference has no %s", x->index,
                     x->name);
   }
   if (!need64) {
      ref_tensor_destroy(o->fp64);
      o->fp64 = NULL;
   }
   aux->tol = tosa_ref_tolerance(op, o->value->dtype, rounding);
   aux->op_name = x->name;
   st = worse(st, s2);
   if (st != TOSA_REF_OK)
      rg_fail(g, st, "operator %u (%s): %s %s", x->index, x->name, tosa_ref_status_name(st),
              tosa_ref_last_message());
   return st;
}

static int
add_aux(struct rg *g, struct rg_id *d, const struct rg_aux *a)
{
   if (g->aux_count == g->aux_cap) {
      uint32_t cap = g->aux_cap ? g->aux_cap * 2 : 16;
      struct rg_aux *p = realloc(g->aux, cap * sizeof(*p));
      if (!p)
         return TOSA_REF_NO_MEMORY;
      g->aux = p;
      g->aux_cap = cap;
   }
   g->aux[g->aux_count] = *a;
   d->aux = (int)g->aux_count++;
   return TOSA_REF_OK;
}

/* RESHAPE moves no element: its output keeps the companions of its input (the producing
 * operator's unrounded result, bound, range and tolerance), in the new shape. */
static int
reshape_aux(struct rg *g, const struct rg_aux *from, const struct ref_tensor *shape,
            struct rg_aux *aux, struct rg_out *o)
{
   const struct ref_tensor *src[4] = {from->fp64, from->bound, from->lo, from->hi};
   struct ref_tensor **dst[4] = {&o->fp64, &o->bound, &o->lo, &o->hi};
   for (unsigned i = 0; i < 4; i++) {
      if (!src[i])
         continue;
      if (!(*dst[i] = like(shape, src[i]->dtype)))
         return TOSA_REF_NO_MEMORY;
      memcpy((*dst[i])->data, src[i]->data, (size_t)src[i]->count * ref_dtype_size(src[i]->dtype));
   }
   aux->tol = from->tol;
   aux->dot = from->dot;
   aux->out_unsigned = from->out_unsigned;
   aux->op_name = from->op_name;
   (void)g;
   return TOSA_REF_OK;
}

/* FFT2D and RFFT2D: two results, each with its unrounded value and dot-product bound. */
static int
eval_fft(struct rg *g, const struct rg_inst *x, uint32_t number, struct rg_out o[2],
         struct rg_aux aux[2])
{
   const struct ref_tensor *t[2] = {0};
   bool fft = number == RG_TOSA_FFT2D;
   struct tosa_ref_fft2d_args a = {.mode = TOSA_REF_DOT_RESULT};
   int st;
   if ((st = operand_count(g, x, fft ? 4 : 2)) != TOSA_REF_OK)
      return st;
   if (fft)
      a.inverse = operand_bool(g, x, 0, &st);
   if (st == TOSA_REF_OK)
      a.local_bound = operand_bool(g, x, fft ? 1 : 0, &st);
   if (st != TOSA_REF_OK || (st = operand_tensors(g, x, fft ? 2 : 1, fft ? 2 : 1, t)) != TOSA_REF_OK)
      return st;
   for (int k = 0; k < 2; k++) {
      if (!(o[k].fp64 = like(o[k].value, REF_DTYPE_FP64)) ||
          !(o[k].bound = like(o[k].value, REF_DTYPE_FP64)))
         return TOSA_REF_NO_MEMORY;
   }
   int s2;
   if (fft) {
      st = tosa_ref_fft2d(&a, t[0], t[1], o[0].value, o[1].value);
      s2 = st >= 0 ? tosa_ref_fft2d(&a, t[0], t[1], o[0].fp64, o[1].fp64) : st;
      a.mode = TOSA_REF_DOT_BOUND;
      if (s2 >= 0)
         s2 = worse(s2, tosa_ref_fft2d(&a, t[0], t[1], o[0].bound, o[1].bound));
   } else {
      st = tosa_ref_rfft2d(&a, t[0], o[0].value, o[1].value);
      s2 = st >= 0 ? tosa_ref_rfft2d(&a, t[0], o[0].fp64, o[1].fp64) : st;
      a.mode = TOSA_REF_DOT_BOUND;
      if (s2 >= 0)
         s2 = worse(s2, tosa_ref_rfft2d(&a, t[0], o[0].bound, o[1].bound));
   }
   enum tosa_ref_op op = fft ? TOSA_REF_OP_FFT2D : TOSA_REF_OP_RFFT2D;
   for (int k = 0; k < 2; k++) {
      aux[k].tol = tosa_ref_tolerance(op, o[k].value->dtype, TOSA_REF_ROUND_SINGLE);
      aux[k].op_name = x->name;
      /* KS: the interleaved input's length (FFT2D 2 H W, RFFT2D H W). */
      aux[k].dot = (struct tosa_ref_dot_check){
          .out_type = o[k].value->dtype,
          .acc_type = o[k].value->dtype,
          .ks = t[0]->shape[1] * t[0]->shape[2] * (fft ? 2 : 1),
          .has_bias = true,
          .test_set = -1,
      };
   }
   st = worse(st, s2);
   if (st != TOSA_REF_OK)
      rg_fail(g, st, "operator %u (%s): %s %s", x->index, x->name, tosa_ref_status_name(st),
              tosa_ref_last_message());
   return st;
}

/* An operator whose result is an OpTypeStruct of tensors (FFT2D, RFFT2D); its members are
 * taken apart by OpCompositeExtract. */
static int
graph_multi_result(struct rg *g, const struct rg_inst *x, uint32_t number,
                   const struct rg_id *type)
{
   if (number != RG_TOSA_FFT2D && number != RG_TOSA_RFFT2D)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): result type is a struct",
                     x->index, x->name);
   struct rg_out o[2] = {{0}, {0}};
   struct rg_aux aux[2] = {{0}, {0}};
   for (int k = 0; k < 2; k++) {
      const struct rg_id *m = type->length == 2 ? rg_get(g, type->member_type[k]) : NULL;
      if (!m || m->kind != RG_TYPE_TENSOR)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT,
                        "operator %u (%s): result type is no struct of two tensors", x->index,
                        x->name);
      if (!(o[k].value = tensor_of_type(m))) {
         rg_out_free(&o[0]);
         return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
      }
   }
   int st = eval_fft(g, x, number, o, aux);
   struct rg_id *d = st >= 0 ? rg_def(g, x->result, RG_STRUCT_VALUE) : NULL;
   if (st >= 0 && !d)
      st = rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): bad or repeated result id",
                   x->index, x->name);
   if (st < 0) {
      rg_out_free(&o[0]);
      rg_out_free(&o[1]);
      return st == TOSA_REF_NO_MEMORY ? rg_fail(g, st, "out of memory") : st;
   }
   d->type = x->result_type;
   d->runtime = true;
   d->member[0] = o[0].value; /* owned by d from now on */
   d->member[1] = o[1].value;
   for (int k = 0; k < 2; k++) {
      struct rg_id tmp = {.aux = -1};
      aux[k].fp64 = o[k].fp64;
      aux[k].bound = o[k].bound;
      if (add_aux(g, &tmp, &aux[k]) != TOSA_REF_OK) {
         for (int j = k; j < 2; j++) {
            ref_tensor_destroy(o[j].fp64);
            ref_tensor_destroy(o[j].bound);
         }
         return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
      }
      d->member_aux[k] = tmp.aux;
   }
   return st;
}

/* OpCompositeExtract of a multi-result operator's result: the member itself, with its
 * companions (no copy). */
static int
graph_extract(struct rg *g, const uint32_t *in, uint32_t wc, size_t at)
{
   struct rg_id *s = wc == 5 ? rg_get(g, in[3]) : NULL;
   if (!s || s->kind != RG_STRUCT_VALUE || in[4] > 1 || !s->member[in[4]])
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpCompositeExtract of no result", at);
   struct rg_id *d = rg_def(g, in[2], RG_VALUE);
   if (!d)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
   d->type = in[1];
   d->tensor = s->member[in[4]];
   d->borrowed = true;
   d->runtime = true;
   d->aux = s->member_aux[in[4]];
   return TOSA_REF_OK;
}

/* An Arm.MotionEngine.100 instruction (me_ref.h, D47): MIN_SAD and RAW_SAD give a tensor,
 * MIN_SAD_COST a struct of two taken apart by OpCompositeExtract. Integers: exact. */
static int
graph_me(struct rg *g, const uint32_t *in, uint32_t wc, size_t at, uint32_t index)
{
   static const char *const names[3] = {"MIN_SAD", "MIN_SAD_COST", "RAW_SAD"};
   uint32_t number = in[4];
   if (number > SPV_ARM_ME_RAW_SAD)
      return rg_fail(g, TOSA_REF_UNSUPPORTED, "word %zu: Arm.MotionEngine.100 has no instruction %u",
                     at, number);
   struct rg_inst x = {
       .name = names[number],
       .result_type = in[1],
       .result = in[2],
       .ops = in + 5,
       .count = wc - 5,
       .index = index,
   };
   bool raw = number == SPV_ARM_ME_RAW_SAD, two = number == SPV_ARM_ME_MIN_SAD_COST;
   struct me_ref_args a = {0};
   int32_t v[2] = {0, 0};
   uint32_t *dst[6] = {a.kernel, a.search, a.stride, a.wstride, a.offset, a.pad};
   int st = operand_count(g, &x, raw ? 8 : 9);
   for (uint32_t k = 0; k < 6 && st == TOSA_REF_OK; k++) {
      st = operand_list(g, &x, k, v, 2);
      dst[k][0] = (uint32_t)v[0];
      dst[k][1] = (uint32_t)v[1];
   }
   uint64_t bits = 0;
   if (st == TOSA_REF_OK && !raw)
      st = operand_scalar(g, &x, 6, &bits, NULL);
   a.pattern = (uint32_t)bits;
   const struct ref_tensor *t[2] = {0};
   if (st != TOSA_REF_OK || (st = operand_tensors(g, &x, raw ? 6 : 7, 2, t)) != TOSA_REF_OK)
      return st;
   struct rg_id *type = rg_get(g, x.result_type);
   const struct rg_id *m[2] = {type, NULL};
   if (two && type && type->kind == RG_TYPE_STRUCT && type->length == 2) {
      m[0] = rg_get(g, type->member_type[0]);
      m[1] = rg_get(g, type->member_type[1]);
   }
   for (int k = 0; k < (two ? 2 : 1); k++)
      if (!m[k] || m[k]->kind != RG_TYPE_TENSOR)
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): result type is no %s",
                        index, x.name, two ? "struct of two tensors" : "tensor");
   struct ref_tensor *out[2] = {tensor_of_type(m[0]), two ? tensor_of_type(m[1]) : NULL};
   if (!out[0] || (two && !out[1])) {
      ref_tensor_destroy(out[0]);
      ref_tensor_destroy(out[1]);
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   }
   st = me_ref_eval((enum me_ref_op)number, &a, t[0], t[1], out[0], out[1]);
   struct rg_id *d = st >= 0 ? rg_def(g, x.result, two ? RG_STRUCT_VALUE : RG_VALUE) : NULL;
   if (st >= 0 && !d)
      st = rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): bad or repeated result id", index,
                   x.name);
   else if (st < 0)
      rg_fail(g, st, "operator %u (%s): %s %s", index, x.name, tosa_ref_status_name(st),
              tosa_ref_last_message());
   if (st < 0) {
      ref_tensor_destroy(out[0]);
      ref_tensor_destroy(out[1]);
      return st;
   }
   d->type = x.result_type;
   d->runtime = true;
   if (two) {
      d->member[0] = out[0];
      d->member[1] = out[1];
   } else {
      d->tensor = out[0];
   }
   for (int k = 0; k < (two ? 2 : 1); k++) {
      struct rg_aux aux = {
          .tol = tosa_ref_tolerance(TOSA_REF_OP_RESHAPE, out[k]->dtype, TOSA_REF_ROUND_SINGLE),
          .op_name = x.name,
      };
      struct rg_id tmp = {.aux = -1};
      if (add_aux(g, two ? &tmp : d, &aux) != TOSA_REF_OK)
         return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
      if (two)
         d->member_aux[k] = tmp.aux;
   }
   return st;
}

static int
graph_ext_inst(struct rg *g, const uint32_t *in, uint32_t wc, size_t at, uint32_t index)
{
   if (wc < 5)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: short OpExtInst", at);
   struct rg_id *set = rg_get(g, in[3]);
   if (!set || set->kind != RG_IMPORT)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpExtInst of no imported set", at);
   if (set->is_me)
      return graph_me(g, in, wc, at, index);
   if (!set->is_tosa)
      return TOSA_REF_OK; /* NonSemantic debug information and the like */
   struct rg_inst x = {
       .name = ref_graph_tosa_name(in[4]),
       .result_type = in[1],
       .result = in[2],
       .ops = in + 5,
       .count = wc - 5,
       .index = index,
   };
   if (!x.name)
      return rg_fail(g, TOSA_REF_UNSUPPORTED, "word %zu: TOSA.001000.1 has no instruction %u", at,
                     in[4]);
   struct rg_id *type = rg_get(g, x.result_type);
   if (type && type->kind == RG_TYPE_STRUCT)
      return graph_multi_result(g, &x, in[4], type);
   if (!type || type->kind != RG_TYPE_TENSOR)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): result type is no tensor", index,
                     x.name);
   struct rg_out o = {.value = tensor_of_type(type)};
   struct rg_aux aux = {0};
   if (!o.value)
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   int st = eval_inst(g, &x, in[4], &o, &aux);
   if (st == TOSA_REF_NO_MEMORY)
      rg_fail(g, st, "out of memory");
   struct rg_id *d = st >= 0 ? rg_def(g, x.result, RG_VALUE) : NULL;
   if (st >= 0 && !d) {
      st = rg_fail(g, TOSA_REF_BAD_ARGUMENT, "operator %u (%s): bad or repeated result id", index,
                   x.name);
   }
   if (st < 0) {
      rg_out_free(&o);
      return st;
   }
   d->type = x.result_type;
   d->tensor = o.value;
   d->runtime = true;
   struct rg_id *src = in[4] == RG_TOSA_RESHAPE && x.count > 0 ? rg_get(g, x.ops[0]) : NULL;
   if (src && src->aux >= 0 &&
       reshape_aux(g, &g->aux[src->aux], o.value, &aux, &o) != TOSA_REF_OK) {
      o.value = NULL;
      rg_out_free(&o);
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   }
   aux.fp64 = o.fp64;
   aux.bound = o.bound;
   aux.lo = o.lo;
   aux.hi = o.hi;
   if (add_aux(g, d, &aux) != TOSA_REF_OK) {
      o.value = NULL;
      rg_out_free(&o);
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   }
   return st;
}

static int
graph_output(struct rg *g, const uint32_t *in, uint32_t wc, size_t at)
{
   struct rg_id *v = wc >= 3 ? rg_get(g, in[1]) : NULL;
   struct rg_id *idx = wc >= 3 ? rg_get(g, in[2]) : NULL;
   if (!v || v->kind != RG_VALUE || !idx || idx->kind != RG_SCALAR)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpGraphSetOutputARM operands", at);
   if (wc > 3)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: output arrays are not evaluated", at);
   if (idx->bits >= REF_GRAPH_MAX_OUTPUTS)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: output index %llu", at,
                     (unsigned long long)idx->bits);
   struct ref_graph_result *res = g->res;
   uint32_t k = (uint32_t)idx->bits;
   struct ref_graph_output *out = &res->outputs[k];
   if (out->value)
      return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: output %u set twice", at, k);
   /* The result owns copies, so that the id table can be freed. */
   const struct ref_tensor *src = v->tensor;
   if (!(out->value = like(src, src->dtype)))
      return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
   memcpy(out->value->data, src->data, (size_t)src->count * ref_dtype_size(src->dtype));
   out->tol = tosa_ref_tolerance(TOSA_REF_OP_RESHAPE, src->dtype, TOSA_REF_ROUND_SINGLE);
   out->op_name = "input";
   if (v->aux >= 0) {
      struct rg_aux *a = &g->aux[v->aux];
      struct ref_tensor **from[4] = {&a->fp64, &a->bound, &a->lo, &a->hi};
      struct ref_tensor **to[4] = {&out->fp64, &out->bound, &out->lo, &out->hi};
      for (unsigned i = 0; i < 4; i++) {
         if (!*from[i])
            continue;
         if (!(*to[i] = like(*from[i], (*from[i])->dtype)))
            return rg_fail(g, TOSA_REF_NO_MEMORY, "out of memory");
         memcpy((*to[i])->data, (*from[i])->data,
                (size_t)(*from[i])->count * ref_dtype_size((*from[i])->dtype));
      }
      out->tol = a->tol;
      out->dot = a->dot;
      out->out_unsigned = a->out_unsigned;
      out->op_name = a->op_name;
   }
   if (k + 1 > res->output_count)
      res->output_count = k + 1;
   return TOSA_REF_OK;
}

static int
evaluate(struct rg *g, size_t graph_at, const struct ref_tensor *const *inputs,
         uint32_t input_count)
{
   int status = TOSA_REF_OK;
   uint32_t index = 0;
   for (size_t at = graph_at + (g->w[graph_at] >> 16); at < g->n;) {
      uint32_t wc = g->w[at] >> 16, op = g->w[at] & 0xffff;
      const uint32_t *in = &g->w[at];
      int st = TOSA_REF_OK;
      switch (op) {
      case RG_OP_GRAPH_INPUT: {
         struct rg_id *type = wc >= 4 ? rg_get(g, in[1]) : NULL;
         struct rg_id *idx = wc >= 4 ? rg_get(g, in[3]) : NULL;
         if (!type || type->kind != RG_TYPE_TENSOR || !idx || idx->kind != RG_SCALAR || wc > 4)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: OpGraphInputARM", at);
         if (idx->bits >= input_count || !inputs[idx->bits])
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "graph input %llu: no data given",
                           (unsigned long long)idx->bits);
         if (!same_type(inputs[idx->bits], type))
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT,
                           "graph input %llu: the data's type or shape is not the declared one",
                           (unsigned long long)idx->bits);
         struct rg_id *d = rg_def(g, in[2], RG_VALUE);
         if (!d)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: bad or repeated result id", at);
         d->type = in[1];
         d->tensor = (struct ref_tensor *)inputs[idx->bits];
         d->borrowed = true;
         d->runtime = true;
         break;
      }
      case RG_OP_EXT_INST:
         st = graph_ext_inst(g, in, wc, at, index);
         if (st != TOSA_REF_OK ||
             (rg_get(g, in[3]) && (rg_get(g, in[3])->is_tosa || rg_get(g, in[3])->is_me)))
            index++;
         break;
      case RG_OP_GRAPH_SET_OUTPUT:
         st = graph_output(g, in, wc, at);
         break;
      case RG_OP_COMPOSITE_EXTRACT:
         st = graph_extract(g, in, wc, at);
         break;
      case RG_OP_GRAPH_END:
         g->res->operator_count = index;
         if (g->res->output_count == 0)
            return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "the graph sets no output");
         for (uint32_t k = 0; k < g->res->output_count; k++) {
            if (!g->res->outputs[k].value)
               return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "output %u is not set", k);
         }
         return status;
      default:
         return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "word %zu: opcode %u in a graph body", at, op);
      }
      if (st < 0)
         return st;
      status = worse(status, st);
      at += wc;
   }
   return rg_fail(g, TOSA_REF_BAD_ARGUMENT, "the graph has no OpGraphEndARM");
}

int
ref_graph_eval(const uint32_t *words, size_t word_count, const char *entry,
               const struct ref_tensor *const *inputs, uint32_t input_count,
               const struct ref_graph_constant *constants, uint32_t constant_count,
               struct ref_graph_result *res)
{
   memset(res, 0, sizeof(*res));
   struct rg g = {.w = words, .n = word_count, .res = res};
   if (!words || word_count < 5 || words[0] != 0x07230203u || words[3] > (1u << 22))
      return rg_fail(&g, TOSA_REF_BAD_ARGUMENT, "not a SPIR-V module");
   g.bound = words[3];
   g.ids = calloc(g.bound ? g.bound : 1, sizeof(*g.ids));
   if (!g.ids)
      return rg_fail(&g, TOSA_REF_NO_MEMORY, "out of memory");
   size_t graph_at = 0;
   int st = declare(&g, entry, constants, constant_count, &graph_at);
   if (st == TOSA_REF_OK)
      st = evaluate(&g, graph_at, inputs, input_count);
   if (st != TOSA_REF_OK && res->status == TOSA_REF_OK)
      rg_fail(&g, st, "%s", st == TOSA_REF_NO_MEMORY ? "out of memory" : tosa_ref_status_name(st));
   for (uint32_t i = 0; i < g.bound; i++) {
      free(g.ids[i].vals);
      if (!g.ids[i].borrowed)
         ref_tensor_destroy(g.ids[i].tensor);
      ref_tensor_destroy(g.ids[i].member[0]);
      ref_tensor_destroy(g.ids[i].member[1]);
   }
   for (uint32_t i = 0; i < g.aux_count; i++) {
      ref_tensor_destroy(g.aux[i].fp64);
      ref_tensor_destroy(g.aux[i].bound);
      ref_tensor_destroy(g.aux[i].lo);
      ref_tensor_destroy(g.aux[i].hi);
   }
   free(g.aux);
   free(g.ids);
   return res->status;
}

void
ref_graph_result_finish(struct ref_graph_result *res)
{
   for (uint32_t k = 0; k < REF_GRAPH_MAX_OUTPUTS; k++) {
      struct ref_graph_output *o = &res->outputs[k];
      ref_tensor_destroy(o->value);
      ref_tensor_destroy(o->fp64);
      ref_tensor_destroy(o->bound);
      ref_tensor_destroy(o->lo);
      ref_tensor_destroy(o->hi);
   }
   memset(res, 0, sizeof(*res));
}
