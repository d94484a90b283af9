/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A graph module's interface for vmel-run (run_module.h), read with the
 * layers' bounds-checked SPIR-V reader. This is not validation: the graph
 * layer validates the module at pipeline creation and says what is wrong.
 * Here only what binding tensors needs is extracted, and anything vmel-run
 * cannot bind (tensor arrays, non-tensor interface types) is refused with a
 * message.
 */
#include "run_module.h"

#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "spirv_text.h"
#include "tosa_import.h"
#include "tosa_model.h"

static const struct {
   const char *name;
   VkFormat format;
   enum npy_dtype npy;
} run_dtypes[RUN_DTYPE_COUNT] = {
   [RUN_BOOL] = {"bool", VK_FORMAT_R8_BOOL_ARM, NPY_BOOL},
   [RUN_I8] = {"i8", VK_FORMAT_R8_SINT, NPY_I8},
   [RUN_U8] = {"u8", VK_FORMAT_R8_UINT, NPY_U8},
   [RUN_I16] = {"i16", VK_FORMAT_R16_SINT, NPY_I16},
   [RUN_U16] = {"u16", VK_FORMAT_R16_UINT, NPY_U16},
   [RUN_I32] = {"i32", VK_FORMAT_R32_SINT, NPY_I32},
   [RUN_U32] = {"u32", VK_FORMAT_R32_UINT, NPY_U32},
   [RUN_I64] = {"i64", VK_FORMAT_R64_SINT, NPY_I64},
   [RUN_FP16] = {"fp16", VK_FORMAT_R16_SFLOAT, NPY_F16},
   [RUN_BF16] = {"bf16", VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, NPY_U16},
   [RUN_FP32] = {"fp32", VK_FORMAT_R32_SFLOAT, NPY_F32},
   [RUN_FP64] = {"fp64", VK_FORMAT_R64_SFLOAT, NPY_F64},
   [RUN_FP8E4M3] = {"fp8e4m3", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, NPY_U8},
   [RUN_FP8E5M2] = {"fp8e5m2", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, NPY_U8},
};

static bool
error(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool
error(char *err, size_t err_len, const char *fmt, ...)
{
   if (err && err_len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, err_len, fmt, ap);
      va_end(ap);
   }
   return false;
}

const char *
run_dtype_name(enum run_dtype dtype)
{
   return (unsigned)dtype < RUN_DTYPE_COUNT ? run_dtypes[dtype].name : "?";
}

bool
run_dtype_from_name(const char *name, enum run_dtype *dtype)
{
   static const struct {
      const char *alias;
      enum run_dtype dtype;
   } aliases[] = {{"f16", RUN_FP16}, {"f32", RUN_FP32}, {"f64", RUN_FP64}, {"i48", RUN_I64}};
   for (unsigned i = 0; i < RUN_DTYPE_COUNT; i++) {
      if (strcmp(name, run_dtypes[i].name) == 0) {
         *dtype = (enum run_dtype)i;
         return true;
      }
   }
   for (unsigned i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
      if (strcmp(name, aliases[i].alias) == 0) {
         *dtype = aliases[i].dtype;
         return true;
      }
   }
   return false;
}

VkFormat
run_dtype_format(enum run_dtype dtype)
{
   return run_dtypes[dtype].format;
}

enum npy_dtype
run_dtype_npy(enum run_dtype dtype)
{
   return run_dtypes[dtype].npy;
}

bool
run_elem_accepts(const struct run_elem *e, enum run_dtype d)
{
   switch (e->kind) {
   case RUN_ELEM_BOOL:
      return d == RUN_BOOL;
   case RUN_ELEM_INT:
      /* Vulkan "spirvenv-tensor-formats": a signless integer takes SINT or UINT formats, a
       * signed one SINT only. */
      switch (e->width) {
      case 8:
         return d == RUN_I8 || (!e->signed_int && d == RUN_U8);
      case 16:
         return d == RUN_I16 || (!e->signed_int && d == RUN_U16);
      case 32:
         return d == RUN_I32 || (!e->signed_int && d == RUN_U32);
      case 64:
         return d == RUN_I64;
      default:
         return false;
      }
   case RUN_ELEM_FLOAT:
      if (e->fp_encoding == SPV_ARM_FP_ENCODING_BFLOAT16_KHR)
         return e->width == 16 && d == RUN_BF16;
      if (e->fp_encoding == SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT)
         return e->width == 8 && d == RUN_FP8E4M3;
      if (e->fp_encoding == SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT)
         return e->width == 8 && d == RUN_FP8E5M2;
      return (e->width == 16 && d == RUN_FP16) || (e->width == 32 && d == RUN_FP32) ||
             (e->width == 64 && d == RUN_FP64);
   }
   return false;
}

