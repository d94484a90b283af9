/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the SPIR-V reader (layers/spirv): a valid module built as
 * words, every malformed-input case with its diagnostic code and word offset,
 * the checked accessors, allocation through VkAllocationCallbacks (counted and
 * failing), the capability scan, the opcode result table, and the extended
 * instruction name tables. A mutation loop feeds thousands of corrupted
 * modules through the reader; under ASan it proves nothing is read out of
 * bounds. Modules from the text assembler are covered by test_spirv_asm.
 */
#include <stdarg.h>

#include "test.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

#define MAX_WORDS 512

/* ---- a tiny module builder --------------------------------------------------- */

struct mod {
   uint32_t w[MAX_WORDS];
   uint32_t n;
};

static void
mod_header(struct mod *m, uint32_t bound)
{
   m->w[0] = SPIRV_MAGIC;
   m->w[1] = 0x00010600;
   m->w[2] = 0;
   m->w[3] = bound;
   m->w[4] = 0;
   m->n = 5;
}

/* Appends an instruction; returns its word offset. */
static uint32_t
mod_inst(struct mod *m, uint16_t opcode, unsigned count, ...)
{
   uint32_t offset = m->n;
   m->w[m->n++] = (uint32_t)(count + 1) << 16 | opcode;
   va_list ap;
   va_start(ap, count);
   for (unsigned i = 0; i < count; i++)
      m->w[m->n++] = va_arg(ap, uint32_t);
   va_end(ap);
   return offset;
}

/* "main" packed as SPIR-V string words. */
#define STR_MAIN 0x6e69616du, 0x0u
/* "abcd" without its terminator word. */
#define STR_ABCD_UNTERMINATED 0x64636261u

enum {
   OP_NAME = 5,
   OP_EXT_INST_IMPORT = 11,
   OP_MEMORY_MODEL = 14,
   OP_ENTRY_POINT = 15,
   OP_CAPABILITY = 17,
   OP_EXTENSION = 10,
   OP_TYPE_VOID = 19,
   OP_TYPE_INT = 21,
   OP_TYPE_FLOAT = 22,
   OP_TYPE_FUNCTION = 33,
   OP_CONSTANT = 43,
   OP_FUNCTION = 54,
   OP_FUNCTION_END = 56,
   OP_STORE = 62,
   OP_DECORATE = 71,
   OP_IADD = 128,
   OP_LABEL = 248,
   OP_RETURN = 253,
};

/* A small valid module. Ids: 1 void, 2 fn type, 3 main, 4 label, 5 uint,
 * 6 uint 7, 7 ulong, 8 ulong constant, 9 sum, 10 tensor type. */
static void
build_valid(struct mod *m)
{
   mod_header(m, 11);
   mod_inst(m, OP_CAPABILITY, 1, 1u); /* Shader */
   mod_inst(m, OP_CAPABILITY, 1, (uint32_t)SPV_ARM_CAP_TENSORS);
   mod_inst(m, OP_MEMORY_MODEL, 2, 0u, 1u);          /* Logical GLSL450 */
   mod_inst(m, OP_ENTRY_POINT, 4, 5u, 3u, STR_MAIN); /* GLCompute %3 "main" */
   mod_inst(m, OP_NAME, 3, 3u, STR_MAIN);
   mod_inst(m, OP_TYPE_VOID, 1, 1u);
   mod_inst(m, OP_TYPE_FUNCTION, 2, 2u, 1u);
   mod_inst(m, OP_TYPE_INT, 3, 5u, 32u, 0u);
   mod_inst(m, OP_CONSTANT, 3, 5u, 6u, 7u);
   mod_inst(m, OP_TYPE_INT, 3, 7u, 64u, 0u);
   mod_inst(m, OP_CONSTANT, 4, 7u, 8u, 0x89abcdefu, 0x01234567u);
   mod_inst(m, SPV_ARM_OP_TYPE_TENSOR, 3, 10u, 5u, 6u);
   mod_inst(m, OP_FUNCTION, 4, 1u, 3u, 0u, 2u);
   mod_inst(m, OP_LABEL, 1, 4u);
   mod_inst(m, OP_IADD, 4, 5u, 9u, 6u, 6u);
   mod_inst(m, 0xfffe, 2, 77u, 88u); /* an unknown opcode, walked by its word count */
   mod_inst(m, OP_RETURN, 0);
   mod_inst(m, OP_FUNCTION_END, 0);
}

