/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph body, from OpGraphARM to OpGraphEndARM (SPV_ARM_graph
 * "Validation Rules"): inputs first, outputs last, and between them only
 * OpExtInst and OpCompositeExtract. OpExtInst goes through the instruction-set
 * registry: TOSA.001000.1 and Arm.MotionEngine.100 to the operator table (ops/),
 * NonSemantic.* ignored, anything else rejected.
 * Also here: the value table (which tensor an id is), constants made into
 * tensors on first use, and the checks that every output is set once. The
 * module level (entry point, interface) is dg_decode.c's.
 */
#include "dg_decode_private.h"
#include "ops/dg_op.h"

/* Makes a constant (graph constant or module tensor constant) into a tensor. */
static VkResult
constant_tensor(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                const struct spirv_inst *def, uint32_t *tensor)
{
   uint32_t type_id;
   struct dg_tensor t = {.id = id};
   VkResult result = dg_word(d, def, 1, &type_id);
   if (result != VK_SUCCESS)
      return result;
   if (!dg_is_tensor_type(d, type_id))
      return dg_fail(d, user, DG_ERR_VALUE, "%%%u is a constant but not a tensor", id);
   /* A graph constant's shape may come from its description; a module constant needs its own. */
   if ((result = def->opcode == SPV_ARM_OP_GRAPH_CONSTANT
                    ? dg_tensor_type_decl(d, def, type_id, &t.ty)
                    : dg_tensor_type(d, def, type_id, &t.ty)) != VK_SUCCESS)
      return result;
   if (def->opcode == SPV_ARM_OP_GRAPH_CONSTANT) {
      const VkDataGraphPipelineConstantARM *constant;
      t.kind = DG_TENSOR_GRAPH_CONSTANT;
      if ((result = dg_match_graph_constant(d, def, &t.ty, &constant, &t.graph_constant.desc)) !=
          VK_SUCCESS)
         return result;
      t.graph_constant.constant_id = constant->id;
      t.graph_constant.data = constant->pConstantData;
   } else {
      uint64_t bytes = dg_shape_elements(&t.ty.shape) * dg_type_size(t.ty.type);
      void *data;
      if (bytes > d->max_constant_bytes)
         return dg_fail(d, def, DG_ERR_CONSTANT_TOO_LARGE,
                        "tensor constant of %" PRIu64 " bytes; module constants are limited to "
                        "%" PRIu64 " bytes (use a graph constant)",
                        bytes, d->max_constant_bytes);
      if ((result = dg_add_blob(d, bytes, &data)) != VK_SUCCESS ||
          (result = dg_eval_tensor(d, def, id, &t.ty, data)) != VK_SUCCESS)
         return result;
      t.kind = DG_TENSOR_CONSTANT;
      t.constant.data = data;
      t.constant.size = bytes;
   }
   if ((result = dg_add_tensor(d, &t, tensor)) != VK_SUCCESS)
      return result;
   d->values[id] = *tensor;
   return VK_SUCCESS;
}

VkResult
dg_value_tensor(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id, uint32_t *tensor)
{
   if (id == 0 || id >= d->r.bound)
      return dg_fail(d, user, DG_ERR_SPIRV, "id %u is outside the bound %u", id, d->r.bound);
   uint32_t v = d->values[id];
   if (v != DG_NO_VALUE && (v & DG_STRUCT_VALUE))
      return dg_fail(d, user, DG_ERR_VALUE,
                     "%%%u has several results; take one with OpCompositeExtract", id);
   if (v != DG_NO_VALUE) {
      *tensor = v;
      return VK_SUCCESS;
   }
   const struct spirv_inst *def;
   VkResult result = dg_def(d, user, id, &def);
   if (result != VK_SUCCESS)
      return result;
   if (dg_is_constant_opcode(def->opcode))
      return constant_tensor(d, user, id, def, tensor);
   uint32_t at = spirv_reader_inst_index(&d->r, def);
   uint32_t here = spirv_reader_inst_index(&d->r, user);
   if (at > d->graph_index && at >= here)
      return dg_fail(d, user, DG_ERR_VALUE, "%%%u is used before its definition at word %u", id,
                     def->offset);
   return dg_fail(d, user, DG_ERR_VALUE,
                  "%%%u (opcode %u at word %u) is not a tensor value of graph %%%u", id,
                  def->opcode, def->offset, d->g->graph_id);
}

