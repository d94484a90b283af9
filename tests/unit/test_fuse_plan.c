/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of epilogue fusion on stage plans (graph/build/dg_fuse.c, D52), without a device:
 * graphs written as SPIR-V text (decode/harness.h) are planned with fusion on and off. A
 * fused chain is one stage (the producer's _EPI variant) computing all its nodes, with the
 * epilogue's words and extra tensors, no session memory for the intermediates it replaces and
 * the name "CONV2D+RESCALE+CLAMP"; a chain stops at an intermediate that is a graph output or
 * has two uses, and nothing fuses without the caps' flag or in the reference kernel mode. A
 * chain of elementwise nodes alone is one dispatch of the chain kernel (ew_chain.comp). The
 * integer-dot kernels fuse the same chains through their INT_DOT_EPI variants (D57).
 */
#include "decode/harness.h"
#include "dg_build.h"
#include "dg_stage_plan.h"
#include "ops/dg_op.h"
#include "vmel_kernels_graph.h"

/* A decoded graph and its plan. */
struct fplan {
   struct built b;
   struct dg_graph *g;
   struct dg_plan_app_binding bindings[2 * H_MAX_RES];
   struct dg_plan_layout layout;
   struct dg_stage_plan *p;
   struct h_counter counter;
   VkAllocationCallbacks alloc;
};

/* Device properties a plan may be made for besides the defaults (a GPU without integer dot
 * products). */
struct fdevice {
   bool int_dot, cpu_device;
   uint32_t coop; /* DG_COOP_* shapes */
};

/* Plans c with fusion on or off (kernel mode `mode`) for device dev (NULL: the defaults);
 * false after a failed check. */
static bool
fplan_make_on(const struct dcase *c, bool fusion, enum dg_kernel_mode mode,
              const struct fdevice *dev, struct fplan *t)
{
   memset(t, 0, sizeof(*t));
   test_set_context(c->name);
      t->g = h_decode(c, &t->b);
   if (!t->g)
      return false;
   /* One binding per graph input (set 0) and output (set 1), as the harness decorates them. */
   uint32_t n = 0;
   for (uint32_t i = 0; i < t->g->input_count; i++)
      t->bindings[n++] = (struct dg_plan_app_binding){
         t->g->inputs[i].set, t->g->inputs[i].binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   for (uint32_t i = 0; i < t->g->output_count; i++)
      t->bindings[n++] = (struct dg_plan_app_binding){t->g->outputs[i].set,
                                                      t->g->outputs[i].binding,
                                                      VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   t->layout = (struct dg_plan_layout){2, t->bindings, n};
   /* Split-K off (D56): these GPU plans would split the small GEMMs' K (test_split_plan.c
    * checks fusion into the split's reduce stage). */
   struct dg_plan_caps caps = {.max_groups = {65535, 65535}, .kernels = mode, .fusion = fusion,
                               .split_k = 1,
                               .max_workgroup_invocations = 1024, .max_shared_memory = 49152};
   if (dev) {
      caps.int_dot = dev->int_dot;
      caps.cpu_device = dev->cpu_device;
      caps.coop = dev->coop;
   }
   h_counting_alloc(&t->counter, &t->alloc);
   struct dg_plan_input in = {t->g, &t->layout, &caps, NULL};
   VkResult result = dg_stage_plan_build(&in, &t->alloc, &t->p);
   ok(result == VK_SUCCESS && t->p, "plan fails: %d", result);
   return result == VK_SUCCESS;
}

static bool
fplan_make(const struct dcase *c, bool fusion, enum dg_kernel_mode mode, struct fplan *t)
{
   return fplan_make_on(c, fusion, mode, NULL, t);
}

static void
fplan_free(struct fplan *t)
{
   dg_stage_plan_destroy(t->p);
   ok(t->counter.live == 0, "%ld plan allocations leaked", t->counter.live);
   dg_graph_destroy(t->g);
   h_free(&t->b);
   test_set_context(NULL);
}

/* Session-memory tensors that some stage uses (the intermediates a plan keeps). */
static uint32_t
used_memory(const struct dg_stage_plan *p)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < p->memory_count; i++)
      n += p->tensors[p->memory[i]].first_stage != DG_PLAN_NONE;
   return n;
}

/* Checks stage s's name as logs and profiles show it. */
static void
check_name(const struct dg_stage_plan *p, uint32_t s, const char *op, const char *want)
{
   char buf[64];
   const char *name = dg_plan_stage_name(&p->stages[s], op, buf, sizeof(buf));
   ok(strcmp(name, want) == 0, "stage %u is named %s, not %s", s, name, want);
}

/* Op j of stage s's epilogue. */
static uint32_t
epi_op(const struct dg_plan_stage *s, uint32_t j)
{
   return DG_EPI_OP_OF(s->epi[1 + DG_EPI_OP_WORDS * j]);
}

#define CONV_DECLS                                                                                 \
   "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"                                      \
   "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"

/* int8: CONV2D -> RESCALE (per channel) -> CLAMP. */
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

static void
test_conv_i8(void)
{
   struct fplan t;
   if (fplan_make(&conv_i8, true, DG_KERNELS_FAST, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      ok(s->kernel == DG_KERNEL_TOSA_CONV2D_TILED_EPI_I8_I32_ACC_I32 ||
            s->kernel == DG_KERNEL_TOSA_CONV2D_TILED_WIDE_EPI_I8_I32_ACC_I32 ||
            s->kernel == DG_KERNEL_TOSA_CONV2D_TILED_SMALL_EPI_I8_I32_ACC_I32,
         "kernel %u is no _EPI variant", s->kernel);
      check_eq_u64(s->node_count, 3);
      check_eq_u64(s->tensor_count, 8);
      check_eq_u64(s->write_mask, 1u << 3);
      check_eq_u64(p->tensors[s->tensors[3]].kind, DG_PLAN_TENSOR_OUTPUT);
      check_eq_u64(p->tensors[s->tensors[3]].ty.type, DG_TYPE_I8);
      /* The RESCALE's multiplier and shift: build constants at extra tensors 0 and 1. */
      check_eq_u64(p->tensors[s->tensors[4]].kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(p->tensors[s->tensors[4]].ty.type, DG_TYPE_I32);
      check_eq_u64(p->tensors[s->tensors[5]].ty.type, DG_TYPE_I8);
      check_eq_u64(s->epi[0], 2);
      check_eq_u64(epi_op(s, 0), DG_EPI_RESCALE);
      check_eq_u64(DG_EPI_DTYPE_OF(s->epi[1]), DG_TYPE_I8);
      check_eq_u64(s->epi[2], DG_EPI_RESCALE_SCALE32 | DG_EPI_RESCALE_PER_CHANNEL);
      check_eq_u64(epi_op(s, 1), DG_EPI_CLAMP);
      check_eq_i64((int32_t)s->epi[1 + DG_EPI_OP_WORDS + 1], -100);
      check_eq_u64(used_memory(p), 0);
      check_name(p, 0, "CONV2D", "CONV2D+RESCALE+CLAMP");
      uint32_t ids[DG_PLAN_SPEC_MAX], values[DG_PLAN_SPEC_MAX];
      uint32_t n = dg_plan_stage_spec(p, 0, ids, values);
      check_eq_u64(ids[n - DG_EPI_WORDS], VMEL_SC_EPI(0));
      check_eq_u64(values[n - DG_EPI_WORDS], 2);
   }
   fplan_free(&t);

   /* Off, and in the reference kernel mode: three stages, two intermediates. */
   if (fplan_make(&conv_i8, false, DG_KERNELS_FAST, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(used_memory(t.p), 2);
      check_eq_u64(t.p->stages[0].epi[0], 0);
      check_name(t.p, 0, "CONV2D", "CONV2D");
   }
   fplan_free(&t);
   if (fplan_make(&conv_i8, true, DG_KERNELS_REFERENCE, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_I8_I32_ACC_I32);
   }
   fplan_free(&t);
}

#define CONV_F32                                                                                   \
   CONV_DECLS "%w = OpGraphConstantARM %t_f32_32x3x3x2 0\n%bias = OpGraphConstantARM %t_f32_32 1\n" \
   "%zp = OpConstantComposite %t_f32_1 %f32_0\n"
#define CONV_F32_NODE                                                                              \
   "%c = OpExtInst %t_f32_1x8x8x32 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias %zp "  \
   "%zp\n"

/* fp32: CONV2D -> ADD (residual: graph input 1, as input1) -> CLAMP. */
static const struct dcase conv_add = {
   "conv fp32 add clamp", "t_f32_1x8x8x2 t_f32_1x8x8x32", "t_f32_1x8x8x32", CONV_F32,
   CONV_F32_NODE "%a = OpExtInst %t_f32_1x8x8x32 %tosa ADD %in1 %c\n"
                 "%r = OpExtInst %t_f32_1x8x8x32 %tosa CLAMP %f32_0 %f32_6 %i32_1 %a\n"};

/* The CONV2D's result is graph output 1 too: not fused. */
static const struct dcase conv_output = {
   "conv fp32 output and clamp", "t_f32_1x8x8x2", "t_f32_1x8x8x32 t_f32_1x8x8x32", CONV_F32,
   CONV_F32_NODE "%r = OpExtInst %t_f32_1x8x8x32 %tosa CLAMP %f32_0 %f32_6 %i32_1 %c\n",
   "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %c %i32_1\n"};

/* Two uses of the CONV2D's result: not fused into it; the CLAMP -> ADD after it is a chain of
 * its own. */
static const struct dcase conv_two_uses = {
   "conv fp32 two uses", "t_f32_1x8x8x2", "t_f32_1x8x8x32", CONV_F32,
   CONV_F32_NODE "%k = OpExtInst %t_f32_1x8x8x32 %tosa CLAMP %f32_0 %f32_6 %i32_1 %c\n"
                 "%r = OpExtInst %t_f32_1x8x8x32 %tosa ADD %k %c\n"};

/* MATMUL -> SIGMOID. */
static const struct dcase matmul_sigmoid = {
   "matmul fp32 sigmoid", "t_f32_1x40x24 t_f32_1x24x40", "t_f32_1x40x40",
   "%zp = OpConstantComposite %t_f32_1 %f32_0\n",
   "%m = OpExtInst %t_f32_1x40x40 %tosa MATMUL %in0 %in1 %zp %zp\n"
   "%r = OpExtInst %t_f32_1x40x40 %tosa SIGMOID %m\n"};

static void
test_float_chains(void)
{
   struct fplan t;
   if (fplan_make(&conv_add, true, DG_KERNELS_FAST, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->node_count, 3);
      check_eq_u64(s->epi[0], 2);
      check_eq_u64(epi_op(s, 0), DG_EPI_ADD);
      check_eq_u64(DG_EPI_FLAGS_OF(s->epi[1]), DG_EPI_SWAP);
      check_eq_u64(DG_EPI_TENSOR_OF(s->epi[1]), 0);
      check_eq_u64(p->tensors[s->tensors[4]].kind, DG_PLAN_TENSOR_INPUT);
      check_eq_u64(p->tensors[s->tensors[4]].io, 1);
      check_eq_u64(epi_op(s, 1), DG_EPI_CLAMP);
      check_eq_u64(used_memory(p), 0);
      check_name(p, 0, "CONV2D", "CONV2D+ADD+CLAMP");
   }
   fplan_free(&t);
   if (fplan_make(&conv_output, true, DG_KERNELS_FAST, &t)) {
      check_eq_u64(t.p->stage_count, 2);
      check_eq_u64(t.p->stages[0].epi[0], 0);
      check_eq_u64(t.p->stages[0].tensor_count, 4);
   }
   fplan_free(&t);
   /* The CLAMP -> ADD after it: one dispatch of the chain kernel. */
   if (fplan_make(&conv_two_uses, true, DG_KERNELS_FAST, &t)) {
      check_eq_u64(t.p->stage_count, 2);
      check_eq_u64(t.p->stages[0].epi[0], 0);
      check_eq_u64(t.p->stages[1].kernel, DG_KERNEL_TOSA_EW_CHAIN_FP32);
      check_eq_u64(t.p->stages[1].node_count, 2);
      check_eq_u64(t.p->stages[1].epi[0], 2);
      check_eq_u64(t.p->stages[1].tensor_count, 2 + DG_EPI_TENSORS);
      check_eq_u64(t.p->stages[1].work, 8 * 8 * 32);
      /* ADD(k, c): the chain's value is input1, the conv's result the other operand. */
      check_eq_u64(DG_EPI_FLAGS_OF(t.p->stages[1].epi[1 + DG_EPI_OP_WORDS]), 0);
      check_eq_u64(t.p->stages[1].tensors[2], t.p->stages[0].tensors[3]);
      check_name(t.p, 1, "CLAMP", "CLAMP+ADD");
      check_eq_u64(used_memory(t.p), 1);
   }
   fplan_free(&t);
   if (fplan_make(&conv_two_uses, false, DG_KERNELS_FAST, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(used_memory(t.p), 2);
   }
   fplan_free(&t);
   if (fplan_make(&matmul_sigmoid, true, DG_KERNELS_FAST, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].epi[0], 1);
      check_eq_u64(epi_op(&t.p->stages[0], 0), DG_EPI_SIGMOID);
      check_eq_u64(t.p->stages[0].tensor_count, 7);
      check_name(t.p, 0, "MATMUL", "MATMUL+SIGMOID");
   }
   fplan_free(&t);
}

/* MATMUL i8 (zero points) -> RESCALE to i8 (per channel) -> CLAMP. */
static const struct dcase matmul_i8 = {
   "matmul i8 rescale clamp", "t_i8_2x40x24 t_i8_2x24x48", "t_i8_2x40x48",
   "%azp = OpConstantComposite %t_i8_1 %i8_3\n%bzp = OpConstantComposite %t_i8_1 %i8_m7\n"
   "%mul = OpGraphConstantARM %t_i32_48 0\n%shift = OpGraphConstantARM %t_i8_48 1\n"
   "%zp8 = OpConstantComposite %t_i8_1 %i8_0\n%zp32 = OpConstantComposite %t_i32_1 %i32_0\n",
   "%m = OpExtInst %t_i32_2x40x48 %tosa MATMUL %in0 %in1 %azp %bzp\n"
   "%q = OpExtInst %t_i8_2x40x48 %tosa RESCALE %true %i32_1 %true %false %false %m %mul %shift "
   "%zp32 %zp8\n"
   "%r = OpExtInst %t_i8_2x40x48 %tosa CLAMP %i8_m100 %i8_100 %i32_1 %q\n",
   .fill = "0=1073741824 1=40"};

/* The integer-dot kernels (D51) fuse through their INT_DOT_EPI variants (D57): on a GPU with
 * integer dot products, and on a CPU device when VMEL_GRAPH_KERNELS=int-dot forces them. */
static void
test_int_dot(void)
{
   const struct fdevice gpu = {.int_dot = true}, cpu = {.int_dot = true, .cpu_device = true};
   struct fplan t;
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_FAST, &gpu, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_CONV2D_INT_DOT_EPI_I8_I32_ACC_I32);
      check_eq_u64(s->node_count, 3);
      check_eq_u64(s->tensor_count, 8);
      check_eq_u64(s->write_mask, 1u << 3);
      check_eq_u64(p->tensors[s->tensors[3]].ty.type, DG_TYPE_I8);
      check_eq_u64(p->tensors[s->tensors[4]].ty.type, DG_TYPE_I32); /* multiplier */
      check_eq_u64(p->tensors[s->tensors[5]].ty.type, DG_TYPE_I8);  /* shift */
      check_eq_u64(s->epi[0], 2);
      check_eq_u64(epi_op(s, 0), DG_EPI_RESCALE);
      check_eq_u64(epi_op(s, 1), DG_EPI_CLAMP);
      check_eq_u64(used_memory(p), 0);
      check_name(p, 0, "CONV2D", "CONV2D+RESCALE+CLAMP");
   }
   fplan_free(&t);
   /* Fusion off: the plain INT_DOT kernel and two stages after it. */
   if (fplan_make_on(&conv_i8, false, DG_KERNELS_FAST, &gpu, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_INT_DOT_I8_I32_ACC_I32);
      check_eq_u64(t.p->stages[0].epi[0], 0);
      check_eq_u64(t.p->stages[0].tensor_count, 4);
      check_eq_u64(used_memory(t.p), 2);
   }
   fplan_free(&t);
   /* A CPU device keeps the tiled kernels (and their _EPI variants) unless int-dot is forced. */
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_FAST, &cpu, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      ok(t.p->stages[0].kernel != DG_KERNEL_TOSA_CONV2D_INT_DOT_EPI_I8_I32_ACC_I32,
         "a CPU device takes the INT_DOT kernel unforced");
   }
   fplan_free(&t);
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_INT_DOT, &cpu, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_INT_DOT_EPI_I8_I32_ACC_I32);
   }
   fplan_free(&t);
   /* MATMUL: the chain's extra tensors follow the output (binding 2). */
   if (fplan_make_on(&matmul_i8, true, DG_KERNELS_INT_DOT, &cpu, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_MATMUL_INT_DOT_EPI_I8_I32);
      check_eq_u64(s->node_count, 3);
      check_eq_u64(s->tensor_count, 7);
      check_eq_u64(s->write_mask, 1u << 2);
      check_eq_u64(p->tensors[s->tensors[2]].kind, DG_PLAN_TENSOR_OUTPUT);
      check_eq_u64(p->tensors[s->tensors[3]].ty.type, DG_TYPE_I32);
      check_eq_u64(s->epi[2], DG_EPI_RESCALE_SCALE32 | DG_EPI_RESCALE_PER_CHANNEL);
      check_name(p, 0, "MATMUL", "MATMUL+RESCALE+CLAMP");
      check_eq_u64(used_memory(p), 0);
   }
   fplan_free(&t);
   if (fplan_make_on(&matmul_i8, true, DG_KERNELS_REFERENCE, &cpu, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_I8_I32);
   }
   fplan_free(&t);
}

