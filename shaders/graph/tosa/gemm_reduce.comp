/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Split-K's second stage (D56): the output of a MATMUL or CONV2D whose SPLITK variant
 * (matmul_tiled.comp, conv2d_tiled.comp with DG_GEMM_SPLIT_K) wrote the partial sums of S parts
 * of K. Element e of the output is the sum of parts[0, e], parts[1, e], ... in that order (i32:
 * wrapping, so the sum is the unsplit one bit for bit; fp32: an fp16 accumulator's parts too,
 * summed more precisely than fp16), stored as the unsplit tiled kernel stores its accumulator:
 * MATMUL converted to the output type, CONV2D through dg_conv_value() (out =
 * static_cast<out_t>(acc) + bias), both rounded to nearest even by the store.
 *
 * Tensors (binding order, kernel_abi/gemm_args.h): 0 the partial sums [S, <output dims>]
 * (a packed session scratch tensor, fp32 or i32), 1 the bias [BC] (CONV2D; MATMUL binds tensor 0
 * again, unread), 2 the output.
 * Grid: one invocation per output element, row-major.
 * Attributes: CONV2D's (struct dg_attrs_conv2d) with DG_REDUCE_CONV2D, else none.
 * Variant defines: DG_OUT_DTYPE; DG_REDUCE_CONV2D; DG_GEMM_EPILOGUE (the _EPI variants, D52):
 * the value goes through the gemm epilogue (dg_gemm_epilogue.glsl), tensors 3 .. 6 its extra
 * tensors, tensor 2 the fused chain's last.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"
#include "kernel_abi/gemm_args.h"

#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_DTYPE_FP32
#endif

#ifdef DG_REDUCE_CONV2D
DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"
#endif

#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
#define DG_PART_DTYPE DG_DTYPE_FP32
#else
#define DG_PART_DTYPE DG_DTYPE_I32
#endif

DG_TENSOR(DG_GEMM_REDUCE_PARTS, parts);
DG_TENSOR(DG_GEMM_REDUCE_BIAS, bias);
DG_TENSOR(DG_GEMM_REDUCE_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_GEMM_REDUCE_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_OUT_DTYPE
#include "dg_gemm_epilogue.glsl"
#endif

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record p_r = DG_RECORD(parts);
   vmel_tensor_record out_r = DG_RECORD(output);
   /* The parts are packed: element e of part s is at s * strides[0] + 4 * e. */
   uvec2 at = dg_address(p_r, index * 4u);
   dg_atype(DG_PART_DTYPE) sum = dg_load(DG_PART_DTYPE, at);
   for (uint s = 1u; s < p_r.dims[0]; s++)
      sum += dg_load(DG_PART_DTYPE, vmel_address_add(at, s * p_r.strides[0]));

   uint c[VMEL_TENSOR_MAX_RANK];
   dg_coords(out_r, index, c);
   uvec2 address = dg_address(out_r, dg_offset(out_r, c));
#ifdef DG_REDUCE_CONV2D
   vmel_tensor_record b_r = DG_RECORD(bias);
   dg_atype(DG_OUT_DTYPE) value = dg_conv_value(acc_t(sum), b_r, b_r.dims[0] == 1u ? 0u : c[3]);
#else
   dg_atype(DG_OUT_DTYPE) value = dg_atype(DG_OUT_DTYPE)(sum);
#endif
#ifdef DG_GEMM_EPILOGUE
   dg_gemm_epilogue(value, uvec4(c[0], c[1], c[2], c[3]), out_r.rank, address);
#else
   dg_store(DG_OUT_DTYPE, address, value);
#endif
}
