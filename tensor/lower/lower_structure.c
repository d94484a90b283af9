/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The first pass: the function-body structure the block splitting
 * (lower_blocks.c) relies on, checked before anything is rewritten (issue 15).
 * Not a SPIR-V validator: what the lowering passes through untouched is the
 * driver's and the validation layer's to judge. These are the rules whose
 * violation would make the lowering itself emit invalid SPIR-V (a second
 * OpLoopMerge in a block gave the new continue block twice, one id defined
 * twice), so a module breaking one is refused with
 * VK_ERROR_INITIALIZATION_FAILED:
 *  - functions: OpFunction, OpFunctionParameter*, then blocks, OpFunctionEnd;
 *    no function left open at the end of the module;
 *  - blocks: OpLabel first, exactly one terminator last, nothing between a
 *    terminator and the next OpLabel / OpFunctionEnd;
 *  - at most one merge instruction per block, immediately before the
 *    terminator (OpBranch or OpBranchConditional after OpLoopMerge,
 *    OpBranchConditional or OpSwitch after OpSelectionMerge), its merge and
 *    continue targets labels;
 *  - OpPhi only at the start of a block, with (value, parent label) pairs
 *    whose values are not labels and whose parents branch to the block (the
 *    parents of split blocks are renamed to their last part);
 *  - Function-storage OpVariable only at the start of a function's first
 *    block (the lowering adds its own variables after them), and nowhere else;
 *  - branch targets are labels; a block branching to itself has an OpLoopMerge.
 * Ids defined twice, ids out of range and truncated instructions are the
 * shared reader's checks (spirv_reader_init()).
 */
#include "tsr_lower_private.h"

#include <stdlib.h>

#include "lyr_alloc.h"

enum where {
   OUTSIDE,   /* between functions */
   FUNC_HEAD, /* after OpFunction, before its first OpLabel */
   IN_BLOCK,  /* after an OpLabel, before its terminator */
   BETWEEN,   /* after a terminator, before the next OpLabel or OpFunctionEnd */
};

struct walk {
   enum where where;
   uint32_t label;   /* the current block's label */
   uint32_t merge;   /* opcode of the block's merge instruction, or 0 */
   bool merge_last;  /* the previous instruction was the merge instruction */
   bool first_block; /* the current block is its function's first */
   bool past_phis;   /* a non-OpPhi instruction was seen in the block */
   bool past_vars;   /* a non-OpVariable instruction was seen in the first block */
   uint64_t *edges;  /* (from << 32 | to) of every branch, sorted after the walk */
   size_t edge_count;
   uint64_t *phis; /* (parent << 32 | block) of every OpPhi pair */
   uint32_t *phi_offsets;
   size_t phi_count;
};

static bool
is_terminator(uint32_t op)
{
   switch (op) {
   case SpvOpBranch:
   case SpvOpBranchConditional:
   case SpvOpSwitch:
   case SpvOpKill:
   case SpvOpReturn:
   case SpvOpReturnValue:
   case SpvOpUnreachable:
   case SpvOpTerminateInvocation:
   case SpvOpIgnoreIntersectionKHR:
   case SpvOpTerminateRayKHR:
   case SpvOpEmitMeshTasksEXT:
      return true;
   default:
      return false;
   }
}

static const char *
name_of(uint32_t op)
{
   switch (op) {
   case SpvOpLabel:
      return "OpLabel";
   case SpvOpLoopMerge:
      return "OpLoopMerge";
   case SpvOpSelectionMerge:
      return "OpSelectionMerge";
   case SpvOpPhi:
      return "OpPhi";
   case SpvOpBranch:
      return "OpBranch";
   case SpvOpBranchConditional:
      return "OpBranchConditional";
   case SpvOpSwitch:
      return "OpSwitch";
   case SpvOpFunction:
      return "OpFunction";
   case SpvOpFunctionEnd:
      return "OpFunctionEnd";
   default:
      return is_terminator(op) ? "terminator" : tsr_lower_op_name(op);
   }
}

static bool
is_label(const struct tsr_lower *l, uint32_t id)
{
   return tsr_lower_def_opcode(l, id) == SpvOpLabel;
}

/* Checks that w[first..first+n) name labels. */
static bool
labels(struct tsr_lower *l, const struct spirv_inst *inst, const uint32_t *w, uint32_t first,
       uint32_t n, const char *what)
{
   if (inst->word_count < first + n)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "%s: %u words, too few for its operands", name_of(inst->opcode),
                            inst->word_count);
   for (uint32_t i = first; i < first + n; i++)
      if (!is_label(l, w[i]))
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "%s: %s %%%u is not an OpLabel", name_of(inst->opcode), what, w[i]);
   return true;
}

