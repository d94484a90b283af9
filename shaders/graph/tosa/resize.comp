/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 RESIZE (§2.6 "Image Operators"; pseudocode/operators/RESIZE.tosac).
 * Output (n, oy, ox, c) samples the input at y = oy * scale_y_d + offset_y
 * (units of 1 / scale_y_n of a row; likewise x): iy = floor(y / scale_y_n),
 * ry = y - iy * scale_y_n, taps iy0 = max(iy, 0) and iy1 = min(iy + 1, IH - 1)
 * (clamped to the input; likewise x). The sample coordinates depend on
 * (n, oy, ox) only: they are found once per work item, and again only where the
 * item's elements cross into the next output pixel.
 *
 *  - NEAREST_NEIGHBOR: the element at (iy1 if 2 ry >= scale_y_n else iy0, the
 *    same for x): ties go up, the pseudocode's integer test (for floats its
 *    dy >= 0.5 with dy = ry / scale_y_n is the same test). Bits are copied
 *    unchanged by the data-movement driver (dg_move.glsl): an output pixel's C
 *    elements are one run of the input pixel's, as vectors where packed and
 *    aligned.
 *  - BILINEAR: the four taps weighted by (unit - dy) / dy times (unit - dx) /
 *    dx in the pseudocode's order. Integers: unit = scale_n, dy = ry: the exact
 *    result scaled by scale_y_n * scale_x_n (unnormalised; i8 -> i32 fits, as
 *    2^7 * 2^22 < 2^31; i16 -> i48 computes in int64, 2^15 * 2^22, and stores
 *    i48 as int64 sign-extended from bit 47, dg_store_i48). Floats: unit 1.0,
 *    dy = float(ry) / float(scale_y_n), in fp32 (`precise`: every tap's product
 *    is computed, so an infinite tap with weight 0 gives NaN as the pseudocode
 *    does), stored rounded to nearest even (bf16, fp16). Error against the fp64
 *    result: a few fp32 ulps of max|input| plus the output's rounding, within
 *    TOSA's max(20 ulp(max|input|), 0.006 max|input|) (image.adoc).
 *    One work item is 8 consecutive output elements along C: where they lie in
 *    one pixel and the output and the four input runs are packed and aligned,
 *    each tap is one vector load and the result one vector store (i48: eight
 *    8-byte stores).
 *
 * Tensors (binding order): 0 input [N,IH,IW,C], 1 output [N,OH,OW,C] (creation
 * checked every ERROR_IF, so all positions fit int32 and taps lie inside).
 * One work item: 8 consecutive output elements (DG_TEMPLATE_GRID ELEMENTS8).
 * Attributes (struct dg_attrs_resize): mode, scale_y_n, scale_y_d, scale_x_n,
 * scale_x_d, offset_y, offset_x, border_y, border_x.
 * Variant defines: DG_IN_DTYPE, DG_OUT_DTYPE; DG_MV_SIZE (the input's element
 * size); DG_RZ_NEAREST=0 or DG_RZ_BILINEAR=0 for the integer rows, which TOSA
 * names for one mode (the float rows have both, chosen by the mode constant).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif
#ifndef DG_RZ_NEAREST
#define DG_RZ_NEAREST 1
#endif
#ifndef DG_RZ_BILINEAR
#define DG_RZ_BILINEAR 1
#endif

DG_DECLARE_ATTRS_RESIZE

DG_TENSOR(DG_RESIZE_INPUT, input);
DG_TENSOR(DG_RESIZE_OUTPUT, output);

/* The taps along one axis of output coordinate o: i0, i1 (clamped) and the remainder r. */
void
dg_rz_axis(uint o, int scale_n, int scale_d, int offset, uint size, out uint i0, out uint i1,
           out int r)
{
   int pos = int(o) * scale_d + offset; /* >= -scale_n (offset's ERROR_IF) */
   int i = pos >= 0 ? pos / scale_n : -((scale_n - 1 - pos) / scale_n);
   r = pos - i * scale_n;
   i0 = uint(max(i, 0));
   i1 = uint(min(i + 1, int(size) - 1));
}

/* ---- NEAREST_NEIGHBOR: the data-movement driver ------------------------------------------ */

