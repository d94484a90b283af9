/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the copy kernels against the reference: CONCAT and RESHAPE bit for
 * bit, i48 included (by index arithmetic, as TOSA 1.0.1 has no i48 CONCAT or RESHAPE).
 */
#include "harness.h"

/* ---- CONCAT, RESHAPE ------------------------------------------------------------------------ */

static void
fill_bits(struct ref_tensor *t)
{
   for (int64_t i = 0; i < t->count; i++) {
      uint64_t bits = ((uint64_t)next_random() << 32) | next_random();
      if (t->dtype == REF_DTYPE_BOOL)
         bits &= 1;
      else if (t->dtype == REF_DTYPE_I48)
         bits = (uint64_t)((int64_t)(bits << 16) >> 16);
      ref_tensor_set_bits(t, i, bits);
   }
}

static const char *
copy_variant(enum ref_dtype dtype)
{
   switch (ref_dtype_size(dtype)) {
   case 1:
      return "tosa_copy_u8";
   case 2:
      return "tosa_copy_u16";
   case 4:
      return "tosa_copy_u32";
   default:
      return "tosa_copy_u64";
   }
}

/* TOSA 1.0.1 has no i48 CONCAT or RESHAPE (the reference rejects them), but the graph layer copies
 * i48 tensors with tosa_copy_u64 too: the expected CONCAT, by index arithmetic. */
static bool
host_concat(struct ref_tensor *const *in, unsigned count, uint32_t axis, struct ref_tensor *out)
{
   int64_t index[REF_MAX_RANK];
   for (int64_t i = 0; i < out->count; i++) {
      ref_tensor_index(out, i, index);
      for (unsigned t = 0; t < count; t++) {
         if (index[axis] < in[t]->shape[axis]) {
            int64_t from = ref_tensor_offset(in[t], index);
            ref_tensor_set_bits(out, i, ref_tensor_get_bits(in[t], from));
            break;
         }
         index[axis] -= in[t]->shape[axis];
      }
   }
   return true;
}

/* CONCAT of three inputs along `axis`: one dispatch per input into one output. */
static void
concat_case(enum ref_dtype dtype, uint32_t rank, const int64_t *base, uint32_t axis,
            const int64_t *sizes)
{
   char what[96];
   snprintf(what, sizeof(what), "CONCAT %s rank %u axis %u", ref_dtype_name(dtype), rank, axis);
   struct ref_tensor *in[3];
   int64_t shape[REF_MAX_RANK];
   memcpy(shape, base, rank * sizeof(*shape));
   int64_t total = 0;
   for (unsigned i = 0; i < 3; i++) {
      shape[axis] = sizes[i];
      total += sizes[i];
      in[i] = tensor(dtype, rank, shape);
      fill_bits(in[i]);
   }
   shape[axis] = total;
   struct ref_tensor *ref = tensor(dtype, rank, shape);
   struct tosa_ref_concat_args ra = {.axis = (int32_t)axis};
   const struct ref_tensor *const *inputs = (const struct ref_tensor *const *)in;
   if (dtype == REF_DTYPE_I48 ? host_concat(in, 3, axis, ref)
                              : ref_ok(what, tosa_ref_concat(&ra, inputs, 3, ref))) {
      arena_used = 0;
      struct gtensor g[2];
      gtensor_place(&g[1], ref, 1); /* the output: its data is not uploaded */
      uint32_t offset = 0;
      bool done = true;
      for (unsigned i = 0; i < 3 && done; i++) {
         gtensor_place(&g[0], in[i], i);
         gtensor_upload(&g[0]);
         struct dg_copy_args args = {.mode = DG_COPY_CONCAT, .axis = axis, .offset = offset};
         done = dispatch_kernel(copy_variant(dtype), g, 2, &args, sizeof(args),
                                (uint32_t)in[i]->count);
         offset += (uint32_t)sizes[i];
      }
      if (done) {
         struct ref_tensor *gpu = gtensor_download(&g[1]);
         compare(what, TOSA_REF_OP_CONCAT, gpu, ref);
         ref_tensor_destroy(gpu);
      }
   }
   destroy_all(in, 3);
   ref_tensor_destroy(ref);
}

static void
reshape_case(enum ref_dtype dtype, uint32_t in_rank, const int64_t *in_shape, uint32_t out_rank,
             const int64_t *out_shape)
{
   char what[96];
   snprintf(what, sizeof(what), "RESHAPE %s rank %u to %u", ref_dtype_name(dtype), in_rank,
            out_rank);
   struct ref_tensor *in = tensor(dtype, in_rank, in_shape);
   struct ref_tensor *out = tensor(dtype, out_rank, out_shape);
   struct ref_tensor *ref = tensor(dtype, out_rank, out_shape);
   fill_bits(in);
   if (dtype == REF_DTYPE_I48 ? (memcpy(ref->data, in->data, (size_t)in->count * 8), true)
                              : ref_ok(what, tosa_ref_reshape(in, ref))) {
      struct dg_copy_args args = {.mode = DG_COPY_RESHAPE};
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu = run_kernel(copy_variant(dtype), ts, (const uint32_t[]){1, 2}, 2,
                                          &args, sizeof(args), (uint32_t)in->count);
      compare(what, TOSA_REF_OP_RESHAPE, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

void
test_copy(void)
{
   static const enum ref_dtype dtypes[] = {REF_DTYPE_BOOL, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16,
                                           REF_DTYPE_I32, REF_DTYPE_I48};
   test_set_context("copy");
   for (unsigned i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
      concat_case(dtypes[i], 3, SHAPE(2, 0, 4), 1, SHAPE(3, 1, 2));
      reshape_case(dtypes[i], 3, SHAPE(2, 3, 4), 2, SHAPE(4, 6));
   }
   grid_x_max = 2;
   concat_case(REF_DTYPE_FP32, 4, SHAPE(0, 2, 3, 5), 0, SHAPE(2, 1, 3));
   concat_case(REF_DTYPE_BF16, 2, SHAPE(3, 0), 1, SHAPE(1, 5, 2));
   concat_case(REF_DTYPE_I8, 6, SHAPE(1, 2, 1, 2, 3, 0), 5, SHAPE(2, 1, 3));
   reshape_case(REF_DTYPE_I16, 1, SHAPE(24), 4, SHAPE(2, 3, 2, 2));
   reshape_case(REF_DTYPE_FP32, 6, SHAPE(1, 2, 1, 3, 2, 2), 1, SHAPE(24));
   grid_x_max = 65535;
   test_set_context(NULL);
}
