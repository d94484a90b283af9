/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The driver of the elementwise kernel templates (unary, binary, ternary,
 * conversion): main() over the output's elements with TOSA broadcasting
 * (apply_broadcast.tosac: equal ranks, a dimension of 1 in an input repeats).
 * A template holds only its operators' arithmetic; this file owns how
 * elements are walked and loaded, so making that faster is one change here.
 *
 * One work item is DG_EW_ITEMS consecutive output elements (row-major; the
 * last item may have fewer). The template's kernels are declared with
 * DG_TEMPLATE_GRID(<template>, 64, ELEMENTS4) in tosa_ops.def (or ELEMENTS8,
 * ELEMENTS16): the layer then counts ceil(elements / n) work items
 * (graph/build/dg_build_ops.c) and the build compiles the kernels with
 * DG_EW_ITEMS=n (cmake/gen_ops.c), so the two cannot disagree.
 *
 * The template, before including this file, after dg_kernel.glsl:
 *   - defines DG_EW_ARITY (1, 2 or 3) and the element types DG_EW_IN1_DTYPE,
 *     DG_EW_IN2_DTYPE (arity >= 2), DG_EW_IN3_DTYPE (arity 3), DG_EW_OUT_DTYPE
 *     (DG_DTYPE_* values);
 *   - declares its tensors with DG_TENSOR as input1, input2, input3 (as its
 *     arity says) and output;
 *   - defines the operator as a function of the arithmetic types (dg_atype):
 *       dg_atype(DG_EW_OUT_DTYPE) dg_ew_apply(dg_atype(DG_EW_IN1_DTYPE) a
 *                                             [, dg_atype(DG_EW_IN2_DTYPE) b
 *                                             [, dg_atype(DG_EW_IN3_DTYPE) c]])
 *     which must depend on nothing but its arguments and specialization
 *     constants (attributes).
 *   A template with its own storage handling (a conversion that stores raw
 *   bits, say) may instead define DG_EW_STORE(address, value) and
 *   DG_EW_LOAD1(address) .. DG_EW_LOAD3(address) (defaults: dg_store / dg_load
 *   of the dtypes); the driver then calls them once per element, at the
 *   element's address.
 *
 * How a work item is walked. The innermost output dimensions over which the
 * output and every input advance by a fixed byte step per element form a run
 * (dimensions of 1 are skipped; an input broadcast over the whole run steps by
 * 0; application tensors with padded rows end the run at the padding). For
 * the layer's own tensors (packed, their strides specialization constants:
 * docs/decisions.md D20) and unpadded application tensors, with no broadcast
 * or a broadcast of whole leading dimensions, the run is the whole tensor.
 * A work item inside one run (the usual case) finds each tensor's offset once
 * (a div/mod per dimension, by constants) and then:
 *   - reads an input that steps by its element size from an address aligned
 *     to the item's bytes (at most 16) with vector loads of raw bits (uvec4,
 *     uvec2 or uint: 4 x 32-bit elements are one uvec4, 4 x 8-bit one uint),
 *     a broadcast input (step 0) with one load, any other input element by
 *     element at offset + k * step;
 *   - writes the output the same way: one vector store of exactly the item's
 *     bytes when packed and aligned, else element by element.
 * A work item that crosses the end of a run (a run length not a multiple of
 * DG_EW_ITEMS) or the end of the tensor goes element by element, finding the
 * offsets again only where it starts a new run.
 * Vector accesses are of 8/16/32-bit elements with the default loads and
 * stores only; i48 and templates' own loads and stores go element by
 * element. A vector holds its elements in increasing address order, the
 * first in the low bits (little-endian, as every Vulkan device we know).
 */
#ifndef DG_ELEMENTWISE_GLSL
#define DG_ELEMENTWISE_GLSL

#extension GL_EXT_control_flow_attributes : require