/* Parses and expects failure with this code at this word offset. */
static void
expect_error(const struct mod *m, uint32_t count, enum spirv_error code, uint32_t offset,
             const char *what)
{
   struct spirv_reader r;
   struct spirv_diag diag = {0};
   VkResult result = spirv_reader_init(&r, m->w, count, NULL, &diag);
   test_set_context(what);
   ok(result == VK_ERROR_INITIALIZATION_FAILED, "result %d", result);
   ok(diag.code == code, "code %s, expected %s (%s)", spirv_error_name(diag.code),
      spirv_error_name(code), diag.message);
   check_eq_u64(diag.offset, offset);
   ok(diag.message[0] != '\0', "a message");
   ok(r.insts == NULL && r.defs == NULL, "nothing left allocated");
   spirv_reader_finish(&r);
   test_set_context(NULL);
}

/* ---- valid modules ----------------------------------------------------------------- */

static void
test_valid_module(void)
{
   struct mod m;
   build_valid(&m);
   struct spirv_reader r;
   struct spirv_diag diag = {0};
   VkResult result = spirv_reader_init(&r, m.w, m.n, NULL, &diag);
   ok(result == VK_SUCCESS, "valid module parses: %s", diag.message);
   if (result != VK_SUCCESS)
      return;

   check_eq_u64(r.version, 0x00010600);
   check_eq_u64(r.bound, 11);
   check_eq_u64(r.word_count, m.n);
   check_eq_u64(r.inst_count, 18);

   /* Instruction array: opcodes, word counts, offsets tile the module. */
   static const uint16_t opcodes[] = {
       OP_CAPABILITY, OP_CAPABILITY,   OP_MEMORY_MODEL,  OP_ENTRY_POINT,
       OP_NAME,       OP_TYPE_VOID,    OP_TYPE_FUNCTION, OP_TYPE_INT,
       OP_CONSTANT,   OP_TYPE_INT,     OP_CONSTANT,      SPV_ARM_OP_TYPE_TENSOR,
       OP_FUNCTION,   OP_LABEL,        OP_IADD,          0xfffe,
       OP_RETURN,     OP_FUNCTION_END,
   };
   uint32_t offset = 5;
   for (uint32_t i = 0; i < r.inst_count && i < 18; i++) {
      check_eq_u64(r.insts[i].opcode, opcodes[i]);
      check_eq_u64(r.insts[i].offset, offset);
      check_eq_u64(r.insts[i].word_count, m.w[offset] >> 16);
      offset += r.insts[i].word_count;
   }
   check_eq_u64(offset, m.n);

   /* The id table. */
   static const uint32_t def_index[11] = {SPIRV_NO_INST, 5, 6, 12, 13, 7, 8, 9, 10, 14, 11};
   for (uint32_t id = 0; id < 11; id++)
      check_eq_u64(r.defs[id], def_index[id]);
   ok(spirv_reader_def(&r, 0) == NULL, "id 0 has no definition");
   ok(spirv_reader_def(&r, 11) == NULL, "id == bound has no definition");
   ok(spirv_reader_def(&r, 9) == &r.insts[14], "%%9 is the OpIAdd");
   check_eq_u64(spirv_reader_inst_index(&r, spirv_reader_def(&r, 10)), 11);

   /* Result ids and types. */
   check_eq_u64(spirv_reader_result_id(&r, &r.insts[7]), 5); /* OpTypeInt */
   check_eq_u64(spirv_reader_result_type(&r, &r.insts[7]), 0);
   check_eq_u64(spirv_reader_result_id(&r, &r.insts[14]), 9); /* OpIAdd */
   check_eq_u64(spirv_reader_result_type(&r, &r.insts[14]), 5);
   check_eq_u64(spirv_reader_result_id(&r, &r.insts[0]), 0);   /* OpCapability */
   check_eq_u64(spirv_reader_result_id(&r, &r.insts[15]), 0);  /* unknown */
   check_eq_u64(spirv_reader_result_id(&r, &r.insts[11]), 10); /* OpTypeTensorARM */

   /* Accessors. */
   const struct spirv_inst *iadd = &r.insts[14];
   uint32_t value = 0;
   ok(spirv_reader_word(&r, iadd, 0, &value, &diag) == VK_SUCCESS, "word 0");
   check_eq_u64(value, 5u << 16 | OP_IADD);
   ok(spirv_reader_word(&r, iadd, 4, &value, &diag) == VK_SUCCESS, "last word");
   check_eq_u64(value, 6);
   ok(spirv_reader_word(&r, iadd, 5, &value, &diag) == VK_ERROR_INITIALIZATION_FAILED,
      "word past the end");
   check_eq_u64(diag.code, SPIRV_ERR_OPERAND_MISSING);
   check_eq_u64(diag.offset, iadd->offset);

   uint32_t id = 0;
   ok(spirv_reader_id(&r, iadd, 3, &id, &diag) == VK_SUCCESS && id == 6, "id operand");
   const struct spirv_inst *def = NULL;
   ok(spirv_reader_id_def(&r, iadd, 3, &def, &diag) == VK_SUCCESS && def == &r.insts[8],
      "id operand resolves to its OpConstant");

   uint64_t u64 = 0;
   const struct spirv_inst *c64 = &r.insts[10];
   ok(spirv_reader_u64(&r, c64, 3, &u64, &diag) == VK_SUCCESS, "64-bit literal");
   check_eq_u64(u64, UINT64_C(0x0123456789abcdef));
   ok(spirv_reader_u64(&r, c64, 4, &u64, &diag) == VK_ERROR_INITIALIZATION_FAILED,
      "64-bit literal with one word left");
   check_eq_u64(diag.code, SPIRV_ERR_OPERAND_MISSING);

   const char *str = NULL;
   size_t len = 0;
   uint32_t next = 0;
   const struct spirv_inst *entry = &r.insts[3];
   ok(spirv_reader_string(&r, entry, 3, &str, &len, &next, &diag) == VK_SUCCESS, "string");
   check_str(str, "main");
   check_eq_u64(len, 4);
   check_eq_u64(next, 5);
   ok(spirv_reader_string(&r, entry, 5, &str, NULL, NULL, &diag) == VK_ERROR_INITIALIZATION_FAILED,
      "string past the end");
   check_eq_u64(diag.code, SPIRV_ERR_OPERAND_MISSING);

   /* The diag argument may be NULL. */
   ok(spirv_reader_word(&r, iadd, 99, &value, NULL) == VK_ERROR_INITIALIZATION_FAILED, "NULL diag");

   spirv_reader_finish(&r);
   spirv_reader_finish(&r); /* idempotent */
}

