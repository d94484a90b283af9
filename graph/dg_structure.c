/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The module's structure, checked before decoding (issue 15): the rules of
 * SPIR-V 2.4 "Logical Layout of a Module" (with SPV_ARM_graph's graph section
 * after the function definitions), 2.16 "Validation Rules" the decoder relies
 * on (ids defined before use outside the forward references 2.4 allows,
 * capabilities of the types used, one OpMemoryModel with a known and
 * Vulkan-allowed model, the storage class of variables and pointers, well-formed
 * scalar, array and tensor types) and SPV_ARM_graph's graph nesting
 * (OpGraphARM ... OpGraphEndARM, graph instructions only inside a graph).
 * One linear pass; function bodies are skipped (a graph module's business is
 * its graphs). Each refusal names the instruction, its word offset and the rule.
 */
#include "dg_decode_private.h"
#include "lyr_alloc.h"

/* Sections of SPIR-V 2.4, in order; SPV_ARM_graph adds S_GRAPH after S_FUNC. */
enum sec {
   S_ANY = 0, /* OpNop, OpLine, OpNoLine */
   S_CAP,
   S_EXT,
   S_IMPORT,
   S_MEMORY_MODEL,
   S_ENTRY,
   S_EXEC_MODE,
   S_DEBUG_STRING,
   S_DEBUG_NAME,
   S_DEBUG_PROCESSED,
   S_ANNOTATION,
   S_DECL,
   S_FUNC,
   S_GRAPH,
};

static const char *const sec_names[] = {
    "",
    "capabilities",
    "extensions",
    "instruction-set imports",
    "the memory model",
    "entry points",
    "execution modes",
    "debug strings and sources",
    "debug names",
    "OpModuleProcessed",
    "annotations",
    "types, constants and global variables",
    "function definitions",
    "graph definitions and entry points",
};

/* Id states. */
enum {
   ID_NONE = 0,  /* not defined yet */
   ID_GLOBAL,    /* defined at module level */
   ID_LOCAL,     /* defined in the graph being checked */
   ID_FORWARD,   /* declared by OpTypeForwardPointer */
   ID_OUT_SCOPE, /* defined inside another graph or a function */
};

struct st {
   struct dg_decoder *d;
   uint8_t *ids;
   const struct spirv_inst *caps; /* the first instruction; capabilities are first */
   uint32_t cap_count;
};

static enum sec
section_of(uint32_t opcode)
{
   switch (opcode) {
   case DG_SPV_NOP:
   case 8:   /* OpLine */
   case 317: /* OpNoLine */
      return S_ANY;
   case DG_SPV_CAPABILITY:
      return S_CAP;
   case 10: /* OpExtension */
      return S_EXT;
   case DG_SPV_EXT_INST_IMPORT:
      return S_IMPORT;
   case 14: /* OpMemoryModel */
      return S_MEMORY_MODEL;
   case 15: /* OpEntryPoint */
      return S_ENTRY;
   case 16:  /* OpExecutionMode */
   case 331: /* OpExecutionModeId */
      return S_EXEC_MODE;
   case 2: /* OpSourceContinued */
   case 3: /* OpSource */
   case 4: /* OpSourceExtension */
   case 7: /* OpString */
      return S_DEBUG_STRING;
   case 5: /* OpName */
   case 6: /* OpMemberName */
      return S_DEBUG_NAME;
   case 330:
      return S_DEBUG_PROCESSED;
   case DG_SPV_DECORATE:
   case 72:   /* OpMemberDecorate */
   case 73:   /* OpDecorationGroup */
   case 74:   /* OpGroupDecorate */
   case 75:   /* OpGroupMemberDecorate */
   case 332:  /* OpDecorateId */
   case 5632: /* OpDecorateString */
   case 5633: /* OpMemberDecorateString */
      return S_ANNOTATION;
   case 54: /* OpFunction */
      return S_FUNC;
   case SPV_ARM_OP_GRAPH_ENTRY_POINT:
   case SPV_ARM_OP_GRAPH:
   case SPV_ARM_OP_GRAPH_INPUT: /* outside a graph: refused below */
   case SPV_ARM_OP_GRAPH_SET_OUTPUT:
   case SPV_ARM_OP_GRAPH_END:
      return S_GRAPH;
   default:
      return S_DECL;
   }
}

