/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA FFT2D and RFFT2D (TOSA 1.0.1 "Tensor Operators"). TOSA.001000.1
 * operands: FFT2D inverse, local_bound, input_real [N,H,W], input_imag
 * [N,H,W]; RFFT2D local_bound, input_real [N,H,W]. Each has two results, an
 * OpTypeStruct{output_real, output_imag} (DG_RESULTS in tosa_ops.def): the
 * row, DG_RESULT and the shape rule check output_real; the imaginary output
 * is checked here to be the same type and shape. The ERROR_IFs: H and W
 * powers of two; the level-8K limits H, W <= MAX_KERNEL (tosa.xml).
 */
#include "dg_op.h"

static bool
power_of_two(int64_t v)
{
   return v > 0 && (v & (v - 1)) == 0;
}

/* ERROR_IF(!power_of_two(H)), ERROR_IF(!power_of_two(W)), the level limits, and the second
 * result: the type and shape of the first (an unshaped one takes the first's shape). */
static VkResult
check_fft(struct dg_op_ctx *c, const int64_t *in, const char *input)
{
   VkResult result;
   if (!power_of_two(in[1]))
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(!power_of_two(H)): %s H is %" PRId64, input,
                        in[1]);
   if (!power_of_two(in[2]))
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(!power_of_two(W)): %s W is %" PRId64, input,
                        in[2]);
   if ((result = dg_op_level(c, "H", in[1], DG_MAX_KERNEL, "MAX_KERNEL")) != VK_SUCCESS ||
       (result = dg_op_level(c, "W", in[2], DG_MAX_KERNEL, "MAX_KERNEL")) != VK_SUCCESS)
      return result;
   struct dg_graph *g = c->d->g;
   struct dg_tensor *imag = &g->tensors[g->node_tensors[c->node->first_output + 1]];
   if (imag->ty.type != c->out.type)
      return dg_op_fail(c, DG_ERR_OP_TYPE_SUPPORT,
                        "output_imag's element type differs from output_real's");
   if (!dg_shape_known(&imag->ty.shape))
      imag->ty.shape = c->out.shape;
   return dg_op_same_shape(c, "output_imag", &imag->ty.shape, "output_real", &c->out.shape);
}

VkResult
dg_op_fft2d_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *re = &dg_op_opnd(c, DG_OPND_FFT2D_input_real)->ty;
   const struct dg_tensor_type *im = &dg_op_opnd(c, DG_OPND_FFT2D_input_imag)->ty;
   VkResult result;
   if ((result = dg_op_same_shape(c, "input_imag", &im->shape, "input_real", &re->shape)) !=
           VK_SUCCESS ||
       (result = dg_op_same_shape(c, "output_real", &c->out.shape, "input_real", &re->shape)) !=
           VK_SUCCESS)
      return result;
   return check_fft(c, re->shape.dim, "input_real");
}

/* [N, H, W], the input's shape. */
VkResult
dg_op_fft2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   *out = dg_op_opnd(c, DG_OPND_FFT2D_input_real)->ty.shape;
   return VK_SUCCESS;
}

VkResult
dg_op_rfft2d_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *re = &dg_op_opnd(c, DG_OPND_RFFT2D_input_real)->ty;
   const int64_t *i = re->shape.dim, *o = c->out.shape.dim;
   if (o[0] != i[0] || o[1] != i[1] || o[2] != i[2] / 2 + 1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "output_real is [%" PRId64 ",%" PRId64 ",%" PRId64 "], not [N,H,W/2 + 1] "
                        "= [%" PRId64 ",%" PRId64 ",%" PRId64 "]",
                        o[0], o[1], o[2], i[0], i[1], i[2] / 2 + 1);
   return check_fft(c, i, "input_real");
}

/* [N, H, W/2 + 1]. */
VkResult
dg_op_rfft2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const int64_t *i = dg_op_opnd(c, DG_OPND_RFFT2D_input_real)->ty.shape.dim;
   *out = (struct dg_shape){.rank = 3, .dim = {i[0], i[1], i[2] / 2 + 1}};
   return VK_SUCCESS;
}
