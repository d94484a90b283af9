/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's elementwise graphs (bench_graph.h): one operator each on
 * [64, elements / 64] tensors (--elements, default 64M), memory-bound, so
 * bench_graph.c reports their bandwidth against a buffer copy of as many
 * bytes:
 *   add_fp32        ADD fp32 + fp32 -> fp32;
 *   mul_fp16        MUL fp16 x fp16 -> fp16 (shift 0);
 *   table_i8        TABLE i8 -> i8, the 256-entry table a graph constant;
 *   cast_fp32_fp16  CAST fp32 -> fp16.
 * TABLE and CAST are optional: a graph layer without them skips the graph.
 * Checks: bit-exact against the CPU reference (tests/reference/tosa_ref.h)
 * for ADD and MUL, whose inputs make every result exact in fp32 before the
 * one rounding; TABLE and CAST against their definitions, computed here
 * (out = table[in + 128]; fp32 -> fp16 round to nearest even).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6577) /* "bench-ew" */
#define EW_ROWS 64

/* One scalar type of a graph: its SPIR-V id, declaration and capability. */
struct ew_elem {
   const char *id, *decl, *cap;
   enum ref_dtype dtype;
};

static const struct ew_elem ew_f32 = {"f32", "OpTypeFloat 32", NULL, REF_DTYPE_FP32};
static const struct ew_elem ew_f16 = {"f16", "OpTypeFloat 16", "Float16", REF_DTYPE_FP16};
static const struct ew_elem ew_i8 = {"i8", "OpTypeInt 8 0", "Int8", REF_DTYPE_I8};

/* What one graph is: its inputs and output ([64, cols] each), the operator's instruction
 * (operands after the result type and %tosa; inputs are %x0, %x1), and declarations the
 * instruction needs (after the types). */
struct ew_graph {
   const struct ew_elem *in[BENCH_MAX_INPUTS], *out;
   uint32_t inputs;
   const char *decls;
   const char *op;
};

static bool
ew_uses(const struct ew_graph *e, const struct ew_elem *x)
{
   bool used = e->out == x;
   for (uint32_t i = 0; i < e->inputs; i++)
      used |= e->in[i] == x;
   return used;
}