static bool
has_cap(const struct st *s, uint32_t cap)
{
   for (uint32_t i = 0; i < s->cap_count; i++) {
      uint32_t c = spirv_reader_inst_words(&s->d->r, &s->caps[i])[1];
      if (c == cap)
         return true;
      /* Capabilities that implicitly declare the one asked for (SPIR-V 3.31, the extensions). */
      if ((cap == SPV_ARM_CAP_TENSORS &&
           (c == SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING ||
            c == SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING)) ||
          (cap == 11 && c == 12) || /* Int64 by Int64Atomics */
          (cap == SPV_ARM_CAP_BFLOAT16_TYPE_KHR &&
           (c == SPV_ARM_CAP_BFLOAT16_DOT_PRODUCT_KHR ||
            c == SPV_ARM_CAP_BFLOAT16_COOPERATIVE_MATRIX_KHR)) ||
          (cap == SPV_ARM_CAP_FLOAT8_EXT && c == SPV_ARM_CAP_FLOAT8_COOPERATIVE_MATRIX_EXT))
         return true;
   }
   return false;
}

static VkResult
need_cap(struct st *s, const struct spirv_inst *inst, uint32_t cap, const char *cap_name,
         const char *what)
{
   if (has_cap(s, cap))
      return VK_SUCCESS;
   return dg_fail(s->d, inst,
                  cap == SPV_ARM_CAP_GRAPH ? DG_ERR_NO_GRAPH_CAPABILITY : DG_ERR_CAPABILITY,
                  "%s requires OpCapability %s, which the module does not declare (SPIR-V 2.16.1: "
                  "instructions and types need their capabilities)",
                  what, cap_name);
}

/* The OpExtension that must declare the extension adding what is used ("To use this
 * extension within a SPIR-V module, the following OpExtension must be present"). */
static VkResult
need_ext(struct st *s, const struct spirv_inst *inst, const char *ext, const char *what)
{
   struct dg_decoder *d = s->d;
   for (uint32_t i = s->cap_count; i < d->r.inst_count && d->r.insts[i].opcode == 10; i++) {
      const char *name;
      struct spirv_diag sd;
      if (spirv_reader_string(&d->r, &d->r.insts[i], 1, &name, NULL, NULL, &sd) == VK_SUCCESS &&
          strcmp(name, ext) == 0)
         return VK_SUCCESS;
   }
   return dg_fail(d, inst, DG_ERR_CAPABILITY,
                  "%s requires OpExtension \"%s\", which the module does not declare (%s: the "
                  "OpExtension must be present to use the extension)",
                  what, ext, ext);
}

/* need_cap(), then need_ext(). */
static VkResult
need(struct st *s, const struct spirv_inst *inst, uint32_t cap, const char *cap_name,
     const char *ext, const char *what)
{
   VkResult result = need_cap(s, inst, cap, cap_name, what);
   return result == VK_SUCCESS ? need_ext(s, inst, ext, what) : result;
}

/* Word `index` of inst, or `dflt` when the instruction is shorter. */
static uint32_t
word_or(const struct st *s, const struct spirv_inst *inst, uint32_t index, uint32_t dflt)
{
   return index < inst->word_count ? spirv_reader_inst_words(&s->d->r, inst)[index] : dflt;
}

/* An <id> operand: defined by an earlier instruction in scope. */
static VkResult
use(struct st *s, const struct spirv_inst *inst, uint32_t index, const char *what)
{
   struct dg_decoder *d = s->d;
   if (index >= inst->word_count)
      return VK_SUCCESS; /* optional operand absent; required ones are the decoder's */
   uint32_t id = spirv_reader_inst_words(&d->r, inst)[index];
   if (id == 0 || id >= d->r.bound)
      return dg_fail(d, inst, DG_ERR_SPIRV, "%s <id> %u is not in 1..%u (SPIR-V 2.17)", what, id,
                     d->r.bound - 1);
   switch (s->ids[id]) {
   case ID_GLOBAL:
   case ID_LOCAL:
   case ID_FORWARD:
      return VK_SUCCESS;
   case ID_OUT_SCOPE:
      return dg_fail(d, inst, DG_ERR_FORWARD_REFERENCE,
                     "%s %%%u is defined inside another graph or function (at word %u), out of "
                     "this instruction's scope",
                     what, id, d->r.insts[d->r.defs[id]].offset);
   default: {
      const struct spirv_inst *def = spirv_reader_def(&d->r, id);
      if (!def)
         return dg_fail(d, inst, DG_ERR_SPIRV, "%s %%%u is not defined by any instruction", what,
                        id);
      return dg_fail(d, inst, DG_ERR_FORWARD_REFERENCE,
                     "%s %%%u is used before its definition at word %u (SPIR-V 2.4: forward "
                     "references are allowed only in names, decorations, entry points and "
                     "OpTypeForwardPointer)",
                     what, id, def->offset);
   }
   }
}