/* InputIndex, OutputIndex, ElementIndex: "must be a 32-bit integer" and a
 * constant instruction (VUID-StandaloneSpirv-InputIndex-09931 ...). */
static VkResult
decode_index(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t word, const char *what,
             uint32_t *value)
{
   const struct spirv_inst *def;
   struct dg_scalar s;
   VkResult result = dg_word_def(d, inst, word, &def);
   if (result != VK_SUCCESS)
      return result;
   uint32_t id = spirv_reader_result_id(&d->r, def);
   if (!dg_is_constant_opcode(def->opcode) || def->opcode == SPV_ARM_OP_GRAPH_CONSTANT)
      return dg_fail(d, inst, DG_ERR_INDEX_NOT_CONSTANT,
                     "%s %%%u is not a constant instruction (opcode %u)", what, id, def->opcode);
   if ((result = dg_eval_scalar(d, inst, id, &s)) != VK_SUCCESS)
      return result;
   if (s.opcode != DG_SPV_TYPE_INT || s.width != 32)
      return dg_fail(d, inst, DG_ERR_INDEX_NOT_CONSTANT, "%s %%%u is not a 32-bit integer", what,
                     id);
   *value = (uint32_t)s.bits;
   return VK_SUCCESS;
}

/* The (index, element) of an input or output: in range, not seen before. */
static VkResult
decode_io(struct dg_decoder *d, const struct spirv_inst *inst, bool output, uint32_t word,
          struct dg_graph_io *io, struct dg_interface_var **var)
{
   const char *what = output ? "OutputIndex" : "InputIndex";
   uint32_t count = output ? d->num_outputs : d->num_inputs;
   VkResult result = decode_index(d, inst, word, what, &io->index);
   if (result != VK_SUCCESS)
      return result;
   io->has_element = inst->word_count > word + 1;
   if (io->has_element &&
       (result = decode_index(d, inst, word + 1, "ElementIndex", &io->element)) != VK_SUCCESS)
      return result;
   if (io->index >= count)
      return dg_fail(d, inst, DG_ERR_INDEX_RANGE, "%s %u, the graph has %u %s", what, io->index,
                     count, output ? "outputs" : "inputs");
   *var = &d->vars[output ? d->num_inputs + io->index : io->index];
   if (io->has_element && !(*var)->is_array)
      return dg_fail(d, inst, DG_ERR_INDEX_RANGE, "ElementIndex with %s %u, which is not an array",
                     what, io->index);
   if (!io->has_element && (*var)->is_array)
      return dg_fail(d, inst, DG_ERR_IO_TYPE,
                     "%s %u is a tensor array: whole arrays as values are not supported, use "
                     "ElementIndex",
                     what, io->index);
   if (io->element >= (*var)->length)
      return dg_fail(d, inst, DG_ERR_INDEX_RANGE, "ElementIndex %u, the array has %u elements",
                     io->element, (*var)->length);
   const struct dg_graph_io *seen = output ? d->g->outputs : d->g->inputs;
   uint32_t seen_count = output ? d->g->output_count : d->g->input_count;
   for (uint32_t i = 0; i < seen_count; i++) {
      if (seen[i].index == io->index && seen[i].element == io->element)
         return dg_fail(d, inst, output ? DG_ERR_OUTPUT_DUPLICATE : DG_ERR_INPUT_DUPLICATE,
                        "%s %u element %u is already %s at word %u", what, io->index, io->element,
                        output ? "set" : "defined", seen[i].offset);
   }
   io->set = (*var)->set;
   io->binding = (*var)->binding;
   io->desc = (*var)->desc;
   io->offset = inst->offset;
   return VK_SUCCESS;
}

static VkResult
decode_input(struct dg_decoder *d, const struct spirv_inst *inst)
{
   struct dg_graph_io io = {0};
   struct dg_interface_var *var;
   struct dg_tensor t = {.kind = DG_TENSOR_INPUT};
   uint32_t type_id;
   VkResult result;
   if ((result = dg_word(d, inst, 1, &type_id)) != VK_SUCCESS ||
       (result = dg_word(d, inst, 2, &t.id)) != VK_SUCCESS ||
       (result = decode_io(d, inst, false, 3, &io, &var)) != VK_SUCCESS ||
       (result = dg_tensor_type_decl(d, inst, type_id, &t.ty)) != VK_SUCCESS)
      return result;
   if (!dg_tensor_type_fits(&t.ty, &var->ty)) {
      char a[96], b[96];
      return dg_fail(d, inst, DG_ERR_IO_TYPE, "Result Type %s %s, input %u is %s %s",
                     dg_type_name(t.ty.type), dg_shape_str(&t.ty.shape, a, sizeof(a)), io.index,
                     dg_type_name(var->ty.type), dg_shape_str(&var->ty.shape, b, sizeof(b)));
   }
   t.ty = var->ty;
   t.input.input = d->g->input_count;
   if ((result = dg_add_tensor(d, &t, &io.tensor)) != VK_SUCCESS ||
       (result = dg_add_io(d, false, &io)) != VK_SUCCESS)
      return result;
   d->values[t.id] = io.tensor;
   return VK_SUCCESS;
}

