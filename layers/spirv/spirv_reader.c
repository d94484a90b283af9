/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The SPIR-V reader: header validation, the two-pass instruction walk (count,
 * then fill struct spirv_inst[]), the id -> instruction table, and the checked
 * operand accessors with their diagnostics. It knows result ids and result
 * types only (spirv_opcode.c); what operands mean is the caller's business.
 * Nothing here logs: failures are returned with a struct spirv_diag.
 */
#include "spirv/spirv.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lyr_alloc.h"

/* Literal strings are read in place: SPIR-V packs the first character into
 * the lowest-order byte of a word, which is memory order only on a
 * little-endian host. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the SPIR-V reader assumes a little-endian host"
#endif

VkResult
spirv_diag_error(struct spirv_diag *diag, enum spirv_error code, uint32_t offset, const char *fmt,
                 ...)
{
   if (diag) {
      diag->code = code;
      diag->offset = offset;
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(diag->message, sizeof(diag->message), fmt, ap);
      va_end(ap);
   }
   return code == SPIRV_ERR_OUT_OF_MEMORY ? VK_ERROR_OUT_OF_HOST_MEMORY
                                          : VK_ERROR_INITIALIZATION_FAILED;
}

const char *
spirv_error_name(enum spirv_error code)
{
   switch (code) {
   case SPIRV_OK:
      return "SPIRV_OK";
   case SPIRV_ERR_HEADER_TRUNCATED:
      return "SPIRV_ERR_HEADER_TRUNCATED";
   case SPIRV_ERR_MAGIC:
      return "SPIRV_ERR_MAGIC";
   case SPIRV_ERR_BYTE_SWAPPED:
      return "SPIRV_ERR_BYTE_SWAPPED";
   case SPIRV_ERR_VERSION:
      return "SPIRV_ERR_VERSION";
   case SPIRV_ERR_BOUND:
      return "SPIRV_ERR_BOUND";
   case SPIRV_ERR_TOO_LARGE:
      return "SPIRV_ERR_TOO_LARGE";
   case SPIRV_ERR_WORD_COUNT_ZERO:
      return "SPIRV_ERR_WORD_COUNT_ZERO";
   case SPIRV_ERR_INST_TRUNCATED:
      return "SPIRV_ERR_INST_TRUNCATED";
   case SPIRV_ERR_OPERAND_MISSING:
      return "SPIRV_ERR_OPERAND_MISSING";
   case SPIRV_ERR_ID_RANGE:
      return "SPIRV_ERR_ID_RANGE";
   case SPIRV_ERR_ID_DUPLICATE:
      return "SPIRV_ERR_ID_DUPLICATE";
   case SPIRV_ERR_ID_UNDEFINED:
      return "SPIRV_ERR_ID_UNDEFINED";
   case SPIRV_ERR_STRING:
      return "SPIRV_ERR_STRING";
   case SPIRV_ERR_OUT_OF_MEMORY:
      return "SPIRV_ERR_OUT_OF_MEMORY";
   }
   return "SPIRV_ERR_?";
}

VkResult
spirv_check_header(const uint32_t *words, size_t word_count, struct spirv_diag *diag)
{
   if (!words || word_count < SPIRV_HEADER_WORDS)
      return spirv_diag_error(diag, SPIRV_ERR_HEADER_TRUNCATED, 0,
                              "module of %zu words is shorter than the 5-word header",
                              words ? word_count : 0);
   if (word_count > UINT32_MAX)
      return spirv_diag_error(diag, SPIRV_ERR_TOO_LARGE, 0, "module of %zu words is too large",
                              word_count);
   if (words[0] == SPIRV_MAGIC_SWAPPED)
      return spirv_diag_error(diag, SPIRV_ERR_BYTE_SWAPPED, 0,
                              "magic number 0x%08x: module is byte-swapped", words[0]);
   if (words[0] != SPIRV_MAGIC)
      return spirv_diag_error(diag, SPIRV_ERR_MAGIC, 0, "magic number 0x%08x is not 0x%08x",
                              words[0], SPIRV_MAGIC);

   uint32_t version = words[1];
   uint32_t major = (version >> 16) & 0xffu, minor = (version >> 8) & 0xffu;
   if ((version & 0xff0000ffu) != 0 || major != 1 || minor > 6)
      return spirv_diag_error(diag, SPIRV_ERR_VERSION, 1,
                              "version word 0x%08x is not SPIR-V 1.0 to 1.6", version);

   uint32_t bound = words[3];
   if (bound == 0 || bound > SPIRV_MAX_BOUND)
      return spirv_diag_error(diag, SPIRV_ERR_BOUND, 3, "id bound %u is not in 1..%u", bound,
                              SPIRV_MAX_BOUND);
   return VK_SUCCESS;
}

/* Pass 1: checks that the instructions tile the module exactly and counts them. */
static VkResult
count_insts(const uint32_t *words, uint32_t word_count, uint32_t *count, struct spirv_diag *diag)
{
   uint32_t n = 0;
   uint32_t offset = SPIRV_HEADER_WORDS;
   while (offset < word_count) {
      uint32_t wc = words[offset] >> 16;
      if (wc == 0)
         return spirv_diag_error(diag, SPIRV_ERR_WORD_COUNT_ZERO, offset,
                                 "instruction (opcode %u) at word %u has word count 0",
                                 words[offset] & 0xffffu, offset);
      if (wc > word_count - offset)
         return spirv_diag_error(diag, SPIRV_ERR_INST_TRUNCATED, offset,
                                 "instruction (opcode %u) at word %u has %u words, %u remain",
                                 words[offset] & 0xffffu, offset, wc, word_count - offset);
      offset += wc;
      n++;
   }
   *count = n;
   return VK_SUCCESS;
}