#ifndef DG_EW_ARITY
#error "define DG_EW_ARITY (1, 2 or 3) before including dg_elementwise.glsl"
#endif
#ifndef DG_EW_ITEMS
#error "DG_EW_ITEMS is the build's (cmake/gen_ops.c): declare the template's grid in tosa_ops.def, DG_TEMPLATE_GRID(<template>, 64, ELEMENTS4)"
#endif
#if DG_EW_ITEMS != 4 && DG_EW_ITEMS != 8 && DG_EW_ITEMS != 16
#error "DG_EW_ITEMS must be 4, 8 or 16"
#endif

/* Default loads and stores; *_RAW 1 when they are the defaults, which the driver may replace by
 * vector accesses of raw bits. */
#ifndef DG_EW_LOAD1
#define DG_EW_LOAD1(address) dg_load(DG_EW_IN1_DTYPE, address)
#define DG_EW_LOAD1_RAW 1
#else
#define DG_EW_LOAD1_RAW 0
#endif
#ifndef DG_EW_LOAD2
#define DG_EW_LOAD2(address) dg_load(DG_EW_IN2_DTYPE, address)
#define DG_EW_LOAD2_RAW 1
#else
#define DG_EW_LOAD2_RAW 0
#endif
#ifndef DG_EW_LOAD3
#define DG_EW_LOAD3(address) dg_load(DG_EW_IN3_DTYPE, address)
#define DG_EW_LOAD3_RAW 1
#else
#define DG_EW_LOAD3_RAW 0
#endif
#ifndef DG_EW_STORE
#define DG_EW_STORE(address, value) dg_store(DG_EW_OUT_DTYPE, address, value)
#define DG_EW_STORE_RAW 1
#else
#define DG_EW_STORE_RAW 0
#endif

/* i48 never takes the vector path (8 bytes); these only let its kernels compile. */
#define dg_from_bits_i48(bits) int64_t(0)
#define dg_to_bits_i48(value) 0u

/* ---- vectors of raw bits -------------------------------------------------------------------- */

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

/* Whether DG_EW_ITEMS elements of `size` bytes at `address` can be one vector access: the
 * address aligned to their bytes (16 at most). */
bool
dg_ew_aligned(uvec2 address, uint size)
{
   return (address.x & (min(DG_EW_ITEMS * size, 16u) - 1u)) == 0u;
}

/* The DG_EW_ITEMS * size bytes at `address` (size 1, 2 or 4; dg_ew_aligned) as words. */
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

/* ---- loads and stores of one work item ------------------------------------------------------ */

/*
 * dg_ew_load<n>(r, offset, step, v): v[k] = input n's element at byte offset + k * step, for
 * the DG_EW_ITEMS elements of a work item inside one run. VECTOR: the input's loads are the
 * defaults and its elements at most 4 bytes.
 */
#define DG_EW_DEFINE_LOAD(n, DTYPE, LOAD, VECTOR)                                                  \
   void dg_ew_load##n(vmel_tensor_record r, uint offset, uint step,                                \
                      out dg_atype(DTYPE) v[DG_EW_ITEMS])                                          \
   {                                                                                               \
      const uint size = uint(DG_DTYPE_SIZE(DTYPE));                                                \
      uvec2 address = dg_address(r, offset);                                                       \
      if (step == 0u) {                                                                            \
         dg_atype(DTYPE) x = LOAD(address);                                                        \
         [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) v[k] = x;                              \
      } else if ((VECTOR) && step == size && dg_ew_aligned(address, size)) {                      \
         uint w[DG_EW_ITEMS];                                                                      \
         dg_ew_read_words(address, size, w);                                                       \
         [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) v[k] =                                 \
             dg_from_bits(DTYPE, dg_ew_bits(w, k, size));                                          \
      } else {                                                                                     \
         [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) v[k] =                                 \
             LOAD(dg_address(r, offset + k * step));                                               \
      }                                                                                            \
   }