static void
ew_text(struct bench_text *t, const struct ew_graph *e, int64_t cols, bool need_i8)
{
   const struct ew_elem *elems[] = {&ew_f32, &ew_f16, &ew_i8};
   bench_text_printf(t, "OpCapability Shader\nOpCapability VulkanMemoryModel\n");
   for (size_t i = 0; i < 3; i++)
      if (elems[i]->cap && (ew_uses(e, elems[i]) || (elems[i] == &ew_i8 && need_i8)))
         bench_text_printf(t, "OpCapability %s\n", elems[i]->cap);
   bench_text_printf(t, "OpCapability TensorsARM\n"
                        "OpCapability GraphARM\n"
                        "OpExtension \"SPV_ARM_tensors\"\n"
                        "OpExtension \"SPV_ARM_graph\"\n"
                        "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                        "OpMemoryModel Logical Vulkan\n");
   for (uint32_t i = 0; i <= e->inputs; i++)
      bench_text_printf(t,
                        "OpDecorate %%v%u DescriptorSet 0\n"
                        "OpDecorate %%v%u Binding %u\n",
                        i, i, i);
   bench_text_printf(t,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%u0 = OpConstant %%uint 0\n"
                     "%%u1 = OpConstant %%uint 1\n"
                     "%%u2 = OpConstant %%uint 2\n"
                     "%%u256 = OpConstant %%uint 256\n"
                     "%%rows = OpConstant %%uint %u\n"
                     "%%cols = OpConstant %%uint %" PRId64 "\n"
                     "%%dim1 = OpTypeArray %%uint %%u1\n"
                     "%%dim2 = OpTypeArray %%uint %%u2\n"
                     "%%shape = OpConstantComposite %%dim2 %%rows %%cols\n"
                     "%%shape_1 = OpConstantComposite %%dim1 %%u1\n"
                     "%%shape_256 = OpConstantComposite %%dim1 %%u256\n",
                     EW_ROWS, cols);
   for (size_t i = 0; i < 3; i++) {
      if (!ew_uses(e, elems[i]) && !(elems[i] == &ew_i8 && need_i8))
         continue;
      const char *x = elems[i]->id;
      bench_text_printf(t,
                        "%%%s = %s\n"
                        "%%t_%s = OpTypeTensorARM %%%s %%u2 %%shape\n"
                        "%%p_%s = OpTypePointer UniformConstant %%t_%s\n",
                        x, elems[i]->decl, x, x, x, x);
   }
   if (e->decls)
      bench_text_printf(t, "%s", e->decls);
   for (uint32_t i = 0; i < e->inputs; i++)
      bench_text_printf(t, "%%v%u = OpVariable %%p_%s UniformConstant\n", i, e->in[i]->id);
   bench_text_printf(t, "%%v%u = OpVariable %%p_%s UniformConstant\n", e->inputs, e->out->id);
   bench_text_printf(t, "%%graph_type = OpTypeGraphARM %u", e->inputs);
   for (uint32_t i = 0; i < e->inputs; i++)
      bench_text_printf(t, " %%t_%s", e->in[i]->id);
   bench_text_printf(t, " %%t_%s\nOpGraphEntryPointARM %%graph \"main\"", e->out->id);
   for (uint32_t i = 0; i <= e->inputs; i++)
      bench_text_printf(t, " %%v%u", i);
   bench_text_printf(t, "\n%%graph = OpGraphARM %%graph_type\n");
   for (uint32_t i = 0; i < e->inputs; i++)
      bench_text_printf(t, "%%x%u = OpGraphInputARM %%t_%s %%u%u\n", i, e->in[i]->id, i);
   bench_text_printf(t,
                     "%%r = OpExtInst %%t_%s %%tosa %s\n"
                     "OpGraphSetOutputARM %%r %%u0\n"
                     "OpGraphEndARM\n",
                     e->out->id, e->op);
}

/* The graph's tensors ([64, elements / 64]) and text; false (g failed) on a bad size. */
static bool
ew_setup(struct bench_graph *g, const struct bench_params *p, const struct ew_graph *e,
         bool need_i8)
{
   if (p->elements <= 0 || p->elements % EW_ROWS || p->elements / EW_ROWS > UINT32_MAX) {
      bench_graph_fail(g, "--elements %" PRId64 " is not a positive multiple of %d", p->elements,
                       EW_ROWS);
      return false;
   }
   const int64_t shape[2] = {EW_ROWS, p->elements / EW_ROWS};
   ew_text(&g->text, e, shape[1], need_i8);
   g->input_count = e->inputs;
   g->bytes = 0;
   for (uint32_t i = 0; i < e->inputs; i++) {
      g->inputs[i] = bench_tensor_new(g, e->in[i]->dtype, 2, shape);
      g->bytes += (double)p->elements * (double)ref_dtype_size(e->in[i]->dtype);
   }
   g->output = bench_tensor_new(g, e->out->dtype, 2, shape);
   g->want = bench_tensor_new(g, e->out->dtype, 2, shape);
   g->bytes += (double)p->elements * (double)ref_dtype_size(e->out->dtype);
   return !g->failed;
}

void
bench_setup_add_fp32(struct bench_graph *g, const struct bench_params *p)
{
   static const struct ew_graph e = {{&ew_f32, &ew_f32}, &ew_f32, 2, NULL, "ADD %x0 %x1"};
   uint64_t rng = SEED ^ 1;
   g->name = "add_fp32";
   g->what = "ADD fp32 [64, N/64] + [64, N/64]";
   g->check = BENCH_CHECK_BITS;
   if (!ew_setup(g, p, &e, false))
      return;
   /* Multiples of 2^-23 in [-1, 1): every sum is exact in fp32. */
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_float(g->inputs[1], &rng, -1.0, 1.0);
   bench_ref_ok(g, tosa_ref_add(g->inputs[0], g->inputs[1], g->want), "ADD");
}

void
bench_setup_mul_fp16(struct bench_graph *g, const struct bench_params *p)
{
   static const struct ew_graph e = {{&ew_f16, &ew_f16},
                                     &ew_f16,
                                     2,
                                     "%i8_0 = OpConstant %i8 0\n"
                                     "%t_i8_1 = OpTypeTensorARM %i8 %u1 %shape_1\n"
                                     "%shift = OpConstantComposite %t_i8_1 %i8_0\n",
                                     "MUL %x0 %x1 %shift"};
   static const int64_t one[1] = {1};
   uint64_t rng = SEED ^ 2;
   g->name = "mul_fp16";
   g->what = "MUL fp16 [64, N/64] x [64, N/64]";
   g->check = BENCH_CHECK_BITS;
   if (!ew_setup(g, p, &e, true))
      return;
   struct ref_tensor *shift = bench_tensor_new(g, REF_DTYPE_I8, 1, one);
   if (g->failed)
      return;
   /* fp16 values in [-2, 2): the fp32 product is exact, then rounded once to fp16. */
   bench_fill_float(g->inputs[0], &rng, -2.0, 2.0);
   bench_fill_float(g->inputs[1], &rng, -2.0, 2.0);
   bench_ref_ok(g, tosa_ref_mul(g->inputs[0], g->inputs[1], shift, g->want), "MUL");
}

void
bench_setup_table_i8(struct bench_graph *g, const struct bench_params *p)
{
   static const struct ew_graph e = {{&ew_i8},
                                     &ew_i8,
                                     1,
                                     "%t_i8_256 = OpTypeTensorARM %i8 %u1 %shape_256\n"
                                     "%table = OpGraphConstantARM %t_i8_256 0\n",
                                     "TABLE %x0 %table"};
   static const int64_t entries[1] = {256};
   uint64_t rng = SEED ^ 3;
   g->name = "table_i8";
   g->what = "TABLE i8 -> i8 [64, N/64], 256-entry table constant";
   g->check = BENCH_CHECK_EXACT;
   g->optional = true;
   if (!ew_setup(g, p, &e, true))
      return;
   struct ref_tensor *table = bench_tensor_new(g, REF_DTYPE_I8, 1, entries);
   if (g->failed)
      return;
   g->bytes += 256;
   bench_fill_int(g->inputs[0], &rng, -128, 127);
   bench_fill_int(table, &rng, -128, 127);
   bench_constant(g, 0, table);
   const int8_t *in = g->inputs[0]->data, *tab = table->data;
   int8_t *want = g->want->data;
   for (int64_t i = 0; i < g->want->count; i++)
      want[i] = tab[in[i] + 128];
}

void
bench_setup_cast_fp32_fp16(struct bench_graph *g, const struct bench_params *p)
{
   static const struct ew_graph e = {{&ew_f32}, &ew_f16, 1, NULL, "CAST %x0"};
   uint64_t rng = SEED ^ 4;
   g->name = "cast_fp32_fp16";
   g->what = "CAST fp32 -> fp16 [64, N/64]";
   g->check = BENCH_CHECK_BITS;
   g->optional = true;
   if (!ew_setup(g, p, &e, false))
      return;
   /* Beyond fp16's range on both sides (+-inf) and down to its subnormals. */
   bench_fill_float(g->inputs[0], &rng, -131072.0, 131072.0);
   const float *in = g->inputs[0]->data;
   uint16_t *want = g->want->data;
   for (int64_t i = 0; i < g->want->count; i++)
      want[i] = ref_fp32_to_fp16(in[i]);
}
