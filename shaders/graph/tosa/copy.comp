/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Element copies between two tensors of one element size, for the data-layout
 * operators of TOSA 1.0.1 (§2.9 "Data Layout"; pseudocode/operators/
 * CONCAT.tosac, RESHAPE.tosac). Bits are copied unchanged (NaN payloads too),
 * as "Results must be exact" requires.
 *
 *   mode DG_COPY_CONCAT:  input element (c0, ..., c[axis], ...) goes to output
 *                         element (c0, ..., c[axis] + offset, ...). CONCAT is
 *                         one dispatch per input tensor, offset being the sum
 *                         of the preceding inputs' dimension `axis`; with
 *                         offset 0 and equal shapes it is a strided copy.
 *   mode DG_COPY_RESHAPE: input element i (row-major) goes to output element i
 *                         (row-major over the output's shape): RESHAPE of a
 *                         tensor that cannot alias its input.
 *
 * Tensors (binding order): 0 input, 1 output.
 * One work item: one input element, row-major over the input's dimensions.
 * Attributes (struct dg_copy_args): mode, axis, offset.
 * Variant define: DG_COPY_SIZE, the element size in bytes (1: bool, i8, fp8;
 * 2: i16, fp16, bf16; 4: i32, fp32; 8: i48).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_COPY_SIZE
#define DG_COPY_SIZE 4
#endif

#if DG_COPY_SIZE == 1
#define copy_ref dg_ref8
#elif DG_COPY_SIZE == 2
#define copy_ref dg_ref16
#elif DG_COPY_SIZE == 4
#define copy_ref dg_ref32
#elif DG_COPY_SIZE == 8
#define copy_ref dg_ref64
#else
#error "DG_COPY_SIZE must be 1, 2, 4 or 8"
#endif

DG_DECLARE_ARGS(DG_COPY_ARGS)

DG_TENSOR(DG_COPY_INPUT, input);
DG_TENSOR(DG_COPY_OUTPUT, output);

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint src;
   uint dst;
   if (mode == uint(DG_COPY_RESHAPE)) {
      src = dg_offset_of_index(in_r, index);
      dst = dg_offset_of_index(out_r, index);
   } else {
      uint c[VMEL_TENSOR_MAX_RANK];
      dg_coords(in_r, index, c);
      src = dg_offset(in_r, c);
      c[min(axis, uint(VMEL_TENSOR_MAX_RANK - 1))] += offset;
      dst = dg_offset(out_r, c);
   }
   copy_ref(dg_address(out_r, dst)).value = copy_ref(dg_address(in_r, src)).value;
}
