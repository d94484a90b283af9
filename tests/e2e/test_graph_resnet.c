/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A quantised two-block ResNet through both layers on lavapipe, with
 * validation below them (any validation message fails the test): the graph
 * of the issue whose single internal set of about 50 tensor bindings went
 * past maxPerStageDescriptorStorageBuffers (32 on lavapipe, VUID 03018) and
 * crashed lavapipe (docs/decisions.md D19).
 *
 *   input i8 [1, H, W, 64]
 *   per block: CONV2D 3x3 pad 1, 64 -> 64, i8 -> i32 (acc INT32)
 *              RESCALE per channel -> i8, CLAMP [0, 127]
 *              CONV2D 3x3 pad 1, RESCALE per channel -> i8
 *              RESCALE both that and the block's input i8 -> i32, ADD (i32),
 *              RESCALE -> i8, CLAMP [0, 127]
 *   MAX_POOL2D 2x2 stride 2 -> output i8 [1, H/2, W/2, 64]
 *
 * Weights and biases are the 8 graph constants (OpGraphConstantARM), the
 * RESCALE multipliers and shifts module constants. The output is compared bit
 * for bit with vmel_tosa_ref evaluated op by op.
 *
 * Size: the network is 56x56 (`test_graph_resnet 56`). CTest runs it
 * at 16x16 with the same topology and channel count: our kernels compute one
 * output per invocation, so each 56x56 CONV2D is 115 M multiply-adds through
 * emulated tensor loads; measured 14 s for the whole test at 56x56 on the
 * shared 2-core lavapipe VM (far more under ASan), 2.5 s at 16x16. The
 * descriptor counts do not depend on H and W.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"
#include "tosa_ref.h"

TEST_MAIN_STATE;

#define C 64


static uint32_t rng = 20261201u;

static uint32_t
rnd(uint32_t n)
{
   rng = rng * 1103515245u + 12345u;
   return (rng >> 16) % n;
}

/* Per-channel RESCALE parameters, as module constants %<name>_m / %<name>_s. */
struct rescale_params {
   struct ref_tensor *mult, *shift;
};

static struct rescale_params
channel_params(struct dgu_text *t, const char *name)
{
   struct rescale_params p = {ref_tensor_create_v(REF_DTYPE_I32, 1, (int64_t)C),
                              ref_tensor_create_v(REF_DTYPE_I8, 1, (int64_t)C)};
   int32_t *m = p.mult->data;
   int8_t *s = p.shift->data;
   for (int c = 0; c < C; c++) {
      m[c] = (1 << 29) + (int32_t)rnd(1u << 29);
      s[c] = (int8_t)(37 + rnd(3));
      dgu_put(t, "%%%s_m%d = OpConstant %%uint %u\n%%%s_s%d = OpConstant %%uchar %u\n", name, c,
          (uint32_t)m[c], name, c, (uint32_t)(uint8_t)s[c]);
   }
   dgu_put(t, "%%%s_m = OpConstantComposite %%t_i32_c", name);
   for (int c = 0; c < C; c++)
      dgu_put(t, " %%%s_m%d", name, c);
   dgu_put(t, "\n%%%s_s = OpConstantComposite %%t_i8_c", name);
   for (int c = 0; c < C; c++)
      dgu_put(t, " %%%s_s%d", name, c);
   dgu_put(t, "\n");
   return p;
}

static void
fill_i8(struct ref_tensor *t, int lo, int hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ((int8_t *)t->data)[i] = (int8_t)(lo + (int)rnd((uint32_t)(hi - lo + 1)));
}

static void
fill_i32(struct ref_tensor *t, int lo, int hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ((int32_t *)t->data)[i] = lo + (int)rnd((uint32_t)(hi - lo + 1));
}

struct net {
   int64_t h, w;
   struct dgu_text text;
   struct ref_tensor *weights[4], *biases[4]; /* the graph constants 0..7 */
   struct rescale_params rescales[4];
   struct ref_tensor *input, *want;
   bool ref_ok;
};

