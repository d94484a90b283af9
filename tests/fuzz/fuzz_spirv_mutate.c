/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The structure-aware mutator of fuzz_graph and fuzz_lower (D41). A bit flip in a
 * SPIR-V module almost always breaks its header, an instruction's word count or an id,
 * and the decoder stops there; the operator validators, the type-support tables and the
 * stage builders behind them (or the lowering's passes) would see nothing but the seeds.
 * So a module the layers' reader accepts is parsed and changed one instruction at a
 * time, in ways that keep it readable and make it wrong (or differently right):
 *  - an operand id replaced by another id of the same kind (type, constant, value) or
 *    of any kind;
 *  - a type declaration changed: integer width and signedness, float width and
 *    encoding, a tensor's element type, rank and shape, an array's element and length;
 *  - a constant's value set to a boundary value (0, +-1, powers of two and their
 *    neighbours, the extremes of each width, float specials) or nudged by one;
 *  - a composite (a shape array, an attribute vector) with a constituent replaced,
 *    dropped or duplicated;
 *  - an OpExtInst's instruction number changed (another operator on the same operands)
 *    or its operand list edited (dropped, duplicated, swapped operands);
 *  - a fresh scalar constant declared and used in place of an operand;
 *  - an instruction deleted, duplicated with a fresh result id, or swapped with its
 *    neighbour.
 * The module is written back with its bound raised for fresh ids. Inputs the reader
 * refuses, and one call in eight, get libFuzzer's byte mutations instead.
 */
#include "fuzz.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

#include <spirv/unified1/spirv.h>

struct rng {
   uint64_t s;
};

static uint32_t
rnd(struct rng *r)
{
   r->s ^= r->s << 13;
   r->s ^= r->s >> 7;
   r->s ^= r->s << 17;
   return (uint32_t)(r->s >> 16);
}

static uint32_t
below(struct rng *r, uint32_t n)
{
   return n ? rnd(r) % n : 0;
}

enum kind { KIND_NONE, KIND_TYPE, KIND_CONSTANT, KIND_VALUE };

static enum kind
kind_of(uint32_t opcode)
{
   if ((opcode >= SpvOpTypeVoid && opcode <= SpvOpTypeForwardPointer) ||
       opcode == SPV_ARM_OP_TYPE_TENSOR || opcode == SPV_ARM_OP_TYPE_GRAPH)
      return KIND_TYPE;
   if ((opcode >= SpvOpConstantTrue && opcode <= SpvOpSpecConstantOp) ||
       opcode == SPV_ARM_OP_GRAPH_CONSTANT || opcode == SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT ||
       opcode == SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT)
      return KIND_CONSTANT;
   return KIND_VALUE;
}

/* The module being edited: a copy of its words, the reader over the original. */
struct module {
   const struct spirv_reader *r;
   uint32_t *w; /* words, capacity cap */
   size_t count, cap;
   struct rng *rng;
};

/* A random instruction with `opcode` (0: any with at least min_words words), or NULL. */
static const struct spirv_inst *
pick_inst(const struct module *m, uint32_t opcode, uint32_t min_words)
{
   uint32_t n = m->r->inst_count, start = below(m->rng, n);
   for (uint32_t k = 0; k < n; k++) {
      const struct spirv_inst *inst = &m->r->insts[(start + k) % n];
      if ((!opcode || inst->opcode == opcode) && inst->word_count >= min_words)
         return inst;
   }
   return NULL;
}

/* A random defined id of `kind` (KIND_NONE: any), optionally with result type `type`
 * (0: any), or 0. */
static uint32_t
pick_id(const struct module *m, enum kind kind, uint32_t type)
{
   uint32_t n = m->r->inst_count, start = below(m->rng, n);
   for (uint32_t k = 0; k < n; k++) {
      const struct spirv_inst *inst = &m->r->insts[(start + k) % n];
      uint32_t id = spirv_reader_result_id(m->r, inst);
      if (!id || (kind != KIND_NONE && kind_of(inst->opcode) != kind))
         continue;
      if (type && spirv_reader_result_type(m->r, inst) != type)
         continue;
      return id;
   }
   return 0;
}

/* The opcode of the instruction defining id, 0 if none. */
static uint32_t
def_opcode(const struct module *m, uint32_t id)
{
   const struct spirv_inst *d = spirv_reader_def(m->r, id);
   return d ? d->opcode : 0;
}

