/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The decoder's entry point and module level: diagnostics and their codes,
 * the module scan (GraphARM capability, instruction-set imports, decorations,
 * GraphConstantID uniqueness, specialization use), the entry point by name,
 * the OpTypeGraphARM and the interface variables. The graph body is
 * dg_body.c's, types and constants dg_types.c's and dg_constants.c's, the
 * resource infos dg_interface.c's, and each TOSA operator is in ops/.
 */
#define LYR_LOG_THIS_DOMAIN LYR_LOG_GRAPH
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dg_decode_private.h"
#include "lyr_alloc.h"
#include "lyr_log.h"

VkResult
dg_error_result(enum dg_error code)
{
   if (code == DG_OK)
      return VK_SUCCESS;
   if (code == DG_ERR_OUT_OF_MEMORY)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (code >= 2300 && code < 2400)
      return VK_ERROR_VALIDATION_FAILED;
   return VK_ERROR_UNKNOWN;
}

const char *
dg_error_name(enum dg_error code)
{
   switch (code) {
#define NAME(c)                                                                                    \
   case c:                                                                                         \
      return #c;
      NAME(DG_OK)
      NAME(DG_ERR_SPIRV)
      NAME(DG_ERR_NO_GRAPH_CAPABILITY)
      NAME(DG_ERR_ENTRY_POINT_DUPLICATE)
      NAME(DG_ERR_ENTRY_POINT_GRAPH)
      NAME(DG_ERR_GRAPH_TYPE)
      NAME(DG_ERR_INTERFACE)
      NAME(DG_ERR_GRAPH_LAYOUT)
      NAME(DG_ERR_BODY_INSTRUCTION)
      NAME(DG_ERR_INDEX_NOT_CONSTANT)
      NAME(DG_ERR_INDEX_RANGE)
      NAME(DG_ERR_INPUT_DUPLICATE)
      NAME(DG_ERR_OUTPUT_DUPLICATE)
      NAME(DG_ERR_OUTPUT_MISSING)
      NAME(DG_ERR_IO_TYPE)
      NAME(DG_ERR_VALUE)
      NAME(DG_ERR_COMPOSITE_EXTRACT)
      NAME(DG_ERR_GRAPH_CONSTANT_ID_DUPLICATE)
      NAME(DG_ERR_LAYOUT)
      NAME(DG_ERR_CAPABILITY)
      NAME(DG_ERR_FORWARD_REFERENCE)
      NAME(DG_ERR_MEMORY_MODEL)
      NAME(DG_ERR_TYPE_DECL)
      NAME(DG_ERR_STORAGE_CLASS)
      NAME(DG_ERR_TYPE_NOT_TENSOR)
      NAME(DG_ERR_TENSOR_NOT_SHAPED)
      NAME(DG_ERR_TENSOR_SHAPE)
      NAME(DG_ERR_ELEMENT_TYPE)
      NAME(DG_ERR_CONSTANT)
      NAME(DG_ERR_SPEC_CONSTANT_OP)
      NAME(DG_ERR_LEVEL)
      NAME(DG_ERR_CONSTANT_TOO_LARGE)
      NAME(DG_ERR_SET_UNKNOWN)
      NAME(DG_ERR_SET_NOT_SUPPORTED)
      NAME(DG_ERR_SET_EXPERIMENTAL)
      NAME(DG_ERR_INST_UNKNOWN)
      NAME(DG_ERR_OP_UNSUPPORTED)
      NAME(DG_ERR_ENTRY_POINT_NOT_FOUND)
      NAME(DG_ERR_RESOURCE_MISSING)
      NAME(DG_ERR_RESOURCE_DUPLICATE)
      NAME(DG_ERR_RESOURCE_ARRAY_ELEMENT)
      NAME(DG_ERR_RESOURCE_DESCRIPTION)
      NAME(DG_ERR_CONSTANT_MISSING)
      NAME(DG_ERR_CONSTANT_DUPLICATE)
      NAME(DG_ERR_CONSTANT_DESCRIPTION)
      NAME(DG_ERR_SPECIALIZATION)
      NAME(DG_ERR_OP_OPERAND_COUNT)
      NAME(DG_ERR_OP_OPERAND_TYPE)
      NAME(DG_ERR_OP_NOT_CONSTANT)
      NAME(DG_ERR_OP_TYPE_SUPPORT)
      NAME(DG_ERR_OP_EXTENSION)
      NAME(DG_ERR_OP_SHAPE)
      NAME(DG_ERR_OP_ATTRIBUTE)
      NAME(DG_ERR_OP_ZERO_POINT)
      NAME(DG_ERR_OP_REQUIRE)
      NAME(DG_ERR_OUT_OF_MEMORY)
#undef NAME
   }
   return "DG_ERR_?";
}