static void
test_accessor_errors(void)
{
   struct mod m;
   mod_header(&m, 10);
   mod_inst(&m, OP_TYPE_INT, 3, 1u, 32u, 0u);
   uint32_t name = mod_inst(&m, OP_NAME, 2, 1u, STR_ABCD_UNTERMINATED);
   uint32_t store = mod_inst(&m, OP_STORE, 2, 12u, 0u);
   mod_inst(&m, OP_DECORATE, 2, 3u, 0u);

   struct spirv_reader r;
   struct spirv_diag diag = {0};
   ok(spirv_reader_init(&r, m.w, m.n, NULL, &diag) == VK_SUCCESS, "parses: %s", diag.message);

   const char *str;
   ok(spirv_reader_string(&r, &r.insts[1], 2, &str, NULL, NULL, &diag) ==
          VK_ERROR_INITIALIZATION_FAILED,
      "string without terminator");
   check_eq_u64(diag.code, SPIRV_ERR_STRING);
   check_eq_u64(diag.offset, name + 2);

   uint32_t id;
   ok(spirv_reader_id(&r, &r.insts[2], 1, &id, &diag) == VK_ERROR_INITIALIZATION_FAILED,
      "id >= bound");
   check_eq_u64(diag.code, SPIRV_ERR_ID_RANGE);
   check_eq_u64(diag.offset, store + 1);
   ok(spirv_reader_id(&r, &r.insts[2], 2, &id, &diag) == VK_ERROR_INITIALIZATION_FAILED, "id 0");
   check_eq_u64(diag.code, SPIRV_ERR_ID_RANGE);
   check_eq_u64(diag.offset, store + 2);

   const struct spirv_inst *def;
   ok(spirv_reader_id_def(&r, &r.insts[3], 1, &def, &diag) == VK_ERROR_INITIALIZATION_FAILED,
      "undefined id");
   check_eq_u64(diag.code, SPIRV_ERR_ID_UNDEFINED);
   check_eq_u64(diag.offset, r.insts[3].offset + 1);
   spirv_reader_finish(&r);
}