/* Replaces words [at, at + remove) of m->w by `insert` (count words). */
static bool
splice(struct module *m, size_t at, size_t remove, const uint32_t *insert, size_t count)
{
   if (m->count - remove + count > m->cap || at + remove > m->count)
      return false;
   memmove(m->w + at + count, m->w + at + remove, (m->count - at - remove) * 4);
   if (count)
      memcpy(m->w + at, insert, count * 4);
   m->count = m->count - remove + count;
   return true;
}

static void
set_word_count(struct module *m, size_t at, uint32_t count)
{
   m->w[at] = (m->w[at] & 0xffffu) | count << 16;
}

/* A fresh id: the bound, raised. */
static uint32_t
fresh_id(struct module *m)
{
   if (m->w[3] >= SPIRV_MAX_BOUND)
      return 0;
   return m->w[3]++;
}

static uint32_t
boundary_value(struct rng *r, uint32_t old)
{
   static const uint32_t values[] = {
      0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 127, 128, 255, 256, 0x7fff, 0x8000,
      0xffff, 0x10000, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffffeu, 0xffffff80u,
      0x3f000000u /* 0.5f */, 0x3f800000u /* 1.0f */, 0xbf800000u /* -1.0f */,
      0x80000000u /* -0.0f */, 0x7f800000u /* inf */, 0xff800000u, 0x7fc00000u /* nan */,
      0x00000001u /* denormal */, 0x7f7fffffu /* FLT_MAX */, 0x3c00 /* 1.0h */, 0x7c00 /* inf h */,
   };
   switch (below(r, 4)) {
   case 0:
      return old + 1;
   case 1:
      return old - 1;
   case 2:
      return rnd(r) >> below(r, 32);
   default:
      return values[below(r, sizeof(values) / sizeof(values[0]))];
   }
}

/* An operand id replaced by another of the same kind (or of any kind). */
static bool
mutate_operand(struct module *m)
{
   const struct spirv_inst *inst = pick_inst(m, 0, 2);
   if (!inst)
      return false;
   for (int tries = 0; tries < 8; tries++) {
      uint32_t k = 1 + below(m->rng, inst->word_count - 1);
      uint32_t old = m->w[inst->offset + k];
      uint32_t op = def_opcode(m, old);
      if (!op || spirv_reader_result_id(m->r, inst) == old)
         continue;
      uint32_t id = pick_id(m, below(m->rng, 4) ? kind_of(op) : KIND_NONE, 0);
      if (id && id != old) {
         m->w[inst->offset + k] = id;
         return true;
      }
   }
   return false;
}

static bool
mutate_type(struct module *m)
{
   static const uint32_t types[] = {SpvOpTypeInt, SpvOpTypeFloat, SPV_ARM_OP_TYPE_TENSOR,
                                    SpvOpTypeArray};
   uint32_t opcode = types[below(m->rng, 4)];
   const struct spirv_inst *inst = pick_inst(m, opcode, 2);
   if (!inst)
      return false;
   size_t at = inst->offset;
   uint32_t *w = m->w + at;
   switch (opcode) {
   case SpvOpTypeInt: {
      static const uint32_t widths[] = {1, 8, 16, 32, 48, 64, 0, 128};
      if (inst->word_count != 4)
         return false;
      if (below(m->rng, 2))
         w[2] = widths[below(m->rng, 8)];
      else
         w[3] = below(m->rng, 3);
      return true;
   }
   case SpvOpTypeFloat: {
      static const uint32_t widths[] = {8, 16, 32, 64};
      static const uint32_t encodings[] = {0 /* BFloat16KHR */, 4214 /* Float8E4M3EXT */,
                                           4215 /* Float8E5M2EXT */, 7};
      if (inst->word_count < 3)
         return false;
      switch (below(m->rng, 3)) {
      case 0:
         w[2] = widths[below(m->rng, 4)];
         return true;
      case 1: /* add or change the encoding */
         if (inst->word_count == 4) {
            w[3] = encodings[below(m->rng, 4)];
            return true;
         } else {
            uint32_t enc = encodings[below(m->rng, 4)];
            set_word_count(m, at, 4);
            return splice(m, at + 3, 0, &enc, 1);
         }
      default: /* drop it */
         if (inst->word_count != 4)
            return false;
         set_word_count(m, at, 3);
         return splice(m, at + 3, 1, NULL, 0);
      }
   }
   case SPV_ARM_OP_TYPE_TENSOR: {
      uint32_t k = 2 + below(m->rng, 3);
      if (below(m->rng, 4) == 0 && inst->word_count > 3) {
         /* Fewer operands: unshaped, then unranked. */
         set_word_count(m, at, inst->word_count - 1u);
         return splice(m, at + inst->word_count - 1, 1, NULL, 0);
      }
      if (k >= inst->word_count)
         return false;
      uint32_t id = pick_id(m, k == 2 ? KIND_TYPE : KIND_CONSTANT, 0);
      if (!id)
         return false;
      w[k] = id;
      return true;
   }
   default: /* OpTypeArray: element type or length */
      if (inst->word_count != 4)
         return false;
      if (below(m->rng, 2)) {
         uint32_t id = pick_id(m, KIND_TYPE, 0);
         if (!id)
            return false;
         w[2] = id;
      } else {
         uint32_t id = pick_id(m, KIND_CONSTANT, 0);
         if (!id)
            return false;
         w[3] = id;
      }
      return true;
   }
}