/* ---- diagnostics -------------------------------------------------------------------------- */

static const char *
opcode_name(uint32_t opcode)
{
   switch (opcode) {
   case DG_SPV_EXT_INST:
      return "OpExtInst";
   case DG_SPV_EXT_INST_IMPORT:
      return "OpExtInstImport";
   case DG_SPV_COMPOSITE_EXTRACT:
      return "OpCompositeExtract";
   case DG_SPV_VARIABLE:
      return "OpVariable";
   case DG_SPV_CONSTANT:
      return "OpConstant";
   case DG_SPV_CONSTANT_COMPOSITE:
      return "OpConstantComposite";
   case DG_SPV_CONSTANT_NULL:
      return "OpConstantNull";
   case DG_SPV_SPEC_CONSTANT:
      return "OpSpecConstant";
   case DG_SPV_SPEC_CONSTANT_COMPOSITE:
      return "OpSpecConstantComposite";
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
      return "OpConstantCompositeReplicateEXT";
   case SPV_ARM_OP_TYPE_TENSOR:
      return "OpTypeTensorARM";
   case SPV_ARM_OP_GRAPH_CONSTANT:
      return "OpGraphConstantARM";
   case SPV_ARM_OP_GRAPH_ENTRY_POINT:
      return "OpGraphEntryPointARM";
   case SPV_ARM_OP_GRAPH:
      return "OpGraphARM";
   case SPV_ARM_OP_GRAPH_INPUT:
      return "OpGraphInputARM";
   case SPV_ARM_OP_GRAPH_SET_OUTPUT:
      return "OpGraphSetOutputARM";
   case SPV_ARM_OP_GRAPH_END:
      return "OpGraphEndARM";
   case SPV_ARM_OP_TYPE_GRAPH:
      return "OpTypeGraphARM";
   default:
      return NULL;
   }
}

/* "TOSA CONV2D", "OpGraphInputARM", "Op#123": what the instruction is. */
static void
inst_name(struct dg_decoder *d, const struct spirv_inst *inst, char *buf, size_t size)
{
   const char *name = opcode_name(inst->opcode);
   if (inst->opcode == DG_SPV_EXT_INST && inst->word_count >= 5) {
      const uint32_t *w = spirv_reader_inst_words(&d->r, inst);
      for (uint32_t i = 0; i < d->set_count; i++) {
         if (d->sets[i].id != w[3])
            continue;
         const struct spirv_ext_inst_desc *desc = spirv_ext_inst_desc(d->sets[i].set, w[4]);
         if (d->sets[i].set == SPIRV_EXT_INST_SET_TOSA_001000_1 && desc) {
            snprintf(buf, size, "TOSA %s", desc->name);
            return;
         }
         if (desc) {
            snprintf(buf, size, "%s %s", d->sets[i].name, desc->name);
            return;
         }
      }
   }
   if (name)
      snprintf(buf, size, "%s", name);
   else
      snprintf(buf, size, "Op#%u", inst->opcode);
}

