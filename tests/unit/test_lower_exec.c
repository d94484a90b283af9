/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Runs tensor shaders on the device (lavapipe in CI) through the tensor
 * layer, which lowers them on the path VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE
 * selects (registered under both), and checks the data: every element type copied through a
 * strided tensor (out-of-bounds reads give zero, out-of-bounds writes leave
 * the guard bytes alone), ranks 1..6 with padded strides and size queries, a
 * specialization-constant rank with the array form, array forms with both
 * kinds of out-of-bounds value, negative coordinates in 16- and 64-bit,
 * query result types, arrays of tensors, tensors passed to functions, split
 * loop headers, SPIR-V 1.3 and the Vulkan memory model. The shaders are the
 * golden inputs of tests/unit/lower; the conversions of bfloat16 and float8
 * are checked separately (test_lower_convert.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_exec.h"
#include "test.h"

TEST_MAIN_STATE;

static struct lx x;

struct two {
   struct lx_tensor src, dst;
};

static bool
two_tensors(uint32_t rank, const uint32_t *dims, const uint32_t *strides, uint32_t size,
            struct two *t)
{
   return ok(lx_tensor_create(&x, rank, dims, strides, size, &t->src) &&
                 lx_tensor_create(&x, rank, dims, strides, size, &t->dst),
             "tensor creation failed");
}

static void
two_destroy(struct two *t)
{
   lx_tensor_destroy(&x, &t->src);
   lx_tensor_destroy(&x, &t->dst);
}

/* Lowers case `name` and runs it with bindings src (0) and dst (1). */
static bool
run_two(const char *name, struct two *t, uint32_t groups)
{
   size_t n = 0;
   uint32_t *spv = lx_module(name, NULL, &n);
   if (!spv)
      return false;
   struct lx_binding b[2] = {{1, {&t->src.record}}, {1, {&t->dst.record}}};
   struct lx_dispatch d = {spv, n, b, 2, {groups, 1, 1}, NULL};
   bool r = ok(lx_run(&x, &d), "%s: dispatch failed", name);
   free(spv);
   return r;
}

static void
test_elements(void)
{
   static const struct {
      const char *name;
      uint32_t size;
   } elems[] = {
       {"bool", 1}, {"i8", 1},  {"u8", 1},  {"i16", 2},  {"u16", 2},  {"i32", 4},  {"i64", 8},
       {"u64", 8},  {"f16", 2}, {"f64", 8}, {"bf16", 2}, {"e4m3", 1}, {"e5m2", 1},
   };
   for (size_t e = 0; e < sizeof(elems) / sizeof(elems[0]); e++) {
      char name[32];
      snprintf(name, sizeof(name), "elem_%s", elems[e].name);
      test_set_context(name);
      uint32_t size = elems[e].size, dims[1] = {37}, strides[1] = {2 * size};
      struct two t;
      if (!two_tensors(1, dims, strides, size, &t))
         continue;
      for (uint32_t i = 0; i < dims[0]; i++) {
         uint8_t *p = lx_tensor_at(&t.src, &i);
         uint64_t v = 0x0123456789abcdefull * (i + 1) >> 7;
         if (!strcmp(elems[e].name, "bool"))
            v = i % 3 == 0;
         else if (!strcmp(elems[e].name, "f16"))
            v = 0x3c00 + i;
         else if (!strcmp(elems[e].name, "bf16"))
            v = 0x3f80 + i;
         else if (!strcmp(elems[e].name, "f64")) {
            double d = 1.5 * i - 7;
            memcpy(&v, &d, 8);
         } else if (size == 1 && elems[e].name[0] == 'e')
            v = i * 3; /* no NaN codes */
         memcpy(p, &v, size);
      }
      if (run_two(name, &t, 1)) {
         uint32_t bad = 0;
         for (uint32_t i = 0; i < dims[0]; i++) {
            const uint8_t *in = lx_tensor_at(&t.src, &i), *out = lx_tensor_at(&t.dst, &i);
            bad += memcmp(in, out, size) != 0;
            for (uint32_t k = size; k < 2 * size; k++)
               bad += out[k] != LX_GUARD_BYTE; /* padding between elements */
         }
         ok(bad == 0, "%s: %u bytes differ", name, bad);
         ok(lx_tensor_guard_intact(&t.dst), "%s: out-of-bounds write", name);
      }
      two_destroy(&t);
   }
   test_set_context(NULL);
}

static float
f32_at(const struct lx_tensor *t, const uint32_t *c)
{
   float f;
   memcpy(&f, lx_tensor_at(t, c), 4);
   return f;
}

static bool
is_guard(const struct lx_tensor *t, const uint32_t *c)
{
   const uint8_t *p = lx_tensor_at(t, c);
   return p[0] == LX_GUARD_BYTE && p[1] == LX_GUARD_BYTE && p[2] == LX_GUARD_BYTE &&
          p[3] == LX_GUARD_BYTE;
}

/* Visits every coordinate of t; returns the number of mismatches reported by fn. */
static uint32_t
for_each(const struct lx_tensor *t, uint32_t (*fn)(const uint32_t *c, void *data), void *data)
{
   uint32_t c[VMEL_TENSOR_MAX_RANK] = {0}, bad = 0;
   for (;;) {
      bad += fn(c, data);
      uint32_t i = t->rank;
      while (i-- > 0 && ++c[i] == t->dims[i])
         c[i] = 0;
      if (i == UINT32_MAX)
         return bad;
   }
}

struct rank_check {
   struct two *t;
   float sum;
};

static uint32_t
fill_linear(const uint32_t *c, void *data)
{
   struct lx_tensor *t = data;
   float v = 0;
   for (uint32_t i = 0; i < t->rank; i++)
      v = v * 10 + (float)c[i];
   memcpy(lx_tensor_at(t, c), &v, 4);
   return 0;
}

static uint32_t
check_rank(const uint32_t *c, void *data)
{
   struct rank_check *rc = data;
   bool covered = true;
   for (uint32_t i = 0; i < rc->t->dst.rank; i++)
      covered &= i < 3 ? c[i] < 4 : c[i] == 0;
   if (!covered)
      return !is_guard(&rc->t->dst, c);
   return f32_at(&rc->t->dst, c) != f32_at(&rc->t->src, c) + rc->sum;
}

static void
test_ranks(void)
{
   static const uint32_t all_dims[6] = {3, 5, 2, 3, 2, 2};
   for (uint32_t r = 1; r <= 6; r++) {
      char name[16];
      snprintf(name, sizeof(name), "rank_%u", r);
      test_set_context(name);
      uint32_t strides[6], dims[6];
      uint32_t stride = 4;
      float sum = 0;
      for (uint32_t i = r; i-- > 0;) {
         dims[i] = all_dims[i];
         strides[i] = stride;
         stride = stride * dims[i] + 8; /* padding */
         sum += (float)dims[i];
      }
      struct two t;
      if (!two_tensors(r, dims, strides, 4, &t))
         continue;
      for_each(&t.src, fill_linear, &t.src);
      if (run_two(name, &t, 1)) {
         struct rank_check rc = {&t, sum};
         ok(for_each(&t.dst, check_rank, &rc) == 0, "%s: wrong elements", name);
         ok(lx_tensor_guard_intact(&t.dst), "%s: out-of-bounds write", name);
      }
      two_destroy(&t);
   }
   test_set_context(NULL);
}

static void
test_spec_rank(void)
{
   uint32_t dims[2] = {2, 10};
   struct two t;
   if (!two_tensors(2, dims, NULL, 4, &t))
      return;
   for (uint32_t j = 0; j < 10; j++) {
      float a = j ? (float)j + 1 : 10.0f, b = 100.0f + (float)j;
      uint32_t c0[2] = {0, j}, c1[2] = {1, j};
      memcpy(lx_tensor_at(&t.src, c0), &a, 4);
      memcpy(lx_tensor_at(&t.src, c1), &b, 4);
   }
   if (run_two("spec_rank", &t, 1)) {
      uint32_t bad = 0;
      for (uint32_t j = 0; j < 10; j++) {
         uint32_t c0[2] = {0, j}, c1[2] = {1, j};
         bad += f32_at(&t.dst, c0) != f32_at(&t.src, c0);
         bad += !is_guard(&t.dst, c1);
      }
      ok(bad == 0, "spec_rank: %u wrong elements", bad);
      ok(lx_tensor_guard_intact(&t.dst), "spec_rank: out-of-bounds write");
   }
   two_destroy(&t);
}

static void
test_array_forms(void)
{
   uint32_t dims[2] = {2, 7};
   struct two t;
   if (!two_tensors(2, dims, NULL, 4, &t))
      return;
   for (uint32_t j = 0; j < 7; j++) {
      int32_t v = (int32_t)j * 3 + 1;
      uint32_t c[2] = {0, j};
      memcpy(lx_tensor_at(&t.src, c), &v, 4);
   }
   if (run_two("array_forms", &t, 1)) {
      uint32_t bad = 0;
      for (uint32_t j = 0; j < 7; j++) {
         uint32_t c0[2] = {0, j}, c1[2] = {1, j};
         int32_t got;
         memcpy(&got, lx_tensor_at(&t.dst, c0), 4);
         bad += got != 2 * ((int32_t)j * 3 + 1);
         bad += !is_guard(&t.dst, c1);
      }
      ok(bad == 0, "array_forms: %u wrong elements", bad);
      ok(lx_tensor_guard_intact(&t.dst), "array_forms: out-of-bounds write");
   }
   two_destroy(&t);
}

static void
test_query_types(void)
{
   uint32_t dims[3] = {2, 3, 4}, odims[1] = {5};
   struct two t;
   if (!ok(lx_tensor_create(&x, 3, dims, NULL, 4, &t.src) &&
               lx_tensor_create(&x, 1, odims, NULL, 4, &t.dst),
           "tensor creation failed"))
      return;
   if (run_two("query_types", &t, 1)) {
      uint32_t bad = 0;
      for (uint32_t i = 0; i < 5; i++)
         bad += *(uint32_t *)lx_tensor_at(&t.dst, &i) != 18;
      ok(bad == 0, "query_types: %u wrong sums", bad);
      ok(lx_tensor_guard_intact(&t.dst), "query_types: out-of-bounds write");
   }
   two_destroy(&t);
}

static void
test_negative_coords(void)
{
   uint32_t dims[2] = {1, 10};
   struct two t;
   if (!two_tensors(2, dims, NULL, 4, &t))
      return;
   for (uint32_t j = 0; j < 10; j++) {
      float v = 5.0f;
      uint32_t c[2] = {0, j};
      memcpy(lx_tensor_at(&t.src, c), &v, 4);
   }
   if (run_two("coords_wide_narrow", &t, 1)) {
      uint32_t bad = 0;
      for (uint32_t j = 0; j < 10; j++) {
         uint32_t c[2] = {0, j};
         bad += f32_at(&t.dst, c) != 0.0f;
      }
      ok(bad == 0, "coords_wide_narrow: %u elements read in bounds", bad);
      ok(lx_tensor_guard_intact(&t.dst), "coords_wide_narrow: out-of-bounds write");
   }
   two_destroy(&t);
}

/* Arrays of four tensors of 8 floats, arr[k][i] = 100 k + i, into dst. */
static void
test_tensor_array(const char *name, uint32_t (*expect_k)(uint32_t i))
{
   test_set_context(name);
   uint32_t dims[1] = {8};
   struct lx_tensor arr[4], dst;
   bool created = lx_tensor_create(&x, 1, dims, NULL, 4, &dst);
   for (uint32_t k = 0; k < 4; k++) {
      created = lx_tensor_create(&x, 1, dims, NULL, 4, &arr[k]) && created;
      for (uint32_t i = 0; i < 8; i++) {
         float v = 100.0f * (float)k + (float)i;
         memcpy(lx_tensor_at(&arr[k], &i), &v, 4);
      }
   }
   size_t n = 0;
   uint32_t *spv = created ? lx_module(name, NULL, &n) : NULL;
   if (ok(spv != NULL, "%s: setup failed", name)) {
      struct lx_binding b[2] = {
          {4, {&arr[0].record, &arr[1].record, &arr[2].record, &arr[3].record}},
          {1, {&dst.record}},
      };
      struct lx_dispatch d = {spv, n, b, 2, {1, 1, 1}, NULL};
      if (ok(lx_run(&x, &d), "%s: dispatch failed", name)) {
         uint32_t bad = 0;
         for (uint32_t i = 0; i < 8; i++)
            bad += f32_at(&dst, &i) != 100.0f * (float)expect_k(i) + (float)i;
         ok(bad == 0, "%s: %u wrong elements", name, bad);
      }
   }
   free(spv);
   for (uint32_t k = 0; k < 4; k++)
      lx_tensor_destroy(&x, &arr[k]);
   lx_tensor_destroy(&x, &dst);
   test_set_context(NULL);
}

static uint32_t
k_two(uint32_t i)
{
   return 2;
}

static uint32_t
k_zero(uint32_t i)
{
   return 0;
}

static uint32_t
k_low_bits(uint32_t i)
{
   return i & 3;
}

/* A rank-1 float tensor of n elements in src; dst checked against expect(i). */
static void
test_float_case(const char *name, uint32_t n, const float *in,
                float (*expect)(uint32_t i, const float *in))
{
   test_set_context(name);
   uint32_t dims[1] = {n};
   struct two t;
   if (!two_tensors(1, dims, NULL, 4, &t))
      return;
   for (uint32_t i = 0; i < n; i++)
      memcpy(lx_tensor_at(&t.src, &i), &in[i], 4);
   if (run_two(name, &t, 1)) {
      uint32_t bad = 0;
      for (uint32_t i = 0; i < n; i++)
         bad += f32_at(&t.dst, &i) != expect(i, in);
      ok(bad == 0, "%s: %u wrong elements", name, bad);
      ok(lx_tensor_guard_intact(&t.dst), "%s: out-of-bounds write", name);
   }
   two_destroy(&t);
   test_set_context(NULL);
}

static float
expect_copy(uint32_t i, const float *in)
{
   return in[i];
}

/* tensor_copy: out[i] = 2 in[i] + in[i + 1], the latter 0 out of bounds (37 elements). */
static float
expect_double_plus_next(uint32_t i, const float *in)
{
   return 2.0f * in[i] + (i + 1 < 37 ? in[i + 1] : 0.0f);
}

static float
expect_plus_first(uint32_t i, const float *in)
{
   return in[i] + in[0];
}

static float
expect_loops(uint32_t i, const float *in)
{
   float acc = in[0] + in[1] + in[2]; /* in[3] is out of bounds: 0 */
   return acc + in[0] + in[1];
}

/* Malformed function bodies the lowering relies on (issue 15, D39) are refused at
 * vkCreateShaderModule under either path, and no module reaches the driver. */
static void
test_malformed(void)
{
   static const char *const names[] = {"reject_two_loop_merges", "reject_no_terminator",
                                       "reject_phi_not_predecessor"};
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      test_set_context(names[i]);
      size_t count = 0;
      uint32_t *words = lx_module(names[i], NULL, &count);
      if (words) {
         VkShaderModuleCreateInfo smci = {
             .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
             .codeSize = count * 4,
             .pCode = words,
         };
         VkShaderModule module = VK_NULL_HANDLE;
         VkResult r = vkCreateShaderModule(x.device, &smci, NULL, &module);
         ok(r == VK_ERROR_INITIALIZATION_FAILED && module == VK_NULL_HANDLE,
            "vkCreateShaderModule gave %d, expected VK_ERROR_INITIALIZATION_FAILED", r);
         if (module)
            vkDestroyShaderModule(x.device, module, NULL);
      }
      free(words);
      test_set_context(NULL);
   }
}