/* ---- malformed modules ----------------------------------------------------------------- */

static void
test_malformed(void)
{
   struct mod m;

   build_valid(&m);
   expect_error(&m, 4, SPIRV_ERR_HEADER_TRUNCATED, 0, "4-word module");
   expect_error(&m, 0, SPIRV_ERR_HEADER_TRUNCATED, 0, "empty module");
   {
      struct spirv_reader r;
      struct spirv_diag diag = {0};
      ok(spirv_reader_init(&r, NULL, 100, NULL, &diag) == VK_ERROR_INITIALIZATION_FAILED,
         "NULL words");
      check_eq_u64(diag.code, SPIRV_ERR_HEADER_TRUNCATED);
      spirv_reader_finish(&r);
   }

   build_valid(&m);
   m.w[0] = 0x12345678;
   expect_error(&m, m.n, SPIRV_ERR_MAGIC, 0, "bad magic");

   build_valid(&m);
   m.w[0] = SPIRV_MAGIC_SWAPPED;
   expect_error(&m, m.n, SPIRV_ERR_BYTE_SWAPPED, 0, "byte-swapped");

   static const uint32_t bad_versions[] = {0x00020000, 0x00010700, 0x00010601, 0x01010000,
                                           0x00000600};
   for (unsigned i = 0; i < sizeof(bad_versions) / sizeof(bad_versions[0]); i++) {
      build_valid(&m);
      m.w[1] = bad_versions[i];
      expect_error(&m, m.n, SPIRV_ERR_VERSION, 1, "bad version");
   }
   static const uint32_t good_versions[] = {0x00010000, 0x00010300, 0x00010500};
   for (unsigned i = 0; i < sizeof(good_versions) / sizeof(good_versions[0]); i++) {
      build_valid(&m);
      m.w[1] = good_versions[i];
      ok(spirv_check_header(m.w, m.n, NULL) == VK_SUCCESS, "version 0x%08x", good_versions[i]);
   }

   build_valid(&m);
   m.w[3] = 0;
   expect_error(&m, m.n, SPIRV_ERR_BOUND, 3, "bound 0");
   m.w[3] = SPIRV_MAX_BOUND + 1;
   expect_error(&m, m.n, SPIRV_ERR_BOUND, 3, "bound too large");

   /* Zero word count in the middle. */
   build_valid(&m);
   uint32_t at = 7; /* the second OpCapability */
   m.w[at] = OP_CAPABILITY;
   expect_error(&m, m.n, SPIRV_ERR_WORD_COUNT_ZERO, at, "word count 0");

   /* An instruction running past the end. */
   build_valid(&m);
   uint32_t last = m.n - 1; /* OpFunctionEnd */
   m.w[last] = 3u << 16 | OP_FUNCTION_END;
   expect_error(&m, m.n, SPIRV_ERR_INST_TRUNCATED, last, "truncated last instruction");
   build_valid(&m);
   uint32_t iadd = 0;
   for (uint32_t off = 5; off < m.n; off += m.w[off] >> 16) {
      if ((m.w[off] & 0xffff) == OP_IADD)
         iadd = off;
   }
   expect_error(&m, iadd + 2, SPIRV_ERR_INST_TRUNCATED, iadd, "module cut inside OpIAdd");

   /* Result id out of range, zero, duplicated; result type out of range. */
   mod_header(&m, 4);
   uint32_t t = mod_inst(&m, OP_TYPE_INT, 3, 4u, 32u, 0u);
   expect_error(&m, m.n, SPIRV_ERR_ID_RANGE, t + 1, "result id == bound");
   m.w[t + 1] = 0;
   expect_error(&m, m.n, SPIRV_ERR_ID_RANGE, t + 1, "result id 0");

   mod_header(&m, 4);
   uint32_t first = mod_inst(&m, OP_TYPE_INT, 3, 2u, 32u, 0u);
   uint32_t second = mod_inst(&m, OP_TYPE_FLOAT, 2, 2u, 32u);
   (void)first;
   expect_error(&m, m.n, SPIRV_ERR_ID_DUPLICATE, second + 1, "duplicate result id");

   mod_header(&m, 4);
   mod_inst(&m, OP_TYPE_INT, 3, 1u, 32u, 0u);
   uint32_t c = mod_inst(&m, OP_CONSTANT, 3, 9u, 2u, 5u);
   expect_error(&m, m.n, SPIRV_ERR_ID_RANGE, c + 1, "result type >= bound");

   /* An opcode with a result but too few words to hold it. */
   mod_header(&m, 4);
   uint32_t shortinst = mod_inst(&m, OP_TYPE_INT, 0);
   expect_error(&m, m.n, SPIRV_ERR_OPERAND_MISSING, shortinst, "OpTypeInt without result");
   mod_header(&m, 4);
   shortinst = mod_inst(&m, OP_IADD, 1, 1u);
   expect_error(&m, m.n, SPIRV_ERR_OPERAND_MISSING, shortinst, "OpIAdd without result id");

   /* A header-only module is valid and empty. */
   mod_header(&m, 1);
   struct spirv_reader r;
   ok(spirv_reader_init(&r, m.w, m.n, NULL, NULL) == VK_SUCCESS, "header-only module");
   check_eq_u64(r.inst_count, 0);
   spirv_reader_finish(&r);
}

