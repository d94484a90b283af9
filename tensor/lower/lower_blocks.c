/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Splitting blocks around guarded tensor accesses. Every element of a read or
 * write is loaded or stored only when it is in bounds, so the block holding
 * the access is split into `if (in_bounds) { access }` selections:
 *
 *    %L: ...before...  OpSelectionMerge %m None  OpBranchConditional %c %t %m
 *    %t: access        OpBranch %m
 *    %m: ...after...   (the block's original terminator)
 *
 * Three things keep the control flow structured and valid:
 *  - OpPhi parents that named a split block are renamed, after the walk, to
 *    the label of its last part (only phis of the input: ours name our own
 *    labels);
 *  - a loop header holding an access keeps only its phis, its OpLoopMerge and
 *    a branch to a new block where its body continues, because the header
 *    must be the block with the merge instruction;
 *  - a one-block loop (continue target = header) also gets a new continue
 *    block holding just the original terminator, as a selection inside the
 *    loop may not merge into the continue target;
 * and Function variables the lowering needs go at the end of the function's
 * first-block variables.
 */
#include "tsr_lower_private.h"

#define NONE UINT32_MAX

bool
tsr_lower_blocks_prepare(struct tsr_lower *l)
{
   uint32_t label = 0;
   for (uint32_t i = 0; i < l->r.inst_count; i++) {
      const struct spirv_inst *inst = &l->r.insts[i];
      const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
      switch (inst->opcode) {
      case SpvOpLabel:
         label = w[1];
         break;
      case SpvOpLoopMerge:
         if (label)
            l->loop_merge[label] = i;
         break;
      case SPV_ARM_OP_TENSOR_READ:
      case SPV_ARM_OP_TENSOR_WRITE: {
         struct tsr_access a;
         if (!tsr_lower_decode_access(l, w, inst->offset, &a))
            return false;
         if (label)
            l->splits[label] += a.count;
         break;
      }
      default:
         break;
      }
   }
   return true;
}

static void
emit(struct tsr_lower *l, uint32_t opcode, const uint32_t *ops, uint32_t n)
{
   spirv_build_op(&l->b, SPIRV_SECTION_FUNCTION, opcode, ops, n);
}

static void
emit_label(struct tsr_lower *l, uint32_t label)
{
   spirv_build_op(&l->b, SPIRV_SECTION_FUNCTION, SpvOpLabel, &label, 1);
   l->blk.cur_label = label;
}

/* The loop header keeps its phis, the OpLoopMerge and a branch to its body. */
static void
emit_loop_header(struct tsr_lower *l)
{
   const struct spirv_inst *merge = &l->r.insts[l->blk.loop_merge];
   const uint32_t *w = spirv_reader_inst_words(&l->r, merge);
   uint32_t ops[64];
   uint32_t n = merge->word_count - 1 < 64 ? merge->word_count - 1 : 64;
   for (uint32_t i = 0; i < n; i++)
      ops[i] = w[1 + i];
   if (n >= 2 && ops[1] == l->blk.label) {
      l->blk.continue_label = spirv_builder_alloc_id(&l->b);
      ops[1] = l->blk.continue_label;
   }
   emit(l, SpvOpLoopMerge, ops, n);
   uint32_t body = spirv_builder_alloc_id(&l->b);
   emit(l, SpvOpBranch, &body, 1);
   emit_label(l, body);
   l->blk.header_pending = false;
}

/* The block ends (a label or the function's end follows): remember its last part. */
static void
end_block(struct tsr_lower *l)
{
   uint32_t label = l->blk.label;
   if (label && label < l->bound && l->blk.cur_label != label)
      l->label_tail[label] = l->blk.cur_label;
   l->blk = (struct tsr_block){.loop_merge = NONE};
}

bool
tsr_lower_blocks_instruction(struct tsr_lower *l, const uint32_t *w)
{
   uint32_t op = w[0] & 0xffffu;
   switch (op) {
   case SpvOpFunction:
      l->blk = (struct tsr_block){.loop_merge = NONE};
      l->entry_block = false;
      l->var_offset = SIZE_MAX;
      return false;
   case SpvOpFunctionEnd:
      end_block(l);
      return false;
   case SpvOpLabel: {
      uint32_t label = w[1];
      bool first = l->var_offset == SIZE_MAX && !l->entry_block;
      end_block(l);
      l->blk.label = label;
      l->blk.cur_label = label;
      if (label < l->bound && l->splits[label]) {
         l->blk.loop_merge = l->loop_merge[label];
         l->blk.header_pending = l->blk.loop_merge != NONE;
      }
      if (first)
         l->entry_block = true;
      return false;
   }
   default:
      break;
   }
   if (l->entry_block && op != SpvOpVariable && op != SpvOpLine && op != SpvOpNoLine) {
      l->var_offset = spirv_builder_size(&l->b, SPIRV_SECTION_FUNCTION);
      l->entry_block = false;
   }
   if (l->blk.header_pending && op != SpvOpPhi && op != SpvOpLine && op != SpvOpNoLine)
      emit_loop_header(l);
   if (op != SpvOpLoopMerge || l->blk.loop_merge == NONE)
      return false;
   /* The header's own OpLoopMerge was emitted above; the terminator follows. */
   if (l->blk.continue_label) {
      emit(l, SpvOpBranch, &l->blk.continue_label, 1);
      emit_label(l, l->blk.continue_label);
   }
   return true;
}

void
tsr_lower_blocks_begin_if(struct tsr_lower *l, uint32_t cond, uint32_t *pred, uint32_t *then_label)
{
   uint32_t then = spirv_builder_alloc_id(&l->b);
   uint32_t merge = spirv_builder_alloc_id(&l->b);
   uint32_t sel[2] = {merge, SpvSelectionControlMaskNone};
   emit(l, SpvOpSelectionMerge, sel, 2);
   uint32_t br[3] = {cond, then, merge};
   emit(l, SpvOpBranchConditional, br, 3);
   *pred = l->blk.cur_label;
   *then_label = then;
   emit_label(l, then);
   l->blk.open_merge = merge;
}

void
tsr_lower_blocks_end_if(struct tsr_lower *l)
{
   uint32_t merge = l->blk.open_merge;
   emit(l, SpvOpBranch, &merge, 1);
   emit_label(l, merge);
}

uint32_t
tsr_lower_blocks_add_variable(struct tsr_lower *l, uint32_t ptr_type)
{
   uint32_t id = spirv_builder_alloc_id(&l->b);
   uint32_t words[4] = {4u << 16 | SpvOpVariable, ptr_type, id, SpvStorageClassFunction};
   if (l->var_offset == SIZE_MAX) {
      tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, 0, "tensor access outside a function body");
      return 0;
   }
   spirv_builder_insert(&l->b, SPIRV_SECTION_FUNCTION, l->var_offset, words, 4);
   l->var_offset += 4;
   return id;
}

