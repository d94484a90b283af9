/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The entry point of the direct tensor lowering: parses the input with the
 * shared reader, copies it into a builder, runs the fixed pass list
 * (tsr_lower_private.h) and writes the result. Also the helpers every pass
 * uses to look at the input (definitions, constants, scalar kinds) and to
 * report failures with the word offset of the instruction at fault.
 */
#include "tsr_lower_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lyr_alloc.h"

bool
tsr_lower_fail(struct tsr_lower *l, VkResult result, uint32_t offset, const char *fmt, ...)
{
   if (l->result != VK_SUCCESS)
      return false;
   l->result = result;
   if (l->err && l->err_len) {
      int n = snprintf(l->err, l->err_len, "word %u: ", offset);
      if (n >= 0 && (size_t)n < l->err_len) {
         va_list ap;
         va_start(ap, fmt);
         vsnprintf(l->err + n, l->err_len - (size_t)n, fmt, ap);
         va_end(ap);
      }
   }
   return false;
}

const struct spirv_inst *
tsr_lower_def(const struct tsr_lower *l, uint32_t id)
{
   return spirv_reader_def(&l->r, id);
}

const uint32_t *
tsr_lower_def_words(const struct tsr_lower *l, uint32_t id)
{
   const struct spirv_inst *inst = spirv_reader_def(&l->r, id);
   return inst ? spirv_reader_inst_words(&l->r, inst) : NULL;
}

uint32_t
tsr_lower_def_opcode(const struct tsr_lower *l, uint32_t id)
{
   const struct spirv_inst *inst = spirv_reader_def(&l->r, id);
   return inst ? inst->opcode : SpvOpNop;
}

uint32_t
tsr_lower_type_of(const struct tsr_lower *l, uint32_t id)
{
   const struct spirv_inst *inst = spirv_reader_def(&l->r, id);
   return inst ? spirv_reader_result_type(&l->r, inst) : 0;
}

bool
tsr_lower_const_uint(const struct tsr_lower *l, uint32_t id, uint64_t *value)
{
   const struct spirv_inst *inst = spirv_reader_def(&l->r, id);
   if (!inst || inst->opcode != SpvOpConstant || inst->word_count < 4)
      return false;
   const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
   const uint32_t *type = tsr_lower_def_words(l, w[1]);
   if (!type || (type[0] & 0xffffu) != SpvOpTypeInt || (type[0] >> 16) < 4)
      return false;
   uint32_t width = type[2];
   if (width > 32) {
      if (inst->word_count < 5)
         return false;
      *value = (uint64_t)w[4] << 32 | w[3];
   } else {
      *value = width < 32 ? w[3] & ((1u << width) - 1) : w[3];
   }
   return true;
}

bool
tsr_lower_scalar_kind(const struct tsr_lower *l, uint32_t type, enum tsr_elem_kind *kind,
                      uint32_t *bits)
{
   const uint32_t *w = tsr_lower_def_words(l, type);
   if (!w)
      return false;
   uint32_t wc = w[0] >> 16;
   switch (w[0] & 0xffffu) {
   case SpvOpTypeBool:
      *kind = TSR_ELEM_BOOL;
      *bits = 8;
      return true;
   case SpvOpTypeInt:
      if (wc < 4)
         return false;
      *kind = TSR_ELEM_INT;
      *bits = w[2];
      return w[2] == 8 || w[2] == 16 || w[2] == 32 || w[2] == 64;
   case SpvOpTypeFloat:
      if (wc < 3)
         return false;
      *bits = w[2];
      if (wc == 3) {
         *kind = TSR_ELEM_FLOAT;
         return w[2] == 16 || w[2] == 32 || w[2] == 64;
      }
      if (w[3] == SPV_ARM_FP_ENCODING_BFLOAT16_KHR && w[2] == 16)
         *kind = TSR_ELEM_BF16;
      else if (w[3] == SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT && w[2] == 8)
         *kind = TSR_ELEM_E4M3;
      else if (w[3] == SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT && w[2] == 8)
         *kind = TSR_ELEM_E5M2;
      else
         return false;
      return true;
   default:
      return false;
   }
}

const char *
tsr_lower_op_name(uint32_t opcode)
{
   switch (opcode) {
   case SPV_ARM_OP_TYPE_TENSOR:
      return "OpTypeTensorARM";
   case SPV_ARM_OP_TENSOR_READ:
      return "OpTensorReadARM";
   case SPV_ARM_OP_TENSOR_WRITE:
      return "OpTensorWriteARM";
   case SPV_ARM_OP_TENSOR_QUERY_SIZE:
      return "OpTensorQuerySizeARM";
   case SpvOpTypePointer:
      return "OpTypePointer";
   case SpvOpTypeArray:
      return "OpTypeArray";
   case SpvOpTypeRuntimeArray:
      return "OpTypeRuntimeArray";
   case SpvOpTypeStruct:
      return "OpTypeStruct";
   case SpvOpTypeFunction:
      return "OpTypeFunction";
   case SpvOpTypeFloat:
      return "OpTypeFloat";
   case SpvOpVariable:
      return "OpVariable";
   case SpvOpLoad:
      return "OpLoad";
   case SpvOpAccessChain:
      return "OpAccessChain";
   case SpvOpInBoundsAccessChain:
      return "OpInBoundsAccessChain";
   case SpvOpFunctionParameter:
      return "OpFunctionParameter";
   case SpvOpFunctionCall:
      return "OpFunctionCall";
   case SpvOpCopyObject:
      return "OpCopyObject";
   case SpvOpEntryPoint:
      return "OpEntryPoint";
   case SpvOpMemoryModel:
      return "OpMemoryModel";
   case SpvOpSpecConstantOp:
      return "OpSpecConstantOp";
   case SpvOpCapability:
      return "OpCapability";
   default:
      return "instruction";
   }
}