#if DG_RZ_NEAREST
uint
dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r, uint c[VMEL_TENSOR_MAX_RANK],
          out uint src, out int step, out bool pad)
{
   uint y0, y1, x0, x1;
   int ry, rx;
   dg_rz_axis(c[1], scale_y_n, scale_y_d, offset_y, in_r.dims[1], y0, y1, ry);
   dg_rz_axis(c[2], scale_x_n, scale_x_d, offset_x, in_r.dims[2], x0, x1, rx);
   uint iy = 2 * ry >= scale_y_n ? y1 : y0;
   uint ix = 2 * rx >= scale_x_n ? x1 : x0;
   src = dg_offset4(in_r, c[0], iy, ix, c[3]);
   step = int(in_r.strides[3]);
   pad = false;
   return out_r.dims[3] - c[3]; /* the rest of the pixel */
}

#define DG_MV_ENTRY dg_rz_nearest
#include "dg_move.glsl"
#endif

/* ---- BILINEAR ------------------------------------------------------------------------------ */

#if DG_RZ_BILINEAR
#if !DG_RZ_NEAREST
#include "dg_ew_vector.glsl"
#endif

#define DG_RZ_IN_SIZE uint(DG_DTYPE_SIZE(DG_IN_DTYPE))
#define DG_RZ_OUT_SIZE uint(DG_DTYPE_SIZE(DG_OUT_DTYPE))

#if DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
#define dg_rz_acc_t float
#define DG_RZ_PRECISE precise
#elif DG_OUT_DTYPE == DG_DTYPE_I48
#define dg_rz_acc_t int64_t
#else
#define dg_rz_acc_t int
#endif
#ifndef DG_RZ_PRECISE
#define DG_RZ_PRECISE
#endif

/* One output pixel's sampling: the byte offsets of the four taps' (c = 0) elements and the
 * weights along each axis (unit - d, d). */
struct dg_rz_pixel {
   uint a00, a01, a10, a11;
   dg_rz_acc_t wy0, wy1, wx0, wx1;
};

dg_rz_pixel
dg_rz_sample(vmel_tensor_record in_r, uint n, uint oy, uint ox)
{
   uint y0, y1, x0, x1;
   int ry, rx;
   dg_rz_axis(oy, scale_y_n, scale_y_d, offset_y, in_r.dims[1], y0, y1, ry);
   dg_rz_axis(ox, scale_x_n, scale_x_d, offset_x, in_r.dims[2], x0, x1, rx);
   dg_rz_pixel p;
   p.a00 = dg_offset4(in_r, n, y0, x0, 0u);
   p.a01 = dg_offset4(in_r, n, y0, x1, 0u);
   p.a10 = dg_offset4(in_r, n, y1, x0, 0u);
   p.a11 = dg_offset4(in_r, n, y1, x1, 0u);
#if DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   float dy = float(ry) / float(scale_y_n);
   float dx = float(rx) / float(scale_x_n);
   p.wy0 = 1.0 - dy;
   p.wy1 = dy;
   p.wx0 = 1.0 - dx;
   p.wx1 = dx;
#else
   p.wy0 = dg_rz_acc_t(scale_y_n - ry);
   p.wy1 = dg_rz_acc_t(ry);
   p.wx0 = dg_rz_acc_t(scale_x_n - rx);
   p.wx1 = dg_rz_acc_t(rx);
#endif
   return p;
}

/* The pseudocode's acc, from the four taps' values. */
dg_rz_acc_t
dg_rz_blend(dg_rz_pixel p, dg_rz_acc_t v00, dg_rz_acc_t v01, dg_rz_acc_t v10, dg_rz_acc_t v11)
{
   DG_RZ_PRECISE dg_rz_acc_t acc = v00 * p.wy0 * p.wx0;
   acc += v01 * p.wy0 * p.wx1;
   acc += v10 * p.wy1 * p.wx0;
   acc += v11 * p.wy1 * p.wx1;
   return acc;
}

dg_rz_acc_t
dg_rz_tap(vmel_tensor_record in_r, uint at)
{
   return dg_rz_acc_t(dg_load(DG_IN_DTYPE, dg_address(in_r, at)));
}

