/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Writing a built module out: type replacements are applied, non-aggregate
 * types that became identical are merged (SPIR-V 2.8: "two different type
 * <id>s form, by definition, two different types", and the validator rejects
 * duplicate non-aggregate declarations), the global section is sorted so that
 * every id is declared before use (a stable depth-first order, so an already
 * ordered section is left as it is), names and decorations of ids that no
 * longer exist are dropped, and the header's bound is set.
 *
 * Replacements reach type positions only: operands of global-section
 * instructions (spirv_global_inst_ids), result types, and the function type of
 * OpFunction. That is where a type id can appear in a function body.
 */
#include "spirv/spirv_builder.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

#include "lyr_alloc.h"
#include "spirv/spirv_arm_ml.h"

#define NONE UINT32_MAX

/* Appends [first, last] (inclusive, 1-based word indices) to idx. */
static uint32_t
add_range(uint32_t *idx, uint32_t n, uint32_t max, uint32_t first, uint32_t last)
{
   for (uint32_t i = first; i <= last && n < max; i++)
      idx[n++] = i;
   return n;
}

uint32_t
spirv_global_inst_ids(const uint32_t *inst, uint32_t *idx, uint32_t max)
{
   uint32_t opcode = inst[0] & 0xffffu, wc = inst[0] >> 16;
   uint32_t last = wc - 1;
   switch (opcode) {
   case SpvOpTypeVoid:
   case SpvOpTypeBool:
   case SpvOpTypeInt:
   case SpvOpTypeFloat:
   case SpvOpTypeSampler:
   case SpvOpTypeOpaque:
   case SpvOpTypeEvent:
   case SpvOpTypeDeviceEvent:
   case SpvOpTypeReserveId:
   case SpvOpTypeQueue:
   case SpvOpTypePipe:
   case SpvOpTypeForwardPointer:
   case SpvOpTypePipeStorage:
   case SpvOpTypeNamedBarrier:
   case SpvOpTypeAccelerationStructureKHR:
   case SpvOpTypeRayQueryKHR:
   case SpvOpNoLine:
   case SpvOpNop:
      return 0;
   case SpvOpTypeVector:
   case SpvOpTypeMatrix:
   case SpvOpTypeImage:
   case SpvOpTypeSampledImage:
   case SpvOpTypeRuntimeArray:
      return add_range(idx, 0, max, 2, wc > 2 ? 2 : 1);
   case SpvOpTypeArray:
   case SpvOpTypeStruct:
   case SpvOpTypeFunction:
   case SPV_ARM_OP_TYPE_TENSOR:
      return add_range(idx, 0, max, 2, last);
   case SpvOpTypePointer:
      return add_range(idx, 0, max, 3, wc > 3 ? 3 : 2);
   case SPV_ARM_OP_TYPE_GRAPH:
      return add_range(idx, 0, max, 3, last);
   case SpvOpConstantTrue:
   case SpvOpConstantFalse:
   case SpvOpConstant:
   case SpvOpConstantSampler:
   case SpvOpConstantNull:
   case SpvOpSpecConstantTrue:
   case SpvOpSpecConstantFalse:
   case SpvOpSpecConstant:
   case SpvOpUndef:
   case SPV_ARM_OP_GRAPH_CONSTANT:
      return add_range(idx, 0, max, 1, 1);
   case SpvOpConstantComposite:
   case SpvOpSpecConstantComposite:
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT: {
      uint32_t n = add_range(idx, 0, max, 1, 1);
      return add_range(idx, n, max, 3, last);
   }
   case SpvOpVariable: {
      uint32_t n = add_range(idx, 0, max, 1, 1);
      return add_range(idx, n, max, 4, last);
   }
   case SpvOpLine:
      return add_range(idx, 0, max, 1, wc > 1 ? 1 : 0);
   case SpvOpExtInst: {
      uint32_t n = add_range(idx, 0, max, 1, 1);
      n = add_range(idx, n, max, 3, wc > 3 ? 3 : 2);
      return add_range(idx, n, max, 5, last);
   }
   case SpvOpSpecConstantOp: {
      uint32_t n = add_range(idx, 0, max, 1, 1);
      uint32_t inner = wc > 3 ? inst[3] : 0;
      uint32_t ids_end = last;
      if (inner == SpvOpCompositeExtract)
         ids_end = 4;
      else if (inner == SpvOpCompositeInsert || inner == SpvOpVectorShuffle)
         ids_end = 5;
      return add_range(idx, n, max, 4, ids_end < last ? ids_end : last);
   }
   default: {
      bool has_type, has_result;
      spirv_opcode_result_info(opcode, &has_type, &has_result);
      uint32_t n = has_type ? add_range(idx, 0, max, 1, 1) : 0;
      uint32_t first = 1 + (has_type ? 1 : 0) + (has_result ? 1 : 0);
      return add_range(idx, n, max, first, last);
   }
   }
}