static VkResult
use_from(struct st *s, const struct spirv_inst *inst, uint32_t first, const char *what)
{
   for (uint32_t i = first; i < inst->word_count; i++) {
      VkResult result = use(s, inst, i, what);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* The instruction defining the id in word `index` (already checked by use()). */
static const struct spirv_inst *
operand_def(const struct st *s, const struct spirv_inst *inst, uint32_t index)
{
   if (index >= inst->word_count)
      return NULL;
   return spirv_reader_def(&s->d->r, spirv_reader_inst_words(&s->d->r, inst)[index]);
}

/* A type declaration: a result id and no result type, and not one of the few
 * non-type instructions of that shape. */
static bool
is_type(const struct spirv_inst *def)
{
   if (!def)
      return false;
   bool has_type, has_result;
   spirv_opcode_result_info(def->opcode, &has_type, &has_result);
   return has_result && !has_type && def->opcode != 7 /* OpString */ &&
          def->opcode != DG_SPV_EXT_INST_IMPORT && def->opcode != 73 /* OpDecorationGroup */ &&
          def->opcode != 248 /* OpLabel */ && def->opcode != 19 /* OpTypeVoid */ &&
          def->opcode != SPV_ARM_OP_TYPE_GRAPH && def->opcode != 33 /* OpTypeFunction */;
}

static bool
is_scalar_type(const struct spirv_inst *def)
{
   return def && (def->opcode == DG_SPV_TYPE_BOOL || def->opcode == DG_SPV_TYPE_INT ||
                  def->opcode == DG_SPV_TYPE_FLOAT);
}

/* A constant of integer scalar type (OpConstant, OpSpecConstant, OpSpecConstantOp). */
static bool
is_int_constant(const struct st *s, const struct spirv_inst *def)
{
   if (!def || (def->opcode != DG_SPV_CONSTANT && def->opcode != DG_SPV_SPEC_CONSTANT &&
                def->opcode != DG_SPV_SPEC_CONSTANT_OP))
      return false;
   const struct spirv_inst *type =
       spirv_reader_def(&s->d->r, spirv_reader_result_type(&s->d->r, def));
   return type && type->opcode == DG_SPV_TYPE_INT;
}

static bool
known_storage_class(uint32_t sc)
{
   return sc <= 12 || sc == 4172 /* TileImageEXT */ || sc == 5328 || sc == 5329 || sc == 5338 ||
          sc == 5339 || sc == 5342 || sc == 5343 || sc == 5349 || sc == 5385 || sc == 5402 ||
          sc == 5605 || sc == 5936 || sc == 5937;
}

static VkResult
check_int_type(struct st *s, const struct spirv_inst *inst)
{
   uint32_t width = word_or(s, inst, 2, 0), signedness = word_or(s, inst, 3, UINT32_MAX);
   if (width != 8 && width != 16 && width != 32 && width != 64)
      return dg_fail(s->d, inst, DG_ERR_TYPE_DECL,
                     "Width %u is not 8, 16, 32 or 64 (SPIR-V 2.16.1, Vulkan environment)", width);
   if (signedness > 1)
      return dg_fail(s->d, inst, DG_ERR_TYPE_DECL,
                     "Signedness %u is neither 0 (unsigned or no signedness) nor 1 (signed) "
                     "(SPIR-V OpTypeInt)",
                     signedness);
   if (width == 8)
      return need_cap(s, inst, 39, "Int8", "an 8-bit OpTypeInt");
   if (width == 16)
      return need_cap(s, inst, 22, "Int16", "a 16-bit OpTypeInt");
   if (width == 64)
      return need_cap(s, inst, 11, "Int64", "a 64-bit OpTypeInt");
   return VK_SUCCESS;
}

static VkResult
check_float_type(struct st *s, const struct spirv_inst *inst)
{
   uint32_t width = word_or(s, inst, 2, 0), encoding = word_or(s, inst, 3, UINT32_MAX);
   if (encoding == UINT32_MAX) {
      if (width == 16)
         return need_cap(s, inst, 9, "Float16", "a 16-bit OpTypeFloat");
      if (width == 64)
         return need_cap(s, inst, 10, "Float64", "a 64-bit OpTypeFloat");
      if (width == 32)
         return VK_SUCCESS;
   } else if (encoding == SPV_ARM_FP_ENCODING_BFLOAT16_KHR && width == 16) {
      return need(s, inst, SPV_ARM_CAP_BFLOAT16_TYPE_KHR, "BFloat16TypeKHR",
                  SPV_ARM_EXT_BFLOAT16_KHR, "OpTypeFloat 16 BFloat16KHR");
   } else if ((encoding == SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT ||
               encoding == SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT) &&
              width == 8) {
      return need(s, inst, SPV_ARM_CAP_FLOAT8_EXT, "Float8EXT", SPV_ARM_EXT_FLOAT8_EXT,
                  "an 8-bit OpTypeFloat");
   }
   return dg_fail(s->d, inst, DG_ERR_TYPE_DECL,
                  "Width %u with %s%u is no floating-point type SPIR-V defines (16, 32 or 64; 16 "
                  "BFloat16KHR; 8 Float8E4M3EXT or Float8E5M2EXT)",
                  width, encoding == UINT32_MAX ? "no encoding" : "FP Encoding ",
                  encoding == UINT32_MAX ? 0 : encoding);
}

/* The module-level instructions whose operands the decoder reads. */
static VkResult
check_decl(struct st *s, const struct spirv_inst *inst)
{
   struct dg_decoder *d = s->d;
   VkResult result = VK_SUCCESS;
   const struct spirv_inst *def;
   switch (inst->opcode) {
   case DG_SPV_TYPE_INT:
      return check_int_type(s, inst);
   case DG_SPV_TYPE_FLOAT:
      return check_float_type(s, inst);
   case 23: /* OpTypeVector */
   case 24: /* OpTypeMatrix */
   case 25: /* OpTypeImage */
   case 27: /* OpTypeSampledImage */
   case DG_SPV_TYPE_RUNTIME_ARRAY:
      if ((result = use(s, inst, 2, "the element type")) != VK_SUCCESS)
         return result;
      if (inst->opcode == DG_SPV_TYPE_RUNTIME_ARRAY && !is_type(operand_def(s, inst, 2)))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Element Type is not a type (SPIR-V OpTypeRuntimeArray)");
      return VK_SUCCESS;
   case DG_SPV_TYPE_ARRAY:
      if ((result = use(s, inst, 2, "the element type")) != VK_SUCCESS ||
          (result = use(s, inst, 3, "the length")) != VK_SUCCESS)
         return result;
      def = operand_def(s, inst, 2);
      if (!is_type(def))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Element Type (opcode %u) is not a type (SPIR-V OpTypeArray)",
                        def ? def->opcode : 0);
      def = operand_def(s, inst, 3);
      if (!is_int_constant(s, def))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Length is not an integer scalar constant (SPIR-V OpTypeArray)");
      if (def->opcode == DG_SPV_CONSTANT && word_or(s, def, 3, 0) == 0 &&
          (def->word_count < 5 || word_or(s, def, 4, 0) == 0))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL, "Length is 0 (SPIR-V OpTypeArray: at least 1)");
      return VK_SUCCESS;
   case DG_SPV_TYPE_STRUCT:
   case 33: /* OpTypeFunction */
      return use_from(s, inst, 2, "a member type");
   case DG_SPV_TYPE_POINTER: {
      uint32_t sc = word_or(s, inst, 2, UINT32_MAX);
      if (!known_storage_class(sc))
         return dg_fail(d, inst, DG_ERR_STORAGE_CLASS,
                        "Storage Class %u is no storage class SPIR-V defines", sc);
      if ((result = use(s, inst, 3, "the pointee type")) != VK_SUCCESS)
         return result;
      def = operand_def(s, inst, 3);
      if (def && !is_type(def) && def->opcode != 33)
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Type (opcode %u) is not a type (SPIR-V OpTypePointer)", def->opcode);
      return VK_SUCCESS;
   }
   case 39: { /* OpTypeForwardPointer */
      uint32_t id = word_or(s, inst, 1, 0);
      if (id && id < d->r.bound && s->ids[id] == ID_NONE)
         s->ids[id] = ID_FORWARD;
      return VK_SUCCESS;
   }
   case DG_SPV_EXT_INST: /* module level: non-semantic, its own operand rules */
      return use(s, inst, 3, "the instruction set");
   case DG_SPV_CONSTANT_COMPOSITE:
   case DG_SPV_SPEC_CONSTANT_COMPOSITE:
      return use_from(s, inst, 3, "a constituent");
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT:
      if ((result = use(s, inst, 3, "the value")) != VK_SUCCESS)
         return result;
      return need(s, inst, SPV_ARM_CAP_REPLICATED_COMPOSITES_EXT, "ReplicatedCompositesEXT",
                  SPV_ARM_EXT_REPLICATED_COMPOSITES_EXT, "a replicated composite");
   case DG_SPV_VARIABLE: {
      uint32_t sc = word_or(s, inst, 3, UINT32_MAX);
      if ((result = use(s, inst, 4, "the initializer")) != VK_SUCCESS)
         return result;
      if (sc == 7 /* Function */)
         return dg_fail(d, inst, DG_ERR_STORAGE_CLASS,
                        "a module-level OpVariable has Storage Class Function (SPIR-V 2.4)");
      def = operand_def(s, inst, 1);
      if (!def || def->opcode != DG_SPV_TYPE_POINTER)
         return dg_fail(d, inst, DG_ERR_STORAGE_CLASS,
                        "Result Type is not an OpTypePointer (SPIR-V OpVariable)");
      uint32_t ptr_sc = word_or(s, def, 2, UINT32_MAX);
      if (ptr_sc != sc)
         return dg_fail(d, inst, DG_ERR_STORAGE_CLASS,
                        "Storage Class %u is not its pointer type's (%u, OpTypePointer at word "
                        "%u) (SPIR-V OpVariable: they must be the same)",
                        sc, ptr_sc, def->offset);
      return VK_SUCCESS;
   }
   case SPV_ARM_OP_TYPE_TENSOR:
      if ((result = need(s, inst, SPV_ARM_CAP_TENSORS, "TensorsARM", SPV_ARM_EXT_TENSORS,
                         "OpTypeTensorARM")) != VK_SUCCESS ||
          (result = use_from(s, inst, 2, "an operand")) != VK_SUCCESS)
         return result;
      if (!is_scalar_type(operand_def(s, inst, 2)))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Element Type is not a scalar type (SPV_ARM_tensors)");
      if (inst->word_count > 3 && !is_int_constant(s, operand_def(s, inst, 3)))
         return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                        "Rank is not an integer scalar constant (SPV_ARM_tensors)");
      if (inst->word_count > 4) {
         def = operand_def(s, inst, 4);
         const struct spirv_inst *type =
             def ? spirv_reader_def(&d->r, spirv_reader_result_type(&d->r, def)) : NULL;
         if (!def || !dg_is_constant_opcode(def->opcode) || !type ||
             type->opcode != DG_SPV_TYPE_ARRAY)
            return dg_fail(d, inst, DG_ERR_TYPE_DECL,
                           "Shape is not a constant array (SPV_ARM_tensors)");
      }
      return VK_SUCCESS;
   case SPV_ARM_OP_TYPE_GRAPH:
      if ((result = need(s, inst, SPV_ARM_CAP_GRAPH, "GraphARM", SPV_ARM_EXT_GRAPH,
                         "OpTypeGraphARM")) != VK_SUCCESS)
         return result;
      return use_from(s, inst, 3, "an input or output type");
   case SPV_ARM_OP_GRAPH_CONSTANT:
      return need(s, inst, SPV_ARM_CAP_GRAPH, "GraphARM", SPV_ARM_EXT_GRAPH, "OpGraphConstantARM");
   default:
      return VK_SUCCESS;
   }
}