static struct ref_tensor *
x_tensor(const struct net *n, enum ref_dtype type)
{
   return ref_tensor_create_v(type, 4, INT64_C(1), n->h, n->w, (int64_t)C);
}

/* The module text, and the reference output op by op. */
static void
net_build(struct net *n)
{
   struct dgu_text *t = &n->text;
   dgu_put(t, "%s",
       DGU_PRELUDE
       "OpDecorate %in_var DescriptorSet 0\n"
       "OpDecorate %in_var Binding 0\n"
       "OpDecorate %out_var DescriptorSet 0\n"
       "OpDecorate %out_var Binding 1\n"
       DGU_TYPES);
   dgu_put(t, "%%uint_h = OpConstant %%uint %u\n%%uint_w = OpConstant %%uint %u\n"
       "%%uint_h2 = OpConstant %%uint %u\n%%uint_w2 = OpConstant %%uint %u\n"
       "%%uint_c = OpConstant %%uint %u\n",
       (unsigned)n->h, (unsigned)n->w, (unsigned)n->h / 2, (unsigned)n->w / 2, C);
   dgu_put(t, "%s",
       "%s_x = OpConstantComposite %arr_4 %uint_1 %uint_h %uint_w %uint_c\n"
       "%s_y = OpConstantComposite %arr_4 %uint_1 %uint_h2 %uint_w2 %uint_c\n"
       "%s_w = OpConstantComposite %arr_4 %uint_c %uint_3 %uint_3 %uint_c\n"
       "%s_1 = OpConstantComposite %arr_1 %uint_1\n"
       "%s_2 = OpConstantComposite %arr_1 %uint_2\n"
       "%s_4 = OpConstantComposite %arr_1 %uint_4\n"
       "%s_c = OpConstantComposite %arr_1 %uint_c\n"
       "%t_x8 = OpTypeTensorARM %uchar %uint_4 %s_x\n"
       "%t_x32 = OpTypeTensorARM %uint %uint_4 %s_x\n"
       "%t_y8 = OpTypeTensorARM %uchar %uint_4 %s_y\n"
       "%t_w = OpTypeTensorARM %uchar %uint_4 %s_w\n"
       "%t_i32_c = OpTypeTensorARM %uint %uint_1 %s_c\n"
       "%t_i8_c = OpTypeTensorARM %uchar %uint_1 %s_c\n"
       "%t_i8_1 = OpTypeTensorARM %uchar %uint_1 %s_1\n"
       "%t_i32_1 = OpTypeTensorARM %uint %uint_1 %s_1\n"
       "%t_i32_2 = OpTypeTensorARM %uint %uint_1 %s_2\n"
       "%t_i32_4 = OpTypeTensorARM %uint %uint_1 %s_4\n"
       "%p_in = OpTypePointer UniformConstant %t_x8\n"
       "%p_out = OpTypePointer UniformConstant %t_y8\n"
       "%in_var = OpVariable %p_in UniformConstant\n"
       "%out_var = OpVariable %p_out UniformConstant\n"
       "%zp8 = OpConstantNull %t_i8_1\n"
       "%zp32 = OpConstantNull %t_i32_1\n"
       "%pad0 = OpConstantNull %t_i32_4\n"
       "%pad1 = OpConstantCompositeReplicateEXT %t_i32_4 %uint_1\n"
       "%ones = OpConstantCompositeReplicateEXT %t_i32_2 %uint_1\n"
       "%twos = OpConstantCompositeReplicateEXT %t_i32_2 %uint_2\n"
       "%acc_int32 = OpConstant %uint 1\n"
       "%single_round = OpConstant %uint 1\n"
       "%lo = OpConstant %uchar 0\n"
       "%hi = OpConstant %uchar 127\n"
       "%m30 = OpConstant %uint 1073741824\n"
       "%k30 = OpConstant %uchar 30\n"
       "%k31 = OpConstant %uchar 31\n"
       "%mul_one = OpConstantComposite %t_i32_1 %m30\n"
       "%sh_one = OpConstantComposite %t_i8_1 %k30\n"
       "%sh_half = OpConstantComposite %t_i8_1 %k31\n");
   static const char *const rescale_names[4] = {"r0", "r1", "r2", "r3"};
   for (int i = 0; i < 4; i++) {
      n->weights[i] = ref_tensor_create_v(REF_DTYPE_I8, 4, (int64_t)C, INT64_C(3), INT64_C(3),
                                          (int64_t)C);
      n->biases[i] = ref_tensor_create_v(REF_DTYPE_I32, 1, (int64_t)C);
      fill_i8(n->weights[i], -4, 4);
      fill_i32(n->biases[i], -2000, 2000);
      n->rescales[i] = channel_params(t, rescale_names[i]);
      dgu_put(t, "%%w%d = OpGraphConstantARM %%t_w %d\n%%b%d = OpGraphConstantARM %%t_i32_c %d\n", i,
          2 * i, i, 2 * i + 1);
   }
   dgu_put(t, "%s",
       "%gt = OpTypeGraphARM 1 %t_x8 %t_y8\n"
       "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
       "%g = OpGraphARM %gt\n"
       "%x0 = OpGraphInputARM %t_x8 %uint_0\n");

   struct ref_tensor *zp8 = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(1));
   struct ref_tensor *zp32 = ref_tensor_create_v(REF_DTYPE_I32, 1, INT64_C(1));
   struct ref_tensor *mul_one = ref_tensor_create_v(REF_DTYPE_I32, 1, INT64_C(1));
   struct ref_tensor *sh_one = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(1));
   struct ref_tensor *sh_half = ref_tensor_create_v(REF_DTYPE_I8, 1, INT64_C(1));
   *(int32_t *)mul_one->data = 1 << 30;
   *(int8_t *)sh_one->data = 30;
   *(int8_t *)sh_half->data = 31;
   const struct tosa_ref_conv2d_args ca = {.pad = {1, 1, 1, 1}, .stride = {1, 1},
                                           .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_INT32};
   const struct tosa_ref_rescale_args per_channel = {
      .scale32 = true, .rounding_mode = TOSA_REF_ROUND_SINGLE, .per_channel = true};
   const struct tosa_ref_rescale_args per_tensor = {.scale32 = true,
                                                    .rounding_mode = TOSA_REF_ROUND_SINGLE};
   const struct tosa_ref_clamp_args relu = {.min_int = 0, .max_int = 127,
                                            .nan_mode = TOSA_REF_NAN_PROPAGATE};
   int s = TOSA_REF_OK;
   struct ref_tensor *x = x_tensor(n, REF_DTYPE_I8);
   memcpy(x->data, n->input->data, (size_t)x->count);
   for (int blk = 0; blk < 2; blk++) {
      int c0 = 2 * blk, c1 = 2 * blk + 1;
      dgu_put(t, "%%c%da = OpExtInst %%t_x32 %%tosa CONV2D %%pad1 %%ones %%ones %%acc_int32 %%false "
          "%%x%d %%w%d %%b%d %%zp8 %%zp8\n", blk, blk, c0, c0);
      dgu_put(t, "%%q%da = OpExtInst %%t_x8 %%tosa RESCALE %%true %%single_round %%true %%false "
          "%%false %%c%da %%r%d_m %%r%d_s %%zp32 %%zp8\n", blk, blk, c0, c0);
      dgu_put(t, "%%a%d = OpExtInst %%t_x8 %%tosa CLAMP %%lo %%hi %%propagate %%q%da\n", blk, blk);
      dgu_put(t, "%%c%db = OpExtInst %%t_x32 %%tosa CONV2D %%pad1 %%ones %%ones %%acc_int32 %%false "
          "%%a%d %%w%d %%b%d %%zp8 %%zp8\n", blk, blk, c1, c1);
      dgu_put(t, "%%q%db = OpExtInst %%t_x8 %%tosa RESCALE %%true %%single_round %%true %%false "
          "%%false %%c%db %%r%d_m %%r%d_s %%zp32 %%zp8\n", blk, blk, c1, c1);
      dgu_put(t, "%%u%d = OpExtInst %%t_x32 %%tosa RESCALE %%true %%single_round %%false %%false "
          "%%false %%q%db %%mul_one %%sh_one %%zp8 %%zp32\n", blk, blk);
      dgu_put(t, "%%v%d = OpExtInst %%t_x32 %%tosa RESCALE %%true %%single_round %%false %%false "
          "%%false %%x%d %%mul_one %%sh_one %%zp8 %%zp32\n", blk, blk);
      dgu_put(t, "%%s%d = OpExtInst %%t_x32 %%tosa ADD %%u%d %%v%d\n", blk, blk, blk);
      dgu_put(t, "%%o%d = OpExtInst %%t_x8 %%tosa RESCALE %%true %%single_round %%false %%false "
          "%%false %%s%d %%mul_one %%sh_half %%zp32 %%zp8\n", blk, blk);
      dgu_put(t, "%%x%d = OpExtInst %%t_x8 %%tosa CLAMP %%lo %%hi %%propagate %%o%d\n", blk + 1, blk);

      struct ref_tensor *conv_a = x_tensor(n, REF_DTYPE_I32), *qa = x_tensor(n, REF_DTYPE_I8);
      struct ref_tensor *a = x_tensor(n, REF_DTYPE_I8), *conv_b = x_tensor(n, REF_DTYPE_I32);
      struct ref_tensor *qb = x_tensor(n, REF_DTYPE_I8), *u = x_tensor(n, REF_DTYPE_I32);
      struct ref_tensor *v = x_tensor(n, REF_DTYPE_I32), *sum = x_tensor(n, REF_DTYPE_I32);
      struct ref_tensor *o = x_tensor(n, REF_DTYPE_I8), *next = x_tensor(n, REF_DTYPE_I8);
      s |= tosa_ref_conv2d(&ca, x, n->weights[c0], n->biases[c0], zp8, zp8, conv_a);
      s |= tosa_ref_rescale(&per_channel, conv_a, n->rescales[c0].mult, n->rescales[c0].shift,
                            zp32, zp8, qa);
      s |= tosa_ref_clamp(&relu, qa, a);
      s |= tosa_ref_conv2d(&ca, a, n->weights[c1], n->biases[c1], zp8, zp8, conv_b);
      s |= tosa_ref_rescale(&per_channel, conv_b, n->rescales[c1].mult, n->rescales[c1].shift,
                            zp32, zp8, qb);
      s |= tosa_ref_rescale(&per_tensor, qb, mul_one, sh_one, zp8, zp32, u);
      s |= tosa_ref_rescale(&per_tensor, x, mul_one, sh_one, zp8, zp32, v);
      s |= tosa_ref_add(u, v, sum);
      s |= tosa_ref_rescale(&per_tensor, sum, mul_one, sh_half, zp32, zp8, o);
      s |= tosa_ref_clamp(&relu, o, next);
      struct ref_tensor *done[] = {x, conv_a, qa, a, conv_b, qb, u, v, sum, o};
      for (size_t i = 0; i < sizeof(done) / sizeof(done[0]); i++)
         ref_tensor_destroy(done[i]);
      x = next;
   }
   dgu_put(t, "%s",
       "%out = OpExtInst %t_y8 %tosa MAX_POOL2D %twos %twos %pad0 %propagate %x2\n"
       "OpGraphSetOutputARM %out %uint_0\n"
       "OpGraphEndARM\n");
   n->want = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), n->h / 2, n->w / 2, (int64_t)C);
   const struct tosa_ref_max_pool2d_args pa = {.kernel = {2, 2}, .stride = {2, 2},
                                               .nan_mode = TOSA_REF_NAN_PROPAGATE};
   s |= tosa_ref_max_pool2d(&pa, x, n->want);
   n->ref_ok = ok(s == TOSA_REF_OK, "reference: %s", tosa_ref_last_message());
   struct ref_tensor *done[] = {x, zp8, zp32, mul_one, sh_one, sh_half};
   for (size_t i = 0; i < sizeof(done) / sizeof(done[0]); i++)
      ref_tensor_destroy(done[i]);
}