/* ---- allocation ------------------------------------------------------------------------------ */

struct counting {
   int live;
   int calls;
   int fail_at; /* fail the n-th allocation (1-based); 0 never */
};

static void *VKAPI_PTR
count_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct counting *c = user;
   (void)align;
   (void)scope;
   if (++c->calls == c->fail_at)
      return NULL;
   c->live++;
   return malloc(size);
}

static void *VKAPI_PTR
count_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)align;
   (void)scope;
   return realloc(p, size);
}

static void VKAPI_PTR
count_free(void *user, void *p)
{
   struct counting *c = user;
   if (p)
      c->live--;
   free(p);
}

static void
test_allocation(void)
{
   struct mod m;
   build_valid(&m);
   struct counting counter = {0};
   VkAllocationCallbacks alloc = {
       .pUserData = &counter,
       .pfnAllocation = count_alloc,
       .pfnReallocation = count_realloc,
       .pfnFree = count_free,
   };
   struct spirv_reader r;
   ok(spirv_reader_init(&r, m.w, m.n, &alloc, NULL) == VK_SUCCESS, "parses with callbacks");
   ok(counter.live == 2, "two arrays allocated (%d)", counter.live);
   spirv_reader_finish(&r);
   check_eq_u64(counter.live, 0);

   for (int fail = 1; fail <= 2; fail++) {
      counter = (struct counting){.fail_at = fail};
      struct spirv_diag diag = {0};
      ok(spirv_reader_init(&r, m.w, m.n, &alloc, &diag) == VK_ERROR_OUT_OF_HOST_MEMORY,
         "allocation %d fails", fail);
      check_eq_u64(diag.code, SPIRV_ERR_OUT_OF_MEMORY);
      spirv_reader_finish(&r);
      check_eq_u64(counter.live, 0);
   }
}

/* ---- corrupted modules never crash ------------------------------------------------------------
 */

static uint32_t rng_state = 0x2545f491u;

static uint32_t
rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

/* Reads every word of every instruction through the checked accessors. */
static void
read_everything(const struct spirv_reader *r)
{
   for (uint32_t i = 0; i < r->inst_count; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      for (uint32_t w = 0; w <= inst->word_count; w++) {
         uint32_t value, id;
         uint64_t u64;
         const char *str;
         const struct spirv_inst *def;
         (void)spirv_reader_word(r, inst, w, &value, NULL);
         (void)spirv_reader_u64(r, inst, w, &u64, NULL);
         (void)spirv_reader_id(r, inst, w, &id, NULL);
         (void)spirv_reader_id_def(r, inst, w, &def, NULL);
         (void)spirv_reader_string(r, inst, w, &str, NULL, NULL, NULL);
      }
      (void)spirv_reader_result_id(r, inst);
      (void)spirv_reader_result_type(r, inst);
   }
}