static bool
mutate_constant(struct module *m)
{
   if (below(m->rng, 8) == 0) {
      /* OpConstantTrue <-> OpConstantFalse. */
      const struct spirv_inst *inst =
          pick_inst(m, below(m->rng, 2) ? SpvOpConstantTrue : SpvOpConstantFalse, 3);
      if (!inst)
         return false;
      m->w[inst->offset] ^= SpvOpConstantTrue ^ SpvOpConstantFalse;
      return true;
   }
   const struct spirv_inst *inst = pick_inst(m, SpvOpConstant, 4);
   if (!inst)
      return false;
   uint32_t k = 3 + below(m->rng, inst->word_count - 3u);
   m->w[inst->offset + k] = boundary_value(m->rng, m->w[inst->offset + k]);
   return true;
}

static bool
mutate_composite(struct module *m)
{
   const struct spirv_inst *inst = pick_inst(m, SpvOpConstantComposite, 4);
   if (!inst)
      return false;
   size_t at = inst->offset;
   uint32_t n = inst->word_count - 3u, k = 3 + below(m->rng, n);
   switch (below(m->rng, 4)) {
   case 0: /* drop a constituent */
      set_word_count(m, at, inst->word_count - 1u);
      return splice(m, at + k, 1, NULL, 0);
   case 1: { /* duplicate one */
      uint32_t v = m->w[at + k];
      set_word_count(m, at, inst->word_count + 1u);
      return splice(m, at + k, 0, &v, 1);
   }
   default: { /* replace one by a constant of the same type (or any constant) */
      const struct spirv_inst *d = spirv_reader_def(m->r, m->w[at + k]);
      uint32_t type = d && below(m->rng, 4) ? spirv_reader_result_type(m->r, d) : 0;
      uint32_t id = pick_id(m, KIND_CONSTANT, type);
      if (!id)
         return false;
      m->w[at + k] = id;
      return true;
   }
   }
}

static bool
mutate_ext_inst(struct module *m)
{
   const struct spirv_inst *inst = pick_inst(m, SpvOpExtInst, 5);
   if (!inst)
      return false;
   size_t at = inst->offset;
   uint32_t count = inst->word_count;
   switch (below(m->rng, 5)) {
   case 0: /* another instruction number */
      m->w[at + 4] = below(m->rng, 2) ? m->w[at + 4] + (below(m->rng, 2) ? 1 : -1)
                                      : below(m->rng, 80);
      return true;
   case 1: /* drop an operand */
      if (count <= 5)
         return false;
      set_word_count(m, at, count - 1);
      return splice(m, at + 5 + below(m->rng, count - 5), 1, NULL, 0);
   case 2: { /* duplicate one */
      if (count <= 5)
         return false;
      uint32_t k = 5 + below(m->rng, count - 5);
      uint32_t v = m->w[at + k];
      set_word_count(m, at, count + 1);
      return splice(m, at + k, 0, &v, 1);
   }
   case 3: { /* swap two */
      if (count <= 6)
         return false;
      uint32_t a = 5 + below(m->rng, count - 5), b = 5 + below(m->rng, count - 5);
      uint32_t t = m->w[at + a];
      m->w[at + a] = m->w[at + b];
      m->w[at + b] = t;
      return a != b;
   }
   default: /* another result type */
   {
      uint32_t id = pick_id(m, KIND_TYPE, 0);
      if (!id)
         return false;
      m->w[at + 1] = id;
      return true;
   }
   }
}

/* A fresh OpConstant of an existing integer or float type with a boundary value, declared
 * after the last constant and used by some instruction instead of a constant. */
