/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graphs larger than the device's descriptor limits (docs/decisions.md D19),
 * through both layers on lavapipe with validation below them (any validation
 * message fails the test):
 *  - generated int8 graphs of 10, 100 and 500 operators (CONV2D, MUL, ADD,
 *    RESCALE, CLAMP, with a residual ADD reaching back to older values) with
 *    a graph constant or more per group: hundreds of intermediates and
 *    constants, far above maxPerStageDescriptorStorageBuffers (32 on
 *    lavapipe). Each stage binds only what it uses; the output is compared
 *    bit for bit with the CPU reference (vmel_tosa_ref) evaluated op by op;
 *  - the limit at its edge: an application layout whose tensor bindings
 *    leave room for exactly one internal binding runs a graph needing one,
 *    and is refused, with a message naming the limit, when the bindings
 *    leave none (no validation message either way).
 * VMEL_GRAPH_MAX_STORAGE_BUFFERS (the variant e2e.test_graph_limits.lowered)
 * lowers the limit the layer checks against; the edge test follows it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"
#include "tosa_ref.h"

TEST_MAIN_STATE;

/* ---- text ---------------------------------------------------------------------------------- */


/* ---- the generator: SPIR-V text and the reference in lockstep ------------------------------ */

#define MAX_VALUES 4096
#define MAX_CONSTS 1024

/* Every tensor is NHWC [1, 4, 4, 4]; weights [4, 3, 3, 4]. */
#define DIM 4
#define ELEMS (DIM * DIM * DIM)

struct gconst {
   uint32_t id;
   VkFormat format;
   uint32_t rank;
   int64_t dims[4];
   struct ref_tensor *t;
};

struct gen {
   struct dgu_text decl, body;
   uint32_t ops;
   uint32_t rng;
   struct ref_tensor *vals[MAX_VALUES]; /* %v<i> */
   bool is_i8[MAX_VALUES];
   uint32_t val_count;
   struct gconst consts[MAX_CONSTS];
   uint32_t const_count;
   uint32_t i8_history[MAX_VALUES]; /* i8 values, for residual ADDs */
   uint32_t history_count;
   /* module constants of the reference */
   struct ref_tensor *zp8, *zp32, *shift0, *mul_one, *sh_one, *sh_down;
   bool failed;
};

static uint32_t
rnd(struct gen *g, uint32_t n)
{
   g->rng = g->rng * 1103515245u + 12345u;
   return (g->rng >> 16) % n;
}

static struct ref_tensor *
x_tensor(enum ref_dtype type)
{
   return ref_tensor_create_v(type, 4, INT64_C(1), (int64_t)DIM, (int64_t)DIM, (int64_t)DIM);
}

static uint32_t
new_value(struct gen *g, bool i8)
{
   uint32_t v = g->val_count++;
   if (v >= MAX_VALUES)
      abort();
   g->vals[v] = x_tensor(i8 ? REF_DTYPE_I8 : REF_DTYPE_I32);
   g->is_i8[v] = i8;
   if (i8)
      g->i8_history[g->history_count++] = v;
   return v;
}

static void
check(struct gen *g, int status, const char *op)
{
   if (status != TOSA_REF_OK && !g->failed) {
      ok(false, "reference %s: %s", op, tosa_ref_last_message());
      g->failed = true;
   }
}

/* A graph constant of random values in [lo, hi]. */
static uint32_t
new_const(struct gen *g, enum ref_dtype type, uint32_t rank, const int64_t *dims, int lo, int hi)
{
   if (g->const_count >= MAX_CONSTS)
      abort();
   struct gconst *c = &g->consts[g->const_count];
   c->id = g->const_count;
   c->format = type == REF_DTYPE_I8 ? VK_FORMAT_R8_SINT : VK_FORMAT_R32_SINT;
   c->rank = rank;
   memcpy(c->dims, dims, rank * sizeof(int64_t));
   c->t = ref_tensor_create(type, rank, dims);
   for (int64_t i = 0; i < c->t->count; i++) {
      int v = lo + (int)rnd(g, (uint32_t)(hi - lo + 1));
      if (type == REF_DTYPE_I8)
         ((int8_t *)c->t->data)[i] = (int8_t)v;
      else
         ((int32_t *)c->t->data)[i] = v;
   }
   const char *ty = rank == 1 ? (type == REF_DTYPE_I8 ? "t_i8_4" : "t_i32_4")
                    : dims[0] == DIM ? "t_w"
                    : type == REF_DTYPE_I8 ? "t_i8" : "t_i32";
   dgu_put(&g->decl, "%%c%u = OpGraphConstantARM %%%s %u\n", c->id, ty, c->id);
   return g->const_count++;
}

