/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build of FFT2D and RFFT2D (BUILD CUSTOM in graph/ops/tosa_ops.def;
 * shaders/graph/tosa/fft2d.comp, kernel_abi/fft_args.h): a pass along W of
 * every row (n, h) into a pair of session scratch tensors [N,H,W] (real,
 * imaginary), then a pass along H of every column into the node's two
 * outputs (RFFT2D: only the W/2 + 1 columns it outputs). A pass over lines of
 * at most DG_FFT_SHARED_MAX points is one dispatch with a workgroup per line
 * (the whole line in shared memory); a longer line takes log2(L) radix-2
 * Stockham stages, one dispatch each, ping-ponging through two more scratch
 * pairs. O(N H W log(H W)) work either way, never a direct DFT.
 */
#include "dg_build.h"

#include "kernel_abi/fft_args.h"
#include "vmel_kernels_graph.h"

struct fft_pair {
   uint32_t re, im; /* tensor references; im is DG_PLAN_NONE for a real input */
};

struct fft_pass {
   uint32_t axis, inverse, columns;
   uint64_t len, lines;
   bool real_in;
};

static uint32_t
log2_u64(uint64_t v)
{
   uint32_t r = 0;
   while ((UINT64_C(1) << r) < v)
      r++;
   return r;
}

static VkResult
add_fft_stage(struct dg_build *b, uint32_t kernel, bool real_in, struct fft_pair src,
              struct fft_pair dst, const struct dg_fft_args *args, uint64_t work)
{
   uint32_t tensors[4], count = 0;
   tensors[count++] = src.re;
   if (!real_in)
      tensors[count++] = src.im;
   tensors[count++] = dst.re;
   tensors[count++] = dst.im;
   return dg_build_add_stage(b, kernel, tensors, count, 3u << (count - 2), args, sizeof(*args),
                             work);
}

/* One 1D pass over p->lines lines of p->len points from src to dst, through tmp[2] where the
 * line does not fit shared memory. */
static VkResult
fft_pass(struct dg_build *b, const struct fft_pass *p, struct fft_pair src, struct fft_pair dst,
         const struct fft_pair tmp[2])
{
   struct dg_fft_args args = {
       .axis = p->axis, .inverse = p->inverse, .stage = 0, .columns = p->columns};
   if (p->len <= DG_FFT_SHARED_MAX)
      return add_fft_stage(b,
                           p->real_in ? DG_KERNEL_TOSA_RFFT2D_SHARED : DG_KERNEL_TOSA_FFT2D_SHARED,
                           p->real_in, src, dst, &args, p->lines * DG_FFT_LOCAL);
   uint32_t stages = log2_u64(p->len);
   for (uint32_t s = 0; s < stages; s++) {
      struct fft_pair in = s == 0 ? src : tmp[(s - 1) & 1];
      struct fft_pair out = s + 1 == stages ? dst : tmp[s & 1];
      bool real_in = p->real_in && s == 0;
      args.stage = s;
      VkResult result =
          add_fft_stage(b, real_in ? DG_KERNEL_TOSA_RFFT2D_PASS : DG_KERNEL_TOSA_FFT2D_PASS,
                        real_in, in, out, &args, p->lines * (p->len / 2));
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

static VkResult
scratch_pair(struct dg_build *b, const struct dg_shape *shape, struct fft_pair *pair)
{
   VkResult result = dg_build_add_scratch(b, DG_TYPE_FP32, shape, &pair->re);
   if (result == VK_SUCCESS)
      result = dg_build_add_scratch(b, DG_TYPE_FP32, shape, &pair->im);
   return result;
}

static VkResult
fft_build(struct dg_build *b, const struct dg_node *n, bool real_in, uint32_t inverse)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0);
   const int64_t *d = in->ty.shape.dim;
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   if (in->ty.shape.rank != 3 || out->ty.shape.rank != 3)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: not [N,H,W]", n->name, n->result_id);
   struct dg_shape shape = in->ty.shape;
   struct fft_pair src = {dg_node_input_index(g, n, 0),
                          real_in ? DG_PLAN_NONE : dg_node_input_index(g, n, 1)};
   struct fft_pair dst = {dg_node_output_index(g, n, 0), dg_node_output_index(g, n, 1)};
   struct fft_pair rows, tmp[2] = {{DG_PLAN_NONE, DG_PLAN_NONE}, {DG_PLAN_NONE, DG_PLAN_NONE}};
   VkResult result = scratch_pair(b, &shape, &rows);
   if (result == VK_SUCCESS && (d[1] > DG_FFT_SHARED_MAX || d[2] > DG_FFT_SHARED_MAX)) {
      result = scratch_pair(b, &shape, &tmp[0]);
      if (result == VK_SUCCESS)
         result = scratch_pair(b, &shape, &tmp[1]);
   }
   if (result != VK_SUCCESS)
      return result;
   uint32_t columns = (uint32_t)out->ty.shape.dim[2];
   const struct fft_pass along_w = {.axis = 0,
                                    .inverse = inverse,
                                    .columns = columns,
                                    .len = (uint64_t)d[2],
                                    .lines = (uint64_t)d[0] * (uint64_t)d[1],
                                    .real_in = real_in};
   const struct fft_pass along_h = {.axis = 1,
                                    .inverse = inverse,
                                    .columns = columns,
                                    .len = (uint64_t)d[1],
                                    .lines = (uint64_t)d[0] * columns,
                                    .real_in = false};
   if ((result = fft_pass(b, &along_w, src, rows, tmp)) != VK_SUCCESS)
      return result;
   return fft_pass(b, &along_h, rows, dst, tmp);
}

VkResult
dg_op_fft2d_build(struct dg_build *b, const struct dg_node *n)
{
   return fft_build(b, n, false, n->attrs.fft2d.inverse);
}

VkResult
dg_op_rfft2d_build(struct dg_build *b, const struct dg_node *n)
{
   return fft_build(b, n, true, 0);
}