#define DG_EW_VECTOR(raw, dtype) ((raw) != 0 && DG_DTYPE_SIZE(dtype) <= 4)

DG_EW_DEFINE_LOAD(1, DG_EW_IN1_DTYPE, DG_EW_LOAD1, DG_EW_VECTOR(DG_EW_LOAD1_RAW, DG_EW_IN1_DTYPE))
#if DG_EW_ARITY >= 2
DG_EW_DEFINE_LOAD(2, DG_EW_IN2_DTYPE, DG_EW_LOAD2, DG_EW_VECTOR(DG_EW_LOAD2_RAW, DG_EW_IN2_DTYPE))
#endif
#if DG_EW_ARITY >= 3
DG_EW_DEFINE_LOAD(3, DG_EW_IN3_DTYPE, DG_EW_LOAD3, DG_EW_VECTOR(DG_EW_LOAD3_RAW, DG_EW_IN3_DTYPE))
#endif

/* The output's DG_EW_ITEMS elements of a work item inside one run, at offset + k * step. */
void
dg_ew_store_items(vmel_tensor_record r, uint offset, uint step,
                  dg_atype(DG_EW_OUT_DTYPE) v[DG_EW_ITEMS])
{
   const uint size = uint(DG_DTYPE_SIZE(DG_EW_OUT_DTYPE));
   uvec2 address = dg_address(r, offset);
   if (DG_EW_VECTOR(DG_EW_STORE_RAW, DG_EW_OUT_DTYPE) && step == size &&
       dg_ew_aligned(address, size)) {
      uint w[DG_EW_ITEMS];
      [[unroll]] for (uint i = 0u; i < DG_EW_ITEMS; i++)
         w[i] = 0u;
      uint per_word = 4u / min(size, 4u);
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) {
         uint bits = dg_to_bits(DG_EW_OUT_DTYPE, v[k]);
         if (size == 4u)
            w[k] = bits;
         else
            w[k / per_word] |= bits << ((k % per_word) * size * 8u);
      }
      dg_ew_write_words(address, size, w);
   } else {
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++)
         DG_EW_STORE(dg_address(r, offset + k * step), v[k]);
   }
}

/* ---- the walk ------------------------------------------------------------------------------- */

/* Input t's step over output dimension d: 0 where t repeats (a dimension of 1). */
uint
dg_ew_step(vmel_tensor_record t, uint d)
{
   return t.dims[d] == 1u ? 0u : t.strides[d];
}

/* Whether input t, stepping by `step` over the `run` innermost elements, keeps stepping by it
 * over output dimension d too: repeated throughout, or contiguous with the run. */
bool
dg_ew_joins(vmel_tensor_record t, uint d, uint step, uint run)
{
   return t.dims[d] == 1u ? step == 0u : step != 0u && t.strides[d] == step * run;
}

void
main()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record out_r = DG_RECORD(output);
   vmel_tensor_record in1_r = DG_RECORD(input1);
#if DG_EW_ARITY >= 2
   vmel_tensor_record in2_r = DG_RECORD(input2);
#endif
#if DG_EW_ARITY >= 3
   vmel_tensor_record in3_r = DG_RECORD(input3);
#endif
   uint total = dg_element_count(out_r);

   /* The run: its length and each tensor's step (bytes per element) along it. Uniform over the
    * dispatch, and constant where the strides are. */
   uint run = 1u, so = 0u, s1 = 0u, s2 = 0u, s3 = 0u;
   for (int d = int(out_r.rank) - 1; d >= 0; d--) {
      uint e = out_r.dims[d];
      if (e == 1u)
         continue;
      if (run == 1u) {
         so = out_r.strides[d];
         s1 = dg_ew_step(in1_r, d);
#if DG_EW_ARITY >= 2
         s2 = dg_ew_step(in2_r, d);
#endif
#if DG_EW_ARITY >= 3
         s3 = dg_ew_step(in3_r, d);
#endif
      } else {
         bool joins = out_r.strides[d] == so * run && dg_ew_joins(in1_r, d, s1, run);
#if DG_EW_ARITY >= 2
         joins = joins && dg_ew_joins(in2_r, d, s2, run);
#endif
#if DG_EW_ARITY >= 3
         joins = joins && dg_ew_joins(in3_r, d, s3, run);
#endif
         if (!joins)
            break;
      }
      run *= e;
   }

   /* The offsets of the first element of this item's run, and its column in the run. */
   uint first = item * DG_EW_ITEMS;
   uint col = first % run;
   uint start = first - col;
   uint oo = dg_offset_of_index(out_r, start);
   uint o1 = dg_offset_broadcast(out_r, in1_r, start);