/* Types the validator requires to be unique (all but the aggregates and pointers). */
static bool
is_unique_type(uint32_t opcode)
{
   switch (opcode) {
   case SpvOpTypeVoid:
   case SpvOpTypeBool:
   case SpvOpTypeInt:
   case SpvOpTypeFloat:
   case SpvOpTypeVector:
   case SpvOpTypeMatrix:
   case SpvOpTypeImage:
   case SpvOpTypeSampler:
   case SpvOpTypeSampledImage:
   case SpvOpTypeFunction:
      return true;
   default:
      return false;
   }
}

struct writer {
   struct spirv_builder *b;
   const struct spirv_stream *globals;
   uint32_t *offsets; /* uint32_t[count]: word offset of each global instruction */
   uint32_t count;
   uint32_t *def;     /* uint32_t[bound]: index of the defining global instruction, NONE */
   uint32_t *forward; /* uint32_t[bound]: index of an OpTypeForwardPointer, NONE */
   uint8_t *state;    /* per instruction: 0 new, 1 on the stack, 2 placed */
   uint32_t *order;   /* instruction indices in output order */
   uint32_t placed;
   uint32_t *idx; /* uint32_t[IDX_MAX]: operand indices of one instruction */
   struct spirv_memo unique;
};

#define IDX_MAX 0x10000u

static uint32_t
resolve(const struct spirv_builder *b, uint32_t id)
{
   for (uint32_t guard = 0; guard < 64 && id < b->replace_capacity && b->replace[id]; guard++)
      id = b->replace[id];
   return id;
}

static uint32_t
result_id(const uint32_t *inst)
{
   bool has_type, has_result;
   spirv_opcode_result_info(inst[0] & 0xffffu, &has_type, &has_result);
   uint32_t at = has_type ? 2 : 1;
   return has_result && (inst[0] >> 16) > at ? inst[at] : 0;
}

static VkResult
index_globals(struct writer *w)
{
   struct spirv_builder *b = w->b;
   const struct spirv_stream *g = w->globals;
   for (size_t i = 0; i < g->count; i += g->words[i] >> 16)
      w->count++;
   size_t bytes = ((size_t)b->next_id * 2 + IDX_MAX) * sizeof(uint32_t) + (size_t)w->count * 9;
   uint8_t *mem = lyr_alloc(b->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!mem)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   w->def = (uint32_t *)mem;
   w->forward = w->def + b->next_id;
   w->offsets = w->forward + b->next_id;
   w->order = w->offsets + w->count;
   w->idx = w->order + w->count;
   w->state = (uint8_t *)(w->idx + IDX_MAX);
   memset(w->def, 0xff, (size_t)b->next_id * 2 * sizeof(uint32_t));
   memset(w->state, 0, w->count);

   uint32_t n = 0;
   for (size_t i = 0; i < g->count; i += g->words[i] >> 16, n++) {
      const uint32_t *inst = g->words + i;
      w->offsets[n] = (uint32_t)i;
      uint32_t id = result_id(inst);
      if ((inst[0] & 0xffffu) == SpvOpTypeForwardPointer && (inst[0] >> 16) >= 2 &&
          inst[1] < b->next_id)
         w->forward[inst[1]] = n;
      else if (id && id < b->next_id && w->def[id] == NONE)
         w->def[id] = n;
   }
   return VK_SUCCESS;
}