static VkResult
decode_output(struct dg_decoder *d, const struct spirv_inst *inst)
{
   struct dg_graph_io io = {0};
   struct dg_interface_var *var;
   uint32_t value;
   VkResult result;
   if ((result = dg_word(d, inst, 1, &value)) != VK_SUCCESS ||
       (result = decode_io(d, inst, true, 2, &io, &var)) != VK_SUCCESS ||
       (result = dg_value_tensor(d, inst, value, &io.tensor)) != VK_SUCCESS)
      return result;
   const struct dg_tensor_type *ty = &d->g->tensors[io.tensor].ty;
   if (!dg_tensor_type_equal(ty, &var->ty)) {
      char a[96], b[96];
      return dg_fail(d, inst, DG_ERR_IO_TYPE, "Value %%%u is %s %s, output %u is %s %s", value,
                     dg_type_name(ty->type), dg_shape_str(&ty->shape, a, sizeof(a)), io.index,
                     dg_type_name(var->ty.type), dg_shape_str(&var->ty.shape, b, sizeof(b)));
   }
   return dg_add_io(d, true, &io);
}

/* Creates the node's result tensors: one for a tensor result type, one per
 * member for a struct of tensors (multi-result operators). */
static VkResult
decode_results(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t node_index,
               uint32_t type_id, uint32_t id)
{
   const struct spirv_inst *type;
   VkResult result = dg_def(d, inst, type_id, &type);
   if (result != VK_SUCCESS)
      return result;
   bool is_struct = type->opcode == DG_SPV_TYPE_STRUCT;
   uint32_t count = is_struct ? type->word_count - 2u : 1;
   if (!is_struct && type->opcode != SPV_ARM_OP_TYPE_TENSOR)
      return dg_fail(d, inst, DG_ERR_OP_OPERAND_TYPE,
                     "Result Type (opcode %u) is not an OpTypeTensorARM", type->opcode);
   d->g->nodes[node_index].first_output = d->g->node_tensor_count;
   for (uint32_t i = 0; i < count; i++) {
      struct dg_tensor t = {.kind = DG_TENSOR_NODE, .id = id};
      uint32_t member = type_id, tensor;
      t.node.node = node_index;
      t.node.result = i;
      if (is_struct && (result = dg_word(d, type, 2 + i, &member)) != VK_SUCCESS)
         return result;
      /* An unshaped result type gets the shape its operator's rule gives (dg_op_decode()). */
      if ((result = dg_tensor_type_decl(d, inst, member, &t.ty)) != VK_SUCCESS ||
          (result = dg_add_tensor(d, &t, &tensor)) != VK_SUCCESS ||
          (result = dg_add_node_tensor(d, tensor)) != VK_SUCCESS)
         return result;
   }
   d->g->nodes[node_index].output_count = count;
   return VK_SUCCESS;
}