TEST_MAIN_STATE;

/* The cooperative-matrix kernels (D51) fuse through their COOP_NV_EPI / COOP_KHR_EPI variants
 * (D58); the KHR square kind has none, so its chain is a stage of its own. */
static void
test_coop(void)
{
   const struct fdevice nv = {.coop = DG_COOP_NV_I8}, khr = {.coop = DG_COOP_KHR_I8},
                        square = {.coop = DG_COOP_KHR_SQUARE_I8};
   struct fplan t;
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_COOP_NV, &nv, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_CONV2D_COOP_NV_EPI_I8_I32_ACC_I32);
      check_eq_u64(s->node_count, 3);
      check_eq_u64(s->tensor_count, 8);
      check_eq_u64(s->write_mask, 1u << 3);
      check_eq_u64(epi_op(s, 0), DG_EPI_RESCALE);
      check_eq_u64(epi_op(s, 1), DG_EPI_CLAMP);
      check_eq_u64(used_memory(p), 0);
      check_name(p, 0, "CONV2D", "CONV2D+RESCALE+CLAMP");
   }
   fplan_free(&t);
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_COOP_KHR, &khr, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_COOP_KHR_EPI_I8_I32_ACC_I32);
   }
   fplan_free(&t);
   if (fplan_make_on(&conv_i8, true, DG_KERNELS_COOP_KHR, &square, &t)) {
      check_eq_u64(t.p->stage_count, 2); /* the chain as one elementwise-chain stage */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_COOP_KHR_SQUARE_I8_I32_ACC_I32);
      check_eq_u64(t.p->stages[0].epi[0], 0);
   }
   fplan_free(&t);
   /* Fusion off: the plain COOP_NV kernel and two stages after it. */
   if (fplan_make_on(&conv_i8, false, DG_KERNELS_COOP_NV, &nv, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_COOP_NV_I8_I32_ACC_I32);
   }
   fplan_free(&t);
}

int
main(void)
{
   test_conv_i8();
   test_float_chains();
   test_int_dot();
   test_coop();
   return test_done();
}