VkResult
dg_fail(struct dg_decoder *d, const struct spirv_inst *inst, enum dg_error code, const char *fmt,
        ...)
{
   struct dg_diag *diag = d->diag;
   if (diag->code != DG_OK) /* keep the first failure */
      return dg_error_result(code);
   diag->code = code;
   diag->offset = inst ? inst->offset : 0;
   diag->result_id = inst ? spirv_reader_result_id(&d->r, inst) : 0;
   int n = 0;
   if (inst) {
      char name[80];
      inst_name(d, inst, name, sizeof(name));
      if (diag->result_id)
         n = snprintf(diag->message, sizeof(diag->message), "%s %%%u at word %u: ", name,
                      diag->result_id, inst->offset);
      else
         n = snprintf(diag->message, sizeof(diag->message), "%s at word %u: ", name, inst->offset);
   } else {
      n = snprintf(diag->message, sizeof(diag->message), "module: ");
   }
   if (n >= 0 && (size_t)n < sizeof(diag->message)) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(diag->message + n, sizeof(diag->message) - (size_t)n, fmt, ap);
      va_end(ap);
   }
   return dg_error_result(code);
}

VkResult
dg_oom(struct dg_decoder *d)
{
   return dg_fail(d, NULL, DG_ERR_OUT_OF_MEMORY, "out of host memory");
}

VkResult
dg_fail_spirv(struct dg_decoder *d, VkResult result, const struct spirv_diag *sd)
{
   if (result == VK_ERROR_OUT_OF_HOST_MEMORY)
      return dg_oom(d);
   if (d->diag->code == DG_OK) {
      d->diag->code = DG_ERR_SPIRV;
      d->diag->offset = sd->offset;
      d->diag->result_id = 0;
      snprintf(d->diag->message, sizeof(d->diag->message), "SPIR-V at word %u: %s (%s)", sd->offset,
               sd->message, spirv_error_name(sd->code));
   }
   return VK_ERROR_UNKNOWN;
}

VkResult
dg_word(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t index, uint32_t *value)
{
   struct spirv_diag sd;
   VkResult result = spirv_reader_word(&d->r, inst, index, value, &sd);
   return result == VK_SUCCESS ? result : dg_fail_spirv(d, result, &sd);
}

VkResult
dg_word_def(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t index,
            const struct spirv_inst **def)
{
   struct spirv_diag sd;
   VkResult result = spirv_reader_id_def(&d->r, inst, index, def, &sd);
   return result == VK_SUCCESS ? result : dg_fail_spirv(d, result, &sd);
}

VkResult
dg_def(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
       const struct spirv_inst **def)
{
   *def = spirv_reader_def(&d->r, id);
   if (!*def)
      return dg_fail(d, user, DG_ERR_SPIRV, "%%%u is not defined by any instruction", id);
   return VK_SUCCESS;
}

bool
dg_decoration(const struct dg_decoder *d, uint32_t target, uint32_t decoration, uint32_t *value)
{
   for (uint32_t i = 0; i < d->decoration_count; i++) {
      if (d->decorations[i].target == target && d->decorations[i].decoration == decoration) {
         *value = d->decorations[i].value;
         return true;
      }
   }
   return false;
}

/* ---- module scan ------------------------------------------------------------------------- */

static int
compare_u64(const void *a, const void *b)
{
   uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
   return x < y ? -1 : x > y;
}

/* SPV_ARM_graph: "The value of the GraphConstantID operand of
 * OpGraphConstantARM must be unique within a given module." */