static const struct tosa_ref_rescale_args rescale_tensor = {
   .scale32 = true, .rounding_mode = TOSA_REF_ROUND_SINGLE};
static const struct tosa_ref_rescale_args rescale_channel = {
   .scale32 = true, .rounding_mode = TOSA_REF_ROUND_SINGLE, .per_channel = true};

/* RESCALE by one multiplier/shift pair of module constants (x1 or x1/64). */
static uint32_t
op_rescale(struct gen *g, uint32_t in, bool to_i8, bool down)
{
   uint32_t out = new_value(g, to_i8);
   const char *sh = down ? "sh_down" : "sh_one";
   dgu_put(&g->body, "%%v%u = OpExtInst %%%s %%tosa RESCALE %%true %%single_round %%false %%false "
       "%%false %%v%u %%mul_one %%%s %%%s %%%s\n",
       out, to_i8 ? "t_i8" : "t_i32", in, sh, g->is_i8[in] ? "zp8" : "zp32",
       to_i8 ? "zp8" : "zp32");
   check(g, tosa_ref_rescale(&rescale_tensor, g->vals[in], g->mul_one,
                             down ? g->sh_down : g->sh_one, g->is_i8[in] ? g->zp8 : g->zp32,
                             to_i8 ? g->zp8 : g->zp32, g->vals[out]),
         "RESCALE");
   g->ops++;
   return out;
}

static uint32_t
op_clamp(struct gen *g, uint32_t in)
{
   uint32_t out = new_value(g, true);
   dgu_put(&g->body, "%%v%u = OpExtInst %%t_i8 %%tosa CLAMP %%lo %%hi %%propagate %%v%u\n", out, in);
   struct tosa_ref_clamp_args a = {.min_int = -100, .max_int = 100,
                                   .nan_mode = TOSA_REF_NAN_PROPAGATE};
   check(g, tosa_ref_clamp(&a, g->vals[in], g->vals[out]), "CLAMP");
   g->ops++;
   return out;
}

static uint32_t
op_add(struct gen *g, uint32_t a, const char *b_name, struct ref_tensor *b)
{
   uint32_t out = new_value(g, false);
   dgu_put(&g->body, "%%v%u = OpExtInst %%t_i32 %%tosa ADD %%v%u %s\n", out, a, b_name);
   check(g, tosa_ref_add(g->vals[a], b, g->vals[out]), "ADD");
   g->ops++;
   return out;
}

/* Groups of operators from an i8 value to an i8 value. */
enum group { GROUP_CONV, GROUP_RESIDUAL, GROUP_ADD_CONST, GROUP_MUL, GROUP_CLAMP, GROUP_COUNT };
static const uint32_t group_ops[GROUP_COUNT] = {2, 4, 3, 2, 1};

