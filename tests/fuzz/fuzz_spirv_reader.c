/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: the layers' SPIR-V reader (layers/spirv), which both layers run on
 * every module an application gives them. The input's words are read; when the
 * reader accepts them, every accessor is called on every operand of every
 * instruction (words, 64-bit literals, ids, id definitions, strings, result ids and
 * types), and what it promises is checked: each defined id's instruction has that
 * result id, an accessor that succeeds stays inside its instruction, a refusal
 * carries a code and a message. The cheap capability scan and the extended
 * instruction set tables are fed the same words.
 */
#include "fuzz.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

#include <spirv/unified1/spirv.h>

static void
check_diag(const struct spirv_diag *diag, const char *what)
{
   if (diag->code < SPIRV_ERR_HEADER_TRUNCATED || diag->code > SPIRV_ERR_OUT_OF_MEMORY)
      fuzz_fail("%s: refused with code %d", what, (int)diag->code);
   if (!diag->message[0])
      fuzz_fail("%s: refused without a message (%s)", what, spirv_error_name(diag->code));
}

static void
walk(const struct spirv_reader *r)
{
   enum spirv_ext_inst_set sets[64] = {0};
   for (uint32_t i = 0; i < r->inst_count; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      if (inst->word_count == 0 || inst->offset + inst->word_count > r->word_count)
         fuzz_fail("instruction %u: %u words at %u of %u", i, inst->word_count, inst->offset,
                   r->word_count);
      const uint32_t *w = spirv_reader_inst_words(r, inst);
      if ((w[0] & 0xffffu) != inst->opcode || (w[0] >> 16) != inst->word_count)
         fuzz_fail("instruction %u: opcode word %#x vs %u/%u", i, w[0], inst->opcode,
                   inst->word_count);
      uint32_t result = spirv_reader_result_id(r, inst);
      if (result && spirv_reader_def(r, result) != inst)
         fuzz_fail("%%%u: the id table names another instruction", result);
      (void)spirv_reader_result_type(r, inst);
      for (uint32_t k = 0; k <= inst->word_count; k++) {
         struct spirv_diag diag = {0};
         uint32_t value, id;
         uint64_t v64;
         const struct spirv_inst *def;
         const char *str;
         size_t len;
         uint32_t next;
         VkResult res = spirv_reader_word(r, inst, k, &value, &diag);
         if ((res == VK_SUCCESS) != (k < inst->word_count))
            fuzz_fail("word %u of a %u-word instruction: %d", k, inst->word_count, res);
         if (res == VK_SUCCESS && value != w[k])
            fuzz_fail("word %u read as %#x, is %#x", k, value, w[k]);
         if (res != VK_SUCCESS)
            check_diag(&diag, "spirv_reader_word");
         (void)spirv_reader_u64(r, inst, k, &v64, NULL);
         if (spirv_reader_id(r, inst, k, &id, NULL) == VK_SUCCESS && (id == 0 || id >= r->bound))
            fuzz_fail("id %u accepted with bound %u", id, r->bound);
         memset(&diag, 0, sizeof(diag));
         if (spirv_reader_id_def(r, inst, k, &def, &diag) == VK_SUCCESS) {
            if (!def || spirv_reader_result_id(r, def) != w[k])
               fuzz_fail("id_def of word %u (%u) gives another instruction", k, w[k]);
         } else {
            check_diag(&diag, "spirv_reader_id_def");
         }
         if (spirv_reader_string(r, inst, k, &str, &len, &next, NULL) == VK_SUCCESS) {
            const char *begin = (const char *)(w + k), *end = (const char *)(w + inst->word_count);
            if (strlen(str) != len || next > inst->word_count || str != begin ||
                str + len >= end)
               fuzz_fail("string at word %u: length %zu, next word %u of %u", k, len, next,
                         inst->word_count);
         }
      }
      /* The extended instruction sets: names of imports, descriptions of instructions. */
      if (inst->opcode == SpvOpExtInstImport && inst->word_count >= 3 && w[1] < r->bound) {
         const char *name;
         if (spirv_reader_string(r, inst, 2, &name, NULL, NULL, NULL) == VK_SUCCESS)
            sets[w[1] % 64] = spirv_ext_inst_set_from_name(name);
      } else if (inst->opcode == SpvOpExtInst && inst->word_count >= 5) {
         enum spirv_ext_inst_set set = sets[w[3] % 64];
         const struct spirv_ext_inst_desc *d = spirv_ext_inst_desc(set, w[4]);
         if (d && (!d->name || d->min_words > d->max_words))
            fuzz_fail("set %d instruction %u: a malformed description", set, w[4]);
         const char *tosa = spirv_tosa_inst_name(w[4]);
         uint32_t back;
         if (tosa && (!spirv_tosa_inst_from_name(tosa, &back) || back != w[4]))
            fuzz_fail("TOSA instruction %u (%s) does not name itself", w[4], tosa);
      }
   }
   for (uint32_t id = 0; id < r->bound && id < 65536; id++) {
      const struct spirv_inst *def = spirv_reader_def(r, id);
      if (def && spirv_reader_result_id(r, def) != id)
         fuzz_fail("def(%u) has result %u", id, spirv_reader_result_id(r, def));
   }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   size_t count;
   uint32_t *words = fuzz_words(data, size, &count);
   (void)spirv_declares_capability(words, count, SPV_ARM_CAP_TENSORS);
   (void)spirv_declares_capability(words, count, SPV_ARM_CAP_GRAPH);
   struct spirv_diag diag = {0};
   VkResult header = spirv_check_header(words, count, &diag);
   if (header != VK_SUCCESS)
      check_diag(&diag, "spirv_check_header");
   struct spirv_reader r;
   memset(&diag, 0, sizeof(diag));
   VkResult res = spirv_reader_init(&r, words, count, NULL, &diag);
   if (res == VK_SUCCESS) {
      if (header != VK_SUCCESS)
         fuzz_fail("the reader accepts a module whose header it refuses");
      walk(&r);
   } else {
      check_diag(&diag, "spirv_reader_init");
   }
   spirv_reader_finish(&r);
   free(words);
   return 0;
}
