/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * 64-bit device addresses as uvec2 (lo, hi), for kernels that reach memory
 * through GL_EXT_buffer_reference_uvec2 and must not assume shaderInt64.
 */
#ifndef VMEL_ADDRESS_GLSL
#define VMEL_ADDRESS_GLSL

/* address + offset, carrying into the high word. */
uvec2
vmel_address_add(uvec2 address, uint offset)
{
   uint carry;
   uint lo = uaddCarry(address.x, offset, carry);
   return uvec2(lo, address.y + carry);
}

#endif