static void
test_mutations(void)
{
   struct mod valid;
   build_valid(&valid);
   unsigned parsed = 0, rejected = 0;

   /* Every truncation. */
   for (uint32_t n = 0; n <= valid.n; n++) {
      struct spirv_reader r;
      if (spirv_reader_init(&r, valid.w, n, NULL, NULL) == VK_SUCCESS) {
         read_everything(&r);
         parsed++;
      } else {
         rejected++;
      }
      spirv_reader_finish(&r);
   }

   /* Random word and bit flips. The copy lives in a buffer of exactly n words
    * so that ASan catches any overread. */
   for (int iter = 0; iter < 20000; iter++) {
      uint32_t *copy = malloc(valid.n * sizeof(uint32_t));
      if (!copy)
         break;
      memcpy(copy, valid.w, valid.n * sizeof(uint32_t));
      int flips = 1 + (int)(rng() % 4);
      for (int f = 0; f < flips; f++) {
         uint32_t at = 5 + rng() % (valid.n - 5);
         switch (rng() % 4) {
         case 0:
            copy[at] = rng();
            break;
         case 1:
            copy[at] ^= 1u << (rng() % 32);
            break;
         case 2:
            copy[at] = (copy[at] & 0xffffu) | (rng() % 8) << 16;
            break;
         default:
            copy[at] = rng() % 16;
            break;
         }
      }
      struct spirv_reader r;
      struct spirv_diag diag;
      if (spirv_reader_init(&r, copy, valid.n, NULL, &diag) == VK_SUCCESS) {
         read_everything(&r);
         parsed++;
      } else {
         rejected++;
         if (diag.offset >= valid.n)
            ok(0, "diagnostic offset %u beyond the module", diag.offset);
      }
      spirv_reader_finish(&r);
      free(copy);
   }
   ok(parsed > 0 && rejected > 0, "mutations: %u parsed, %u rejected", parsed, rejected);
}

/* ---- capability scan --------------------------------------------------------------------------
 */

static void
test_capability_scan(void)
{
   struct mod m;
   build_valid(&m);
   ok(spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS), "declares TensorsARM");
   ok(spirv_declares_capability(m.w, m.n, 1), "declares Shader");
   ok(!spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_GRAPH), "does not declare GraphARM");
   ok(!spirv_declares_capability(m.w, 4, 1), "short module");
   ok(!spirv_declares_capability(NULL, 100, 1), "NULL module");

   /* Implicit declaration through the tensor-array capabilities. */
   mod_header(&m, 1);
   mod_inst(&m, OP_CAPABILITY, 1, 1u);
   mod_inst(&m, OP_EXTENSION, 2, 0x5f565053u, 0u); /* "SPV_" */
   mod_inst(&m, OP_CAPABILITY, 1, (uint32_t)SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING);
   ok(spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS),
      "StorageTensorArrayDynamicIndexingARM declares TensorsARM");
   ok(!spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_GRAPH), "but not GraphARM");
   m.w[m.n - 1] = SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING;
   ok(spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS),
      "StorageTensorArrayNonUniformIndexingARM declares TensorsARM");

   /* The scan stops at the first instruction that is not OpCapability/OpExtension. */
   mod_header(&m, 1);
   mod_inst(&m, OP_CAPABILITY, 1, 1u);
   mod_inst(&m, OP_MEMORY_MODEL, 2, 0u, 1u);
   mod_inst(&m, OP_CAPABILITY, 1, (uint32_t)SPV_ARM_CAP_TENSORS);
   ok(!spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS),
      "a capability after OpMemoryModel is not seen");

   /* Malformed streams stop the scan. */
   mod_header(&m, 1);
   mod_inst(&m, OP_CAPABILITY, 0);
   m.w[5] = OP_CAPABILITY; /* word count 0 */
   m.w[m.n++] = 2u << 16 | OP_CAPABILITY;
   m.w[m.n++] = SPV_ARM_CAP_TENSORS;
   ok(!spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS), "word count 0 stops the scan");
   mod_header(&m, 1);
   mod_inst(&m, OP_CAPABILITY, 1, (uint32_t)SPV_ARM_CAP_TENSORS);
   ok(!spirv_declares_capability(m.w, m.n - 1, SPV_ARM_CAP_TENSORS), "truncated capability");
   m.w[0] = SPIRV_MAGIC_SWAPPED;
   ok(!spirv_declares_capability(m.w, m.n, SPV_ARM_CAP_TENSORS), "byte-swapped module");
}

/* ---- opcode facts ------------------------------------------------------------------------------
 */

static void
check_result_info(uint32_t opcode, bool type, bool result)
{
   bool t = !type, r = !result;
   spirv_opcode_result_info(opcode, &t, &r);
   ok(t == type && r == result, "opcode %u: result type %d result %d, expected %d %d", opcode, t, r,
      type, result);
}

