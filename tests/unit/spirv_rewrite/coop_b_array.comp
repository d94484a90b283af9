/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * For unit.spirv_rewrite.coop_b_array: A and B share one NV matrix type (16x16 fp16) and
 * both are held in arrays, so the KHR form would need an array type per role, which the
 * coop_khr rewrite refuses (cmake/spirv_coop_khr.c; dg_gemm_coop.glsl keeps B plain).
 */
#version 460
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
shared float16_t s[256];
shared float c_out[256];
void
main()
{
   fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a[2], b[2];
   fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> c = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
   for (int i = 0; i < 2; i++) {
      coopMatLoadNV(a[i], s, 0, 16, false);
      coopMatLoadNV(b[i], s, 0, 16, false);
      c = coopMatMulAddNV(a[i], b[i], c);
   }
   coopMatStoreNV(c, c_out, 0, 16, false);
}