bool
run_elem_default(const struct run_elem *e, enum run_dtype *dtype)
{
   static const enum run_dtype order[] = {RUN_BOOL,    RUN_I8,      RUN_I16,  RUN_I32,
                                          RUN_I64,     RUN_FP16,    RUN_BF16, RUN_FP32,
                                          RUN_FP64,    RUN_FP8E4M3, RUN_FP8E5M2};
   for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
      if (run_elem_accepts(e, order[i])) {
         *dtype = order[i];
         return true;
      }
   }
   return false;
}

const char *
run_elem_name(const struct run_elem *e, char *buf, size_t len)
{
   enum run_dtype d;
   if (e->kind == RUN_ELEM_INT && e->width == 64)
      snprintf(buf, len, "i64/i48");
   else if (run_elem_default(e, &d))
      snprintf(buf, len, "%s", run_dtype_name(d));
   else
      snprintf(buf, len, "%s%u", e->kind == RUN_ELEM_INT ? "int" : "float", e->width);
   return buf;
}

const char *
run_shape_str(uint32_t rank, const int64_t *dims, char *buf, size_t len)
{
   size_t n = 0;
   n += (size_t)snprintf(buf, len, "[");
   for (uint32_t i = 0; i < rank && n < len; i++)
      n += (size_t)snprintf(buf + n, len - n, "%s%lld", i ? ", " : "", (long long)dims[i]);
   if (n < len)
      snprintf(buf + n, len - n, "]");
   return buf;
}

/* ---- reading the interface ------------------------------------------------ */

struct reader {
   struct spirv_reader r;
   uint32_t *set, *binding; /* per id, UINT32_MAX when undecorated */
   const char **names;      /* per id: OpName, or NULL */
   char *err;
   size_t err_len;
};

static const uint32_t *
inst_words(const struct reader *rd, const struct spirv_inst *inst)
{
   return spirv_reader_inst_words(&rd->r, inst);
}

/* The integer value of an OpConstant (32 or 64 bits); false for anything else. */
static bool
int_constant(const struct reader *rd, uint32_t id, int64_t *value)
{
   const struct spirv_inst *def = spirv_reader_def(&rd->r, id);
   if (!def || def->opcode != SpvOpConstant || def->word_count < 4)
      return false;
   const uint32_t *w = inst_words(rd, def);
   const struct spirv_inst *type = spirv_reader_def(&rd->r, w[1]);
   if (!type || type->opcode != SpvOpTypeInt || type->word_count < 4)
      return false;
   uint32_t width = inst_words(rd, type)[2];
   if (width == 64 && def->word_count >= 5)
      *value = (int64_t)((uint64_t)w[3] | (uint64_t)w[4] << 32);
   else if (width == 32)
      *value = inst_words(rd, type)[3] ? (int64_t)(int32_t)w[3] : (int64_t)w[3];
   else
      return false;
   return true;
}

static bool
read_elem(struct reader *rd, uint32_t id, struct run_elem *e)
{
   const struct spirv_inst *def = spirv_reader_def(&rd->r, id);
   if (!def)
      return error(rd->err, rd->err_len, "element type %%%u is not defined", id);
   const uint32_t *w = inst_words(rd, def);
   memset(e, 0, sizeof(*e));
   e->fp_encoding = -1;
   switch (def->opcode) {
   case SpvOpTypeBool:
      e->kind = RUN_ELEM_BOOL;
      e->width = 8;
      return true;
   case SpvOpTypeInt:
      if (def->word_count < 4)
         break;
      e->kind = RUN_ELEM_INT;
      e->width = w[2];
      e->signed_int = w[3] == 1;
      return true;
   case SpvOpTypeFloat:
      if (def->word_count < 3)
         break;
      e->kind = RUN_ELEM_FLOAT;
      e->width = w[2];
      if (def->word_count > 3)
         e->fp_encoding = (int32_t)w[3];
      return true;
   default:
      break;
   }
   return error(rd->err, rd->err_len, "%%%u (opcode %u) is not a scalar element type", id,
                def->opcode);
}

