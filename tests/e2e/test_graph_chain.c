/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graphs with several operators, through both layers on lavapipe, checked
 * against the CPU reference (vmel_tosa_ref):
 *  - an fp32 chain of eight elementwise nodes whose seven intermediates are
 *    live at most three at a time, so the planner (VMEL_MEMORY_PLANNER, run
 *    once per planner by CTest) reuses memory: the session's memory
 *    requirement is checked below the sum of the intermediates (at least that
 *    sum for Linear);
 *  - an int8 network CONV2D -> RESCALE -> CLAMP -> MAX_POOL2D -> RESHAPE ->
 *    MATMUL with weights, bias, multipliers and the MATMUL operand as graph
 *    constants.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dgutil.h"
#include "test.h"
#include "tosa_ref.h"

TEST_MAIN_STATE;

#define N 256

/* in, c -> t1 = clamp(in), t2 = t1 + c, t3 = t2 * t2, t4 = t3 - t1, t5 = clamp(t4),
 * t6 = t5 + c, t7 = t6 * t5, out = t7 - t6. */
static const char chain_text[] =
   DGU_PRELUDE
   "OpDecorate %in_var DescriptorSet 0\n"
   "OpDecorate %in_var Binding 0\n"
   "OpDecorate %out_var DescriptorSet 0\n"
   "OpDecorate %out_var Binding 1\n"
   DGU_TYPES
   "%uint_256 = OpConstant %uint 256\n"
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_256\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%shape1 = OpConstantComposite %arr_1 %uint_1\n"
   "%t_i8_1 = OpTypeTensorARM %uchar %uint_1 %shape1\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%in_var = OpVariable %ptr UniformConstant\n"
   "%out_var = OpVariable %ptr UniformConstant\n"
   "%m4 = OpConstant %float -4\n"
   "%p4 = OpConstant %float 4\n"
   "%m10 = OpConstant %float -10\n"
   "%p10 = OpConstant %float 10\n"
   "%shift = OpConstantNull %t_i8_1\n"
   "%c = OpGraphConstantARM %t 0\n"
   "%gt = OpTypeGraphARM 1 %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
   "%g = OpGraphARM %gt\n"
   "%in = OpGraphInputARM %t %uint_0\n"
   "%t1 = OpExtInst %t %tosa CLAMP %m4 %p4 %propagate %in\n"
   "%t2 = OpExtInst %t %tosa ADD %t1 %c\n"
   "%t3 = OpExtInst %t %tosa MUL %t2 %t2 %shift\n"
   "%t4 = OpExtInst %t %tosa SUB %t3 %t1\n"
   "%t5 = OpExtInst %t %tosa CLAMP %m10 %p10 %propagate %t4\n"
   "%t6 = OpExtInst %t %tosa ADD %t5 %c\n"
   "%t7 = OpExtInst %t %tosa MUL %t6 %t5 %shift\n"
   "%out = OpExtInst %t %tosa SUB %t7 %t6\n"
   "OpGraphSetOutputARM %out %uint_0\n"
   "OpGraphEndARM\n";

static struct ref_tensor *
ref_f32(const float *data)
{
   struct ref_tensor *t = ref_tensor_create_v(REF_DTYPE_FP32, 2, INT64_C(1), (int64_t)N);
   if (t && data)
      memcpy(t->data, data, N * sizeof(float));
   return t;
}

static void
reference_chain(const float *in, const float *c, float *out)
{
   struct ref_tensor *r_in = ref_f32(in), *r_c = ref_f32(c), *t[8];
   for (int i = 0; i < 8; i++)
      t[i] = ref_f32(NULL);
   struct ref_tensor *shift = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(1));
   struct tosa_ref_clamp_args c4 = {.min_fp = -4, .max_fp = 4, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_clamp_args c10 = {.min_fp = -10, .max_fp = 10,
                                     .nan_mode = TOSA_REF_NAN_PROPAGATE};
   int s = tosa_ref_clamp(&c4, r_in, t[1]);
   s |= tosa_ref_add(t[1], r_c, t[2]);
   s |= tosa_ref_mul(t[2], t[2], shift, t[3]);
   s |= tosa_ref_sub(t[3], t[1], t[4]);
   s |= tosa_ref_clamp(&c10, t[4], t[5]);
   s |= tosa_ref_add(t[5], r_c, t[6]);
   s |= tosa_ref_mul(t[6], t[5], shift, t[7]);
   s |= tosa_ref_sub(t[7], t[6], t[0]);
   ok(s == TOSA_REF_OK, "reference chain: %s", tosa_ref_last_message());
   memcpy(out, t[0]->data, N * sizeof(float));
   for (int i = 0; i < 8; i++)
      ref_tensor_destroy(t[i]);
   ref_tensor_destroy(r_in);
   ref_tensor_destroy(r_c);
   ref_tensor_destroy(shift);
}

