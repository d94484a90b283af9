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
 * last item may have fewer). A template's kernels are declared with
 * DG_TEMPLATE_GRID(<template>, 64, ELEMENTS8) in tosa_ops.def (or ELEMENTS4,
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
 *   element's address, and never uses vectors for that kernel.
 *
 * How a work item is walked. A run is a stretch of consecutive output
 * elements along which every tensor advances by a fixed byte step (an input
 * that repeats, by 0): the innermost dimension of more than one element, and
 * the dimensions above it over which each input repeats as it does over that
 * one, as long as every tensor's strides continue its step. The run's length
 * comes from the dimensions (constants, so no division by a runtime value);
 * the strides are checked against it (constants too for the layer's own
 * tensors, docs/decisions.md D20; read from the record for the application's,
 * whose padded rows end a run). For packed tensors without broadcasting, or
 * with an input repeating whole leading or trailing dimensions, the run is
 * the whole tensor. A work item finds each tensor's offset once (a div/mod
 * per dimension, by constants), then:
 *   - inside one run, with the output and every input that does not repeat
 *     stepping by their element size from an address aligned to the item's
 *     bytes (16 at most), and the template's default loads and stores of
 *     elements of at most 4 bytes: vector loads and stores of raw bits (8 x
 *     32-bit elements are two uvec4, 8 x 16-bit one uvec4, 8 x 8-bit one
 *     uvec2), one load for a repeated input; each store writes exactly the
 *     item's elements;
 *   - otherwise element by element, at offset + column * step in each tensor,
 *     finding the offsets again only where a new run starts.
 * A vector holds its elements in increasing address order, the first in the
 * low bits (little-endian, as every Vulkan device we know).
 */
#ifndef DG_ELEMENTWISE_GLSL
#define DG_ELEMENTWISE_GLSL

#extension GL_EXT_control_flow_attributes : require

#ifndef DG_EW_ARITY
#error "define DG_EW_ARITY (1, 2 or 3) before including dg_elementwise.glsl"
#endif
#ifndef DG_EW_ITEMS
#error "DG_EW_ITEMS comes from the template's grid: DG_TEMPLATE_GRID(<template>, 64, ELEMENTS8)"
#endif
#if DG_EW_ITEMS != 4 && DG_EW_ITEMS != 8 && DG_EW_ITEMS != 16
#error "DG_EW_ITEMS must be 4, 8 or 16"
#endif

/* The loads and stores; *_RAW 1 where they are the defaults, which vectors may replace. */
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

/* Whether the kernel has the vector path: every tensor's loads or stores the defaults, of
 * elements of at most 4 bytes. */
#define DG_EW_RAW(raw, dtype) ((raw) != 0 && (dtype) != DG_DTYPE_I48) /* i48: 8 bytes */
#if DG_EW_ARITY >= 2
#define DG_EW_RAW2 DG_EW_RAW(DG_EW_LOAD2_RAW, DG_EW_IN2_DTYPE)
#else
#define DG_EW_RAW2 1
#endif
#if DG_EW_ARITY >= 3
#define DG_EW_RAW3 DG_EW_RAW(DG_EW_LOAD3_RAW, DG_EW_IN3_DTYPE)
#else
#define DG_EW_RAW3 1
#endif
#if DG_EW_RAW(DG_EW_STORE_RAW, DG_EW_OUT_DTYPE) && DG_EW_RAW(DG_EW_LOAD1_RAW, DG_EW_IN1_DTYPE) && \
    DG_EW_RAW2 && DG_EW_RAW3
#define DG_EW_HAS_VECTOR 1
#else
#define DG_EW_HAS_VECTOR 0
#endif

#if DG_EW_HAS_VECTOR
/* ---- vectors of raw bits -------------------------------------------------------------------- */

#include "dg_ew_vector.glsl"

/* dg_ew_vload<n>(address, step, v): input n's elements of the item: one load where the input
 * repeats (step 0), else a vector (dg_ew_vector_at). */
