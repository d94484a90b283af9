/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The kernel type layer of the graph kernels (design.md §5), in the spirit of
 * ncnn's GLSL extension: every graph kernel includes this file first, right
 * after `#version 460` and GL_GOOGLE_include_directive. It owns
 *
 *  - the element types (DG_DTYPE_*), each with a storage type (how an element
 *    sits in memory) and an arithmetic type (what a kernel computes in):
 *
 *      dtype     storage                         arithmetic (dg_atype)
 *      bool      1 byte, 0 or 1 (read: != 0)     bool
 *      i8, i16   1, 2 bytes two's complement     int (sign-extended)
 *      i32       4 bytes                         int
 *      i48       8 bytes, int64 sign-extended    int64_t (read: bits 48..63 ignored)
 *                from bit 47 (TOSA's i48_t)
 *      fp16      IEEE binary16 bits              float (exact)
 *      bf16      bfloat16 bits                   float (exact)
 *      fp32      IEEE binary32                   float
 *      fp8e4m3   OCP OFP8 E4M3 bits              float (exact)
 *      fp8e5m2   OCP OFP8 E5M2 bits              float (exact)
 *
 *    with dg_load_<dtype>(address) and dg_store_<dtype>(address, value) (stores
 *    round to nearest even: dg_float.glsl), dg_cast_<dtype>(float) for the
 *    float types (the value rounded to the type, as a float), and generic forms
 *    that take a DG_DTYPE_* macro: dg_atype(dtype), dg_load(dtype, address),
 *    dg_store(dtype, address, value), dg_cast(dtype, value), DG_DTYPE_IS_FLOAT()
 *    (which also works in #if) and DG_DTYPE_SIZE() (which does not: glslang's
 *    preprocessor rejects its ?:, so #if tests the types). A kernel names its
 *    tensors' types with -D defines (DG_IN_DTYPE=DG_DTYPE_I8, ...); functions it
 *    never calls do not reach its SPIR-V, so a kernel needs only the storage
 *    features of the types it uses (8/16-bit storage, shaderInt64 for i48).
 *  - the tensor ABI (kernel_abi/graph_kernel.h): DG_TENSOR(k, name) declares
 *    kernel tensor k, DG_RECORD(name) is its record (kernel_abi/tensor_record.h);
 *    byte offsets from a record and coordinates in 32-bit arithmetic, and the
 *    element's device address as a uvec2 (add with carry, vmel_address.glsl);
 *  - work: the workgroup size, VMEL_SC_WORK_COUNT as vmel_work_count and
 *    vmel_work_index() over the 2D grid of 1D workgroups;
 *  - TOSA helpers shared by several kernels: NaN-mode max/min (apply_max_s and
 *    apply_min_s of TOSA 1.0.1 arithmetic_helpers.tosac).
 * It includes kernel_abi/tosa_args.h: the enumerants (DG_NAN_*, DG_ROUND_*),
 * the element copy's arguments (DG_DECLARE_ARGS) and, through it, the
 * generated dg_op_abi.h: each operator's kernel tensor bindings and its
 * attributes (DG_DECLARE_ATTRS_<OP>).
 *
 * Device-feature macros a variant may define:
 *    DG_NATIVE_FP16  fp16 accumulators compute in float16_t (shaderFloat16);
 *                    without it they compute in fp32, which TOSA's error bounds
 *                    for an FP16 accumulator also accept.
 */
#ifndef DG_KERNEL_GLSL
#define DG_KERNEL_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#ifdef DG_NATIVE_FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

#include "dg_float.glsl"
#include "kernel_abi/graph_kernel.h"
#include "kernel_abi/tensor_record.h"
#include "kernel_abi/tosa_args.h"
#include "vmel_address.glsl"

#define DG_CAT_(a, b) a##b
#define DG_CAT(a, b) DG_CAT_(a, b)

/* ---- element types ------------------------------------------------------------------------ */

/* The numbers of enum dg_type (graph/dg_ir.h). Plain literals: DG_DTYPE_FN pastes them. */
#define DG_DTYPE_BOOL 1
#define DG_DTYPE_I8 2
#define DG_DTYPE_I16 3
#define DG_DTYPE_I32 4
#define DG_DTYPE_I48 5
#define DG_DTYPE_FP16 6
#define DG_DTYPE_BF16 7
#define DG_DTYPE_FP32 8
#define DG_DTYPE_FP8E4M3 9
#define DG_DTYPE_FP8E5M2 10

#define DG_DTYPE_IS_FLOAT(dtype) ((dtype) >= DG_DTYPE_FP16)
#define DG_DTYPE_SIZE(dtype)                                                                       \
   ((dtype) == DG_DTYPE_I48 ? 8 : (dtype) == DG_DTYPE_I32 || (dtype) == DG_DTYPE_FP32 ? 4 :        \
    (dtype) == DG_DTYPE_I16 || (dtype) == DG_DTYPE_FP16 || (dtype) == DG_DTYPE_BF16 ? 2 : 1)

/* DG_DTYPE_FN(DG_DTYPE_I8, dg_load) is dg_load_i8: the per-type function or macro. */
#define DG_DTYPE_SUFFIX_1(f) f##_bool
#define DG_DTYPE_SUFFIX_2(f) f##_i8
#define DG_DTYPE_SUFFIX_3(f) f##_i16
#define DG_DTYPE_SUFFIX_4(f) f##_i32
#define DG_DTYPE_SUFFIX_5(f) f##_i48
#define DG_DTYPE_SUFFIX_6(f) f##_fp16
#define DG_DTYPE_SUFFIX_7(f) f##_bf16
#define DG_DTYPE_SUFFIX_8(f) f##_fp32
#define DG_DTYPE_SUFFIX_9(f) f##_fp8e4m3
#define DG_DTYPE_SUFFIX_10(f) f##_fp8e5m2
#define DG_DTYPE_FN(dtype, f) DG_CAT(DG_DTYPE_SUFFIX_, dtype)(f)

#define dg_atype(dtype) DG_DTYPE_FN(dtype, dg_atype)
#define dg_load(dtype, address) DG_DTYPE_FN(dtype, dg_load)(address)
#define dg_store(dtype, address, value) DG_DTYPE_FN(dtype, dg_store)(address, value)
#define dg_cast(dtype, value) DG_DTYPE_FN(dtype, dg_cast)(value)

#define dg_atype_bool bool
#define dg_atype_i8 int
#define dg_atype_i16 int
#define dg_atype_i32 int
#define dg_atype_i48 int64_t
#define dg_atype_fp16 float
#define dg_atype_bf16 float
#define dg_atype_fp32 float
#define dg_atype_fp8e4m3 float
#define dg_atype_fp8e5m2 float

/* One element at a device address; the alignment is the element size. */
layout(buffer_reference, buffer_reference_align = 1, std430) buffer dg_ref8 {
   uint8_t value;
};
layout(buffer_reference, buffer_reference_align = 2, std430) buffer dg_ref16 {
   uint16_t value;
};
layout(buffer_reference, buffer_reference_align = 4, std430) buffer dg_ref32 {
   uint value;
};
layout(buffer_reference, buffer_reference_align = 8, std430) buffer dg_ref64 {
   uvec2 value; /* lo, hi: 64-bit copies need no int64 */
};

/* Raw bits, zero-extended. */
uint
dg_load_bits8(uvec2 address)
{
   return uint(dg_ref8(address).value);
}

void
dg_store_bits8(uvec2 address, uint bits)
{
   dg_ref8(address).value = uint8_t(bits & 0xffu);
}

uint
dg_load_bits16(uvec2 address)
{
   return uint(dg_ref16(address).value);
}

void
dg_store_bits16(uvec2 address, uint bits)
{
   dg_ref16(address).value = uint16_t(bits & 0xffffu);
}

bool
dg_load_bool(uvec2 address)
{
   return dg_load_bits8(address) != 0u;
}

void
dg_store_bool(uvec2 address, bool value)
{
   dg_store_bits8(address, value ? 1u : 0u);
}

int
dg_load_i8(uvec2 address)
{
   return bitfieldExtract(int(dg_load_bits8(address)), 0, 8);
}

void
dg_store_i8(uvec2 address, int value)
{
   dg_store_bits8(address, uint(value));
}

int
dg_load_i16(uvec2 address)
{
   return bitfieldExtract(int(dg_load_bits16(address)), 0, 16);
}

void
dg_store_i16(uvec2 address, int value)
{
   dg_store_bits16(address, uint(value));
}

int
dg_load_i32(uvec2 address)
{
   return int(dg_ref32(address).value);
}

void
dg_store_i32(uvec2 address, int value)
{
   dg_ref32(address).value = uint(value);
}

/* TOSA's i48_t: the value of bits 0..47, sign-extended. */
int64_t
dg_load_i48(uvec2 address)
{
   uvec2 w = dg_ref64(address).value;
   int64_t v = int64_t(uint64_t(w.x) | (uint64_t(w.y) << 32));
   return (v << 16) >> 16;
}

/* Stores the low 48 bits, sign-extended to 64 (two's-complement wrap beyond i48). */
void
dg_store_i48(uvec2 address, int64_t value)
{
   int64_t v = (value << 16) >> 16;
   dg_ref64(address).value = uvec2(uint(v), uint(v >> 32));
}

float
dg_load_fp16(uvec2 address)
{
   return dg_fp16_to_float(dg_load_bits16(address));
}

void
dg_store_fp16(uvec2 address, float value)
{
   dg_store_bits16(address, dg_float_to_fp16(value));
}

float
dg_cast_fp16(float value)
{
   return dg_fp16_to_float(dg_float_to_fp16(value));
}

float
dg_load_bf16(uvec2 address)
{
   return dg_bf16_to_float(dg_load_bits16(address));
}

void
dg_store_bf16(uvec2 address, float value)
{
   dg_store_bits16(address, dg_float_to_bf16(value));
}

float
dg_cast_bf16(float value)
{
   return dg_bf16_to_float(dg_float_to_bf16(value));
}

float
dg_load_fp32(uvec2 address)
{
   return uintBitsToFloat(dg_ref32(address).value);
}

void
dg_store_fp32(uvec2 address, float value)
{
   dg_ref32(address).value = floatBitsToUint(value);
}

float
dg_cast_fp32(float value)
{
   return value;
}

float
dg_load_fp8e4m3(uvec2 address)
{
   return dg_fp8e4m3_to_float(dg_load_bits8(address));
}

/* Non-saturating (TOSA 1.0.1 CAST): overflow gives NaN. */
void
dg_store_fp8e4m3(uvec2 address, float value)
{
   dg_store_bits8(address, dg_float_to_fp8e4m3(value, false));
}

float
dg_cast_fp8e4m3(float value)
{
   return dg_fp8e4m3_to_float(dg_float_to_fp8e4m3(value, false));
}

float
dg_load_fp8e5m2(uvec2 address)
{
   return dg_fp8e5m2_to_float(dg_load_bits8(address));
}

/* Non-saturating (TOSA 1.0.1 CAST): overflow gives infinity. */
void
dg_store_fp8e5m2(uvec2 address, float value)
{
   dg_store_bits8(address, dg_float_to_fp8e5m2(value, false));
}

float
dg_cast_fp8e5m2(float value)
{
   return dg_fp8e5m2_to_float(dg_float_to_fp8e5m2(value, false));
}

/* ---- raw bits ----------------------------------------------------------------------------- */

/* An element of 1, 2 or 4 bytes as its bits, zero-extended in a uint (what a vector load of
 * several elements holds): dg_from_bits(dtype, bits) is its value (as dg_load gives it),
 * dg_to_bits(dtype, value) the bits dg_store would write (rounded to nearest even). Not for
 * i48, which takes 8 bytes. */
#define dg_from_bits(dtype, bits) DG_DTYPE_FN(dtype, dg_from_bits)(bits)
#define dg_to_bits(dtype, value) DG_DTYPE_FN(dtype, dg_to_bits)(value)

#define dg_from_bits_bool(bits) ((bits) != 0u)
#define dg_to_bits_bool(value) ((value) ? 1u : 0u)
#define dg_from_bits_i8(bits) bitfieldExtract(int(bits), 0, 8)
#define dg_to_bits_i8(value) (uint(value) & 0xffu)
#define dg_from_bits_i16(bits) bitfieldExtract(int(bits), 0, 16)
#define dg_to_bits_i16(value) (uint(value) & 0xffffu)
#define dg_from_bits_i32(bits) int(bits)
#define dg_to_bits_i32(value) uint(value)
#define dg_from_bits_fp16(bits) dg_fp16_to_float(bits)
#define dg_to_bits_fp16(value) dg_float_to_fp16(value)
#define dg_from_bits_bf16(bits) dg_bf16_to_float(bits)
#define dg_to_bits_bf16(value) dg_float_to_bf16(value)
#define dg_from_bits_fp32(bits) uintBitsToFloat(bits)
#define dg_to_bits_fp32(value) floatBitsToUint(value)
#define dg_from_bits_fp8e4m3(bits) dg_fp8e4m3_to_float(bits)
#define dg_to_bits_fp8e4m3(value) dg_float_to_fp8e4m3(value, false)
#define dg_from_bits_fp8e5m2(bits) dg_fp8e5m2_to_float(bits)
#define dg_to_bits_fp8e5m2(value) dg_float_to_fp8e5m2(value, false)

/* ---- tensors ------------------------------------------------------------------------------ */

/*
 * Declares kernel tensor k under `name` (graph_kernel.h): the array of tensor
 * records at set 0, binding k, with VMEL_SC_TENSOR_COUNT(k) elements, and the
 * element VMEL_SC_TENSOR_INDEX(k) the kernel reads. Use at global scope,
 * followed by a semicolon.
 */
#define DG_TENSOR(k, name)                                                                         \
   layout(constant_id = VMEL_SC_TENSOR_COUNT(k)) const uint name##_tensor_count = 1u;              \
   layout(constant_id = VMEL_SC_TENSOR_INDEX(k)) const uint name##_tensor_index = 0u;              \
   DG_SHAPE_CONSTANTS(k, name)                                                                     \
   layout(set = 0, binding = k, std430) readonly buffer name##_tensor_block {                      \
      vmel_tensor_record record;                                                                   \
   } name##_tensor[name##_tensor_count]

/* Kernel tensor k's shape as specialization constants (graph_kernel.h VMEL_SC_SHAPE). */
#define DG_SHAPE_SC(k, name, field, i, value)                                                      \
   layout(constant_id = VMEL_SC_SHAPE(k, i)) const uint name##_##field = value;
#define DG_SHAPE_CONSTANTS(k, name)                                                                \
   DG_SHAPE_SC(k, name, known, VMEL_SHAPE_KNOWN, 0u)                                               \
   DG_SHAPE_SC(k, name, rank, VMEL_SHAPE_RANK, 1u)                                                 \
   DG_SHAPE_SC(k, name, d0, VMEL_SHAPE_DIM(0), 1u)                                                 \
   DG_SHAPE_SC(k, name, d1, VMEL_SHAPE_DIM(1), 1u)                                                 \
   DG_SHAPE_SC(k, name, d2, VMEL_SHAPE_DIM(2), 1u)                                                 \
   DG_SHAPE_SC(k, name, d3, VMEL_SHAPE_DIM(3), 1u)                                                 \
   DG_SHAPE_SC(k, name, d4, VMEL_SHAPE_DIM(4), 1u)                                                 \
   DG_SHAPE_SC(k, name, d5, VMEL_SHAPE_DIM(5), 1u)                                                 \
   DG_SHAPE_SC(k, name, s0, VMEL_SHAPE_STRIDE(0), 0u)                                              \
   DG_SHAPE_SC(k, name, s1, VMEL_SHAPE_STRIDE(1), 0u)                                              \
   DG_SHAPE_SC(k, name, s2, VMEL_SHAPE_STRIDE(2), 0u)                                              \
   DG_SHAPE_SC(k, name, s3, VMEL_SHAPE_STRIDE(3), 0u)                                              \
   DG_SHAPE_SC(k, name, s4, VMEL_SHAPE_STRIDE(4), 0u)                                              \
   DG_SHAPE_SC(k, name, s5, VMEL_SHAPE_STRIDE(5), 0u)

/* The record a kernel computes with: the bound record, with the shape and strides that
 * pipeline creation specialised in its place (constants, so the compiler folds the
 * div/mod over dimensions and unrolls the loops over the rank). */
vmel_tensor_record
dg_specialised_record(vmel_tensor_record bound, uint known, uint rank, uint d0, uint d1, uint d2,
                      uint d3, uint d4, uint d5, uint s0, uint s1, uint s2, uint s3, uint s4,
                      uint s5)
{
   vmel_tensor_record r = bound;
   if ((known & VMEL_SHAPE_DIMS) != 0u) {
      r.rank = rank;
      r.dims[0] = d0;
      r.dims[1] = d1;
      r.dims[2] = d2;
      r.dims[3] = d3;
      r.dims[4] = d4;
      r.dims[5] = d5;
   }
   if ((known & VMEL_SHAPE_STRIDES) != 0u) {
      r.strides[0] = s0;
      r.strides[1] = s1;
      r.strides[2] = s2;
      r.strides[3] = s3;
      r.strides[4] = s4;
      r.strides[5] = s5;
   }
   return r;
}

/* The record of a tensor declared with DG_TENSOR (a vmel_tensor_record). */
#define DG_RECORD(name)                                                                            \
   dg_specialised_record(name##_tensor[name##_tensor_index].record, name##_known, name##_rank,     \
                         name##_d0, name##_d1, name##_d2, name##_d3, name##_d4, name##_d5,        \
                         name##_s0, name##_s1, name##_s2, name##_s3, name##_s4, name##_s5)

/* Elements in the tensor: the product of its dimensions. */
uint
dg_element_count(vmel_tensor_record r)
{
   uint count = 1u;
   for (uint d = 0u; d < r.rank; d++)
      count *= r.dims[d];
   return count;
}

/* The device address of the element at byte offset `offset` (uvec2 add with carry). */
uvec2
dg_address(vmel_tensor_record r, uint offset)
{
   return vmel_address_add(r.address, offset);
}

/* Byte offsets of coordinates, outermost first (rank 3, rank 4). Every offset of a tensor fits
 * 32 bits (tensor_record.h), so the arithmetic is uint. */
uint
dg_offset3(vmel_tensor_record r, uint c0, uint c1, uint c2)
{
   return c0 * r.strides[0] + c1 * r.strides[1] + c2 * r.strides[2];
}

uint
dg_offset4(vmel_tensor_record r, uint c0, uint c1, uint c2, uint c3)
{
   return c0 * r.strides[0] + c1 * r.strides[1] + c2 * r.strides[2] + c3 * r.strides[3];
}

/* The coordinates of element `index` in row-major order (TOSA tensor_offset_to_index):
 * c[d] for d < rank, 0 above. */
void
dg_coords(vmel_tensor_record r, uint index, out uint c[VMEL_TENSOR_MAX_RANK])
{
   for (int d = VMEL_TENSOR_MAX_RANK - 1; d >= 0; d--) {
      c[d] = 0u;
      if (uint(d) < r.rank) {
         uint extent = r.dims[d];
         c[d] = index % extent;
         index /= extent;
      }
   }
}

/* Byte offset of coordinates c[0..rank). */
uint
dg_offset(vmel_tensor_record r, uint c[VMEL_TENSOR_MAX_RANK])
{
   uint offset = 0u;
   for (uint d = 0u; d < r.rank; d++)
      offset += c[d] * r.strides[d];
   return offset;
}

/* Byte offset of element `index` in row-major order. */
uint
dg_offset_of_index(vmel_tensor_record r, uint index)
{
   uint offset = 0u;
   for (int d = int(r.rank) - 1; d >= 0; d--) {
      uint extent = r.dims[d];
      offset += (index % extent) * r.strides[d];
      index /= extent;
   }
   return offset;
}

/*
 * Byte offset in tensor `src` of the element that element `index` (row-major
 * over the dimensions of `dst`) reads under TOSA broadcasting (apply_broadcast:
 * equal ranks, a dimension of 1 in `src` repeats).
 */
uint
dg_offset_broadcast(vmel_tensor_record dst, vmel_tensor_record src, uint index)
{
   uint offset = 0u;
   for (int d = int(dst.rank) - 1; d >= 0; d--) {
      uint extent = dst.dims[d];
      uint c = index % extent;
      index /= extent;
      if (src.dims[d] != 1u)
         offset += c * src.strides[d];
   }
   return offset;
}

/* ---- work --------------------------------------------------------------------------------- */

layout(local_size_x = VMEL_GRAPH_LOCAL_SIZE, local_size_x_id = VMEL_SC_LOCAL_SIZE_X, local_size_y = 1,
       local_size_z = 1) in;

/* Work items of the dispatch; what one is, each kernel's header comment says. */
layout(constant_id = VMEL_SC_WORK_COUNT) const uint vmel_work_count = 1u;

/* This invocation's work item in the 2D grid of 1D workgroups (row-major over x, then y).
 * Valid only when below vmel_work_count. */
uint
vmel_work_index()
{
   uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   return group * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
}

/* ---- TOSA helpers ------------------------------------------------------------------------- */

float
dg_nan()
{
   return uintBitsToFloat(0x7fc00000u);
}

/* apply_max_s / apply_min_s for floats: PROPAGATE gives NaN if either is NaN, IGNORE the
 * operand that is not (NaN if both are). */
float
dg_max_nan(float a, float b, uint nan_mode)
{
   if (isnan(a) || isnan(b))
      return nan_mode == uint(DG_NAN_PROPAGATE) ? dg_nan() : (isnan(a) ? b : a);
   return a >= b ? a : b;
}

float
dg_min_nan(float a, float b, uint nan_mode)
{
   if (isnan(a) || isnan(b))
      return nan_mode == uint(DG_NAN_PROPAGATE) ? dg_nan() : (isnan(a) ? b : a);
   return a < b ? a : b;
}

#endif /* DG_KERNEL_GLSL */
