/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Vectors of raw bits for kernels whose work item is DG_EW_ITEMS consecutive
 * elements (the elementwise driver, dg_elementwise.glsl, and the data-movement
 * driver, dg_move.glsl): DG_EW_ITEMS elements of at most 4 bytes, packed and
 * aligned to their bytes (16 at most), move as uvec4 / uvec2 / uint words.
 * A vector holds its elements in increasing address order, the first in the
 * low bits (little-endian, as every Vulkan device we know).
 * Include after dg_kernel.glsl, with DG_EW_ITEMS defined (4, 8 or 16).
 */
#ifndef DG_EW_VECTOR_GLSL
#define DG_EW_VECTOR_GLSL

#extension GL_EXT_control_flow_attributes : require

layout(buffer_reference, buffer_reference_align = 16, std430) readonly buffer dg_ew_in16 {
   uvec4 value;
};
layout(buffer_reference, buffer_reference_align = 8, std430) readonly buffer dg_ew_in8 {
   uvec2 value;
};
layout(buffer_reference, buffer_reference_align = 4, std430) readonly buffer dg_ew_in4 {
   uint value;
};
layout(buffer_reference, buffer_reference_align = 16, std430) writeonly buffer dg_ew_out16 {
   uvec4 value;
};
layout(buffer_reference, buffer_reference_align = 8, std430) writeonly buffer dg_ew_out8 {
   uvec2 value;
};
layout(buffer_reference, buffer_reference_align = 4, std430) writeonly buffer dg_ew_out4 {
   uint value;
};

/* Whether the item's elements of a tensor of `size`-byte elements stepping by `step` from
 * `address` are one vector: packed (step == size) and aligned to their bytes (16 at most). */
bool
dg_ew_vector_at(uint size, uint step, uvec2 address)
{
   return step == size && (address.x & (min(DG_EW_ITEMS * size, 16u) - 1u)) == 0u;
}

/* The DG_EW_ITEMS * size bytes at `address` (dg_ew_vector_at) as words, w[i] for i below
 * DG_EW_ITEMS * size / 4. */
void
dg_ew_read_words(uvec2 address, uint size, out uint w[DG_EW_ITEMS])
{
   uint bytes = DG_EW_ITEMS * size;
   [[unroll]] for (uint i = 0u; i < DG_EW_ITEMS; i++)
      w[i] = 0u;
   if (bytes >= 16u) {
      [[unroll]] for (uint q = 0u; q < DG_EW_ITEMS / 4u; q++) {
         if (q < bytes / 16u) {
            uvec4 v = dg_ew_in16(vmel_address_add(address, 16u * q)).value;
            w[4u * q] = v.x;
            w[4u * q + 1u] = v.y;
            w[4u * q + 2u] = v.z;
            w[4u * q + 3u] = v.w;
         }
      }
   } else if (bytes == 8u) {
      uvec2 v = dg_ew_in8(address).value;
      w[0] = v.x;
      w[1] = v.y;
   } else {
      w[0] = dg_ew_in4(address).value;
   }
}

void
dg_ew_write_words(uvec2 address, uint size, uint w[DG_EW_ITEMS])
{
   uint bytes = DG_EW_ITEMS * size;
   if (bytes >= 16u) {
      [[unroll]] for (uint q = 0u; q < DG_EW_ITEMS / 4u; q++) {
         if (q < bytes / 16u)
            dg_ew_out16(vmel_address_add(address, 16u * q)).value =
                uvec4(w[4u * q], w[4u * q + 1u], w[4u * q + 2u], w[4u * q + 3u]);
      }
   } else if (bytes == 8u) {
      dg_ew_out8(address).value = uvec2(w[0], w[1]);
   } else {
      dg_ew_out4(address).value = w[0];
   }
}

/* Element k's bits among words of elements of `size` bytes. */
uint
dg_ew_bits(uint w[DG_EW_ITEMS], uint k, uint size)
{
   if (size == 4u)
      return w[k];
   uint per_word = 4u / size;
   return bitfieldExtract(w[k / per_word], int((k % per_word) * size * 8u), int(size * 8u));
}

#endif /* DG_EW_VECTOR_GLSL */