int
main(void)
{
   if (!lx_init(&x)) {
      lx_finish(&x);
      return test_skip("no Vulkan device with buffer device addresses and small types");
   }
   printf("lowering: %s\n", lx_mode());
   test_elements();
   test_ranks();
   test_spec_rank();
   test_array_forms();
   test_query_types();
   test_negative_coords();
   test_malformed();
   test_tensor_array("tensor_array_constant", k_two);
   test_tensor_array("tensor_array_dynamic", k_zero);
   if (x.non_uniform)
      test_tensor_array("tensor_array_nonuniform", k_low_bits);
   else
      printf("skipped tensor_array_nonuniform: no shaderStorageBufferArrayNonUniformIndexing\n");
   if (x.runtime_array)
      test_tensor_array("tensor_array_runtime", k_zero);
   else
      printf("skipped tensor_array_runtime: no runtimeDescriptorArray\n");

   float in[37];
   for (uint32_t i = 0; i < 37; i++)
      in[i] = 0.5f * (float)i - 3.0f;
   test_float_case("read_write_f32", 37, in, expect_double_plus_next);
   test_float_case("spirv_1_3", 37, in, expect_copy);
   test_float_case("vulkan_memory_model", 37, in, expect_copy);
   test_float_case("function_params", 8, in, expect_plus_first);
   float neg[3] = {-1.0f, -2.0f, -4.0f};
   test_float_case("control_flow", 3, neg, expect_loops);

   lx_finish(&x);
   return test_done();
}
