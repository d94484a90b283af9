/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the SPIR-V builder (layers/spirv/spirv_builder.h): memoized
 * types and constants, copies of a parsed module, capabilities and
 * extensions, the section walker, insertion, and writing (dependency sort,
 * type replacement, merging of duplicate non-aggregate types). Modules are
 * written as text with the project's assembler and checked by disassembly.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "lyr_alloc.h"
#include "spirv/spirv_builder.h"
#include "spirv_text.h"
#include "test.h"

TEST_MAIN_STATE;

static uint32_t *
assemble(const char *text, size_t *count)
{
   uint32_t *words = NULL;
   char err[256] = "";
   if (!ok(spirv_text_assemble(text, strlen(text), &words, count, err, sizeof(err)),
           "assembly failed: %s", err))
      return NULL;
   return words;
}

/* Writes the builder's module and returns its disassembly (free it). */
static char *
write_text(struct spirv_builder *b)
{
   uint32_t *words = NULL;
   size_t count = 0;
   char *text = NULL;
   if (!ok(spirv_builder_write(b, &words, &count) == VK_SUCCESS, "write failed: %s",
           b->failure ? b->failure : "?"))
      return NULL;
   ok(spirv_text_disassemble(words, count, &text, NULL, NULL, 0), "disassembly failed");
   lyr_free(b->alloc, words);
   return text;
}

static bool
contains(const char *text, const char *piece)
{
   return text && strstr(text, piece);
}

static void
test_memoized_types(void)
{
   struct spirv_builder b;
   spirv_builder_init(&b, 0x00010600u, NULL);
   uint32_t u32 = spirv_get_type_int(&b, 32, false);
   ok(u32 && u32 == spirv_get_type_int(&b, 32, false), "uint is memoized");
   ok(u32 != spirv_get_type_int(&b, 32, true), "int is another type");
   uint32_t v2 = spirv_get_type_vector(&b, u32, 2);
   ok(v2 == spirv_get_type_vector(&b, u32, 2), "vectors are memoized");
   uint32_t six = spirv_get_const_u32(&b, 6);
   ok(six == spirv_get_const_u32(&b, 6) && six != spirv_get_const_u32(&b, 7),
      "constants are memoized by value");
   uint32_t a4 = spirv_get_type_array(&b, u32, six, 4);
   ok(a4 == spirv_get_type_array(&b, u32, six, 4), "strided arrays are memoized");
   ok(a4 != spirv_get_type_array(&b, u32, six, 8), "another stride, another array");
   uint32_t p = spirv_get_type_pointer(&b, SpvStorageClassStorageBuffer, u32);
   ok(p == spirv_get_type_pointer(&b, SpvStorageClassStorageBuffer, u32), "pointers memoized");
   uint32_t members[2] = {u32, u32};
   ok(spirv_build_type_struct(&b, members, 2, NULL) !=
          spirv_build_type_struct(&b, members, 2, NULL),
      "structs are never shared");
   ok(spirv_get_const_bool(&b, true) != spirv_get_const_bool(&b, false), "true != false");
   uint32_t ids[2] = {six, six};
   uint32_t c = spirv_get_const_composite(&b, v2, ids, 2);
   ok(c == spirv_get_const_composite(&b, v2, ids, 2), "composites memoized");
   ok(spirv_get_ext_import(&b, "GLSL.std.450") == spirv_get_ext_import(&b, "GLSL.std.450"),
      "imports are found again");
   spirv_builder_add_capability(&b, SpvCapabilityShader);
   spirv_builder_add_capability(&b, SpvCapabilityShader);
   spirv_builder_add_extension(&b, "SPV_KHR_physical_storage_buffer");
   spirv_builder_add_extension(&b, "SPV_KHR_physical_storage_buffer");
   uint32_t mm[2] = {SpvAddressingModelLogical, SpvMemoryModelGLSL450};
   spirv_build_op(&b, SPIRV_SECTION_MEMORY_MODEL, SpvOpMemoryModel, mm, 2);

   char *text = write_text(&b);
   ok(contains(text, "OpCapability Shader\n") &&
          !contains(strstr(text, "OpCapability Shader\n") + 1, "OpCapability Shader"),
      "one OpCapability Shader");
   ok(contains(text, "OpDecorate %6 ArrayStride 4") || contains(text, "ArrayStride 4"),
      "array stride decorated");
   ok(contains(text, "ArrayStride 8"), "second stride decorated");
   ok(contains(text, "OpExtInstImport \"GLSL.std.450\""), "import written");
   ok(b.result == VK_SUCCESS, "no failure");
   free(text);
   spirv_builder_finish(&b);
}

