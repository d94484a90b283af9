/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of split-K on stage plans (graph/build/gemm_split.c, D56), without a device:
 * graphs written as SPIR-V text (decode/harness.h) are planned with the caps of a GPU, of a
 * CPU device and with VMEL_GRAPH_SPLIT_K's settings. A split GEMM is two stages: the SPLITK
 * variant over S x tiles workgroups writing a scratch [S, <output dims>] of partial sums
 * (fp32 or i32), then the reduce kernel reading it and writing the output, with the chain after
 * the node fused into its _EPI variant. The build's choice: the ResNet layer (49 tiles, K = 576)
 * and a MATMUL [1,64,4096] x [1,4096,64] split on a GPU, on a CPU device only below its thread
 * count (D61), not with enough tiles, not when K is short, never with VMEL_GRAPH_SPLIT_K=1 or
 * in the reference mode.
 */
#include "decode/harness.h"
#include "dg_build.h"
#include "dg_stage_plan.h"
#include "kernel_abi/gemm_args.h"
#include "ops/dg_op.h"
#include "vmel_kernels_graph.h"

/* A decoded graph and its plan. */
struct splan {
   struct built b;
   struct dg_graph *g;
   struct dg_plan_app_binding bindings[2 * H_MAX_RES];
   struct dg_plan_layout layout;
   struct dg_stage_plan *p;
   struct h_counter counter;
   VkAllocationCallbacks alloc;
};

/* What a plan is made for. */
struct scaps {
   bool cpu;
   uint32_t split_k; /* dg_plan_caps::split_k */
   uint32_t threads; /* dg_plan_caps::cpu_threads */
   bool fusion;
   bool int_dot; /* dg_plan_caps::int_dot */
   enum dg_kernel_mode mode;
};