static void
test_opcode_info(void)
{
   check_result_info(OP_TYPE_INT, false, true);
   check_result_info(OP_IADD, true, true);
   check_result_info(OP_STORE, false, false);
   check_result_info(OP_EXT_INST_IMPORT, false, true);
   check_result_info(12 /* OpExtInst */, true, true);
   check_result_info(SPV_ARM_OP_TYPE_TENSOR, false, true);
   check_result_info(SPV_ARM_OP_TENSOR_READ, true, true);
   check_result_info(SPV_ARM_OP_TENSOR_WRITE, false, false);
   check_result_info(SPV_ARM_OP_TENSOR_QUERY_SIZE, true, true);
   check_result_info(SPV_ARM_OP_GRAPH_CONSTANT, true, true);
   check_result_info(SPV_ARM_OP_GRAPH_ENTRY_POINT, false, false);
   check_result_info(SPV_ARM_OP_GRAPH, true, true);
   check_result_info(SPV_ARM_OP_GRAPH_INPUT, true, true);
   check_result_info(SPV_ARM_OP_GRAPH_SET_OUTPUT, false, false);
   check_result_info(SPV_ARM_OP_GRAPH_END, false, false);
   check_result_info(SPV_ARM_OP_TYPE_GRAPH, false, true);
   check_result_info(SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT, true, true);
   check_result_info(0xfffe, false, false);
   check_result_info(0x12345678, false, false);
}

/* ---- extended instruction tables
 * ----------------------------------------------------------------- */