static bool
check_phi(struct tsr_lower *l, struct walk *s, const struct spirv_inst *inst, const uint32_t *w)
{
   if (inst->word_count < 5 || (inst->word_count - 3) % 2)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "OpPhi: %u words, not (value, parent) pairs", inst->word_count);
   for (uint32_t i = 3; i + 1 < inst->word_count; i += 2) {
      if (is_label(l, w[i]))
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpPhi: the value %%%u is a label", w[i]);
      if (!is_label(l, w[i + 1]))
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpPhi: the parent %%%u is not an OpLabel", w[i + 1]);
      s->phi_offsets[s->phi_count] = inst->offset;
      s->phis[s->phi_count++] = (uint64_t)w[i + 1] << 32 | s->label;
   }
   return true;
}

static bool
check_merge(struct tsr_lower *l, struct walk *s, const struct spirv_inst *inst, const uint32_t *w)
{
   if (s->merge)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "%s: a second merge instruction in block %%%u", name_of(inst->opcode),
                            s->label);
   s->merge = inst->opcode;
   s->merge_last = true;
   return inst->opcode == SpvOpLoopMerge ? labels(l, inst, w, 1, 2, "target")
                                         : labels(l, inst, w, 1, 1, "target");
}

static bool
check_terminator(struct tsr_lower *l, struct walk *s, const struct spirv_inst *inst,
                 const uint32_t *w)
{
   uint32_t op = inst->opcode;
   if (s->merge == SpvOpLoopMerge && op != SpvOpBranch && op != SpvOpBranchConditional)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "block %%%u: OpLoopMerge before a %s, not a branch", s->label,
                            name_of(op));
   if (s->merge == SpvOpSelectionMerge && op != SpvOpBranchConditional && op != SpvOpSwitch)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "block %%%u: OpSelectionMerge before a %s, not a conditional branch",
                            s->label, name_of(op));
   s->where = BETWEEN;
   /* A one-block loop is split around its accesses with a new continue block
    * (lower_blocks.c); a block branching to itself must say it is a loop. */
   bool to_self = (op == SpvOpBranch && inst->word_count >= 2 && w[1] == s->label) ||
                  (op == SpvOpBranchConditional && inst->word_count >= 4 &&
                   (w[2] == s->label || w[3] == s->label));
   if (to_self && s->merge != SpvOpLoopMerge)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "block %%%u branches to itself without an OpLoopMerge", s->label);
   uint32_t first = op == SpvOpBranch ? 1 : 2;
   uint32_t n = op == SpvOpBranchConditional ? 2 : 1;
   if (op != SpvOpBranch && op != SpvOpBranchConditional && op != SpvOpSwitch)
      return true;
   if (!labels(l, inst, w, first, n, op == SpvOpSwitch ? "default" : "target"))
      return false;
   for (uint32_t i = first; i < first + n; i++)
      s->edges[s->edge_count++] = (uint64_t)s->label << 32 | w[i];
   /* OpSwitch's case targets follow literals whose width is the selector's: every word
    * after the default that names a label is taken as a possible target. Extra edges
    * only make the predecessor check below more lenient. */
   for (uint32_t i = 3; op == SpvOpSwitch && i < inst->word_count; i++)
      if (is_label(l, w[i]))
         s->edges[s->edge_count++] = (uint64_t)s->label << 32 | w[i];
   return true;
}

/* An instruction inside a block, other than OpLabel. */
static bool
check_in_block(struct tsr_lower *l, struct walk *s, const struct spirv_inst *inst,
               const uint32_t *w)
{
   uint32_t op = inst->opcode;
   if ((op == SpvOpLoopMerge || op == SpvOpSelectionMerge) && s->merge)
      return check_merge(l, s, inst, w);
   if (s->merge_last && !is_terminator(op))
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "block %%%u: %s between the merge instruction and the terminator",
                            s->label, name_of(op));
   if (op == SpvOpPhi) {
      if (s->past_phis)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "block %%%u: OpPhi after the block's first non-OpPhi instruction",
                               s->label);
      return check_phi(l, s, inst, w);
   }
   if (op != SpvOpLine && op != SpvOpNoLine)
      s->past_phis = true;
   if (op == SpvOpVariable) {
      if (!s->first_block || s->past_vars)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpVariable not at the start of the function's first block");
      if (inst->word_count < 4 || w[3] != SpvStorageClassFunction)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpVariable in a function with a storage class other than Function");
      return true;
   }
   if (op != SpvOpLine && op != SpvOpNoLine)
      s->past_vars = true;
   if (op == SpvOpLoopMerge || op == SpvOpSelectionMerge)
      return check_merge(l, s, inst, w);
   if (is_terminator(op))
      return check_terminator(l, s, inst, w);
   if (op == SpvOpFunction || op == SpvOpFunctionEnd || op == SpvOpFunctionParameter)
      return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                            "block %%%u: %s before the block's terminator", s->label, name_of(op));
   return true;
}

