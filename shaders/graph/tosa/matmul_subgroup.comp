/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MATMUL (§2.3 "Tensor Operators"), the SUBGROUP variant (D63):
 * output[n,h,w] = sum over c of (A[n,h,c] - A_zp) * (B[n,c,w] - B_zp) in the accumulator type
 * (the output type), as matmul.comp, through the SUBGROUP GEMM core of conv2d_subgroup.comp
 * (dg_sg_gemm.glsl, D55), written for CPU devices with 8-lane subgroups (lavapipe): no shared
 * memory and no barriers; each lane holds DG_SG_TM rows of A, which it reads itself (4 values
 * of a row at once where K is a multiple of 4 and A's rows are packed and aligned), and the
 * subgroup DG_SG_TN columns of B, each k's row loaded between the lanes and broadcast. Every
 * output accumulates its products in increasing k (i8: wrapping i32 sums, bit-exact; fp32:
 * within TOSA's dot-product bound as every MATMUL kernel); a row past M and a k past K stage 0.
 *
 * Tensors (binding order): 0 A [N,H,C], 1 B [N,C,W], 2 output [N,H,W].
 * Grid: one workgroup of DG_SG_LOCAL invocations per DG_SG_BM x DG_SG_TN output tile, tiles
 * row-major over (n, tile row, tile column); the build takes this kernel only where the
 * device's subgroup size is DG_SG_LANES with ballot operations in compute.
 * Attributes (struct dg_attrs_matmul): a_zp, b_zp (i8 rows).
 * Variant defines: DG_IN_DTYPE (A and B), DG_OUT_DTYPE (i8 -> i32, fp32 -> fp32).
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_MATMUL

#define DG_SG_ACC_DTYPE DG_OUT_DTYPE
#define DG_SG_B_DTYPE DG_IN_DTYPE
#define DG_SG_B_ZP b_zp
#define DG_SG_B_AT(k, c) vmel_address_add(b_base, (k) * b_r.strides[1] + (c) * b_r.strides[2])
#define DG_SG_B_SAFE b_r.address
#define DG_SG_B_STEP b_r.strides[2]
#define DG_SG_COLS cols
#include "dg_sg_gemm.glsl"

DG_TENSOR(DG_MATMUL_A, a);
DG_TENSOR(DG_MATMUL_B, b);
DG_TENSOR(DG_MATMUL_OUTPUT, output);

void
main()
{
   vmel_tensor_record a_r = DG_RECORD(a);
   vmel_tensor_record b_r = DG_RECORD(b);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint batch = out_r.dims[0], rows = out_r.dims[1], cols = out_r.dims[2];
   uint depth = a_r.dims[2];
   uint tiles_n = (cols + DG_SG_TN - 1u) / DG_SG_TN;
   uint tiles_m = (rows + DG_SG_BM - 1u) / DG_SG_BM;
   uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   if (tile >= batch * tiles_m * tiles_n)
      return; /* the whole workgroup */
   uint lane = gl_SubgroupInvocationID;
   uint n = tile / (tiles_m * tiles_n);
   uint m0 = (tile / tiles_n) % tiles_m * DG_SG_BM + gl_SubgroupID * (DG_SG_LANES * DG_SG_TM);
   uint n0 = tile % tiles_n * DG_SG_TN;
   uvec2 a_base = dg_address(a_r, n * a_r.strides[0]);
   uvec2 b_base = dg_address(b_r, n * b_r.strides[0]);

   /* Whether 4 consecutive elements of an A row / a B row are packed and 4-element aligned
    * (the same for every lane: a vector load each). */
   uint size = DG_DTYPE_SIZE(DG_IN_DTYPE);
   bool a_vec = depth % 4u == 0u && a_r.strides[2] == size &&
                ((a_r.strides[0] | a_r.strides[1] | a_r.address.x) & (4u * size - 1u)) == 0u;
   bool b_vec = cols % 4u == 0u && b_r.strides[2] == size &&
                ((b_r.strides[0] | b_r.strides[1] | b_r.address.x) & (4u * size - 1u)) == 0u;

   /* The lane's rows: row t is m0 + t * DG_SG_LANES + lane. */
   uvec2 a_at[DG_SG_TM];
   bool a_ok[DG_SG_TM];
   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
      uint m = m0 + t * DG_SG_LANES + lane;
      a_ok[t] = m < rows;
      a_at[t] = a_ok[t] ? vmel_address_add(a_base, m * a_r.strides[1]) : a_r.address;
   }

   sh4_t acc[DG_SG_TM][DG_SG_TN4];
   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++)
      [[unroll]] for (uint h = 0u; h < DG_SG_TN4; h++)
         acc[t][h] = sh4_t(0);

   [[dont_unroll]] for (uint k0 = 0u; k0 < depth; k0 += 4u) {
      sh4_t a4[DG_SG_TM];
      if (a_vec) {
         [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
            sh4_t v;
            uvec2 at = vmel_address_add(a_at[t], k0 * a_r.strides[2]);
            DG_SG_LOAD4(DG_IN_DTYPE, v, at, a_r.strides[2], true, a_zp)
            a4[t] = a_ok[t] ? v : sh4_t(0);
         }
      } else {
         [[unroll]] for (uint kk = 0u; kk < 4u; kk++) {
            uint k = k0 + kk;
            [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
               bool ok = a_ok[t] && k < depth;
               uvec2 at = ok ? vmel_address_add(a_at[t], k * a_r.strides[2]) : a_r.address;
               sh_t e = DG_SG_ELEMENT(DG_IN_DTYPE, at, a_zp);
               a4[t][kk] = ok ? e : sh_t(0);
            }
         }
      }
      DG_SG_MAC4(acc, a4, k0)
   }

   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
      uint m = m0 + t * DG_SG_LANES + lane;
      if (m >= rows)
         continue;
      uvec2 at = dg_address(out_r, n * out_r.strides[0] + m * out_r.strides[1]);
      [[unroll]] for (uint c = 0u; c < DG_SG_TN; c++) {
         uint col = n0 + c;
         if (col >= cols)
            continue;
         dg_store(DG_OUT_DTYPE, vmel_address_add(at, col * out_r.strides[2]),
                  dg_atype(DG_OUT_DTYPE)(acc[t][c / 4u][c % 4u]));
      }
   }
}
