/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The gemm epilogue (D52; kernel_abi/gemm_epilogue.h has the contract): the elementwise
 * operators fused after a producer kernel, applied to one output element in registers, then
 * the store in the type of the fused chain's last tensor. The op list is specialization
 * constants, so after specialization each step is straight-line code for one operator.
 *
 * Include after dg_kernel.glsl with DG_GEMM_EPI_FIRST defined (the kernel binding of the
 * first extra tensor: the one after the producer's output) and DG_EPI_IN_DTYPE (the type the
 * producer's result is stored in when unfused). Then call
 *   dg_gemm_epilogue(value, coord, rank, address)
 * with the producer's result as its unfused kernel would store it (dg_atype() of
 * DG_EPI_IN_DTYPE, before the store's rounding), the element's coordinates in the output
 * (outermost first, `rank` of them), and the address of the element in the bound output
 * (the chain's last tensor).
 *
 * Every step rounds as the graph's intermediate it replaces is stored: floats to their type
 * (fp16, bf16, fp32: computed in fp32 then rounded once, which is the correctly rounded
 * fp16/bf16 result of ADD, SUB and MUL), integers to their width (RESCALE and CLAMP results are
 * in range; CAST between integers truncates). The float operators are `precise`, as in
 * binary.comp, so no compiler contracts a MUL and an ADD of two steps into one fma.
 */
#ifndef DG_GEMM_EPILOGUE_GLSL
#define DG_GEMM_EPILOGUE_GLSL

#extension GL_EXT_control_flow_attributes : require

#include "dg_cast.glsl"
#include "dg_math.glsl"
#include "dg_rescale.glsl"
#include "kernel_abi/gemm_epilogue.h"

#ifndef DG_GEMM_EPI_FIRST
#error "define DG_GEMM_EPI_FIRST, the binding of the first extra tensor"
#endif

layout(constant_id = VMEL_SC_EPI(0)) const uint dg_epi_count = 0u;
#define DG_EPI_DECLARE_OP(j)                                                                       \
   layout(constant_id = VMEL_SC_EPI(1 + DG_EPI_OP_WORDS * j)) const uint dg_epi_w0_##j = 0u;      \
   layout(constant_id = VMEL_SC_EPI(2 + DG_EPI_OP_WORDS * j)) const uint dg_epi_w1_##j = 0u;      \
   layout(constant_id = VMEL_SC_EPI(3 + DG_EPI_OP_WORDS * j)) const uint dg_epi_w2_##j = 0u;      \
   layout(constant_id = VMEL_SC_EPI(4 + DG_EPI_OP_WORDS * j)) const uint dg_epi_w3_##j = 0u;
DG_EPI_DECLARE_OP(0)
DG_EPI_DECLARE_OP(1)
DG_EPI_DECLARE_OP(2)
DG_EPI_DECLARE_OP(3)
DG_EPI_DECLARE_OP(4)
DG_EPI_DECLARE_OP(5)
#if DG_EPI_MAX_OPS != 6
#error "declare one DG_EPI_DECLARE_OP and one DG_EPI_STEP per op"
#endif

DG_TENSOR(DG_GEMM_EPI_FIRST + 0, dg_epi_t0);
DG_TENSOR(DG_GEMM_EPI_FIRST + 1, dg_epi_t1);
DG_TENSOR(DG_GEMM_EPI_FIRST + 2, dg_epi_t2);
DG_TENSOR(DG_GEMM_EPI_FIRST + 3, dg_epi_t3);
#if DG_EPI_TENSORS != 4
#error "declare one tensor per DG_EPI_TENSORS"
#endif

/* Extra tensor t's record (t a constant after specialization). */
vmel_tensor_record
dg_epi_record(uint t)
{
   if (t == 0u)
      return DG_RECORD(dg_epi_t0);
   if (t == 1u)
      return DG_RECORD(dg_epi_t1);
   if (t == 2u)
      return DG_RECORD(dg_epi_t2);
   return DG_RECORD(dg_epi_t3);
}

bool
dg_epi_is_float(uint dtype)
{
   return dtype >= DG_DTYPE_FP16;
}

/* A float as an intermediate of `dtype` stores it. */
float
dg_epi_round_float(uint dtype, float v)
{
   if (dtype == DG_DTYPE_FP16)
      return dg_cast_fp16(v);
   if (dtype == DG_DTYPE_BF16)
      return dg_cast_bf16(v);
   return v;
}

/* An integer as an intermediate of `dtype` stores it and the next operator loads it. */
int
dg_epi_round_int(uint dtype, int v)
{
   if (dtype == DG_DTYPE_I8)
      return bitfieldExtract(v, 0, 8);
   if (dtype == DG_DTYPE_I16)
      return bitfieldExtract(v, 0, 16);
   return v;
}

/* The byte offset in tensor r of the element at coord (r broadcast: its dimensions of 1). */
uint
dg_epi_offset(vmel_tensor_record r, uvec4 coord, uint rank)
{
   uint offset = 0u;
   [[unroll]] for (uint d = 0u; d < 4u; d++) {
      if (d < rank && r.dims[d] != 1u)
         offset += coord[d] * r.strides[d];
   }
   return offset;
}

/* The other operand of a binary step, loaded as a value of dtype. */
void
dg_epi_load(uint t, uint dtype, uvec4 coord, uint rank, out int iv, out float fv)
{
   vmel_tensor_record r = dg_epi_record(t);
   uvec2 at = dg_address(r, dg_epi_offset(r, coord, rank));
   iv = 0;
   fv = 0.0;
   if (dtype == DG_DTYPE_I8)
      iv = dg_load_i8(at);
   else if (dtype == DG_DTYPE_I16)
      iv = dg_load_i16(at);
   else if (dtype == DG_DTYPE_I32)
      iv = dg_load_i32(at);
   else if (dtype == DG_DTYPE_FP16)
      fv = dg_load_fp16(at);
   else if (dtype == DG_DTYPE_BF16)
      fv = dg_load_bf16(at);
   else
      fv = dg_load_fp32(at);
}

/* RESCALE of an integer of in_dtype into out_dtype, as rescale.comp. */
int
dg_epi_rescale(int in_value, uint in_dtype, uint out_dtype, uint flags, int input_zp,
               int output_zp, uint t, uint channel)
{
   int64_t value = int64_t(in_value);
   if ((flags & DG_EPI_RESCALE_INPUT_UNSIGNED) != 0u && in_dtype == DG_DTYPE_I8)
      value &= int64_t(0xff);
   if ((flags & DG_EPI_RESCALE_INPUT_UNSIGNED) != 0u && in_dtype == DG_DTYPE_I16)
      value &= int64_t(0xffff);
   value -= int64_t(input_zp);
   vmel_tensor_record m_r = dg_epi_record(t), s_r = dg_epi_record(t + 1u);
   uint c = (flags & DG_EPI_RESCALE_PER_CHANNEL) != 0u ? channel : 0u;
   int m = dg_load_i32(dg_address(m_r, c * m_r.strides[0]));
   int s = clamp(dg_load_i8(dg_address(s_r, c * s_r.strides[0])), 1, 63);
   int result = (flags & DG_EPI_RESCALE_SCALE32) != 0u
                   ? apply_scale_32(int(value), m, s,
                                    (flags & DG_EPI_RESCALE_DOUBLE_ROUND) != 0u)
                   : apply_scale_16(value, m, s);
   result += output_zp;
   if (out_dtype != DG_DTYPE_I32) {
      int bits = out_dtype == DG_DTYPE_I8 ? 8 : 16;
      if ((flags & DG_EPI_RESCALE_OUTPUT_UNSIGNED) != 0u)
         result = clamp(result, 0, (1 << bits) - 1);
      else
         result = clamp(result, -(1 << (bits - 1)), (1 << (bits - 1)) - 1);
   }
   return result;
}

/* One step: the value (iv for integer dtypes, fv for floats) of in_dtype becomes the value of
 * the step's result dtype. */
void
dg_epi_step(inout int iv, inout float fv, uint in_dtype, uint w0, uint w1, uint w2, uint w3,
            uvec4 coord, uint rank)
{
   uint op = DG_EPI_OP_OF(w0), out_dtype = DG_EPI_DTYPE_OF(w0), t = DG_EPI_TENSOR_OF(w0);
   bool swap = (DG_EPI_FLAGS_OF(w0) & DG_EPI_SWAP) != 0u;
   bool in_float = dg_epi_is_float(in_dtype), out_float = dg_epi_is_float(out_dtype);
   if (op == DG_EPI_RESCALE) {
      iv = dg_epi_rescale(iv, in_dtype, out_dtype, w1, int(w2), int(w3), t, coord[rank - 1u]);
   } else if (op == DG_EPI_CLAMP) {
      if (in_float) {
         fv = dg_max_nan(fv, uintBitsToFloat(w1), w3);
         fv = dg_min_nan(fv, uintBitsToFloat(w2), w3);
      } else {
         iv = clamp(iv, int(w1), int(w2));
      }
   } else if (op == DG_EPI_ADD || op == DG_EPI_SUB || op == DG_EPI_MUL) {
      int io;
      float fo;
      dg_epi_load(t, out_dtype, coord, rank, io, fo);
      if (out_float) {
         float a = swap ? fo : fv, b = swap ? fv : fo;
         precise float r = op == DG_EPI_ADD ? a + b : op == DG_EPI_SUB ? a - b : a * b;
         fv = dg_epi_round_float(out_dtype, r);
      } else {
         int a = swap ? io : iv, b = swap ? iv : io;
         int shift = int(w1);
         if (op == DG_EPI_ADD) {
            iv = a + b;
         } else if (op == DG_EPI_SUB) {
            iv = a - b;
         } else if (shift > 0) {
            int64_t product = int64_t(a) * int64_t(b);
            int64_t round = int64_t(1) << (shift - 1);
            iv = int((product + round) >> shift);
         } else {
            iv = a * b;
         }
      }
   } else if (op == DG_EPI_SIGMOID) {
      fv = dg_epi_round_float(out_dtype, dg_math_sigmoid(fv));
   } else if (op == DG_EPI_TANH) {
      fv = dg_epi_round_float(out_dtype, dg_math_tanh(fv));
   } else if (op == DG_EPI_CAST) {
      if (!in_float && !out_float) {
         iv = dg_epi_round_int(out_dtype, iv);
      } else if (in_float && !out_float) {
         int lo = out_dtype == DG_DTYPE_I8 ? -128 : out_dtype == DG_DTYPE_I16 ? -32768
                                                                              : -2147483647 - 1;
         int hi = out_dtype == DG_DTYPE_I8 ? 127 : out_dtype == DG_DTYPE_I16 ? 32767
                                                                            : 2147483647;
         iv = dg_cast_float_to_int(fv, lo, hi);
      } else if (!in_float) {
         uint bits = out_dtype == DG_DTYPE_FP16 ? 11u : out_dtype == DG_DTYPE_BF16 ? 8u : 24u;
         fv = dg_cast_int_to_float(iv, bits);
      } else {
         uint f = floatBitsToUint(fv);
         if ((f & 0x7fffffffu) > 0x7f800000u)
            fv = uintBitsToFloat((f & 0x80000000u) | 0x7fc00000u);
         fv = dg_epi_round_float(out_dtype, fv);
      }
   }
}

/* The step of op j, its input the previous op's result dtype. */
#define DG_EPI_STEP(j)                                                                             \
   if (dg_epi_count > j) {                                                                         \
      dg_epi_step(iv, fv, dtype, dg_epi_w0_##j, dg_epi_w1_##j, dg_epi_w2_##j, dg_epi_w3_##j,      \
                  coord, rank);                                                                    \
      dtype = DG_EPI_DTYPE_OF(dg_epi_w0_##j);                                                      \
   }

void
dg_gemm_epilogue(dg_atype(DG_EPI_IN_DTYPE) value, uvec4 coord, uint rank, uvec2 address)
{
   uint dtype = DG_EPI_IN_DTYPE;
   int iv = 0;
   float fv = 0.0;
#if DG_DTYPE_IS_FLOAT(DG_EPI_IN_DTYPE)
   fv = dg_cast(DG_EPI_IN_DTYPE, float(value));
#else
   iv = int(value);
#endif
   DG_EPI_STEP(0)
   DG_EPI_STEP(1)
   DG_EPI_STEP(2)
   DG_EPI_STEP(3)
   DG_EPI_STEP(4)
   DG_EPI_STEP(5)
   if (dtype == DG_DTYPE_I8)
      dg_store_i8(address, iv);
   else if (dtype == DG_DTYPE_I16)
      dg_store_i16(address, iv);
   else if (dtype == DG_DTYPE_I32)
      dg_store_i32(address, iv);
   else if (dtype == DG_DTYPE_FP16)
      dg_store_fp16(address, fv);
   else if (dtype == DG_DTYPE_BF16)
      dg_store_bf16(address, fv);
   else
      dg_store_fp32(address, fv);
}

#endif /* DG_GEMM_EPILOGUE_GLSL */