uint32_t
tsr_glsl(struct tsr_lower *l, uint32_t inst, uint32_t type, const uint32_t *ops, uint32_t n)
{
   uint32_t words[4] = {spirv_get_ext_import(&l->b, "GLSL.std.450"), inst};
   for (uint32_t i = 0; i < n && i < 2; i++)
      words[2 + i] = ops[i];
   return tsr_op(l, SpvOpExtInst, type, words, 2 + (n < 2 ? n : 2));
}

static bool
alloc_tables(struct tsr_lower *l)
{
   size_t n = l->bound;
   size_t bytes = n * (sizeof(uint16_t) + 4 * sizeof(uint32_t));
   uint8_t *mem = lyr_zalloc(l->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!mem)
      return tsr_lower_fail(l, VK_ERROR_OUT_OF_HOST_MEMORY, 0, "out of memory for %zu ids", n);
   l->tensor_of = (uint32_t *)mem;
   l->splits = l->tensor_of + n;
   l->loop_merge = l->splits + n;
   l->label_tail = l->loop_merge + n;
   l->flags = (uint16_t *)(l->label_tail + n);
   memset(l->loop_merge, 0xff, n * sizeof(uint32_t));
   return true;
}

static void
lower_finish(struct tsr_lower *l)
{
   spirv_builder_finish(&l->b);
   spirv_reader_finish(&l->r);
   lyr_free(l->alloc, l->tensor_of);
   lyr_free(l->alloc, l->tensors);
}

static const struct {
   const char *name;
   bool (*run)(struct tsr_lower *l);
} passes[] = {
    {"structure", tsr_lower_structure},
    {"analyze", tsr_lower_analyze},
    {"tensor_types", tsr_lower_tensor_types},
    {"tensor_access", tsr_lower_tensor_access},
    {"small_floats", tsr_lower_small_floats},
    {"capabilities", tsr_lower_capabilities},
    {"glsl_compat", tsr_lower_glsl_compat},
};

VkResult
tsr_lower_tensors(const uint32_t *words, size_t count, const struct tsr_lower_options *opts,
                  uint32_t **out, size_t *out_count, char *err, size_t err_len)
{
   static const struct tsr_lower_options defaults = {TSR_LOWER_FEATURES_ALL, NULL, false};
   struct tsr_lower l = {
       .opts = opts ? opts : &defaults,
       .result = VK_SUCCESS,
       .err = err,
       .err_len = err_len,
   };
   l.alloc = l.opts->alloc ? l.opts->alloc : &lyr_default_alloc;
   *out = NULL;
   *out_count = 0;
   if (err && err_len)
      err[0] = '\0';

   struct spirv_diag diag = {0};
   VkResult result = spirv_reader_init(&l.r, words, count, l.alloc, &diag);
   if (result != VK_SUCCESS) {
      tsr_lower_fail(&l, result, diag.offset, "%s: %s", spirv_error_name(diag.code), diag.message);
      lower_finish(&l);
      return result;
   }
   l.bound = l.r.bound;
   if (spirv_builder_init_from_reader(&l.b, &l.r) != VK_SUCCESS)
      tsr_lower_fail(&l, VK_ERROR_OUT_OF_HOST_MEMORY, 0, "out of memory copying the module");
   else
      alloc_tables(&l);

   for (size_t i = 0; i < sizeof(passes) / sizeof(passes[0]) && l.result == VK_SUCCESS; i++) {
      passes[i].run(&l);
      if (l.result == VK_SUCCESS && spirv_builder_result(&l.b) != VK_SUCCESS)
         tsr_lower_fail(&l, spirv_builder_result(&l.b), 0, "pass %s: %s", passes[i].name,
                        l.b.failure ? l.b.failure : "builder failure");
   }

   if (l.result == VK_SUCCESS) {
      result = spirv_builder_write(&l.b, out, out_count);
      if (result != VK_SUCCESS)
         tsr_lower_fail(&l, result, 0, "writing the module: %s",
                        l.b.failure ? l.b.failure : "failure");
   }
   result = l.result;
   lower_finish(&l);
   return result;
}

void
tsr_lower_free(const struct tsr_lower_options *opts, uint32_t *words)
{
   lyr_free(opts && opts->alloc ? opts->alloc : &lyr_default_alloc, words);
}

uint32_t
tsr_lower_feature_from_name(const char *name, size_t len)
{
   static const struct {
      const char *name;
      uint32_t bit;
   } names[] = {
      {"int8", TSR_LOWER_FEATURE_INT8},
      {"int16", TSR_LOWER_FEATURE_INT16},
      {"int64", TSR_LOWER_FEATURE_INT64},
      {"float16", TSR_LOWER_FEATURE_FLOAT16},
      {"float64", TSR_LOWER_FEATURE_FLOAT64},
      {"storage8", TSR_LOWER_FEATURE_STORAGE8},
      {"storage16", TSR_LOWER_FEATURE_STORAGE16},
      {"non_uniform", TSR_LOWER_FEATURE_NON_UNIFORM},
      {"runtime_array", TSR_LOWER_FEATURE_RUNTIME_ARRAY},
      {"vertex", TSR_LOWER_FEATURE_VERTEX},
      {"fragment", TSR_LOWER_FEATURE_FRAGMENT},
   };
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (strlen(names[i].name) == len && !memcmp(names[i].name, name, len))
         return names[i].bit;
   }
   return 0;
}