/* An instruction of a graph body; which instructions may be there is dg_body.c's business. */
static VkResult
check_body(struct st *s, const struct spirv_inst *inst)
{
   struct dg_decoder *d = s->d;
   switch (inst->opcode) {
   case SPV_ARM_OP_GRAPH_INPUT:
      return use_from(s, inst, 3, "an index");
   case SPV_ARM_OP_GRAPH_SET_OUTPUT:
      return use_from(s, inst, 1, "an operand");
   case DG_SPV_COMPOSITE_EXTRACT:
      return use(s, inst, 3, "the composite");
   case DG_SPV_EXT_INST: {
      VkResult result = use(s, inst, 3, "the instruction set");
      if (result != VK_SUCCESS)
         return result;
      /* Non-semantic sets may have their own rules; the others' operands are all <id>s. */
      const struct spirv_inst *set = operand_def(s, inst, 3);
      const char *name = NULL;
      struct spirv_diag sd;
      if (set && set->opcode == DG_SPV_EXT_INST_IMPORT &&
          spirv_reader_string(&d->r, set, 2, &name, NULL, NULL, &sd) == VK_SUCCESS &&
          strncmp(name, SPV_ARM_SET_NONSEMANTIC_PREFIX, strlen(SPV_ARM_SET_NONSEMANTIC_PREFIX)) ==
              0)
         return VK_SUCCESS;
      return use_from(s, inst, 5, "an operand");
   }
   case SPV_ARM_OP_GRAPH:
   case SPV_ARM_OP_GRAPH_ENTRY_POINT:
      return dg_fail(d, inst, DG_ERR_GRAPH_LAYOUT,
                     "inside the graph begun at word %u, which has no OpGraphEndARM before it "
                     "(SPV_ARM_graph)",
                     d->r.insts[d->graph_index].offset);
   default:
      return VK_SUCCESS;
   }
}

