/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unshaped graphs (drop-in, D23): tensor types declared with a Rank and no
 * Shape (u_ names) or with neither (n_ names). Interface tensors and graph
 * constants take their shapes from the create info's descriptions; node
 * results from their operators' output-shape rules. The graphs that decode
 * are checked tensor by tensor; the ones that cannot be shaped are refused
 * with the instruction and the values.
 */
#include "harness.h"

/* CONV2D [1,4,4,2] * [3,3,3,2] (pad 0, stride 1) -> [1,2,2,3], RESHAPE to [4,3], ADD. */
#define CHAIN_DECLS                                                                                \
   "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"      \
   "%w = OpGraphConstantARM %u_f32_3x3x3x2 0\n%bias = OpConstantNull %t_f32_3\n"                   \
   "%zp = OpConstantNull %t_f32_1\n%shape = OpConstantComposite %t_i32_2 %i32_4 %i32_3\n"
#define CHAIN_BODY                                                                                 \
   "%c = OpExtInst %u_f32_1x1x1x1 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "    \
   "%zp\n"                                                                                         \
   "%s = OpExtInst %n_f32_1 %tosa RESHAPE %c %shape\n"                                             \
   "%r = OpExtInst %n_f32_1 %tosa ADD %s %s\n"

static void
expect_shape(const struct dg_graph *g, uint32_t id, uint32_t rank, const int64_t *dims,
             const char *what)
{
   const struct dg_tensor *t = NULL;
   for (uint32_t i = 0; i < g->tensor_count; i++) {
      if (g->tensors[i].id == id)
         t = &g->tensors[i];
   }
   if (!ok(t != NULL, "%s: a tensor %%%u", what, id))
      return;
   struct dg_shape want = {.rank = rank};
   memcpy(want.dim, dims, rank * sizeof(int64_t));
   char a[96], b[96];
   ok(dg_shape_equal(&t->ty.shape, &want), "%s: %%%u has shape %s, expected %s", what, id,
      dg_shape_str(&t->ty.shape, a, sizeof(a)), dg_shape_str(&want, b, sizeof(b)));
}

static void
test_chain(void)
{
   const struct dcase c = {"unshaped chain", "u_f32_1x4x4x2", "u_f32_4x3", CHAIN_DECLS,
                           CHAIN_BODY, .code = DG_OK};
   struct built b;
   struct dg_graph *g = h_decode(&c, &b);
   if (!g)
      return;
   /* Inputs and outputs from the resource infos, the weight from its description, the
    * three node results from CONV2D's, RESHAPE's and ADD's rules. */
   ok(g->node_count == 3, "three nodes, got %u", g->node_count);
   const int64_t in[] = {1, 4, 4, 2}, conv[] = {1, 2, 2, 3}, flat[] = {4, 3};
   const int64_t w[] = {3, 3, 3, 2};
   for (uint32_t n = 0; n < g->node_count && n < 3; n++) {
      const struct dg_node *node = &g->nodes[n];
      const struct dg_tensor *out = &g->tensors[g->node_tensors[node->first_output]];
      struct dg_shape want = {.rank = n == 0 ? 4 : 2};
      memcpy(want.dim, n == 0 ? conv : flat, want.rank * sizeof(int64_t));
      char a[96], e[96];
      ok(dg_shape_equal(&out->ty.shape, &want), "%s result %s, expected %s", node->name,
         dg_shape_str(&out->ty.shape, a, sizeof(a)), dg_shape_str(&want, e, sizeof(e)));
   }
   const struct dg_node *conv_node = &g->nodes[0];
   expect_shape(g, g->tensors[g->node_tensors[conv_node->first_input]].id, 4, in, "input");
   expect_shape(g, g->tensors[g->node_tensors[conv_node->first_input + 1]].id, 4, w, "weight");
   ok(g->output_count == 1 && dg_shape_equal(&g->tensors[g->outputs[0].tensor].ty.shape,
                                             &(struct dg_shape){2, {4, 3}}),
      "output [4,3]");
   dg_graph_destroy(g);
   h_free(&b);
}

