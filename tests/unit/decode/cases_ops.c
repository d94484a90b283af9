/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Invalid micro-graphs for the operators of the first slice: operand counts
 * and kinds, constness, the type-support rows (and the extensions that enable
 * them), and every ERROR_IF, REQUIRE on constants and level limit that the
 * decoder decides, one case per rule, each pointing (";@") at its OpExtInst.
 */
#include "harness.h"

#define NOEXT(e) (DG_TOSA_ADVERTISED & ~DG_TOSA_EXT_##e)

/* ---- ADD, SUB, MUL ------------------------------------------------------------------------ */

#define SHIFT0 "%sh = OpConstantNull %t_i8_1\n"

static const struct dcase binary[] = {
    {"ADD operand count", "t_f32_4", "t_f32_4", NULL, "%r = OpExtInst %t_f32_4 %tosa ADD %in0 ;@\n",
     .code = DG_ERR_OP_OPERAND_COUNT, .msg = "ADD takes 2 operands, not 1"},
    {"ADD i8 has no row", "t_i8_4 t_i8_4", "t_i8_4", NULL,
     "%r = OpExtInst %t_i8_4 %tosa ADD %in0 %in1 ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT,
     .msg = "input1 i8, input2 i8, output i8"},
    {"ADD mixed types", "t_f32_4 t_f16_4", "t_f32_4", NULL,
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in1 ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT,
     .msg = "type-support row of ADD"},
    {"ADD bf16 without EXT-BF16", "t_bf16_4 t_bf16_4", "t_bf16_4", NULL,
     "%r = OpExtInst %t_bf16_4 %tosa ADD %in0 %in1 ;@\n", .features = NOEXT(BF16),
     .code = DG_ERR_OP_EXTENSION, .msg = "needs EXT-BF16"},
    {"ADD ranks differ", "t_f32_4 t_f32_1x4", "t_f32_1x4", NULL,
     "%r = OpExtInst %t_f32_1x4 %tosa ADD %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "ERROR_IF(rank(shape1) != rank(shape2))"},
    {"ADD shapes do not broadcast", "t_f32_2x3 t_f32_3x3", "t_f32_3x3", NULL,
     "%r = OpExtInst %t_f32_3x3 %tosa ADD %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "do not broadcast"},
    {"ADD output shape", "t_f32_1x4 t_f32_1x4", "t_f32_2x4", NULL,
     "%r = OpExtInst %t_f32_2x4 %tosa ADD %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "output [2,4], broadcast of [1,4] and [1,4] is [1,4]"},
    {"ADD result not a tensor", "t_f32_4", "t_f32_4", NULL,
     "%r = OpExtInst %f32 %tosa ADD %in0 %in0 ;@\n", "OpGraphSetOutputARM %in0 %i32_0\n",
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "not an OpTypeTensorARM"},
    {"SUB i16 has no row", "t_i16_4 t_i16_4", "t_i16_4", NULL,
     "%r = OpExtInst %t_i16_4 %tosa SUB %in0 %in1 ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT,
     .msg = "row of SUB"},
    {"MUL i8 to i8", "t_i8_4 t_i8_4", "t_i8_4", SHIFT0,
     "%r = OpExtInst %t_i8_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT},
    {"MUL shift not constant", "t_i32_4 t_i32_4 t_i8_1", "t_i32_4", NULL,
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %in2 ;@\n", .code = DG_ERR_OP_NOT_CONSTANT,
     .msg = "shift (operand 2"},
    {"MUL shift of shape [2]", "t_i32_4 t_i32_4", "t_i32_4", "%sh = OpConstantNull %t_i8_2\n",
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "shape [1], not [2]"},
    {"MUL shift of i32", "t_i32_4 t_i32_4", "t_i32_4", "%sh = OpConstantNull %t_i32_1\n",
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "tensor of i8, not of i32"},
    {"MUL shift scalar", "t_i32_4 t_i32_4", "t_i32_4", NULL,
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %i8_0 ;@\n", .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "must be a constant tensor"},
    {"MUL shift 64", "t_i32_4 t_i32_4", "t_i32_4", "%sh = OpConstantComposite %t_i8_1 %i8_64\n",
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_REQUIRE,
     .msg = "shift <= 63): shift is 64"},
    {"MUL shift negative", "t_i32_4 t_i32_4", "t_i32_4",
     "%sh = OpConstantComposite %t_i8_1 %i8_m1\n",
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_REQUIRE,
     .msg = "shift is -1"},
    {"MUL shift with i16", "t_i16_4 t_i16_4", "t_i32_4",
     "%sh = OpConstantComposite %t_i8_1 %i8_1\n",
     "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_REQUIRE,
     .msg = "shift is 1 with i16 inputs"},
    {"MUL shift with fp32", "t_f32_4 t_f32_4", "t_f32_4",
     "%sh = OpConstantComposite %t_i8_1 %i8_3\n",
     "%r = OpExtInst %t_f32_4 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_REQUIRE,
     .msg = "with fp32 inputs"},
    {"MUL broadcast", "t_i32_4x1 t_i32_3x2", "t_i32_4x2", SHIFT0,
     "%r = OpExtInst %t_i32_4x2 %tosa MUL %in0 %in1 %sh ;@\n", .code = DG_ERR_OP_SHAPE},
};

/* ---- CLAMP -------------------------------------------------------------------------------- */

#define CLAMP_IO "t_f32_4", "t_f32_4"

static const struct dcase clamp[] = {
    {"CLAMP min above max (int)", "t_i8_4", "t_i8_4", NULL,
     "%r = OpExtInst %t_i8_4 %tosa CLAMP %i8_5 %i8_m5 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "ERROR_IF(max_val < min_val): -5 < 5"},
    {"CLAMP min above max (float)", CLAMP_IO, NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_1 %f32_m1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "max_val < min_val"},
    {"CLAMP NaN limit", CLAMP_IO, "%nan = OpConstant %f32 0x1.8p+128\n",
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %nan %f32_1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "isNaN(min_val)"},
    {"CLAMP limits of another type", CLAMP_IO, NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f16_0 %f16_1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "min_val fp16"},
    {"CLAMP limit not constant", "t_f32_4 t_f32_1", "t_f32_4", NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %in1 %f32_1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_NOT_CONSTANT, .msg = "min_val (operand 0"},
    {"CLAMP limit a tensor", CLAMP_IO, "%t = OpConstantNull %t_f32_1\n",
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %t %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "max_val"},
    {"CLAMP nan_mode 0", CLAMP_IO, NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %f32_1 %i32_0 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "nan_mode 0"},
    {"CLAMP nan_mode 3", CLAMP_IO, NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %f32_1 %i32_3 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "nan_mode 3"},
    {"CLAMP nan_mode of i8", CLAMP_IO, NULL,
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %f32_1 %i8_1 %in0 ;@\n",
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "nan_mode must be a 32-bit integer"},
    {"CLAMP i32 has no row", "t_i32_4", "t_i32_4", NULL,
     "%r = OpExtInst %t_i32_4 %tosa CLAMP %i32_0 %i32_1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_TYPE_SUPPORT},
    {"CLAMP i16 without EXT-INT16", "t_i16_4", "t_i16_4", NULL,
     "%r = OpExtInst %t_i16_4 %tosa CLAMP %i16_0 %i16_1 %i32_1 %in0 ;@\n", .features = NOEXT(INT16),
     .code = DG_ERR_OP_EXTENSION, .msg = "EXT-INT16"},
    {"CLAMP output shape", "t_f32_4", "t_f32_2x2", NULL,
     "%r = OpExtInst %t_f32_2x2 %tosa CLAMP %f32_0 %f32_1 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_SHAPE, .msg = "output [2,2] differs from input [4]"},
};

/* ---- RESHAPE, CONCAT ---------------------------------------------------------------------- */

#define SIXTY_FIVE                                                                                 \
   " %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0"              \
   " %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0"              \
   " %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0"              \
   " %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0"

static const uint32_t spec_three_data = 3;
static const VkSpecializationMapEntry spec_three_entry = {7, 0, 4};
static const VkSpecializationInfo spec_three = {1, &spec_three_entry, 4, &spec_three_data};

static const struct dcase layout[] = {
    /* Constant operands given as specialization constants: constants at pipeline creation,
     * accepted wherever a constant operand is (issue 10). */
    {"RESHAPE shape an OpSpecConstantComposite", "t_i8_2x3", "t_i8_3x2",
     "%shape = OpSpecConstantComposite %t_i32_2 %i32_3 %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape\n", .code = DG_OK},
    {"RESHAPE shape with an OpSpecConstant member", "t_i8_2x3", "t_i8_3x2",
     "OpDecorate %s SpecId 1\n%s = OpSpecConstant %i32 3\n"
     "%shape = OpConstantComposite %t_i32_2 %s %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape\n", .code = DG_OK},
    {"RESHAPE shape a replicated spec composite", "t_i8_2x2", "t_i8_2x2",
     "%shape = OpSpecConstantCompositeReplicateEXT %t_i32_2 %i32_2\n",
     "%r = OpExtInst %t_i8_2x2 %tosa RESHAPE %in0 %shape\n", .code = DG_OK},
    {"RESHAPE shape member specialized to 3", "t_i8_2x3", "t_i8_3x2",
     "OpDecorate %s SpecId 7\n%s = OpSpecConstant %i32 6\n"
     "%shape = OpConstantComposite %t_i32_2 %s %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape\n", .spec = &spec_three,
     .code = DG_OK},
    {"RESHAPE shape member not specialized", "t_i8_2x3", "t_i8_3x2",
     "OpDecorate %s SpecId 7\n%s = OpSpecConstant %i32 6\n"
     "%shape = OpConstantComposite %t_i32_2 %s %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "[6,2]"},
    {"RESCALE multiplier, shift and zero points as spec composites", "t_i32_2x4", "t_i8_2x4",
     "%m = OpSpecConstantComposite %t_i32_1 %i32_1073741824\n"
     "%s = OpSpecConstantComposite %t_i8_1 %i8_30\n"
     "%z32 = OpSpecConstantCompositeReplicateEXT %t_i32_1 %i32_0\n"
     "OpDecorate %zs SpecId 3\n%zs = OpSpecConstant %i8 0\n"
     "%z8 = OpSpecConstantComposite %t_i8_1 %zs\n",
     "%r = OpExtInst %t_i8_2x4 %tosa RESCALE %true %i32_1 %false %false %false %in0 %m %s %z32 "
     "%z8\n",
     .code = DG_OK},
    {"RESHAPE shape member an OpSpecConstantOp of a specialized constant", "t_i8_2x3",
     "t_i8_3x2",
     "OpDecorate %s SpecId 7\n%s = OpSpecConstant %i32 6\n"
     "%half = OpSpecConstantOp %i32 SDiv %s %i32_2\n%rows = OpSpecConstantOp %i32 IAdd %half %i32_2\n"
     "%big = OpSpecConstantOp %bool SGreaterThan %s %i32_4\n"
     "%pick = OpSpecConstantOp %i32 Select %big %i32_1 %rows\n"
     "%shape = OpConstantComposite %t_i32_2 %pick %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape\n", .spec = &spec_three,
     .code = DG_OK},
    {"RESHAPE shape from SMod and SRem (signs of divisor and dividend)", "t_i8_2x3", "t_i8_3x2",
     "%mod = OpSpecConstantOp %i32 SMod %i32_m7 %i32_3\n"
     "%rem = OpSpecConstantOp %i32 SRem %i32_m7 %i32_3\n"
     "%neg = OpSpecConstantOp %i32 SNegate %rem\n"
     "%rows = OpSpecConstantOp %i32 IAdd %mod %neg\n"
     "%shape = OpConstantComposite %t_i32_2 %rows %i32_2\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape\n", .code = DG_OK},
    {"CLAMP bounds OpSpecConstant", "t_f32_4", "t_f32_4",
     "OpDecorate %lo SpecId 2\n%lo = OpSpecConstant %f32 -1\n%hi = OpSpecConstant %f32 1\n",
     "%r = OpExtInst %t_f32_4 %tosa CLAMP %lo %hi %i32_1 %in0\n", .code = DG_OK},
    {"RESHAPE element count", "t_i8_2x3", "t_i8_4x2",
     "%shape = OpConstantComposite %t_i32_2 %i32_4 %i32_2\n",
     "%r = OpExtInst %t_i8_4x2 %tosa RESHAPE %in0 %shape ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "[2,3] has 6 elements, [4,2] has 8"},
    {"RESHAPE shape operand not the output shape", "t_i8_2x3", "t_i8_3x2",
     "%shape = OpConstantComposite %t_i32_2 %i32_2 %i32_3\n",
     "%r = OpExtInst %t_i8_3x2 %tosa RESHAPE %in0 %shape ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "shape operand [2,3] is not the output shape [3,2]"},
    {"RESHAPE shape operand length", "t_i8_2x3", "t_i8_6",
     "%shape = OpConstantComposite %t_i32_2 %i32_6 %i32_1\n",
     "%r = OpExtInst %t_i8_6 %tosa RESHAPE %in0 %shape ;@\n", .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "shape [1] (the output's rank)"},
    {"RESHAPE shape not constant", "t_i8_2x3 t_i32_1", "t_i8_6", NULL,
     "%r = OpExtInst %t_i8_6 %tosa RESHAPE %in0 %in1 ;@\n", .code = DG_ERR_OP_NOT_CONSTANT},
    {"RESHAPE changes the type", "t_i8_6", "t_i16_6",
     "%shape = OpConstantComposite %t_i32_1 %i32_6\n",
     "%r = OpExtInst %t_i16_6 %tosa RESHAPE %in0 %shape ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT},
    {"CONCAT axis beyond the rank", "t_f32_2x2", "t_f32_4x2", NULL,
     "%r = OpExtInst %t_f32_4x2 %tosa CONCAT %i32_2 %in0 %in0 ;@\n", .code = DG_ERR_OP_ATTRIBUTE,
     .msg = "axis 2, rank 2"},
    {"CONCAT ranks differ", "t_f32_2x2 t_f32_2x2x1", "t_f32_4x2", NULL,
     "%r = OpExtInst %t_f32_4x2 %tosa CONCAT %i32_0 %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "rank(shapes1[1]) != rank(shapes1[0])"},
    {"CONCAT other dimension differs", "t_f32_2x2 t_f32_2x3", "t_f32_4x2", NULL,
     "%r = OpExtInst %t_f32_4x2 %tosa CONCAT %i32_0 %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "shapes1[1][1] != shapes1[0][1]"},
    {"CONCAT axis sum", "t_f32_2x2 t_f32_1x2", "t_f32_4x2", NULL,
     "%r = OpExtInst %t_f32_4x2 %tosa CONCAT %i32_0 %in0 %in1 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "gives [3,2]"},
    {"CONCAT element types differ", "t_f32_2x2 t_f16_2x2", "t_f32_4x2", NULL,
     "%r = OpExtInst %t_f32_4x2 %tosa CONCAT %i32_0 %in0 %in1 ;@\n", .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "input1[1] is fp16"},
    {"CONCAT of 65 tensors", "t_i8_1", "t_i8_65", NULL,
     "%r = OpExtInst %t_i8_65 %tosa CONCAT %i32_0" SIXTY_FIVE " ;@\n", .code = DG_ERR_LEVEL,
     .msg = "MAX_TENSOR_LIST_SIZE"},
    {"CONCAT i48 has no row", "t_i48_1", "t_i48_2", NULL,
     "%r = OpExtInst %t_i48_2 %tosa CONCAT %i32_0 %in0 %in0 ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT},
    {"CONCAT without inputs", "t_i8_1", "t_i8_1", NULL,
     "%r = OpExtInst %t_i8_1 %tosa CONCAT %i32_0 ;@\n", .code = DG_ERR_OP_OPERAND_COUNT,
     .msg = "at least 2"},
};

/* ---- MAX_POOL2D --------------------------------------------------------------------------- */

#define POOL_IO "t_f32_1x4x4x2", "t_f32_1x2x2x2"
#define POOL(k, s, p)                                                                              \
   "%r = OpExtInst %t_f32_1x2x2x2 %tosa MAX_POOL2D " k " " s " " p " %i32_1 %in0 ;@\n"
#define K2 "%k2 = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n%p0 = OpConstantNull %t_i32_4\n"

static const struct dcase pool[] = {
    {"MAX_POOL2D kernel 0", POOL_IO, K2 "%k = OpConstantComposite %t_i32_2 %i32_0 %i32_2\n",
     POOL("%k", "%k2", "%p0"), .code = DG_ERR_OP_ATTRIBUTE, .msg = "kernel_y < 1"},
    {"MAX_POOL2D stride 0", POOL_IO, K2 "%s = OpConstantComposite %t_i32_2 %i32_2 %i32_0\n",
     POOL("%k2", "%s", "%p0"), .code = DG_ERR_OP_ATTRIBUTE, .msg = "stride_x < 1"},
    {"MAX_POOL2D negative pad", POOL_IO,
     K2 "%p = OpConstantComposite %t_i32_4 %i32_0 %i32_0 %i32_m1 %i32_0\n",
     POOL("%k2", "%k2", "%p"), .code = DG_ERR_OP_ATTRIBUTE, .msg = "pad_left is -1"},
    {"MAX_POOL2D pad not below the kernel", POOL_IO,
     K2 "%p = OpConstantComposite %t_i32_4 %i32_2 %i32_0 %i32_0 %i32_0\n", POOL("%k2", "%k2", "%p"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "pad_top >= kernel_y"},
    {"MAX_POOL2D kernel of 3 values", POOL_IO, K2 "%k = OpConstantNull %t_i32_3\n",
     POOL("%k", "%k2", "%p0"), .code = DG_ERR_OP_OPERAND_TYPE, .msg = "shape [2], not i32 [3]"},
    {"MAX_POOL2D kernel of i8", POOL_IO, K2 "%k = OpConstantNull %t_i8_2\n",
     POOL("%k", "%k2", "%p0"), .code = DG_ERR_OP_OPERAND_TYPE, .msg = "not i8 [2]"},
    {"MAX_POOL2D kernel not constant", "t_f32_1x4x4x2 t_i32_2", "t_f32_1x2x2x2", K2,
     POOL("%in1", "%k2", "%p0"), .code = DG_ERR_OP_NOT_CONSTANT, .msg = "kernel"},
    {"MAX_POOL2D output height", "t_f32_1x4x4x2", "t_f32_1x3x2x2", K2,
     "%r = OpExtInst %t_f32_1x3x2x2 %tosa MAX_POOL2D %k2 %k2 %p0 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_SHAPE, .msg = "OH is 3, expected 2 / 2 + 1 = 2"},
    {"MAX_POOL2D inexact division", "t_f32_1x5x4x2", "t_f32_1x2x2x2", K2, POOL("%k2", "%k2", "%p0"),
     .code = DG_ERR_OP_SHAPE, .msg = "3 is not a multiple"},
    {"MAX_POOL2D rank 3", "t_f32_4x4x2", "t_f32_1x2x2x2", K2, POOL("%k2", "%k2", "%p0"),
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "input must have rank 4"},
    {"MAX_POOL2D channels", "t_f32_1x4x4x3", "t_f32_1x2x2x2", K2, POOL("%k2", "%k2", "%p0"),
     .code = DG_ERR_OP_SHAPE, .msg = "differ in N or C"},
    {"MAX_POOL2D kernel beyond MAX_KERNEL", "t_f32_1x9000x1x1", "t_f32_1x1x1x1",
     "%k = OpConstantComposite %t_i32_2 %i32_9000 %i32_1\n%p0 = OpConstantNull %t_i32_4\n",
     "%r = OpExtInst %t_f32_1x1x1x1 %tosa MAX_POOL2D %k %k %p0 %i32_1 %in0 ;@\n",
     .code = DG_ERR_LEVEL, .msg = "kernel_y <= MAX_KERNEL): 9000 > 8192"},
    {"MAX_POOL2D stride beyond MAX_STRIDE", POOL_IO,
     K2 "%s = OpConstantComposite %t_i32_2 %i32_8193 %i32_2\n", POOL("%k2", "%s", "%p0"),
     .code = DG_ERR_LEVEL, .msg = "stride_y <= MAX_STRIDE"},
    {"MAX_POOL2D nan_mode", POOL_IO, K2,
     "%r = OpExtInst %t_f32_1x2x2x2 %tosa MAX_POOL2D %k2 %k2 %p0 %i32_7 %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "nan_mode 7"},
    {"MAX_POOL2D i32 has no row", "t_i32_1x4x4x2", "t_i32_1x2x2x2", K2,
     "%r = OpExtInst %t_i32_1x2x2x2 %tosa MAX_POOL2D %k2 %k2 %p0 %i32_1 %in0 ;@\n",
     .code = DG_ERR_OP_TYPE_SUPPORT},
    {"MAX_POOL2D fp8 without EXT-FP8E4M3", "t_e4m3_1x4x4x2", "t_e4m3_1x2x2x2", K2,
     "%r = OpExtInst %t_e4m3_1x2x2x2 %tosa MAX_POOL2D %k2 %k2 %p0 %i32_1 %in0 ;@\n",
     .features = NOEXT(FP8E4M3), .code = DG_ERR_OP_EXTENSION, .msg = "EXT-FP8E4M3"},
};

/* ---- CONV2D ------------------------------------------------------------------------------- */

#define CONV_IO "t_f32_1x4x4x2", "t_f32_1x2x2x3"
#define CONV_DECLS                                                                                 \
   "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"      \
   "%w = OpGraphConstantARM %t_f32_3x3x3x2 0\n%bias = OpConstantNull %t_f32_3\n"                   \
   "%zp = OpConstantNull %t_f32_1\n"
#define CONV(pad, stride, dil, acc, in, w, bias, izp, wzp)                                         \
   "%r = OpExtInst %t_f32_1x2x2x3 %tosa CONV2D " pad " " stride " " dil " " acc " %false " in      \
   " " w " " bias " " izp " " wzp " ;@\n"
#define CONV_OK(izp, wzp) CONV("%pad", "%one", "%one", "%i32_3", "%in0", "%w", "%bias", izp, wzp)
#define I8_DECLS                                                                                   \
   "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"      \
   "%w = OpGraphConstantARM %t_i8_3x3x3x2 0\n%bias = OpConstantNull %t_i32_3\n"                    \
   "%zp = OpConstantNull %t_i8_1\n"
#define I8_CONV(acc, bias, izp)                                                                    \
   "%r = OpExtInst %t_i32_1x2x2x3 %tosa CONV2D %pad %one %one " acc " %false %in0 %w " bias        \
   " " izp " %zp ;@\n"

static const struct dcase conv[] = {
    {"CONV2D operand count", CONV_IO, CONV_DECLS,
     "%r = OpExtInst %t_f32_1x2x2x3 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "
     ";@\n",
     .code = DG_ERR_OP_OPERAND_COUNT, .msg = "takes 10 operands, not 9"},
    {"CONV2D acc_type not the row's", "t_i8_1x4x4x2", "t_i32_1x2x2x3", I8_DECLS,
     I8_CONV("%i32_3", "%bias", "%zp"), .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "acc_type FP32"},
    {"CONV2D acc_type 5", "t_i8_1x4x4x2", "t_i32_1x2x2x3", I8_DECLS,
     I8_CONV("%i32_5", "%bias", "%zp"), .code = DG_ERR_OP_ATTRIBUTE, .msg = "acc_type 5"},
    {"CONV2D bias of i8", "t_i8_1x4x4x2", "t_i32_1x2x2x3",
     I8_DECLS "%b8 = OpConstantNull %t_i8_3\n", I8_CONV("%i32_1", "%b8", "%zp"),
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "bias i8"},
    {"CONV2D input_zp of i16 for i8", "t_i8_1x4x4x2", "t_i32_1x2x2x3",
     I8_DECLS "%z16 = OpConstantNull %t_i16_1\n", I8_CONV("%i32_1", "%bias", "%z16"),
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "input_zp i16"},
    {"CONV2D input_zp of fp32", CONV_IO, CONV_DECLS "%z1 = OpConstantComposite %t_f32_1 %f32_1\n",
     CONV_OK("%z1", "%zp"), .code = DG_ERR_OP_ZERO_POINT, .msg = "input_zp is 0x3f800000"},
    {"CONV2D weight_zp of fp32", CONV_IO, CONV_DECLS "%z1 = OpConstantComposite %t_f32_1 %f32_2\n",
     CONV_OK("%zp", "%z1"), .code = DG_ERR_OP_ZERO_POINT, .msg = "weight_zp"},
    {"CONV2D input_zp of shape [2]", CONV_IO, CONV_DECLS "%z2 = OpConstantNull %t_f32_2\n",
     CONV_OK("%z2", "%zp"), .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "input_zp must be a tensor of "
            "shape [1]"},
    {"CONV2D negative pad", CONV_IO,
     CONV_DECLS "%p = OpConstantComposite %t_i32_4 %i32_0 %i32_m2 %i32_0 %i32_0\n",
     CONV("%p", "%one", "%one", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "pad_bottom is -2"},
    {"CONV2D stride 0", CONV_IO, CONV_DECLS "%s = OpConstantComposite %t_i32_2 %i32_0 %i32_1\n",
     CONV("%pad", "%s", "%one", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "stride_y < 1"},
    {"CONV2D dilation 0", CONV_IO, CONV_DECLS "%d = OpConstantNull %t_i32_2\n",
     CONV("%pad", "%one", "%d", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "dilation_y < 1"},
    {"CONV2D dilation * KH beyond MAX_KERNEL", CONV_IO,
     CONV_DECLS "%d = OpConstantComposite %t_i32_2 %i32_3000 %i32_1\n",
     CONV("%pad", "%one", "%d", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_LEVEL, .msg = "dilation_y * KH <= MAX_KERNEL): 9000"},
    {"CONV2D pad beyond MAX_KERNEL", CONV_IO,
     CONV_DECLS "%p = OpConstantComposite %t_i32_4 %i32_9000 %i32_0 %i32_0 %i32_0\n",
     CONV("%p", "%one", "%one", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_LEVEL, .msg = "pad_top <= MAX_KERNEL"},
    {"CONV2D pad not constant", "t_f32_1x4x4x2 t_i32_4", "t_f32_1x2x2x3", CONV_DECLS,
     CONV("%in1", "%one", "%one", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_NOT_CONSTANT, .msg = "pad (operand 0"},
    {"CONV2D local_bound not bool", CONV_IO, CONV_DECLS,
     "%r = OpExtInst %t_f32_1x2x2x3 %tosa CONV2D %pad %one %one %i32_3 %i32_0 %in0 %w %bias %zp "
     "%zp ;@\n",
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "local_bound must be a boolean"},
    {"CONV2D output height", "t_f32_1x5x4x2", "t_f32_1x2x2x3", CONV_DECLS, CONV_OK("%zp", "%zp"),
     .code = DG_ERR_OP_SHAPE, .msg = "OH is 2, expected 2 / 1 + 1 = 3"},
    {"CONV2D inexact division", "t_f32_1x4x4x2", "t_f32_1x2x2x3",
     CONV_DECLS "%s = OpConstantComposite %t_i32_2 %i32_2 %i32_1\n",
     CONV("%pad", "%s", "%one", "%i32_3", "%in0", "%w", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_SHAPE, .msg = "1 is not a multiple of the stride 2"},
    {"CONV2D bias length", CONV_IO, CONV_DECLS "%b2 = OpConstantNull %t_f32_2\n",
     CONV("%pad", "%one", "%one", "%i32_3", "%in0", "%w", "%b2", "%zp", "%zp"),
     .code = DG_ERR_OP_SHAPE, .msg = "BC 2, OC 3"},
    {"CONV2D input channels", "t_f32_1x4x4x3", "t_f32_1x2x2x3", CONV_DECLS, CONV_OK("%zp", "%zp"),
     .code = DG_ERR_OP_SHAPE, .msg = "input IC 3 != weight IC 2"},
    {"CONV2D output channels", "t_f32_1x4x4x2", "t_f32_1x2x2x4", CONV_DECLS,
     "%r = OpExtInst %t_f32_1x2x2x4 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "
     "%zp ;@\n",
     .code = DG_ERR_OP_SHAPE, .msg = "weight OC 3 != output OC 4"},
    {"CONV2D batch", "t_f32_2x4x4x2", "t_f32_1x2x2x3", CONV_DECLS, CONV_OK("%zp", "%zp"),
     .code = DG_ERR_OP_SHAPE, .msg = "input N 2 != output N 1"},
    {"CONV2D weight rank 3", CONV_IO,
     "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
     "%w3 = OpGraphConstantARM %t_f32_3x3x2 0\n%bias = OpConstantNull %t_f32_3\n"
     "%zp = OpConstantNull %t_f32_1\n",
     CONV("%pad", "%one", "%one", "%i32_3", "%in0", "%w3", "%bias", "%zp", "%zp"),
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "weight must have rank 4"},
    {"CONV2D i16 without EXT-INT16", "t_i16_1x3x3x1", "t_i48_1x1x1x2",
     "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
     "%w = OpGraphConstantARM %t_i8_2x3x3x1 0\n%bias = OpConstantNull %t_i48_2\n"
     "%izp = OpConstantNull %t_i16_1\n%wzp = OpConstantNull %t_i8_1\n",
     "%r = OpExtInst %t_i48_1x1x1x2 %tosa CONV2D %pad %one %one %i32_4 %false %in0 %w %bias %izp "
     "%wzp ;@\n",
     .features = NOEXT(INT16), .code = DG_ERR_OP_EXTENSION, .msg = "needs EXT-INT16"},
};

/* ---- MATMUL ------------------------------------------------------------------------------- */

#define MM_IO "t_f32_2x3x4 t_f32_2x4x5", "t_f32_2x3x5"
#define MM "%r = OpExtInst %t_f32_2x3x5 %tosa MATMUL %in0 %in1 %z %z ;@\n"

static const struct dcase matmul[] = {
    {"MATMUL zero point for fp32", MM_IO, "%z = OpConstantComposite %t_f32_1 %f32_1\n", MM,
     .code = DG_ERR_OP_ZERO_POINT, .msg = "A_zp != 0"},
    {"MATMUL i16 zero point", "t_i16_1x2x3 t_i16_1x3x1", "t_i48_1x2x1",
     "%z = OpConstantNull %t_i16_1\n%zb = OpConstantComposite %t_i16_1 %i16_4\n",
     "%r = OpExtInst %t_i48_1x2x1 %tosa MATMUL %in0 %in1 %z %zb ;@\n", .code = DG_ERR_OP_ZERO_POINT,
     .msg = "B_zp is 0x4 for i16"},
    {"MATMUL inner dimension", "t_f32_2x3x4 t_f32_2x3x5", "t_f32_2x3x5",
     "%z = OpConstantNull %t_f32_1\n", MM, .code = DG_ERR_OP_SHAPE, .msg = "disagree"},
    {"MATMUL batch", "t_f32_1x3x4 t_f32_2x4x5", "t_f32_2x3x5", "%z = OpConstantNull %t_f32_1\n", MM,
     .code = DG_ERR_OP_SHAPE},
    {"MATMUL output", MM_IO, "%z = OpConstantNull %t_f32_1\n",
     "%r = OpExtInst %t_f32_2x3x4 %tosa MATMUL %in0 %in1 %z %z ;@\n",
     "OpGraphSetOutputARM %in0 %i32_0\n", .code = DG_ERR_OP_SHAPE},
    {"MATMUL rank 2", "t_f32_3x4 t_f32_2x4x5", "t_f32_2x3x5", "%z = OpConstantNull %t_f32_1\n", MM,
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "A must have rank 3"},
    {"MATMUL i8 to i8", "t_i8_1x2x2 t_i8_1x2x2", "t_i8_1x2x2", "%z = OpConstantNull %t_i8_1\n",
     "%r = OpExtInst %t_i8_1x2x2 %tosa MATMUL %in0 %in1 %z %z ;@\n", .code = DG_ERR_OP_TYPE_SUPPORT,
     .msg = "output i8"},
    {"MATMUL zero point type", MM_IO, "%z = OpConstantNull %t_f16_1\n", MM,
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "A_zp fp16"},
    {"MATMUL fp8 without EXT-FP8E5M2", "t_e5m2_1x2x2 t_e5m2_1x2x2", "t_f16_1x2x2",
     "%z = OpConstantNull %t_e5m2_1\n",
     "%r = OpExtInst %t_f16_1x2x2 %tosa MATMUL %in0 %in1 %z %z ;@\n", .features = NOEXT(FP8E5M2),
     .code = DG_ERR_OP_EXTENSION, .msg = "EXT-FP8E5M2"},
};

/* ---- RESCALE ------------------------------------------------------------------------------ */

#define RS_IO "t_i32_2x4", "t_i8_2x4"
#define RS_DECLS                                                                                   \
   "%m = OpConstantComposite %t_i32_1 %i32_1073741824\n%s = OpConstantComposite %t_i8_1 %i8_30\n"  \
   "%z32 = OpConstantNull %t_i32_1\n%z8 = OpConstantNull %t_i8_1\n"
#define RESCALE(flags, m, s, izp, ozp)                                                             \
   "%r = OpExtInst %t_i8_2x4 %tosa RESCALE " flags " %in0 " m " " s " " izp " " ozp " ;@\n"
#define RS_OK(flags) RESCALE(flags, "%m", "%s", "%z32", "%z8")
#define SINGLE "%true %i32_1 %false %false %false"

static const struct dcase rescale[] = {
    {"RESCALE i32 input zero point", RS_IO, RS_DECLS "%zi = OpConstantComposite %t_i32_1 %i32_1\n",
     RESCALE(SINGLE, "%m", "%s", "%zi", "%z8"), .code = DG_ERR_OP_ZERO_POINT,
     .msg = "input_zp is 1 for i32"},
    {"RESCALE signed i16 output zero point", "t_i8_4", "t_i16_4",
     RS_DECLS "%zo = OpConstantComposite %t_i16_1 %i16_5\n",
     "%r = OpExtInst %t_i16_4 %tosa RESCALE " SINGLE " %in0 %m %s %z8 %zo ;@\n",
     .code = DG_ERR_OP_ZERO_POINT, .msg = "output_zp is 5 for i16"},
    {"RESCALE unsigned i16 zero point 100", "t_i16_4", "t_i8_4",
     RS_DECLS "%zi = OpConstantComposite %t_i16_1 %i16_100\n",
     "%r = OpExtInst %t_i8_4 %tosa RESCALE %true %i32_1 %false %true %false %in0 %m %s %zi %z8 "
     ";@\n",
     .code = DG_ERR_OP_ZERO_POINT, .msg = "input_zp != 32768): input_zp is 100"},
    {"RESCALE scale32 with i48", "t_i48_4", "t_i8_4", RS_DECLS "%z48 = OpConstantNull %t_i48_1\n",
     "%r = OpExtInst %t_i8_4 %tosa RESCALE " SINGLE " %in0 %m %s %z48 %z8 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "scale32 && is_same<in_t,i48_t>()"},
    {"RESCALE double round without scale32", RS_IO, RS_DECLS,
     RS_OK("%false %i32_3 %false %false %false"), .code = DG_ERR_OP_ATTRIBUTE,
     .msg = "!scale32 && (rounding_mode == DOUBLE_ROUND)"},
    {"RESCALE both unsigned", "t_i8_4", "t_i8_4", RS_DECLS,
     "%r = OpExtInst %t_i8_4 %tosa RESCALE %true %i32_1 %false %true %true %in0 %m %s %z8 %z8 "
     ";@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "input_unsigned && output_unsigned"},
    {"RESCALE unsigned input to i32", "t_i8_4", "t_i32_4", RS_DECLS,
     "%r = OpExtInst %t_i32_4 %tosa RESCALE %true %i32_1 %false %true %false %in0 %m %s %z8 %z32 "
     ";@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "is_same<out_t,i32_t>() && input_unsigned"},
    {"RESCALE i32 to unsigned output", RS_IO, RS_DECLS, RS_OK("%true %i32_1 %false %false %true"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "is_same<in_t,i32_t>() && output_unsigned"},
    {"RESCALE unsigned i32 input", "t_i32_4", "t_i8_4", RS_DECLS,
     "%r = OpExtInst %t_i8_4 %tosa RESCALE %true %i32_1 %false %true %false %in0 %m %s %z32 %z8 "
     ";@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "is_same<in_t,i32_t> && input_unsigned"},
    {"RESCALE rounding_mode 0", RS_IO, RS_DECLS, RS_OK("%true %i32_0 %false %false %false"),
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "rounding_mode 0"},
    {"RESCALE double round without EXT-DOUBLEROUND", RS_IO, RS_DECLS,
     RS_OK("%true %i32_3 %false %false %false"), .features = NOEXT(DOUBLEROUND),
     .code = DG_ERR_OP_EXTENSION, .msg = "EXT-DOUBLEROUND"},
    {"RESCALE inexact round without EXT-INEXACTROUND", RS_IO, RS_DECLS,
     RS_OK("%true %i32_2 %false %false %false"), .features = NOEXT(INEXACTROUND),
     .code = DG_ERR_OP_EXTENSION, .msg = "EXT-INEXACTROUND"},
    {"RESCALE per-channel multiplier of one", RS_IO, RS_DECLS,
     RS_OK("%true %i32_1 %true %false %false"), .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "shape [NC] = [4], not i32 [1]"},
    {"RESCALE i16 multiplier with scale32", RS_IO,
     RS_DECLS "%m16 = OpConstantComposite %t_i16_1 %i16_16384\n",
     RESCALE(SINGLE, "%m16", "%s", "%z32", "%z8"), .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "tensor of i32 of shape"},
    {"RESCALE shift of i32", RS_IO, RS_DECLS "%s32 = OpConstantComposite %t_i32_1 %i32_30\n",
     RESCALE(SINGLE, "%m", "%s32", "%z32", "%z8"), .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "shift must be a tensor of i8"},
    {"RESCALE negative multiplier", RS_IO, RS_DECLS "%mn = OpConstantComposite %t_i32_1 %i32_m1\n",
     RESCALE(SINGLE, "%mn", "%s", "%z32", "%z8"), .code = DG_ERR_OP_REQUIRE,
     .msg = "REQUIRE(multiplier >= 0): multiplier[0] is -1"},
    {"RESCALE shift 1", RS_IO, RS_DECLS "%s1 = OpConstantComposite %t_i8_1 %i8_1\n",
     RESCALE(SINGLE, "%m", "%s1", "%z32", "%z8"), .code = DG_ERR_OP_REQUIRE,
     .msg = "shift[0] is 1"},
    {"RESCALE shift 63", RS_IO, RS_DECLS "%s1 = OpConstantComposite %t_i8_1 %i8_63\n",
     RESCALE(SINGLE, "%m", "%s1", "%z32", "%z8"), .code = DG_ERR_OP_REQUIRE,
     .msg = "shift[0] is 63"},
    {"RESCALE i32 multiplier beyond i16 without scale32", RS_IO, RS_DECLS,
     RS_OK("%false %i32_1 %false %false %false"), .code = DG_ERR_OP_REQUIRE, .msg = "mul_t is i16"},
    {"RESCALE per-channel shift from a graph constant", RS_IO,
     RS_DECLS "%m4 = OpConstantCompositeReplicateEXT %t_i32_4 %i32_16384\n"
              "%s4 = OpGraphConstantARM %t_i8_4 0\n",
     RESCALE("%true %i32_1 %true %false %false", "%m4", "%s4", "%z32", "%z8"), .fill = "0=99",
     .code = DG_ERR_OP_REQUIRE, .msg = "shift[0] is 99"},
    {"RESCALE multiplier not constant", "t_i32_2x4 t_i32_1", "t_i8_2x4", RS_DECLS,
     RESCALE(SINGLE, "%in1", "%s", "%z32", "%z8"), .code = DG_ERR_OP_NOT_CONSTANT,
     .msg = "multiplier"},
    {"RESCALE output shape", RS_IO, RS_DECLS,
     "%r = OpExtInst %t_i8_8 %tosa RESCALE " SINGLE " %in0 %m %s %z32 %z8 ;@\n",
     "OpGraphSetOutputARM %in0 %i32_0\n", .code = DG_ERR_OP_SHAPE,
     .msg = "output [8] differs from input [2,4]"},
    {"RESCALE fp32 has no row", "t_f32_4", "t_i8_4", RS_DECLS "%zf = OpConstantNull %t_f32_1\n",
     "%r = OpExtInst %t_i8_4 %tosa RESCALE " SINGLE " %in0 %m %s %zf %z8 ;@\n",
     .code = DG_ERR_OP_TYPE_SUPPORT},
    {"RESCALE i48 without EXT-INT16", "t_i48_4", "t_i8_4",
     RS_DECLS "%z48 = OpConstantNull %t_i48_1\n",
     "%r = OpExtInst %t_i8_4 %tosa RESCALE %false %i32_1 %false %false %false %in0 %m %s %z48 %z8 "
     ";@\n",
     .features = NOEXT(INT16), .code = DG_ERR_OP_EXTENSION, .msg = "EXT-INT16"},
};

/* ---- RESIZE (the ERROR_IFs have one .optest micro-graph each: resize.optest) ---- */

#define RZ_DECLS(yn, yd)                                                                           \
   "%sc = OpConstantComposite %t_i32_4 %i32_" #yn " %i32_" #yd " %i32_2 %i32_1\n"                  \
   "%z2 = OpConstantNull %t_i32_2\n"
#define RZ(out, mode, scale)                                                                       \
   "%r = OpExtInst %" out " %tosa RESIZE " mode " %in0 " scale " %z2 %z2 ;@\n"

static const struct dcase resize[] = {
    {"RESIZE bilinear i8 x2", "t_i8_1x2x2x1", "t_i32_1x3x3x1", RZ_DECLS(2, 1),
     RZ("t_i32_1x3x3x1", "%i32_2", "%sc"), .code = DG_OK},
    {"RESIZE unshaped result", "t_f32_2x2x2x3", "u_f32_2x3x3x3", RZ_DECLS(2, 1),
     RZ("u_f32_1x1x1x1", "%i32_1", "%sc"), .code = DG_OK},
    {"RESIZE unshaped result, scale_y_d 0", "t_f32_2x2x2x3", "u_f32_2x3x3x3", RZ_DECLS(2, 0),
     RZ("u_f32_1x1x1x1", "%i32_1", "%sc"), .code = DG_ERR_OP_ATTRIBUTE,
     .msg = "no output shape with scale_y_d 0"},
    {"RESIZE scale beyond MAX_SCALE", "t_i8_1x2x2x1", "t_i8_1x258x3x1", RZ_DECLS(257, 1),
     RZ("t_i8_1x258x3x1", "%i32_1", "%sc"), .code = DG_ERR_LEVEL, .msg = "257/1"},
    {"RESIZE scale at MAX_SCALE", "t_i8_1x2x2x1", "t_i8_1x257x3x1", RZ_DECLS(256, 1),
     RZ("t_i8_1x257x3x1", "%i32_1", "%sc"), .code = DG_OK},
    {"RESIZE scale of 3 values", "t_i8_1x2x2x1", "t_i8_1x3x3x1",
     RZ_DECLS(2, 1) "%s3 = OpConstantNull %t_i32_3\n", RZ("t_i8_1x3x3x1", "%i32_1", "%s3"),
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "shape [4]"},
    {"RESIZE rank 3", "t_i8_2x2x1", "t_i8_1x3x3x1", RZ_DECLS(2, 1),
     RZ("t_i8_1x3x3x1", "%i32_1", "%sc"), .code = DG_ERR_OP_OPERAND_TYPE,
     .msg = "input must have rank 4"},
    {"RESIZE bf16 without EXT-BF16", "t_bf16_1x2x2x1", "t_bf16_1x3x3x1", RZ_DECLS(2, 1),
     RZ("t_bf16_1x3x3x1", "%i32_2", "%sc"), .features = NOEXT(BF16), .code = DG_ERR_OP_EXTENSION,
     .msg = "EXT-BF16"},
};

void
test_decode_op_cases(void)
{
   h_run_all(binary, sizeof(binary) / sizeof(binary[0]));
   h_run_all(clamp, sizeof(clamp) / sizeof(clamp[0]));
   h_run_all(layout, sizeof(layout) / sizeof(layout[0]));
   h_run_all(pool, sizeof(pool) / sizeof(pool[0]));
   h_run_all(conv, sizeof(conv) / sizeof(conv[0]));
   h_run_all(matmul, sizeof(matmul) / sizeof(matmul[0]));
   h_run_all(rescale, sizeof(rescale) / sizeof(rescale[0]));
   h_run_all(resize, sizeof(resize) / sizeof(resize[0]));
}