static uint32_t
group(struct gen *g, enum group kind, uint32_t cur)
{
   static const int64_t d_x[4] = {1, DIM, DIM, DIM}, d_w[4] = {DIM, 3, 3, DIM}, d_c[1] = {DIM};
   char name[32];
   switch (kind) {
   case GROUP_CONV: {
      /* CONV2D 3x3 pad 1 (weights, bias) -> i32, RESCALE per channel -> i8. */
      uint32_t w = new_const(g, REF_DTYPE_I8, 4, d_w, -3, 3);
      uint32_t b = new_const(g, REF_DTYPE_I32, 1, d_c, -500, 500);
      uint32_t m = new_const(g, REF_DTYPE_I32, 1, d_c, 1 << 29, 1 << 30);
      uint32_t s = new_const(g, REF_DTYPE_I8, 1, d_c, 36, 40);
      uint32_t conv = new_value(g, false);
      dgu_put(&g->body, "%%v%u = OpExtInst %%t_i32 %%tosa CONV2D %%pad1 %%ones %%ones %%acc_int32 "
          "%%false %%v%u %%c%u %%c%u %%zp8 %%zp8\n", conv, cur, w, b);
      struct tosa_ref_conv2d_args ca = {.pad = {1, 1, 1, 1}, .stride = {1, 1},
                                        .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_INT32};
      check(g, tosa_ref_conv2d(&ca, g->vals[cur], g->consts[w].t, g->consts[b].t, g->zp8,
                               g->zp8, g->vals[conv]),
            "CONV2D");
      g->ops++;
      uint32_t out = new_value(g, true);
      dgu_put(&g->body, "%%v%u = OpExtInst %%t_i8 %%tosa RESCALE %%true %%single_round %%true "
          "%%false %%false %%v%u %%c%u %%c%u %%zp32 %%zp8\n", out, conv, m, s);
      check(g, tosa_ref_rescale(&rescale_channel, g->vals[conv], g->consts[m].t,
                                g->consts[s].t, g->zp32, g->zp8, g->vals[out]),
            "RESCALE");
      g->ops++;
      return out;
   }
   case GROUP_RESIDUAL: {
      /* A residual ADD with an older i8 value: both rescaled to i32 first. */
      uint32_t old = g->i8_history[rnd(g, g->history_count)];
      uint32_t a = op_rescale(g, cur, false, false);
      uint32_t b = op_rescale(g, old, false, false);
      snprintf(name, sizeof(name), "%%v%u", b);
      uint32_t s = op_add(g, a, name, g->vals[b]);
      return op_rescale(g, s, true, false);
   }
   case GROUP_ADD_CONST: {
      uint32_t c = new_const(g, REF_DTYPE_I32, 4, d_x, -60, 60);
      uint32_t a = op_rescale(g, cur, false, false);
      snprintf(name, sizeof(name), "%%c%u", c);
      uint32_t s = op_add(g, a, name, g->consts[c].t);
      return op_rescale(g, s, true, false);
   }
   case GROUP_MUL: {
      /* i8 x i8 -> i32, back to i8 by 1/64. */
      uint32_t c = new_const(g, REF_DTYPE_I8, 4, d_x, -100, 100);
      uint32_t out = new_value(g, false);
      dgu_put(&g->body, "%%v%u = OpExtInst %%t_i32 %%tosa MUL %%v%u %%c%u %%shift0\n", out, cur, c);
      check(g, tosa_ref_mul(g->vals[cur], g->consts[c].t, g->shift0, g->vals[out]), "MUL");
      g->ops++;
      return op_rescale(g, out, true, true);
   }
   case GROUP_CLAMP:
   default:
      return op_clamp(g, cur);
   }
}

static struct ref_tensor *
ref_vec(enum ref_dtype type, int32_t value)
{
   struct ref_tensor *t = ref_tensor_create_v(type, 1, INT64_C(1));
   if (type == REF_DTYPE_I8)
      *(int8_t *)t->data = (int8_t)value;
   else
      *(int32_t *)t->data = value;
   return t;
}