void
dg_rz_bilinear()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint total = dg_element_count(out_r);
   uint C = out_r.dims[3];
   uint first = item * DG_EW_ITEMS;
   uint ch = first % C;
   uint pix = first / C;
   uint ox = pix % out_r.dims[2];
   uint oy = (pix / out_r.dims[2]) % out_r.dims[1];
   uint n = pix / (out_r.dims[2] * out_r.dims[1]);
   dg_rz_pixel p = dg_rz_sample(in_r, n, oy, ox);
   uint dst = dg_offset4(out_r, n, oy, ox, ch);
   uint si = in_r.strides[3], so = out_r.strides[3];

   /* The vector path: the item inside one pixel, every run packed and aligned. */
   const uint in_align = min(DG_EW_ITEMS * DG_RZ_IN_SIZE, 16u) - 1u;
   const uint out_align = min(DG_EW_ITEMS * DG_RZ_OUT_SIZE, 16u) - 1u;
   uint off = ch * si;
   uvec2 ao = dg_address(out_r, dst);
   uvec2 a00 = dg_address(in_r, p.a00 + off), a01 = dg_address(in_r, p.a01 + off);
   uvec2 a10 = dg_address(in_r, p.a10 + off), a11 = dg_address(in_r, p.a11 + off);
   if (ch + DG_EW_ITEMS <= C && si == DG_RZ_IN_SIZE && so == DG_RZ_OUT_SIZE &&
       ((a00.x | a01.x | a10.x | a11.x) & in_align) == 0u && (ao.x & out_align) == 0u) {
      uint w00[DG_EW_ITEMS], w01[DG_EW_ITEMS], w10[DG_EW_ITEMS], w11[DG_EW_ITEMS];
      dg_ew_read_words(a00, DG_RZ_IN_SIZE, w00);
      dg_ew_read_words(a01, DG_RZ_IN_SIZE, w01);
      dg_ew_read_words(a10, DG_RZ_IN_SIZE, w10);
      dg_ew_read_words(a11, DG_RZ_IN_SIZE, w11);
#if DG_OUT_DTYPE == DG_DTYPE_I48
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) {
         dg_rz_acc_t acc =
             dg_rz_blend(p, dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w00, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w01, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w10, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w11, k, DG_RZ_IN_SIZE))));
         dg_store_i48(vmel_address_add(ao, 8u * k), acc);
      }
#else
      uint w[DG_EW_ITEMS];
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++)
         w[k] = 0u;
      const uint per_word = 4u / DG_RZ_OUT_SIZE;
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) {
         dg_rz_acc_t acc =
             dg_rz_blend(p, dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w00, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w01, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w10, k, DG_RZ_IN_SIZE))),
                         dg_rz_acc_t(dg_from_bits(DG_IN_DTYPE, dg_ew_bits(w11, k, DG_RZ_IN_SIZE))));
         uint bits = dg_to_bits(DG_OUT_DTYPE, acc);
         if (DG_RZ_OUT_SIZE == 4u)
            w[k] = bits;
         else
            w[k / per_word] |= bits << ((k % per_word) * DG_RZ_OUT_SIZE * 8u);
      }
      dg_ew_write_words(ao, DG_RZ_OUT_SIZE, w);
#endif
      return;
   }

   /* Element by element, sampling again where the item enters the next pixel. */
   for (uint k = 0u; k < DG_EW_ITEMS; k++) {
      uint index = first + k;
      if (index >= total)
         break;
      if (ch == C) {
         ch = 0u;
         pix = index / C;
         ox = pix % out_r.dims[2];
         oy = (pix / out_r.dims[2]) % out_r.dims[1];
         n = pix / (out_r.dims[2] * out_r.dims[1]);
         p = dg_rz_sample(in_r, n, oy, ox);
         dst = dg_offset4(out_r, n, oy, ox, 0u);
      }
      off = ch * si;
      dg_rz_acc_t acc = dg_rz_blend(p, dg_rz_tap(in_r, p.a00 + off), dg_rz_tap(in_r, p.a01 + off),
                                    dg_rz_tap(in_r, p.a10 + off), dg_rz_tap(in_r, p.a11 + off));
      dg_store(DG_OUT_DTYPE, dg_address(out_r, dst), acc);
      dst += so;
      ch++;
   }
}
#endif

void
main()
{
#if DG_RZ_NEAREST && DG_RZ_BILINEAR
   if (mode == uint(DG_RESIZE_NEAREST))
      dg_rz_nearest();
   else
      dg_rz_bilinear();
#elif DG_RZ_NEAREST
   dg_rz_nearest();
#else
   dg_rz_bilinear();
#endif
}