static const char *module_text = "OpCapability Shader\n"
                                 "OpMemoryModel Logical GLSL450\n"
                                 "OpEntryPoint GLCompute %main \"main\"\n"
                                 "OpExecutionMode %main LocalSize 1 1 1\n"
                                 "OpName %ushort \"ushort\"\n"
                                 "OpName %half \"half\"\n"
                                 "OpDecorate %arr ArrayStride 2\n"
                                 "%void = OpTypeVoid\n"
                                 "%half = OpTypeFloat 16\n"
                                 "%v2half = OpTypeVector %half 2\n"
                                 "%uint = OpTypeInt 32 0\n"
                                 "%uint_2 = OpConstant %uint 2\n"
                                 "%arr = OpTypeArray %half %uint_2\n"
                                 "%ushort = OpTypeInt 16 0\n"
                                 "%v2ushort = OpTypeVector %ushort 2\n"
                                 "%fn = OpTypeFunction %void\n"
                                 "%fnh = OpTypeFunction %void %v2half\n"
                                 "%fnu = OpTypeFunction %void %v2ushort\n"
                                 "%main = OpFunction %void None %fn\n"
                                 "%entry = OpLabel\n"
                                 "%u = OpUndef %v2half\n"
                                 "OpReturn\n"
                                 "OpFunctionEnd\n"
                                 "%f = OpFunction %void None %fnh\n"
                                 "%p = OpFunctionParameter %v2half\n"
                                 "%fl = OpLabel\n"
                                 "OpReturn\n"
                                 "OpFunctionEnd\n";

static VkResult
drop_undef(struct spirv_builder *b, const uint32_t *inst, void *data, bool *keep)
{
   unsigned *seen = data;
   (*seen)++;
   if ((inst[0] & 0xffffu) == SpvOpUndef)
      *keep = false;
   if ((inst[0] & 0xffffu) == SpvOpReturn) {
      uint32_t one = spirv_get_const_u32(b, 1);
      spirv_build_op_tr(b, SPIRV_SECTION_FUNCTION, SpvOpCopyObject,
                        spirv_get_type_int(b, 32, false), 0, &one, 1);
   }
   return VK_SUCCESS;
}