static bool
splan_make(const struct dcase *c, const struct scaps *sc, struct splan *t)
{
   memset(t, 0, sizeof(*t));
   test_set_context(c->name);
   t->g = h_decode(c, &t->b);
   if (!t->g)
      return false;
   uint32_t n = 0;
   for (uint32_t i = 0; i < t->g->input_count; i++)
      t->bindings[n++] = (struct dg_plan_app_binding){
         t->g->inputs[i].set, t->g->inputs[i].binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   for (uint32_t i = 0; i < t->g->output_count; i++)
      t->bindings[n++] = (struct dg_plan_app_binding){t->g->outputs[i].set,
                                                      t->g->outputs[i].binding,
                                                      VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   t->layout = (struct dg_plan_layout){2, t->bindings, n};
   struct dg_plan_caps caps = {.max_groups = {65535, 65535}, .kernels = sc->mode,
                               .fusion = sc->fusion ? DG_FUSION_ON : DG_FUSION_OFF,
                               .cpu_device = sc->cpu, .split_k = sc->split_k,
                               .cpu_threads = sc->threads, .int_dot = sc->int_dot,
                               .max_workgroup_invocations = 1024, .max_shared_memory = 49152};
   h_counting_alloc(&t->counter, &t->alloc);
   struct dg_plan_input in = {t->g, &t->layout, &caps, NULL};
   VkResult result = dg_stage_plan_build(&in, &t->alloc, &t->p);
   ok(result == VK_SUCCESS && t->p, "plan fails: %d", result);
   return result == VK_SUCCESS;
}

static void
splan_free(struct splan *t)
{
   dg_stage_plan_destroy(t->p);
   ok(t->counter.live == 0, "%ld plan allocations leaked", t->counter.live);
   dg_graph_destroy(t->g);
   h_free(&t->b);
   test_set_context(NULL);
}

/* Checks a split: stage 0 runs `split` over `parts` x `tiles` tiles into a scratch tensor of
 * `part_type` shaped [parts, <output dims>] that stage 1 (`reduce`, output at binding 2) reads. */
static void
check_split(const struct dg_stage_plan *p, uint32_t split, uint32_t reduce, uint32_t parts,
            uint64_t tiles, enum dg_type part_type)
{
   if (!ok(p->stage_count == 2, "%u stages, not a split's 2", p->stage_count))
      return;
   const struct dg_plan_stage *s = &p->stages[0], *r = &p->stages[1];
   check_eq_u64(s->kernel, split);
   check_eq_u64(r->kernel, reduce);
   check_eq_u64(s->work, tiles * parts * DG_GEMM_LOCAL);
   const struct dg_plan_tensor *scratch = &p->tensors[s->tensors[s->tensor_count - 1]];
   check_eq_u64(s->write_mask, 1u << (s->tensor_count - 1));
   check_eq_u64(scratch->kind, DG_PLAN_TENSOR_SCRATCH);
   check_eq_u64(scratch->ty.type, part_type);
   check_eq_u64(scratch->ty.shape.dim[0], parts);
   const struct dg_plan_tensor *out = &p->tensors[r->tensors[DG_GEMM_REDUCE_OUTPUT]];
   check_eq_u64(scratch->ty.shape.rank, out->ty.shape.rank + 1);
   for (uint32_t d = 0; d < out->ty.shape.rank; d++)
      check_eq_i64(scratch->ty.shape.dim[d + 1], out->ty.shape.dim[d]);
   check_eq_u64(r->tensors[DG_GEMM_REDUCE_PARTS], s->tensors[s->tensor_count - 1]);
   check_eq_u64(r->write_mask, 1u << DG_GEMM_REDUCE_OUTPUT);
   check_eq_u64(r->work, dg_shape_elements(&out->ty.shape));
   ok(dg_plan_stage_depends(p, 1, 0), "the reduce stage does not follow the split one");
}

#define CONV_DECLS                                                                                 \
   "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"                                      \
   "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"

/* The ResNet layer: CONV2D 3x3 64 -> 64 on 56x56, fp32 (M = 3136, N = 64, K = 576). */
static const struct dcase resnet = {
   "resnet conv fp32", "t_f32_1x56x56x64", "t_f32_1x56x56x64",
   CONV_DECLS "%w = OpGraphConstantARM %t_f32_64x3x3x64 0\n%bias = OpGraphConstantARM %t_f32_64 1\n"
   "%zp = OpConstantComposite %t_f32_1 %f32_0\n",
   "%r = OpExtInst %t_f32_1x56x56x64 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "
   "%zp\n"};

/* The same with a batch of 8: 392 tiles fill the GPU. */
static const struct dcase resnet_b8 = {
   "resnet conv fp32 batch 8", "t_f32_8x56x56x64", "t_f32_8x56x56x64",
   CONV_DECLS "%w = OpGraphConstantARM %t_f32_64x3x3x64 0\n%bias = OpGraphConstantARM %t_f32_64 1\n"
   "%zp = OpConstantComposite %t_f32_1 %f32_0\n",
   "%r = OpExtInst %t_f32_8x56x56x64 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "
   "%zp\n"};

/* Small M and N, long K: one tile. */
static const struct dcase matmul_long = {
   "matmul fp32 long K", "t_f32_1x64x4096 t_f32_1x4096x64", "t_f32_1x64x64",
   "%zp = OpConstantComposite %t_f32_1 %f32_0\n",
   "%r = OpExtInst %t_f32_1x64x64 %tosa MATMUL %in0 %in1 %zp %zp\n"};

/* One tile, K = 48: three K steps, too few to split unless forced. */
static const struct dcase matmul_short = {
   "matmul fp16 short K", "t_f16_2x64x48 t_f16_2x48x64", "t_f16_2x64x64",
   "%zp = OpConstantComposite %t_f16_1 %f16_0\n",
   "%r = OpExtInst %t_f16_2x64x64 %tosa MATMUL %in0 %in1 %zp %zp\n"};

/* int8: CONV2D (K = 144) -> RESCALE (per channel) -> CLAMP. */
static const struct dcase conv_i8 = {
   "conv i8 rescale clamp", "t_i8_1x8x8x16", "t_i8_1x8x8x32",
   CONV_DECLS "%w = OpGraphConstantARM %t_i8_32x3x3x16 0\n%bias = OpGraphConstantARM %t_i32_32 1\n"
   "%mul = OpGraphConstantARM %t_i32_32 2\n%shift = OpGraphConstantARM %t_i8_32 3\n"
   "%zp8 = OpConstantComposite %t_i8_1 %i8_0\n%zp32 = OpConstantComposite %t_i32_1 %i32_0\n",
   "%c = OpExtInst %t_i32_1x8x8x32 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias %zp8 "
   "%zp8\n"
   "%q = OpExtInst %t_i8_1x8x8x32 %tosa RESCALE %true %i32_1 %true %false %false %c %mul %shift "
   "%zp32 %zp8\n"
   "%r = OpExtInst %t_i8_1x8x8x32 %tosa CLAMP %i8_m100 %i8_100 %i32_1 %q\n",
   .fill = "2=1073741824 3=40"};

static const struct scaps gpu = {.mode = DG_KERNELS_FAST};
static const struct scaps cpu = {.cpu = true, .mode = DG_KERNELS_FAST};

/* The build's choice on a GPU, and where it keeps one stage. */
static void
test_auto(void)
{
   struct splan t;
   /* 49 tiles of 64 x 64, 36 K steps: ceil(256 / 49) = 6 parts of 6 steps. */
   if (splan_make(&resnet, &gpu, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_SPLITK_FP32_ACC_FP32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_FP32, 6, 49, DG_TYPE_FP32);
      /* The reduce stage binds the bias (node input 2) and CONV2D's attributes. */
      if (t.p->stage_count == 2) {
         const struct dg_plan_stage *r = &t.p->stages[1];
         check_eq_u64(t.p->tensors[r->tensors[DG_GEMM_REDUCE_BIAS]].ty.shape.dim[0], 64);
         check_eq_u64(r->attr_words, dg_op_get(DG_OP_CONV2D)->attr_count);
      }
      splan_free(&t);
   }
   /* 1 tile, 256 K steps: 64 parts (DG_SPLIT_K_MAX) of 4 steps. */
   if (splan_make(&matmul_long, &gpu, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_MATMUL_SPLITK_FP32, DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_FP32,
                  64, 1, DG_TYPE_FP32);
      splan_free(&t);
   }
   /* A CPU device of 2 threads (D61): 1 tile, 2 parts of 128 steps; of 200: 64 parts. */
   if (splan_make(&matmul_long, &(struct scaps){.cpu = true, .threads = 2}, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_MATMUL_SPLITK_FP32, DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_FP32,
                  2, 1, DG_TYPE_FP32);
      splan_free(&t);
   }
   if (splan_make(&matmul_long, &(struct scaps){.cpu = true, .threads = 200}, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_MATMUL_SPLITK_FP32, DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_FP32,
                  64, 1, DG_TYPE_FP32);
      splan_free(&t);
   }
   /* A CPU device of unknown, 1 or fewer threads than tiles (the ResNet layer's 49 on 16), a
    * GPU's fast-cpu mode (no thread count), 392 tiles, 3 K steps, VMEL_GRAPH_SPLIT_K=1, the
    * reference mode: one stage. */
   const struct {
      const struct dcase *c;
      struct scaps caps;
   } whole[] = {
      {&resnet, cpu},
      {&matmul_long, cpu},
      {&matmul_long, {.cpu = true, .threads = 1}},
      {&resnet, {.cpu = true, .threads = 16}},
      {&matmul_long, {.threads = 8, .mode = DG_KERNELS_FAST_CPU}},
      {&matmul_short, {.cpu = true, .threads = 8}},
      {&resnet_b8, gpu},
      {&matmul_short, gpu},
      {&resnet, {.split_k = 1, .mode = DG_KERNELS_FAST}},
      {&matmul_long, {.split_k = 1, .mode = DG_KERNELS_FAST}},
      {&matmul_long, {.split_k = 8, .mode = DG_KERNELS_REFERENCE}},
   };
   for (uint32_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
      if (splan_make(whole[i].c, &whole[i].caps, &t)) {
         check_eq_u64(t.p->stage_count, 1);
         for (uint32_t j = 0; j < t.p->tensor_count; j++)
            ok(t.p->tensors[j].kind != DG_PLAN_TENSOR_SCRATCH, "case %u has a scratch tensor", i);
         splan_free(&t);
      }
   }
}

/* VMEL_GRAPH_SPLIT_K=S on any device: S parts where K has S steps, fewer where not. */
static void
test_forced(void)
{
   struct splan t;
   /* 3 K steps: 5 asked, 3 parts of one step. */
   if (splan_make(&matmul_short, &(struct scaps){.cpu = true, .split_k = 5}, &t)) {
      check_split(t.p, dg_kernel_for_features(DG_KERNEL_TOSA_MATMUL_SPLITK_FP16, 0),
                  DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_FP16, 3, 2, DG_TYPE_FP32);
      splan_free(&t);
   }
   /* 36 K steps in 5 parts of 8 steps (the last 4): 5. */
   if (splan_make(&resnet, &(struct scaps){.cpu = true, .split_k = 5}, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_SPLITK_FP32_ACC_FP32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_FP32, 5, 49, DG_TYPE_FP32);
      splan_free(&t);
   }
   /* 256 K steps, 7 parts asked: 37 steps each (the last 34). */
   if (splan_make(&matmul_long, &(struct scaps){.split_k = 7}, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_MATMUL_SPLITK_FP32, DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_FP32,
                  7, 1, DG_TYPE_FP32);
      splan_free(&t);
   }
}

/* The chain after a split GEMM fuses into the reduce kernel's _EPI variant (D52). */
static void
test_fused(void)
{
   struct splan t;
   /* 9 K steps in 3 parts; i32 partial sums. */
   if (splan_make(&conv_i8, &(struct scaps){.split_k = 3, .fusion = true}, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_SPLITK_I8_I32_ACC_I32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_EPI_I32, 3, 1, DG_TYPE_I32);
      if (t.p->stage_count == 2) {
         const struct dg_plan_stage *r = &t.p->stages[1];
         check_eq_u64(t.p->stages[0].node_count, 1);
         check_eq_u64(r->node_count, 3);
         check_eq_u64(r->epi[0], 2);
         check_eq_u64(t.p->tensors[r->tensors[DG_GEMM_REDUCE_OUTPUT]].kind,
                      DG_PLAN_TENSOR_OUTPUT);
         check_eq_u64(t.p->tensors[r->tensors[DG_GEMM_REDUCE_OUTPUT]].ty.type, DG_TYPE_I8);
         char buf[64];
         const char *name = dg_plan_stage_name(r, "CONV2D", buf, sizeof(buf));
         ok(strcmp(name, "CONV2D+RESCALE+CLAMP") == 0, "the reduce stage is named %s", name);
      }
      splan_free(&t);
   }
   /* Without fusion: the split's two stages, then RESCALE and CLAMP. */
   if (splan_make(&conv_i8, &(struct scaps){.split_k = 3}, &t)) {
      check_eq_u64(t.p->stage_count, 4);
      check_eq_u64(t.p->stages[1].kernel, DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_I32);
      splan_free(&t);
   }
}

/* The ResNet layer in int8 (M = 3136, N = 64, K = 576). */
static const struct dcase resnet_i8 = {
   "resnet conv i8", "t_i8_1x56x56x64", "t_i32_1x56x56x64",
   CONV_DECLS "%w = OpGraphConstantARM %t_i8_64x3x3x64 0\n%bias = OpGraphConstantARM %t_i32_64 1\n"
   "%izp = OpConstantComposite %t_i8_1 %i8_m5\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
   "%r = OpExtInst %t_i32_1x56x56x64 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias "
   "%izp %wzp\n"};

/* A MATMUL i8 of one integer-dot tile and K = 4096: 128 K steps of 32. */
static const struct dcase matmul_i8_long = {
   "matmul i8 long K", "t_i8_1x64x4096 t_i8_1x4096x64", "t_i32_1x64x64",
   "%azp = OpConstantComposite %t_i8_1 %i8_7\n%bzp = OpConstantComposite %t_i8_1 %i8_m2\n",
   "%r = OpExtInst %t_i32_1x64x64 %tosa MATMUL %in0 %in1 %azp %bzp\n"};

/* The INT_DOT kind splits K too (D65): its 64 x 64 tile and K steps of 32, the same reduce. */
static void
test_int_dot(void)
{
   struct splan t;
   const struct scaps gpu_dot = {.int_dot = true, .mode = DG_KERNELS_FAST};
   /* 49 tiles, 18 K steps of 32: ceil(256 / 49) = 6 parts of 3 steps (a part sums at least 64
    * k, 2 steps of this kind), the fp32 tiled split's count. */
   if (splan_make(&resnet_i8, &gpu_dot, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_INT_DOT_SPLITK_I8_I32_ACC_I32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_I32, 6, 49, DG_TYPE_I32);
      splan_free(&t);
   }
   /* 1 tile, 128 K steps: 64 parts (DG_SPLIT_K_MAX) of 2 steps. */
   if (splan_make(&matmul_i8_long, &gpu_dot, &t)) {
      check_split(t.p, DG_KERNEL_TOSA_MATMUL_INT_DOT_SPLITK_I8_I32,
                  DG_KERNEL_TOSA_MATMUL_SPLITK_REDUCE_I32, 64, 1, DG_TYPE_I32);
      splan_free(&t);
   }
   /* Forced, on a CPU device under int-dot: 3 parts. */
   if (splan_make(&resnet_i8,
                  &(struct scaps){.cpu = true, .int_dot = true, .split_k = 3,
                                  .mode = DG_KERNELS_INT_DOT},
                  &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_INT_DOT_SPLITK_I8_I32_ACC_I32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_I32, 3, 49, DG_TYPE_I32);
      splan_free(&t);
   }
   /* Fused: the chain after the split integer-dot CONV2D in the reduce kernel (K = 144: 5 steps
    * of 32 in 3 parts of 2). */
   if (splan_make(&conv_i8, &(struct scaps){.int_dot = true, .split_k = 3, .fusion = true,
                                           .mode = DG_KERNELS_INT_DOT},
                  &t)) {
      check_split(t.p, DG_KERNEL_TOSA_CONV2D_INT_DOT_SPLITK_I8_I32_ACC_I32,
                  DG_KERNEL_TOSA_CONV2D_SPLITK_REDUCE_EPI_I32, 3, 1, DG_TYPE_I32);
      splan_free(&t);
   }
   /* VMEL_GRAPH_SPLIT_K=1: the unsplit kernel. */
   if (splan_make(&resnet_i8, &(struct scaps){.int_dot = true, .split_k = 1}, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_INT_DOT_I8_I32_ACC_I32);
      splan_free(&t);
   }
}

TEST_MAIN_STATE;

int
main(void)
{
   test_auto();
   test_forced();
   test_fused();
   test_int_dot();
   return test_done();
}