/* The instruction `inst_index` must wait for: the definition of its operand at word k. */
static uint32_t
dependency(const struct writer *w, uint32_t inst_index, uint32_t k)
{
   const uint32_t *inst = w->globals->words + w->offsets[inst_index];
   uint32_t id = resolve(w->b, inst[k]);
   if (id >= w->b->next_id)
      return NONE;
   if ((inst[0] & 0xffffu) == SpvOpTypeStruct && w->forward[id] != NONE)
      return w->forward[id];
   return w->def[id];
}

/* Depth-first placement of instruction `root` after everything it uses. */
static VkResult
place(struct writer *w, uint32_t root, uint32_t *stack, uint32_t *next_operand)
{
   uint32_t *idx = w->idx;
   uint32_t depth = 0;
   stack[depth] = root;
   next_operand[depth] = 0;
   w->state[root] = 1;
   while (depth != NONE) {
      uint32_t cur = stack[depth];
      const uint32_t *inst = w->globals->words + w->offsets[cur];
      uint32_t n = spirv_global_inst_ids(inst, idx, IDX_MAX);
      uint32_t dep = NONE;
      while (next_operand[depth] < n && dep == NONE) {
         uint32_t d = dependency(w, cur, idx[next_operand[depth]++]);
         if (d != NONE && d != cur && w->state[d] != 2) {
            if (w->state[d] == 1) {
               w->b->failure = "dependency cycle in the global section";
               return VK_ERROR_INITIALIZATION_FAILED;
            }
            dep = d;
         }
      }
      if (dep != NONE) {
         depth++;
         stack[depth] = dep;
         next_operand[depth] = 0;
         w->state[dep] = 1;
         continue;
      }
      w->state[cur] = 2;
      w->order[w->placed++] = cur;
      depth = depth ? depth - 1 : NONE;
   }
   return VK_SUCCESS;
}

static VkResult
sort_globals(struct writer *w)
{
   VkResult result = VK_SUCCESS;
   uint32_t *stack = lyr_alloc(w->b->alloc, (size_t)(w->count + 1) * 2 * sizeof(uint32_t), 8,
                               VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!stack)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t i = 0; i < w->count && result == VK_SUCCESS; i++)
      if (w->state[i] == 0)
         result = place(w, i, stack, stack + w->count + 1);
   lyr_free(w->b->alloc, stack);
   return result;
}

/* Emits the global section in sorted order, replaced and merged. */
static VkResult
emit_globals(struct writer *w, struct spirv_stream *out)
{
   struct spirv_builder *b = w->b;
   uint32_t *idx = w->idx;
   for (uint32_t o = 0; o < w->placed; o++) {
      const uint32_t *src = w->globals->words + w->offsets[w->order[o]];
      uint32_t wc = src[0] >> 16, opcode = src[0] & 0xffffu;
      uint32_t id = result_id(src);
      if (id && resolve(b, id) != id)
         continue; /* replaced: its definition goes */
      size_t at = out->count;
      if (!spirv_stream_append(out, b->alloc, src, wc))
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      uint32_t *inst = out->words + at;
      uint32_t n = spirv_global_inst_ids(inst, idx, IDX_MAX);
      for (uint32_t k = 0; k < n; k++)
         inst[idx[k]] = resolve(b, inst[idx[k]]);
      if (!is_unique_type(opcode) || wc < 2)
         continue;
      /* Key: the instruction without its result id, in place. */
      uint32_t saved = inst[1];
      inst[1] = opcode;
      uint32_t same = spirv_memo_lookup(&w->unique, inst + 1, wc - 1);
      if (!same && !spirv_memo_insert(&w->unique, b->alloc, inst + 1, wc - 1, saved))
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      inst[1] = saved;
      if (same) {
         out->count = at;
         spirv_builder_replace_type(b, saved, same);
         if (b->result != VK_SUCCESS)
            return b->result;
      }
   }
   return VK_SUCCESS;
}

