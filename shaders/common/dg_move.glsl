/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The driver of the data-movement kernel templates (slice, reverse, tile, pad,
 * transpose, gather, scatter): main() over the output's elements, copying bit patterns
 * unchanged (TOSA 1.0.1 data_layout.adoc: "Results must be exact"; NaN
 * payloads, -0, bf16 and fp8 patterns move as they are). A template holds
 * only where an output element comes from; this file owns how elements are
 * walked, loaded and stored.
 *
 * One work item is DG_EW_ITEMS consecutive output elements (row-major; the
 * last item may have fewer): the templates are declared with
 * DG_TEMPLATE_GRID(<template>, 64, ELEMENTS8) in tosa_ops.def and the build
 * compiles them with DG_EW_ITEMS=8 (cmake/gen_ops.c).
 *
 * The template, before including this file, after dg_kernel.glsl:
 *   - defines DG_MV_SIZE, the element size in bytes (1: bool, i8, fp8; 2: i16,
 *     fp16, bf16; 4: i32, fp32);
 *   - declares its tensors with DG_TENSOR as `input` and `output` (the output
 *     has the input's rank);
 *   - defines
 *       uint dg_mv_map(vmel_tensor_record in_r, vmel_tensor_record out_r,
 *                      uint c[VMEL_TENSOR_MAX_RANK], out uint src, out int step,
 *                      out bool pad)
 *     for the output element at coordinates c: pad (the element is the pad
 *     value DG_MV_PAD_BITS, which a template that pads defines), else src,
 *     the input's byte offset it reads, and step, the signed byte step of the
 *     input per output element along the output's innermost dimension; the
 *     result is the span: how many output elements from c along that
 *     dimension keep the rule (the same pad, or src + k * step). The driver
 *     caps the span at the end of the row.
 *   - optionally defines DG_MV_SOURCE2 and declares a second source tensor
 *     `input2` and a global `bool dg_mv_from2` (SCATTER: values_in and the
 *     scattered input): dg_mv_map then sets dg_mv_from2 to say that src is
 *     an offset in input2 (false: in `input`) for the span it returns.
 *
 * How a work item is walked: the coordinates of its first element are found
 * once (div/mod by constants: the shapes are specialisation constants), then
 * elements are copied along the span, dg_mv_map being asked again only where
 * a span ends. Where the item's elements all lie in one span, the output's
 * innermost dimension is packed and aligned to the item's bytes (16 at most),
 * and the input's elements are the pad value or packed (step +-size) and
 * aligned likewise, the item is one vector load and one vector store of raw
 * bits (dg_ew_vector.glsl, shared with the elementwise driver); a negative
 * step (REVERSE of the innermost axis) reverses the elements inside the words.
 */
#ifndef DG_MOVE_GLSL
#define DG_MOVE_GLSL

#extension GL_EXT_control_flow_attributes : require

#ifndef DG_EW_ITEMS
#error "DG_EW_ITEMS comes from the template's grid: DG_TEMPLATE_GRID(<template>, 64, ELEMENTS8)"
#endif
#if DG_MV_SIZE == 1
#define dg_mv_ref dg_ref8
#define dg_mv_store_bits dg_store_bits8
#elif DG_MV_SIZE == 2
#define dg_mv_ref dg_ref16
#define dg_mv_store_bits dg_store_bits16
#elif DG_MV_SIZE == 4
#define dg_mv_ref dg_ref32
#define dg_mv_store_bits dg_mv_store_bits32
#else
#error "DG_MV_SIZE must be 1, 2 or 4"
#endif
#ifndef DG_MV_PAD_BITS
#define DG_MV_PAD_BITS 0u
#endif

#include "dg_ew_vector.glsl"

void
dg_mv_store_bits32(uvec2 address, uint bits)
{
   dg_ref32(address).value = bits;
}

/* The pad value's bits repeated over a word. */
uint
dg_mv_pad_word()
{
   uint mask = DG_MV_SIZE == 4 ? 0xffffffffu : ((1u << (8u * DG_MV_SIZE)) - 1u);
   uint b = uint(DG_MV_PAD_BITS) & mask;
   if (DG_MV_SIZE == 1)
      return b * 0x01010101u;
   if (DG_MV_SIZE == 2)
      return b | (b << 16u);
   return b;
}

#ifdef DG_MV_SOURCE2
#define DG_MV_SOURCE_RECORD() (dg_mv_from2 ? in2_r : in_r)
#else
#define DG_MV_SOURCE_RECORD() in_r
#endif

/* The driver's entry point; a template with a path of its own (TRANSPOSE's tile) defines
 * DG_MV_ENTRY to another name and calls it from its main(). */
#ifndef DG_MV_ENTRY
#define DG_MV_ENTRY main
#endif

void
DG_MV_ENTRY()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
#ifdef DG_MV_SOURCE2
   vmel_tensor_record in2_r = DG_RECORD(input2);
#endif
   uint total = dg_element_count(out_r);
   uint last = out_r.rank - 1u;
   uint inner = out_r.dims[last];
   uint so = out_r.strides[last];

   uint first = item * DG_EW_ITEMS;
   uint c[VMEL_TENSOR_MAX_RANK];
   dg_coords(out_r, first, c);
   uint src;
   int step;
   bool pad;
   uint span = min(dg_mv_map(in_r, out_r, c, src, step, pad), inner - c[last]);
   uint dst = dg_offset(out_r, c);

   /* The vector path: the whole item in one span, packed and aligned. */
   const uint size = uint(DG_MV_SIZE);
   const uint align = min(DG_EW_ITEMS * size, 16u) - 1u;
   uvec2 ao = dg_address(out_r, dst);
   if (span >= uint(DG_EW_ITEMS) && so == size && (ao.x & align) == 0u) {
      uint w[DG_EW_ITEMS];
      if (pad) {
         uint pw = dg_mv_pad_word();
         [[unroll]] for (uint i = 0u; i < DG_EW_ITEMS; i++)
            w[i] = pw;
         dg_ew_write_words(ao, size, w);
         return;
      }
      if (step == int(size)) {
         uvec2 ai = dg_address(DG_MV_SOURCE_RECORD(), src);
         if ((ai.x & align) == 0u) {
            dg_ew_read_words(ai, size, w);
            dg_ew_write_words(ao, size, w);
            return;
         }
      } else if (step == -int(size)) {
         /* The item's source runs downwards: its lowest address is the last element's. */
         uvec2 ai = dg_address(DG_MV_SOURCE_RECORD(), src - (DG_EW_ITEMS - 1u) * size);
         if ((ai.x & align) == 0u) {
            uint r[DG_EW_ITEMS];
            dg_ew_read_words(ai, size, r);
            [[unroll]] for (uint i = 0u; i < DG_EW_ITEMS; i++)
               w[i] = 0u;
            const uint per_word = 4u / size;
            [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) {
               uint bits = dg_ew_bits(r, DG_EW_ITEMS - 1u - k, size);
               if (size == 4u)
                  w[k] = bits;
               else
                  w[k / per_word] |= bits << ((k % per_word) * size * 8u);
            }
            dg_ew_write_words(ao, size, w);
            return;
         }
      }
   }

   /* Element by element along the spans. */
   for (uint k = 0u; k < DG_EW_ITEMS; k++) {
      uint index = first + k;
      if (index >= total)
         break;
      if (span == 0u) {
         dg_coords(out_r, index, c);
         span = min(dg_mv_map(in_r, out_r, c, src, step, pad), inner - c[last]);
         dst = dg_offset(out_r, c);
      }
      /* The pad value through a function: no 8- or 16-bit specialisation constant. */
      if (pad)
         dg_mv_store_bits(dg_address(out_r, dst), uint(DG_MV_PAD_BITS));
      else
         dg_mv_ref(dg_address(out_r, dst)).value =
             dg_mv_ref(dg_address(DG_MV_SOURCE_RECORD(), src)).value;
      src += uint(step);
      dst += so;
      span--;
   }
}

#endif /* DG_MOVE_GLSL */