/* Builds a graph of exactly `ops` operators from input %v0 (i8) to an i8 output. */
static void
gen_graph(struct gen *g, uint32_t ops, uint32_t seed, const int8_t *input)
{
   memset(g, 0, sizeof(*g));
   g->rng = seed;
   g->zp8 = ref_vec(REF_DTYPE_I8, 0);
   g->zp32 = ref_vec(REF_DTYPE_I32, 0);
   g->shift0 = ref_vec(REF_DTYPE_I8, 0);
   g->mul_one = ref_vec(REF_DTYPE_I32, 1 << 30);
   g->sh_one = ref_vec(REF_DTYPE_I8, 30);
   g->sh_down = ref_vec(REF_DTYPE_I8, 36);
   dgu_put(&g->decl, "%s",
       DGU_PRELUDE
       "OpDecorate %in_var DescriptorSet 0\n"
       "OpDecorate %in_var Binding 0\n"
       "OpDecorate %out_var DescriptorSet 0\n"
       "OpDecorate %out_var Binding 1\n"
       DGU_TYPES
       "%s_x = OpConstantComposite %arr_4 %uint_1 %uint_4 %uint_4 %uint_4\n"
       "%s_w = OpConstantComposite %arr_4 %uint_4 %uint_3 %uint_3 %uint_4\n"
       "%s_1 = OpConstantComposite %arr_1 %uint_1\n"
       "%s_2 = OpConstantComposite %arr_1 %uint_2\n"
       "%s_4 = OpConstantComposite %arr_1 %uint_4\n"
       "%t_i8 = OpTypeTensorARM %uchar %uint_4 %s_x\n"
       "%t_i32 = OpTypeTensorARM %uint %uint_4 %s_x\n"
       "%t_w = OpTypeTensorARM %uchar %uint_4 %s_w\n"
       "%t_i8_1 = OpTypeTensorARM %uchar %uint_1 %s_1\n"
       "%t_i32_1 = OpTypeTensorARM %uint %uint_1 %s_1\n"
       "%t_i32_2 = OpTypeTensorARM %uint %uint_1 %s_2\n"
       "%t_i8_4 = OpTypeTensorARM %uchar %uint_1 %s_4\n"
       "%t_i32_4 = OpTypeTensorARM %uint %uint_1 %s_4\n"
       "%p_x = OpTypePointer UniformConstant %t_i8\n"
       "%in_var = OpVariable %p_x UniformConstant\n"
       "%out_var = OpVariable %p_x UniformConstant\n"
       "%zp8 = OpConstantNull %t_i8_1\n"
       "%zp32 = OpConstantNull %t_i32_1\n"
       "%shift0 = OpConstantNull %t_i8_1\n"
       "%pad1 = OpConstantCompositeReplicateEXT %t_i32_4 %uint_1\n"
       "%ones = OpConstantCompositeReplicateEXT %t_i32_2 %uint_1\n"
       "%acc_int32 = OpConstant %uint 1\n"
       "%single_round = OpConstant %uint 1\n"
       "%lo = OpConstant %uchar 156\n"
       "%hi = OpConstant %uchar 100\n"
       "%m30 = OpConstant %uint 1073741824\n"
       "%k30 = OpConstant %uchar 30\n"
       "%k36 = OpConstant %uchar 36\n"
       "%mul_one = OpConstantComposite %t_i32_1 %m30\n"
       "%sh_one = OpConstantComposite %t_i8_1 %k30\n"
       "%sh_down = OpConstantComposite %t_i8_1 %k36\n");
   uint32_t cur = new_value(g, true);
   memcpy(g->vals[cur]->data, input, ELEMS);
   dgu_put(&g->body, "%%v%u = OpGraphInputARM %%t_i8 %%uint_0\n", cur);
   /* Every kind early, then a random mix. */
   static const enum group start[] = {GROUP_CONV, GROUP_RESIDUAL, GROUP_ADD_CONST, GROUP_CLAMP};
   uint32_t n = 0;
   while (g->ops < ops) {
      enum group kind = n < 4 ? start[n] : (enum group)rnd(g, GROUP_COUNT);
      n++;
      if (group_ops[kind] > ops - g->ops)
         kind = GROUP_CLAMP;
      cur = group(g, kind, cur);
   }
   dgu_put(&g->body, "OpGraphSetOutputARM %%v%u %%uint_0\nOpGraphEndARM\n", cur);
}

static void
gen_finish(struct gen *g)
{
   for (uint32_t i = 0; i < g->val_count; i++)
      ref_tensor_destroy(g->vals[i]);
   for (uint32_t i = 0; i < g->const_count; i++)
      ref_tensor_destroy(g->consts[i].t);
   struct ref_tensor *m[] = {g->zp8, g->zp32, g->shift0, g->mul_one, g->sh_one, g->sh_down};
   for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
      ref_tensor_destroy(m[i]);
   free(g->decl.s);
   free(g->body.s);
}

