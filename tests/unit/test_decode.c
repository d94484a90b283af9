/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of graph decoding and static validation (graph/dg_decode.c and
 * graph/ops/): valid graphs of every operator of the first slice with their
 * IR (tensors, origins, decoded constants, attributes, wiring), the example
 * modules of tests/data/spirv, specialization constants, one invalid
 * micro-graph per rule (decode/cases_*.c) with its code, message and word
 * offset, allocation failure at every allocation, and thousands of randomly
 * corrupted modules that must be rejected (or accepted) without crashing or
 * leaking. Modules are SPIR-V text assembled by tools/asm (harness.h).
 */
#include <math.h>

#include "decode/harness.h"
#include "dg_decode_private.h"
#include "ops/dg_op.h"
#include "spirv_text.h"

static const struct dg_node *
node(const struct dg_graph *g, uint32_t i)
{
   return &g->nodes[i];
}

/* The tensor feeding input i of node n is the output of node m. */
static bool
wired(const struct dg_graph *g, uint32_t n, uint32_t i, uint32_t m)
{
   return g->node_tensors[g->nodes[n].first_input + i] == g->node_tensors[g->nodes[m].first_output];
}

/* ---- one valid graph per operator ------------------------------------------------------- */

static void
test_elementwise(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase add = {"add f32", "t_f32_1x4 t_f32_1x4", "t_f32_1x4", NULL,
                             "%r = OpExtInst %t_f32_1x4 %tosa ADD %in0 %in1\n"};
   if ((g = h_decode(&add, &b))) {
      check_eq_u64(g->node_count, 1);
      check_str(node(g, 0)->name, "ADD");
      check_eq_u64(node(g, 0)->op, DG_OP_ADD);
      check_eq_u64(node(g, 0)->tosa_inst, TOSA_ADD);
      check_eq_u64(node(g, 0)->input_count, 2);
      check_eq_u64(node(g, 0)->output_count, 1);
      check_eq_u64(dg_node_input(g, node(g, 0), 0)->kind, DG_TENSOR_INPUT);
      check_eq_u64(g->input_count, 2);
      check_eq_u64(g->inputs[1].binding, 1);
      check_eq_u64(g->output_count, 1);
      check_eq_u64(g->outputs[0].set, 1);
      check_eq_u64(g->outputs[0].tensor, g->node_tensors[node(g, 0)->first_output]);
      ok(g->outputs[0].desc && g->outputs[0].desc->dimensionCount == 2, "output description");
      ok(node(g, 0)->offset > 0 && node(g, 0)->result_id > 0, "offset and result id");
      dg_graph_destroy(g);
   }
   h_free(&b);

   const struct dcase cases[] = {
       {"add i32 broadcast", "t_i32_2x1x3 t_i32_1x4x3", "t_i32_2x4x3", NULL,
        "%r = OpExtInst %t_i32_2x4x3 %tosa ADD %in0 %in1\n"},
       {"sub bf16", "t_bf16_3 t_bf16_3", "t_bf16_3", NULL,
        "%r = OpExtInst %t_bf16_3 %tosa SUB %in0 %in1\n"},
       {"sub f16 broadcast both", "t_f16_4x1 t_f16_1x5", "t_f16_4x5", NULL,
        "%r = OpExtInst %t_f16_4x5 %tosa SUB %in0 %in1\n"},
       {"mul i8", "t_i8_2x3 t_i8_2x3", "t_i32_2x3", "%shift = OpConstantNull %t_i8_1\n",
        "%r = OpExtInst %t_i32_2x3 %tosa MUL %in0 %in1 %shift\n"},
       {"mul i16", "t_i16_2x3 t_i16_1x3", "t_i32_2x3", "%shift = OpConstantNull %t_i8_1\n",
        "%r = OpExtInst %t_i32_2x3 %tosa MUL %in0 %in1 %shift\n"},
       {"mul f32", "t_f32_2 t_f32_2", "t_f32_2", "%shift = OpConstantNull %t_i8_1\n",
        "%r = OpExtInst %t_f32_2 %tosa MUL %in0 %in1 %shift\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));

   const struct dcase mul = {"mul i32 shift", "t_i32_4 t_i32_4", "t_i32_4",
                             "%shift = OpConstantComposite %t_i8_1 %i8_63\n",
                             "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %shift\n"};
   if ((g = h_decode(&mul, &b))) {
      check_eq_u64(node(g, 0)->attrs.mul.shift, 63);
      dg_graph_destroy(g);
   }
   h_free(&b);
}

static void
test_clamp(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase i8 = {"clamp i8", "t_i8_1x4", "t_i8_1x4", NULL,
                            "%r = OpExtInst %t_i8_1x4 %tosa CLAMP %i8_m10 %i8_10 %i32_1 %in0\n"};
   if ((g = h_decode(&i8, &b))) {
      const struct dg_attrs_clamp *a = &node(g, 0)->attrs.clamp;
      /* Integer bounds sign-extended to 32 bits (the kernel's specialization constants). */
      check_eq_i64((int32_t)a->min_val, -10);
      check_eq_i64((int32_t)a->max_val, 10);
      check_eq_u64(a->nan_mode, TOSA_NAN_MODE_PROPAGATE);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase bf16 = {
       "clamp bf16", "t_bf16_8", "t_bf16_8", NULL,
       "%r = OpExtInst %t_bf16_8 %tosa CLAMP %bf16_m2p5 %bf16_6 %i32_2 %in0\n"};
   if ((g = h_decode(&bf16, &b))) {
      const struct dg_attrs_clamp *a = &node(g, 0)->attrs.clamp;
      /* Float bounds as the fp32 bits of their value: -2.5f and 6.0f. */
      check_eq_u64(a->min_val, 0xc0200000u);
      check_eq_u64(a->max_val, 0x40c00000u);
      check_eq_u64(a->nan_mode, TOSA_NAN_MODE_IGNORE);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase cases[] = {
       {"clamp i16", "t_i16_3x3", "t_i16_3x3", NULL,
        "%r = OpExtInst %t_i16_3x3 %tosa CLAMP %i16_m300 %i16_300 %i32_1 %in0\n"},
       {"clamp f16 equal limits", "t_f16_2", "t_f16_2", NULL,
        "%r = OpExtInst %t_f16_2 %tosa CLAMP %f16_1 %f16_1 %i32_1 %in0\n"},
       {"clamp f32", "t_f32_2x2x2", "t_f32_2x2x2", NULL,
        "%r = OpExtInst %t_f32_2x2x2 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_data_layout(void)
{
   struct built b;
   struct dg_graph *g;
   /* An fp8 module constant through RESHAPE: 1.0 is 0x38 and -2.0 0xc0 in E4M3. */
   const struct dcase fp8 = {"reshape fp8 constant", "t_e4m3_2", "t_e4m3_2x1",
                             "%c = OpConstantComposite %t_e4m3_2 %e4m3_1 %e4m3_m2\n"
                             "%shape = OpConstantComposite %t_i32_2 %i32_2 %i32_1\n",
                             "%r = OpExtInst %t_e4m3_2x1 %tosa RESHAPE %c %shape\n"};
   if ((g = h_decode(&fp8, &b))) {
      const struct dg_tensor *c = dg_node_input(g, node(g, 0), 0);
      check_eq_u64(c->kind, DG_TENSOR_CONSTANT);
      check_eq_u64(c->constant.size, 2);
      ok(c->constant.data[0] == 0x38 && c->constant.data[1] == 0xc0, "fp8 bytes %02x %02x",
         c->constant.data[0], c->constant.data[1]);
      dg_graph_destroy(g);
   }
   h_free(&b);

   /* Rank-2 composites of rank-1 composites, and replicated splats. */
   const struct dcase cat = {"concat i8 constants", "t_i8_2x3", "t_i8_2x9",
                             "%row = OpConstantComposite %t_i8_3 %i8_1 %i8_2 %i8_m3\n"
                             "%m = OpConstantComposite %t_i8_2x3 %row %row\n"
                             "%rep = OpConstantCompositeReplicateEXT %t_i8_2x3 %i8_7\n",
                             "%r = OpExtInst %t_i8_2x9 %tosa CONCAT %i32_1 %in0 %m %rep\n"};
   if ((g = h_decode(&cat, &b))) {
      const struct dg_node *n = node(g, 0);
      check_eq_u64(n->input_count, 3);
      check_eq_u64(n->attrs.concat.axis, 1);
      const struct dg_tensor *m = dg_node_input(g, n, 1), *rep = dg_node_input(g, n, 2);
      static const uint8_t want[6] = {1, 2, 0xfd, 1, 2, 0xfd};
      ok(m->kind == DG_TENSOR_CONSTANT && m->constant.size == 6 &&
             memcmp(m->constant.data, want, 6) == 0,
         "nested composite bytes");
      ok(rep->constant.size == 6 && rep->constant.data[0] == 7 && rep->constant.data[5] == 7,
         "replicated splat bytes");
      dg_graph_destroy(g);
   }
   h_free(&b);

   const struct dcase bf = {"add bf16 replicate of a slice", "t_bf16_2x2", "t_bf16_2x2",
                            "%row = OpConstantCompositeReplicateEXT %t_bf16_2 %bf16_1p5\n"
                            "%c = OpConstantCompositeReplicateEXT %t_bf16_2x2 %row\n",
                            "%r = OpExtInst %t_bf16_2x2 %tosa ADD %in0 %c\n"};
   if ((g = h_decode(&bf, &b))) {
      const struct dg_tensor *c = dg_node_input(g, node(g, 0), 1);
      ok(c->constant.size == 8 && dg_elem_bits(DG_TYPE_BF16, c->constant.data, 3) == 0x3fc0,
         "bf16 1.5 replicated");
      dg_graph_destroy(g);
   }
   h_free(&b);

   const struct dcase cases[] = {
       {"reshape i32", "t_i32_2x3x4", "t_i32_6x4",
        "%shape = OpConstantComposite %t_i32_2 %i32_6 %i32_4\n",
        "%r = OpExtInst %t_i32_6x4 %tosa RESHAPE %in0 %shape\n"},
       {"reshape bool", "t_bool_8", "t_bool_2x2x2",
        "%shape = OpConstantComposite %t_i32_3 %i32_2 %i32_2 %i32_2\n",
        "%r = OpExtInst %t_bool_2x2x2 %tosa RESHAPE %in0 %shape\n"},
       {"concat f32 axis 0", "t_f32_1x4 t_f32_2x4", "t_f32_3x4", NULL,
        "%r = OpExtInst %t_f32_3x4 %tosa CONCAT %i32_0 %in0 %in1\n"},
       {"concat one input", "t_i16_5", "t_i16_5", NULL,
        "%r = OpExtInst %t_i16_5 %tosa CONCAT %i32_0 %in0\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_pool(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase pad = {
       "max_pool2d padded", "t_f32_1x5x5x2", "t_f32_1x3x3x2",
       "%k = OpConstantCompositeReplicateEXT %t_i32_2 %i32_3\n"
       "%s = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n"
       "%p = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n",
       "%r = OpExtInst %t_f32_1x3x3x2 %tosa MAX_POOL2D %k %s %p %i32_2 %in0\n"};
   if ((g = h_decode(&pad, &b))) {
      const struct dg_attrs_max_pool2d *a = &node(g, 0)->attrs.max_pool2d;
      ok(a->kernel_y == 3 && a->stride_x == 2 && a->pad_right == 1 && a->nan_mode == 2,
         "pool attributes");
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase cases[] = {
       {"max_pool2d i8", "t_i8_1x4x4x3", "t_i8_1x2x2x3",
        "%k = OpConstantComposite %t_i32_2 %i32_2 %i32_2\n%p = OpConstantNull %t_i32_4\n",
        "%r = OpExtInst %t_i8_1x2x2x3 %tosa MAX_POOL2D %k %k %p %i32_1 %in0\n"},
       {"max_pool2d fp8 asymmetric", "t_e5m2_2x6x4x1", "t_e5m2_2x2x3x1",
        "%k = OpConstantComposite %t_i32_2 %i32_3 %i32_2\n"
        "%s = OpConstantComposite %t_i32_2 %i32_3 %i32_1\n%p = OpConstantNull %t_i32_4\n",
        "%r = OpExtInst %t_e5m2_2x2x3x1 %tosa MAX_POOL2D %k %s %p %i32_1 %in0\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_conv(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase i8 = {
       "conv2d i8", "t_i8_1x8x8x4", "t_i32_1x6x6x8",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_8x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_8 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x8 %tosa CONV2D %pad %one %one %i32_1 %true %in0 %w %bias %izp "
       "%wzp\n"};
   if ((g = h_decode(&i8, &b))) {
      const struct dg_node *n = node(g, 0);
      const struct dg_attrs_conv2d *a = &n->attrs.conv2d;
      check_eq_i64(a->input_zp, -128);
      check_eq_i64(a->weight_zp, 3);
      check_eq_u64(a->acc_type, TOSA_ACC_TYPE_INT32);
      ok(a->local_bound && a->stride_y == 1 && a->dilation_x == 1, "conv attributes");
      check_eq_u64(n->input_count, 3);
      const struct dg_tensor *w = dg_node_input(g, n, 1), *bias = dg_node_input(g, n, 2);
      check_eq_u64(w->kind, DG_TENSOR_GRAPH_CONSTANT);
      check_eq_u64(w->graph_constant.constant_id, 0);
      ok(w->graph_constant.data == b.const_data[0], "weight data is the application's");
      check_eq_u64(bias->graph_constant.constant_id, 1);
      check_eq_u64(w->ty.shape.dim[0], 8);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const char *pads = "%pad = OpConstantNull %t_i32_4\n"
                      "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n";
   const struct dcase cases[] = {
       {"conv2d f16 acc fp32", "t_f16_1x4x4x2", "t_f16_1x2x2x3",
        "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
        "%w = OpGraphConstantARM %t_f16_3x3x3x2 0\n%bias = OpConstantNull %t_f16_1\n"
        "%zp = OpConstantNull %t_f16_1\n",
        "%r = OpExtInst %t_f16_1x2x2x3 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
        "%zp %zp\n"},
       {"conv2d i16 acc int48", "t_i16_1x3x3x1", "t_i48_1x1x1x2",
        "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
        "%w = OpGraphConstantARM %t_i8_2x3x3x1 0\n%bias = OpConstantNull %t_i48_2\n"
        "%izp = OpConstantNull %t_i16_1\n%wzp = OpConstantNull %t_i8_1\n",
        "%r = OpExtInst %t_i48_1x1x1x2 %tosa CONV2D %pad %one %one %i32_4 %false %in0 %w %bias "
        "%izp %wzp\n"},
       /* OH = (10 - 1 + 1 + 2 - (3 - 1) * 2) / 2 + 1 = 5, OW = (7 - 1 - (3 - 1) * 3) / 1 + 1 = 1 */
       {"conv2d bf16 dilated strided padded", "t_bf16_1x10x7x2", "t_bf16_1x5x1x1",
        "%pad = OpConstantComposite %t_i32_4 %i32_1 %i32_2 %i32_0 %i32_0\n"
        "%stride = OpConstantComposite %t_i32_2 %i32_2 %i32_1\n"
        "%dil = OpConstantComposite %t_i32_2 %i32_2 %i32_3\n"
        "%w = OpGraphConstantARM %t_bf16_1x3x3x2 0\n%bias = OpGraphConstantARM %t_bf16_1 1\n"
        "%zp = OpConstantNull %t_bf16_1\n",
        "%r = OpExtInst %t_bf16_1x5x1x1 %tosa CONV2D %pad %stride %dil %i32_3 %false %in0 %w "
        "%bias %zp %zp\n"},
       {"conv2d fp8 strided weights", "t_e4m3_1x3x3x2", "t_f16_1x1x1x2", NULL,
        "%r = OpExtInst %t_f16_1x1x1x2 %tosa CONV2D %pad %one %one %i32_2 %false %in0 %w %bias "
        "%zp %zp\n",
        .mutate = M_GC_STRIDED},
   };
   struct dcase fp8 = cases[3];
   char decls[512];
   snprintf(decls, sizeof(decls),
            "%s%%w = OpGraphConstantARM %%t_e4m3_2x3x3x2 0\n%%bias = OpConstantNull %%t_f16_2\n"
            "%%zp = OpConstantNull %%t_e4m3_1\n",
            pads);
   fp8.decls = decls;
   h_run_all(cases, 3);
   h_run(&fp8);
}

static void
test_matmul(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase i8 = {"matmul i8 zero points", "t_i8_2x3x4 t_i8_2x4x5", "t_i32_2x3x5",
                            "%az = OpConstantComposite %t_i8_1 %i8_m1\n"
                            "%bz = OpConstantComposite %t_i8_1 %i8_127\n",
                            "%r = OpExtInst %t_i32_2x3x5 %tosa MATMUL %in0 %in1 %az %bz\n"};
   if ((g = h_decode(&i8, &b))) {
      check_eq_i64(node(g, 0)->attrs.matmul.a_zp, -1);
      check_eq_i64(node(g, 0)->attrs.matmul.b_zp, 127);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase cases[] = {
       {"matmul bf16 to f32", "t_bf16_1x2x2 t_bf16_1x2x2", "t_f32_1x2x2",
        "%z = OpConstantNull %t_bf16_1\n",
        "%r = OpExtInst %t_f32_1x2x2 %tosa MATMUL %in0 %in1 %z %z\n"},
       {"matmul i16 to i48", "t_i16_1x2x3 t_i16_1x3x1", "t_i48_1x2x1",
        "%z = OpConstantNull %t_i16_1\n",
        "%r = OpExtInst %t_i48_1x2x1 %tosa MATMUL %in0 %in1 %z %z\n"},
       {"matmul f16 to f16, negative zero points", "t_f16_1x1x1 t_f16_1x1x1", "t_f16_1x1x1",
        "%z = OpConstantComposite %t_f16_1 %f16_m0\n",
        "%r = OpExtInst %t_f16_1x1x1 %tosa MATMUL %in0 %in1 %z %z\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_rescale(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase pc = {
       "rescale i32 to i8 per channel",
       "t_i32_1x2x4",
       "t_i8_1x2x4",
       "%m = OpGraphConstantARM %t_i32_4 0\n%s = OpGraphConstantARM %t_i8_4 1\n"
       "%izp = OpConstantNull %t_i32_1\n%ozp = OpConstantComposite %t_i8_1 %i8_m5\n",
       "%r = OpExtInst %t_i8_1x2x4 %tosa RESCALE %true %i32_3 %true %false %false %in0 %m %s "
       "%izp %ozp\n",
       .fill = "0=1073741824 1=30"};
   if ((g = h_decode(&pc, &b))) {
      const struct dg_attrs_rescale *a = &node(g, 0)->attrs.rescale;
      const struct dg_node_scales *sc = &node(g, 0)->scales;
      check_eq_u64(sc->channels, 4);
      ok(a->scale32 && a->per_channel && !a->input_unsigned, "flags");
      check_eq_u64(a->rounding_mode, TOSA_ROUNDING_DOUBLE_ROUND);
      ok(sc->multiplier[3] == 1 << 30 && sc->shift[3] == 30, "scales %d %d", sc->multiplier[3],
         sc->shift[3]);
      check_eq_i64(a->output_zp, -5);
      check_eq_u64(node(g, 0)->input_count, 1);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase u8 = {
       "rescale u8 to i8", "t_i8_8", "t_i8_8",
       "%m = OpConstantComposite %t_i32_1 %i32_1073741824\n%s = OpConstantComposite %t_i8_1 "
       "%i8_30\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_128\n%ozp = OpConstantNull %t_i8_1\n",
       "%r = OpExtInst %t_i8_8 %tosa RESCALE %true %i32_1 %false %true %false %in0 %m %s %izp "
       "%ozp\n"};
   if ((g = h_decode(&u8, &b))) {
      check_eq_i64(node(g, 0)->attrs.rescale.input_zp, 128);
      check_eq_u64(node(g, 0)->scales.channels, 1);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase cases[] = {
       {"rescale i8 to u16 zero point 32768", "t_i8_4", "t_i16_4",
        "%m = OpConstantComposite %t_i32_1 %i32_16384\n%s = OpConstantComposite %t_i8_1 %i8_14\n"
        "%izp = OpConstantNull %t_i8_1\n%ozp = OpConstantComposite %t_i16_1 %i16_32768\n",
        "%r = OpExtInst %t_i16_4 %tosa RESCALE %false %i32_1 %false %false %true %in0 %m %s %izp "
        "%ozp\n"},
       {"rescale i16 multiplier scale16", "t_i16_2x3", "t_i8_2x3",
        "%m = OpConstantCompositeReplicateEXT %t_i16_3 %i16_16384\n"
        "%s = OpConstantCompositeReplicateEXT %t_i8_3 %i8_14\n"
        "%izp = OpConstantNull %t_i16_1\n%ozp = OpConstantNull %t_i8_1\n",
        "%r = OpExtInst %t_i8_2x3 %tosa RESCALE %false %i32_2 %true %false %false %in0 %m %s %izp "
        "%ozp\n"},
       {"rescale i48 to i32", "t_i48_5", "t_i32_5",
        "%m = OpConstantComposite %t_i32_1 %i32_16384\n%s = OpConstantComposite %t_i8_1 %i8_20\n"
        "%izp = OpConstantNull %t_i48_1\n%ozp = OpConstantNull %t_i32_1\n",
        "%r = OpExtInst %t_i32_5 %tosa RESCALE %false %i32_1 %false %false %false %in0 %m %s %izp "
        "%ozp\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

/* ---- whole graphs ----------------------------------------------------------------------- */

/* conv -> rescale -> clamp -> max_pool -> reshape -> matmul, with the pool's
 * result as a second output. Also the base of the OOM sweep and the fuzzer. */
static const struct dcase chain = {
    "chain of six operators",
    "t_i8_1x8x8x4",
    "t_i32_1x9x4 t_i8_1x3x3x8",
    "%pad0 = OpConstantNull %t_i32_4\n%s1 = OpConstantComposite %t_i32_2 %i32_1 %i32_1\n"
    "%k2 = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n%zp8 = OpConstantNull %t_i8_1\n"
    "%zp32 = OpConstantNull %t_i32_1\n%w = OpGraphConstantARM %t_i8_8x3x3x4 0\n"
    "%b = OpGraphConstantARM %t_i32_8 1\n%mul = OpGraphConstantARM %t_i32_8 2\n"
    "%sh = OpGraphConstantARM %t_i8_8 3\n%bm = OpGraphConstantARM %t_i8_1x8x4 4\n"
    "%shp = OpConstantComposite %t_i32_3 %i32_1 %i32_9 %i32_8\n",
    "%conv = OpExtInst %t_i32_1x6x6x8 %tosa CONV2D %pad0 %s1 %s1 %i32_1 %false %in0 %w %b %zp8 "
    "%zp8\n"
    "%rs = OpExtInst %t_i8_1x6x6x8 %tosa RESCALE %true %i32_1 %true %false %false %conv %mul %sh "
    "%zp32 %zp8\n"
    "%cl = OpExtInst %t_i8_1x6x6x8 %tosa CLAMP %i8_0 %i8_127 %i32_1 %rs\n"
    "%mp = OpExtInst %t_i8_1x3x3x8 %tosa MAX_POOL2D %k2 %k2 %pad0 %i32_1 %cl\n"
    "%rsh = OpExtInst %t_i8_1x9x8 %tosa RESHAPE %mp %shp\n"
    "%r = OpExtInst %t_i32_1x9x4 %tosa MATMUL %rsh %bm %zp8 %zp8\n",
    "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %mp %i32_1\n",
    .fill = "2=1073741824 3=30"};

static void
test_chain(void)
{
   static const char *const names[] = {"CONV2D",     "RESCALE", "CLAMP",
                                       "MAX_POOL2D", "RESHAPE", "MATMUL"};
   struct built b;
   struct dg_graph *g = h_decode(&chain, &b);
   if (g) {
      check_eq_u64(g->node_count, 6);
      for (uint32_t i = 0; i < 6 && i < g->node_count; i++) {
         check_str(node(g, i)->name, names[i]);
         ok(i == 0 || node(g, i)->offset > node(g, i - 1)->offset, "module order");
      }
      for (uint32_t i = 1; i < 6; i++)
         ok(wired(g, i, 0, i - 1), "node %u reads node %u's result", i, i - 1);
      check_eq_u64(dg_node_input(g, node(g, 5), 1)->graph_constant.constant_id, 4);
      check_eq_u64(g->output_count, 2);
      check_eq_u64(g->outputs[1].tensor, g->node_tensors[node(g, 3)->first_output]);
      check_eq_u64(g->outputs[1].binding, 1);
      check_eq_u64(node(g, 1)->scales.multiplier[7], 1 << 30);
      /* in0, 6 results, weight, bias, B: the attribute constants are not tensors. */
      check_eq_u64(g->tensor_count, 10);
      ok(!g->uses_specialization, "no specialization");
      dg_graph_destroy(g);
   }
   h_free(&b);
}

static void
test_io_forms(void)
{
   struct built b;
   struct dg_graph *g;
   const struct dcase passthrough = {
       "outputs that are an input, a graph constant and a module constant",
       "t_f32_4",
       "t_f32_4 t_f32_4 t_f32_4",
       "%gc = OpGraphConstantARM %t_f32_4 7\n%mc = OpConstantNull %t_f32_4\n",
       "",
       "OpGraphSetOutputARM %in0 %i32_0\nOpGraphSetOutputARM %gc %i32_1\n"
       "OpGraphSetOutputARM %mc %i32_2\n"};
   if ((g = h_decode(&passthrough, &b))) {
      check_eq_u64(g->node_count, 0);
      check_eq_u64(g->tensors[g->outputs[0].tensor].kind, DG_TENSOR_INPUT);
      check_eq_u64(g->tensors[g->outputs[1].tensor].kind, DG_TENSOR_GRAPH_CONSTANT);
      check_eq_u64(g->tensors[g->outputs[2].tensor].kind, DG_TENSOR_CONSTANT);
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase arrays = {
       "tensor arrays with ElementIndex",
       "a2_t_f32_1x4",
       "a2_t_f32_1x4",
       NULL,
       "%r = OpExtInst %t_f32_1x4 %tosa ADD %in0_0 %in0_1\n",
       "OpGraphSetOutputARM %r %i32_0 %i32_1\nOpGraphSetOutputARM %in0_0 %i32_0 %i32_0\n"};
   if ((g = h_decode(&arrays, &b))) {
      check_eq_u64(g->input_count, 2);
      ok(g->inputs[1].has_element && g->inputs[1].element == 1, "input element index");
      ok(g->outputs[0].element == 1 && g->outputs[1].element == 0, "output element indices");
      dg_graph_destroy(g);
   }
   h_free(&b);
   const struct dcase cases[] = {
       {"non-semantic instructions are ignored", "t_f32_4", "t_f32_4",
        "%void = OpTypeVoid\n%name = OpString \"n\"\n",
        "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in0\n"
        "%d1 = OpExtInst %void %dbg DebugGraph %graph %name\n"
        "%d2 = OpExtInst %void %dbg DebugOperation %d1 %name %r\n"
        "%d3 = OpExtInst %void %other 5 %r %in0\n",
        .header = "%dbg = OpExtInstImport \"NonSemantic.Graph.DebugInfo.1\"\n"
                  "%other = OpExtInstImport \"NonSemantic.Vendor.Anything.7\"\n"},
       {"unused sets may be imported", "t_f32_4", "t_f32_4", NULL,
        "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in0\n",
        .header = "%glsl = OpExtInstImport \"GLSL.std.450\"\n"
                  "%me = OpExtInstImport \"Arm.MotionEngine.100\"\n"},
       {"second entry point", "t_f32_4", "t_f32_4", NULL,
        "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %in0\n",
        .entry = "OpGraphEntryPointARM %graph \"other\" %vin0 %vout0\n"
                 "OpGraphEntryPointARM %graph \"main\" %vin0 %vout0\n"},
   };
   h_run_all(cases, sizeof(cases) / sizeof(cases[0]));
}

static void
test_specialization(void)
{
   struct built b;
   struct dg_graph *g;
   const int32_t data[3] = {-5, 9, 7};
   const VkSpecializationMapEntry entries[] = {{3, 0, 1}, {4, 4, 1}, {5, 8, 1}};
   const VkSpecializationInfo spec = {3, entries, sizeof(data), data};
   const struct dcase c = {
       "specialization constants",
       "t_i8_2 t_i32_2",
       "t_i8_2 t_i32_2",
       "OpDecorate %lo SpecId 3\nOpDecorate %hi SpecId 4\nOpDecorate %sh SpecId 5\n"
       "OpDecorate %unset SpecId 6\n"
       "%lo = OpSpecConstant %i8 0\n%hi = OpSpecConstant %i8 0\n%sh = OpSpecConstant %i8 0\n"
       "%unset = OpSpecConstant %i32 1\n%shift = OpSpecConstantComposite %t_i8_1 %sh\n",
       "%r = OpExtInst %t_i8_2 %tosa CLAMP %lo %hi %unset %in0\n"
       "%m = OpExtInst %t_i32_2 %tosa MUL %in1 %in1 %shift\n",
       "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %m %i32_1\n",
       .spec = &spec};
   if ((g = h_decode(&c, &b))) {
      check_eq_i64((int32_t)node(g, 0)->attrs.clamp.min_val, -5);
      check_eq_i64((int32_t)node(g, 0)->attrs.clamp.max_val, 9);
      check_eq_u64(node(g, 0)->attrs.clamp.nan_mode, 1); /* default: no map entry */
      check_eq_u64(node(g, 1)->attrs.mul.shift, 7);
      ok(g->uses_specialization, "uses_specialization");
      dg_graph_destroy(g);
   }
   h_free(&b);
}

/* A tensor shape from a specialization constant: [4] in the module, [6] once specialized. */
static void
test_specialized_shape(void)
{
   const uint32_t six = 6;
   const VkSpecializationMapEntry entry = {9, 0, 4};
   const VkSpecializationInfo spec = {1, &entry, sizeof(six), &six};
   struct dcase c = {
       "specialized shape",
       "t_f32_6",
       "t_f32_6",
       "OpDecorate %d SpecId 9\n%d = OpSpecConstant %i32 4\n"
       "%shs = OpSpecConstantComposite %arr_1 %d\n%ts = OpTypeTensorARM %f32 %i32_1 %shs\n",
       "%r = OpExtInst %ts %tosa ADD %in0 %in0\n",
       .gtype = "%gt = OpTypeGraphARM 1 %ts %ts\n",
       .spec = &spec};
   h_run(&c);
   c.name = "specialized shape left at its default";
   c.spec = NULL;
   c.code = DG_ERR_INTERFACE;
   c.msg = "the variable's type (fp32 [6]) is not the graph type's (fp32 [4])";
   h_run(&c);
}

/* ---- example modules of tests/data/spirv ------------------------------------------------ */

static char *
read_example(const char *name)
{
   char path[1024];
   size_t size;
   const char *file = __FILE__, *slash = strrchr(file, '/');
   snprintf(path, sizeof(path), "%.*s/../data/spirv/%s", (int)(slash ? slash - file : 1),
            slash ? file : ".", name);
   char *text = h_read_file(path, &size);
   ok(text != NULL, "%s readable", path);
   return text;
}

struct example_io {
   uint32_t binding;
   VkFormat format;
   uint32_t rank;
   int64_t dims[4];
};

static void
test_example(const char *name, const struct example_io *res, uint32_t res_count,
             const struct example_io *consts, uint32_t const_count, const uint64_t *fill,
             uint32_t nodes)
{
   test_set_context(name);
   char *text = read_example(name);
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!text || !spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err))) {
      ok(0, "%s does not assemble", name);
      free(text);
      return;
   }
   VkTensorDescriptionARM rd[4], cd[4];
   VkDataGraphPipelineResourceInfoARM ri[4];
   VkDataGraphPipelineConstantARM ci[4];
   uint8_t *data[4] = {NULL};
   for (uint32_t i = 0; i < res_count; i++) {
      rd[i] = (VkTensorDescriptionARM){VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                       NULL,
                                       VK_TENSOR_TILING_LINEAR_ARM,
                                       res[i].format,
                                       res[i].rank,
                                       res[i].dims,
                                       NULL,
                                       VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
      ri[i] = (VkDataGraphPipelineResourceInfoARM){
          VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM, &rd[i], 0, res[i].binding, 0};
   }
   for (uint32_t i = 0; i < const_count; i++) {
      cd[i] = (VkTensorDescriptionARM){VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                       NULL,
                                       VK_TENSOR_TILING_LINEAR_ARM,
                                       consts[i].format,
                                       consts[i].rank,
                                       consts[i].dims,
                                       NULL,
                                       VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
      uint64_t n = 1;
      for (uint32_t d = 0; d < consts[i].rank; d++)
         n *= (uint64_t)consts[i].dims[d];
      uint32_t size = consts[i].format == VK_FORMAT_R8_SINT ? 1 : 4;
      data[i] = calloc(n, size);
      ok(data[i] != NULL, "constant data allocated");
      for (uint64_t e = 0; data[i] && e < n; e++)
         memcpy(data[i] + e * size, &fill[i], size);
      ci[i] = (VkDataGraphPipelineConstantARM){VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
                                               &cd[i], consts[i].binding, data[i]};
   }
   struct dg_decode_info info = {.code = words,
                                 .code_words = count,
                                 .entry_point = "main",
                                 .resource_infos = ri,
                                 .resource_info_count = res_count,
                                 .constants = ci,
                                 .constant_count = const_count};
   struct dg_graph *g = NULL;
   struct dg_diag diag;
   VkResult result = dg_graph_decode(&info, NULL, &g, &diag);
   ok(result == VK_SUCCESS, "decoding fails: %s", diag.message);
   if (g)
      check_eq_u64(g->node_count, nodes);
   dg_graph_destroy(g);
   for (uint32_t i = 0; i < const_count; i++)
      free(data[i]);
   free(words);
   free(text);
   test_set_context(NULL);
}

static void
test_examples(void)
{
   const struct example_io clamp_res[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, 4}},
                                          {1, VK_FORMAT_R32_SFLOAT, 2, {1, 4}}};
   const struct example_io clamp_const[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, 4}}};
   const uint64_t clamp_fill[] = {0};
   test_example("graph_clamp.spvasm", clamp_res, 2, clamp_const, 1, clamp_fill, 2);

   const struct example_io conv_res[] = {{0, VK_FORMAT_R8_SINT, 4, {1, 8, 8, 4}},
                                         {1, VK_FORMAT_R8_UINT, 4, {1, 6, 6, 8}},
                                         {2, VK_FORMAT_R8_SINT, 4, {1, 6, 6, 16}}};
   const struct example_io conv_const[] = {{0, VK_FORMAT_R8_SINT, 4, {8, 3, 3, 4}},
                                           {1, VK_FORMAT_R32_SINT, 1, {8}},
                                           {2, VK_FORMAT_R32_SINT, 1, {8}},
                                           {3, VK_FORMAT_R8_SINT, 1, {8}}};
   const uint64_t conv_fill[] = {1, 0, 1u << 30, 30};
   test_example("graph_conv2d.spvasm", conv_res, 3, conv_const, 4, conv_fill, 3);
}

/* ---- helpers of the IR and the decoder -------------------------------------------------- */

static void
test_helpers(void)
{
   /* Every code has a name and maps to the documented result. */
   for (int code = 2000; code < 3000; code++) {
      const char *name = dg_error_name((enum dg_error)code);
      if (strcmp(name, "DG_ERR_?") == 0)
         continue;
      VkResult want = code == DG_ERR_OUT_OF_MEMORY  ? VK_ERROR_OUT_OF_HOST_MEMORY
                      : code >= 2300 && code < 2400 ? VK_ERROR_VALIDATION_FAILED
                                                    : VK_ERROR_UNKNOWN;
      ok(dg_error_result((enum dg_error)code) == want, "%s result", name);
   }
   check_str(dg_error_name(DG_ERR_OP_SHAPE), "DG_ERR_OP_SHAPE");
   check_eq_i64(dg_error_result(DG_OK), VK_SUCCESS);

   ok(dg_float_from_bits(DG_TYPE_FP16, 0x3c00) == 1.0, "fp16 1.0");
   ok(dg_float_from_bits(DG_TYPE_FP16, 0x0001) == ldexp(1.0, -24), "fp16 subnormal");
   ok(isinf(dg_float_from_bits(DG_TYPE_FP16, 0xfc00)), "fp16 -inf");
   ok(dg_float_from_bits(DG_TYPE_BF16, 0xc020) == -2.5, "bf16 -2.5");
   ok(dg_float_from_bits(DG_TYPE_FP8E4M3, 0x7e) == 448.0, "e4m3 max");
   ok(isnan(dg_float_from_bits(DG_TYPE_FP8E4M3, 0xff)), "e4m3 NaN");
   ok(dg_float_from_bits(DG_TYPE_FP8E5M2, 0x7b) == 57344.0, "e5m2 max");
   ok(isinf(dg_float_from_bits(DG_TYPE_FP8E5M2, 0x7c)), "e5m2 inf");
   ok(isnan(dg_float_from_bits(DG_TYPE_FP32, 0x7fc00000)), "fp32 NaN");

   ok(dg_type_format_compatible(DG_TYPE_I8, false, VK_FORMAT_R8_UINT), "i8 signless R8_UINT");
   ok(!dg_type_format_compatible(DG_TYPE_I8, true, VK_FORMAT_R8_UINT), "signed i8 not R8_UINT");
   ok(dg_type_format_compatible(DG_TYPE_I48, false, VK_FORMAT_R64_SINT), "i48 is R64");
   ok(!dg_type_format_compatible(DG_TYPE_FP16, false, VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM),
      "fp16 is not bf16");
   check_eq_u64(dg_type_size(DG_TYPE_I48), 8);

   /* Strided graph constant data is gathered into packed bytes. */
   struct dg_tensor_type ty = {DG_TYPE_I16, false, {2, {2, 3}}};
   const int64_t dims[2] = {2, 3}, strides[2] = {16, 2};
   const VkTensorDescriptionARM desc = {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                        NULL,
                                        VK_TENSOR_TILING_LINEAR_ARM,
                                        VK_FORMAT_R16_SINT,
                                        2,
                                        dims,
                                        strides,
                                        VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
   int16_t src[16] = {1, 2, 3, -1, -1, -1, -1, -1, 4, 5, 6, -1, -1, -1, -1, -1};
   int16_t out[6] = {0};
   dg_read_graph_constant(&ty, &desc, src, (uint8_t *)out);
   ok(out[0] == 1 && out[2] == 3 && out[3] == 4 && out[5] == 6, "strided read");
   /* An innermost stride wider than the element (VUID 09736, accepted with a warning, D28). */
   const int64_t wide[2] = {12, 4};
   const VkTensorDescriptionARM wide_desc = {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                             NULL,
                                             VK_TENSOR_TILING_LINEAR_ARM,
                                             VK_FORMAT_R16_SINT,
                                             2,
                                             dims,
                                             wide,
                                             VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM};
   int16_t wsrc[12] = {1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6, -1};
   memset(out, 0, sizeof(out));
   dg_read_graph_constant(&ty, &wide_desc, wsrc, (uint8_t *)out);
   ok(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 4 && out[5] == 6,
      "wide innermost stride read");
   const uint32_t tosa = SPIRV_EXT_INST_SET_TOSA_001000_1;
   unsigned missing = 0;
   for (uint32_t number = 0; number < 66; number++)
      missing += dg_op_find(tosa, number) == NULL;
   ok(missing == 0, "every TOSA.001000.1 instruction has an operator (%u missing)", missing);
   ok(dg_op_find(tosa, TOSA_RFFT2D)->op == DG_OP_RFFT2D &&
          dg_op_find(tosa, TOSA_ARGMAX)->op == DG_OP_ARGMAX &&
          dg_op_find(tosa, TOSA_CONV2D)->op == DG_OP_CONV2D && dg_op_find(tosa, 1000) == NULL &&
          dg_op_find(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, SPV_ARM_ME_MIN_SAD)->op ==
              DG_OP_MIN_SAD &&
          dg_op_find(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, SPV_ARM_ME_RAW_SAD)->op ==
              DG_OP_RAW_SAD &&
          dg_op_find(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, 3) == NULL,
      "operator table keyed by (set, opcode)");
}

/* ---- allocation failures and corrupted modules ------------------------------------------ */

static void
test_out_of_memory(void)
{
   struct built b;
   if (!h_build(&chain, &b))
      return;
   long failures = 0;
   for (long fail_at = 1; fail_at < 10000; fail_at++) {
      struct h_counter counter = {.fail_at = fail_at};
      VkAllocationCallbacks alloc;
      h_counting_alloc(&counter, &alloc);
      struct dg_graph *g = NULL;
      struct dg_diag diag;
      VkResult result = dg_graph_decode(&b.info, &alloc, &g, &diag);
      dg_graph_destroy(g);
      if (counter.live != 0)
         failures += !ok(0, "allocation %ld failing leaks %ld", fail_at, counter.live);
      if (result == VK_SUCCESS) {
         ok(fail_at > 1, "some allocations happen");
         printf("decoding the chain graph takes %ld allocations\n", fail_at - 1);
         break;
      }
      if (result != VK_ERROR_OUT_OF_HOST_MEMORY || diag.code != DG_ERR_OUT_OF_MEMORY)
         failures += !ok(0, "allocation %ld failing: %d %s", fail_at, result, diag.message);
   }
   ok(failures == 0, "out-of-memory sweep");
   h_free(&b);
}

static uint32_t fuzz_state = 0x9e3779b9u;

static uint32_t
fuzz_rng(void)
{
   fuzz_state ^= fuzz_state << 13;
   fuzz_state ^= fuzz_state >> 17;
   fuzz_state ^= fuzz_state << 5;
   return fuzz_state;
}

/* A random operand word (not an opcode/word-count word) of a random
 * instruction, or 0 when the instruction stream is already broken. */
static uint32_t
operand_word(const uint32_t *w, size_t count)
{
   uint32_t target = fuzz_rng() % 64, picked = 0;
   for (size_t off = 5, n = 0; off < count && (w[off] >> 16); off += w[off] >> 16, n++) {
      uint32_t wc = w[off] >> 16;
      if (wc > 1 && off + wc <= count)
         picked = (uint32_t)off + 1 + fuzz_rng() % (wc - 1);
      if (n >= target && picked)
         break;
   }
   return picked;
}

/* One random corruption of a copy of words. Most keep the instruction
 * stream intact, so that the corruption reaches the graph decoder. */
static size_t
corrupt(uint32_t *w, size_t count, uint32_t bound)
{
   if (count <= 6)
      return count;
   uint32_t at = 5 + fuzz_rng() % (uint32_t)(count - 5);
   uint32_t operand = operand_word(w, count);
   if (operand && fuzz_rng() % 4 != 0) {
      switch (fuzz_rng() % 4) {
      case 0:
         w[operand] = fuzz_rng() % 16; /* small literals, enumerants, indices */
         break;
      case 1:
         w[operand] = 1 + fuzz_rng() % (bound + 1); /* another id, or the bound */
         break;
      case 2:
         w[operand] ^= 1u << (fuzz_rng() % 32);
         break;
      default:
         w[operand] = fuzz_rng();
         break;
      }
      return count;
   }
   switch (fuzz_rng() % 6) {
   case 0:
      w[at] = fuzz_rng();
      break;
   case 1:
      w[at] ^= 1u << (fuzz_rng() % 32);
      break;
   case 2: /* an instruction's word count */
      w[at] = (w[at] & 0xffffu) | (fuzz_rng() % 12) << 16;
      break;
   case 3:
      return 5 + fuzz_rng() % (uint32_t)(count - 5);
   case 4: /* a header word */
      w[fuzz_rng() % 5] = fuzz_rng() % 3 ? fuzz_rng() % 64 : fuzz_rng();
      break;
   default: { /* swap two words */
      uint32_t other = 5 + fuzz_rng() % (uint32_t)(count - 5), t = w[at];
      w[at] = w[other];
      w[other] = t;
      break;
   }
   }
   return count;
}

static const uint32_t fuzz_spec_value = 3;
static const VkSpecializationMapEntry fuzz_spec_entry = {1, 0, 4};
static const VkSpecializationInfo fuzz_spec = {1, &fuzz_spec_entry, 4, &fuzz_spec_value};

/* Modules the fuzzer corrupts: the chain, and smaller ones exercising module
 * constants, specialization, tensor arrays and non-semantic instructions. */
static const struct dcase fuzz_constants = {
    "fuzz constants", "t_i8_2x3", "t_i8_2x9",
    "%row = OpConstantComposite %t_i8_3 %i8_1 %i8_2 %i8_m3\n"
    "%m = OpConstantComposite %t_i8_2x3 %row %row\n"
    "%rep = OpConstantCompositeReplicateEXT %t_i8_2x3 %i8_7\n",
    "%r = OpExtInst %t_i8_2x9 %tosa CONCAT %i32_1 %in0 %m %rep\n"};
static const struct dcase fuzz_spec_arrays = {
    "fuzz specialization and arrays",
    "a2_t_i32_4",
    "t_i32_4",
    "OpDecorate %sh SpecId 1\n%sh = OpSpecConstant %i8 0\n"
    "%shift = OpSpecConstantComposite %t_i8_1 %sh\n%void = OpTypeVoid\n",
    "%r = OpExtInst %t_i32_4 %tosa MUL %in0_0 %in0_1 %shift\n"
    "%d = OpExtInst %void %dbg DebugGraph %graph %graph\n",
    .header = "%dbg = OpExtInstImport \"NonSemantic.Graph.DebugInfo.1\"\n",
    .spec = &fuzz_spec};
static const struct dcase *const fuzz_bases[] = {&chain, &fuzz_constants, &fuzz_spec_arrays};

/* Corrupts one base module `iterations` times; returns the number of failures. */
static uint32_t
fuzz_base(const struct dcase *base, uint32_t iterations, uint32_t *accepted, uint32_t *by_code)
{
   struct built b;
   uint32_t failures = 0;
   if (!h_build(base, &b))
      return 1;
   uint32_t *copy = malloc(b.word_count * sizeof(uint32_t));
   if (!copy) {
      h_free(&b);
      return !ok(0, "out of memory");
   }
   for (uint32_t i = 0; i < iterations; i++) {
      memcpy(copy, b.words, b.word_count * sizeof(uint32_t));
      size_t count = b.word_count;
      for (uint32_t k = 1 + fuzz_rng() % 3; k > 0; k--)
         count = corrupt(copy, count, b.words[3]);
      struct dg_decode_info info = b.info;
      info.code = copy;
      info.code_words = count;
      struct h_counter counter = {0};
      VkAllocationCallbacks alloc;
      h_counting_alloc(&counter, &alloc);
      struct dg_graph *g = NULL;
      struct dg_diag diag;
      VkResult result = dg_graph_decode(&info, &alloc, &g, &diag);
      if (result == VK_SUCCESS) {
         (*accepted)++;
         failures += !ok(g != NULL, "success without a graph");
      } else {
         failures +=
             !ok(g == NULL && diag.code != DG_OK && diag.message[0] && diag.offset < count &&
                     (result == VK_ERROR_UNKNOWN || result == VK_ERROR_VALIDATION_FAILED),
                 "%s, iteration %u: result %d, code %d, offset %u: %s", base->name, i, result,
                 diag.code, diag.offset, diag.message);
         by_code[(diag.code / 100) % 10]++;
      }
      dg_graph_destroy(g);
      if (counter.live)
         failures += !ok(0, "iteration %u leaks %ld allocations", i, counter.live);
   }
   free(copy);
   h_free(&b);
   return failures;
}

static void
test_fuzz(void)
{
   const uint32_t iterations = 2000;
   uint32_t accepted = 0, failures = 0, by_code[10] = {0};
   size_t bases = sizeof(fuzz_bases) / sizeof(fuzz_bases[0]);
   for (size_t i = 0; i < bases; i++)
      failures += fuzz_base(fuzz_bases[i], iterations, &accepted, by_code);
   printf("fuzz: %zu corrupted modules, %u accepted; rejected by range 20xx %u, 21xx %u, "
          "22xx %u, 23xx %u, 24xx %u\n",
          bases * iterations, accepted, by_code[0], by_code[1], by_code[2], by_code[3], by_code[4]);
   ok(failures == 0, "%u fuzz failures", failures);
}

TEST_MAIN_STATE;

int
main(void)
{
   test_helpers();
   test_elementwise();
   test_clamp();
   test_data_layout();
   test_pool();
   test_conv();
   test_matmul();
   test_rescale();
   test_chain();
   test_io_forms();
   test_specialization();
   test_specialized_shape();
   test_examples();
   test_decode_module_cases();
   test_decode_unshaped_cases();
   test_decode_op_cases();
   test_decode_me_cases();
   test_out_of_memory();
   test_fuzz();
   return test_done();
}