/* An instruction of an operator set (TOSA.001000.1, Arm.MotionEngine.100). */
static VkResult
decode_op(struct dg_decoder *d, const struct spirv_inst *inst, enum spirv_ext_inst_set set,
          uint32_t number)
{
   const struct spirv_ext_inst_desc *desc = spirv_ext_inst_desc(set, number);
   if (!desc)
      return dg_fail(d, inst, DG_ERR_INST_UNKNOWN, "%s has no instruction %u",
                     spirv_ext_inst_set_name(set), number);
   const struct dg_op_info *op = dg_op_find(set, number);
   if (!op)
      return dg_fail(d, inst, DG_ERR_OP_UNSUPPORTED, "unsupported operator %s", desc->name);
   if (inst->word_count < desc->min_words || inst->word_count > desc->max_words)
      return dg_fail(d, inst, DG_ERR_OP_OPERAND_COUNT, "%s takes %s%u operands, not %u", desc->name,
                     desc->max_words == desc->min_words ? "" : "at least ",
                     desc->min_words - SPV_ARM_EXT_INST_HEADER_WORDS,
                     inst->word_count - SPV_ARM_EXT_INST_HEADER_WORDS);

   uint32_t type_id, id, node_index;
   VkResult result;
   if ((result = dg_word(d, inst, 1, &type_id)) != VK_SUCCESS ||
       (result = dg_word(d, inst, 2, &id)) != VK_SUCCESS ||
       (result = dg_add_node(d, &node_index)) != VK_SUCCESS)
      return result;
   struct dg_node *node = &d->g->nodes[node_index];
   node->op = op->op;
   node->tosa_inst = number;
   node->name = op->name;
   node->result_id = id;
   node->offset = inst->offset;
   if ((result = decode_results(d, inst, node_index, type_id, id)) != VK_SUCCESS)
      return result;
   node->first_input = d->g->node_tensor_count;
   struct dg_op_ctx c = {
       .d = d,
       .inst = inst,
       .node = node,
       .name = op->name,
       .op = op,
       .operand_count = inst->word_count - SPV_ARM_EXT_INST_HEADER_WORDS,
       .features = d->features,
   };
   if ((result = dg_op_decode(&c)) != VK_SUCCESS)
      return result;
   /* Defined only now, so that an operand naming the result itself fails. */
   d->values[id] = node->output_count == 1 ? d->g->node_tensors[node->first_output]
                                           : (DG_STRUCT_VALUE | node_index);
   return VK_SUCCESS;
}

static VkResult
decode_ext_inst(struct dg_decoder *d, const struct spirv_inst *inst)
{
   uint32_t set_id, number;
   VkResult result;
   if ((result = dg_word(d, inst, 3, &set_id)) != VK_SUCCESS ||
       (result = dg_word(d, inst, 4, &number)) != VK_SUCCESS)
      return result;
   const struct dg_ext_set *set = NULL;
   for (uint32_t i = 0; i < d->set_count; i++) {
      if (d->sets[i].id == set_id)
         set = &d->sets[i];
   }
   if (!set)
      return dg_fail(d, inst, DG_ERR_SET_UNKNOWN, "Set %%%u is not an OpExtInstImport", set_id);
   switch (set->set) {
   case SPIRV_EXT_INST_SET_TOSA_001000_1:
   case SPIRV_EXT_INST_SET_MOTION_ENGINE_100:
      return decode_op(d, inst, set->set, number);
   case SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1:
   case SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER:
      return VK_SUCCESS; /* non-semantic: ignored */
   case SPIRV_EXT_INST_SET_EXPERIMENTAL_ML:
      return dg_fail(d, inst, DG_ERR_SET_EXPERIMENTAL,
                     "instruction set \"%s\" is unratified and not supported", set->name);
   case SPIRV_EXT_INST_SET_UNKNOWN:
      break;
   }
   return dg_fail(d, inst, DG_ERR_SET_UNKNOWN,
                  "instruction set \"%s\" is not supported in graphs (TOSA.001000.1, "
                  "Arm.MotionEngine.100; NonSemantic.* are ignored)",
                  set->name);
}

/* OpCompositeExtract of one result of a multi-result instruction. */
static VkResult
decode_extract(struct dg_decoder *d, const struct spirv_inst *inst)
{
   uint32_t type_id, id, composite, index;
   VkResult result;
   if ((result = dg_word(d, inst, 1, &type_id)) != VK_SUCCESS ||
       (result = dg_word(d, inst, 2, &id)) != VK_SUCCESS ||
       (result = dg_word(d, inst, 3, &composite)) != VK_SUCCESS)
      return result;
   uint32_t v = composite < d->r.bound ? d->values[composite] : DG_NO_VALUE;
   if (v == DG_NO_VALUE || !(v & DG_STRUCT_VALUE))
      return dg_fail(d, inst, DG_ERR_COMPOSITE_EXTRACT,
                     "Composite %%%u is not the result of a multi-result instruction", composite);
   if (inst->word_count != 5)
      return dg_fail(d, inst, DG_ERR_COMPOSITE_EXTRACT, "takes exactly one index, not %u",
                     inst->word_count - 4u);
   if ((result = dg_word(d, inst, 4, &index)) != VK_SUCCESS)
      return result;
   const struct dg_node *node = &d->g->nodes[v & ~DG_STRUCT_VALUE];
   if (index >= node->output_count)
      return dg_fail(d, inst, DG_ERR_COMPOSITE_EXTRACT, "index %u, %s has %u results", index,
                     node->name, node->output_count);
   uint32_t tensor = d->g->node_tensors[node->first_output + index];
   struct dg_tensor_type ty;
   if ((result = dg_tensor_type_decl(d, inst, type_id, &ty)) != VK_SUCCESS)
      return result;
   if (!dg_tensor_type_fits(&ty, &d->g->tensors[tensor].ty))
      return dg_fail(d, inst, DG_ERR_COMPOSITE_EXTRACT,
                     "Result Type is not the type of result %u of %s", index, node->name);
   d->g->tensors[tensor].id = id;
   d->values[id] = tensor;
   return VK_SUCCESS;
}