static VkResult
check_graph_constant_ids(struct dg_decoder *d, uint32_t count)
{
   if (count < 2)
      return VK_SUCCESS;
   uint64_t *keys =
       lyr_alloc(d->alloc, count * sizeof(uint64_t), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!keys)
      return dg_oom(d);
   uint32_t n = 0;
   for (uint32_t i = 0; i < d->r.inst_count && n < count; i++) {
      const struct spirv_inst *inst = &d->r.insts[i];
      uint32_t literal;
      if (inst->opcode != SPV_ARM_OP_GRAPH_CONSTANT)
         continue;
      if (dg_word(d, inst, 3, &literal) != VK_SUCCESS) {
         lyr_free(d->alloc, keys);
         return VK_ERROR_UNKNOWN;
      }
      keys[n++] = (uint64_t)literal << 32 | i;
   }
   qsort(keys, n, sizeof(uint64_t), compare_u64);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 1; i < n && result == VK_SUCCESS; i++) {
      if (keys[i] >> 32 == keys[i - 1] >> 32)
         result = dg_fail(d, &d->r.insts[(uint32_t)keys[i]], DG_ERR_GRAPH_CONSTANT_ID_DUPLICATE,
                          "GraphConstantID %u is also used by the instruction at word %u",
                          (uint32_t)(keys[i] >> 32), d->r.insts[(uint32_t)keys[i - 1]].offset);
   }
   lyr_free(d->alloc, keys);
   return result;
}