/* Rank and shape of an OpTypeTensorARM, where they are constants. */
static void
read_shape(struct reader *rd, const uint32_t *w, uint32_t word_count, struct run_tensor_decl *t)
{
   int64_t rank;
   if (word_count < 4 || !int_constant(rd, w[3], &rank) || rank < 1 || rank > RUN_MAX_RANK)
      return;
   t->ranked = true;
   t->rank = (uint32_t)rank;
   if (word_count < 5)
      return;
   const struct spirv_inst *shape = spirv_reader_def(&rd->r, w[4]);
   if (!shape)
      return;
   const uint32_t *s = inst_words(rd, shape);
   for (uint32_t i = 0; i < t->rank; i++) {
      uint32_t part;
      if (shape->opcode == SpvOpConstantComposite && shape->word_count == 3 + t->rank)
         part = s[3 + i];
      else if (shape->opcode == SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT &&
               shape->word_count == 4)
         part = s[3];
      else
         return;
      if (!int_constant(rd, part, &t->dims[i]) || t->dims[i] < 1)
         return;
   }
   t->shaped = true;
}

static bool
read_tensor_type(struct reader *rd, uint32_t type_id, struct run_tensor_decl *t, const char *what)
{
   const struct spirv_inst *def = spirv_reader_def(&rd->r, type_id);
   if (def && (def->opcode == SpvOpTypeArray || def->opcode == SpvOpTypeRuntimeArray))
      return error(rd->err, rd->err_len,
                   "%s is an array of tensors; vmel-run binds single tensors only", what);
   if (!def || def->opcode != SPV_ARM_OP_TYPE_TENSOR || def->word_count < 3)
      return error(rd->err, rd->err_len, "%s: type %%%u is not OpTypeTensorARM", what, type_id);
   const uint32_t *w = inst_words(rd, def);
   if (!read_elem(rd, w[2], &t->elem))
      return false;
   read_shape(rd, w, def->word_count, t);
   return true;
}

/* An interface OpVariable: its decorations and tensor type. */
static bool
read_interface(struct reader *rd, uint32_t var_id, struct run_tensor_decl *t, const char *what)
{
   const struct spirv_inst *var = spirv_reader_def(&rd->r, var_id);
   if (!var || var->opcode != SpvOpVariable || var->word_count < 4)
      return error(rd->err, rd->err_len, "%s: %%%u is not an OpVariable", what, var_id);
   const struct spirv_inst *ptr = spirv_reader_def(&rd->r, inst_words(rd, var)[1]);
   if (!ptr || ptr->opcode != SpvOpTypePointer || ptr->word_count < 4)
      return error(rd->err, rd->err_len, "%s: %%%u is not a pointer variable", what, var_id);
   t->result_id = var_id;
   t->set = rd->set[var_id];
   t->binding = rd->binding[var_id];
   if (t->set == UINT32_MAX || t->binding == UINT32_MAX)
      return error(rd->err, rd->err_len, "%s (%%%u) has no DescriptorSet/Binding decoration",
                   what, var_id);
   if (rd->names[var_id])
      snprintf(t->name, sizeof(t->name), "%s", rd->names[var_id]);
   return read_tensor_type(rd, inst_words(rd, ptr)[3], t, what);
}

/* Decorations and names of every id. */
static bool
index_module(struct reader *rd)
{
   uint32_t bound = rd->r.bound;
   rd->set = malloc(bound * sizeof(*rd->set));
   rd->binding = malloc(bound * sizeof(*rd->binding));
   rd->names = calloc(bound, sizeof(*rd->names));
   if (!rd->set || !rd->binding || !rd->names)
      return error(rd->err, rd->err_len, "out of memory");
   memset(rd->set, 0xff, bound * sizeof(*rd->set));
   memset(rd->binding, 0xff, bound * sizeof(*rd->binding));
   for (uint32_t i = 0; i < rd->r.inst_count; i++) {
      const struct spirv_inst *inst = &rd->r.insts[i];
      const uint32_t *w = inst_words(rd, inst);
      if (inst->opcode == SpvOpDecorate && inst->word_count >= 4 && w[1] < bound) {
         if (w[2] == SpvDecorationDescriptorSet)
            rd->set[w[1]] = w[3];
         else if (w[2] == SpvDecorationBinding)
            rd->binding[w[1]] = w[3];
      } else if (inst->opcode == SpvOpName && inst->word_count >= 3 && w[1] < bound) {
         const char *name;
         if (spirv_reader_string(&rd->r, inst, 2, &name, NULL, NULL, NULL) == VK_SUCCESS)
            rd->names[w[1]] = name;
      }
   }
   return true;
}

