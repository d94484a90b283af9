/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * tosa_model_read(): a .tosa file into struct tosa_model (tosa_model.h), parsed with the
 * bounded reader and validated before anything is lowered. Field numbers are those of the
 * TOSA 1.0 schema (tests/tosa/schema/tosa.fbs): TosaGraph{version 0, regions 1},
 * Version{major 0, minor 1, patch 2, draft 3}, TosaRegion{name 0, blocks 1},
 * TosaBasicBlock{name 0, operators 1, tensors 2, inputs 3, outputs 4},
 * TosaOperator{op 0, attribute type 1, attribute 2, inputs 3, outputs 4},
 * TosaTensor{name 0, shape 1, type 2, data 3, variable 4, is_unranked 5}.
 */
#include "tosa_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[TOSA_OP_COUNT] = {
   NULL, "ARGMAX", "AVG_POOL2D", "CONV2D", "CONV3D", "DEPTHWISE_CONV2D", "FFT2D", "MATMUL",
   "MAX_POOL2D", "RFFT2D", "TRANSPOSE_CONV2D", "CLAMP", "ERF", "SIGMOID", "TANH", "ADD",
   "ARITHMETIC_RIGHT_SHIFT", "BITWISE_AND", "BITWISE_OR", "BITWISE_XOR", "INTDIV",
   "LOGICAL_AND", "LOGICAL_LEFT_SHIFT", "LOGICAL_RIGHT_SHIFT", "LOGICAL_OR", "LOGICAL_XOR",
   "MAXIMUM", "MINIMUM", "MUL", "POW", "SUB", "TABLE", "ABS", "BITWISE_NOT", "CEIL", "CLZ",
   "COS", "EXP", "FLOOR", "LOG", "LOGICAL_NOT", "NEGATE", "RECIPROCAL", "RSQRT", "SIN",
   "SELECT", "EQUAL", "GREATER", "GREATER_EQUAL", "REDUCE_ALL", "REDUCE_ANY", "REDUCE_MAX",
   "REDUCE_MIN", "REDUCE_PRODUCT", "REDUCE_SUM", "CONCAT", "PAD", "RESHAPE", "REVERSE",
   "SLICE", "TILE", "TRANSPOSE", "GATHER", "SCATTER", "RESIZE", "CAST", "RESCALE", "CONST",
   "IDENTITY", "CUSTOM", "COND_IF", "WHILE_LOOP", "VARIABLE", "VARIABLE_WRITE",
   "VARIABLE_READ", "CONST_SHAPE",
};

static const char *const dtype_names[TOSA_DT_COUNT] = {
   "UNKNOWN", "BOOL", "INT4", "INT8", "INT16", "INT32", "INT48",
   "FP32", "FP16", "BF16", "SHAPE", "FP8E4M3", "FP8E5M2",
};

const char *
tosa_op_name(uint32_t op)
{
   return op < TOSA_OP_COUNT ? op_names[op] : NULL;
}

const char *
tosa_dtype_name(uint32_t dtype)
{
   return dtype < TOSA_DT_COUNT ? dtype_names[dtype] : NULL;
}

uint32_t
tosa_dtype_size(enum tosa_dtype dtype)
{
   static const uint8_t sizes[TOSA_DT_COUNT] = {0, 1, 0, 1, 2, 4, 6, 4, 2, 2, 8, 1, 1};
   return (unsigned)dtype < TOSA_DT_COUNT ? sizes[dtype] : 0;
}

bool
tosa_is_flatbuffer(const void *data, size_t size)
{
   return size >= 8 && memcmp((const uint8_t *)data + 4, "TOSA", 4) == 0;
}

struct reader {
   struct tosa_model *m;
   struct tosa_fb *fb;
   uint32_t *by_name; /* tensor indices sorted by name */
};