/* Records what later steps look up, finds the entry point by name. */
static VkResult
scan_module(struct dg_decoder *d, const struct spirv_inst **entry)
{
   uint32_t n_decorations = 0, n_sets = 0, n_graph_constants = 0;
   bool has_graph = false, has_spec = false;
   VkResult result;
   for (uint32_t i = 0; i < d->r.inst_count; i++) {
      switch (d->r.insts[i].opcode) {
      case DG_SPV_DECORATE:
         n_decorations++;
         break;
      case DG_SPV_EXT_INST_IMPORT:
         n_sets++;
         break;
      case SPV_ARM_OP_GRAPH_CONSTANT:
         n_graph_constants++;
         break;
      case DG_SPV_SPEC_CONSTANT_TRUE:
      case DG_SPV_SPEC_CONSTANT_FALSE:
      case DG_SPV_SPEC_CONSTANT:
      case DG_SPV_SPEC_CONSTANT_COMPOSITE:
      case DG_SPV_SPEC_CONSTANT_OP:
      case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT:
         has_spec = true;
         break;
      }
   }
   d->decorations = lyr_alloc(d->alloc, (n_decorations + 1) * sizeof(*d->decorations), 8,
                              VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   d->sets =
       lyr_alloc(d->alloc, (n_sets + 1) * sizeof(*d->sets), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!d->decorations || !d->sets)
      return dg_oom(d);

   *entry = NULL;
   const struct spirv_inst *first_entry = NULL; /* the module's first OpGraphEntryPointARM */
   const char *first_name = NULL;
   uint32_t entry_count = 0;
   for (uint32_t i = 0; i < d->r.inst_count; i++) {
      const struct spirv_inst *inst = &d->r.insts[i];
      uint32_t w1, w2, w3;
      const char *name;
      switch (inst->opcode) {
      case DG_SPV_CAPABILITY:
         if ((result = dg_word(d, inst, 1, &w1)) != VK_SUCCESS)
            return result;
         has_graph |= w1 == SPV_ARM_CAP_GRAPH;
         break;
      case DG_SPV_EXT_INST_IMPORT: {
         struct spirv_diag sd;
         if ((result = dg_word(d, inst, 1, &w1)) != VK_SUCCESS)
            return result;
         result = spirv_reader_string(&d->r, inst, 2, &name, NULL, NULL, &sd);
         if (result != VK_SUCCESS)
            return dg_fail_spirv(d, result, &sd);
         d->sets[d->set_count++] =
             (struct dg_ext_set){w1, spirv_ext_inst_set_from_name(name), name};
         break;
      }
      case DG_SPV_DECORATE:
         if ((result = dg_word(d, inst, 1, &w1)) != VK_SUCCESS ||
             (result = dg_word(d, inst, 2, &w2)) != VK_SUCCESS)
            return result;
         if (w2 != DG_SPV_DECORATION_SPEC_ID && w2 != DG_SPV_DECORATION_BINDING &&
             w2 != DG_SPV_DECORATION_DESCRIPTOR_SET)
            break;
         if ((result = dg_word(d, inst, 3, &w3)) != VK_SUCCESS)
            return result;
         d->decorations[d->decoration_count++] = (struct dg_decoration){w1, w2, w3};
         break;
      case SPV_ARM_OP_GRAPH_ENTRY_POINT: {
         struct spirv_diag sd;
         result = spirv_reader_string(&d->r, inst, 2, &name, NULL, NULL, &sd);
         if (result != VK_SUCCESS)
            return dg_fail_spirv(d, result, &sd);
         if (entry_count++ == 0) {
            first_entry = inst;
            first_name = name;
         }
         if (!d->info->entry_point || strcmp(name, d->info->entry_point) != 0)
            break;
         if (*entry)
            return dg_fail(d, inst, DG_ERR_ENTRY_POINT_DUPLICATE,
                           "a second OpGraphEntryPointARM named \"%s\" (the first is at word %u)",
                           name, (*entry)->offset);
         *entry = inst;
         break;
      }
      }
   }
   if (!has_graph)
      return dg_fail(d, NULL, DG_ERR_NO_GRAPH_CAPABILITY,
                     "the module does not declare OpCapability GraphARM");
   if (!d->info->specialization_enabled && (has_spec || d->info->specialization))
      return dg_fail(d, NULL, DG_ERR_SPECIALIZATION,
                     "%s but dataGraphSpecializationConstants is not enabled "
                     "(VUID-VkDataGraphPipelineShaderModuleCreateInfoARM-"
                     "dataGraphSpecializationConstants-09849)",
                     has_spec ? "the module has specialization constants"
                              : "pSpecializationInfo is not NULL");
   if ((result = check_graph_constant_ids(d, n_graph_constants)) != VK_SUCCESS)
      return result;
   if (!*entry && entry_count == 1) {
      /* Applications written for Arm's layer pass any pName (it ignores it): with one entry
       * point the meaning is unambiguous, so use it and say which rule the call breaks. */
      lyr_logw("vkCreateDataGraphPipelinesARM: pName \"%s\" names no OpGraphEntryPointARM "
               "(VUID-VkDataGraphPipelineShaderModuleCreateInfoARM-pName-09872); the module's "
               "only entry point \"%s\" is used",
               d->info->entry_point ? d->info->entry_point : "(null)", first_name);
      *entry = first_entry;
   }
   if (!*entry)
      return dg_fail(d, NULL, DG_ERR_ENTRY_POINT_NOT_FOUND,
                     "no OpGraphEntryPointARM is named \"%s\" "
                     "(VUID-VkDataGraphPipelineShaderModuleCreateInfoARM-pName-09872)",
                     d->info->entry_point ? d->info->entry_point : "(null)");
   return VK_SUCCESS;
}

/* ---- entry point, graph type, interface ------------------------------------------------- */

/* Decodes the OpTypeGraphARM of the entry point's graph into d->vars. */
static VkResult
decode_graph_type(struct dg_decoder *d, const struct spirv_inst *graph)
{
   const struct spirv_inst *type;
   uint32_t num_inputs;
   VkResult result = dg_word_def(d, graph, 1, &type);
   if (result != VK_SUCCESS)
      return result;
   if (type->opcode != SPV_ARM_OP_TYPE_GRAPH)
      return dg_fail(d, graph, DG_ERR_GRAPH_TYPE, "Result Type is not an OpTypeGraphARM");
   if ((result = dg_word(d, type, 2, &num_inputs)) != VK_SUCCESS)
      return result;
   uint32_t count = type->word_count - 3u;
   if (num_inputs > count || count - num_inputs == 0)
      return dg_fail(d, type, DG_ERR_GRAPH_TYPE,
                     "NumInputs %u with %u input/output types: a graph has at least one output",
                     num_inputs, count);
   d->num_inputs = num_inputs;
   d->num_outputs = count - num_inputs;
   d->vars = lyr_zalloc(d->alloc, count * sizeof(*d->vars), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!d->vars)
      return dg_oom(d);
   for (uint32_t i = 0; i < count; i++) {
      uint32_t type_id;
      struct dg_interface_var *var = &d->vars[i];
      if ((result = dg_word(d, type, 3 + i, &type_id)) != VK_SUCCESS ||
          (result = dg_interface_type(d, type, type_id, &var->ty, &var->is_array, &var->length)) !=
              VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* One interface variable: an OpVariable in UniformConstant pointing to the
 * graph type's input or output type, with DescriptorSet and Binding. */
static VkResult
decode_interface_var(struct dg_decoder *d, const struct spirv_inst *entry, uint32_t word,
                     uint32_t i)
{
   struct dg_interface_var *var = &d->vars[i];
   const struct spirv_inst *inst, *ptr;
   uint32_t storage, ptr_storage, pointee;
   VkResult result = dg_word_def(d, entry, word, &inst);
   if (result != VK_SUCCESS)
      return result;
   const char *what = i < d->num_inputs ? "input" : "output";
   uint32_t index = i < d->num_inputs ? i : i - d->num_inputs;
   var->var_id = spirv_reader_result_id(&d->r, inst);
   if (inst->opcode != DG_SPV_VARIABLE)
      return dg_fail(d, entry, DG_ERR_INTERFACE, "interface %%%u (%s %u) is not an OpVariable",
                     var->var_id, what, index);
   if ((result = dg_word(d, inst, 3, &storage)) != VK_SUCCESS ||
       (result = dg_word_def(d, inst, 1, &ptr)) != VK_SUCCESS)
      return result;
   if (storage != DG_SPV_STORAGE_UNIFORM_CONSTANT || ptr->opcode != DG_SPV_TYPE_POINTER)
      return dg_fail(d, inst, DG_ERR_INTERFACE,
                     "%s %u: graph interface variables are UniformConstant OpVariables", what,
                     index);
   if ((result = dg_word(d, ptr, 2, &ptr_storage)) != VK_SUCCESS ||
       (result = dg_word(d, ptr, 3, &pointee)) != VK_SUCCESS)
      return result;
   struct dg_tensor_type ty;
   bool is_array;
   uint32_t length;
   if ((result = dg_interface_type(d, inst, pointee, &ty, &is_array, &length)) != VK_SUCCESS)
      return result;
   /* One of the two may leave the shape out (D23): the other one's is used. */
   bool fits = dg_tensor_type_fits(&var->ty, &ty) || dg_tensor_type_fits(&ty, &var->ty);
   if (!fits || is_array != var->is_array || length != var->length) {
      char a[96], b[96];
      return dg_fail(d, inst, DG_ERR_INTERFACE,
                     "%s %u: the variable's type (%s %s%s) is not the graph type's (%s %s%s)", what,
                     index, dg_type_name(ty.type), dg_shape_str(&ty.shape, a, sizeof(a)),
                     is_array ? " array" : "", dg_type_name(var->ty.type),
                     dg_shape_str(&var->ty.shape, b, sizeof(b)), var->is_array ? " array" : "");
   }
   if (!dg_shape_known(&var->ty.shape) && dg_shape_known(&ty.shape))
      var->ty.shape = ty.shape;
   var->ty.int_signed = ty.int_signed;
   if (!dg_decoration(d, var->var_id, DG_SPV_DECORATION_DESCRIPTOR_SET, &var->set) ||
       !dg_decoration(d, var->var_id, DG_SPV_DECORATION_BINDING, &var->binding))
      return dg_fail(d, inst, DG_ERR_INTERFACE,
                     "%s %u: the variable has no DescriptorSet and Binding decorations", what,
                     index);
   return dg_match_resource(d, inst, var);
}

static VkResult
decode_entry_point(struct dg_decoder *d, const struct spirv_inst *entry)
{
   const struct spirv_inst *graph;
   struct spirv_diag sd;
   const char *name;
   uint32_t next;
   VkResult result = dg_word_def(d, entry, 1, &graph);
   if (result != VK_SUCCESS)
      return result;
   if (graph->opcode != SPV_ARM_OP_GRAPH)
      return dg_fail(d, entry, DG_ERR_ENTRY_POINT_GRAPH, "Graph (opcode %u) is not an OpGraphARM",
                     graph->opcode);
   d->graph_index = spirv_reader_inst_index(&d->r, graph);
   if ((result = decode_graph_type(d, graph)) != VK_SUCCESS)
      return result;
   result = spirv_reader_string(&d->r, entry, 2, &name, NULL, &next, &sd);
   if (result != VK_SUCCESS)
      return dg_fail_spirv(d, result, &sd);
   uint32_t count = d->num_inputs + d->num_outputs;
   if (entry->word_count - next != count)
      return dg_fail(d, entry, DG_ERR_INTERFACE,
                     "%u interface variables, the graph type has %u inputs and %u outputs",
                     entry->word_count - next, d->num_inputs, d->num_outputs);
   for (uint32_t i = 0; i < count; i++) {
      if ((result = decode_interface_var(d, entry, next + i, i)) != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* After the body: every tensor has a shape (interface and graph constants from their
 * descriptions, node results from their operators' rules). */
static VkResult
check_shapes(struct dg_decoder *d)
{
   for (uint32_t i = 0; i < d->g->tensor_count; i++) {
      const struct dg_tensor *t = &d->g->tensors[i];
      if (!dg_shape_known(&t->ty.shape))
         return dg_fail(d, NULL, DG_ERR_TENSOR_NOT_SHAPED, "%%%u has no shape and none could be "
                        "inferred", t->id);
   }
   if (d->inferred_shapes)
      lyr_logi("vkCreateDataGraphPipelinesARM: %u node results have unshaped types; their "
               "shapes were inferred from the operators' output-shape rules",
               d->inferred_shapes);
   return VK_SUCCESS;
}

static VkResult
decode_module(struct dg_decoder *d)
{
   const struct spirv_inst *entry = NULL;
   VkResult result = dg_check_structure(d);
   if (result == VK_SUCCESS)
      result = scan_module(d, &entry);
   if (result == VK_SUCCESS)
      result = decode_entry_point(d, entry);
   if (result == VK_SUCCESS)
      result = dg_decode_body(d);
   if (result == VK_SUCCESS)
      result = check_shapes(d);
   return result;
}

VkResult
dg_graph_decode(const struct dg_decode_info *info, const VkAllocationCallbacks *alloc,
                struct dg_graph **graph, struct dg_diag *diag)
{
   struct dg_diag local;
   struct dg_decoder d = {
       .info = info,
       .alloc = alloc ? alloc : &lyr_default_alloc,
       .diag = diag ? diag : &local,
       .features = info->tosa_features ? info->tosa_features : DG_TOSA_ADVERTISED,
       .max_constant_bytes = info->max_constant_bytes ? info->max_constant_bytes : 64u << 20,
   };
   memset(d.diag, 0, sizeof(*d.diag));
   *graph = NULL;

   d.g = lyr_zalloc(d.alloc, sizeof(*d.g), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!d.g)
      return dg_oom(&d);
   d.g->alloc = d.alloc;

   struct spirv_diag sd;
   VkResult result = spirv_reader_init(&d.r, info->code, info->code_words, d.alloc, &sd);
   if (result != VK_SUCCESS) {
      result = dg_fail_spirv(&d, result, &sd);
   } else {
      d.values = lyr_alloc(d.alloc, (size_t)d.r.bound * sizeof(uint32_t), 4,
                           VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!d.values) {
         result = dg_oom(&d);
      } else {
         memset(d.values, 0xff, (size_t)d.r.bound * sizeof(uint32_t));
         result = decode_module(&d);
      }
   }

   lyr_free(d.alloc, d.values);
   lyr_free(d.alloc, d.decorations);
   lyr_free(d.alloc, d.sets);
   lyr_free(d.alloc, d.vars);
   spirv_reader_finish(&d.r);
   if (result != VK_SUCCESS) {
      dg_graph_destroy(d.g);
      return result;
   }
   *graph = d.g;
   return VK_SUCCESS;
}