/* ---- pipelines with more graph constants than dgutil carries --------------------------------- */

static VkResult
create_graph(struct dgu *u, const char *text, const struct dgu_binding *bindings,
             uint32_t binding_count, const struct gen *gen, struct dgu_graph *g)
{
   /* The layouts, module and resource infos from dgutil (no constants there). */
   struct dgu_pipeline_desc desc = {
      .text = text,
      .bindings = bindings,
      .binding_count = binding_count,
      .create_pnext = NULL,
   };
   memset(g, 0, sizeof(*g));
   g->result = VK_ERROR_UNKNOWN;
   uint32_t n = gen ? gen->const_count : 0;
   VkDataGraphPipelineConstantARM *consts = calloc(n + 1, sizeof(*consts));
   VkTensorDescriptionARM *descs = calloc(n + 1, sizeof(*descs));
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!ok(consts && descs && parts, "out of memory"))
      goto out;
   /* dgu_graph_create() with a text that fails would leave the layouts; do
    * its steps here instead. */
   VkDescriptorSetLayoutBinding b[DGU_MAX_BINDINGS];
   for (uint32_t i = 0; i < binding_count; i++)
      b[i] = (VkDescriptorSetLayoutBinding){bindings[i].binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM,
                                            bindings[i].count, VK_SHADER_STAGE_ALL, NULL};
   VkDescriptorSetLayoutCreateInfo sli = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = binding_count,
      .pBindings = b,
   };
   g->set_count = 1;
   VkResult r = vkCreateDescriptorSetLayout(u->device, &sli, NULL, &g->set_layouts[0]);
   if (!ok(r == VK_SUCCESS, "vkCreateDescriptorSetLayout: %d", r))
      goto out;
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = g->set_layouts};
   r = vkCreatePipelineLayout(u->device, &plci, NULL, &g->layout);
   if (!ok(r == VK_SUCCESS, "vkCreatePipelineLayout: %d", r))
      goto out;
   size_t count = 0;
   uint32_t *words = dgu_assemble(text, &count);
   if (!words)
      goto out;
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = count * 4,
                                   .pCode = words};
   r = vkCreateShaderModule(u->device, &mci, NULL, &g->module);
   free(words);
   if (!ok(r == VK_SUCCESS, "vkCreateShaderModule: %d", r))
      goto out;
   dgu_create_parts(&desc, g, parts);
   for (uint32_t i = 0; i < n; i++) {
      const struct gconst *c = &gen->consts[i];
      descs[i] = dgu_description(c->format, c->rank, c->dims);
      descs[i].usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM;
      consts[i] = (VkDataGraphPipelineConstantARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
         .pNext = &descs[i],
         .id = c->id,
         .pConstantData = c->t->data,
      };
   }
   parts->module_info.constantCount = n;
   parts->module_info.pConstants = n ? consts : NULL;
   g->result = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                                 &parts->info, NULL, &g->pipeline);
out:
   free(consts);
   free(descs);
   free(parts);
   return g->result;
}