#define ADD_U "%r = OpExtInst %u_f32_1x4 %tosa ADD %in0 %in0\n"

static const struct dcase unshaped[] = {
    /* Accepted: shapes from the descriptions and the rules. */
    {"unshaped input and output", "u_f32_1x4", "u_f32_1x4", NULL, ADD_U, .code = DG_OK},
    {"unranked input and output", "n_f32_1x4", "n_f32_1x4", NULL,
     "%r = OpExtInst %n_f32_1x4 %tosa ADD %in0 %in0\n", .code = DG_OK},
    {"unshaped input, shaped output", "u_f32_1x4", "t_f32_1x4", NULL,
     "%r = OpExtInst %u_f32_1x4 %tosa ADD %in0 %in0\n", .code = DG_OK},
    {"unshaped tensor array input", "a2_u_i32_2x2", "t_i32_2x2", NULL,
     "%r = OpExtInst %u_i32_1x1 %tosa ADD %in0_0 %in0_1\n", .code = DG_OK},
    {"broadcast inferred", "u_f32_1x4 u_f32_3x1", "u_f32_3x4", NULL,
     "%r = OpExtInst %u_f32_1x1 %tosa ADD %in0 %in1\n", .code = DG_OK},
    {"unshaped graph constant", "t_f32_4", "t_f32_4", "%gc = OpGraphConstantARM %u_f32_4 3\n",
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %gc\n", .code = DG_OK},
    {"MATMUL result unranked", "u_f32_2x3x4 u_f32_2x4x5", "t_f32_2x3x5",
     "%z = OpConstantNull %t_f32_1\n", "%r = OpExtInst %n_f32_1 %tosa MATMUL %in0 %in1 %z %z\n",
     .code = DG_OK},
    /* Refused: what cannot be shaped, or contradicts a declared shape. */
    {"unshaped input without a description", "u_f32_1x4", "t_f32_1x4", NULL, ADD_U,
     .mutate = M_RES_NO_DESC, .code = DG_ERR_RESOURCE_DESCRIPTION, .msg = "no shape to take"},
    {"inferred shape contradicts the output", "u_f32_1x4", "t_f32_1x5", NULL, ADD_U,
     .code = DG_ERR_IO_TYPE, .msg = "is fp32 [1,4], output 0 is fp32 [1,5]"},
    {"inferred rank contradicts the result type", "t_f32_1x4", "t_f32_1x4", NULL,
     "%r = OpExtInst %u_f32_1x1x1 %tosa ADD %in0 %in0 ;@\n", .code = DG_ERR_OP_SHAPE,
     .msg = "has rank 3, the operands give rank 2"},
    {"inferred shape not valid", "t_f32_1x2x2x2", "t_f32_1x2x2x3",
     "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
     "%w = OpGraphConstantARM %t_f32_3x3x3x2 0\n%bias = OpConstantNull %t_f32_3\n"
     "%zp = OpConstantNull %t_f32_1\n",
     "%r = OpExtInst %u_f32_1x1x1x1 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "
     "%zp ;@\n",
     .code = DG_ERR_OP_SHAPE, .msg = "dimensions [1,0,0,3]"},
    {"module constant unshaped", "t_f32_4", "t_f32_4", "%c = OpConstantNull %u_f32_4 ;@\n",
     "%r = OpExtInst %t_f32_4 %tosa ADD %in0 %c\n", .code = DG_ERR_TENSOR_NOT_SHAPED,
     .msg = "unshaped"},
    {"constant operand unshaped", "t_i8_2x3", "t_i8_6",
     "%shape = OpConstantNull %u_i32_1\n", "%r = OpExtInst %t_i8_6 %tosa RESHAPE %in0 %shape ;@\n",
     .code = DG_ERR_TENSOR_NOT_SHAPED, .msg = "unshaped"},
};

void
test_decode_unshaped_cases(void)
{
   test_chain();
   h_run_all(unshaped, sizeof(unshaped) / sizeof(unshaped[0]));
}