static bool
mutate_fresh_constant(struct module *m)
{
   const struct spirv_inst *type = pick_inst(m, below(m->rng, 4) ? SpvOpTypeInt : SpvOpTypeFloat, 3);
   const struct spirv_inst *user = pick_inst(m, 0, 2);
   if (!type || !user)
      return false;
   uint32_t width = m->w[type->offset + 2];
   uint32_t type_id = m->w[type->offset + 1];
   /* The end of the types-and-constants section: the first function or graph. */
   size_t end = m->count;
   for (uint32_t i = 0; i < m->r->inst_count; i++) {
      uint32_t op = m->r->insts[i].opcode;
      if (op == SpvOpFunction || op == SPV_ARM_OP_GRAPH) {
         end = m->r->insts[i].offset;
         break;
      }
   }
   if (end <= type->offset)
      return false;
   /* Change the user first: offsets before `end` stay valid after the insertion. */
   uint32_t k = 1 + below(m->rng, user->word_count - 1u);
   if (kind_of(def_opcode(m, m->w[user->offset + k])) != KIND_CONSTANT)
      return false;
   uint32_t id = fresh_id(m);
   if (!id)
      return false;
   m->w[user->offset + k] = id;
   uint32_t inst[5] = {SpvOpConstant | 4u << 16, type_id, id, boundary_value(m->rng, 0), 0};
   uint32_t words = 4;
   if (width == 64) {
      inst[0] = SpvOpConstant | 5u << 16;
      inst[4] = below(m->rng, 2) ? 0 : 0xffffffffu;
      words = 5;
   }
   return splice(m, end, 0, inst, words);
}

/* An instruction deleted, duplicated (with a fresh result id) or swapped with the next. */
static bool
mutate_instruction(struct module *m)
{
   const struct spirv_inst *inst = pick_inst(m, 0, 1);
   if (!inst)
      return false;
   uint32_t i = spirv_reader_inst_index(m->r, inst);
   switch (below(m->rng, 3)) {
   case 0:
      return splice(m, inst->offset, inst->word_count, NULL, 0);
   case 1: {
      uint32_t copy[64];
      if (inst->word_count > 64)
         return false;
      memcpy(copy, m->w + inst->offset, inst->word_count * 4u);
      bool has_type, has_result;
      spirv_opcode_result_info(inst->opcode, &has_type, &has_result);
      if (has_result) {
         uint32_t at = has_type ? 2 : 1, id;
         if (at >= inst->word_count || !(id = fresh_id(m)))
            return false;
         copy[at] = id;
      }
      return splice(m, inst->offset + inst->word_count, 0, copy, inst->word_count);
   }
   default: {
      if (i + 1 >= m->r->inst_count)
         return false;
      const struct spirv_inst *next = &m->r->insts[i + 1];
      uint32_t a[64];
      if (inst->word_count > 64)
         return false;
      memcpy(a, m->w + inst->offset, inst->word_count * 4u);
      memmove(m->w + inst->offset, m->w + next->offset, next->word_count * 4u);
      memcpy(m->w + inst->offset + next->word_count, a, inst->word_count * 4u);
      return true;
   }
   }
}

static size_t
mutate_module(uint8_t *data, size_t size, size_t max_size, struct rng *rng)
{
   size_t count = size / 4, cap = max_size / 4;
   uint32_t *orig = malloc(count * 4), *w = malloc(cap * 4 + 4);
   size_t out = 0;
   struct spirv_reader r;
   if (!orig || !w || cap < count) {
      free(orig);
      free(w);
      return 0;
   }
   memcpy(orig, data, count * 4);
   if (spirv_reader_init(&r, orig, count, NULL, NULL) != VK_SUCCESS || !r.inst_count) {
      spirv_reader_finish(&r);
      free(orig);
      free(w);
      return 0;
   }
   static bool (*const mutators[])(struct module *) = {
      mutate_operand,   mutate_operand,  mutate_type,           mutate_constant,
      mutate_constant,  mutate_composite, mutate_ext_inst,      mutate_ext_inst,
      mutate_fresh_constant, mutate_instruction,
   };
   const size_t n = sizeof(mutators) / sizeof(mutators[0]);
   for (int tries = 0; tries < 16 && !out; tries++) {
      memcpy(w, orig, count * 4);
      struct module m = {&r, w, count, cap, rng};
      bool done = mutators[below(rng, (uint32_t)n)](&m);
      if (done && (m.count != count || memcmp(w, orig, count * 4) != 0)) {
         memcpy(data, w, m.count * 4);
         out = m.count * 4;
      }
   }
   spirv_reader_finish(&r);
   free(orig);
   free(w);
   return out;
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
   struct rng rng = {((uint64_t)seed << 32 | seed) * 0x9e3779b97f4a7c15ull | 1};
   if (size % 4 == 0 && size >= 24 && below(&rng, 8) != 0) {
      size_t out = mutate_module(data, size, max_size, &rng);
      if (out)
         return out;
   }
   return LLVMFuzzerMutate(data, size, max_size);
}
