/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Arm.MotionEngine.100 (D47): valid graphs of the three instructions, and one
 * invalid micro-graph per static check of graph/ops/motion_engine.c and of the
 * generic decoder on them (operand count, constness and type of the attribute
 * vectors, search_pattern, ranks, element types, each range, the SPIRAL window,
 * the 16-bit cost bound, frame shapes, every result's type and shape), each
 * pointing (";@") at its OpExtInst.
 */
#include "harness.h"

#define ME "%me = OpExtInstImport \"Arm.MotionEngine.100\"\n"
#define V2(name, y, x) "%" name " = OpConstantComposite %t_i32_2 %i32_" y " %i32_" x "\n"
/* kernel 3x3, window 3x3 centred, strides 1, padding 0. */
#define ATTRS V2("k", "3", "3") V2("s", "3", "3") V2("one", "1", "1") V2("zero", "0", "0")
#define F4 "t_i8_1x1x4x6 t_i8_1x1x4x6"
#define ARGS "%k %s %one %one %one %zero"
#define MIN_SAD(args, pattern) \
   "%r = OpExtInst %t_i8_1x1x4x12 %me MIN_SAD " args " " pattern " %in0 %in1 ;@\n"
#define COST_ST "%st = OpTypeStruct %t_i8_1x1x4x12 %t_i16_1x1x4x6\n"
#define COST_SETS                                                                                 \
   "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\n%c = OpCompositeExtract %t_i16_1x1x4x6 %r 1\n" \
   "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n"

static const struct dcase valid[] = {
    {"MIN_SAD RASTER", F4, "t_i8_1x1x4x12", ATTRS, MIN_SAD(ARGS, "%i32_0"), .header = ME},
    {"MIN_SAD SPIRAL", F4, "t_i8_1x1x4x12", ATTRS, MIN_SAD(ARGS, "%i32_1"), .header = ME},
    {"MIN_SAD_COST", F4, "t_i8_1x1x4x12 t_i16_1x1x4x6", ATTRS COST_ST,
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_1 %in0 %in1\n", COST_SETS, .header = ME},
    {"MIN_SAD_COST cost result unshaped", F4, "t_i8_1x1x4x12 t_i16_1x1x4x6",
     ATTRS "%ur = OpTypeTensorARM %i16 %i32_4\n%st = OpTypeStruct %t_i8_1x1x4x12 %ur\n",
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_1 %in0 %in1\n",
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\n%c = OpCompositeExtract %ur %r 1\n"
     "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n",
     .header = ME},
    {"RAW_SAD", F4, "t_i16_1x9x4x6", ATTRS,
     "%r = OpExtInst %t_i16_1x9x4x6 %me RAW_SAD " ARGS " %in0 %in1\n", .header = ME},
    {"RAW_SAD strided, 2x3 window", "t_i8_2x2x5x7 t_i8_2x2x5x7", "t_i16_2x12x2x3",
     ATTRS V2("w", "2", "3") V2("st", "2", "2"),
     "%r = OpExtInst %t_i16_2x12x2x3 %me RAW_SAD %k %w %st %one %one %one %in0 %in1\n",
     .header = ME},
    {"MIN_SAD with a kernel over 257 pixels (no cost output)", "t_i8_1x1x20x20 t_i8_1x1x20x20",
     "t_i8_1x1x20x40", ATTRS V2("big", "17", "16"),
     "%r = OpExtInst %t_i8_1x1x20x40 %me MIN_SAD %big %s %one %one %one %zero %i32_0 %in0 %in1\n",
     .header = ME},
    {"MIN_SAD after TOSA CLAMP", F4, "t_i8_1x1x4x12", ATTRS,
     "%c = OpExtInst %t_i8_1x1x4x6 %tosa CLAMP %i8_m100 %i8_100 %i32_1 %in0\n"
     "%r = OpExtInst %t_i8_1x1x4x12 %me MIN_SAD " ARGS " %i32_0 %c %in1\n",
     .header = ME},
};

static const struct dcase invalid[] = {
    {"unknown instruction 3", F4, "t_i8_1x1x4x12", ATTRS,
     "%r = OpExtInst %t_i8_1x1x4x12 %me 3 %in0 ;@\n", .header = ME, .code = DG_ERR_INST_UNKNOWN,
     .msg = "Arm.MotionEngine.100 has no instruction 3"},
    {"MIN_SAD operand count", F4, "t_i8_1x1x4x12", ATTRS,
     "%r = OpExtInst %t_i8_1x1x4x12 %me MIN_SAD " ARGS " %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_OPERAND_COUNT, .msg = "MIN_SAD takes 9 operands, not 8"},
    {"RAW_SAD operand count", F4, "t_i16_1x9x4x6", ATTRS,
     "%r = OpExtInst %t_i16_1x9x4x6 %me RAW_SAD " ARGS " %i32_0 %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_OPERAND_COUNT, .msg = "RAW_SAD takes 8 operands, not 9"},
    {"kernel_sizes not constant", F4 " t_i32_2", "t_i8_1x1x4x12", ATTRS,
     MIN_SAD("%in2 %s %one %one %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_NOT_CONSTANT, .msg = "kernel_sizes (operand 0"},
    {"kernel_sizes of shape [3]", F4, "t_i8_1x1x4x12",
     ATTRS "%k3 = OpConstantComposite %t_i32_3 %i32_3 %i32_3 %i32_3\n",
     MIN_SAD("%k3 %s %one %one %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "kernel_sizes must be a tensor of i32 of shape [2]"},
    {"padding of i16", F4, "t_i8_1x1x4x12",
     ATTRS "%p16 = OpConstantComposite %t_i16_2 %i16_0 %i16_0\n",
     MIN_SAD("%k %s %one %one %one %p16", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "padding must be a tensor of i32"},
    {"window_offsets a scalar", F4, "t_i8_1x1x4x12", ATTRS,
     MIN_SAD("%k %s %one %one %i32_1 %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "window_offsets"},
    {"search_pattern a tensor", F4, "t_i8_1x1x4x12", ATTRS, MIN_SAD(ARGS, "%one"), .header = ME,
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "search_pattern"},
    {"search_pattern not constant", F4 " t_i32_1", "t_i8_1x1x4x12", ATTRS,
     "%r = OpExtInst %t_i8_1x1x4x12 %me MIN_SAD " ARGS " %in2 %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_NOT_CONSTANT, .msg = "search_pattern"},
    {"search_pattern 2", F4, "t_i8_1x1x4x12", ATTRS, MIN_SAD(ARGS, "%i32_2"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "search_pattern is 2, not RASTER (0) or SPIRAL (1)"},
    {"input0 of rank 3", "t_i8_1x4x6 t_i8_1x1x4x6", "t_i8_1x1x4x12", ATTRS,
     MIN_SAD(ARGS, "%i32_0"), .header = ME, .code = DG_ERR_OP_OPERAND_TYPE, .msg = "input0"},
    {"input1 of i16", "t_i8_1x1x4x6 t_i16_1x1x4x6", "t_i8_1x1x4x12", ATTRS,
     MIN_SAD(ARGS, "%i32_0"), .header = ME, .code = DG_ERR_OP_TYPE_SUPPORT,
     .msg = "input1 i16"},
    {"MIN_SAD vectors of i16", F4, "t_i16_1x1x4x12", ATTRS,
     "%r = OpExtInst %t_i16_1x1x4x12 %me MIN_SAD " ARGS " %i32_0 %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "output i16"},
    {"RAW_SAD costs of i8", F4, "t_i8_1x9x4x6", ATTRS,
     "%r = OpExtInst %t_i8_1x9x4x6 %me RAW_SAD " ARGS " %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "output i8"},
    {"kernel_sizes[0] 0", F4, "t_i8_1x1x4x12", ATTRS V2("k0", "0", "3"),
     MIN_SAD("%k0 %s %one %one %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "kernel_sizes[0] (y) is 0: it must be in 1..256"},
    {"kernel_sizes[1] 257", F4, "t_i8_1x1x4x12", ATTRS V2("kb", "3", "257"),
     MIN_SAD("%kb %s %one %one %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "kernel_sizes[1] (x) is 257"},
    {"search_window_sizes[1] 0", F4, "t_i8_1x1x4x12", ATTRS V2("s0", "3", "0"),
     MIN_SAD("%k %s0 %one %one %zero %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "search_window_sizes[1] (x) is 0"},
    {"input_strides[0] 0", F4, "t_i8_1x1x4x12", ATTRS V2("is", "0", "1"),
     MIN_SAD("%k %s %is %one %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "input_strides[0] (y) is 0"},
    {"window_strides[1] 0", F4, "t_i8_1x1x4x12", ATTRS V2("ws", "1", "0"),
     MIN_SAD("%k %s %one %ws %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "window_strides[1] (x) is 0"},
    {"window_strides negative", F4, "t_i8_1x1x4x12", ATTRS V2("ws", "m1", "1"),
     MIN_SAD("%k %s %one %ws %one %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "window_strides[0] (y) is 4294967295"},
    {"window_offsets outside the window", F4, "t_i8_1x1x4x12", ATTRS V2("o", "1", "3"),
     MIN_SAD("%k %s %one %one %o %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE,
     .msg = "window_offsets[1] (x) is 3: it must lie in the search window"},
    {"displacements beyond i8", "t_i8_1x1x4x6 t_i8_1x1x4x6", "t_i8_1x1x4x12",
     ATTRS V2("wide", "1", "200"),
     MIN_SAD("%k %wide %one %one %zero %zero", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "displacements 0..199"},
    {"padding[0] not below the kernel", F4, "t_i8_1x1x4x12", ATTRS V2("p", "3", "0"),
     MIN_SAD("%k %s %one %one %one %p", "%i32_0"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "padding[0] (top) is 3: it must be smaller than"},
    {"SPIRAL window not square", F4, "t_i8_1x1x4x12", ATTRS V2("w", "3", "5") V2("o", "1", "2"),
     MIN_SAD("%k %w %one %one %o %zero", "%i32_1"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "SPIRAL needs a square window of odd size"},
    {"SPIRAL window even", F4, "t_i8_1x1x4x12", ATTRS V2("w", "4", "4"),
     MIN_SAD("%k %w %one %one %one %zero", "%i32_1"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "not search_window_sizes [4, 4]"},
    {"SPIRAL window off centre", F4, "t_i8_1x1x4x12", ATTRS V2("o", "0", "1"),
     MIN_SAD("%k %s %one %one %o %zero", "%i32_1"), .header = ME,
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "SPIRAL needs a centred window"},
    {"MIN_SAD_COST costs beyond 16 bits", "t_i8_1x1x20x20 t_i8_1x1x20x20",
     "t_i8_1x1x20x40 t_i16_1x1x20x20",
     ATTRS V2("big", "17", "16") "%st = OpTypeStruct %t_i8_1x1x20x40 %t_i16_1x1x20x20\n",
     "%r = OpExtInst %st %me MIN_SAD_COST %big %s %one %one %one %zero %i32_0 %in0 %in1 ;@\n",
     "%v = OpCompositeExtract %t_i8_1x1x20x40 %r 0\n%c = OpCompositeExtract %t_i16_1x1x20x20 %r 1\n"
     "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n",
     .header = ME, .code = DG_ERR_OP_ATTRIBUTE, .msg = "does not fit the 16-bit cost output"},
    {"RAW_SAD costs beyond 16 bits", "t_i8_1x1x20x20 t_i8_1x1x20x20", "t_i16_1x9x20x20",
     ATTRS V2("big", "16", "17"),
     "%r = OpExtInst %t_i16_1x9x20x20 %me RAW_SAD %big %s %one %one %one %zero %in0 %in1 ;@\n",
     .header = ME, .code = DG_ERR_OP_ATTRIBUTE, .msg = "kernel_h * kernel_w <= 257"},
    {"frames of different shapes", "t_i8_1x1x4x6 t_i8_1x1x4x7", "t_i8_1x1x4x12", ATTRS,
     MIN_SAD(ARGS, "%i32_0"), .header = ME, .code = DG_ERR_OP_SHAPE,
     .msg = "input1 (the search frame) [1,1,4,7] differs from input0"},
    {"input_strides above the frame", F4, "t_i8_1x1x4x12", ATTRS V2("is", "5", "1"),
     MIN_SAD("%k %s %is %one %one %zero", "%i32_0"), .header = ME, .code = DG_ERR_OP_SHAPE,
     .msg = "input0's H is 4, smaller than input_strides[0] = 5"},
    {"MIN_SAD vectors' shape", F4, "t_i8_1x1x4x6", ATTRS,
     "%r = OpExtInst %t_i8_1x1x4x6 %me MIN_SAD " ARGS " %i32_0 %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_SHAPE, .msg = "[1,1,4,6] is not the [1,1,4,12]"},
    {"MIN_SAD vectors of a strided search", F4, "t_i8_1x1x4x12", ATTRS V2("is", "2", "2"),
     MIN_SAD("%k %s %is %one %one %zero", "%i32_0"), .header = ME, .code = DG_ERR_OP_SHAPE,
     .msg = "is not the [1,1,2,6]"},
    {"RAW_SAD channels", F4, "t_i16_1x1x4x6", ATTRS,
     "%r = OpExtInst %t_i16_1x1x4x6 %me RAW_SAD " ARGS " %in0 %in1 ;@\n", .header = ME,
     .code = DG_ERR_OP_SHAPE, .msg = "is not the [1,9,4,6]"},
    {"MIN_SAD_COST costs of i8", F4, "t_i8_1x1x4x12 t_i8_1x1x4x6",
     ATTRS "%st = OpTypeStruct %t_i8_1x1x4x12 %t_i8_1x1x4x6\n",
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_0 %in0 %in1 ;@\n",
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\n%c = OpCompositeExtract %t_i8_1x1x4x6 %r 1\n"
     "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n",
     .header = ME, .code = DG_ERR_OP_TYPE_SUPPORT, .msg = "result 1 (the costs) is a tensor of i8"},
    {"MIN_SAD_COST costs' shape", F4, "t_i8_1x1x4x12 t_i16_1x1x4x12",
     ATTRS "%st = OpTypeStruct %t_i8_1x1x4x12 %t_i16_1x1x4x12\n",
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_0 %in0 %in1 ;@\n",
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\n%c = OpCompositeExtract %t_i16_1x1x4x12 %r 1\n"
     "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n",
     .header = ME, .code = DG_ERR_OP_SHAPE, .msg = "result 1 (the costs) [1,1,4,12] differs"},
    {"MIN_SAD_COST costs of rank 3", F4, "t_i8_1x1x4x12 t_i16_1x4x6",
     ATTRS "%st = OpTypeStruct %t_i8_1x1x4x12 %t_i16_1x4x6\n",
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_0 %in0 %in1 ;@\n",
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\n%c = OpCompositeExtract %t_i16_1x4x6 %r 1\n"
     "OpGraphSetOutputARM %v %i32_0\nOpGraphSetOutputARM %c %i32_1\n",
     .header = ME, .code = DG_ERR_OP_OPERAND_TYPE, .msg = "result 1 (the costs)"},
    {"MIN_SAD_COST with one result", F4, "t_i8_1x1x4x12", ATTRS,
     "%r = OpExtInst %t_i8_1x1x4x12 %me MIN_SAD_COST " ARGS " %i32_0 %in0 %in1 ;@\n",
     .header = ME, .code = DG_ERR_OP_OPERAND_TYPE, .msg = "MIN_SAD_COST has 2 results"},
    {"MIN_SAD with two results", F4, "t_i8_1x1x4x12", ATTRS COST_ST,
     "%r = OpExtInst %st %me MIN_SAD " ARGS " %i32_0 %in0 %in1 ;@\n",
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 0\nOpGraphSetOutputARM %v %i32_0\n",
     .header = ME, .code = DG_ERR_OP_OPERAND_TYPE, .msg = "MIN_SAD has one result"},
    {"MIN_SAD_COST extract index 2", F4, "t_i8_1x1x4x12", ATTRS COST_ST,
     "%r = OpExtInst %st %me MIN_SAD_COST " ARGS " %i32_0 %in0 %in1\n"
     "%v = OpCompositeExtract %t_i8_1x1x4x12 %r 2 ;@\n",
     "OpGraphSetOutputARM %v %i32_0\n", .header = ME, .code = DG_ERR_COMPOSITE_EXTRACT,
     .msg = "index 2, MIN_SAD_COST has 2 results"},
};

void
test_decode_me_cases(void)
{
   h_run_all(valid, sizeof(valid) / sizeof(valid[0]));
   h_run_all(invalid, sizeof(invalid) / sizeof(invalid[0]));
}