static bool
targets_replaced(const struct spirv_builder *b, const uint32_t *inst)
{
   switch (inst[0] & 0xffffu) {
   case SpvOpName:
   case SpvOpMemberName:
   case SpvOpDecorate:
   case SpvOpMemberDecorate:
   case SpvOpDecorateId:
   case SpvOpDecorateString:
   case SpvOpMemberDecorateString:
      return (inst[0] >> 16) >= 2 && resolve(b, inst[1]) != inst[1];
   default:
      return false;
   }
}

/* Appends section s, applying replacements to type positions. */
static VkResult
emit_section(struct spirv_builder *b, enum spirv_section s, struct spirv_stream *out)
{
   const struct spirv_stream *in = &b->sections[s];
   for (size_t i = 0; i < in->count; i += in->words[i] >> 16) {
      const uint32_t *src = in->words + i;
      uint32_t wc = src[0] >> 16, opcode = src[0] & 0xffffu;
      if ((s == SPIRV_SECTION_DEBUG || s == SPIRV_SECTION_ANNOTATION) && targets_replaced(b, src))
         continue;
      size_t at = out->count;
      if (!spirv_stream_append(out, b->alloc, src, wc))
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      if (s != SPIRV_SECTION_FUNCTION || !b->replace_capacity)
         continue;
      uint32_t *inst = out->words + at;
      bool has_type, has_result;
      spirv_opcode_result_info(opcode, &has_type, &has_result);
      if (has_type && wc > 1)
         inst[1] = resolve(b, inst[1]);
      if (opcode == SpvOpFunction && wc > 4)
         inst[4] = resolve(b, inst[4]);
   }
   return VK_SUCCESS;
}

VkResult
spirv_builder_write(struct spirv_builder *b, uint32_t **words, size_t *count)
{
   *words = NULL;
   *count = 0;
   if (b->result != VK_SUCCESS)
      return b->result;

   struct writer w = {.b = b, .globals = &b->sections[SPIRV_SECTION_GLOBAL]};
   struct spirv_stream globals = {0}, out = {0};
   VkResult result = index_globals(&w);
   if (result == VK_SUCCESS)
      result = sort_globals(&w);
   if (result == VK_SUCCESS)
      result = emit_globals(&w, &globals);

   uint32_t header[SPIRV_HEADER_WORDS] = {SPIRV_MAGIC, b->version, b->generator, b->next_id, 0};
   if (result == VK_SUCCESS && !spirv_stream_append(&out, b->alloc, header, SPIRV_HEADER_WORDS))
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
   for (unsigned s = 0; s < SPIRV_SECTION_COUNT && result == VK_SUCCESS; s++) {
      if (s == SPIRV_SECTION_GLOBAL) {
         if (!spirv_stream_append(&out, b->alloc, globals.words, globals.count))
            result = VK_ERROR_OUT_OF_HOST_MEMORY;
      } else {
         result = emit_section(b, s, &out);
      }
   }

   lyr_free(b->alloc, w.def);
   spirv_memo_finish(&w.unique, b->alloc);
   spirv_stream_finish(&globals, b->alloc);
   if (result != VK_SUCCESS) {
      spirv_stream_finish(&out, b->alloc);
      if (b->result == VK_SUCCESS) {
         b->result = result;
         if (!b->failure)
            b->failure = "out of memory writing the module";
      }
      return result;
   }
   *words = out.words;
   *count = out.count;
   return VK_SUCCESS;
}