static void
test_chain(struct dgu *u)
{
   test_set_context("fp32 chain");
   static float c[N], want[N];
   for (int i = 0; i < N; i++)
      c[i] = (float)((i * 7) % 13) * 0.25f - 1.5f;
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_constant constants[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, N}, c}};
   struct dgu_pipeline_desc desc = {
      .text = chain_text,
      .bindings = bindings,
      .binding_count = 2,
      .constants = constants,
      .constant_count = 1,
   };
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (!ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r)) {
      dgu_graph_destroy(u, &g);
      return;
   }
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out;
   int64_t dims[2] = {1, N};
   bool made = dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
               dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
               dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out);
   if (made) {
      /* Seven intermediates of N fp32 elements, at most three live at once. */
      const VkDeviceSize sum = 7 * N * sizeof(float);
      const char *planner = getenv("VMEL_MEMORY_PLANNER");
      if (planner && strcasecmp(planner, "Linear") == 0)
         ok(s.size >= sum, "Linear planner: %llu bytes, intermediates %llu",
            (unsigned long long)s.size, (unsigned long long)sum);
      else
         ok(s.size < sum && s.size >= 3 * N * sizeof(float),
            "%s planner: %llu bytes for %llu bytes of intermediates (3 live at most)",
            planner ? planner : "default", (unsigned long long)s.size,
            (unsigned long long)sum);
      float *x = in.data;
      for (int i = 0; i < N; i++)
         x[i] = (float)(i - N / 2) * 0.0625f;
      memset(out.data, 0xcd, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      reference_chain(x, c, want);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_f32("out", out.data, want, N);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

/* int8: in [1,8,8,4] -> CONV2D 3x3 (8 filters) -> i32 [1,6,6,8] -> RESCALE per channel -> i8
 * -> CLAMP [-100, 100] -> MAX_POOL2D 2x2/2 -> [1,3,3,8] -> RESHAPE [1,9,8] -> MATMUL with
 * B [1,8,4] -> i32 [1,9,4]. */
static const char net_text[] =
   DGU_PRELUDE
   "OpDecorate %in_var DescriptorSet 0\n"
   "OpDecorate %in_var Binding 0\n"
   "OpDecorate %out_var DescriptorSet 0\n"
   "OpDecorate %out_var Binding 1\n"
   DGU_TYPES
   "%uint_6 = OpConstant %uint 6\n"
   "%uint_8 = OpConstant %uint 8\n"
   "%uint_9 = OpConstant %uint 9\n"
   "%s_in = OpConstantComposite %arr_4 %uint_1 %uint_8 %uint_8 %uint_4\n"
   "%s_w = OpConstantComposite %arr_4 %uint_8 %uint_3 %uint_3 %uint_4\n"
   "%s_conv = OpConstantComposite %arr_4 %uint_1 %uint_6 %uint_6 %uint_8\n"
   "%s_pool = OpConstantComposite %arr_4 %uint_1 %uint_3 %uint_3 %uint_8\n"
   "%s_flat = OpConstantComposite %arr_3 %uint_1 %uint_9 %uint_8\n"
   "%s_b = OpConstantComposite %arr_3 %uint_1 %uint_8 %uint_4\n"
   "%s_out = OpConstantComposite %arr_3 %uint_1 %uint_9 %uint_4\n"
   "%s_1 = OpConstantComposite %arr_1 %uint_1\n"
   "%s_2 = OpConstantComposite %arr_1 %uint_2\n"
   "%s_3 = OpConstantComposite %arr_1 %uint_3\n"
   "%s_4 = OpConstantComposite %arr_1 %uint_4\n"
   "%s_8 = OpConstantComposite %arr_1 %uint_8\n"
   "%t_in = OpTypeTensorARM %uchar %uint_4 %s_in\n"
   "%t_w = OpTypeTensorARM %uchar %uint_4 %s_w\n"
   "%t_conv = OpTypeTensorARM %uint %uint_4 %s_conv\n"
   "%t_q = OpTypeTensorARM %uchar %uint_4 %s_conv\n"
   "%t_pool = OpTypeTensorARM %uchar %uint_4 %s_pool\n"
   "%t_flat = OpTypeTensorARM %uchar %uint_3 %s_flat\n"
   "%t_b = OpTypeTensorARM %uchar %uint_3 %s_b\n"
   "%t_out = OpTypeTensorARM %uint %uint_3 %s_out\n"
   "%t_i32_1 = OpTypeTensorARM %uint %uint_1 %s_1\n"
   "%t_i32_2 = OpTypeTensorARM %uint %uint_1 %s_2\n"
   "%t_i32_3 = OpTypeTensorARM %uint %uint_1 %s_3\n"
   "%t_i32_4 = OpTypeTensorARM %uint %uint_1 %s_4\n"
   "%t_i32_8 = OpTypeTensorARM %uint %uint_1 %s_8\n"
   "%t_i8_1 = OpTypeTensorARM %uchar %uint_1 %s_1\n"
   "%t_i8_8 = OpTypeTensorARM %uchar %uint_1 %s_8\n"
   "%p_in = OpTypePointer UniformConstant %t_in\n"
   "%p_out = OpTypePointer UniformConstant %t_out\n"
   "%in_var = OpVariable %p_in UniformConstant\n"
   "%out_var = OpVariable %p_out UniformConstant\n"
   "%pad = OpConstantNull %t_i32_4\n"
   "%ones = OpConstantCompositeReplicateEXT %t_i32_2 %uint_1\n"
   "%twos = OpConstantCompositeReplicateEXT %t_i32_2 %uint_2\n"
   "%new_shape = OpConstantComposite %t_i32_3 %uint_1 %uint_9 %uint_8\n"
   "%acc_int32 = OpConstant %uint 1\n"
   "%single_round = OpConstant %uint 1\n"
   "%zp_i8 = OpConstantNull %t_i8_1\n"
   "%zp_i32 = OpConstantNull %t_i32_1\n"
   "%lo = OpConstant %uchar 156\n"
   "%hi = OpConstant %uchar 100\n"
   "%weight = OpGraphConstantARM %t_w 0\n"
   "%bias = OpGraphConstantARM %t_i32_8 1\n"
   "%multiplier = OpGraphConstantARM %t_i32_8 2\n"
   "%shift = OpGraphConstantARM %t_i8_8 3\n"
   "%b = OpGraphConstantARM %t_b 4\n"
   "%gt = OpTypeGraphARM 1 %t_in %t_out\n"
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
   "%g = OpGraphARM %gt\n"
   "%in = OpGraphInputARM %t_in %uint_0\n"
   "%conv = OpExtInst %t_conv %tosa CONV2D %pad %ones %ones %acc_int32 %false %in %weight "
   "%bias %zp_i8 %zp_i8\n"
   "%q = OpExtInst %t_q %tosa RESCALE %true %single_round %true %false %false %conv "
   "%multiplier %shift %zp_i32 %zp_i8\n"
   "%clamped = OpExtInst %t_q %tosa CLAMP %lo %hi %propagate %q\n"
   "%pool = OpExtInst %t_pool %tosa MAX_POOL2D %twos %twos %pad %propagate %clamped\n"
   "%flat = OpExtInst %t_flat %tosa RESHAPE %pool %new_shape\n"
   "%out = OpExtInst %t_out %tosa MATMUL %flat %b %zp_i8 %zp_i8\n"
   "OpGraphSetOutputARM %out %uint_0\n"
   "OpGraphEndARM\n";

static void
reference_net(const int8_t *in, const int8_t *w, const int32_t *bias, const int32_t *mult,
              const int8_t *shift, const int8_t *b, int32_t *out)
{
   struct ref_tensor *t_in = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(8),
                                                 INT64_C(8), INT64_C(4));
   struct ref_tensor *t_w = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(8), INT64_C(3),
                                                INT64_C(3), INT64_C(4));
   struct ref_tensor *t_bias = ref_tensor_create_v(REF_DTYPE_I32, 1, INT64_C(8));
   struct ref_tensor *t_mult = ref_tensor_create_v(REF_DTYPE_I32, 1, INT64_C(8));
   struct ref_tensor *t_shift = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(8));
   struct ref_tensor *t_b = ref_tensor_create_v(REF_DTYPE_I8, 3, INT64_C(1), INT64_C(8),
                                                INT64_C(4));
   struct ref_tensor *zp8 = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(1));
   struct ref_tensor *zp32 = ref_tensor_create_v(REF_DTYPE_I32, 1, INT64_C(1));
   struct ref_tensor *conv = ref_tensor_create_v(REF_DTYPE_I32, 4, INT64_C(1), INT64_C(6),
                                                 INT64_C(6), INT64_C(8));
   struct ref_tensor *q = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(6),
                                              INT64_C(6), INT64_C(8));
   struct ref_tensor *cl = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(6),
                                               INT64_C(6), INT64_C(8));
   struct ref_tensor *pool = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), INT64_C(3),
                                                 INT64_C(3), INT64_C(8));
   struct ref_tensor *flat = ref_tensor_create_v(REF_DTYPE_I8, 3, INT64_C(1), INT64_C(9),
                                                 INT64_C(8));
   struct ref_tensor *o = ref_tensor_create_v(REF_DTYPE_I32, 3, INT64_C(1), INT64_C(9),
                                              INT64_C(4));
   memcpy(t_in->data, in, 256);
   memcpy(t_w->data, w, 288);
   memcpy(t_bias->data, bias, 32);
   memcpy(t_mult->data, mult, 32);
   memcpy(t_shift->data, shift, 8);
   memcpy(t_b->data, b, 32);
   struct tosa_ref_conv2d_args ca = {.stride = {1, 1}, .dilation = {1, 1},
                                     .acc_type = TOSA_REF_ACC_INT32};
   struct tosa_ref_rescale_args ra = {.scale32 = true, .rounding_mode = TOSA_REF_ROUND_SINGLE,
                                      .per_channel = true};
   struct tosa_ref_clamp_args cla = {.min_int = -100, .max_int = 100,
                                     .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_max_pool2d_args pa = {.kernel = {2, 2}, .stride = {2, 2},
                                         .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_matmul_args ma = {0};
   int s = tosa_ref_conv2d(&ca, t_in, t_w, t_bias, zp8, zp8, conv);
   s |= tosa_ref_rescale(&ra, conv, t_mult, t_shift, zp32, zp8, q);
   s |= tosa_ref_clamp(&cla, q, cl);
   s |= tosa_ref_max_pool2d(&pa, cl, pool);
   s |= tosa_ref_reshape(pool, flat);
   s |= tosa_ref_matmul(&ma, flat, t_b, zp8, zp8, o);
   ok(s == TOSA_REF_OK, "reference network: %s", tosa_ref_last_message());
   memcpy(out, o->data, 36 * sizeof(int32_t));
   struct ref_tensor *all[] = {t_in, t_w, t_bias, t_mult, t_shift, t_b, zp8, zp32,
                               conv, q,   cl,  pool,   flat,    o};
   for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
      ref_tensor_destroy(all[i]);
}

static void
test_network(struct dgu *u)
{
   test_set_context("int8 network");
   static int8_t w[288], shift[8], b[32];
   static int32_t bias[8], mult[8], want[36];
   uint32_t seed = 12345;
   for (int i = 0; i < 288; i++) {
      seed = seed * 1103515245u + 12345u;
      w[i] = (int8_t)((seed >> 16) % 15) - 7;
   }
   for (int i = 0; i < 8; i++) {
      bias[i] = (i - 4) * 37;
      mult[i] = 1 << 30 | (i * 1234567);
      shift[i] = (int8_t)(36 + i % 3);
   }
   for (int i = 0; i < 32; i++)
      b[i] = (int8_t)(i % 9 - 4);
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, 8, 8, 4}},
      {0, 1, 1, VK_FORMAT_R32_SINT, 3, {1, 9, 4}},
   };
   struct dgu_constant constants[] = {
      {0, VK_FORMAT_R8_SINT, 4, {8, 3, 3, 4}, w},
      {1, VK_FORMAT_R32_SINT, 1, {8}, bias},
      {2, VK_FORMAT_R32_SINT, 1, {8}, mult},
      {3, VK_FORMAT_R8_SINT, 1, {8}, shift},
      {4, VK_FORMAT_R8_SINT, 3, {1, 8, 4}, b},
   };
   struct dgu_pipeline_desc desc = {
      .text = net_text,
      .bindings = bindings,
      .binding_count = 2,
      .constants = constants,
      .constant_count = 5,
   };
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (!ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r)) {
      dgu_graph_destroy(u, &g);
      return;
   }
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out;
   int64_t di[4] = {1, 8, 8, 4}, dout[3] = {1, 9, 4};
   if (dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, di, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SINT, 3, dout, &out)) {
      int8_t *x = in.data;
      for (int i = 0; i < 256; i++) {
         seed = seed * 1103515245u + 12345u;
         x[i] = (int8_t)(seed >> 17);
      }
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      reference_net(x, w, bias, mult, shift, b, want);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_bytes("out", out.data, want, sizeof(want));
      /* Intermediates: conv (1152 B), q, clamped (288 B each), pool (72), flat (72). */
      ok(s.size > 0 && s.size < 1152 + 288 + 288 + 72 + 72 + 5 * 256,
         "session memory %llu bytes", (unsigned long long)s.size);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   struct dgu u;
   /* Synchronization validation checks the layers' own buffer and descriptor traffic. */
   struct dgu_options options = {.sync_validation = true};
   if (dgu_init(&u, &options)) {
      test_chain(&u);
      test_network(&u);
   }
   dgu_finish(&u);
   return test_done();
}