static bool
fail(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool
fail(struct reader *rd, const char *fmt, ...)
{
   if (rd->fb->failed)
      return false;
   rd->fb->failed = true;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(rd->fb->err, sizeof(rd->fb->err), fmt, ap);
   va_end(ap);
   return false;
}

static int
name_cmp(const char *a, uint32_t alen, const char *b, uint32_t blen)
{
   int c = memcmp(a, b, alen < blen ? alen : blen);
   return c ? c : (alen > blen) - (alen < blen);
}

static int
cmp_tensors(const struct tosa_tensor *t, uint32_t a, uint32_t b)
{
   return name_cmp(t[a].name, t[a].name_len, t[b].name, t[b].name_len);
}

/* Sorts idx[0..n) by tensor name: a bottom-up merge sort through tmp (qsort has no context). */
static void
sort_by_name(const struct tosa_tensor *t, uint32_t *idx, uint32_t *tmp, uint32_t n)
{
   for (uint32_t width = 1; width < n; width *= 2) {
      for (uint32_t lo = 0; lo < n; lo += 2 * width) {
         uint32_t mid = lo + width < n ? lo + width : n;
         uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
         uint32_t i = lo, j = mid, k = lo;
         while (i < mid && j < hi)
            tmp[k++] = cmp_tensors(t, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
         while (i < mid)
            tmp[k++] = idx[i++];
         while (j < hi)
            tmp[k++] = idx[j++];
      }
      memcpy(idx, tmp, n * sizeof(*idx));
   }
}

static int32_t
find_tensor(const struct reader *rd, const char *name, uint32_t len)
{
   uint32_t lo = 0, hi = rd->m->tensor_count;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      const struct tosa_tensor *t = &rd->m->tensors[rd->by_name[mid]];
      int c = name_cmp(name, len, t->name, t->name_len);
      if (c == 0)
         return (int32_t)rd->by_name[mid];
      if (c < 0)
         hi = mid;
      else
         lo = mid + 1;
   }
   return -1;
}

static bool
read_tensor(struct reader *rd, const struct tosa_fb_vec *vec, uint32_t i)
{
   struct tosa_fb *fb = rd->fb;
   struct tosa_tensor *t = &rd->m->tensors[i];
   struct tosa_fb_table tt;
   struct tosa_fb_vec shape, data;
   uint32_t dtype;
   bool variable, unranked;
   t->producer = t->block_input = -1;
   if (!tosa_fb_vec_table(fb, vec, i, "TosaBasicBlock.tensors", &tt) ||
       !tosa_fb_string_field(fb, &tt, 0, "TosaTensor.name", TOSA_MAX_NAME, &t->name,
                             &t->name_len) ||
       !tosa_fb_vec_field(fb, &tt, 1, "TosaTensor.shape", 4, 64, &shape) ||
       !tosa_fb_u32(fb, &tt, 2, "TosaTensor.type", 0, &dtype) ||
       !tosa_fb_vec_field(fb, &tt, 3, "TosaTensor.data", 1, UINT32_MAX, &data) ||
       !tosa_fb_bool(fb, &tt, 4, "TosaTensor.variable", &variable) ||
       !tosa_fb_bool(fb, &tt, 5, "TosaTensor.is_unranked", &unranked))
      return false;
   const char *name = t->name_len ? t->name : "(unnamed)";
   int nl = (int)(t->name_len ? t->name_len : 9);
   if (!t->name_len)
      return fail(rd, "tensor %u has no name (offset %llu)", i, (unsigned long long)tt.pos);
   /* offset (7) and size (8), ulong: data stored outside the flatbuffer (models over 2 GB;
    * an offset of 0 or 1 means none). */
   uint64_t ext_at = tosa_fb_field(fb, &tt, 7, 8, "TosaTensor.offset");
   uint64_t size_at = tosa_fb_field(fb, &tt, 8, 8, "TosaTensor.size");
   if (fb->failed)
      return false;
   uint32_t ext_lo = ext_at ? tosa_fb_load_u32(fb, ext_at) : 0;
   uint32_t ext_hi = ext_at ? tosa_fb_load_u32(fb, ext_at + 4) : 0;
   uint32_t size_lo = size_at ? tosa_fb_load_u32(fb, size_at) : 0;
   uint32_t size_hi = size_at ? tosa_fb_load_u32(fb, size_at + 4) : 0;
   if (ext_lo > 1 || ext_hi || size_lo || size_hi)
      return fail(rd, "tensor \"%.*s\": data stored outside the flatbuffer (TosaTensor.offset/"
                  "size, models over 2 GB) is not supported", nl, name);
   if (variable)
      return fail(rd, "tensor \"%.*s\": variable tensors (EXT-VARIABLE) are not supported", nl,
                  name);
   if (unranked)
      return fail(rd, "tensor \"%.*s\": unranked tensors are not supported", nl, name);
   if (dtype == TOSA_DT_INT4)
      return fail(rd, "tensor \"%.*s\": int4 (EXT-INT4) is not supported", nl, name);
   if (dtype == TOSA_DT_UNKNOWN || dtype >= TOSA_DT_COUNT)
      return fail(rd, "tensor \"%.*s\": unknown type %u (TosaTensor.type at offset %llu)", nl,
                  name, dtype, (unsigned long long)tt.pos);
   t->dtype = (enum tosa_dtype)dtype;
   if (shape.count == 0)
      return fail(rd, "tensor \"%.*s\": rank-0 tensors are not supported", nl, name);
   if (shape.count > TOSA_MAX_RANK)
      return fail(rd, "tensor \"%.*s\": rank %u is more than %d", nl, name, shape.count,
                  TOSA_MAX_RANK);
   t->rank = shape.count;
   t->elements = 1;
   for (uint32_t d = 0; d < shape.count; d++) {
      int32_t dim = (int32_t)tosa_fb_load_u32(fb, shape.pos + 4 * (uint64_t)d);
      if (dim <= 0)
         return fail(rd, "tensor \"%.*s\": dimension %u is %d (dynamic or empty shapes are not "
                     "supported)", nl, name, d, dim);
      t->dims[d] = dim;
      t->elements *= (uint64_t)dim;
      if (t->elements > (UINT64_C(1) << 32))
         return fail(rd, "tensor \"%.*s\": more than 2^32 elements", nl, name);
   }
   if (data.count) {
      uint64_t want = t->elements * tosa_dtype_size(t->dtype);
      /* SHAPE values are int64; accept the int32 form too. */
      bool ok = data.count == want ||
                (t->dtype == TOSA_DT_SHAPE && data.count == t->elements * 4);
      if (!ok)
         return fail(rd, "tensor \"%.*s\": %u bytes of data for %llu %s elements", nl, name,
                     data.count, (unsigned long long)t->elements, dtype_names[t->dtype]);
      t->data = fb->data + data.pos;
      t->data_len = data.count;
   }
   return true;
}

static bool
read_names(struct reader *rd, const struct tosa_fb_vec *v, const char *what, uint32_t *out)
{
   for (uint32_t i = 0; i < v->count; i++) {
      const char *s;
      uint32_t len;
      if (!tosa_fb_vec_string(rd->fb, v, i, what, TOSA_MAX_NAME, &s, &len))
         return false;
      int32_t t = find_tensor(rd, s, len);
      if (t < 0)
         return fail(rd, "%s[%u]: no tensor is named \"%.*s\"", what, i, (int)len, s);
      out[i] = (uint32_t)t;
   }
   return true;
}

static bool
read_operator(struct reader *rd, const struct tosa_fb_vec *vec, uint32_t i, uint32_t **storage)
{
   struct tosa_fb *fb = rd->fb;
   struct tosa_operator *o = &rd->m->operators[i];
   struct tosa_fb_table ot;
   struct tosa_fb_vec ins, outs;
   uint8_t attr_type;
   if (!tosa_fb_vec_table(fb, vec, i, "TosaBasicBlock.operators", &ot) ||
       !tosa_fb_u32(fb, &ot, 0, "TosaOperator.op", 0, &o->op) ||
       !tosa_fb_u8(fb, &ot, 1, "TosaOperator.attribute_type", 0, &attr_type) ||
       !tosa_fb_vec_field(fb, &ot, 3, "TosaOperator.inputs", 4, TOSA_MAX_OP_OPERANDS, &ins) ||
       !tosa_fb_vec_field(fb, &ot, 4, "TosaOperator.outputs", 4, TOSA_MAX_OP_OPERANDS, &outs))
      return false;
   o->offset = ot.pos;
   o->attr_type = attr_type;
   const char *name = tosa_op_name(o->op);
   if (!name)
      return fail(rd, "operator %u: unknown operator %u (offset %llu)", i, o->op,
                  (unsigned long long)ot.pos);
   if (attr_type && attr_type != o->op)
      return fail(rd, "operator %u (%s): attribute type %u does not belong to it", i, name,
                  attr_type);
   if (attr_type &&
       !tosa_fb_table_field(fb, &ot, 2, "TosaOperator.attribute", &o->attr, &o->has_attr))
      return false;
   switch (o->op) {
   case TOSA_OP_COND_IF:
   case TOSA_OP_WHILE_LOOP:
      return fail(rd, "operator %u (%s): control flow (EXT-CONTROLFLOW) cannot be expressed in "
                  "a SPIR-V graph", i, name);
   case TOSA_OP_VARIABLE:
   case TOSA_OP_VARIABLE_WRITE:
   case TOSA_OP_VARIABLE_READ:
      return fail(rd, "operator %u (%s): variables (EXT-VARIABLE) are not supported", i, name);
   case TOSA_OP_CUSTOM:
      return fail(rd, "operator %u (%s): custom operators are not supported", i, name);
   default:
      break;
   }
   o->input_count = ins.count;
   o->output_count = outs.count;
   o->inputs = *storage;
   o->outputs = *storage + ins.count;
   *storage += ins.count + outs.count;
   if (!read_names(rd, &ins, "TosaOperator.inputs", o->inputs) ||
       !read_names(rd, &outs, "TosaOperator.outputs", o->outputs))
      return false;
   bool is_const = o->op == TOSA_OP_CONST || o->op == TOSA_OP_CONST_SHAPE;
   if (is_const && (ins.count != 0 || outs.count != 1))
      return fail(rd, "operator %u (%s): %u inputs and %u outputs (want 0 and 1)", i, name,
                  ins.count, outs.count);
   if (!outs.count)
      return fail(rd, "operator %u (%s) has no output", i, name);
   for (uint32_t k = 0; k < ins.count; k++) {
      const struct tosa_tensor *t = &rd->m->tensors[o->inputs[k]];
      if (t->producer < 0 && t->block_input < 0 && !t->data)
         return fail(rd, "operator %u (%s): input %u \"%.*s\" is used before an operator or "
                     "the block's inputs define it", i, name, k, (int)t->name_len, t->name);
   }
   for (uint32_t k = 0; k < outs.count; k++) {
      struct tosa_tensor *t = &rd->m->tensors[o->outputs[k]];
      if (t->producer >= 0 || t->block_input >= 0)
         return fail(rd, "operator %u (%s): output \"%.*s\" is already defined", i, name,
                     (int)t->name_len, t->name);
      if (is_const && !t->data)
         return fail(rd, "operator %u (%s): tensor \"%.*s\" has no data", i, name,
                     (int)t->name_len, t->name);
      if (!is_const && t->data)
         return fail(rd, "operator %u (%s): output \"%.*s\" has constant data", i, name,
                     (int)t->name_len, t->name);
      if ((o->op == TOSA_OP_CONST_SHAPE) != (t->dtype == TOSA_DT_SHAPE))
         return fail(rd, "operator %u (%s): output \"%.*s\" is of type %s", i, name,
                     (int)t->name_len, t->name, dtype_names[t->dtype]);
      t->producer = (int32_t)i;
   }
   return true;
}

static bool
read_block(struct reader *rd, const struct tosa_fb_table *block)
{
   struct tosa_fb *fb = rd->fb;
   struct tosa_model *m = rd->m;
   struct tosa_fb_vec ops, tensors, ins, outs;
   if (!tosa_fb_vec_field(fb, block, 1, "TosaBasicBlock.operators", 4, TOSA_MAX_OPERATORS,
                          &ops) ||
       !tosa_fb_vec_field(fb, block, 2, "TosaBasicBlock.tensors", 4, TOSA_MAX_TENSORS,
                          &tensors) ||
       !tosa_fb_vec_field(fb, block, 3, "TosaBasicBlock.inputs", 4, TOSA_MAX_IO, &ins) ||
       !tosa_fb_vec_field(fb, block, 4, "TosaBasicBlock.outputs", 4, TOSA_MAX_IO, &outs))
      return false;
   m->tensor_count = tensors.count;
   m->operator_count = ops.count;
   m->input_count = ins.count;
   m->output_count = outs.count;
   m->tensors = calloc(tensors.count + 1, sizeof(*m->tensors));
   m->operators = calloc(ops.count + 1, sizeof(*m->operators));
   m->inputs = calloc(ins.count + outs.count + 1, sizeof(*m->inputs));
   rd->by_name = calloc(tensors.count + 1, sizeof(*rd->by_name));
   /* Operands: vectors of 4-byte offsets, all inside the file. */
   uint64_t operand_total = 0;
   for (uint32_t i = 0; i < ops.count && !fb->failed; i++) {
      struct tosa_fb_table ot;
      struct tosa_fb_vec a, b;
      if (tosa_fb_vec_table(fb, &ops, i, "TosaBasicBlock.operators", &ot) &&
          tosa_fb_vec_field(fb, &ot, 3, "TosaOperator.inputs", 4, TOSA_MAX_OP_OPERANDS, &a) &&
          tosa_fb_vec_field(fb, &ot, 4, "TosaOperator.outputs", 4, TOSA_MAX_OP_OPERANDS, &b))
         operand_total += a.count + b.count;
   }
   if (fb->failed)
      return false;
   m->operands = calloc(operand_total + 1, sizeof(*m->operands));
   if (!m->tensors || !m->operators || !m->inputs || !rd->by_name || !m->operands)
      return fail(rd, "out of memory");
   m->outputs = m->inputs + ins.count;
   for (uint32_t i = 0; i < tensors.count; i++) {
      if (!read_tensor(rd, &tensors, i))
         return false;
      rd->by_name[i] = i;
   }
   uint32_t *tmp = malloc((tensors.count + 1) * sizeof(*tmp));
   if (!tmp)
      return fail(rd, "out of memory");
   sort_by_name(m->tensors, rd->by_name, tmp, tensors.count);
   free(tmp);
   for (uint32_t i = 1; i < tensors.count; i++) {
      const struct tosa_tensor *a = &m->tensors[rd->by_name[i - 1]];
      const struct tosa_tensor *b = &m->tensors[rd->by_name[i]];
      if (!name_cmp(a->name, a->name_len, b->name, b->name_len))
         return fail(rd, "two tensors are named \"%.*s\"", (int)a->name_len, a->name);
   }
   if (!read_names(rd, &ins, "TosaBasicBlock.inputs", m->inputs))
      return false;
   for (uint32_t i = 0; i < ins.count; i++) {
      struct tosa_tensor *t = &m->tensors[m->inputs[i]];
      if (t->block_input >= 0 || t->data)
         return fail(rd, "block input %u \"%.*s\" is listed twice or has constant data", i,
                     (int)t->name_len, t->name);
      if (t->dtype == TOSA_DT_SHAPE)
         return fail(rd, "block input %u \"%.*s\": shape inputs (EXT-DYNAMIC) are not "
                     "supported", i, (int)t->name_len, t->name);
      t->block_input = (int32_t)i;
   }
   uint32_t *storage = m->operands;
   for (uint32_t i = 0; i < ops.count; i++) {
      if (!read_operator(rd, &ops, i, &storage))
         return false;
   }
   if (!read_names(rd, &outs, "TosaBasicBlock.outputs", m->outputs))
      return false;
   if (!outs.count)
      return fail(rd, "the block has no outputs");
   for (uint32_t i = 0; i < outs.count; i++) {
      const struct tosa_tensor *t = &m->tensors[m->outputs[i]];
      int32_t p = t->producer;
      bool computed = p >= 0 && m->operators[p].op != TOSA_OP_CONST &&
                      m->operators[p].op != TOSA_OP_CONST_SHAPE;
      if (!computed)
         return fail(rd, "block output %u \"%.*s\" is not computed by an operator (a block "
                     "input or a constant cannot be a graph output)", i, (int)t->name_len,
                     t->name);
      for (uint32_t k = 0; k < i; k++)
         if (m->outputs[k] == m->outputs[i])
            return fail(rd, "block output \"%.*s\" is listed twice", (int)t->name_len,
                        t->name);
   }
   return true;
}

bool
tosa_model_read(const void *data, size_t size, struct tosa_model *m, char *err, size_t err_len)
{
   memset(m, 0, sizeof(*m));
   struct tosa_fb *fb = &m->fb;
   tosa_fb_init(fb, data, size);
   struct reader rd = {.m = m, .fb = fb};
   struct tosa_fb_table root, version, region, block;
   struct tosa_fb_vec regions, blocks;
   bool ok = tosa_fb_root(fb, "TOSA", &root) &&
             tosa_fb_table_field(fb, &root, 0, "TosaGraph.version", &version, NULL) &&
             tosa_fb_i32(fb, &version, 0, "Version._major", -1, &m->version[0]) &&
             tosa_fb_i32(fb, &version, 1, "Version._minor", -1, &m->version[1]) &&
             tosa_fb_i32(fb, &version, 2, "Version._patch", -1, &m->version[2]) &&
             tosa_fb_bool(fb, &version, 3, "Version._draft", &m->draft);
   if (ok && (m->version[0] != 1 || m->version[1] != 0))
      ok = fail(&rd, "TOSA version %d.%d.%d: only 1.0 files are read", m->version[0],
                m->version[1], m->version[2]);
   ok = ok && tosa_fb_vec_field(fb, &root, 1, "TosaGraph.regions", 4, 1024, &regions);
   if (ok && regions.count != 1)
      ok = fail(&rd, "%u regions: only graphs of one region are supported", regions.count);
   ok = ok && tosa_fb_vec_table(fb, &regions, 0, "TosaGraph.regions", &region) &&
        tosa_fb_vec_field(fb, &region, 1, "TosaRegion.blocks", 4, 1024, &blocks);
   if (ok && blocks.count != 1)
      ok = fail(&rd, "%u basic blocks: only one block is supported (control flow is not)",
                blocks.count);
   ok = ok && tosa_fb_vec_table(fb, &blocks, 0, "TosaRegion.blocks", &block) &&
        read_block(&rd, &block);
   free(rd.by_name);
   if (!ok) {
      snprintf(err, err_len, "%s", fb->err[0] ? fb->err : "malformed file");
      tosa_model_finish(m);
      return false;
   }
   return true;
}

void
tosa_model_finish(struct tosa_model *m)
{
   free(m->tensors);
   free(m->operators);
   free(m->inputs);
   free(m->operands);
   m->tensors = NULL;
   m->operators = NULL;
   m->inputs = m->outputs = m->operands = NULL;
}
