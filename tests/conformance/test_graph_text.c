/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The conformance runner's module writer (graph_text.c), without Vulkan: every operator's
 * module assembles with vmel-as's assembler, for every element type the operator's rows use;
 * three modules equal text written by hand from TOSA.001000.1's operand order (CLAMP after
 * tests/data/spirv/graph_clamp.spvasm, CONV2D with graph-constant weights and zero points,
 * CONCAT of an operand twice); and every float literal the writer spells assembles back to the
 * exact bit pattern it came from (all fp8 and every 7th fp16/bf16 pattern, NaN payloads and
 * subnormals included), as do negative integers of 8 to 64 bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_text.h"
#include "spirv_text.h"
#include "test.h"

TEST_MAIN_STATE;

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define RANK(...) ((uint32_t)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define TYPE(dt, ...) type((dt), RANK(__VA_ARGS__), SHAPE(__VA_ARGS__))

static struct gt_type
type(enum ref_dtype dt, uint32_t rank, const int64_t *shape)
{
   struct gt_type t = {.dtype = dt, .rank = rank};
   memcpy(t.shape, shape, rank * sizeof(int64_t));
   return t;
}

static struct gt_input
input(struct gt_type t)
{
   return (struct gt_input){.type = t, .source = GT_GRAPH_INPUT};
}

static struct gt_input
constant(struct gt_type t)
{
   return (struct gt_input){.type = t, .source = GT_GRAPH_CONSTANT};
}

static struct gt_scalar
scalar(enum ref_dtype dt, uint64_t bits)
{
   return (struct gt_scalar){dt, bits};
}

static void
conv_attrs(struct gt_op *op, const int32_t *pad, const int32_t *stride, const int32_t *dilation,
           uint32_t acc_type, bool local_bound)
{
   memcpy(op->attr.conv2d.pad, pad, 4 * sizeof(int32_t));
   memcpy(op->attr.conv2d.stride, stride, 2 * sizeof(int32_t));
   memcpy(op->attr.conv2d.dilation, dilation, 2 * sizeof(int32_t));
   op->attr.conv2d.acc_type = acc_type;
   op->attr.conv2d.local_bound = local_bound;
}

/* Writes and assembles; returns the words (free()) or NULL. */
static uint32_t *
write_and_assemble(const char *what, const struct gt_op *op, char **text_out, size_t *count)
{
   char *text = NULL, err[256] = "";
   if (!ok(gt_write(op, &text, err, sizeof(err)), "%s: gt_write: %s", what, err))
      return NULL;
   uint32_t *words = NULL;
   size_t n = 0;
   bool assembled = spirv_text_assemble(text, strlen(text), &words, &n, err, sizeof(err));
   ok(assembled, "%s: does not assemble: %s\n%s", what, err, text);
   if (text_out)
      *text_out = text;
   else
      free(text);
   if (count)
      *count = n;
   return assembled ? words : NULL;
}

static void
assembles(const char *what, const struct gt_op *op)
{
   free(write_and_assemble(what, op, NULL, NULL));
}

/* ---- every operator assembles ------------------------------------------------------------- */

static void
test_every_operator(void)
{
   static const enum ref_dtype all[] = {
       REF_DTYPE_BOOL, REF_DTYPE_I8,   REF_DTYPE_I16,  REF_DTYPE_I32,     REF_DTYPE_I48,
       REF_DTYPE_FP16, REF_DTYPE_BF16, REF_DTYPE_FP32, REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E5M2,
   };
   char what[64];
   for (uint32_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
      enum ref_dtype dt = all[i];
      struct gt_op op = {.op = TOSA_REF_OP_ADD, .input_count = 2};
      op.inputs[0] = input(TYPE(dt, 2, 3));
      op.inputs[1] = input(TYPE(dt, 1, 3));
      op.output = TYPE(dt, 2, 3);
      snprintf(what, sizeof(what), "ADD %s", ref_dtype_name(dt));
      assembles(what, &op);

      op = (struct gt_op){.op = TOSA_REF_OP_CLAMP, .input_count = 1};
      op.inputs[0] = input(TYPE(dt, 4, 1, 2, 3, 5, 6));
      op.output = op.inputs[0].type;
      op.attr.clamp.min_val = scalar(dt, 1);
      op.attr.clamp.max_val = scalar(dt, 0x7f);
      op.attr.clamp.nan_mode = 2;
      snprintf(what, sizeof(what), "CLAMP %s", ref_dtype_name(dt));
      assembles(what, &op);

      op = (struct gt_op){.op = TOSA_REF_OP_RESHAPE, .input_count = 1};
      op.inputs[0] = constant(TYPE(dt, 2, 3, 4));
      op.output = TYPE(dt, 24);
      op.attr.reshape.shape[0] = 24;
      op.attr.reshape.shape_count = 1;
      snprintf(what, sizeof(what), "RESHAPE %s (of a graph constant)", ref_dtype_name(dt));
      assembles(what, &op);

      op = (struct gt_op){.op = TOSA_REF_OP_CONCAT, .input_count = 4};
      op.inputs[0] = input(TYPE(dt, 2, 1));
      op.inputs[1] = constant(TYPE(dt, 2, 2));
      op.inputs[2] = input(TYPE(dt, 2, 3));
      op.inputs[3] = (struct gt_input){.alias = 1};
      op.output = TYPE(dt, 2, 7);
      op.attr.concat.axis = 1;
      snprintf(what, sizeof(what), "CONCAT %s", ref_dtype_name(dt));
      assembles(what, &op);

      op = (struct gt_op){.op = TOSA_REF_OP_MAX_POOL2D, .input_count = 1};
      op.inputs[0] = input(TYPE(dt, 1, 4, 4, 2));
      op.output = TYPE(dt, 1, 2, 2, 2);
      op.attr.max_pool2d.kernel[0] = op.attr.max_pool2d.kernel[1] = 2;
      op.attr.max_pool2d.stride[0] = op.attr.max_pool2d.stride[1] = 2;
      op.attr.max_pool2d.nan_mode = 1;
      snprintf(what, sizeof(what), "MAX_POOL2D %s", ref_dtype_name(dt));
      assembles(what, &op);

      op = (struct gt_op){.op = TOSA_REF_OP_MATMUL, .input_count = 2};
      op.inputs[0] = input(TYPE(dt, 1, 2, 3));
      op.inputs[1] = constant(TYPE(dt, 1, 3, 4));
      op.output = TYPE(REF_DTYPE_I32, 1, 2, 4);
      op.attr.matmul.a_zp = scalar(dt, 0x80);
      op.attr.matmul.b_zp = scalar(dt, 0xff);
      snprintf(what, sizeof(what), "MATMUL %s", ref_dtype_name(dt));
      assembles(what, &op);
   }

   struct gt_op op = {.op = TOSA_REF_OP_MUL, .input_count = 2};
   op.inputs[0] = input(TYPE(REF_DTYPE_I32, 3, 1));
   op.inputs[1] = (struct gt_input){.alias = 1};
   op.output = TYPE(REF_DTYPE_I32, 3, 1);
   op.attr.mul.shift = scalar(REF_DTYPE_I8, 63);
   assembles("MUL i32 x*x", &op);
   op.op = TOSA_REF_OP_SUB;
   assembles("SUB i32 x-x", &op);

   op = (struct gt_op){.op = TOSA_REF_OP_CONV2D, .input_count = 3};
   op.inputs[0] = input(TYPE(REF_DTYPE_I16, 1, 5, 5, 3));
   op.inputs[1] = input(TYPE(REF_DTYPE_I8, 4, 3, 3, 3));
   op.inputs[2] = constant(TYPE(REF_DTYPE_I48, 4));
   op.output = TYPE(REF_DTYPE_I48, 1, 3, 3, 4);
   conv_attrs(&op, (const int32_t[]){0, 0, 0, 0}, (const int32_t[]){1, 1}, (const int32_t[]){1, 1},
              4, false);
   op.attr.conv2d.input_zp = scalar(REF_DTYPE_I16, 0);
   op.attr.conv2d.weight_zp = scalar(REF_DTYPE_I8, 0xfe);
   assembles("CONV2D i16 x i8", &op);

   static const uint64_t mult[3] = {1u << 30, 0, 0x7fffffff}, shift[3] = {30, 2, 62};
   op = (struct gt_op){.op = TOSA_REF_OP_RESCALE, .input_count = 1};
   op.inputs[0] = input(TYPE(REF_DTYPE_I48, 2, 3));
   op.output = TYPE(REF_DTYPE_I16, 2, 3);
   op.attr.rescale.rounding_mode = 3;
   op.attr.rescale.per_channel = true;
   op.attr.rescale.output_unsigned = true;
   op.attr.rescale.multiplier = (struct gt_const){REF_DTYPE_I32, 3, mult};
   op.attr.rescale.shift = (struct gt_const){REF_DTYPE_I8, 3, shift};
   op.attr.rescale.input_zp = scalar(REF_DTYPE_I48, UINT64_MAX);
   op.attr.rescale.output_zp = scalar(REF_DTYPE_I16, 32768);
   assembles("RESCALE i48 -> u16", &op);

   /* 64 channels of distinct scales (the most the conformance cases use). */
   uint64_t mult64[64], shift64[64];
   for (uint32_t ch = 0; ch < 64; ch++) {
      mult64[ch] = (UINT64_C(1) << 30) + ch * 977u;
      shift64[ch] = 2 + ch % 61;
   }
   op = (struct gt_op){.op = TOSA_REF_OP_RESCALE, .input_count = 1};
   op.inputs[0] = input(TYPE(REF_DTYPE_I32, 3, 64));
   op.output = TYPE(REF_DTYPE_I8, 3, 64);
   op.attr.rescale.scale32 = true;
   op.attr.rescale.rounding_mode = 1;
   op.attr.rescale.per_channel = true;
   op.attr.rescale.multiplier = (struct gt_const){REF_DTYPE_I32, 64, mult64};
   op.attr.rescale.shift = (struct gt_const){REF_DTYPE_I8, 64, shift64};
   op.attr.rescale.input_zp = scalar(REF_DTYPE_I32, 0);
   op.attr.rescale.output_zp = scalar(REF_DTYPE_I8, 0x80);
   assembles("RESCALE i32 -> i8, 64 channels", &op);

   /* What the writer refuses. */
   char *text = NULL;
   op = (struct gt_op){.op = TOSA_REF_OP_COUNT, .input_count = 1};
   op.inputs[0] = input(TYPE(REF_DTYPE_I8, 2));
   op.output = op.inputs[0].type;
   ok(!gt_write(&op, &text, NULL, 0), "an unknown operator is refused");
   op.op = TOSA_REF_OP_CLAMP;
   op.output.rank = 7;
   ok(!gt_write(&op, &text, NULL, 0), "rank 7 is refused");
   op.output.rank = 1;
   op.inputs[0].alias = 1;
   ok(!gt_write(&op, &text, NULL, 0), "an alias of itself is refused");
   ok(text == NULL, "no text on failure");
}

/* ---- modules written by hand ------------------------------------------------------------- */

/* out = CLAMP(in, -1.0, 1.0, PROPAGATE) on fp32 [1, 4], as tests/data/spirv/graph_clamp.spvasm
 * writes its CLAMP. */
static const char clamp_text[] =
    "; TOSA.001000.1 single-operator graph (tests/conformance/graph_text.c)\n"
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability TensorsARM\n"
    "OpCapability GraphARM\n"
    "OpExtension \"SPV_ARM_tensors\"\n"
    "OpExtension \"SPV_ARM_graph\"\n"
    "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpDecorate %var_in0 DescriptorSet 0\n"
    "OpDecorate %var_in0 Binding 0\n"
    "OpDecorate %var_out DescriptorSet 0\n"
    "OpDecorate %var_out Binding 1\n"
    "%i32 = OpTypeInt 32 0\n"
    "%f32 = OpTypeFloat 32\n"
    "%i32_0 = OpConstant %i32 0\n"
    "%i32_1 = OpConstant %i32 1\n"
    "%i32_2 = OpConstant %i32 2\n"
    "%i32_4 = OpConstant %i32 4\n"
    "%f32_xbf800000 = OpConstant %f32 -0x1p+0\n"
    "%f32_x3f800000 = OpConstant %f32 0x1p+0\n"
    "%arr_2 = OpTypeArray %i32 %i32_2\n"
    "%sh_1x4 = OpConstantComposite %arr_2 %i32_1 %i32_4\n"
    "%t_f32_1x4 = OpTypeTensorARM %f32 %i32_2 %sh_1x4\n"
    "%p_t_f32_1x4 = OpTypePointer UniformConstant %t_f32_1x4\n"
    "%var_in0 = OpVariable %p_t_f32_1x4 UniformConstant\n"
    "%var_out = OpVariable %p_t_f32_1x4 UniformConstant\n"
    "%graph_type = OpTypeGraphARM 1 %t_f32_1x4 %t_f32_1x4\n"
    "OpGraphEntryPointARM %graph \"main\" %var_in0 %var_out\n"
    "%graph = OpGraphARM %graph_type\n"
    "%in0 = OpGraphInputARM %t_f32_1x4 %i32_0\n"
    "%result = OpExtInst %t_f32_1x4 %tosa CLAMP %f32_xbf800000 %f32_x3f800000 %i32_1 %in0\n"
    "OpGraphSetOutputARM %result %i32_0\n"
    "OpGraphEndARM\n";

/* CONV2D i8 x i8 -> i32: pad [1,0,0,1], stride [2,1], dilation [1,2], acc INT32, local_bound
 * true; input [1,5,6,2] a graph input, weight [3,2,2,2] and bias [1] graph constants 0 and 1,
 * input_zp -5 and weight_zp 7 as tensor constants (operands after the tensors); output
 * [1,3,5,3]: OH = (5 - 1 + 1 + 0 - 1 * 1) / 2 + 1, OW = (6 - 1 + 0 + 1 - 1 * 2) / 1 + 1. */
static const char conv_text[] =
    "; TOSA.001000.1 single-operator graph (tests/conformance/graph_text.c)\n"
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability Int8\n"
    "OpCapability TensorsARM\n"
    "OpCapability GraphARM\n"
    "OpExtension \"SPV_ARM_tensors\"\n"
    "OpExtension \"SPV_ARM_graph\"\n"
    "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpDecorate %var_in0 DescriptorSet 0\n"
    "OpDecorate %var_in0 Binding 0\n"
    "OpDecorate %var_out DescriptorSet 0\n"
    "OpDecorate %var_out Binding 1\n"
    "%bool = OpTypeBool\n"
    "%i8 = OpTypeInt 8 0\n"
    "%i32 = OpTypeInt 32 0\n"
    "%true = OpConstantTrue %bool\n"
    "%false = OpConstantFalse %bool\n"
    "%i32_0 = OpConstant %i32 0\n"
    "%i32_1 = OpConstant %i32 1\n"
    "%i32_2 = OpConstant %i32 2\n"
    "%i32_3 = OpConstant %i32 3\n"
    "%i32_4 = OpConstant %i32 4\n"
    "%i32_5 = OpConstant %i32 5\n"
    "%i32_6 = OpConstant %i32 6\n"
    "%i8_m5 = OpConstant %i8 0xfb\n"
    "%i8_7 = OpConstant %i8 7\n"
    "%arr_1 = OpTypeArray %i32 %i32_1\n"
    "%arr_4 = OpTypeArray %i32 %i32_4\n"
    "%sh_1x5x6x2 = OpConstantComposite %arr_4 %i32_1 %i32_5 %i32_6 %i32_2\n"
    "%sh_3x2x2x2 = OpConstantComposite %arr_4 %i32_3 %i32_2 %i32_2 %i32_2\n"
    "%sh_1 = OpConstantComposite %arr_1 %i32_1\n"
    "%sh_1x3x5x3 = OpConstantComposite %arr_4 %i32_1 %i32_3 %i32_5 %i32_3\n"
    "%sh_4 = OpConstantComposite %arr_1 %i32_4\n"
    "%sh_2 = OpConstantComposite %arr_1 %i32_2\n"
    "%t_i8_1x5x6x2 = OpTypeTensorARM %i8 %i32_4 %sh_1x5x6x2\n"
    "%t_i8_3x2x2x2 = OpTypeTensorARM %i8 %i32_4 %sh_3x2x2x2\n"
    "%t_i32_1 = OpTypeTensorARM %i32 %i32_1 %sh_1\n"
    "%t_i32_1x3x5x3 = OpTypeTensorARM %i32 %i32_4 %sh_1x3x5x3\n"
    "%t_i32_4 = OpTypeTensorARM %i32 %i32_1 %sh_4\n"
    "%t_i32_2 = OpTypeTensorARM %i32 %i32_1 %sh_2\n"
    "%t_i8_1 = OpTypeTensorARM %i8 %i32_1 %sh_1\n"
    "%p_t_i8_1x5x6x2 = OpTypePointer UniformConstant %t_i8_1x5x6x2\n"
    "%p_t_i32_1x3x5x3 = OpTypePointer UniformConstant %t_i32_1x3x5x3\n"
    "%var_in0 = OpVariable %p_t_i8_1x5x6x2 UniformConstant\n"
    "%var_out = OpVariable %p_t_i32_1x3x5x3 UniformConstant\n"
    "%pad = OpConstantComposite %t_i32_4 %i32_1 %i32_0 %i32_0 %i32_1\n"
    "%stride = OpConstantComposite %t_i32_2 %i32_2 %i32_1\n"
    "%dilation = OpConstantComposite %t_i32_2 %i32_1 %i32_2\n"
    "%input_zp = OpConstantComposite %t_i8_1 %i8_m5\n"
    "%weight_zp = OpConstantComposite %t_i8_1 %i8_7\n"
    "%const0 = OpGraphConstantARM %t_i8_3x2x2x2 0\n"
    "%const1 = OpGraphConstantARM %t_i32_1 1\n"
    "%graph_type = OpTypeGraphARM 1 %t_i8_1x5x6x2 %t_i32_1x3x5x3\n"
    "OpGraphEntryPointARM %graph \"main\" %var_in0 %var_out\n"
    "%graph = OpGraphARM %graph_type\n"
    "%in0 = OpGraphInputARM %t_i8_1x5x6x2 %i32_0\n"
    "%result = OpExtInst %t_i32_1x3x5x3 %tosa CONV2D %pad %stride %dilation %i32_1 %true %in0 "
    "%const0 %const1 %input_zp %weight_zp\n"
    "OpGraphSetOutputARM %result %i32_0\n"
    "OpGraphEndARM\n";

/* CONCAT along axis 0 of (x, y, x) on bf16: two graph inputs, x used twice. */
static const char concat_text[] =
    "; TOSA.001000.1 single-operator graph (tests/conformance/graph_text.c)\n"
    "OpCapability Shader\n"
    "OpCapability VulkanMemoryModel\n"
    "OpCapability BFloat16TypeKHR\n"
    "OpCapability TensorsARM\n"
    "OpCapability GraphARM\n"
    "OpExtension \"SPV_ARM_tensors\"\n"
    "OpExtension \"SPV_ARM_graph\"\n"
    "OpExtension \"SPV_KHR_bfloat16\"\n"
    "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
    "OpMemoryModel Logical Vulkan\n"
    "OpDecorate %var_in0 DescriptorSet 0\n"
    "OpDecorate %var_in0 Binding 0\n"
    "OpDecorate %var_in1 DescriptorSet 0\n"
    "OpDecorate %var_in1 Binding 1\n"
    "OpDecorate %var_out DescriptorSet 0\n"
    "OpDecorate %var_out Binding 2\n"
    "%i32 = OpTypeInt 32 0\n"
    "%bf16 = OpTypeFloat 16 BFloat16KHR\n"
    "%i32_0 = OpConstant %i32 0\n"
    "%i32_1 = OpConstant %i32 1\n"
    "%i32_2 = OpConstant %i32 2\n"
    "%i32_3 = OpConstant %i32 3\n"
    "%i32_7 = OpConstant %i32 7\n"
    "%arr_2 = OpTypeArray %i32 %i32_2\n"
    "%sh_2x3 = OpConstantComposite %arr_2 %i32_2 %i32_3\n"
    "%sh_3x3 = OpConstantComposite %arr_2 %i32_3 %i32_3\n"
    "%sh_7x3 = OpConstantComposite %arr_2 %i32_7 %i32_3\n"
    "%t_bf16_2x3 = OpTypeTensorARM %bf16 %i32_2 %sh_2x3\n"
    "%t_bf16_3x3 = OpTypeTensorARM %bf16 %i32_2 %sh_3x3\n"
    "%t_bf16_7x3 = OpTypeTensorARM %bf16 %i32_2 %sh_7x3\n"
    "%p_t_bf16_2x3 = OpTypePointer UniformConstant %t_bf16_2x3\n"
    "%p_t_bf16_3x3 = OpTypePointer UniformConstant %t_bf16_3x3\n"
    "%p_t_bf16_7x3 = OpTypePointer UniformConstant %t_bf16_7x3\n"
    "%var_in0 = OpVariable %p_t_bf16_2x3 UniformConstant\n"
    "%var_in1 = OpVariable %p_t_bf16_3x3 UniformConstant\n"
    "%var_out = OpVariable %p_t_bf16_7x3 UniformConstant\n"
    "%graph_type = OpTypeGraphARM 2 %t_bf16_2x3 %t_bf16_3x3 %t_bf16_7x3\n"
    "OpGraphEntryPointARM %graph \"main\" %var_in0 %var_in1 %var_out\n"
    "%graph = OpGraphARM %graph_type\n"
    "%in0 = OpGraphInputARM %t_bf16_2x3 %i32_0\n"
    "%in1 = OpGraphInputARM %t_bf16_3x3 %i32_1\n"
    "%result = OpExtInst %t_bf16_7x3 %tosa CONCAT %i32_0 %in0 %in1 %in0\n"
    "OpGraphSetOutputARM %result %i32_0\n"
    "OpGraphEndARM\n";

static void
same_text(const char *what, const struct gt_op *op, const char *expected)
{
   char *text = NULL;
   uint32_t *words = write_and_assemble(what, op, &text, NULL);
   if (text && !ok(strcmp(text, expected) == 0, "%s: not the text written by hand", what)) {
      /* The first line that differs. */
      const char *a = text, *b = expected;
      while (*a && *a == *b) {
         a++;
         b++;
      }
      while (a > text && a[-1] != '\n') {
         a--;
         b--;
      }
      fprintf(stderr, "  written: %.*s\n  by hand: %.*s\n", (int)strcspn(a, "\n"), a,
              (int)strcspn(b, "\n"), b);
   }
   free(text);
   free(words);
}

static void
test_by_hand(void)
{
   struct gt_op op = {.op = TOSA_REF_OP_CLAMP, .input_count = 1};
   op.inputs[0] = input(TYPE(REF_DTYPE_FP32, 1, 4));
   op.output = op.inputs[0].type;
   op.attr.clamp.min_val = scalar(REF_DTYPE_FP32, 0xbf800000u);
   op.attr.clamp.max_val = scalar(REF_DTYPE_FP32, 0x3f800000u);
   op.attr.clamp.nan_mode = 1;
   same_text("CLAMP fp32", &op, clamp_text);

   op = (struct gt_op){.op = TOSA_REF_OP_CONV2D, .input_count = 3};
   op.inputs[0] = input(TYPE(REF_DTYPE_I8, 1, 5, 6, 2));
   op.inputs[1] = constant(TYPE(REF_DTYPE_I8, 3, 2, 2, 2));
   op.inputs[2] = constant(TYPE(REF_DTYPE_I32, 1));
   op.output = TYPE(REF_DTYPE_I32, 1, 3, 5, 3);
   conv_attrs(&op, (const int32_t[]){1, 0, 0, 1}, (const int32_t[]){2, 1}, (const int32_t[]){1, 2},
              1, true);
   op.attr.conv2d.input_zp = scalar(REF_DTYPE_I8, 0xfb);
   op.attr.conv2d.weight_zp = scalar(REF_DTYPE_I8, 7);
   same_text("CONV2D i8", &op, conv_text);

   op = (struct gt_op){.op = TOSA_REF_OP_CONCAT, .input_count = 3};
   op.inputs[0] = input(TYPE(REF_DTYPE_BF16, 2, 3));
   op.inputs[1] = input(TYPE(REF_DTYPE_BF16, 3, 3));
   op.inputs[2] = (struct gt_input){.alias = 1};
   op.output = TYPE(REF_DTYPE_BF16, 7, 3);
   same_text("CONCAT bf16 (x, y, x)", &op, concat_text);
}

/* ---- literals ------------------------------------------------------------------------------- */

/* The literal words of the OpConstant instructions whose type is `type_opcode` (OpTypeInt 21,
 * OpTypeFloat 22) of `width`: whether one of them holds `bits`. */
static bool
has_constant(const uint32_t *words, size_t count, uint32_t type_opcode, uint32_t width,
             uint64_t bits)
{
   uint32_t type_id = 0;
   for (size_t i = 5; i < count;) {
      uint32_t opcode = words[i] & 0xffff, wc = words[i] >> 16;
      if (wc == 0 || i + wc > count)
         return false;
      if (opcode == type_opcode && words[i + 2] == width && wc >= 3)
         type_id = words[i + 1];
      if (opcode == 43 /* OpConstant */ && type_id && words[i + 1] == type_id) {
         uint64_t v = words[i + 3];
         if (wc >= 5)
            v |= (uint64_t)words[i + 4] << 32;
         uint64_t mask = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
         if ((v & mask) == (bits & mask))
            return true;
      }
      i += wc;
   }
   return false;
}

static void
literal_round_trip(enum ref_dtype dt, uint64_t bits)
{
   bool is_float = ref_dtype_is_float(dt);
   struct gt_op op = {.op = TOSA_REF_OP_CLAMP, .input_count = 1};
   op.inputs[0] = input(TYPE(dt, 2));
   op.output = op.inputs[0].type;
   op.attr.clamp.min_val = scalar(dt, bits);
   op.attr.clamp.max_val = scalar(dt, bits);
   op.attr.clamp.nan_mode = 1;
   size_t count = 0;
   char what[64];
   snprintf(what, sizeof(what), "%s 0x%llx", ref_dtype_name(dt), (unsigned long long)bits);
   uint32_t *words = write_and_assemble(what, &op, NULL, &count);
   uint32_t width = dt == REF_DTYPE_I48 ? 64 : (uint32_t)ref_dtype_size(dt) * 8;
   if (words)
      ok(has_constant(words, count, is_float ? 22 : 21, width, bits),
         "%s: the literal does not assemble to its bits", what);
   free(words);
}

static void
test_literals(void)
{
   for (uint64_t b = 0; b < 256; b++) {
      literal_round_trip(REF_DTYPE_FP8E4M3, b);
      literal_round_trip(REF_DTYPE_FP8E5M2, b);
      literal_round_trip(REF_DTYPE_I8, b);
   }
   for (uint64_t b = 0; b < 65536; b += 7) {
      literal_round_trip(REF_DTYPE_FP16, b);
      literal_round_trip(REF_DTYPE_BF16, b);
   }
   static const uint64_t specials16[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x7c00,
                                         0xfc00, 0x7e00, 0x7c01, 0xffff, 0x7bff, 0x0400};
   for (uint32_t i = 0; i < sizeof(specials16) / sizeof(specials16[0]); i++) {
      literal_round_trip(REF_DTYPE_FP16, specials16[i]);
      literal_round_trip(REF_DTYPE_BF16, specials16[i]);
      literal_round_trip(REF_DTYPE_I16, specials16[i]);
   }
   static const uint64_t specials32[] = {0x00000000, 0x80000000, 0x00000001, 0x807fffff,
                                         0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
                                         0xffffffff, 0x7f7fffff, 0x00800000, 0x3eaaaaab};
   for (uint32_t i = 0; i < sizeof(specials32) / sizeof(specials32[0]); i++) {
      literal_round_trip(REF_DTYPE_FP32, specials32[i]);
      literal_round_trip(REF_DTYPE_I32, specials32[i]);
   }
   uint64_t x = 0x243f6a8885a308d3u;
   for (int i = 0; i < 200; i++) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      literal_round_trip(REF_DTYPE_FP32, x >> 32);
   }
   literal_round_trip(REF_DTYPE_I48, UINT64_MAX);
   literal_round_trip(REF_DTYPE_I48, UINT64_C(0x00007fffffffffff));
   literal_round_trip(REF_DTYPE_I48, UINT64_C(0xffff800000000000));
}

int
main(void)
{
   test_every_operator();
   test_by_hand();
   test_literals();
   return test_done();
}
