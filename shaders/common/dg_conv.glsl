/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the TOSA convolution kernels share (conv2d.comp, conv3d.comp,
 * depthwise_conv2d.comp, transpose_conv2d.comp; TOSA 1.0.1 "Tensor Operators"):
 * the accumulator type of the variant, the multiply-accumulate of one tap
 * (in - input_zp) * (w - weight_zp) in acc_t, the dot product over a run of
 * input channels, and the epilogue out = static_cast<out_t>(acc) + bias.
 * Padding taps are never passed here: they contribute nothing and their zero
 * point is not subtracted (the pseudocode's value = 0 outside the input).
 *
 * Include after dg_kernel.glsl and the operator's DG_DECLARE_ATTRS_<OP>, whose
 * attributes must include input_zp and weight_zp (float rows: 0, not read).
 * Variant defines: DG_IN_DTYPE, DG_W_DTYPE, DG_OUT_DTYPE (also the bias's),
 * DG_ACC_DTYPE, DG_NATIVE_FP16. The rows of TOSA.001000.1:
 *   i8 x i8 -> i32, acc INT32: wraps on overflow (a REQUIRE in TOSA);
 *   i16 x i8 -> i48, acc INT48: int64 arithmetic, stored as i48;
 *   fp8 x fp8 -> fp16, acc FP16; fp16 -> fp16, acc FP16 or FP32;
 *   bf16 -> bf16, acc FP32; fp32 -> fp32, acc FP32.
 * An FP16 accumulator computes in fp32 (more precise than fp16, within TOSA's
 * dot-product bound for FP16) unless DG_NATIVE_FP16 makes it float16_t (needs
 * shaderFloat16). The store rounds to nearest even (bf16, fp16: dg_float.glsl).
 */
#ifndef DG_CONV_GLSL
#define DG_CONV_GLSL

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_W_DTYPE
#define DG_W_DTYPE DG_IN_DTYPE
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif
#ifndef DG_ACC_DTYPE
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
#define DG_ACC_DTYPE DG_DTYPE_FP32
#else
#define DG_ACC_DTYPE DG_OUT_DTYPE
#endif
#endif

#if DG_ACC_DTYPE == DG_DTYPE_FP16 && defined(DG_NATIVE_FP16)
#define acc_t float16_t
#elif DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
#define acc_t float
#else
#define acc_t dg_atype(DG_ACC_DTYPE)
#endif

/* acc + (value - input_zp) * (weight_el - weight_zp) in acc_t (float rows: no zero point). */
acc_t
dg_conv_mac(acc_t acc, dg_atype(DG_IN_DTYPE) value, dg_atype(DG_W_DTYPE) weight_el)
{
#if DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
   return acc + acc_t(value) * acc_t(weight_el);
#else
   return acc + acc_t(value - input_zp) * acc_t(weight_el - weight_zp);
#endif
}

/* acc plus the dot product of `count` input elements from in_row stepping in_step bytes with
 * as many weights from w_row stepping w_step bytes: one tap's input channels. */
acc_t
dg_conv_dot(acc_t acc, uvec2 in_row, uint in_step, uvec2 w_row, uint w_step, uint count)
{
   /* Not unrolled: with the count a constant the compiler could, at a large cost in pipeline
    * creation (bench_graph conv_fp32: 2x) for no dispatch gain on lavapipe. */
   [[dont_unroll]] for (uint i = 0u; i < count; i++) {
      acc = dg_conv_mac(acc, dg_load(DG_IN_DTYPE, vmel_address_add(in_row, i * in_step)),
                        dg_load(DG_W_DTYPE, vmel_address_add(w_row, i * w_step)));
   }
   return acc;
}

/* out = apply_add_s<out_t>(static_cast<out_t>(acc), bias[bias_index]), stored at `address`
 * (floats: rounded to out_t, added, rounded again by the store; integers: acc_t is out_t);
 * dg_conv_value() is the value before the store (a fused epilogue's input, D52),
 * dg_conv_value_with() the same with the bias element already read. */
dg_atype(DG_OUT_DTYPE)
dg_conv_value_with(acc_t acc, dg_atype(DG_OUT_DTYPE) bias_el)
{
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   float result = dg_cast(DG_OUT_DTYPE, float(acc)) + bias_el;
#else
   dg_atype(DG_OUT_DTYPE) result = dg_atype(DG_OUT_DTYPE)(acc) + bias_el;
#endif
   return result;
}

dg_atype(DG_OUT_DTYPE)
dg_conv_value(acc_t acc, vmel_tensor_record b_r, uint bias_index)
{
   return dg_conv_value_with(
      acc, dg_load(DG_OUT_DTYPE, dg_address(b_r, bias_index * b_r.strides[0])));
}

void
dg_conv_store(acc_t acc, vmel_tensor_record b_r, uint bias_index, uvec2 address)
{
   dg_store(DG_OUT_DTYPE, address, dg_conv_value(acc, b_r, bias_index));
}

#endif /* DG_CONV_GLSL */