static bool
check_instruction(struct tsr_lower *l, struct walk *s, const struct spirv_inst *inst)
{
   const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
   uint32_t op = inst->opcode;
   if (s->where == IN_BLOCK && op != SpvOpLabel)
      return check_in_block(l, s, inst, w);
   if (op == SpvOpLine || op == SpvOpNoLine)
      return true;
   switch (op) {
   case SpvOpFunction:
      if (s->where != OUTSIDE)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpFunction inside a function (no OpFunctionEnd before it)");
      s->where = FUNC_HEAD;
      return true;
   case SpvOpFunctionParameter:
      if (s->where != FUNC_HEAD)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpFunctionParameter not right after OpFunction");
      return true;
   case SpvOpLabel:
      if (s->where == IN_BLOCK)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "block %%%u has no terminator before OpLabel %%%u", s->label,
                               inst->word_count >= 2 ? w[1] : 0);
      if (s->where == OUTSIDE)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpLabel outside a function");
      s->first_block = s->where == FUNC_HEAD;
      s->where = IN_BLOCK;
      s->label = inst->word_count >= 2 ? w[1] : 0;
      s->merge = 0;
      s->merge_last = s->past_phis = s->past_vars = false;
      return true;
   case SpvOpFunctionEnd:
      if (s->where == OUTSIDE)
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                               "OpFunctionEnd outside a function");
      s->where = OUTSIDE;
      return true;
   case SpvOpVariable:
      if (s->where == OUTSIDE) {
         if (inst->word_count >= 4 && w[3] == SpvStorageClassFunction)
            return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset,
                                  "OpVariable of storage class Function outside a function");
         return true;
      }
      break;
   default:
      if (s->where == OUTSIDE && op != SpvOpPhi && op != SpvOpLoopMerge &&
          op != SpvOpSelectionMerge && !is_terminator(op))
         return true;
      break;
   }
   static const char *const places[] = {"outside a function", "before the function's first OpLabel",
                                        "in a block", "after a block's terminator"};
   return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, inst->offset, "%s %s", name_of(op),
                         places[s->where]);
}

static int
compare_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* Every OpPhi parent branches to the phi's block: lower_blocks.c renames the parents of
 * split blocks to their last part, which is right only for a real predecessor. */
static bool
check_phi_parents(struct tsr_lower *l, struct walk *s)
{
   if (!s->phi_count)
      return true;
   qsort(s->edges, s->edge_count, sizeof(uint64_t), compare_u64);
   for (size_t i = 0; i < s->phi_count; i++) {
      if (!bsearch(&s->phis[i], s->edges, s->edge_count, sizeof(uint64_t), compare_u64))
         return tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, s->phi_offsets[i],
                               "OpPhi: the parent %%%u does not branch to block %%%u",
                               (uint32_t)(s->phis[i] >> 32), (uint32_t)s->phis[i]);
   }
   return true;
}

bool
tsr_lower_structure(struct tsr_lower *l)
{
   struct walk s = {.where = OUTSIDE};
   /* At most one edge or phi pair per word of the branches and phis. */
   size_t edge_words = 0, phi_words = 0;
   for (uint32_t i = 0; i < l->r.inst_count; i++) {
      uint32_t op = l->r.insts[i].opcode;
      if (op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch)
         edge_words += l->r.insts[i].word_count;
      else if (op == SpvOpPhi)
         phi_words += l->r.insts[i].word_count;
   }
   size_t bytes = (edge_words + phi_words) * sizeof(uint64_t) + phi_words * sizeof(uint32_t);
   uint8_t *mem = bytes ? lyr_alloc(l->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND) : NULL;
   if (bytes && !mem)
      return tsr_lower_fail(l, VK_ERROR_OUT_OF_HOST_MEMORY, 0,
                            "out of memory for the control-flow check (%zu bytes)", bytes);
   if (mem) { /* no offsets on a null pointer (UB) when there is nothing to record */
      s.edges = (uint64_t *)mem;
      s.phis = s.edges + edge_words;
      s.phi_offsets = (uint32_t *)(s.phis + phi_words);
   }

   bool good = true;
   for (uint32_t i = 0; i < l->r.inst_count && good; i++)
      good = check_instruction(l, &s, &l->r.insts[i]);
   if (good && s.where != OUTSIDE)
      good = tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, l->r.word_count,
                            "the module ends inside a function (no OpFunctionEnd)");
   if (good)
      good = check_phi_parents(l, &s);
   lyr_free(l->alloc, mem);
   return good;
}