#if DG_EW_ARITY >= 2
   uint o2 = dg_offset_broadcast(out_r, in2_r, start);
#endif
#if DG_EW_ARITY >= 3
   uint o3 = dg_offset_broadcast(out_r, in3_r, start);
#endif

   if (col + DG_EW_ITEMS <= run) {
      /* Inside one run: each tensor's elements at offset + k * step. */
      dg_atype(DG_EW_OUT_DTYPE) r[DG_EW_ITEMS];
      dg_atype(DG_EW_IN1_DTYPE) a[DG_EW_ITEMS];
      dg_ew_load1(in1_r, o1 + col * s1, s1, a);
#if DG_EW_ARITY >= 2
      dg_atype(DG_EW_IN2_DTYPE) b[DG_EW_ITEMS];
      dg_ew_load2(in2_r, o2 + col * s2, s2, b);
#endif
#if DG_EW_ARITY >= 3
      dg_atype(DG_EW_IN3_DTYPE) c[DG_EW_ITEMS];
      dg_ew_load3(in3_r, o3 + col * s3, s3, c);
#endif
      [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) {
#if DG_EW_ARITY == 1
         r[k] = dg_ew_apply(a[k]);
#elif DG_EW_ARITY == 2
         r[k] = dg_ew_apply(a[k], b[k]);
#else
         r[k] = dg_ew_apply(a[k], b[k], c[k]);
#endif
      }
      dg_ew_store_items(out_r, oo + col * so, so, r);
      return;
   }

   /* Across the end of a run or of the tensor: element by element. */
   for (uint k = 0u; k < DG_EW_ITEMS; k++) {
      uint index = first + k;
      if (index >= total)
         break;
      if (col == run) {
         col = 0u;
         oo = dg_offset_of_index(out_r, index);
         o1 = dg_offset_broadcast(out_r, in1_r, index);
#if DG_EW_ARITY >= 2
         o2 = dg_offset_broadcast(out_r, in2_r, index);
#endif
#if DG_EW_ARITY >= 3
         o3 = dg_offset_broadcast(out_r, in3_r, index);
#endif
      }
#if DG_EW_ARITY == 1
      dg_atype(DG_EW_OUT_DTYPE) r = dg_ew_apply(DG_EW_LOAD1(dg_address(in1_r, o1 + col * s1)));
#elif DG_EW_ARITY == 2
      dg_atype(DG_EW_OUT_DTYPE) r = dg_ew_apply(DG_EW_LOAD1(dg_address(in1_r, o1 + col * s1)),
                                                DG_EW_LOAD2(dg_address(in2_r, o2 + col * s2)));
#else
      dg_atype(DG_EW_OUT_DTYPE) r = dg_ew_apply(DG_EW_LOAD1(dg_address(in1_r, o1 + col * s1)),
                                                DG_EW_LOAD2(dg_address(in2_r, o2 + col * s2)),
                                                DG_EW_LOAD3(dg_address(in3_r, o3 + col * s3)));
#endif
      DG_EW_STORE(dg_address(out_r, oo + col * so), r);
      col++;
   }
}

#endif /* DG_ELEMENTWISE_GLSL */
