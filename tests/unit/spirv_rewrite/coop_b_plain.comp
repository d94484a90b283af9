/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * For unit.spirv_rewrite.coop_b_plain: A and B share one NV matrix type (16x16 fp16) and
 * B is a plain variable: the rewrite gives it a type of its own (MatrixB) and the result
 * passes its checks (unit.spirv_rewrite.coop_b_plain).
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
   fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> a[2];
   fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> c = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
   fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> b;
   for (int i = 0; i < 2; i++) {
      coopMatLoadNV(a[i], s, 0, 16, false);
      coopMatLoadNV(b, s, 0, 16, false);
      c = coopMatMulAddNV(a[i], b, c);
   }
   coopMatStoreNV(c, c_out, 0, 16, false);
}