/* At OpGraphEndARM: at least one output, and every output element set. */
static VkResult
check_outputs(struct dg_decoder *d, const struct spirv_inst *end)
{
   const struct dg_graph *g = d->g;
   if (g->output_count == 0)
      return dg_fail(d, end, DG_ERR_GRAPH_LAYOUT,
                     "the graph sets no output (SPV_ARM_graph: at least one OpGraphSetOutputARM)");
   for (uint32_t o = 0; o < d->num_outputs; o++) {
      const struct dg_interface_var *var = &d->vars[d->num_inputs + o];
      uint32_t count = 0;
      for (uint32_t i = 0; i < g->output_count; i++)
         count += g->outputs[i].index == o;
      if (count == var->length)
         continue; /* no duplicates, all in range: every element is set */
      for (uint32_t e = 0; e < var->length; e++) {
         bool set = false;
         for (uint32_t i = 0; i < g->output_count && !set; i++)
            set = g->outputs[i].index == o && g->outputs[i].element == e;
         if (!set && var->is_array)
            return dg_fail(d, end, DG_ERR_OUTPUT_MISSING,
                           "output %u element %u is never set: its contents would be undefined", o,
                           e);
         if (!set)
            return dg_fail(d, end, DG_ERR_OUTPUT_MISSING,
                           "output %u is never set: its contents would be undefined", o);
      }
   }
   return VK_SUCCESS;
}

VkResult
dg_decode_body(struct dg_decoder *d)
{
   enum { INPUTS, BODY, OUTPUTS } phase = INPUTS;
   const struct spirv_inst *graph = &d->r.insts[d->graph_index];
   d->g->graph_id = spirv_reader_result_id(&d->r, graph);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = d->graph_index + 1; i < d->r.inst_count && result == VK_SUCCESS; i++) {
      const struct spirv_inst *inst = &d->r.insts[i];
      switch (inst->opcode) {
      case SPV_ARM_OP_GRAPH_INPUT:
         if (phase != INPUTS)
            return dg_fail(d, inst, DG_ERR_GRAPH_LAYOUT,
                           "OpGraphInputARM must immediately follow OpGraphARM or another "
                           "OpGraphInputARM");
         result = decode_input(d, inst);
         break;
      case DG_SPV_EXT_INST:
      case DG_SPV_COMPOSITE_EXTRACT:
         if (phase == OUTPUTS)
            return dg_fail(d, inst, DG_ERR_GRAPH_LAYOUT,
                           "OpGraphSetOutputARM must immediately precede OpGraphEndARM or "
                           "another OpGraphSetOutputARM");
         phase = BODY;
         result =
             inst->opcode == DG_SPV_EXT_INST ? decode_ext_inst(d, inst) : decode_extract(d, inst);
         break;
      case SPV_ARM_OP_GRAPH_SET_OUTPUT:
         phase = OUTPUTS;
         result = decode_output(d, inst);
         break;
      case SPV_ARM_OP_GRAPH_END:
         return check_outputs(d, inst);
      default:
         return dg_fail(d, inst, DG_ERR_BODY_INSTRUCTION,
                        "opcode %u is not allowed in a graph (only OpGraphInputARM, OpExtInst, "
                        "OpCompositeExtract and OpGraphSetOutputARM)",
                        inst->opcode);
      }
   }
   if (result != VK_SUCCESS)
      return result;
   return dg_fail(d, graph, DG_ERR_GRAPH_LAYOUT, "the graph has no OpGraphEndARM");
}