/* The entry point named `entry` (or the first); counts them all. */
static const struct spirv_inst *
find_entry(struct reader *rd, const char *entry, struct run_module *m)
{
   const struct spirv_inst *found = NULL;
   char names[256] = "";
   size_t n = 0;
   for (uint32_t i = 0; i < rd->r.inst_count; i++) {
      const struct spirv_inst *inst = &rd->r.insts[i];
      const char *name;
      if (inst->opcode != SPV_ARM_OP_GRAPH_ENTRY_POINT ||
          spirv_reader_string(&rd->r, inst, 2, &name, NULL, NULL, NULL) != VK_SUCCESS)
         continue;
      m->entry_count++;
      if (n < sizeof(names))
         n += (size_t)snprintf(names + n, sizeof(names) - n, "%s\"%s\"", n ? ", " : "", name);
      if (!found && (!entry || strcmp(entry, name) == 0)) {
         found = inst;
         snprintf(m->entry, sizeof(m->entry), "%s", name);
      }
   }
   if (!found && m->entry_count == 0)
      error(rd->err, rd->err_len, "no OpGraphEntryPointARM: not a graph module");
   else if (!found)
      error(rd->err, rd->err_len, "no graph entry point \"%s\" (the module has %s)", entry,
            names);
   return found;
}

/* The graph constants the graph's body refers to, each GraphConstantID once. */
static bool
read_constants(struct reader *rd, uint32_t graph_id, struct run_module *m)
{
   const struct spirv_inst *graph = spirv_reader_def(&rd->r, graph_id);
   uint32_t first = spirv_reader_inst_index(&rd->r, graph);
   for (uint32_t i = first + 1; i < rd->r.inst_count; i++) {
      const struct spirv_inst *inst = &rd->r.insts[i];
      if (inst->opcode == SPV_ARM_OP_GRAPH_END)
         break;
      /* OpExtInst operands start at word 5; OpGraphSetOutputARM's value is word 1. */
      uint32_t from = inst->opcode == SpvOpExtInst            ? 5
                      : inst->opcode == SPV_ARM_OP_GRAPH_SET_OUTPUT ? 1
                                                                  : inst->word_count;
      const uint32_t *w = inst_words(rd, inst);
      uint32_t to = inst->opcode == SPV_ARM_OP_GRAPH_SET_OUTPUT ? 2 : inst->word_count;
      for (uint32_t k = from; k < to && k < inst->word_count; k++) {
         const struct spirv_inst *def = spirv_reader_def(&rd->r, w[k]);
         if (!def || def->opcode != SPV_ARM_OP_GRAPH_CONSTANT || def->word_count < 4)
            continue;
         const uint32_t *c = inst_words(rd, def);
         bool seen = false;
         for (uint32_t j = 0; j < m->constant_count && !seen; j++)
            seen = m->constants[j].constant_id == c[3];
         if (seen)
            continue;
         if (m->constant_count == RUN_MAX_CONSTANTS)
            return error(rd->err, rd->err_len, "more than %d graph constants",
                         RUN_MAX_CONSTANTS);
         struct run_tensor_decl *t = &m->constants[m->constant_count++];
         char what[48];
         snprintf(what, sizeof(what), "graph constant %u", c[3]);
         t->constant_id = c[3];
         t->result_id = c[2];
         if (rd->names[c[2]])
            snprintf(t->name, sizeof(t->name), "%s", rd->names[c[2]]);
         if (!read_tensor_type(rd, c[1], t, what))
            return false;
      }
   }
   return true;
}

