/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * For unit.spirv_rewrite.coop_bf16_bits: 16x16 fp16 fragments loaded from 16-bit patterns
 * staged as uvec4, summed into fp32: the 16-bit float is only the fragments' component type,
 * so coop_khr_bf16 makes it bf16 (D60). coop_b_plain.comp, whose shared array is of
 * float16_t, is refused by the same mode (unit.spirv_rewrite.bf16_refuses_f16_values).
 */
#version 460
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
shared uvec4 s[32];
shared float c_out[256];
void
main()
{
   fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a;
   fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> b;
   fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> c = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
   coopMatLoadNV(a, s, 0, 2, false);
   coopMatLoadNV(b, s, 0, 2, false);
   c = coopMatMulAddNV(a, b, c);
   coopMatStoreNV(c, c_out, 0, 16, false);
}