static VkResult
check_memory_model(struct st *s, const struct spirv_inst *inst)
{
   uint32_t addressing = word_or(s, inst, 1, UINT32_MAX), model = word_or(s, inst, 2, UINT32_MAX);
   if (addressing != 0 && addressing != 1 && addressing != 2 && addressing != 5348)
      return dg_fail(s->d, inst, DG_ERR_MEMORY_MODEL, "Addressing Model %u is none SPIR-V defines",
                     addressing);
   if (model > 3)
      return dg_fail(s->d, inst, DG_ERR_MEMORY_MODEL, "Memory Model %u is none SPIR-V defines",
                     model);
   if (addressing != 0 && addressing != 5348)
      return dg_fail(s->d, inst, DG_ERR_MEMORY_MODEL,
                     "Addressing Model %u is not Logical or PhysicalStorageBuffer64 (Vulkan "
                     "environment)",
                     addressing);
   if (model != 1 && model != 3)
      return dg_fail(s->d, inst, DG_ERR_MEMORY_MODEL,
                     "Memory Model %u is not GLSL450 or Vulkan (Vulkan environment)", model);
   if (addressing == 5348 && need_cap(s, inst, 5347, "PhysicalStorageBufferAddresses",
                                      "PhysicalStorageBuffer64") != VK_SUCCESS)
      return VK_ERROR_UNKNOWN;
   if (model == 3)
      return need_cap(s, inst, 5345, "VulkanMemoryModel", "the Vulkan memory model");
   return VK_SUCCESS;
}