static bool
read_graph(struct reader *rd, const struct spirv_inst *ep, struct run_module *m)
{
   const uint32_t *w = inst_words(rd, ep);
   uint32_t graph_id = w[1], after_name = 0;
   const char *name = "";
   if (spirv_reader_string(&rd->r, ep, 2, &name, NULL, &after_name, NULL) != VK_SUCCESS)
      return error(rd->err, rd->err_len, "bad entry point name");
   const struct spirv_inst *graph = spirv_reader_def(&rd->r, graph_id);
   if (!graph || graph->opcode != SPV_ARM_OP_GRAPH || graph->word_count < 3)
      return error(rd->err, rd->err_len, "entry point \"%s\": %%%u is not an OpGraphARM", name,
                   graph_id);
   const struct spirv_inst *type = spirv_reader_def(&rd->r, inst_words(rd, graph)[1]);
   if (!type || type->opcode != SPV_ARM_OP_TYPE_GRAPH || type->word_count < 3)
      return error(rd->err, rd->err_len, "entry point \"%s\": the graph's type is not "
                   "OpTypeGraphARM", name);
   uint32_t inputs = inst_words(rd, type)[2];
   uint32_t total = type->word_count - 3u;
   uint32_t interface = ep->word_count - after_name;
   if (inputs > total || interface != total)
      return error(rd->err, rd->err_len,
                   "entry point \"%s\" lists %u interface variables; its graph type has %u "
                   "inputs and outputs",
                   name, interface, total);
   if (inputs > RUN_MAX_TENSORS || total - inputs > RUN_MAX_TENSORS)
      return error(rd->err, rd->err_len, "more than %d inputs or outputs", RUN_MAX_TENSORS);
   for (uint32_t i = 0; i < total; i++) {
      bool input = i < inputs;
      char what[32];
      snprintf(what, sizeof(what), "%s %u", input ? "input" : "output", input ? i : i - inputs);
      struct run_tensor_decl *t = input ? &m->inputs[m->input_count++]
                                        : &m->outputs[m->output_count++];
      if (!read_interface(rd, w[after_name + i], t, what))
         return false;
   }
   return read_constants(rd, graph_id, m);
}

bool
run_module_read(const uint32_t *words, size_t count, const char *entry, struct run_module *out,
                char *err, size_t err_len)
{
   struct reader rd = {.err = err, .err_len = err_len};
   struct spirv_diag diag;
   memset(out, 0, sizeof(*out));
   if (spirv_reader_init(&rd.r, words, count, NULL, &diag) != VK_SUCCESS)
      return error(err, err_len, "not a valid SPIR-V module: %s (word %u)", diag.message,
                   diag.offset);
   bool ok = index_module(&rd);
   const struct spirv_inst *ep = ok ? find_entry(&rd, entry, out) : NULL;
   ok = ep && read_graph(&rd, ep, out);
   free(rd.set);
   free(rd.binding);
   free(rd.names);
   spirv_reader_finish(&rd.r);
   return ok;
}

/* ---- loading ---------------------------------------------------------------- */

bool
run_module_load(const char *path, uint32_t **words, size_t *count, char *err, size_t err_len)
{
   char *data = NULL;
   size_t len = 0;
   if (!npy_slurp(path, &data, &len, err, err_len))
      return false;
   uint32_t magic = 0;
   if (len >= 4)
      memcpy(&magic, data, 4);
   if (magic == SPIRV_MAGIC || magic == SPIRV_MAGIC_SWAPPED) {
      if (magic == SPIRV_MAGIC_SWAPPED || len % 4) {
         free(data);
         return error(err, err_len, "%s: %s", path,
                      len % 4 ? "SPIR-V binary size is not a multiple of 4"
                              : "SPIR-V binary is big-endian");
      }
      uint32_t *w = malloc(len ? len : 4);
      if (!w) {
         free(data);
         return error(err, err_len, "%s: out of memory", path);
      }
      memcpy(w, data, len);
      free(data);
      *words = w;
      *count = len / 4;
      return true;
   }
   char why[512];
   bool ok;
   if (tosa_is_flatbuffer(data, len))
      ok = tosa_import_words(data, len, words, count, why, sizeof(why));
   else
      ok = spirv_text_assemble(data, len, words, count, why, sizeof(why));
   free(data);
   if (!ok)
      return error(err, err_len, "%s: %s", path, why);
   return true;
}