static void
test_ext_inst_tables(void)
{
   /* spec-facts §3.2, in order. */
   static const char *const tosa[TOSA_INST_COUNT] = {
       "ARGMAX",
       "AVG_POOL2D",
       "CONV2D",
       "CONV3D",
       "DEPTHWISE_CONV2D",
       "FFT2D",
       "MATMUL",
       "MAX_POOL2D",
       "RFFT2D",
       "TRANSPOSE_CONV2D",
       "CLAMP",
       "ERF",
       "SIGMOID",
       "TANH",
       "ADD",
       "ARITHMETIC_RIGHT_SHIFT",
       "BITWISE_AND",
       "BITWISE_OR",
       "BITWISE_XOR",
       "INTDIV",
       "LOGICAL_AND",
       "LOGICAL_LEFT_SHIFT",
       "LOGICAL_RIGHT_SHIFT",
       "LOGICAL_OR",
       "LOGICAL_XOR",
       "MAXIMUM",
       "MINIMUM",
       "MUL",
       "POW",
       "SUB",
       "TABLE",
       "ABS",
       "BITWISE_NOT",
       "CEIL",
       "CLZ",
       "COS",
       "EXP",
       "FLOOR",
       "LOG",
       "LOGICAL_NOT",
       "NEGATE",
       "RECIPROCAL",
       "RSQRT",
       "SIN",
       "SELECT",
       "EQUAL",
       "GREATER",
       "GREATER_EQUAL",
       "REDUCE_ALL",
       "REDUCE_ANY",
       "REDUCE_MAX",
       "REDUCE_MIN",
       "REDUCE_PRODUCT",
       "REDUCE_SUM",
       "CONCAT",
       "PAD",
       "RESHAPE",
       "REVERSE",
       "SLICE",
       "TILE",
       "TRANSPOSE",
       "GATHER",
       "SCATTER",
       "RESIZE",
       "CAST",
       "RESCALE",
   };
   static const uint8_t words[TOSA_INST_COUNT] = {
       8, 12, 15, 15, 15, 9, 9, 10, 7, 14, 9, 6, 6, 6, 7, 8, 7, 7, 7, 7,  7, 7,
       7, 7,  7,  8,  8,  8, 7, 7,  7, 6,  6, 6, 6, 6, 6, 6, 6, 6, 8, 6,  6, 6,
       8, 7,  7,  7,  7,  7, 8, 8,  7, 7,  7, 8, 7, 7, 8, 7, 7, 7, 8, 10, 6, 15,
   };
   for (uint32_t i = 0; i < TOSA_INST_COUNT; i++) {
      check_str(spirv_tosa_inst_name(i), tosa[i]);
      check_eq_u64(spirv_tosa_inst_word_count(i), words[i]);
      uint32_t number = UINT32_MAX;
      ok(spirv_tosa_inst_from_name(tosa[i], &number) && number == i, "%s by name", tosa[i]);
      const struct spirv_ext_inst_desc *d =
          spirv_ext_inst_desc(SPIRV_EXT_INST_SET_TOSA_001000_1, i);
      ok(d && d->min_words == words[i] &&
             d->max_words == (i == TOSA_CONCAT ? UINT16_MAX : words[i]),
         "TOSA %s word counts", tosa[i]);
   }
   ok(spirv_tosa_inst_name(TOSA_INST_COUNT) == NULL, "no instruction 66");
   check_eq_u64(spirv_tosa_inst_word_count(1000), 0);
   uint32_t number;
   ok(!spirv_tosa_inst_from_name("CONST", &number), "CONST is not an instruction");
   ok(!spirv_tosa_inst_from_name("conv2d", &number), "names are case-sensitive");
   check_eq_u64(TOSA_CLAMP, 10);
   check_eq_u64(TOSA_RESCALE, 65);

   ok(spirv_ext_inst_from_name(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, "MIN_SAD_COST", &number) &&
          number == SPV_ARM_ME_MIN_SAD_COST,
      "MIN_SAD_COST");
   const struct spirv_ext_inst_desc *raw =
       spirv_ext_inst_desc(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, SPV_ARM_ME_RAW_SAD);
   ok(raw && strcmp(raw->name, "RAW_SAD") == 0 && raw->min_words == 13, "RAW_SAD");
   ok(!spirv_ext_inst_desc(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, 3), "no ME instruction 3");
   ok(!spirv_ext_inst_desc(SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1, 0), "DebugInfo starts at 1");
   const struct spirv_ext_inst_desc *dt =
       spirv_ext_inst_desc(SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1, SPV_GRAPH_DEBUG_TENSOR);
   ok(dt && strcmp(dt->name, "DebugTensor") == 0 && dt->min_words == 7 && dt->max_words == 8,
      "DebugTensor");
   ok(!spirv_ext_inst_desc(SPIRV_EXT_INST_SET_UNKNOWN, 0), "unknown set has no table");

   check_eq_u64(spirv_ext_inst_set_from_name("TOSA.001000.1"), SPIRV_EXT_INST_SET_TOSA_001000_1);
   check_eq_u64(spirv_ext_inst_set_from_name("Arm.MotionEngine.100"),
                SPIRV_EXT_INST_SET_MOTION_ENGINE_100);
   check_eq_u64(spirv_ext_inst_set_from_name("NonSemantic.Graph.DebugInfo.1"),
                SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1);
   check_eq_u64(spirv_ext_inst_set_from_name("NonSemantic.Shader.DebugInfo.100"),
                SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER);
   check_eq_u64(spirv_ext_inst_set_from_name("Arm.ExperimentalMLOperations.1"),
                SPIRV_EXT_INST_SET_EXPERIMENTAL_ML);
   check_eq_u64(spirv_ext_inst_set_from_name("TOSA.001000.2"), SPIRV_EXT_INST_SET_UNKNOWN);
   check_eq_u64(spirv_ext_inst_set_from_name("GLSL.std.450"), SPIRV_EXT_INST_SET_UNKNOWN);
   check_eq_u64(spirv_ext_inst_set_from_name(NULL), SPIRV_EXT_INST_SET_UNKNOWN);
   check_str(spirv_ext_inst_set_name(SPIRV_EXT_INST_SET_TOSA_001000_1), "TOSA.001000.1");
   ok(spirv_ext_inst_set_name(SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER) == NULL, "no single name");
}

static void
test_error_names(void)
{
   check_str(spirv_error_name(SPIRV_ERR_ID_DUPLICATE), "SPIRV_ERR_ID_DUPLICATE");
   check_str(spirv_error_name(SPIRV_OK), "SPIRV_OK");
   check_eq_u64(SPIRV_ERR_HEADER_TRUNCATED, 1000);
   struct spirv_diag diag;
   ok(spirv_diag_error(&diag, SPIRV_ERR_OUT_OF_MEMORY, 7, "x %d", 1) == VK_ERROR_OUT_OF_HOST_MEMORY,
      "OOM maps to VK_ERROR_OUT_OF_HOST_MEMORY");
   check_str(diag.message, "x 1");
   check_eq_u64(diag.offset, 7);
}

TEST_MAIN_STATE;

int
main(void)
{
   test_valid_module();
   test_accessor_errors();
   test_malformed();
   test_allocation();
   test_mutations();
   test_capability_scan();
   test_opcode_info();
   test_ext_inst_tables();
   test_error_names();
   return test_done();
}