/* Marks the ids defined in insts[first, end) as out of scope. */
static void
close_scope(struct st *s, uint32_t first, uint32_t end)
{
   for (uint32_t i = first; i < end; i++) {
      uint32_t id = spirv_reader_result_id(&s->d->r, &s->d->r.insts[i]);
      if (id)
         s->ids[id] = ID_OUT_SCOPE;
   }
}

static VkResult
check_all(struct st *s)
{
   struct dg_decoder *d = s->d;
   enum sec cur = S_CAP;
   uint32_t memory_models = 0;
   bool in_graph = false, in_func = false;
   uint32_t scope_start = 0;
   VkResult result;
   s->caps = d->r.insts;
   while (s->cap_count < d->r.inst_count && d->r.insts[s->cap_count].opcode == DG_SPV_CAPABILITY)
      s->cap_count++;

   for (uint32_t i = 0; i < d->r.inst_count; i++) {
      const struct spirv_inst *inst = &d->r.insts[i];
      if (in_func) { /* function bodies: skipped, their ids out of graphs' scope */
         if (inst->opcode == 56 /* OpFunctionEnd */) {
            in_func = false;
            close_scope(s, scope_start, i);
         }
         continue;
      }
      if (in_graph) {
         if (inst->opcode == SPV_ARM_OP_GRAPH_END) {
            in_graph = false;
            close_scope(s, scope_start, i);
            continue;
         }
         if ((result = check_body(s, inst)) != VK_SUCCESS)
            return result;
         uint32_t rt = spirv_reader_result_type(&d->r, inst);
         if (rt && (result = use(s, inst, 1, "Result Type")) != VK_SUCCESS)
            return result;
         uint32_t id = spirv_reader_result_id(&d->r, inst);
         if (id)
            s->ids[id] = ID_LOCAL;
         continue;
      }

      enum sec sec = section_of(inst->opcode);
      if (sec != S_ANY) {
         if (sec < cur)
            return dg_fail(d, inst, DG_ERR_LAYOUT,
                           "an instruction of the section \"%s\" after the section \"%s\" (SPIR-V "
                           "2.4 Logical Layout of a Module%s)",
                           sec_names[sec], sec_names[cur],
                           cur == S_GRAPH ? ", SPV_ARM_graph: graphs come last" : "");
         cur = sec;
      }
      if (sec == S_CAP) {
         if (i >= s->cap_count) /* unreachable: caught above */
            return dg_fail(d, inst, DG_ERR_LAYOUT, "a capability after other instructions");
         continue;
      }
      if (sec == S_MEMORY_MODEL) {
         if (memory_models++)
            return dg_fail(d, inst, DG_ERR_MEMORY_MODEL,
                           "a second OpMemoryModel (SPIR-V 2.4: exactly one)");
         if ((result = check_memory_model(s, inst)) != VK_SUCCESS)
            return result;
         continue;
      }
      if (sec > S_MEMORY_MODEL && !memory_models)
         return dg_fail(d, inst, DG_ERR_MEMORY_MODEL,
                        "the module has no OpMemoryModel before this instruction (SPIR-V 2.4: "
                        "exactly one, after the instruction-set imports)");
      uint32_t id = spirv_reader_result_id(&d->r, inst);
      if (sec == S_DECL) {
         uint32_t rt = spirv_reader_result_type(&d->r, inst);
         if (rt && (result = use(s, inst, 1, "Result Type")) != VK_SUCCESS)
            return result;
         if ((result = check_decl(s, inst)) != VK_SUCCESS)
            return result;
      } else if (inst->opcode == 54) { /* OpFunction */
         in_func = true;
         scope_start = i + 1;
      } else if (inst->opcode == SPV_ARM_OP_GRAPH) {
         if ((result = need(s, inst, SPV_ARM_CAP_GRAPH, "GraphARM", SPV_ARM_EXT_GRAPH,
                            "OpGraphARM")) != VK_SUCCESS ||
             (result = use(s, inst, 1, "Result Type")) != VK_SUCCESS)
            return result;
         in_graph = true;
         scope_start = i + 1;
         d->graph_index = i;
      } else if (inst->opcode == SPV_ARM_OP_GRAPH_INPUT ||
                 inst->opcode == SPV_ARM_OP_GRAPH_SET_OUTPUT ||
                 inst->opcode == SPV_ARM_OP_GRAPH_END) {
         return dg_fail(d, inst, DG_ERR_GRAPH_LAYOUT,
                        "outside a graph (SPV_ARM_graph: only between OpGraphARM and "
                        "OpGraphEndARM; a second OpGraphEndARM?)");
      } else if (inst->opcode == SPV_ARM_OP_GRAPH_ENTRY_POINT) {
         if ((result = need(s, inst, SPV_ARM_CAP_GRAPH, "GraphARM", SPV_ARM_EXT_GRAPH,
                            "OpGraphEntryPointARM")) != VK_SUCCESS)
            return result;
      }
      if (id && s->ids[id] != ID_OUT_SCOPE)
         s->ids[id] = ID_GLOBAL;
   }
   if (in_graph)
      return dg_fail(d, &d->r.insts[d->graph_index], DG_ERR_GRAPH_LAYOUT,
                     "the graph has no OpGraphEndARM (SPV_ARM_graph: the last instruction of a "
                     "graph)");
   if (in_func)
      return dg_fail(d, NULL, DG_ERR_LAYOUT, "the last function has no OpFunctionEnd");
   if (!memory_models)
      return dg_fail(d, NULL, DG_ERR_MEMORY_MODEL,
                     "the module has no OpMemoryModel (SPIR-V 2.4: exactly one)");
   return VK_SUCCESS;
}

VkResult
dg_check_structure(struct dg_decoder *d)
{
   struct st s = {.d = d};
   s.ids = lyr_zalloc(d->alloc, d->r.bound, 1, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!s.ids)
      return dg_oom(d);
   VkResult result = check_all(&s);
   d->graph_index = 0;
   lyr_free(d->alloc, s.ids);
   return result;
}
