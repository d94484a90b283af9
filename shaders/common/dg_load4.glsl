/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Vector loads of 4 consecutive tensor elements as their raw bits, for the GEMM kernels'
 * staging (dg_gemm.glsl) and the SUBGROUP convolution (conv2d_subgroup.comp): one load of 4,
 * 8 or 16 bytes instead of four element loads. Include after dg_kernel.glsl.
 */
#ifndef DG_LOAD4_GLSL
#define DG_LOAD4_GLSL

/* 4 consecutive elements of `size` (1, 2 or 4) bytes at `address`, a multiple of 4 * size, as
 * their bits (dg_from_bits()): one vector load instead of four. */
layout(buffer_reference, buffer_reference_align = 16, std430) buffer dg_gemm_ref128 {
   uvec4 value;
};
layout(buffer_reference, buffer_reference_align = 8, std430) buffer dg_gemm_ref64 {
   uvec2 value;
};

uvec4
dg_gemm_load4_bits(uvec2 address, uint size)
{
   if (size == 4u)
      return dg_gemm_ref128(address).value;
   if (size == 2u) {
      uvec2 w = dg_gemm_ref64(address).value;
      return uvec4(w.x & 0xffffu, w.x >> 16, w.y & 0xffffu, w.y >> 16);
   }
   uint w = dg_ref32(address).value;
   return uvec4(w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu, w >> 24);
}

/* Whether the 4 elements of `size` bytes from `address`, `step` bytes apart, can be read with
 * dg_gemm_load4_bits(): contiguous and aligned. */
bool
dg_gemm_load4_ok(uvec2 address, uint step, uint size)
{
   return step == size && (address.x & (4u * size - 1u)) == 0u;
}

/* dg_gemm_load4_bits() with 8-byte loads for 4-byte elements, for the kernels written for CPU
 * devices (the SUBGROUP GEMMs, dg_sg_gemm.glsl; the ROW_BLOCK depthwise convolution):
 * lavapipe loads each component of a vector in its own loop over the lanes, so two 64-bit
 * words cost half four 32-bit ones. */
layout(buffer_reference, buffer_reference_align = 8, std430) buffer dg_ref_u64 {
   uint64_t value;
};

uvec4
dg_load4_bits_u64(uvec2 address, uint size)
{
   if (size == 4u) {
      uvec2 lo = unpackUint2x32(dg_ref_u64(address).value);
      uvec2 hi = unpackUint2x32(dg_ref_u64(vmel_address_add(address, 8u)).value);
      return uvec4(lo, hi);
   }
   if (size == 2u) {
      uvec2 w = unpackUint2x32(dg_ref_u64(address).value);
      return uvec4(w.x & 0xffffu, w.x >> 16, w.y & 0xffffu, w.y >> 16);
   }
   return dg_gemm_load4_bits(address, size);
}

#endif /* DG_LOAD4_GLSL */