#define DG_EW_DEFINE_VLOAD(n, DTYPE, LOAD)                                                         \
   void dg_ew_vload##n(uvec2 address, uint step, out dg_atype(DTYPE) v[DG_EW_ITEMS])              \
   {                                                                                               \
      const uint size = uint(DG_DTYPE_SIZE(DTYPE));                                                \
      if (step == 0u) {                                                                            \
         dg_atype(DTYPE) x = LOAD(address);                                                        \
         [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) v[k] = x;                              \
      } else {                                                                                     \
         uint w[DG_EW_ITEMS];                                                                      \
         dg_ew_read_words(address, size, w);                                                       \
         [[unroll]] for (uint k = 0u; k < DG_EW_ITEMS; k++) v[k] =                                 \
             dg_from_bits(DTYPE, dg_ew_bits(w, k, size));                                          \
      }                                                                                            \
   }

DG_EW_DEFINE_VLOAD(1, DG_EW_IN1_DTYPE, DG_EW_LOAD1)
#if DG_EW_ARITY >= 2
DG_EW_DEFINE_VLOAD(2, DG_EW_IN2_DTYPE, DG_EW_LOAD2)
#endif
#if DG_EW_ARITY >= 3
DG_EW_DEFINE_VLOAD(3, DG_EW_IN3_DTYPE, DG_EW_LOAD3)
#endif

/* The output's elements of the item as one vector at `address` (dg_ew_vector_at). */
void
dg_ew_vstore(uvec2 address, dg_atype(DG_EW_OUT_DTYPE) v[DG_EW_ITEMS])
{
   const uint size = uint(DG_DTYPE_SIZE(DG_EW_OUT_DTYPE));
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
}
#endif /* DG_EW_HAS_VECTOR */

/* ---- the run -------------------------------------------------------------------------------- */

/*
 * main()'s look at output dimension d (innermost first): the innermost dimension of more than
 * one element sets each tensor's step (z<n>: input n repeats); a dimension above it joins the
 * run when every input repeats over it as over the run (dimensions only: constants), and a
 * stride over it that is not step * run sets bits in `mismatch`. Written out per dimension,
 * with arithmetic rather than branches: lavapipe kept a loop over the dimensions rolled and the
 * records in memory (10-20x slower), and compiles branches slowly.
 */
#if DG_EW_ARITY >= 2
#define DG_EW_RUN_INNER2(d)                                                                        \
   z2 = in2_r.dims[d] == 1u;                                                                       \
   s2 = z2 ? 0u : in2_r.strides[d];
#define DG_EW_RUN_SAME2(d) &&(in2_r.dims[d] == 1u) == z2
#define DG_EW_RUN_STRIDE2(d) | (z2 ? 0u : in2_r.strides[d] ^ (s2 * run))
#else
#define DG_EW_RUN_INNER2(d)
#define DG_EW_RUN_SAME2(d)
#define DG_EW_RUN_STRIDE2(d)
#endif
#if DG_EW_ARITY >= 3
#define DG_EW_RUN_INNER3(d)                                                                        \
   z3 = in3_r.dims[d] == 1u;                                                                       \
   s3 = z3 ? 0u : in3_r.strides[d];
#define DG_EW_RUN_SAME3(d) &&(in3_r.dims[d] == 1u) == z3
#define DG_EW_RUN_STRIDE3(d) | (z3 ? 0u : in3_r.strides[d] ^ (s3 * run))
#else
#define DG_EW_RUN_INNER3(d)
#define DG_EW_RUN_SAME3(d)
#define DG_EW_RUN_STRIDE3(d)
#endif
#define DG_EW_RUN_DIM(d)                                                                           \
   if (uint(d) < out_r.rank && out_r.dims[d] != 1u && growing) {                                   \
      if (run == 1u) {                                                                             \
         inner = out_r.dims[d];                                                                    \
         so = out_r.strides[d];                                                                    \
         z1 = in1_r.dims[d] == 1u;                                                                 \
         s1 = z1 ? 0u : in1_r.strides[d];                                                          \
         DG_EW_RUN_INNER2(d)                                                                       \
         DG_EW_RUN_INNER3(d)                                                                       \
      } else {                                                                                     \
         growing = (in1_r.dims[d] == 1u) == z1 DG_EW_RUN_SAME2(d) DG_EW_RUN_SAME3(d);             \
         if (growing)                                                                              \
            mismatch |= (out_r.strides[d] ^ (so * run)) |                                          \
                        (z1 ? 0u : in1_r.strides[d] ^ (s1 * run)) DG_EW_RUN_STRIDE2(d)             \
                            DG_EW_RUN_STRIDE3(d);                                                  \
      }                                                                                            \
      if (growing)                                                                                 \
         run *= out_r.dims[d];                                                                     \
   }