static void
net_finish(struct net *n)
{
   for (int i = 0; i < 4; i++) {
      ref_tensor_destroy(n->weights[i]);
      ref_tensor_destroy(n->biases[i]);
      ref_tensor_destroy(n->rescales[i].mult);
      ref_tensor_destroy(n->rescales[i].shift);
   }
   ref_tensor_destroy(n->input);
   ref_tensor_destroy(n->want);
   free(n->text.s);
}

static void
test_resnet(struct dgu *u, int64_t size)
{
   char ctx[64];
   snprintf(ctx, sizeof(ctx), "resnet %lldx%lld", (long long)size, (long long)size);
   test_set_context(ctx);
   struct net n = {.h = size, .w = size};
   n.input = ref_tensor_create_v(REF_DTYPE_I8, 4, INT64_C(1), n.h, n.w, (int64_t)C);
   fill_i8(n.input, -128, 127);
   net_build(&n);
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, n.h, n.w, C}},
      {0, 1, 1, VK_FORMAT_R8_SINT, 4, {1, n.h / 2, n.w / 2, C}},
   };
   struct dgu_constant constants[8];
   for (int i = 0; i < 4; i++) {
      constants[2 * i] = (struct dgu_constant){(uint32_t)(2 * i), VK_FORMAT_R8_SINT, 4,
                                               {C, 3, 3, C}, n.weights[i]->data};
      constants[2 * i + 1] = (struct dgu_constant){(uint32_t)(2 * i + 1), VK_FORMAT_R32_SINT,
                                                   1, {C}, n.biases[i]->data};
   }
   struct dgu_pipeline_desc desc = {
      .text = n.text.s,
      .bindings = bindings,
      .binding_count = 2,
      .constants = constants,
      .constant_count = 8,
   };
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (!ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r) || !n.ref_ok) {
      dgu_graph_destroy(u, &g);
      net_finish(&n);
      return;
   }
   /* The tensors the old single internal set bound all at once. */
   char *log = dgu_text_property(u, g.pipeline, VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM);
   unsigned nodes = 0, stages = 0, intermediates = 0, consts = 0;
   ok(log && sscanf(strchr(log, ':') ? strchr(log, ':') + 1 : log,
                    " %u nodes, %u stages, %u intermediates, %u constants", &nodes, &stages,
                    &intermediates, &consts) == 4,
      "creation log: %.80s", log ? log : "(none)");
   /* More than lavapipe's 32 storage buffers per stage, the limit the old layout broke. */
   ok(nodes == 21 && intermediates + consts + 2 > 32,
      "%u nodes; %u intermediates + %u constants + 2 graph interface tensors > 32 (this "
      "device's maxPerStageDescriptorStorageBuffers: %u)",
      nodes, intermediates, consts, u->limits.maxPerStageDescriptorStorageBuffers);
   free(log);

   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in = {0}, out = {0};
   int64_t di[4] = {1, n.h, n.w, C}, dout[4] = {1, n.h / 2, n.w / 2, C};
   if (dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, di, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, dout, &out)) {
      memcpy(in.data, n.input->data, in.size);
      memset(out.data, 0x5a, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_bytes("output", out.data, n.want->data, (size_t)n.want->count);
      /* The outputs are not all saturated or all zero: the check means something. */
      const int8_t *w = n.want->data;
      int64_t mid = 0;
      for (int64_t i = 0; i < n.want->count; i++)
         mid += w[i] > 0 && w[i] < 127;
      ok(mid > n.want->count / 4, "%lld of %lld reference outputs strictly inside (0, 127)",
         (long long)mid, (long long)n.want->count);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
   net_finish(&n);
}

int
main(int argc, char **argv)
{
   int64_t size = argc > 1 ? strtoll(argv[1], NULL, 0) : 16;
   if (size < 2 || size % 2) {
      fprintf(stderr, "usage: %s [even spatial size, default 16; the issue's is 56]\n", argv[0]);
      return 2;
   }
   struct dgu u;
   struct dgu_options options = {0};
   if (dgu_init(&u, &options))
      test_resnet(&u, size);
   dgu_finish(&u);
   return test_done();
}
