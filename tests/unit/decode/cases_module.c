/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Invalid micro-graphs, one per rule, for the module level: SPV_ARM_graph
 * structure (capability, entry point, graph type, interface, body layout,
 * indices, values), types and constants, instruction sets, and the create
 * info (resource infos, graph constants, specialization). Each names the
 * code, a fragment of the message, and with ";@" the instruction the
 * diagnostic must point at. The operators' rules are in cases_ops.c.
 */
#include "harness.h"

#define ADD "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in0\n"
#define IO1 "t_f32_4", "t_f32_4"

static const struct dcase structure[] = {
    {"no GraphARM capability", IO1, NULL, ADD, .mutate = M_NO_GRAPH_CAP,
     .code = DG_ERR_NO_GRAPH_CAPABILITY, .msg = "GraphARM"},
    /* pName names no entry point: with the module's only one it is used (with a warning, as
     * Arm's layer ignores pName), with two it is refused. */
    {"entry point name wrong, the only one used", IO1, NULL, ADD, .mutate = M_ENTRY_NAME,
     .code = DG_OK},
    {"entry point not found", IO1, NULL, ADD, .mutate = M_ENTRY_NAME,
     .entry = "OpGraphEntryPointARM %graph \"main\" %vin0 %vout0\n"
              "OpGraphEntryPointARM %graph \"other\" %vin0 %vout0\n",
     .code = DG_ERR_ENTRY_POINT_NOT_FOUND, .msg = "\"nope\""},
    {"entry point name twice", IO1, NULL, ADD,
     .entry = "OpGraphEntryPointARM %graph \"main\" %vin0 %vout0\n"
              "OpGraphEntryPointARM %graph \"main\" %vin0 %vout0 ;@\n",
     .code = DG_ERR_ENTRY_POINT_DUPLICATE, .msg = "second"},
    {"entry point graph not OpGraphARM", IO1, NULL, ADD,
     .entry = "OpGraphEntryPointARM %gt \"main\" %vin0 %vout0 ;@\n",
     .code = DG_ERR_ENTRY_POINT_GRAPH, .msg = "not an OpGraphARM"},
    {"graph result type not OpTypeGraphARM", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %t_f32_4 ;@\nOpGraphEndARM\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "not an OpTypeGraphARM"},
    {"graph type without outputs", "t_f32_4", "", NULL, ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %t_f32_4 ;@\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "at least one output"},
    {"graph type NumInputs beyond its types", IO1, NULL, ADD,
     .gtype = "%gt = OpTypeGraphARM 3 %t_f32_4 %t_f32_4 ;@\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "NumInputs 3"},
    {"graph interface type not a tensor", IO1, NULL, ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %f32 %t_f32_4 ;@\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "not a graph interface type"},
    {"array of non-tensors", IO1, "%arr = OpTypeArray %f32 %i32_2\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %arr %t_f32_4 ;@\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "not of OpTypeTensorARM"},
    {"runtime array interface", IO1, "%rt = OpTypeRuntimeArray %t_f32_4\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %rt %t_f32_4 ;@\n", .code = DG_ERR_GRAPH_TYPE,
     .msg = "runtime arrays"},
    /* Graph types without Shape or Rank take them from the resource infos (D23; the
     * other cases are in cases_unshaped.c). */
    {"unshaped tensor in the graph type", IO1, "%tu = OpTypeTensorARM %f32 %i32_1\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %tu %t_f32_4\n", .code = DG_OK},
    {"unranked tensor in the graph type", IO1, "%tu = OpTypeTensorARM %f32\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %tu %t_f32_4\n", .code = DG_OK},
    {"unshaped graph type of another rank", IO1, "%tu = OpTypeTensorARM %f32 %i32_2\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %tu %t_f32_4\n", .code = DG_ERR_INTERFACE,
     .msg = "not the graph type's"},
    {"interface count", IO1, NULL, ADD, .entry = "OpGraphEntryPointARM %graph \"main\" %vin0 ;@\n",
     .code = DG_ERR_INTERFACE, .msg = "1 interface variables"},
    {"interface not a variable", IO1, NULL, ADD,
     .entry = "OpGraphEntryPointARM %graph \"main\" %i32_0 %vout0 ;@\n", .code = DG_ERR_INTERFACE,
     .msg = "not an OpVariable"},
    {"interface storage class", IO1,
     "%pf = OpTypePointer Private %t_f32_4\n%vp = OpVariable %pf Private ;@\n", ADD,
     .entry = "OpGraphEntryPointARM %graph \"main\" %vp %vout0\n", .code = DG_ERR_INTERFACE,
     .msg = "UniformConstant"},
    {"interface type differs from the graph type", "t_f32_4", "t_f32_8",
     "%vx = OpVariable %p_t_f32_8 UniformConstant ;@\n", NULL, "",
     .entry = "OpGraphEntryPointARM %graph \"main\" %vx %vout0\n", .code = DG_ERR_INTERFACE,
     .msg = "not the graph type's"},
    {"interface without decorations", IO1, "%vx = OpVariable %p_t_f32_4 UniformConstant ;@\n", ADD,
     .entry = "OpGraphEntryPointARM %graph \"main\" %vx %vout0\n", .code = DG_ERR_INTERFACE,
     .msg = "DescriptorSet and Binding"},
    {"input after the body", "t_f32_4 t_f32_4", "t_f32_4", NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n" ADD
              "%in1 = OpGraphInputARM %t_f32_4 %i32_1 ;@\nOpGraphSetOutputARM %r %i32_0\n"
              "OpGraphEndARM\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "immediately follow"},
    {"body after an output", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"
              "OpGraphSetOutputARM %in0 %i32_0\n%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in0 ;@\n"
              "OpGraphEndARM\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "immediately precede"},
    {"no OpGraphEndARM", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt ;@\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"
              "OpGraphSetOutputARM %in0 %i32_0\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "no OpGraphEndARM"},
    {"no output set", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"
              "OpGraphEndARM ;@\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "sets no output"},
    {"instruction not allowed in a graph", IO1, NULL, "%x = OpIAdd %i32 %i32_1 %i32_2 ;@\n" ADD,
     .code = DG_ERR_BODY_INSTRUCTION, .msg = "not allowed in a graph"},
    {"nested OpGraphARM", IO1, NULL, "%g2 = OpGraphARM %gt ;@\n" ADD, .code = DG_ERR_GRAPH_LAYOUT,
     .msg = "has no OpGraphEndARM before it"},
    {"InputIndex not a constant", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %vin0 ;@\n"
              "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n",
     .code = DG_ERR_INDEX_NOT_CONSTANT, .msg = "not a constant instruction"},
    {"InputIndex not 32-bit", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i8_0 ;@\n"
              "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n",
     .code = DG_ERR_INDEX_NOT_CONSTANT, .msg = "32-bit"},
    {"InputIndex out of range", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_1 ;@\n"
              "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n",
     .code = DG_ERR_INDEX_RANGE, .msg = "InputIndex 1, the graph has 1 inputs"},
    {"OutputIndex out of range", IO1, NULL, ADD, "OpGraphSetOutputARM %r %i32_3 ;@\n",
     .code = DG_ERR_INDEX_RANGE, .msg = "OutputIndex 3"},
    {"ElementIndex on a tensor", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0 %i32_0 ;@\n"
              "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n",
     .code = DG_ERR_INDEX_RANGE, .msg = "not an array"},
    {"ElementIndex beyond the array", "a2_t_f32_4", "t_f32_4", NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0 %i32_2 ;@\n"
              "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n",
     .code = DG_ERR_INDEX_RANGE, .msg = "ElementIndex 2"},
    {"whole array input", "a2_t_f32_4", "t_f32_4", NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %a2_t_f32_4 %i32_0 ;@\n"
              "OpGraphEndARM\n",
     .code = DG_ERR_IO_TYPE, .msg = "use ElementIndex"},
    {"input defined twice", "t_f32_4", "t_f32_4", NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"
              "%in1 = OpGraphInputARM %t_f32_4 %i32_0 ;@\nOpGraphSetOutputARM %in1 %i32_0\n"
              "OpGraphEndARM\n",
     .code = DG_ERR_INPUT_DUPLICATE, .msg = "already defined"},
    {"output set twice", IO1, NULL, ADD,
     "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %in0 %i32_0 ;@\n",
     .code = DG_ERR_OUTPUT_DUPLICATE, .msg = "already set"},
    {"output never set", "t_f32_4", "t_f32_4 t_f32_4", NULL, ADD, "OpGraphSetOutputARM %r %i32_1\n",
     .code = DG_ERR_OUTPUT_MISSING, .msg = "output 0 is never set"},
    {"output array element never set", "t_f32_4", "a2_t_f32_4", NULL, ADD,
     "OpGraphSetOutputARM %r %i32_0 %i32_1\n", .code = DG_ERR_OUTPUT_MISSING,
     .msg = "output 0 element 0"},
    {"input result type", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_8 %i32_0 ;@\n"
              "OpGraphEndARM\n",
     .code = DG_ERR_IO_TYPE, .msg = "Result Type fp32 [8], input 0 is fp32 [4]"},
    {"output value type", IO1, "%c = OpConstantNull %t_f16_4\n", ADD,
     "OpGraphSetOutputARM %c %i32_0 ;@\n", .code = DG_ERR_IO_TYPE,
     .msg = "is fp16 [4], output 0 is fp32 [4]"},
    {"operand that is no tensor value", IO1, NULL,
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %vin0 ;@\n", .code = DG_ERR_VALUE,
     .msg = "not a tensor value of graph"},
    {"operand used before its definition", IO1, NULL,
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %r2 ;@\n%r2 = OpExtInst %t_f32_4 %tosa ADD %in0 "
     "%in0\n",
     .code = DG_ERR_FORWARD_REFERENCE, .msg = "before its definition"},
    {"operand naming its own result", IO1, NULL, "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %r ;@\n",
     .code = DG_ERR_FORWARD_REFERENCE, .msg = "before its definition"},
    {"scalar constant as a tensor operand", IO1, NULL,
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %f32_1 ;@\n", .code = DG_ERR_VALUE,
     .msg = "not a tensor"},
    {"non-semantic result as a tensor", IO1, "%void = OpTypeVoid\n",
     "%d = OpExtInst %void %dbg DebugGraph %graph %graph\n"
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %d ;@\n",
     .header = "%dbg = OpExtInstImport \"NonSemantic.Graph.DebugInfo.1\"\n", .code = DG_ERR_VALUE},
    {"struct result of a one-result operator", IO1, "%st = OpTypeStruct %t_f32_4 %t_f32_4\n",
     "%s = OpExtInst %st %tosa ADD %in0 %in0 ;@\n", "OpGraphSetOutputARM %in0 %i32_0\n",
     .code = DG_ERR_OP_OPERAND_TYPE, .msg = "struct of 2 tensors"},
    {"OpCompositeExtract of a tensor", IO1, NULL, ADD "%x = OpCompositeExtract %t_f32_4 %r 0 ;@\n",
     "OpGraphSetOutputARM %x %i32_0\n", .code = DG_ERR_COMPOSITE_EXTRACT, .msg = "multi-result"},
    {"GraphConstantID twice", IO1,
     "%c0 = OpGraphConstantARM %t_f32_4 5\n%c1 = OpGraphConstantARM %t_f32_4 5 ;@\n", ADD,
     .code = DG_ERR_GRAPH_CONSTANT_ID_DUPLICATE, .msg = "GraphConstantID 5"},
};

/* The module's structure (dg_structure.c, issue 15): SPIR-V's logical layout, capabilities,
 * ids defined before use, the memory model, storage classes and type declarations. */
#define OTHER_EXTS                                                                                 \
   "OpExtension \"SPV_KHR_bfloat16\"\nOpExtension \"SPV_EXT_float8\"\n"                            \
   "OpExtension \"SPV_EXT_replicated_composites\"\n"
#define CAPS_BUT(x) "OpCapability VulkanMemoryModel\n" x
#define GRAPH1                                                                                     \
   "%graph = OpGraphARM %gt\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"                             \
   "OpGraphSetOutputARM %in0 %i32_0\nOpGraphEndARM\n"
static const struct dcase module_structure[] = {
    {"pointer storage class not the variable's", IO1,
     "%pp = OpTypePointer Private %t_f32_4\n%vx = OpVariable %pp UniformConstant ;@\n", ADD,
     .entry = "OpGraphEntryPointARM %graph \"main\" %vx %vout0\n", .code = DG_ERR_STORAGE_CLASS,
     .msg = "not its pointer type's"},
    {"module-level variable in Function storage", IO1,
     "%pfn = OpTypePointer Function %f32\n%vf = OpVariable %pfn Function ;@\n", ADD,
     .code = DG_ERR_STORAGE_CLASS, .msg = "Storage Class Function"},
    {"OpTypeInt signedness 47", IO1, "%i47 = OpTypeInt 32 47 ;@\n", ADD, .code = DG_ERR_TYPE_DECL,
     .msg = "Signedness 47"},
    {"OpTypeInt width 12", IO1, "%i12 = OpTypeInt 12 0 ;@\n", ADD, .code = DG_ERR_TYPE_DECL,
     .msg = "Width 12"},
    {"OpTypeFloat 8 without an encoding", IO1, "%f8 = OpTypeFloat 8 ;@\n", ADD,
     .code = DG_ERR_TYPE_DECL, .msg = "Width 8 with no encoding"},
    {"shape array whose element type is a constant", IO1, "%ab = OpTypeArray %i32_4 %i32_1 ;@\n",
     ADD, .code = DG_ERR_TYPE_DECL, .msg = "Element Type (opcode 43) is not a type"},
    {"array length not an integer constant", IO1, "%ab = OpTypeArray %i32 %f32_1 ;@\n", ADD,
     .code = DG_ERR_TYPE_DECL, .msg = "Length is not an integer scalar constant"},
    {"tensor element type not a scalar", IO1, "%tt = OpTypeTensorARM %t_f32_4 %i32_1 ;@\n", ADD,
     .code = DG_ERR_TYPE_DECL, .msg = "Element Type is not a scalar type"},
    {"tensor rank not an integer constant", IO1, "%tt = OpTypeTensorARM %f32 %f32_1 ;@\n", ADD,
     .code = DG_ERR_TYPE_DECL, .msg = "Rank is not an integer scalar constant"},
    {"no OpMemoryModel", IO1, NULL, ADD, .memory_model = "", .code = DG_ERR_MEMORY_MODEL,
     .msg = "no OpMemoryModel"},
    {"unknown memory model", IO1, NULL, ADD, .memory_model = "OpMemoryModel Logical 7 ;@\n",
     .code = DG_ERR_MEMORY_MODEL, .msg = "Memory Model 7"},
    {"addressing model not Vulkan's", IO1, NULL, ADD,
     .memory_model = "OpMemoryModel Physical64 GLSL450 ;@\n", .code = DG_ERR_MEMORY_MODEL,
     .msg = "not Logical or PhysicalStorageBuffer64"},
    {"second OpMemoryModel", IO1, NULL, ADD,
     .memory_model = "OpMemoryModel Logical Vulkan\nOpMemoryModel Logical Vulkan ;@\n",
     .code = DG_ERR_MEMORY_MODEL, .msg = "a second OpMemoryModel"},
    {"GLSL450 memory model accepted", IO1, NULL, ADD,
     .memory_model = "OpMemoryModel Logical GLSL450\n", .code = DG_OK},
    {"Vulkan memory model without its capability", IO1, NULL, ADD,
     .caps = "OpCapability TensorsARM\nOpCapability Int8\nOpCapability Int16\nOpCapability Int64\n"
             "OpCapability Float16\nOpCapability BFloat16TypeKHR\nOpCapability Float8EXT\n"
             "OpCapability ReplicatedCompositesEXT\n",
     .memory_model = "OpMemoryModel Logical Vulkan ;@\n", .code = DG_ERR_CAPABILITY,
     .msg = "VulkanMemoryModel"},
    {"8-bit integer without Int8", IO1, NULL, ADD,
     .caps = CAPS_BUT("OpCapability TensorsARM\nOpCapability Int16\nOpCapability Int64\n"
                      "OpCapability Float16\nOpCapability BFloat16TypeKHR\n"
                      "OpCapability Float8EXT\nOpCapability ReplicatedCompositesEXT\n"),
     .code = DG_ERR_CAPABILITY, .msg = "requires OpCapability Int8"},
    {"64-bit integer without Int64", IO1, NULL, ADD,
     .caps = CAPS_BUT("OpCapability TensorsARM\nOpCapability Int8\nOpCapability Int16\n"
                      "OpCapability Float16\nOpCapability BFloat16TypeKHR\n"
                      "OpCapability Float8EXT\nOpCapability ReplicatedCompositesEXT\n"),
     .code = DG_ERR_CAPABILITY, .msg = "requires OpCapability Int64"},
    {"half float without Float16", IO1, NULL, ADD,
     .caps = CAPS_BUT("OpCapability TensorsARM\nOpCapability Int8\nOpCapability Int16\n"
                      "OpCapability Int64\nOpCapability BFloat16TypeKHR\n"
                      "OpCapability Float8EXT\nOpCapability ReplicatedCompositesEXT\n"),
     .code = DG_ERR_CAPABILITY, .msg = "requires OpCapability Float16"},
    {"tensor type without TensorsARM", IO1, NULL, ADD,
     .caps = CAPS_BUT("OpCapability Int8\nOpCapability Int16\nOpCapability Int64\n"
                      "OpCapability Float16\nOpCapability BFloat16TypeKHR\n"
                      "OpCapability Float8EXT\nOpCapability ReplicatedCompositesEXT\n"),
     .code = DG_ERR_CAPABILITY, .msg = "requires OpCapability TensorsARM"},
    {"tensor arrays imply TensorsARM", IO1, NULL, ADD,
     .caps = CAPS_BUT("OpCapability StorageTensorArrayDynamicIndexingARM\nOpCapability Int8\n"
                      "OpCapability Int16\nOpCapability Int64\nOpCapability Float16\n"
                      "OpCapability BFloat16TypeKHR\nOpCapability Float8EXT\n"
                      "OpCapability ReplicatedCompositesEXT\n"),
     .code = DG_OK},
    {"type used before its declaration", IO1,
     "%pf = OpTypePointer UniformConstant %tlate ;@\n%tlate = OpTypeTensorARM %f32 %i32_1 %sh_4\n",
     ADD, .code = DG_ERR_FORWARD_REFERENCE, .msg = "before its definition"},
    {"names and decorations may refer forward", IO1, "OpName %graph \"g\"\nOpName %r \"sum\"\n",
     ADD, .code = DG_OK},
    {"value of another graph", IO1, NULL, NULL,
     .graph = GRAPH1 "%g2 = OpGraphARM %gt\n%x0 = OpGraphInputARM %t_f32_4 %i32_0\n"
                     "OpGraphSetOutputARM %in0 %i32_0 ;@\nOpGraphEndARM\n",
     .code = DG_ERR_FORWARD_REFERENCE, .msg = "inside another graph"},
    {"second OpGraphEndARM", IO1, NULL, NULL, .graph = GRAPH1 "OpGraphEndARM ;@\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "outside a graph"},
    {"graph without OpGraphEndARM", IO1, NULL, NULL,
     .graph = "%graph = OpGraphARM %gt ;@\n%in0 = OpGraphInputARM %t_f32_4 %i32_0\n"
              "OpGraphSetOutputARM %in0 %i32_0\n",
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "has no OpGraphEndARM"},
    {"graph input outside a graph", IO1, "%xx = OpGraphInputARM %t_f32_4 %i32_0 ;@\n", ADD,
     .code = DG_ERR_GRAPH_LAYOUT, .msg = "outside a graph"},
    {"type declared after the graphs", IO1, NULL, NULL,
     .graph = GRAPH1 "%late = OpTypeInt 32 1 ;@\n", .code = DG_ERR_LAYOUT,
     .msg = "after the section \"graph definitions and entry points\""},
    {"capability after the graphs", IO1, NULL, NULL, .graph = GRAPH1 "OpCapability Int8 ;@\n",
     .code = DG_ERR_LAYOUT, .msg = "section \"capabilities\""},
    {"replicated composite without its capability", IO1,
     "%rep = OpConstantCompositeReplicateEXT %t_f32_4 %f32_1 ;@\n", ADD,
     .caps = CAPS_BUT("OpCapability TensorsARM\nOpCapability Int8\nOpCapability Int16\n"
                      "OpCapability Int64\nOpCapability Float16\nOpCapability BFloat16TypeKHR\n"
                      "OpCapability Float8EXT\n"),
     .code = DG_ERR_CAPABILITY, .msg = "ReplicatedCompositesEXT"},
    {"tensor type without SPV_ARM_tensors", IO1, NULL, ADD,
     .extensions = "OpExtension \"SPV_ARM_graph\"\n" OTHER_EXTS, .code = DG_ERR_CAPABILITY,
     .msg = "requires OpExtension \"SPV_ARM_tensors\""},
    {"graph without SPV_ARM_graph", IO1, NULL, ADD,
     .extensions = "OpExtension \"SPV_ARM_tensors\"\n" OTHER_EXTS, .code = DG_ERR_CAPABILITY,
     .msg = "requires OpExtension \"SPV_ARM_graph\""},
    {"bfloat16 without SPV_KHR_bfloat16", IO1, NULL, ADD,
     .extensions = "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_ARM_graph\"\n",
     .code = DG_ERR_CAPABILITY, .msg = "requires OpExtension \"SPV_KHR_bfloat16\""},
};

static const struct dcase types[] = {
    {"element type without a TOSA mapping", IO1,
     "%f64 = OpTypeFloat 64\n%t64 = OpTypeTensorARM %f64 %i32_1 %sh_4\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %t64 %t_f32_4 ;@\n", .header = "OpCapability Float64\n",
     .code = DG_ERR_ELEMENT_TYPE, .msg = "no TOSA.001000.1 mapping"},
    {"rank 0", IO1, "%t0 = OpTypeTensorARM %f32 %i32_0 %sh_4\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %t0 %t_f32_4 ;@\n", .code = DG_ERR_TENSOR_SHAPE,
     .msg = "Rank 0"},
    {"rank beyond MAX_RANK", "t_f32_1x1x1x1x1x1x2", "t_f32_4", NULL, NULL,
     "OpGraphSetOutputARM %in0 %i32_0\n", .gtype = NULL, .code = DG_ERR_LEVEL,
     .msg = "Rank 7 > MAX_RANK 6"},
    {"dimension 0", "t_f32_0x4", "t_f32_4", NULL, NULL, "OpGraphSetOutputARM %in0 %i32_0\n",
     .code = DG_ERR_TENSOR_SHAPE, .msg = "dimension 0 is 0"},
    {"tensor beyond MAX_LOG2_SIZE", "t_f32_65536x8192", "t_f32_4", NULL, NULL,
     "OpGraphSetOutputARM %in0 %i32_0\n", .code = DG_ERR_LEVEL, .msg = "MAX_LOG2_SIZE"},
    {"Shape not a constant", IO1, "%tv = OpTypeTensorARM %f32 %i32_1 %vin0 ;@\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %tv %t_f32_4\n", .code = DG_ERR_TYPE_DECL,
     .msg = "Shape is not a constant array"},
    {"Shape length is not Rank", IO1, "%tx = OpTypeTensorARM %f32 %i32_3 %sh_4\n", ADD,
     .gtype = "%gt = OpTypeGraphARM 1 %tx %t_f32_4 ;@\n", .code = DG_ERR_TENSOR_SHAPE,
     .msg = "Shape has 1 elements, Rank is 3"},
    {"composite with too few constituents", IO1,
     "%c = OpConstantComposite %t_f32_4 %f32_1 %f32_2 ;@\n",
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %c\n", .code = DG_ERR_CONSTANT,
     .msg = "2 constituents, its outermost dimension is 4"},
    {"composite constituent of another type", "t_f32_2", "t_f32_2",
     "%c = OpConstantComposite %t_f32_2 %f32_1 %i32_1 ;@\n",
     "%r = OpExtInst %t_f32_2 %tosa ADD %in0 %c\n", .code = DG_ERR_CONSTANT,
     .msg = "is not a fp32 scalar"},
    {"composite constituent of the wrong inner shape", "t_f32_2x2", "t_f32_2x2",
     "%row = OpConstantNull %t_f32_3\n%c = OpConstantComposite %t_f32_2x2 %row %row ;@\n",
     "%r = OpExtInst %t_f32_2x2 %tosa ADD %in0 %c\n", .code = DG_ERR_CONSTANT,
     .msg = "expected fp32 [2]"},
    {"module constant beyond the size cap", "t_f32_512x1024", "t_f32_512x1024",
     "%c = OpConstantNull %t_f32_512x1024 ;@\n",
     "%r = OpExtInst %t_f32_512x1024 %tosa ADD %in0 %c\n", .code = DG_ERR_CONSTANT_TOO_LARGE,
     .msg = "use a graph constant"},
    /* OpSpecConstantOp on scalars is evaluated (dg_spec_op.c); what SPIR-V leaves undefined,
     * floats and tensors are refused. */
    {"OpSpecConstantOp", "t_f32_2", "t_f32_2", "%s = OpSpecConstantOp %i32 IAdd %i32_1 %i32_0\n",
     "%r = OpExtInst %t_f32_2 %tosa CLAMP %f32_0 %f32_1 %s %in0\n", .code = DG_OK},
    {"OpSpecConstantOp giving a bad nan_mode", "t_f32_2", "t_f32_2",
     "%s = OpSpecConstantOp %i32 IAdd %i32_1 %i32_2\n",
     "%r = OpExtInst %t_f32_2 %tosa CLAMP %f32_0 %f32_1 %s %in0 ;@\n",
     .code = DG_ERR_OP_ATTRIBUTE, .msg = "nan_mode 3"},
    {"OpSpecConstantOp division by zero", "t_f32_2", "t_f32_2",
     "%s = OpSpecConstantOp %i32 UDiv %i32_1 %i32_0\n",
     "%r = OpExtInst %t_f32_2 %tosa CLAMP %f32_0 %f32_1 %s %in0 ;@\n",
     .code = DG_ERR_SPEC_CONSTANT_OP, .msg = "division of 1 by 0"},
    {"OpSpecConstantOp shift by the width", "t_f32_2", "t_f32_2",
     "%s = OpSpecConstantOp %i32 ShiftLeftLogical %i32_1 %i32_32\n",
     "%r = OpExtInst %t_f32_2 %tosa CLAMP %f32_0 %f32_1 %s %in0 ;@\n",
     .code = DG_ERR_SPEC_CONSTANT_OP, .msg = "shift by 32"},
    {"OpSpecConstantOp on floats", "t_f32_2", "t_f32_2",
     "%s = OpSpecConstantOp %f32 FAdd %f32_0 %f32_1\n",
     "%r = OpExtInst %t_f32_2 %tosa CLAMP %f32_0 %s %i32_1 %in0 ;@\n",
     .code = DG_ERR_SPEC_CONSTANT_OP, .msg = "floating-point"},
    {"OpSpecConstantOp making a tensor", "t_f32_2", "t_f32_2",
     "%c = OpConstantNull %t_f32_2\n%s = OpSpecConstantOp %t_f32_2 CompositeInsert %f32_1 %c 0 ;@\n",
     "%r = OpExtInst %t_f32_2 %tosa ADD %in0 %s\n", .code = DG_ERR_SPEC_CONSTANT_OP,
     .msg = "makes a tensor"},
};

static const struct dcase sets[] = {
    {"instruction set not known", IO1, NULL, "%r = OpExtInst %t_f32_4 %glsl 4 %in0 ;@\n",
     .header = "%glsl = OpExtInstImport \"GLSL.std.450\"\n", .code = DG_ERR_SET_UNKNOWN,
     .msg = "\"GLSL.std.450\" is not supported"},
    {"Set operand not an import", IO1, NULL, "%r = OpExtInst %t_f32_4 %in0 14 %in0 %in0 ;@\n",
     .code = DG_ERR_SET_UNKNOWN, .msg = "not an OpExtInstImport"},
    {"Arm.MotionEngine.100 instruction on a float tensor", IO1, NULL,
     "%r = OpExtInst %t_f32_4 %me MIN_SAD %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 %in0 ;@\n",
     .header = "%me = OpExtInstImport \"Arm.MotionEngine.100\"\n", .code = DG_ERR_OP_NOT_CONSTANT,
     .msg = "MIN_SAD %"},
    {"Arm.ExperimentalMLOperations", IO1, NULL, "%r = OpExtInst %t_f32_4 %ex 0 %i32_0 ;@\n",
     .header = "%ex = OpExtInstImport \"Arm.ExperimentalMLOperations.1\"\n",
     .code = DG_ERR_SET_EXPERIMENTAL, .msg = "unratified"},
    {"TOSA instruction number unknown", IO1, NULL, "%r = OpExtInst %t_f32_4 %tosa 66 %in0 ;@\n",
     .code = DG_ERR_INST_UNKNOWN, .msg = "no instruction 66"},
    /* Every TOSA.001000.1 instruction has an operator now (issue 12): no "unsupported
     * operator" case is left to write; test_decode.c checks that the table covers all 66. */
};

static const int32_t spec_data[2] = {1, 2};
static const VkSpecializationMapEntry spec_wide = {1, 0, 8};
static const VkSpecializationInfo spec_size = {1, &spec_wide, sizeof(spec_data), spec_data};
static const VkSpecializationMapEntry spec_far = {1, 6, 4};
static const VkSpecializationInfo spec_range = {1, &spec_far, sizeof(spec_data), spec_data};

#define GC "%gc = OpGraphConstantARM %t_f32_4 3 ;@\n"
#define GC_ADD "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %gc\n"
#define SPEC "OpDecorate %s SpecId 1\n%s = OpSpecConstant %i32 1\n"
#define SPEC_CLAMP "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %f32_1 %s %in0 ;@\n"
#define SPEC_CLAMP_UNMARKED "%r = OpExtInst %t_f32_4 %tosa CLAMP %f32_0 %f32_1 %s %in0\n"

static const struct dcase create_info[] = {
    {"resource info missing", IO1, NULL, ADD, .mutate = M_RES_DROP, .code = DG_ERR_RESOURCE_MISSING,
     .msg = "set 0, binding 0"},
    {"resource info twice", IO1, NULL, ADD, .mutate = M_RES_DUP, .code = DG_ERR_RESOURCE_DUPLICATE,
     .msg = "both describe set 0, binding 0"},
    {"resource arrayElement", IO1, NULL, ADD, .mutate = M_RES_ELEMENT,
     .code = DG_ERR_RESOURCE_ARRAY_ELEMENT, .msg = "arrayElement 1"},
    {"resource dimensions", IO1, NULL, ADD, .mutate = M_RES_DIMS,
     .code = DG_ERR_RESOURCE_DESCRIPTION, .msg = "pDimensions [5]"},
    {"resource format", IO1, NULL, ADD, .mutate = M_RES_FORMAT, .code = DG_ERR_RESOURCE_DESCRIPTION,
     .msg = "not compatible with element type fp32"},
    {"resource usage", IO1, NULL, ADD, .mutate = M_RES_USAGE, .code = DG_ERR_RESOURCE_DESCRIPTION,
     .msg = "VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM"},
    {"resource without description", IO1, NULL, ADD, .mutate = M_RES_NO_DESC,
     .code = DG_ERR_RESOURCE_DESCRIPTION, .msg = "no VkTensorDescriptionARM"},
    {"array resource dimensions", "a3_t_i8_2x2", "t_i8_2x2", NULL, NULL,
     "OpGraphSetOutputARM %in0_2 %i32_0\n", .mutate = M_RES_DIMS,
     .code = DG_ERR_RESOURCE_DESCRIPTION, .msg = "pDimensions [3,2]"},
    {"graph constant missing", IO1, GC, GC_ADD, .mutate = M_GC_DROP,
     .code = DG_ERR_CONSTANT_MISSING, .msg = "has id 3"},
    {"graph constant twice", IO1, GC, GC_ADD, .mutate = M_GC_DUP, .code = DG_ERR_CONSTANT_DUPLICATE,
     .msg = "both have id 3"},
    {"graph constant tiling", IO1, GC, GC_ADD, .mutate = M_GC_TILING,
     .code = DG_ERR_CONSTANT_DESCRIPTION, .msg = "LINEAR"},
    {"graph constant strides", IO1, GC, GC_ADD, .mutate = M_GC_STRIDES,
     .code = DG_ERR_CONSTANT_DESCRIPTION, .msg = "pStrides[0] = 6"},
    {"graph constant dimensions", IO1, GC, GC_ADD, .mutate = M_GC_DIMS,
     .code = DG_ERR_CONSTANT_DESCRIPTION, .msg = "pDimensions [5]"},
    {"graph constant without data", IO1, GC, GC_ADD, .mutate = M_GC_NULL_DATA,
     .code = DG_ERR_CONSTANT_DESCRIPTION, .msg = "pConstantData is NULL"},
    {"graph constant as an output", IO1, GC, NULL, "OpGraphSetOutputARM %gc %i32_0\n",
     .mutate = M_GC_DROP, .code = DG_ERR_CONSTANT_MISSING},
    {"graph constant attribute missing", "t_i32_4 t_i32_4", "t_i32_4",
     "%gc = OpGraphConstantARM %t_i8_1 9\n", "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %gc\n",
     .mutate = M_GC_DROP, .code = DG_ERR_CONSTANT_MISSING, .msg = "has id 9"},
    {"specialization constants without the feature", IO1, SPEC, SPEC_CLAMP_UNMARKED,
     .mutate = M_SPEC_OFF, .code = DG_ERR_SPECIALIZATION,
     .msg = "dataGraphSpecializationConstants"},
    {"specialization size", IO1, SPEC, SPEC_CLAMP, .spec = &spec_size,
     .code = DG_ERR_SPECIALIZATION, .msg = "size 8, the type needs 4"},
    {"specialization data range", IO1, SPEC, SPEC_CLAMP, .spec = &spec_range,
     .code = DG_ERR_SPECIALIZATION, .msg = "outside dataSize 8"},
};

void
test_decode_module_cases(void)
{
   h_run_all(structure, sizeof(structure) / sizeof(structure[0]));
   h_run_all(module_structure, sizeof(module_structure) / sizeof(module_structure[0]));
   h_run_all(types, sizeof(types) / sizeof(types[0]));
   h_run_all(sets, sizeof(sets) / sizeof(sets[0]));
   h_run_all(create_info, sizeof(create_info) / sizeof(create_info[0]));
}
