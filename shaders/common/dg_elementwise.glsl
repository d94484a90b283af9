/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The driver of the elementwise kernel templates (unary, binary, ternary,
 * conversion): main() over the output's elements with TOSA broadcasting
 * (apply_broadcast.tosac: equal ranks, a dimension of 1 in an input repeats).
 * A template holds only its operators' arithmetic; this file owns how
 * elements are walked and loaded, so making that faster is one change here.
 *
 * One work item is up to DG_EW_ITEMS consecutive output elements (row-major):
 * the template's kernels are declared with DG_TEMPLATE_GRID(<template>, 64,
 * ELEMENTS4) in tosa_ops.def, which makes the layer count ceil(elements / 4)
 * work items (graph/build/dg_build_ops.c).
 *
 * The template, before including this file, after dg_kernel.glsl:
 *   - defines DG_EW_ARITY (1, 2 or 3) and the element types DG_EW_IN1_DTYPE,
 *     DG_EW_IN2_DTYPE (arity >= 2), DG_EW_IN3_DTYPE (arity 3), DG_EW_OUT_DTYPE
 *     (DG_DTYPE_* values);
 *   - declares its tensors with DG_TENSOR as input1, input2, input3 (as its
 *     arity says) and output;
 *   - defines the operator as a function of the arithmetic types (dg_atype):
 *       dg_atype(DG_EW_OUT_DTYPE) dg_ew_apply(dg_atype(DG_EW_IN1_DTYPE) a
 *                                             [, dg_atype(DG_EW_IN2_DTYPE) b
 *                                             [, dg_atype(DG_EW_IN3_DTYPE) c]])
 *     which must depend on nothing but its arguments and specialization
 *     constants (attributes).
 *   A template with its own storage handling (a conversion that stores raw
 *   bits, say) may instead define DG_EW_STORE(address, value) and
 *   DG_EW_LOAD1(address) (defaults: dg_store / dg_load of the dtypes).
 */
#ifndef DG_ELEMENTWISE_GLSL
#define DG_ELEMENTWISE_GLSL

#ifndef DG_EW_ARITY
#error "define DG_EW_ARITY (1, 2 or 3) before including dg_elementwise.glsl"
#endif

/* Output elements per work item; graph/build/dg_build_ops.c's ELEMENTS4 grid says the same. */
#define DG_EW_ITEMS 4u

#ifndef DG_EW_LOAD1
#define DG_EW_LOAD1(address) dg_load(DG_EW_IN1_DTYPE, address)
#endif
#ifndef DG_EW_LOAD2
#define DG_EW_LOAD2(address) dg_load(DG_EW_IN2_DTYPE, address)
#endif
#ifndef DG_EW_LOAD3
#define DG_EW_LOAD3(address) dg_load(DG_EW_IN3_DTYPE, address)
#endif
#ifndef DG_EW_STORE
#define DG_EW_STORE(address, value) dg_store(DG_EW_OUT_DTYPE, address, value)
#endif

void
main()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record out_r = DG_RECORD(output);
   vmel_tensor_record in1_r = DG_RECORD(input1);
#if DG_EW_ARITY >= 2
   vmel_tensor_record in2_r = DG_RECORD(input2);
#endif
#if DG_EW_ARITY >= 3
   vmel_tensor_record in3_r = DG_RECORD(input3);
#endif
   uint total = dg_element_count(out_r);
   uint first = item * DG_EW_ITEMS;
   for (uint k = 0u; k < DG_EW_ITEMS; k++) {
      uint index = first + k;
      if (index >= total)
         break;
      uvec2 a1 = dg_address(in1_r, dg_offset_broadcast(out_r, in1_r, index));
#if DG_EW_ARITY == 1
      dg_atype(DG_EW_OUT_DTYPE) r = dg_ew_apply(DG_EW_LOAD1(a1));
#elif DG_EW_ARITY == 2
      uvec2 a2 = dg_address(in2_r, dg_offset_broadcast(out_r, in2_r, index));
      dg_atype(DG_EW_OUT_DTYPE) r = dg_ew_apply(DG_EW_LOAD1(a1), DG_EW_LOAD2(a2));
#else
      uvec2 a2 = dg_address(in2_r, dg_offset_broadcast(out_r, in2_r, index));
      uvec2 a3 = dg_address(in3_r, dg_offset_broadcast(out_r, in3_r, index));
      dg_atype(DG_EW_OUT_DTYPE) r =
          dg_ew_apply(DG_EW_LOAD1(a1), DG_EW_LOAD2(a2), DG_EW_LOAD3(a3));
#endif
      DG_EW_STORE(dg_address(out_r, dg_offset_of_index(out_r, index)), r);
   }
}

#endif /* DG_ELEMENTWISE_GLSL */