/* Runs a created graph on one i8 [1,4,4,4] input; the output into out. */
static bool
run_graph(struct dgu *u, struct dgu_graph *g, const int8_t *input, int8_t *out_data)
{
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[4] = {1, DIM, DIM, DIM};
   bool done = false;
   if (dgu_session_create(u, g->pipeline, &s) && dgu_sets_create(u, g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, dims, &out)) {
      memcpy(in.data, input, ELEMS);
      memset(out.data, 0x5a, ELEMS);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      done = dgu_run(u, g, &sets, s.session);
      memcpy(out_data, out.data, ELEMS);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   return done;
}

static uint32_t
storage_limit(const struct dgu *u)
{
   uint32_t limit = u->limits.maxPerStageDescriptorStorageBuffers;
   const char *env = getenv("VMEL_GRAPH_MAX_STORAGE_BUFFERS");
   if (env && *env && (uint32_t)strtoul(env, NULL, 0) < limit)
      limit = (uint32_t)strtoul(env, NULL, 0);
   return limit;
}

static void
test_generated(struct dgu *u, uint32_t ops)
{
   char ctx[64];
   snprintf(ctx, sizeof(ctx), "%u operators", ops);
   test_set_context(ctx);
   int8_t input[ELEMS], got[ELEMS];
   uint32_t seed = 777u + ops;
   for (int i = 0; i < ELEMS; i++) {
      seed = seed * 1103515245u + 12345u;
      input[i] = (int8_t)(seed >> 16);
   }
   static struct gen gen;
   gen_graph(&gen, ops, 2024u + ops, input);
   ok(gen.ops == ops, "%u operators generated", gen.ops);
   /* Intermediates (all values but the input and output) and constants: one
    * binding each in the old single internal set. */
   uint32_t internal = gen.val_count - 2 + gen.const_count;
   /* More than lavapipe's 32 storage buffers per stage, the limit the old layout broke (a
    * device with a larger limit runs the same graph: .lowered tests a small limit there). */
   if (ops >= 100)
      ok(internal > 32, "%u intermediates and graph constants > 32 (this device's "
         "maxPerStageDescriptorStorageBuffers: %u)",
         internal, u->limits.maxPerStageDescriptorStorageBuffers);
   size_t len = gen.decl.n + gen.body.n + 256;
   char *text = malloc(len);
   snprintf(text, len, "%s%%gt = OpTypeGraphARM 1 %%t_i8 %%t_i8\n"
            "OpGraphEntryPointARM %%g \"main\" %%in_var %%out_var\n%%g = OpGraphARM %%gt\n%s",
            gen.decl.s, gen.body.s);
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, DIM, DIM, DIM}},
      {0, 1, 1, VK_FORMAT_R8_SINT, 4, {1, DIM, DIM, DIM}},
   };
   struct dgu_graph g;
   VkResult r = create_graph(u, text, bindings, 2, &gen, &g);
   if (ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM (%u values, %u graph constants): %d",
          gen.val_count, gen.const_count, r) &&
       !gen.failed && run_graph(u, &g, input, got))
      dgu_check_bytes("output", got, gen.vals[gen.val_count - 1]->data, ELEMS);
   dgu_graph_destroy(u, &g);
   free(text);
   gen_finish(&gen);
}

/* ---- the limit at its edge ------------------------------------------------------------------ */

/* The edge graphs' interface: in (binding 0, an array of `count`) and out (binding 1), tensors
 * of i8 [1,64], and CLAMP's bounds. */
#define EDGE_HEAD                                                                                  \
   DGU_PRELUDE                                                                                     \
   "OpDecorate %in_var DescriptorSet 0\n"                                                          \
   "OpDecorate %in_var Binding 0\n"                                                                \
   "OpDecorate %out_var DescriptorSet 0\n"                                                         \
   "OpDecorate %out_var Binding 1\n" DGU_TYPES "%uint_64 = OpConstant %uint 64\n"                  \
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_64\n"                                        \
   "%t = OpTypeTensorARM %uchar %uint_2 %shape\n"                                                  \
   "%ptr = OpTypePointer UniformConstant %t\n"                                                     \
   "%in_var = OpVariable %ptr UniformConstant\n"                                                   \
   "%out_var = OpVariable %ptr UniformConstant\n"                                                  \
   "%lo = OpConstant %uchar 246\n" /* -10 */                                                       \
   "%hi = OpConstant %uchar 20\n"                                                                  \
   "%lo2 = OpConstant %uchar 0\n"                                                                  \
   "%gt = OpTypeGraphARM 1 %t %t\n"                                                                \
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"                                          \
   "%g = OpGraphARM %gt\n"                                                                         \
   "%in = OpGraphInputARM %t %uint_0\n"
#define EDGE_TAIL                                                                                  \
   "OpGraphSetOutputARM %out %uint_0\n"                                                            \
   "OpGraphEndARM\n"

/* in -> CLAMP -> t -> CLAMP -> out: the kernels bind the one intermediate t, so the internal
 * set has one binding. */