static VkResult
check_id_word(uint32_t id, uint32_t bound, uint32_t offset, const char *what,
              struct spirv_diag *diag)
{
   if (id == 0 || id >= bound)
      return spirv_diag_error(diag, SPIRV_ERR_ID_RANGE, offset, "%s %u at word %u is not in 1..%u",
                              what, id, offset, bound - 1);
   return VK_SUCCESS;
}

/* Pass 2: fills the instruction array and the id table. */
static VkResult
fill_insts(struct spirv_reader *r, struct spirv_diag *diag)
{
   uint32_t offset = SPIRV_HEADER_WORDS;
   for (uint32_t i = 0; i < r->inst_count; i++) {
      uint32_t word = r->words[offset];
      struct spirv_inst *inst = &r->insts[i];
      inst->opcode = (uint16_t)(word & 0xffffu);
      inst->word_count = (uint16_t)(word >> 16);
      inst->offset = offset;

      bool has_type, has_result;
      spirv_opcode_result_info(inst->opcode, &has_type, &has_result);
      uint32_t index = 1;
      if (has_type) {
         if (inst->word_count <= index)
            return spirv_diag_error(diag, SPIRV_ERR_OPERAND_MISSING, offset,
                                    "opcode %u at word %u has no result type", inst->opcode,
                                    offset);
         VkResult result =
             check_id_word(r->words[offset + index], r->bound, offset + index, "result type", diag);
         if (result != VK_SUCCESS)
            return result;
         index++;
      }
      if (has_result) {
         if (inst->word_count <= index)
            return spirv_diag_error(diag, SPIRV_ERR_OPERAND_MISSING, offset,
                                    "opcode %u at word %u has no result id", inst->opcode, offset);
         uint32_t id = r->words[offset + index];
         VkResult result = check_id_word(id, r->bound, offset + index, "result id", diag);
         if (result != VK_SUCCESS)
            return result;
         if (r->defs[id] != SPIRV_NO_INST)
            return spirv_diag_error(diag, SPIRV_ERR_ID_DUPLICATE, offset + index,
                                    "result id %u at word %u is already defined at word %u", id,
                                    offset + index, r->insts[r->defs[id]].offset);
         r->defs[id] = i;
      }
      offset += inst->word_count;
   }
   return VK_SUCCESS;
}

VkResult
spirv_reader_init(struct spirv_reader *r, const uint32_t *words, size_t word_count,
                  const VkAllocationCallbacks *alloc, struct spirv_diag *diag)
{
   memset(r, 0, sizeof(*r));
   r->alloc = alloc ? alloc : &lyr_default_alloc;

   VkResult result = spirv_check_header(words, word_count, diag);
   if (result != VK_SUCCESS)
      return result;

   r->words = words;
   r->word_count = (uint32_t)word_count;
   r->version = words[1];
   r->generator = words[2];
   r->bound = words[3];

   result = count_insts(words, r->word_count, &r->inst_count, diag);
   if (result != VK_SUCCESS)
      return result;

   if (r->inst_count) {
      r->insts = lyr_alloc(r->alloc, sizeof(*r->insts) * r->inst_count, 8,
                           VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!r->insts)
         return spirv_diag_error(diag, SPIRV_ERR_OUT_OF_MEMORY, 0,
                                 "out of memory for %u instructions", r->inst_count);
   }
   r->defs = lyr_alloc(r->alloc, sizeof(*r->defs) * r->bound, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!r->defs) {
      spirv_reader_finish(r);
      return spirv_diag_error(diag, SPIRV_ERR_OUT_OF_MEMORY, 0, "out of memory for %u ids",
                              words[3]);
   }
   memset(r->defs, 0xff, sizeof(*r->defs) * r->bound);

   result = fill_insts(r, diag);
   if (result != VK_SUCCESS)
      spirv_reader_finish(r);
   return result;
}