static VkResult
fix_phi(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t wc = w[0] >> 16;
   if ((w[0] & 0xffffu) != SpvOpPhi || wc < 3 || w[2] >= l->bound ||
       (l->flags[w[2]] & TSR_ID_OWN_PHI))
      return VK_SUCCESS;
   bool change = false;
   for (uint32_t i = 4; i < wc; i += 2)
      change |= w[i] < l->bound && l->label_tail[w[i]];
   if (!change)
      return VK_SUCCESS;
   struct spirv_stream *s = &b->sections[SPIRV_SECTION_FUNCTION];
   size_t at = s->count;
   spirv_builder_append(b, SPIRV_SECTION_FUNCTION, w, wc);
   if (spirv_builder_result(b) != VK_SUCCESS)
      return spirv_builder_result(b);
   for (uint32_t i = 4; i < wc; i += 2)
      if (w[i] < l->bound && l->label_tail[w[i]])
         s->words[at + i] = l->label_tail[w[i]];
   *keep = false;
   return VK_SUCCESS;
}

bool
tsr_lower_blocks_fix_phis(struct tsr_lower *l)
{
   VkResult result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_FUNCTION, fix_phi, l);
   if (result != VK_SUCCESS)
      return tsr_lower_fail(l, result, 0, "renaming phi parents: %s",
                            l->b.failure ? l->b.failure : "out of memory");
   return true;
}