static const char edge_text[] = EDGE_HEAD
   "%mid = OpExtInst %t %tosa CLAMP %lo %hi %propagate %in\n"
   "%out = OpExtInst %t %tosa CLAMP %lo2 %hi %propagate %mid\n" EDGE_TAIL;

/* The same without the intermediate: no internal set at all. */
static const char edge_direct_text[] = EDGE_HEAD
   "%out = OpExtInst %t %tosa CLAMP %lo2 %hi %propagate %in\n" EDGE_TAIL;

/* Creates a graph whose input binding holds `array` tensors (and the output
 * one): the application's layout has array + 1 storage buffers below the
 * tensor layer. Runs it when created, checking clamp(clamp(x)). */
static VkResult
edge_case(struct dgu *u, const char *text, uint32_t array, bool expect_ok, const char **log)
{
   struct dgu_binding bindings[] = {
      {0, 0, array, VK_FORMAT_R8_SINT, 2, {1, 64}},
      {0, 1, 1, VK_FORMAT_R8_SINT, 2, {1, 64}},
   };
   struct dgu_graph g;
   vku_capture_stderr_begin();
   VkResult r = create_graph(u, text, bindings, 2, NULL, &g);
   *log = vku_capture_stderr_end();
   ok((r == VK_SUCCESS) == expect_ok && (expect_ok || g.pipeline == VK_NULL_HANDLE),
      "%u + 1 application tensors: vkCreateDataGraphPipelinesARM %d", array, r);
   if (r == VK_SUCCESS) {
      struct dgu_session s;
      struct dgu_sets sets;
      struct dgu_tensor in = {0}, out = {0};
      int64_t dims[2] = {1, 64};
      if (dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
          dgu_tensor_create(u, VK_FORMAT_R8_SINT, 2, dims, &in) &&
          dgu_tensor_create(u, VK_FORMAT_R8_SINT, 2, dims, &out)) {
         int8_t *x = in.data, want[64];
         for (int i = 0; i < 64; i++) {
            x[i] = (int8_t)(i * 5 - 160);
            int v = x[i] < -10 ? -10 : x[i] > 20 ? 20 : x[i];
            want[i] = (int8_t)(v < 0 ? 0 : v);
         }
         /* Every element of the input array must be valid: the kernels'
          * layout declares all of them. */
         for (uint32_t e = 0; e < array; e++)
            dgu_write(u, sets.sets[0], 0, e, &in);
         dgu_write(u, sets.sets[0], 1, 0, &out);
         if (dgu_run(u, &g, &sets, s.session))
            dgu_check_bytes("clamped", out.data, want, 64);
      }
      dgu_tensor_destroy(u, &in);
      dgu_tensor_destroy(u, &out);
      dgu_sets_destroy(u, &sets);
      dgu_session_destroy(u, &s);
   }
   dgu_graph_destroy(u, &g);
   return r;
}

static void
test_edge(struct dgu *u)
{
   test_set_context("limit edge");
   uint32_t limit = storage_limit(u);
   const char *log;
   /* app (limit - 2 + 1) + internal 1 == limit: fits. */
   edge_case(u, edge_text, limit - 2, true, &log);
   /* app limit - 1 + 1 == limit: no room for the internal set. */
   edge_case(u, edge_text, limit - 1, false, &log);
   char want[128];
   snprintf(want, sizeof(want), "maxPerStageDescriptorStorageBuffers = %u", limit);
   ok(strstr(log, want) && strstr(log, "storage buffers for the compute stage"),
      "the refusal names the limit (\"%s\")", want);
   /* No intermediate, no internal set: the same application layout fits. */
   edge_case(u, edge_direct_text, limit - 1, true, &log);
}

int
main(int argc, char **argv)
{
   struct dgu u;
   struct dgu_options options = {0};
   if (dgu_init(&u, &options)) {
      if (argc > 1) {
         /* A graph of that many operators, for trying sizes by hand. */
         test_generated(&u, (uint32_t)strtoul(argv[1], NULL, 0));
      } else {
         test_generated(&u, 10);
         test_generated(&u, 100);
         test_generated(&u, 500);
         test_edge(&u);
      }
   }
   dgu_finish(&u);
   return test_done();
}