void
spirv_reader_finish(struct spirv_reader *r)
{
   if (!r->alloc)
      return;
   lyr_free(r->alloc, r->insts);
   lyr_free(r->alloc, r->defs);
   r->insts = NULL;
   r->defs = NULL;
   r->inst_count = 0;
}

const struct spirv_inst *
spirv_reader_def(const struct spirv_reader *r, uint32_t id)
{
   if (id == 0 || id >= r->bound || !r->defs || r->defs[id] == SPIRV_NO_INST)
      return NULL;
   return &r->insts[r->defs[id]];
}

uint32_t
spirv_reader_result_id(const struct spirv_reader *r, const struct spirv_inst *inst)
{
   bool has_type, has_result;
   spirv_opcode_result_info(inst->opcode, &has_type, &has_result);
   if (!has_result)
      return 0;
   /* fill_insts() checked that the word exists. */
   return r->words[inst->offset + (has_type ? 2 : 1)];
}

uint32_t
spirv_reader_result_type(const struct spirv_reader *r, const struct spirv_inst *inst)
{
   bool has_type, has_result;
   spirv_opcode_result_info(inst->opcode, &has_type, &has_result);
   return has_type ? r->words[inst->offset + 1] : 0;
}

VkResult
spirv_reader_word(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index,
                  uint32_t *value, struct spirv_diag *diag)
{
   if (index >= inst->word_count)
      return spirv_diag_error(diag, SPIRV_ERR_OPERAND_MISSING, inst->offset,
                              "opcode %u at word %u: operand word %u missing (word count %u)",
                              inst->opcode, inst->offset, index, inst->word_count);
   *value = r->words[inst->offset + index];
   return VK_SUCCESS;
}

VkResult
spirv_reader_u64(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index,
                 uint64_t *value, struct spirv_diag *diag)
{
   if (index >= inst->word_count || inst->word_count - index < 2)
      return spirv_diag_error(diag, SPIRV_ERR_OPERAND_MISSING, inst->offset,
                              "opcode %u at word %u: 64-bit operand at word %u missing "
                              "(word count %u)",
                              inst->opcode, inst->offset, index, inst->word_count);
   const uint32_t *w = r->words + inst->offset + index;
   *value = (uint64_t)w[1] << 32 | w[0];
   return VK_SUCCESS;
}

VkResult
spirv_reader_id(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index,
                uint32_t *id, struct spirv_diag *diag)
{
   uint32_t value = 0;
   VkResult result = spirv_reader_word(r, inst, index, &value, diag);
   if (result != VK_SUCCESS)
      return result;
   result = check_id_word(value, r->bound, inst->offset + index, "id", diag);
   if (result != VK_SUCCESS)
      return result;
   *id = value;
   return VK_SUCCESS;
}

VkResult
spirv_reader_id_def(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index,
                    const struct spirv_inst **def, struct spirv_diag *diag)
{
   uint32_t id = 0;
   VkResult result = spirv_reader_id(r, inst, index, &id, diag);
   if (result != VK_SUCCESS)
      return result;
   const struct spirv_inst *d = spirv_reader_def(r, id);
   if (!d)
      return spirv_diag_error(diag, SPIRV_ERR_ID_UNDEFINED, inst->offset + index,
                              "id %u at word %u is not defined", id, inst->offset + index);
   *def = d;
   return VK_SUCCESS;
}

VkResult
spirv_reader_string(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index,
                    const char **str, size_t *len, uint32_t *next_index, struct spirv_diag *diag)
{
   if (index >= inst->word_count)
      return spirv_diag_error(diag, SPIRV_ERR_OPERAND_MISSING, inst->offset,
                              "opcode %u at word %u: string operand word %u missing", inst->opcode,
                              inst->offset, index);

   const char *s = (const char *)(r->words + inst->offset + index);
   size_t max = (size_t)(inst->word_count - index) * 4;
   const char *nul = memchr(s, '\0', max);
   if (!nul)
      return spirv_diag_error(diag, SPIRV_ERR_STRING, inst->offset + index,
                              "string at word %u has no terminator before the end of its "
                              "instruction (word %u)",
                              inst->offset + index, inst->offset);
   size_t n = (size_t)(nul - s);
   *str = s;
   if (len)
      *len = n;
   if (next_index)
      *next_index = index + (uint32_t)(n / 4 + 1);
   return VK_SUCCESS;
}