/* ---- the walk ------------------------------------------------------------------------------- */

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

   /* The run: `inner` and `run` elements long (constants), each tensor's step (so, s1..s3);
    * where the strides do not continue the steps over `run` (mismatch), the runs are `inner`
    * long, which always holds. */
   uint inner = 1u, run = 1u, so = 0u, s1 = 0u, s2 = 0u, s3 = 0u, mismatch = 0u;
   bool growing = true, z1 = true, z2 = true, z3 = true;
   DG_EW_RUN_DIM(5)
   DG_EW_RUN_DIM(4)
   DG_EW_RUN_DIM(3)
   DG_EW_RUN_DIM(2)
   DG_EW_RUN_DIM(1)
   DG_EW_RUN_DIM(0)
   bool packed = mismatch == 0u;
   uint len = packed ? run : inner;

   /* The item's first element, its column in its run, the offsets of the run's start. */
   uint first = item * DG_EW_ITEMS;
   uint col_run = first % run, col_inner = first % inner; /* by constants */
   uint col = packed ? col_run : col_inner;
   uint start = first - col;
   uint oo = dg_offset_of_index(out_r, start);
   uint o1 = dg_offset_broadcast(out_r, in1_r, start);
#if DG_EW_ARITY >= 2
   uint o2 = dg_offset_broadcast(out_r, in2_r, start);
#endif
#if DG_EW_ARITY >= 3
   uint o3 = dg_offset_broadcast(out_r, in3_r, start);
#endif

#if DG_EW_HAS_VECTOR
   uvec2 ao = dg_address(out_r, oo + col * so);
   uvec2 a1 = dg_address(in1_r, o1 + col * s1);
   bool vector = col + DG_EW_ITEMS <= len &&
                 dg_ew_vector_at(DG_DTYPE_SIZE(DG_EW_OUT_DTYPE), so, ao) &&
                 (z1 || dg_ew_vector_at(DG_DTYPE_SIZE(DG_EW_IN1_DTYPE), s1, a1));
#if DG_EW_ARITY >= 2
   uvec2 a2 = dg_address(in2_r, o2 + col * s2);
   vector = vector && (z2 || dg_ew_vector_at(DG_DTYPE_SIZE(DG_EW_IN2_DTYPE), s2, a2));
#endif
#if DG_EW_ARITY >= 3
   uvec2 a3 = dg_address(in3_r, o3 + col * s3);
   vector = vector && (z3 || dg_ew_vector_at(DG_DTYPE_SIZE(DG_EW_IN3_DTYPE), s3, a3));
#endif
   if (vector) {
      dg_atype(DG_EW_OUT_DTYPE) r[DG_EW_ITEMS];
      dg_atype(DG_EW_IN1_DTYPE) a[DG_EW_ITEMS];
      dg_ew_vload1(a1, s1, a);
#if DG_EW_ARITY >= 2
      dg_atype(DG_EW_IN2_DTYPE) b[DG_EW_ITEMS];
      dg_ew_vload2(a2, s2, b);
#endif
#if DG_EW_ARITY >= 3
      dg_atype(DG_EW_IN3_DTYPE) c[DG_EW_ITEMS];
      dg_ew_vload3(a3, s3, c);
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
      dg_ew_vstore(ao, r);
      return;
   }
#endif

   for (uint k = 0u; k < DG_EW_ITEMS; k++) {
      uint index = first + k;
      if (index >= total)
         break;
      if (col == len) {
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