static void
test_copy_rewrite_replace(void)
{
   size_t count = 0;
   uint32_t *words = assemble(module_text, &count);
   struct spirv_reader r;
   struct spirv_diag diag;
   if (!words || !ok(spirv_reader_init(&r, words, count, NULL, &diag) == VK_SUCCESS, "parse: %s",
                     diag.message)) {
      free(words);
      return;
   }
   struct spirv_builder b;
   ok(spirv_builder_init_from_reader(&b, &r) == VK_SUCCESS, "copy");
   ok(b.next_id == r.bound, "ids continue at the bound");
   uint32_t ushort = spirv_get_type_int(&b, 16, false);
   ok(ushort == 2, "existing types are found (%u)", ushort);
   ok(spirv_builder_has_capability(&b, SpvCapabilityShader), "capability copied");

   unsigned seen = 0;
   ok(spirv_builder_rewrite(&b, SPIRV_SECTION_FUNCTION, drop_undef, &seen) == VK_SUCCESS,
      "rewrite");
   ok(seen == 10, "walked 10 function instructions, saw %u", seen);

   /* A variable inserted at the top of the first function. */
   uint32_t ptr = spirv_get_type_pointer(&b, SpvStorageClassFunction, ushort);
   uint32_t var = spirv_builder_alloc_id(&b);
   uint32_t inst[4] = {4u << 16 | SpvOpVariable, ptr, var, SpvStorageClassFunction};
   spirv_builder_insert(&b, SPIRV_SECTION_FUNCTION, 7, inst, 4); /* OpFunction, OpLabel */

   /* half becomes ushort: v2half merges into v2ushort, fnh into fnu, names go. */
   spirv_builder_replace_type(&b, 3, ushort);
   char *text = write_text(&b);
   if (getenv("VMEL_TEST_VERBOSE"))
      printf("%s", text ? text : "");
   ok(!contains(text, "OpTypeFloat 16"), "half is gone");
   ok(!contains(text, "OpName %3 "), "its name is gone");
   const char *vec = strstr(text ? text : "", "OpTypeVector");
   ok(vec && !strstr(vec + 1, "OpTypeVector"), "v2half and v2ushort merged");
   ok(contains(text, "%4 = OpTypeArray %2 %8"), "array element replaced");
   ok(!contains(text, "%12 = OpTypeFunction"), "fnu merged into fnh");
   ok(contains(text, "%15 = OpFunction %5 None %11"), "function type of OpFunction replaced");
   ok(contains(text, "OpFunctionParameter %6"), "parameter type replaced");
   ok(!contains(text, "OpUndef"), "dropped instruction gone");
   ok(contains(text, "OpCopyObject %7 %"), "instruction emitted during the walk");
   const char *label = strstr(text ? text : "", "%13 = OpLabel");
   ok(label && contains(label, "OpVariable") &&
          strstr(label, "OpVariable") < strstr(label, "OpReturn"),
      "inserted variable after the first label");

   /* Sorting: ushort, declared after the array in the input, now precedes it. */
   const char *t2 = strstr(text ? text : "", "%2 = OpTypeInt 16 0");
   const char *t4 = strstr(text ? text : "", "%4 = OpTypeArray");
   ok(t2 && t4 && t2 < t4, "definitions precede uses");
   free(text);
   spirv_builder_finish(&b);
   spirv_reader_finish(&r);
   free(words);
}

static void
test_remove(void)
{
   struct spirv_builder b;
   spirv_builder_init(&b, 0x00010300u, NULL);
   spirv_builder_add_capability(&b, SpvCapabilityShader);
   spirv_builder_add_capability(&b, 4174);
   spirv_builder_add_extension(&b, "SPV_ARM_tensors");
   spirv_builder_add_extension(&b, "SPV_KHR_storage_buffer_storage_class");
   ok(spirv_builder_remove_capability(&b, 4174), "capability removed");
   ok(!spirv_builder_remove_capability(&b, 4174), "only once");
   ok(spirv_builder_remove_extension(&b, "SPV_ARM_tensors"), "extension removed");
   ok(!spirv_builder_has_extension(&b, "SPV_ARM_tensors") &&
          spirv_builder_has_extension(&b, "SPV_KHR_storage_buffer_storage_class"),
      "the other extension stays");
   ok(spirv_builder_has_capability(&b, SpvCapabilityShader), "the other capability stays");
   spirv_builder_finish(&b);
}

static void
test_cycle(void)
{
   struct spirv_builder b;
   spirv_builder_init(&b, 0x00010600u, NULL);
   /* %1 = OpTypeArray %2 %3 and %2 = OpTypeArray %1 %3: a cycle. */
   uint32_t c = spirv_get_const_u32(&b, 2);
   uint32_t a1 = spirv_builder_alloc_id(&b), a2 = spirv_builder_alloc_id(&b);
   uint32_t ops1[2] = {a2, c}, ops2[2] = {a1, c};
   spirv_build_op_tr(&b, SPIRV_SECTION_GLOBAL, SpvOpTypeArray, 0, a1, ops1, 2);
   spirv_build_op_tr(&b, SPIRV_SECTION_GLOBAL, SpvOpTypeArray, 0, a2, ops2, 2);
   uint32_t *words = NULL;
   size_t count = 0;
   ok(spirv_builder_write(&b, &words, &count) == VK_ERROR_INITIALIZATION_FAILED,
      "a cycle fails to write");
   ok(words == NULL, "and writes nothing");
   spirv_builder_finish(&b);
}

int
main(void)
{
   test_memoized_types();
   test_copy_rewrite_replace();
   test_remove();
   test_cycle();
   return test_done();
}
