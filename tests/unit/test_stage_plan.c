/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of stage plans (graph/dg_stage_plan.c and the build functions of
 * graph/build/), without a device: graphs written as SPIR-V text
 * (decode/harness.h) are decoded and planned, and each plan is checked for
 * every operator: kernel ids (the fp16-arithmetic variant only with the cap),
 * tensor kinds, shapes and slots, attributes and shape specialization, work
 * and grids (the declared workgroup size), build constants (RESCALE), aliases
 * and copies (RESHAPE), disjoint writes (CONCAT); then a multi-operator graph
 * with a residual ADD (dependencies, internal sets, shared pipelines, the
 * memory planner's reuse of intermediates, output copies of an input and a
 * constant); scratch tensors, bind points, image bindings and fused stages
 * through a test build function; refusals (layout, descriptor and workgroup
 * limits); and allocation failure at every allocation.
 */
#include "decode/harness.h"
#include "dg_build.h"
#include "dg_stage_plan.h"
#include "ops/dg_op.h"
#include "vmel_kernels_graph.h"
#include "kernel_abi/depthwise_args.h"
#include "kernel_abi/gemm_args.h"
#include "kernel_abi/reduce_args.h"

/* A layout with one tensor binding per graph input (set 0) and output (set 1), as the
 * harness decorates them. */
struct layout {
   struct dg_plan_app_binding b[2 * H_MAX_RES];
   struct dg_plan_layout l;
};

static void
layout_for(const struct dg_graph *g, struct layout *out)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < g->input_count && n < sizeof(out->b) / sizeof(out->b[0]); i++)
      out->b[n++] = (struct dg_plan_app_binding){g->inputs[i].set, g->inputs[i].binding,
                                                 VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   for (uint32_t i = 0; i < g->output_count && n < sizeof(out->b) / sizeof(out->b[0]); i++) {
      bool dup = false;
      for (uint32_t j = 0; j < n; j++)
         dup |= out->b[j].set == g->outputs[i].set && out->b[j].binding == g->outputs[i].binding;
      if (!dup)
         out->b[n++] = (struct dg_plan_app_binding){g->outputs[i].set, g->outputs[i].binding,
                                                    VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   }
   out->l = (struct dg_plan_layout){2, out->b, n};
}

static const struct dg_plan_caps default_caps = {
   .fp16_arith = false,
   .max_groups = {65535, 65535},
};

/* A decoded case and its plan. */
struct planned {
   struct built b;
   struct dg_graph *g;
   struct layout layout;
   struct dg_stage_plan *p;
   struct h_counter counter;
   VkAllocationCallbacks alloc;
};

static VkResult
plan_with(struct planned *t, const struct dg_plan_caps *caps,
          dg_op_build_fn (*builder)(uint32_t op))
{
   struct dg_plan_input in = {t->g, &t->layout.l, caps, builder};
   return dg_stage_plan_build(&in, &t->alloc, &t->p);
}

/* Decodes and plans c (false after a failed check). */
static bool
plan_case(const struct dcase *c, const struct dg_plan_caps *caps, struct planned *t)
{
   memset(t, 0, sizeof(*t));
   test_set_context(c->name);
   t->g = h_decode(c, &t->b);
   if (!t->g)
      return false;
   layout_for(t->g, &t->layout);
   h_counting_alloc(&t->counter, &t->alloc);
   VkResult result = plan_with(t, caps ? caps : &default_caps, NULL);
   ok(result == VK_SUCCESS && t->p, "plan fails: %d", result);
   return result == VK_SUCCESS;
}

static void
planned_free(struct planned *t)
{
   dg_stage_plan_destroy(t->p);
   t->p = NULL;
   ok(t->counter.live == 0, "%ld plan allocations leaked", t->counter.live);
   dg_graph_destroy(t->g);
   h_free(&t->b);
   test_set_context(NULL);
}

static const struct dg_plan_tensor *
stage_tensor(const struct dg_stage_plan *p, uint32_t s, uint32_t k)
{
   return &p->tensors[p->stages[s].tensors[k]];
}

/* Shape constants of kernel tensor k of stage s: rank, dims and (packed) strides. */
static void
check_shape(const struct dg_stage_plan *p, uint32_t s, uint32_t k, uint32_t rank,
            const uint32_t *dims, const uint32_t *strides)
{
   const uint32_t *sh = p->stages[s].shape[k];
   check_eq_u64(sh[VMEL_SHAPE_RANK], rank);
   check_eq_u64(sh[VMEL_SHAPE_KNOWN], VMEL_SHAPE_DIMS | (strides ? VMEL_SHAPE_STRIDES : 0));
   for (uint32_t d = 0; d < 6; d++) {
      check_eq_u64(sh[VMEL_SHAPE_DIM(d)], d < rank ? dims[d] : 1);
      check_eq_u64(sh[VMEL_SHAPE_STRIDE(d)], strides && d < rank ? strides[d] : 0);
   }
}

static void
check_app_slot(const struct dg_plan_slot *s, uint32_t set, uint32_t binding)
{
   check_eq_u64(s->kind, DG_PLAN_SLOT_APP);
   check_eq_u64(s->set, set);
   check_eq_u64(s->binding, binding);
   check_eq_u64(s->element, 0);
   check_eq_u64(s->count, 1);
}

static void
check_internal_slot(const struct dg_stage_plan *p, const struct dg_plan_slot *s,
                    uint32_t binding)
{
   check_eq_u64(s->kind, DG_PLAN_SLOT_INTERNAL);
   check_eq_u64(s->set, p->internal_set);
   check_eq_u64(s->binding, binding);
   check_eq_u64(s->count, 1);
}

/* One stage over the graph's inputs and output, no internal tensor. */
static void
check_single_io_stage(const struct dg_stage_plan *p, uint32_t kernel, uint32_t inputs,
                      uint64_t work)
{
   check_eq_u64(p->stage_count, 1);
   if (p->stage_count != 1)
      return;
   const struct dg_plan_stage *s = &p->stages[0];
   check_eq_u64(s->kernel, kernel);
   check_eq_u64(s->first_node, 0);
   check_eq_u64(s->node_count, 1);
   check_eq_u64(s->tensor_count, inputs + 1);
   check_eq_u64(s->write_mask, 1u << inputs);
   check_eq_u64(s->work, work);
   check_eq_u64(s->local_size, 64);
   check_eq_u64(s->groups[0], (work + 63) / 64);
   check_eq_u64(s->groups[1], 1);
   check_eq_u64(s->dep_count, 0);
   check_eq_u64(s->internal_set, DG_PLAN_NONE);
   check_eq_u64(s->pipeline_of, 0);
   for (uint32_t k = 0; k < inputs; k++) {
      check_eq_u64(stage_tensor(p, 0, k)->kind, DG_PLAN_TENSOR_INPUT);
      check_eq_u64(stage_tensor(p, 0, k)->io, k);
      check_app_slot(&s->slots[k], 0, k);
   }
   check_eq_u64(stage_tensor(p, 0, inputs)->kind, DG_PLAN_TENSOR_OUTPUT);
   check_eq_u64(stage_tensor(p, 0, inputs)->io, 0);
   check_app_slot(&s->slots[inputs], 1, 0);
   check_eq_u64(p->memory_count, 0);
   check_eq_u64(p->internal_binding_count, 0);
   check_eq_u64(p->internal_set_count, 0);
   check_eq_u64(p->app_set_count, 2);
   check_eq_u64(p->internal_set, 2);
}

/* ---- one operator at a time ---------------------------------------------------------- */

static void
test_binary(void)
{
   struct planned t;
   const struct dcase add = {"plan add f32", "t_f32_1x4 t_f32_1x4", "t_f32_1x4", NULL,
                             "%r = OpExtInst %t_f32_1x4 %tosa ADD %in0 %in1\n"};
   if (plan_case(&add, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_ADD_FP32, 2, 1); /* 4 elements: ELEMENTS8 */
      check_eq_u64(t.p->stages[0].attr_words, 0);
      const uint32_t dims[] = {1, 4};
      /* The application's tensors: dims only, their strides come from the record. */
      check_shape(t.p, 0, 0, 2, dims, NULL);
      check_shape(t.p, 0, 2, 2, dims, NULL);
      uint32_t ids[DG_PLAN_SPEC_MAX], values[DG_PLAN_SPEC_MAX];
      uint32_t n = dg_plan_stage_spec(t.p, 0, ids, values);
      check_eq_u64(n, 2 + 3 * (2 + DG_PLAN_SHAPE_WORDS));
      check_eq_u64(ids[0], VMEL_SC_WORK_COUNT);
      check_eq_u64(values[0], 1);
      check_eq_u64(ids[1], VMEL_SC_LOCAL_SIZE_X);
      check_eq_u64(values[1], 64);
      check_eq_u64(ids[2], VMEL_SC_TENSOR_COUNT(0));
      check_eq_u64(values[2], 1);
      check_eq_u64(ids[4 + VMEL_SHAPE_DIM(1)], VMEL_SC_SHAPE(0, VMEL_SHAPE_DIM(1)));
      check_eq_u64(values[4 + VMEL_SHAPE_DIM(1)], 4);
      check_eq_u64(t.p->constant_count, 0);
      check_eq_u64(t.p->bind_point_count, 0);
      ok(dg_stage_plan_check_instantiable(t.p) == VK_SUCCESS, "instantiable");
   }
   planned_free(&t);

   const struct dcase bc = {"plan add i32 broadcast", "t_i32_2x1x3 t_i32_1x4x3", "t_i32_2x4x3",
                            NULL, "%r = OpExtInst %t_i32_2x4x3 %tosa ADD %in0 %in1\n"};
   if (plan_case(&bc, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_ADD_I32, 2, 3); /* 24 elements / 8 */
      const uint32_t d0[] = {2, 1, 3}, d1[] = {1, 4, 3}, d2[] = {2, 4, 3};
      check_shape(t.p, 0, 0, 3, d0, NULL);
      check_shape(t.p, 0, 1, 3, d1, NULL);
      check_shape(t.p, 0, 2, 3, d2, NULL);
   }
   planned_free(&t);

   const struct dcase sub = {"plan sub bf16", "t_bf16_3 t_bf16_3", "t_bf16_3", NULL,
                             "%r = OpExtInst %t_bf16_3 %tosa SUB %in0 %in1\n"};
   if (plan_case(&sub, NULL, &t))
      check_single_io_stage(t.p, DG_KERNEL_TOSA_SUB_BF16, 2, 1);
   planned_free(&t);

   const struct dcase mul8 = {"plan mul i8", "t_i8_2x3 t_i8_2x3", "t_i32_2x3",
                              "%shift = OpConstantNull %t_i8_1\n",
                              "%r = OpExtInst %t_i32_2x3 %tosa MUL %in0 %in1 %shift\n"};
   if (plan_case(&mul8, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MUL_I8_I32, 2, 1);
      check_eq_u64(t.p->stages[0].attr_words, 1);
      check_eq_u64(t.p->stages[0].attrs[0], 0);
      /* The shift is an attribute, not a tensor. */
      check_eq_u64(t.p->tensor_count, 3);
   }
   planned_free(&t);

   const struct dcase mul32 = {"plan mul i32 shift", "t_i32_4 t_i32_4", "t_i32_4",
                               "%shift = OpConstantComposite %t_i8_1 %i8_63\n",
                               "%r = OpExtInst %t_i32_4 %tosa MUL %in0 %in1 %shift\n"};
   if (plan_case(&mul32, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MUL_I32, 2, 1);
      check_eq_u64(t.p->stages[0].attrs[0], 63);
   }
   planned_free(&t);
}

static void
test_clamp(void)
{
   struct planned t;
   const struct dcase i8 = {"plan clamp i8", "t_i8_1x4", "t_i8_1x4", NULL,
                            "%r = OpExtInst %t_i8_1x4 %tosa CLAMP %i8_m10 %i8_10 %i32_1 %in0\n"};
   if (plan_case(&i8, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_CLAMP_I8, 1, 1); /* 4 elements: ELEMENTS8 */
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->attr_words, 3);
      check_eq_i64((int32_t)s->attrs[0], -10);
      check_eq_i64((int32_t)s->attrs[1], 10);
      check_eq_u64(s->attrs[2], TOSA_NAN_MODE_PROPAGATE);
   }
   planned_free(&t);
   const struct dcase f32 = {"plan clamp f32 large", "t_f32_2x100x7", "t_f32_2x100x7", NULL,
                             "%r = OpExtInst %t_f32_2x100x7 %tosa CLAMP %f32_m1 %f32_1 %i32_1 "
                             "%in0\n"};
   if (plan_case(&f32, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_CLAMP_FP32, 1, 175); /* 1400 / 8 */
      check_eq_u64(t.p->stages[0].groups[0], 3);
      check_eq_u64(t.p->stages[0].attrs[0], 0xbf800000u);
      check_eq_u64(t.p->stages[0].attrs[1], 0x3f800000u);
   }
   planned_free(&t);
   /* Beyond the grid in x, the rest goes to y. */
   struct dg_plan_caps small = default_caps;
   small.max_groups[0] = 2;
   small.max_groups[1] = 8;
   if (plan_case(&f32, &small, &t)) {
      check_eq_u64(t.p->stages[0].groups[0], 2);
      check_eq_u64(t.p->stages[0].groups[1], 2);
   }
   planned_free(&t);
}

static void
test_reshape(void)
{
   struct planned t;
   /* A graph input cannot alias: a copy. */
   const struct dcase copy = {"plan reshape input", "t_i32_2x3x4", "t_i32_6x4",
                              "%shape = OpConstantComposite %t_i32_2 %i32_6 %i32_4\n",
                              "%r = OpExtInst %t_i32_6x4 %tosa RESHAPE %in0 %shape\n"};
   if (plan_case(&copy, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_COPY_U32, 1, 24);
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->attr_words, 3);
      check_eq_u64(s->attrs[0], DG_COPY_RESHAPE);
      const uint32_t din[] = {2, 3, 4}, dout[] = {6, 4};
      check_shape(t.p, 0, 0, 3, din, NULL);
      check_shape(t.p, 0, 1, 2, dout, NULL);
   }
   planned_free(&t);

   /* 8-byte elements (an output copy): the copy kernel's declared workgroup of 128
    * invocations. */
   const struct dcase i48 = {"plan i48 input as output", "t_i48_300", "t_i48_300", NULL, "",
                             "OpGraphSetOutputARM %in0 %i32_0\n"};
   if (plan_case(&i48, NULL, &t)) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].first_node, DG_PLAN_NONE);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_COPY_U64);
      check_eq_u64(t.p->stages[0].local_size, 128);
      check_eq_u64(t.p->stages[0].groups[0], 3);
   }
   planned_free(&t);

   /* An intermediate in a new shape is the same memory: no stage. */
   const struct dcase alias = {
       "plan reshape alias", "t_f32_2x3", "t_f32_6",
       "%shape = OpConstantComposite %t_i32_1 %i32_6\n",
       "%c = OpExtInst %t_f32_2x3 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
       "%s = OpExtInst %t_f32_6 %tosa RESHAPE %c %shape\n"
       "%r = OpExtInst %t_f32_6 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %s\n"};
   if (plan_case(&alias, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2);
      check_eq_u64(p->stages[0].first_node, 0);
      check_eq_u64(p->stages[1].first_node, 2);
      const struct dg_plan_tensor *c = stage_tensor(p, 0, 1), *s = stage_tensor(p, 1, 0);
      check_eq_u64(c->kind, DG_PLAN_TENSOR_INTERMEDIATE);
      check_eq_u64(s->kind, DG_PLAN_TENSOR_INTERMEDIATE);
      check_eq_u64(s->alias_of, p->stages[0].tensors[1]);
      check_eq_u64(dg_plan_tensor_root(p, p->stages[1].tensors[0]), p->stages[0].tensors[1]);
      check_eq_u64(s->ty.shape.rank, 1);
      check_eq_u64(s->ty.shape.dim[0], 6);
      /* Read after write through the alias. */
      check_eq_u64(p->stages[1].dep_count, 1);
      ok(dg_plan_stage_depends(p, 1, 0), "stage 1 follows stage 0");
      /* Each is packed: strides known. */
      const uint32_t d6[] = {6}, s6[] = {4}, d23[] = {2, 3}, s23[] = {12, 4};
      check_shape(p, 1, 0, 1, d6, s6);
      check_shape(p, 0, 1, 2, d23, s23);
      /* One memory root covering both stages; the alias takes none. */
      check_eq_u64(p->memory_count, 2);
      VkDeviceSize sizes[2] = {24, 24};
      struct dg_interval iv[2];
      dg_stage_plan_intervals(p, sizes, iv);
      uint32_t root = c->index, al = s->index;
      check_eq_u64(iv[root].size, 24);
      check_eq_u64(iv[root].first, 0);
      check_eq_u64(iv[root].last, 1);
      check_eq_u64(iv[al].size, 0);
   }
   planned_free(&t);
}

static void
test_concat(void)
{
   struct planned t;
   const struct dcase cat = {"plan concat f32 axis 0", "t_f32_1x4 t_f32_2x4", "t_f32_3x4", NULL,
                             "%r = OpExtInst %t_f32_3x4 %tosa CONCAT %i32_0 %in0 %in1\n"};
   if (plan_case(&cat, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2);
      for (uint32_t i = 0; i < 2 && i < p->stage_count; i++) {
         const struct dg_plan_stage *s = &p->stages[i];
         check_eq_u64(s->kernel, DG_KERNEL_TOSA_COPY_U32);
         check_eq_u64(s->first_node, 0);
         ok(s->disjoint_writes, "disjoint writes");
         check_eq_u64(s->attrs[0], DG_COPY_CONCAT);
         check_eq_u64(s->attrs[1], 0);
         check_eq_u64(s->attrs[2], i == 0 ? 0 : 1);
         check_eq_u64(s->work, i == 0 ? 4 : 8);
         check_eq_u64(stage_tensor(p, i, 0)->io, i);
         check_eq_u64(s->tensors[1], p->stages[0].tensors[1]);
         check_app_slot(&s->slots[0], 0, i);
         check_app_slot(&s->slots[1], 1, 0);
      }
      /* Two writes of disjoint parts of one output: no ordering. */
      check_eq_u64(p->stages[1].dep_count, 0);
      check_eq_u64(p->stages[1].pipeline_of, 1);
   }
   planned_free(&t);

   /* A reader of the whole output follows every part. */
   const struct dcase read = {
       "plan concat then clamp", "t_i8_2 t_i8_3", "t_i8_5", NULL,
       "%c = OpExtInst %t_i8_5 %tosa CONCAT %i32_0 %in0 %in1\n"
       "%r = OpExtInst %t_i8_5 %tosa CLAMP %i8_0 %i8_1 %i32_1 %c\n"};
   if (plan_case(&read, NULL, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_COPY_U8);
      check_eq_u64(t.p->stages[1].dep_count, 0);
      check_eq_u64(t.p->stages[2].dep_count, 2);
      ok(dg_plan_stage_depends(t.p, 2, 0) && dg_plan_stage_depends(t.p, 2, 1), "both parts");
   }
   planned_free(&t);
}

/* SCATTER (D36): the winner table last[N,K] in session scratch, zeroed, filled by the
 * atomics pass, read by the copy that writes every output element once. */
static void
test_scatter(void)
{
   struct planned t;
   const struct dcase sc = {"plan scatter f32", "t_f32_2x5x3 t_i32_2x4 t_f32_2x4x3", "t_f32_2x5x3",
                            NULL, "%r = OpExtInst %t_f32_2x5x3 %tosa SCATTER %in0 %in1 %in2\n"};
   if (plan_case(&sc, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 3);
      if (p->stage_count == 3) {
         check_eq_u64(p->stages[0].kernel, DG_KERNEL_TOSA_SCATTER_LAST_INIT);
         check_eq_u64(p->stages[1].kernel, DG_KERNEL_TOSA_SCATTER_LAST);
         check_eq_u64(p->stages[2].kernel, DG_KERNEL_TOSA_SCATTER_U32);
         check_eq_u64(p->stages[0].work, 10);
         check_eq_u64(p->stages[1].work, 8);
         check_eq_u64(p->stages[2].work, 4); /* 30 elements, 8 per work item */
         const struct dg_plan_tensor *last = stage_tensor(p, 0, DG_SCATTER_LAST_TABLE);
         check_eq_u64(last->kind, DG_PLAN_TENSOR_SCRATCH);
         uint32_t dims[2] = {2, 5}, strides[2] = {20, 4};
         check_shape(p, 0, DG_SCATTER_LAST_TABLE, 2, dims, strides);
         check_eq_u64(p->stages[1].tensors[DG_SCATTER_LAST_TABLE],
                      p->stages[0].tensors[DG_SCATTER_LAST_TABLE]);
         check_eq_u64(p->stages[2].tensors[DG_SCATTER_LAST],
                      p->stages[0].tensors[DG_SCATTER_LAST_TABLE]);
         check_eq_u64(p->stages[2].write_mask, 1u << DG_SCATTER_OUTPUT);
         ok(dg_plan_stage_depends(p, 1, 0), "the atomics follow the zeroing");
         ok(dg_plan_stage_depends(p, 2, 1), "the copy follows the atomics");
      }
   }
   planned_free(&t);
}

/* SLICE and CONCAT along the outermost axis of packed intermediates are aliases at byte offsets
 * (D36) where the device's alias alignment allows: no copy stage. */
static void
test_offset_aliases(void)
{
   struct planned t;
   struct dg_plan_caps caps = default_caps;
   caps.alias_alignment = 16;
   /* [6,4] f32 rows of 16 bytes: rows 2..4 start at byte 32. */
   const struct dcase slice = {
       "plan slice outermost alias", "t_f32_6x4", "t_f32_3x4",
       "%start = OpConstantComposite %t_i32_2 %i32_2 %i32_0\n"
       "%size = OpConstantComposite %t_i32_2 %i32_3 %i32_4\n",
       "%c = OpExtInst %t_f32_6x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
       "%s = OpExtInst %t_f32_3x4 %tosa SLICE %c %start %size\n"
       "%r = OpExtInst %t_f32_3x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %s\n"};
   if (plan_case(&slice, &caps, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2); /* the two CLAMPs: no SLICE dispatch */
      if (p->stage_count == 2) {
         const struct dg_plan_tensor *s = stage_tensor(p, 1, 0);
         check_eq_u64(s->kind, DG_PLAN_TENSOR_INTERMEDIATE);
         check_eq_u64(s->alias_of, p->stages[0].tensors[1]);
         check_eq_u64(s->alias_offset, 32);
         ok(dg_plan_stage_depends(p, 1, 0), "the reader of the slice follows its root's writer");
         VkDeviceSize sizes[2] = {96, 48};
         struct dg_interval iv[2];
         check_eq_u64(p->memory_count, 2);
         dg_stage_plan_intervals(p, sizes, iv);
         uint32_t root = p->tensors[s->alias_of].index;
         check_eq_u64(iv[root].size, 96);
         check_eq_u64(iv[root].last, 1);
         check_eq_u64(iv[1 - root].size, 0);
      }
   }
   planned_free(&t);

   /* Without the alignment (byte 32 of a 64-byte alignment, or none known) it stays a copy. */
   caps.alias_alignment = 64;
   if (plan_case(&slice, &caps, &t))
      check_eq_u64(t.p->stage_count, 3);
   planned_free(&t);
   if (plan_case(&slice, NULL, &t))
      check_eq_u64(t.p->stage_count, 3);
   planned_free(&t);

   /* SLICE of an inner axis is always the kernel's. */
   caps.alias_alignment = 4;
   const struct dcase inner = {
       "plan slice inner axis copies", "t_f32_6x4", "t_f32_6x2",
       "%start = OpConstantComposite %t_i32_2 %i32_0 %i32_2\n"
       "%size = OpConstantComposite %t_i32_2 %i32_6 %i32_2\n",
       "%c = OpExtInst %t_f32_6x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
       "%s = OpExtInst %t_f32_6x2 %tosa SLICE %c %start %size\n"
       "%r = OpExtInst %t_f32_6x2 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %s\n"};
   if (plan_case(&inner, &caps, &t)) {
      check_eq_u64(t.p->stage_count, 3);
      check_eq_u64(t.p->stages[1].kernel, DG_KERNEL_TOSA_SLICE_U32);
   }
   planned_free(&t);

   /* CONCAT of two intermediates along axis 0: their producers write the output's rows in
    * place (offsets 0 and 32); the reader of the whole follows both. */
   caps.alias_alignment = 16;
   const struct dcase cat = {
       "plan concat outermost alias", "t_f32_2x4 t_f32_3x4", "t_f32_5x4", NULL,
       "%a = OpExtInst %t_f32_2x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
       "%b = OpExtInst %t_f32_3x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in1\n"
       "%c = OpExtInst %t_f32_5x4 %tosa CONCAT %i32_0 %a %b\n"
       "%r = OpExtInst %t_f32_5x4 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %c\n"};
   if (plan_case(&cat, &caps, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 3); /* three CLAMPs, no copy */
      if (p->stage_count == 3) {
         const struct dg_plan_tensor *a = stage_tensor(p, 0, 1), *b = stage_tensor(p, 1, 1);
         uint32_t whole = p->stages[2].tensors[0];
         check_eq_u64(a->alias_of, whole);
         check_eq_u64(a->alias_offset, 0);
         check_eq_u64(b->alias_of, whole);
         check_eq_u64(b->alias_offset, 32);
         /* The second part's writer follows the first (one root: a write after a write), the
          * reader of the whole the second, so both. */
         ok(dg_plan_stage_depends(p, 1, 0) && dg_plan_stage_depends(p, 2, 1), "both parts");
      }
   }
   planned_free(&t);

   /* CONCAT along an inner axis, or of graph inputs, copies. */
   const struct dcase cat1 = {
       "plan concat inner axis copies", "t_f32_4x2 t_f32_4x3", "t_f32_4x5", NULL,
       "%a = OpExtInst %t_f32_4x2 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
       "%b = OpExtInst %t_f32_4x3 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in1\n"
       "%c = OpExtInst %t_f32_4x5 %tosa CONCAT %i32_1 %a %b\n"
       "%r = OpExtInst %t_f32_4x5 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %c\n"};
   if (plan_case(&cat1, &caps, &t))
      check_eq_u64(t.p->stage_count, 5);
   planned_free(&t);
}

static void
test_pool(void)
{
   struct planned t;
   const struct dcase pad = {
       "plan max_pool2d padded", "t_f32_1x5x5x2", "t_f32_1x3x3x2",
       "%k = OpConstantCompositeReplicateEXT %t_i32_2 %i32_3\n"
       "%s = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n"
       "%p = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n",
       "%r = OpExtInst %t_f32_1x3x3x2 %tosa MAX_POOL2D %k %s %p %i32_2 %in0\n"};
   if (plan_case(&pad, NULL, &t)) {
      /* One work item per 4 channels of an output position (dg_pool.glsl): 3 * 3 * 1. */
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MAX_POOL2D_FP32, 1, 9);
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->attr_words, 9);
      const struct dg_attrs_max_pool2d *a = (const struct dg_attrs_max_pool2d *)s->attrs;
      check_eq_i64(a->kernel_y, 3);
      check_eq_i64(a->kernel_x, 3);
      check_eq_i64(a->stride_y, 2);
      check_eq_i64(a->pad_right, 1);
      check_eq_u64(a->nan_mode, 2);
      const uint32_t din[] = {1, 5, 5, 2};
      check_shape(t.p, 0, 0, 4, din, NULL);
   }
   planned_free(&t);
   /* AVG_POOL2D with C = 5: two channel groups per output position, 3 * 3 * 2 work items;
    * the zero points are attributes (0 for floats). */
   const struct dcase avg = {
       "plan avg_pool2d padded", "t_f32_1x5x5x5", "t_f32_1x3x3x5",
       "%k = OpConstantCompositeReplicateEXT %t_i32_2 %i32_3\n"
       "%s = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n"
       "%p = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"
       "%zp = OpConstantComposite %t_f32_1 %f32_0\n",
       "%r = OpExtInst %t_f32_1x3x3x5 %tosa AVG_POOL2D %k %s %p %i32_3 %in0 %zp %zp\n"};
   if (plan_case(&avg, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_AVG_POOL2D_FP32, 1, 18);
      const struct dg_attrs_avg_pool2d *a =
          (const struct dg_attrs_avg_pool2d *)t.p->stages[0].attrs;
      check_eq_i64(a->kernel_x, 3);
      check_eq_i64(a->pad_left, 1);
      check_eq_i64(a->input_zp, 0);
      check_eq_u64(a->acc_type, 3);
   }
   planned_free(&t);
}

/* FFT2D: the struct result's members are the node's two outputs, written in place by the last
 * pass (OpCompositeExtract costs no stage); a pass per axis through a scratch pair, one
 * workgroup of 256 per line up to 2048 points, one Stockham stage per dispatch beyond. */
static void
test_fft(void)
{
   struct planned t;
   const char *sets = "OpGraphSetOutputARM %re %i32_0\nOpGraphSetOutputARM %im %i32_1\n";
   const struct dcase small = {
       "plan fft2d 1x8x16", "t_f32_1x8x16 t_f32_1x8x16", "t_f32_1x8x16 t_f32_1x8x16",
       "%st = OpTypeStruct %t_f32_1x8x16 %t_f32_1x8x16\n",
       "%r = OpExtInst %st %tosa FFT2D %false %false %in0 %in1\n"
       "%re = OpCompositeExtract %t_f32_1x8x16 %r 0\n"
       "%im = OpCompositeExtract %t_f32_1x8x16 %r 1\n",
       sets};
   if (plan_case(&small, NULL, &t)) {
      check_eq_u64(t.p->stage_count, 2);
      for (uint32_t i = 0; i < t.p->stage_count && i < 2; i++) {
         check_eq_u64(t.p->stages[i].kernel, DG_KERNEL_TOSA_FFT2D_SHARED);
         check_eq_u64(t.p->stages[i].local_size, 256);
      }
      if (t.p->stage_count == 2) {
         check_eq_u64(t.p->stages[0].work, 8 * 256);  /* 8 rows */
         check_eq_u64(t.p->stages[1].work, 16 * 256); /* 16 columns */
      }
      check_eq_u64(t.p->memory_count, 2); /* the scratch pair between the passes */
   }
   planned_free(&t);
   /* A device whose workgroups stop at Vulkan's minimum of 128 invocations: refused at
    * creation (the 256-wide line kernels would not run there), nothing leaked. */
   struct dg_plan_caps small_wg = default_caps;
   small_wg.max_workgroup_invocations = 128;
   memset(&t, 0, sizeof(t));
   test_set_context("plan fft2d, 128 invocations at most");
   t.g = h_decode(&small, &t.b);
   if (t.g) {
      layout_for(t.g, &t.layout);
      h_counting_alloc(&t.counter, &t.alloc);
      check_eq_u64(plan_with(&t, &small_wg, NULL), VK_ERROR_UNKNOWN);
      ok(!t.p, "no plan");
   }
   planned_free(&t);
   const struct dcase big = {
       "plan rfft2d 1x4096x2", "t_f32_1x4096x2", "t_f32_1x4096x2 t_f32_1x4096x2",
       "%st = OpTypeStruct %t_f32_1x4096x2 %t_f32_1x4096x2\n",
       "%r = OpExtInst %st %tosa RFFT2D %false %in0\n"
       "%re = OpCompositeExtract %t_f32_1x4096x2 %r 0\n"
       "%im = OpCompositeExtract %t_f32_1x4096x2 %r 1\n",
       sets};
   if (plan_case(&big, NULL, &t)) {
      /* Rows of 2 in shared memory, then 12 stages over the 2 columns of 4096. */
      check_eq_u64(t.p->stage_count, 13);
      if (t.p->stage_count == 13) {
         check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_RFFT2D_SHARED);
         for (uint32_t i = 1; i < 13; i++) {
            check_eq_u64(t.p->stages[i].kernel, DG_KERNEL_TOSA_FFT2D_PASS);
            check_eq_u64(t.p->stages[i].work, 2 * 2048);
         }
      }
      check_eq_u64(t.p->memory_count, 6); /* the pair after the rows and two ping-pong pairs */
   }
   planned_free(&t);
}

static const struct dcase conv_i8 = {
    "plan conv2d i8", "t_i8_1x8x8x4", "t_i32_1x6x6x8",
    "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
    "%w = OpGraphConstantARM %t_i8_8x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_8 1\n"
    "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
    "%r = OpExtInst %t_i32_1x6x6x8 %tosa CONV2D %pad %one %one %i32_1 %true %in0 %w %bias %izp "
    "%wzp\n"};

static void
test_conv(void)
{
   struct planned t;
   if (plan_case(&conv_i8, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_CONV2D_I8_I32_ACC_I32);
      check_eq_u64(s->tensor_count, 4);
      check_eq_u64(s->write_mask, 1u << 3);
      check_eq_u64(s->work, 6 * 6 * 8);
      check_eq_u64(s->groups[0], 5);
      const struct dg_attrs_conv2d *a = (const struct dg_attrs_conv2d *)s->attrs;
      check_eq_u64(s->attr_words, 12);
      check_eq_i64(a->input_zp, -128);
      check_eq_i64(a->weight_zp, 3);
      check_eq_u64(a->acc_type, TOSA_ACC_TYPE_INT32);
      check_eq_u64(a->local_bound, 1);
      check_eq_i64(a->stride_x, 1);
      /* Weights and bias: graph constants, the pipeline's, in the stage's internal set. */
      check_eq_u64(stage_tensor(p, 0, 0)->kind, DG_PLAN_TENSOR_INPUT);
      check_eq_u64(stage_tensor(p, 0, 1)->kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(stage_tensor(p, 0, 2)->kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(stage_tensor(p, 0, 3)->kind, DG_PLAN_TENSOR_OUTPUT);
      check_app_slot(&s->slots[0], 0, 0);
      check_internal_slot(p, &s->slots[1], 0);
      check_internal_slot(p, &s->slots[2], 1);
      check_app_slot(&s->slots[3], 1, 0);
      check_eq_u64(p->internal_binding_count, 2);
      check_eq_u64(p->internal_set_count, 1);
      check_eq_u64(s->internal_set, 0);
      check_eq_u64(p->internal_sets[0].count, 2);
      check_eq_u64(p->constant_count, 2);
      const struct dg_plan_constant *w = &p->constants[stage_tensor(p, 0, 1)->index];
      ok(w->data == t.b.const_data[0] && w->desc && !w->owned, "weights: the application's");
      check_eq_u64(w->tensor, s->tensors[1]);
      const uint32_t dw[] = {8, 3, 3, 4}, sw[] = {36, 12, 4, 1}, db[] = {8}, sb[] = {4};
      check_shape(p, 0, 1, 4, dw, sw);
      check_shape(p, 0, 2, 1, db, sb);
      uint32_t ids[DG_PLAN_SPEC_MAX], values[DG_PLAN_SPEC_MAX];
      uint32_t n = dg_plan_stage_spec(p, 0, ids, values);
      check_eq_u64(n, 2 + 4 * 16 + 12);
      check_eq_u64(ids[n - 12 + 8], VMEL_SC_ATTR(8));
      check_eq_i64((int32_t)values[n - 12 + 8], -128);
   }
   planned_free(&t);

   /* fp16 accumulating in fp16: the _fp16arith variant only where the device computes
    * in float16. */
   const struct dcase f16 = {
       "plan conv2d f16 acc f16", "t_f16_1x4x4x2", "t_f16_1x2x2x3",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f16_3x3x3x2 0\n%bias = OpConstantNull %t_f16_1\n"
       "%zp = OpConstantNull %t_f16_1\n",
       "%r = OpExtInst %t_f16_1x2x2x3 %tosa CONV2D %pad %one %one %i32_2 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f16, NULL, &t)) {
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_FP16_ACC_FP16);
      /* The module constant bias: packed data of its own. */
      const struct dg_plan_tensor *bias = stage_tensor(t.p, 0, 2);
      check_eq_u64(bias->kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(t.p->constants[bias->index].size, 2);
      ok(t.p->constants[bias->index].desc == NULL, "packed module constant");
   }
   planned_free(&t);
   struct dg_plan_caps fp16 = default_caps;
   fp16.fp16_arith = true;
   if (plan_case(&f16, &fp16, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_FP16_ACC_FP16_FP16ARITH);
   planned_free(&t);
   /* Accumulating in fp32 has no faster variant. */
   const struct dcase f16acc32 = {
       "plan conv2d f16 acc f32", "t_f16_1x4x4x2", "t_f16_1x2x2x3", f16.decls,
       "%r = OpExtInst %t_f16_1x2x2x3 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f16acc32, &fp16, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_FP16_ACC_FP32);
   planned_free(&t);
}

/* CONV2D's family: the row's kernel, the grid (DEPTHWISE: 4 channels per work item), the
 * attributes from the lists and zero points (TRANSPOSE's negative out_pad kept), the FP16
 * variant where the device computes in float16. */
static void
test_conv_family(void)
{
   struct planned t;
   const struct dcase dw = {
       "plan depthwise_conv2d i8", "t_i8_1x5x5x3", "t_i32_1x3x3x6",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_3x3x3x2 0\n%bias = OpGraphConstantARM %t_i32_1 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m7\n%wzp = OpConstantComposite %t_i8_1 %i8_2\n",
       "%r = OpExtInst %t_i32_1x3x3x6 %tosa DEPTHWISE_CONV2D %pad %one %one %i32_1 %false %in0 "
       "%w %bias %izp %wzp\n"};
   if (plan_case(&dw, NULL, &t)) {
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_DEPTHWISE_CONV2D_I8_I32_ACC_I32);
      check_eq_u64(s->tensor_count, 4);
      check_eq_u64(s->work, (3 * 3 * 6 + 3) / 4); /* ELEMENTS4 */
      const struct dg_attrs_depthwise_conv2d *a =
          (const struct dg_attrs_depthwise_conv2d *)s->attrs;
      check_eq_u64(s->attr_words, 12);
      check_eq_i64(a->input_zp, -7);
      check_eq_i64(a->weight_zp, 2);
      check_eq_i64(a->dilation_y, 1);
   }
   planned_free(&t);

   const struct dcase tc = {
       "plan transpose_conv2d f32", "t_f32_1x3x3x2", "t_f32_1x5x5x4",
       "%pad = OpConstantComposite %t_i32_4 %i32_m1 %i32_0 %i32_0 %i32_m1\n"
       "%two = OpConstantCompositeReplicateEXT %t_i32_2 %i32_2\n"
       "%w = OpGraphConstantARM %t_f32_4x2x2x2 0\n%bias = OpConstantNull %t_f32_4\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_1x5x5x4 %tosa TRANSPOSE_CONV2D %pad %two %i32_3 %false %in0 %w "
       "%bias %zp %zp\n"};
   if (plan_case(&tc, NULL, &t)) {
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_TRANSPOSE_CONV2D_FP32_ACC_FP32);
      check_eq_u64(s->work, 5 * 5 * 4);
      const struct dg_attrs_transpose_conv2d *a =
          (const struct dg_attrs_transpose_conv2d *)s->attrs;
      check_eq_u64(s->attr_words, 10);
      check_eq_i64(a->out_pad_top, -1);
      check_eq_i64(a->out_pad_right, -1);
      check_eq_i64(a->stride_x, 2);
   }
   planned_free(&t);

   const struct dcase c3 = {
       "plan conv3d f16 acc f16", "t_f16_1x3x4x4x2", "t_f16_1x2x3x3x3",
       "%pad = OpConstantNull %t_i32_6\n%one = OpConstantCompositeReplicateEXT %t_i32_3 %i32_1\n"
       "%w = OpGraphConstantARM %t_f16_3x2x2x2x2 0\n%bias = OpConstantNull %t_f16_1\n"
       "%zp = OpConstantNull %t_f16_1\n",
       "%r = OpExtInst %t_f16_1x2x3x3x3 %tosa CONV3D %pad %one %one %i32_2 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&c3, NULL, &t)) {
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV3D_FP16_ACC_FP16);
      check_eq_u64(t.p->stages[0].attr_words, 16);
   }
   planned_free(&t);
   struct dg_plan_caps fp16 = default_caps;
   fp16.fp16_arith = true;
   if (plan_case(&c3, &fp16, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV3D_FP16_ACC_FP16_FP16ARITH);
   planned_free(&t);
}

static void
test_matmul(void)
{
   struct planned t;
   const struct dcase i8 = {"plan matmul i8", "t_i8_2x3x4 t_i8_2x4x5", "t_i32_2x3x5",
                            "%az = OpConstantComposite %t_i8_1 %i8_m1\n"
                            "%bz = OpConstantComposite %t_i8_1 %i8_127\n",
                            "%r = OpExtInst %t_i32_2x3x5 %tosa MATMUL %in0 %in1 %az %bz\n"};
   if (plan_case(&i8, NULL, &t)) {
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MATMUL_I8_I32, 2, 30);
      const struct dg_attrs_matmul *a = (const struct dg_attrs_matmul *)t.p->stages[0].attrs;
      check_eq_u64(t.p->stages[0].attr_words, 2);
      check_eq_i64(a->a_zp, -1);
      check_eq_i64(a->b_zp, 127);
      const uint32_t d1[] = {2, 4, 5};
      check_shape(t.p, 0, 1, 3, d1, NULL);
   }
   planned_free(&t);
   const struct dcase f16 = {"plan matmul f16", "t_f16_1x2x2 t_f16_1x2x2", "t_f16_1x2x2",
                             "%z = OpConstantNull %t_f16_1\n",
                             "%r = OpExtInst %t_f16_1x2x2 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&f16, NULL, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_FP16);
   planned_free(&t);
   struct dg_plan_caps fp16 = default_caps;
   fp16.fp16_arith = true;
   if (plan_case(&f16, &fp16, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_FP16_FP16ARITH);
   planned_free(&t);
}

/* One tiled stage of `tiles` 256-invocation workgroups with `inputs` inputs. */
static void
check_tiled_stage(const struct dg_stage_plan *p, uint32_t kernel, uint32_t inputs, uint32_t tiles)
{
   check_eq_u64(p->stage_count, 1);
   if (p->stage_count != 1)
      return;
   const struct dg_plan_stage *s = &p->stages[0];
   check_eq_u64(s->kernel, kernel);
   check_eq_u64(s->tensor_count, inputs + 1);
   check_eq_u64(s->write_mask, 1u << inputs);
   check_eq_u64(s->local_size, 256);
   check_eq_u64(s->work, (uint64_t)tiles * 256);
   check_eq_u64(s->groups[0], tiles);
}

/* The TILED variants (D44): the tile by output width, device type and workgroup count; the
 * row's kernel in the reference mode, below the device's workgroup limits, for outputs under
 * 32 columns and for CONV2D weights that are no constant; the weights arranged [KH,KW,IC,OC]
 * from the application's strided layout. */
static void
test_tiled(void)
{
   struct planned t;
   struct dg_plan_caps cpu = default_caps;
   cpu.max_workgroup_invocations = 1024;
   cpu.max_shared_memory = 32768;
   cpu.cpu_device = true;
   struct dg_plan_caps gpu = cpu;
   gpu.cpu_device = false;
   const struct dcase mm = {"plan matmul tiled", "t_f32_2x128x40 t_f32_2x40x96", "t_f32_2x128x96",
                            "%z = OpConstantNull %t_f32_1\n",
                            "%r = OpExtInst %t_f32_2x128x96 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&mm, &cpu, &t)) {
      /* A CPU of unknown threads: the 128x128 tile (96 columns), one per batch. */
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_TILED_WIDE_FP32, 2, 2);
   }
   planned_free(&t);
   /* A CPU of 2 threads: 2 wide tiles are enough; of 4: the narrow (4 tiles); of 8: the 64x64
    * one (D61; K = 40 has 2 steps of 16: no split). */
   const struct {
      uint32_t threads, kernel, groups;
   } by_threads[] = {{2, DG_KERNEL_TOSA_MATMUL_TILED_WIDE_FP32, 2},
                     {4, DG_KERNEL_TOSA_MATMUL_TILED_FP32, 4},
                     {8, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP32, 8}};
   for (uint32_t i = 0; i < sizeof(by_threads) / sizeof(by_threads[0]); i++) {
      struct dg_plan_caps threads = cpu;
      threads.cpu_threads = by_threads[i].threads;
      if (plan_case(&mm, &threads, &t))
         check_tiled_stage(t.p, by_threads[i].kernel, 2, by_threads[i].groups);
      planned_free(&t);
   }
   /* A GPU: 2 wide tiles, 4 narrow ones, so the 64x64 tile (2 x 2 x 2). */
   if (plan_case(&mm, &gpu, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP32, 2, 8);
   planned_free(&t);
   struct dg_plan_caps caps = cpu;
   caps.kernels = DG_KERNELS_FAST_GPU;
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP32);
   planned_free(&t);
   caps = gpu;
   caps.kernels = DG_KERNELS_FAST_CPU;
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_WIDE_FP32);
   planned_free(&t);
   caps.kernels = DG_KERNELS_REFERENCE;
   if (plan_case(&mm, &caps, &t))
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MATMUL_FP32, 2, 2 * 128 * 96);
   planned_free(&t);
   caps = cpu;
   caps.max_workgroup_invocations = 128; /* Vulkan's minimum */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_FP32);
   planned_free(&t);
   caps = cpu;
   caps.max_shared_memory = 8192; /* below the wide tile's 8320 bytes */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_FP32);
   planned_free(&t);
   const struct dcase narrow = {"plan matmul narrow", "t_i8_1x200x8 t_i8_1x8x64", "t_i32_1x200x64",
                                "%z = OpConstantNull %t_i8_1\n",
                                "%r = OpExtInst %t_i32_1x200x64 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&narrow, &cpu, &t)) /* 128x64 tiles: 2 */
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_TILED_I8_I32, 2, 2);
   planned_free(&t);
   const struct dcase thin = {"plan matmul thin", "t_f32_1x64x8 t_f32_1x8x16", "t_f32_1x64x16",
                              "%z = OpConstantNull %t_f32_1\n",
                              "%r = OpExtInst %t_f32_1x64x16 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&thin, &cpu, &t)) /* 16 columns: the reference kernel */
      check_single_io_stage(t.p, DG_KERNEL_TOSA_MATMUL_FP32, 2, 64 * 16);
   planned_free(&t);

   /* CONV2D with strided i8 weights [64,3,3,4]: arranged into a packed build constant. */
   const struct dcase conv = {
       "plan conv2d tiled", "t_i8_1x8x8x4", "t_i32_1x6x6x64",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_64x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_64 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x64 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias "
       "%izp %wzp\n",
       .mutate = M_GC_STRIDED};
   if (plan_case(&conv, &cpu, &t)) {
      /* 36 rows, 64 columns: one 128x64 tile. */
      check_tiled_stage(t.p, DG_KERNEL_TOSA_CONV2D_TILED_I8_I32_ACC_I32, 3, 1);
      const struct dg_plan_tensor *w = stage_tensor(t.p, 0, 1);
      check_eq_u64(w->kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(w->ir, DG_PLAN_NONE);
      const uint32_t dims[] = {3, 3, 4, 64}, strides[] = {768, 256, 64, 1};
      check_shape(t.p, 0, 1, 4, dims, strides);
      const struct dg_plan_constant *c = &t.p->constants[w->index];
      check_eq_u64(c->size, 64 * 36);
      ok(c->desc == NULL && c->owned, "the arranged weights are the plan's, packed");
      /* The harness's strided constant: element e (row-major [oc][ky][kx][ic]) holds e + 1. */
      const uint8_t *d = c->data;
      uint32_t bad = 0;
      for (uint32_t k = 0; k < 36; k++)
         for (uint32_t oc = 0; oc < 64; oc++)
            bad += d[k * 64 + oc] != (uint8_t)(oc * 36 + k + 1);
      check_eq_u64(bad, 0);
   }
   planned_free(&t);
   /* The same weights as a graph input: the reference kernel. */
   const struct dcase conv_in = {
       "plan conv2d input weights", "t_i8_1x8x8x4 t_i8_64x3x3x4", "t_i32_1x6x6x64",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%bias = OpGraphConstantARM %t_i32_64 0\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x64 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %in1 %bias "
       "%izp %wzp\n"};
   if (plan_case(&conv_in, &cpu, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_I8_I32_ACC_I32);
   planned_free(&t);
}

/* The SUBGROUP variants (D55): on a CPU device with 8-lane subgroups, CONV2D i8 and fp32 rows of
 * 32 output channels or more take them (16-invocation workgroups over 128 x 64 tiles); the tiled
 * kernel without the subgroups, on a GPU, in the fast-gpu mode, with fusion on and for rows that
 * have no SUBGROUP variant; the row's kernel in the reference mode and under 32 channels. */
static void
check_subgroup_stage(const struct dg_stage_plan *p, uint32_t kernel, uint32_t tiles,
                     uint32_t tensors)
{
   check_eq_u64(p->stage_count, 1);
   if (p->stage_count != 1)
      return;
   const struct dg_plan_stage *s = &p->stages[0];
   check_eq_u64(s->kernel, kernel);
   check_eq_u64(s->tensor_count, tensors);
   check_eq_u64(s->local_size, DG_SG_LOCAL);
   check_eq_u64(s->work, (uint64_t)tiles * DG_SG_LOCAL);
   check_eq_u64(s->groups[0], tiles);
}

static void
test_subgroup(void)
{
   struct planned t;
   struct dg_plan_caps cpu = default_caps;
   cpu.max_workgroup_invocations = 1024;
   cpu.max_shared_memory = 32768;
   cpu.cpu_device = true;
   cpu.subgroup8 = true;
   const struct dcase i8 = {
       "plan conv2d subgroup i8", "t_i8_1x8x8x4", "t_i32_1x6x6x64",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_64x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_64 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x64 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias "
       "%izp %wzp\n"};
   if (plan_case(&i8, &cpu, &t)) /* 36 rows, 64 columns: one tile */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_CONV2D_SUBGROUP_I8_I32_ACC_I32, 1, 4);
   planned_free(&t);
   const struct dcase f32 = {
       "plan conv2d subgroup fp32", "t_f32_2x18x10x8", "t_f32_2x16x8x100",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_100x3x3x8 0\n%bias = OpGraphConstantARM %t_f32_100 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_2x16x8x100 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f32, &cpu, &t)) /* 256 rows x 100 columns: 2 x 2 tiles */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_CONV2D_SUBGROUP_FP32_ACC_FP32, 4, 4);
   planned_free(&t);
   /* Narrow outputs (D62): 2 channels take it (one column tile), 1 keeps the reference kernel;
    * on a GPU under 32 channels the reference kernel too. */
   const struct dcase f32_oc2 = {
       "plan conv2d subgroup fp32 oc2", "t_f32_2x18x10x8", "t_f32_2x16x8x2",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_2x3x3x8 0\n%bias = OpGraphConstantARM %t_f32_2 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_2x16x8x2 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f32_oc2, &cpu, &t)) /* 256 rows x 2 columns: 2 x 1 tiles */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_CONV2D_SUBGROUP_FP32_ACC_FP32, 2, 4);
   planned_free(&t);
   struct dg_plan_caps gpu8 = cpu;
   gpu8.cpu_device = false;
   if (plan_case(&f32_oc2, &gpu8, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_FP32_ACC_FP32);
   planned_free(&t);
   const struct dcase f32_oc1 = {
       "plan conv2d subgroup fp32 oc1", "t_f32_2x18x10x8", "t_f32_2x16x8x1",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_1x3x3x8 0\n%bias = OpGraphConstantARM %t_f32_1 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_2x16x8x1 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f32_oc1, &cpu, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_FP32_ACC_FP32);
   planned_free(&t);
   struct dg_plan_caps caps = cpu;
   caps.subgroup8 = false;
   if (plan_case(&i8, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_TILED_I8_I32_ACC_I32);
   planned_free(&t);
   caps = cpu;
   caps.cpu_device = false; /* a GPU with 8-lane subgroups keeps the tiled kernels */
   if (plan_case(&i8, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_TILED_SMALL_I8_I32_ACC_I32);
   planned_free(&t);
   caps = cpu;
   caps.kernels = DG_KERNELS_FAST_GPU;
   if (plan_case(&i8, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_TILED_SMALL_I8_I32_ACC_I32);
   planned_free(&t);
   caps = cpu;
   caps.fusion = DG_FUSION_ON;
   if (plan_case(&i8, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_TILED_I8_I32_ACC_I32);
   planned_free(&t);
   caps = cpu;
   caps.kernels = DG_KERNELS_REFERENCE;
   if (plan_case(&i8, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_I8_I32_ACC_I32);
   planned_free(&t);
   const struct dcase f16 = {
       "plan conv2d subgroup fp16", "t_f16_1x8x8x4", "t_f16_1x6x6x64",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f16_64x3x3x4 0\n%bias = OpGraphConstantARM %t_f16_64 1\n"
       "%zp = OpConstantNull %t_f16_1\n",
       "%r = OpExtInst %t_f16_1x6x6x64 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%zp %zp\n"};
   if (plan_case(&f16, &cpu, &t)) /* no SUBGROUP variant for fp16: the tiled kernel */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_TILED_FP16_ACC_FP32);
   planned_free(&t);
   const struct dcase thin = {
       "plan conv2d subgroup thin", "t_i8_1x8x8x4", "t_i32_1x6x6x16",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_16x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_16 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x16 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias "
       "%izp %wzp\n"};
   if (plan_case(&thin, &cpu, &t)) /* 16 channels: SUBGROUP too since D62 (one tile) */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_CONV2D_SUBGROUP_I8_I32_ACC_I32, 1, 4);
   planned_free(&t);
   /* MATMUL (D63): i8 and fp32 rows, a tile per 128 rows x 64 columns and batch; the tiled
    * kernels on a GPU, with fusion on, under a forced split-K */
   const struct dcase mm = {"plan matmul subgroup", "t_f32_2x200x40 t_f32_2x40x96",
                            "t_f32_2x200x96", "%z = OpConstantNull %t_f32_1\n",
                            "%r = OpExtInst %t_f32_2x200x96 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&mm, &cpu, &t)) /* 2 batches x 2 x 2 tiles */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_MATMUL_SUBGROUP_FP32, 8, 3);
   planned_free(&t);
   const struct dcase mm_i8 = {"plan matmul subgroup i8", "t_i8_1x9x4 t_i8_1x4x2", "t_i32_1x9x2",
                               "%z = OpConstantNull %t_i8_1\n",
                               "%r = OpExtInst %t_i32_1x9x2 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&mm_i8, &cpu, &t)) /* 2 columns */
      check_subgroup_stage(t.p, DG_KERNEL_TOSA_MATMUL_SUBGROUP_I8_I32, 1, 3);
   planned_free(&t);
   const struct {
      bool cpu_device;
      uint8_t fusion;
      uint32_t split_k;
   } not_sg[] = {{false, DG_FUSION_OFF, 0}, {true, DG_FUSION_ON, 0}, {true, DG_FUSION_OFF, 3}};
   for (uint32_t i = 0; i < sizeof(not_sg) / sizeof(not_sg[0]); i++) {
      caps = cpu;
      caps.cpu_device = not_sg[i].cpu_device;
      caps.fusion = not_sg[i].fusion;
      caps.split_k = not_sg[i].split_k;
      if (plan_case(&mm, &caps, &t))
         ok(t.p->stages[0].kernel != DG_KERNEL_TOSA_MATMUL_SUBGROUP_FP32,
            "case %u: not the SUBGROUP kernel", i);
      planned_free(&t);
   }
   caps = cpu;
   caps.subgroup8 = false; /* without subgroups, under 32 channels: the reference kernel */
   if (plan_case(&thin, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_CONV2D_I8_I32_ACC_I32);
   planned_free(&t);
}

/* The ROW_BLOCK DEPTHWISE_CONV2D (D64): on a CPU device, channel multiplier 1, channels a
 * multiple of 4 and a window of (DG_DW_TX - 1) * stride_x + (KW - 1) * dilation_x + 1 <=
 * DG_DW_WMAX pixels: N * OH * ceil(OW / DG_DW_TX) * C / 4 work items (the fp16-arithmetic form
 * where the device has it); the row's kernel otherwise, on a GPU and in the reference mode. */
static void
test_depthwise_row_block(void)
{
   struct planned t;
   struct dg_plan_caps cpu = default_caps;
   cpu.cpu_device = true;
   const struct dcase f32 = {
       "plan depthwise rows fp32", "t_f32_2x9x13x8", "t_f32_2x9x13x8",
       "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"
       "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_3x3x8x1 0\n%bias = OpGraphConstantARM %t_f32_8 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_2x9x13x8 %tosa DEPTHWISE_CONV2D %pad %one %one %i32_3 %false %in0 "
       "%w %bias %zp %zp\n"};
   if (plan_case(&f32, &cpu, &t)) {
      const struct dg_plan_stage *s = &t.p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_DEPTHWISE_CONV2D_ROWS_FP32_ACC_FP32);
      check_eq_u64(s->tensor_count, 4);
      check_eq_u64(s->work, 2 * 9 * ((13 + DG_DW_TX - 1) / DG_DW_TX) * (8 / 4));
      check_eq_u64(s->attr_words, 12);
   }
   planned_free(&t);
   struct dg_plan_caps caps = cpu;
   caps.cpu_device = false;
   if (plan_case(&f32, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_DEPTHWISE_CONV2D_FP32_ACC_FP32);
   planned_free(&t);
   caps = cpu;
   caps.kernels = DG_KERNELS_REFERENCE;
   if (plan_case(&f32, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_DEPTHWISE_CONV2D_FP32_ACC_FP32);
   planned_free(&t);
   const struct dcase f16 = {
       "plan depthwise rows fp16", "t_f16_1x6x6x4", "t_f16_1x6x6x4",
       "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"
       "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f16_3x3x4x1 0\n%bias = OpGraphConstantARM %t_f16_4 1\n"
       "%zp = OpConstantNull %t_f16_1\n",
       "%r = OpExtInst %t_f16_1x6x6x4 %tosa DEPTHWISE_CONV2D %pad %one %one %i32_2 %false %in0 "
       "%w %bias %zp %zp\n"};
   caps = cpu;
   caps.fp16_arith = true;
   if (plan_case(&f16, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel,
                   DG_KERNEL_TOSA_DEPTHWISE_CONV2D_ROWS_FP16_ACC_FP16_FP16ARITH);
   planned_free(&t);
   /* 6 channels; M = 2; a window of 7 * 3 + 2 + 1 = 24 pixels (stride_x 3): the row's kernel */
   const struct dcase c6 = {
       "plan depthwise rows c6", "t_f32_1x6x6x6", "t_f32_1x6x6x6",
       "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"
       "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_3x3x6x1 0\n%bias = OpGraphConstantARM %t_f32_6 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_1x6x6x6 %tosa DEPTHWISE_CONV2D %pad %one %one %i32_3 %false %in0 "
       "%w %bias %zp %zp\n"};
   const struct dcase m2 = {
       "plan depthwise rows m2", "t_f32_1x6x6x4", "t_f32_1x6x6x8",
       "%pad = OpConstantCompositeReplicateEXT %t_i32_4 %i32_1\n"
       "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f32_3x3x4x2 0\n%bias = OpGraphConstantARM %t_f32_8 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_1x6x6x8 %tosa DEPTHWISE_CONV2D %pad %one %one %i32_3 %false %in0 "
       "%w %bias %zp %zp\n"};
   const struct dcase wide = {
       "plan depthwise rows stride 3", "t_f32_1x6x13x4", "t_f32_1x6x5x4",
       "%pad = OpConstantComposite %t_i32_4 %i32_1 %i32_1 %i32_0 %i32_2\n"
       "%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%stride = OpConstantComposite %t_i32_2 %i32_1 %i32_3\n"
       "%w = OpGraphConstantARM %t_f32_3x3x4x1 0\n%bias = OpGraphConstantARM %t_f32_4 1\n"
       "%zp = OpConstantNull %t_f32_1\n",
       "%r = OpExtInst %t_f32_1x6x5x4 %tosa DEPTHWISE_CONV2D %pad %stride %one %i32_3 %false "
       "%in0 %w %bias %zp %zp\n"};
   const struct dcase *row_kernel[] = {&c6, &m2, &wide};
   for (uint32_t i = 0; i < sizeof(row_kernel) / sizeof(row_kernel[0]); i++) {
      if (plan_case(row_kernel[i], &cpu, &t))
         check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_DEPTHWISE_CONV2D_FP32_ACC_FP32);
      planned_free(&t);
   }
}

/* The COOP variants (D51): fp16 only when forced, i8 from GPU_MIN_TILES tiles (measured on
 * the H200); taken where the device lists their shape (KHR before NV, 16x8
 * before 16x16), for fp16/fp8 and zero-point-free i8 rows; the tiled kernel for others (fp32,
 * i8 with zero points) and where no shape or too little shared memory; forced kinds under
 * VMEL_GRAPH_KERNELS=coop-nv / coop-khr on any width; none in the reference mode. */
static void
test_coop(void)
{
   struct planned t;
   struct dg_plan_caps gpu = default_caps;
   gpu.max_workgroup_invocations = 1024;
   gpu.max_shared_memory = 49152;
   gpu.fp16_arith = true;
   gpu.coop = DG_COOP_NV_F16 | DG_COOP_NV_I8 | DG_COOP_KHR_F16 | DG_COOP_KHR_I8 |
              DG_COOP_KHR_SQUARE_F16 | DG_COOP_KHR_SQUARE_I8;
   const struct dcase mm = {"plan matmul coop", "t_f16_2x200x40 t_f16_2x40x96", "t_f32_2x200x96",
                            "%z = OpConstantNull %t_f16_1\n",
                            "%r = OpExtInst %t_f32_2x200x96 %tosa MATMUL %in0 %in1 %z %z\n"};
   /* Unforced, fp16 takes the cooperative matrices wherever listed, KHR first (measured faster
    * than the tiled kernel on the H200 at 512^3 and 4096^3, D58). */
   if (plan_case(&mm, &gpu, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_COOP_KHR_FP16_FP32);
   planned_free(&t);
   struct dg_plan_caps caps = gpu;
   caps.kernels = DG_KERNELS_COOP_KHR;
   /* 2 batches x 2 tile rows x 1 tile column of 128x128 */
   if (plan_case(&mm, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_FP16_FP32, 2, 4);
   planned_free(&t);
   caps.coop = DG_COOP_KHR_SQUARE_F16 | DG_COOP_NV_F16;
   if (plan_case(&mm, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_SQUARE_FP16_FP32, 2, 4);
   planned_free(&t);
   /* coop-khr-square: the square kind although 16x8 is listed too (the H200's list), on any
    * width; the tiled kernel where the square shape is not listed */
   caps = gpu;
   caps.kernels = DG_KERNELS_COOP_KHR_SQUARE;
   if (plan_case(&mm, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_SQUARE_FP16_FP32, 2, 4);
   planned_free(&t);
   caps.coop = DG_COOP_KHR_F16 | DG_COOP_NV_F16;
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP16_FP32);
   planned_free(&t);
   caps.coop = DG_COOP_NV_F16;
   caps.kernels = DG_KERNELS_COOP_NV;
   if (plan_case(&mm, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_NV_FP16_FP32, 2, 4);
   planned_free(&t);
   caps = gpu;
   caps.kernels = DG_KERNELS_COOP_NV; /* forced: NV although KHR is listed */
   if (plan_case(&mm, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_NV_FP16_FP32, 2, 4);
   planned_free(&t);
   caps.coop = DG_COOP_KHR_F16; /* forced NV, none listed: the tiled kernel */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP16_FP32);
   planned_free(&t);
   caps = gpu;
   caps.coop = DG_COOP_KHR_I8 | DG_COOP_NV_I8; /* the i8 shapes only */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP16_FP32);
   planned_free(&t);
   caps = gpu;
   caps.max_shared_memory = 16384; /* below the fp16 tile's 23,040 bytes, above the tiled one's */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP16_FP32);
   planned_free(&t);
   caps = gpu;
   caps.kernels = DG_KERNELS_REFERENCE;
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_FP16_FP32);
   planned_free(&t);
   const struct dcase f32 = {"plan matmul fp32 no coop", "t_f32_1x128x64 t_f32_1x64x128",
                             "t_f32_1x128x128", "%z = OpConstantNull %t_f32_1\n",
                             "%r = OpExtInst %t_f32_1x128x128 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&f32, &gpu, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP32);
   planned_free(&t);
   /* bf16 (D60): the KHR square kind's bf16 fragments where listed, whatever else is; the
    * tiled kernel where not listed or NV is forced (NV has no bf16 fragments). */
   const struct dcase bf = {"plan matmul bf16 coop", "t_bf16_2x200x40 t_bf16_2x40x96",
                            "t_f32_2x200x96", "%z = OpConstantNull %t_bf16_1\n",
                            "%r = OpExtInst %t_f32_2x200x96 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&bf, &gpu, &t)) /* fp16 and i8 shapes only */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_BF16_FP32);
   planned_free(&t);
   caps = gpu;
   caps.coop |= DG_COOP_KHR_SQUARE_BF16;
   if (plan_case(&bf, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_SQUARE_BF16_FP32, 2, 4);
   planned_free(&t);
   caps.kernels = DG_KERNELS_COOP_NV;
   if (plan_case(&bf, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_BF16_FP32);
   planned_free(&t);
   caps = gpu;
   caps.coop = DG_COOP_KHR_SQUARE_BF16; /* the fp16 rows do not take the bf16 shape */
   if (plan_case(&mm, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_FP16_FP32);
   planned_free(&t);
   const struct dcase i8 = {"plan matmul i8 coop", "t_i8_1x64x100 t_i8_1x100x16", "t_i32_1x64x16",
                            "%z = OpConstantNull %t_i8_1\n",
                            "%r = OpExtInst %t_i32_1x64x16 %tosa MATMUL %in0 %in1 %z %z\n"};
   caps = gpu;
   caps.kernels = DG_KERNELS_COOP_KHR; /* forced: 16 columns take it too */
   if (plan_case(&i8, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_I8_I32, 2, 1);
   planned_free(&t);
   caps.kernels = DG_KERNELS_COOP_KHR_SQUARE;
   if (plan_case(&i8, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_COOP_KHR_SQUARE_I8_I32, 2, 1);
   planned_free(&t);
   caps.kernels = DG_KERNELS_COOP_KHR;
   if (plan_case(&i8, &gpu, &t)) /* unforced, 16 columns: the reference kernel */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_I8_I32);
   planned_free(&t);
   /* K = 60: 2 integer-dot steps, too few to split (D65) */
   const struct dcase i8zp = {"plan matmul i8 zero points", "t_i8_1x64x60 t_i8_1x60x64",
                              "t_i32_1x64x64",
                              "%z = OpConstantNull %t_i8_1\n"
                              "%zp = OpConstantComposite %t_i8_1 %i8_3\n",
                              "%r = OpExtInst %t_i32_1x64x64 %tosa MATMUL %in0 %in1 %zp %z\n"};
   if (plan_case(&i8zp, &caps, &t)) /* a zero point: the tiled kernel */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_SMALL_I8_I32);
   planned_free(&t);
   const struct dcase conv = {
       "plan conv2d coop", "t_f16_1x8x8x4", "t_f16_1x6x6x64",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_f16_64x3x3x4 0\n%bias = OpGraphConstantARM %t_f16_64 1\n"
       "%z = OpConstantNull %t_f16_1\n",
       "%r = OpExtInst %t_f16_1x6x6x64 %tosa CONV2D %pad %one %one %i32_3 %false %in0 %w %bias "
       "%z %z\n"}; /* acc_type 3: fp32 */
   caps = gpu;
   caps.kernels = DG_KERNELS_COOP_KHR; /* fp16 takes cooperative matrices only when forced */
   if (plan_case(&conv, &caps, &t)) {
      check_tiled_stage(t.p, DG_KERNEL_TOSA_CONV2D_COOP_KHR_FP16_ACC_FP32, 3, 1);
      check_eq_u64(stage_tensor(t.p, 0, 1)->kind, DG_PLAN_TENSOR_CONSTANT); /* arranged */
   }
   planned_free(&t);
   caps.kernels = DG_KERNELS_COOP_KHR_SQUARE;
   if (plan_case(&conv, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_CONV2D_COOP_KHR_SQUARE_FP16_ACC_FP32, 3, 1);
   planned_free(&t);

   /* INT_DOT (D51): i8 rows with zero points on a GPU with integer dot products (64x64 tiles);
    * cooperative matrices first where the zero points are 0; a CPU device only when forced. */
   caps = gpu;
   caps.int_dot = true;
   if (plan_case(&i8zp, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_INT_DOT_I8_I32, 2, 1);
   planned_free(&t);
   const struct dcase i8wide = {"plan matmul i8 no zero points", "t_i8_1x64x60 t_i8_1x60x64",
                                "t_i32_1x64x64", "%z = OpConstantNull %t_i8_1\n",
                                "%r = OpExtInst %t_i32_1x64x64 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&i8wide, &caps, &t)) /* one tile: cooperative matrices too (D58) */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_COOP_KHR_I8_I32);
   planned_free(&t);
   const struct dcase i8big = {"plan matmul i8 coop large", "t_i8_1x4096x64 t_i8_1x64x2048",
                               "t_i32_1x4096x2048", "%z = OpConstantNull %t_i8_1\n",
                               "%r = OpExtInst %t_i32_1x4096x2048 %tosa MATMUL %in0 %in1 %z %z\n"};
   if (plan_case(&i8big, &caps, &t)) /* 32 x 16 tiles of 128x128: cooperative matrices */
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_COOP_KHR_I8_I32);
   planned_free(&t);
   caps.coop = 0;
   if (plan_case(&i8wide, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_INT_DOT_I8_I32, 2, 1);
   planned_free(&t);
   caps.cpu_device = true; /* lavapipe: the tiled kernel, unless VMEL_GRAPH_KERNELS=int-dot */
   if (plan_case(&i8zp, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_I8_I32);
   planned_free(&t);
   caps.kernels = DG_KERNELS_INT_DOT;
   if (plan_case(&i8zp, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_MATMUL_INT_DOT_I8_I32, 2, 1);
   planned_free(&t);
   caps.int_dot = false; /* forced, but the device has none: the tiled kernel */
   if (plan_case(&i8zp, &caps, &t))
      check_eq_u64(t.p->stages[0].kernel, DG_KERNEL_TOSA_MATMUL_TILED_I8_I32);
   planned_free(&t);
   const struct dcase iconv = {
       "plan conv2d int dot", "t_i8_1x8x8x4", "t_i32_1x6x6x8",
       "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
       "%w = OpGraphConstantARM %t_i8_8x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_8 1\n"
       "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
       "%r = OpExtInst %t_i32_1x6x6x8 %tosa CONV2D %pad %one %one %i32_1 %false %in0 %w %bias "
       "%izp %wzp\n"};
   caps.int_dot = true; /* forced on a CPU: 8 channels take it too */
   if (plan_case(&iconv, &caps, &t))
      check_tiled_stage(t.p, DG_KERNEL_TOSA_CONV2D_INT_DOT_I8_I32_ACC_I32, 3, 1);
   planned_free(&t);
}

static void
test_rescale(void)
{
   struct planned t;
   const struct dcase pc = {
       "plan rescale i32 to i8 per channel", "t_i32_1x2x4", "t_i8_1x2x4",
       "%m = OpGraphConstantARM %t_i32_4 0\n%s = OpGraphConstantARM %t_i8_4 1\n"
       "%izp = OpConstantNull %t_i32_1\n%ozp = OpConstantComposite %t_i8_1 %i8_m5\n",
       "%r = OpExtInst %t_i8_1x2x4 %tosa RESCALE %true %i32_3 %true %false %false %in0 %m %s "
       "%izp %ozp\n",
       .fill = "0=1073741824 1=30"};
   if (plan_case(&pc, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 1);
      const struct dg_plan_stage *s = &p->stages[0];
      check_eq_u64(s->kernel, DG_KERNEL_TOSA_RESCALE_I32_I8);
      check_eq_u64(s->tensor_count, DG_RESCALE_TENSORS);
      check_eq_u64(s->write_mask, 1u << DG_RESCALE_OUTPUT);
      check_eq_u64(s->work, 8);
      const struct dg_attrs_rescale *a = (const struct dg_attrs_rescale *)s->attrs;
      check_eq_i64(a->output_zp, -5);
      ok(a->scale32 && a->per_channel, "attributes");
      ok(memcmp(s->attrs, &t.g->nodes[0].attrs.rescale, sizeof(*a)) == 0, "the node's attributes");
      /* The multipliers and shifts: two constants the build added, NC elements each. */
      const struct dg_plan_tensor *m = stage_tensor(p, 0, DG_RESCALE_MULTIPLIER);
      const struct dg_plan_tensor *sh = stage_tensor(p, 0, DG_RESCALE_SHIFT);
      check_eq_u64(p->constant_count, 2);
      check_eq_u64(m->kind, DG_PLAN_TENSOR_CONSTANT);
      check_eq_u64(m->ir, DG_PLAN_NONE);
      check_eq_u64(m->ty.type, DG_TYPE_I32);
      check_eq_u64(m->ty.shape.rank, 1);
      check_eq_u64(m->ty.shape.dim[0], 4);
      check_eq_u64(sh->ty.type, DG_TYPE_I8);
      check_eq_u64(sh->ty.shape.dim[0], 4);
      const struct dg_plan_constant *cm = &p->constants[m->index], *cs = &p->constants[sh->index];
      ok(cm->owned && cs->owned && !cm->desc, "build constants own their data");
      check_eq_u64(cm->size, 16);
      check_eq_u64(cs->size, 4);
      check_eq_i64(((const int32_t *)cm->data)[3], 1 << 30);
      check_eq_i64(((const int8_t *)cs->data)[2], 30);
      check_internal_slot(p, &s->slots[DG_RESCALE_MULTIPLIER], 0);
      check_internal_slot(p, &s->slots[DG_RESCALE_SHIFT], 1);
      const uint32_t d4[] = {4}, s32[] = {4}, s8[] = {1};
      check_shape(p, 0, DG_RESCALE_MULTIPLIER, 1, d4, s32);
      check_shape(p, 0, DG_RESCALE_SHIFT, 1, d4, s8);
   }
   planned_free(&t);
}

/* ---- a graph of several operators ---------------------------------------------------- */

/* in0 -> CLAMP c1 -> CLAMP c2 -> ADD(c2, c1) a -> CLAMP d -> CLAMP r (output 0), with
 * the input itself as output 1 and a graph constant as output 2. */
static const struct dcase residual = {
    "plan residual chain", "t_f32_1x8", "t_f32_1x8 t_f32_1x8 t_f32_1x8",
    "%k = OpGraphConstantARM %t_f32_1x8 0\n",
    "%c1 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_2 %i32_1 %in0\n"
    "%c2 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %c1\n"
    "%a = OpExtInst %t_f32_1x8 %tosa ADD %c2 %c1\n"
    "%d = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %a\n"
    "%r = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %d\n",
    "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %in0 %i32_1\n"
    "OpGraphSetOutputARM %k %i32_2\n"};

/* Two independent branches of two stages each, joined: in0 -> a1 -> a2, in0 -> b1 -> b2,
 * ADD(a2, b2). */
static const struct dcase branches = {
    "plan two branches", "t_f32_1x8", "t_f32_1x8", NULL,
    "%a1 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_2 %i32_1 %in0\n"
    "%a2 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %a1\n"
    "%b1 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
    "%b2 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_2 %i32_1 %b1\n"
    "%r = OpExtInst %t_f32_1x8 %tosa ADD %a2 %b2\n"};

/* The caller's reason for test_barriers: b1 (stage 2) must follow a2 (stage 1), as when the
 * memory plan gives b1's output a2's input's bytes. */
static bool
b1_follows_a2(uint32_t j, uint32_t i, void *user)
{
   (void)user;
   return j == 2 && i == 1;
}

/* D46: the session records independent branches level by level, one barrier per level. */
static void
test_barriers(void)
{
   struct planned t;
   if (!plan_case(&branches, NULL, &t) || t.p->stage_count != 5) {
      ok(!t.p || t.p->stage_count == 5, "5 stages, got %u", t.p ? t.p->stage_count : 0);
      planned_free(&t);
      return;
   }
   const struct dg_stage_plan *p = t.p;
   ok(dg_plan_stage_depends(p, 1, 0) && dg_plan_stage_depends(p, 3, 2), "each branch in order");
   ok(!dg_plan_stage_depends(p, 2, 1) && !dg_plan_stage_depends(p, 2, 0) &&
          !dg_plan_stage_depends(p, 3, 1),
      "the branches are independent");
   uint32_t level[5], order[5];
   bool barrier[5];
   /* plan order: a barrier before a2, b2 and the join */
   check_eq_u64(dg_plan_barriers(p, false, NULL, NULL, level, order, barrier), 3);
   static const bool plan_barriers[5] = {false, true, false, true, true};
   for (uint32_t k = 0; k < 5; k++) {
      check_eq_u64(order[k], k);
      check_eq_u64(barrier[k], plan_barriers[k]);
   }
   /* by level: a1 b1 | a2 b2 | join, two barriers */
   check_eq_u64(dg_plan_barriers(p, true, NULL, NULL, level, order, barrier), 2);
   static const uint32_t level_order[5] = {0, 2, 1, 3, 4};
   static const bool level_barriers[5] = {false, false, true, false, true};
   for (uint32_t k = 0; k < 5; k++) {
      check_eq_u64(order[k], level_order[k]);
      check_eq_u64(barrier[k], level_barriers[k]);
   }
   /* a reason of the caller's (memory reuse) orders b1 after a2: a1 | a2 | b1 | b2 | join */
   check_eq_u64(dg_plan_barriers(p, true, b1_follows_a2, NULL, level, order, barrier), 4);
   for (uint32_t k = 0; k < 5; k++) {
      check_eq_u64(order[k], k);
      check_eq_u64(barrier[k], k > 0);
   }
   /* a stage never runs before one it must follow, with a barrier between them */
   check_eq_u64(dg_plan_barriers(p, true, NULL, NULL, level, order, barrier), 2);
   for (uint32_t k = 0; k < 5; k++)
      for (uint32_t m = k + 1; m < 5; m++) {
         bool between = false;
         for (uint32_t x = k + 1; x <= m; x++)
            between |= barrier[x];
         ok(!dg_plan_stage_depends(p, order[k], order[m]),
            "stage %u recorded before stage %u it depends on", order[k], order[m]);
         ok(!dg_plan_stage_depends(p, order[m], order[k]) || between,
            "a barrier between stage %u and stage %u, which depends on it", order[k], order[m]);
      }
   planned_free(&t);
}

/* One producer read by two consumers in a row: in0 -> c, c -> u, c -> v, ADD(u, v). Each
 * consumer depends on the producer (the second one's dependency was once lost because the
 * plan's dependency array ended with the same stage for the first consumer). */
static const struct dcase fan_out = {
    "plan fan-out", "t_f32_1x8", "t_f32_1x8", NULL,
    "%c = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_2 %i32_1 %in0\n"
    "%u = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %c\n"
    "%v = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_1 %i32_1 %c\n"
    "%r = OpExtInst %t_f32_1x8 %tosa ADD %u %v\n"};

static void
test_fan_out(void)
{
   struct planned t;
   if (!plan_case(&fan_out, NULL, &t) || t.p->stage_count != 4) {
      ok(!t.p || t.p->stage_count == 4, "4 stages, got %u", t.p ? t.p->stage_count : 0);
      planned_free(&t);
      return;
   }
   const struct dg_stage_plan *p = t.p;
   ok(dg_plan_stage_depends(p, 1, 0), "the first consumer follows the producer");
   ok(dg_plan_stage_depends(p, 2, 0), "the second consumer follows the producer");
   ok(!dg_plan_stage_depends(p, 2, 1), "the consumers are independent");
   uint32_t level[4], order[4];
   bool barrier[4];
   /* by level: c | u v | r */
   check_eq_u64(dg_plan_barriers(p, true, NULL, NULL, level, order, barrier), 2);
   check_eq_u64(level[1], 1);
   check_eq_u64(level[2], 1);
   check_eq_u64(level[3], 2);
   planned_free(&t);
}

static void
test_residual(void)
{
   struct planned t;
   if (!plan_case(&residual, NULL, &t)) {
      planned_free(&t);
      return;
   }
   const struct dg_stage_plan *p = t.p;
   static const uint32_t kernels[] = {DG_KERNEL_TOSA_CLAMP_FP32, DG_KERNEL_TOSA_CLAMP_FP32,
                                      DG_KERNEL_TOSA_ADD_FP32,   DG_KERNEL_TOSA_CLAMP_FP32,
                                      DG_KERNEL_TOSA_CLAMP_FP32, DG_KERNEL_TOSA_COPY_U32,
                                      DG_KERNEL_TOSA_COPY_U32};
   check_eq_u64(p->stage_count, 7);
   for (uint32_t i = 0; i < 7 && i < p->stage_count; i++) {
      check_eq_u64(p->stages[i].kernel, kernels[i]);
      check_eq_u64(p->stages[i].first_node, i < 5 ? i : DG_PLAN_NONE);
      check_eq_u64(p->stages[i].node_count, i < 5 ? 1 : 0);
   }
   if (p->stage_count != 7) {
      planned_free(&t);
      return;
   }
   /* Tensors: c1, c2, a, d intermediates; r written in place into output 0. */
   uint32_t c1 = p->stages[0].tensors[1], c2 = p->stages[1].tensors[1];
   uint32_t a = p->stages[2].tensors[2], d = p->stages[3].tensors[1];
   check_eq_u64(p->stages[2].tensors[0], c2);
   check_eq_u64(p->stages[2].tensors[1], c1);
   check_eq_u64(p->stages[3].tensors[0], a);
   check_eq_u64(p->stages[4].tensors[0], d);
   check_eq_u64(p->tensors[c1].kind, DG_PLAN_TENSOR_INTERMEDIATE);
   check_eq_u64(p->tensors[a].kind, DG_PLAN_TENSOR_INTERMEDIATE);
   check_eq_u64(stage_tensor(p, 4, 1)->kind, DG_PLAN_TENSOR_OUTPUT);
   check_eq_u64(stage_tensor(p, 4, 1)->io, 0);
   check_eq_u64(p->tensors[c1].first_stage, 0);
   check_eq_u64(p->tensors[c1].last_stage, 2);
   check_eq_u64(p->tensors[c2].first_stage, 1);
   check_eq_u64(p->tensors[c2].last_stage, 2);
   check_eq_u64(p->tensors[a].first_stage, 2);
   check_eq_u64(p->tensors[a].last_stage, 3);
   check_eq_u64(p->tensors[d].first_stage, 3);
   check_eq_u64(p->tensors[d].last_stage, 4);
   check_eq_u64(p->memory_count, 4);
   check_eq_u64(p->bind_point_count, 1);
   /* Output copies: the input into output 1, the constant into output 2. */
   check_eq_u64(stage_tensor(p, 5, 0)->kind, DG_PLAN_TENSOR_INPUT);
   check_eq_u64(stage_tensor(p, 5, 1)->kind, DG_PLAN_TENSOR_OUTPUT);
   check_eq_u64(stage_tensor(p, 5, 1)->io, 1);
   check_eq_u64(stage_tensor(p, 5, 1)->ir, DG_PLAN_NONE);
   check_app_slot(&p->stages[5].slots[1], 1, 1);
   check_eq_u64(stage_tensor(p, 6, 0)->kind, DG_PLAN_TENSOR_CONSTANT);
   check_app_slot(&p->stages[6].slots[1], 1, 2);
   check_internal_slot(p, &p->stages[6].slots[0], 0);
   check_eq_u64(p->stages[6].attrs[0], DG_COPY_RESHAPE);
   check_eq_u64(p->constant_count, 1);
   /* Dependencies: read after write, the residual reads both. */
   static const uint32_t dep_counts[] = {0, 1, 2, 1, 1, 0, 0};
   for (uint32_t i = 0; i < 7; i++)
      check_eq_u64(p->stages[i].dep_count, dep_counts[i]);
   ok(dg_plan_stage_depends(p, 1, 0), "c2 after c1");
   ok(dg_plan_stage_depends(p, 2, 0) && dg_plan_stage_depends(p, 2, 1), "residual add");
   ok(!dg_plan_stage_depends(p, 3, 1) && dg_plan_stage_depends(p, 3, 2), "d after a only");
   ok(dg_plan_stage_depends(p, 4, 3), "r after d");
   /* Internal sets: the add binds three intermediates, each stage its own list. */
   check_eq_u64(p->internal_binding_count, 3);
   check_eq_u64(p->internal_set_count, 6);
   check_internal_slot(p, &p->stages[2].slots[0], 0);
   check_internal_slot(p, &p->stages[2].slots[2], 2);
   check_app_slot(&p->stages[0].slots[0], 0, 0);
   check_internal_slot(p, &p->stages[0].slots[1], 0);
   /* CLAMP c1 -> c2 and CLAMP a -> d: same kernel, bindings and constants, one pipeline;
    * CLAMP in0 -> c1 binds an input (and has other bounds), CLAMP d -> r an application
    * output. */
   check_eq_u64(p->stages[1].pipeline_of, 1);
   check_eq_u64(p->stages[3].pipeline_of, 1);
   check_eq_u64(p->stages[4].pipeline_of, 4);
   check_eq_u64(p->stages[0].pipeline_of, 0);
   check_eq_u64(p->stages[6].pipeline_of, 6);

   /* The memory planner reuses c1 or c2 for d: at most three live at once. */
   VkDeviceSize sizes[4] = {32, 32, 32, 32}, offsets[4], total = 0;
   struct dg_interval iv[4];
   dg_stage_plan_intervals(p, sizes, iv);
   check_eq_u64(dg_plan_lower_bound(iv, 4), 96);
   ok(dg_plan_intervals(iv, 4, 16, offsets, &total) == VK_SUCCESS, "planned");
   check_eq_u64(total, 96);
   uint32_t id = p->tensors[d].index;
   ok(offsets[id] == offsets[p->tensors[c1].index] || offsets[id] == offsets[p->tensors[c2].index],
      "d reuses c1's or c2's memory");
   ok(offsets[p->tensors[a].index] != offsets[p->tensors[c1].index] &&
          offsets[p->tensors[a].index] != offsets[p->tensors[c2].index],
      "a is live with c1 and c2");
   planned_free(&t);
}

/* ---- what later work needs, through a build function of the test's own ---------------- */

/* REDUCE_SUM fp32 [3,5000] axis 1: the innermost axis in two passes (two chunks of 2500 into a
 * scratch [3,2,1] of fp32, then those two), and ARGMAX fp32 [4100,2,2] axis 0: an outer axis
 * (4 columns, ty 64, 5 chunks of 820) into an i32 pair scratch [1,5,8] (kernel_abi/reduce_args.h,
 * graph/ops/reduce.c). */
static void
test_reduce(void)
{
   struct planned t;
   const struct dcase sum = {"plan reduce_sum two passes", "t_f32_3x5000", "t_f32_3x1", NULL,
                             "%r = OpExtInst %t_f32_3x1 %tosa REDUCE_SUM %i32_1 %in0\n"};
   if (plan_case(&sum, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2);
      if (p->stage_count == 2) {
         const struct dg_reduce_args *a0 = (const struct dg_reduce_args *)p->stages[0].attrs;
         const struct dg_reduce_args *a1 = (const struct dg_reduce_args *)p->stages[1].attrs;
         check_eq_u64(p->stages[0].kernel, DG_KERNEL_TOSA_REDUCE_SUM_FP32);
         check_eq_u64(p->stages[0].local_size, DG_REDUCE_WG);
         check_eq_u64(a0->ty, 256);
         check_eq_u64(a0->tx, 1);
         check_eq_u64(a0->chunks, 2);
         check_eq_u64(a0->chunk, 2500);
         check_eq_u64(a0->flags, DG_REDUCE_ROWS | DG_REDUCE_OUT_SCRATCH | DG_REDUCE_OUT_KEEP);
         check_eq_u64(p->stages[0].work, 3 * 2 * DG_REDUCE_WG);
         check_eq_u64(stage_tensor(p, 0, 1)->kind, DG_PLAN_TENSOR_SCRATCH);
         check_eq_u64(stage_tensor(p, 0, 1)->ty.type, DG_TYPE_FP32);
         const uint32_t ds[] = {3, 2, 1}, ss[] = {8, 4, 4};
         check_shape(p, 0, 1, 3, ds, ss);
         check_eq_u64(p->stages[1].tensors[0], p->stages[0].tensors[1]);
         check_eq_u64(a1->axis, 1);
         check_eq_u64(a1->n, 2);
         check_eq_u64(a1->chunks, 1);
         check_eq_u64(a1->flags, DG_REDUCE_ROWS | DG_REDUCE_IN_SCRATCH | DG_REDUCE_OUT_KEEP);
         check_eq_u64(stage_tensor(p, 1, 1)->kind, DG_PLAN_TENSOR_OUTPUT);
         check_eq_u64(p->stages[1].work, DG_REDUCE_WG); /* 3 lanes of 256 in one group */
      }
   }
   planned_free(&t);
   const struct dcase arg = {"plan argmax two passes", "t_f32_4100x2x2", "t_i32_2x2", NULL,
                             "%r = OpExtInst %t_i32_2x2 %tosa ARGMAX %i32_0 %i32_1 %in0\n"};
   if (plan_case(&arg, NULL, &t)) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2);
      if (p->stage_count == 2) {
         const struct dg_reduce_args *a0 = (const struct dg_reduce_args *)p->stages[0].attrs;
         const struct dg_reduce_args *a1 = (const struct dg_reduce_args *)p->stages[1].attrs;
         check_eq_u64(p->stages[0].kernel, DG_KERNEL_TOSA_ARGMAX_FP32);
         check_eq_u64(a0->ty, 64);
         check_eq_u64(a0->tx, 4);
         check_eq_u64(a0->chunks, 5);
         check_eq_u64(a0->chunk, 820);
         check_eq_u64(a0->nan_mode, 1);
         check_eq_u64(stage_tensor(p, 0, 1)->ty.type, DG_TYPE_I32);
         const uint32_t ds[] = {1, 5, 8}, ss[] = {160, 32, 4};
         check_shape(p, 0, 1, 3, ds, ss);
         check_eq_u64(a1->n, 5);
         check_eq_u64(a1->chunks, 1);
         check_eq_u64(a1->out_axis, 0);
         check_eq_u64(a1->flags, DG_REDUCE_IN_SCRATCH);
      }
   }
   planned_free(&t);
}

/* ADD as two dispatches through a scratch tensor: in0 + in1 -> scratch, scratch -> out. */
static VkResult
scratch_add_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   uint32_t scratch;
   VkResult result = dg_build_add_scratch(b, out->ty.type, &out->ty.shape, &scratch);
   if (result != VK_SUCCESS)
      return result;
   uint32_t tensors[3] = {dg_node_input_index(g, n, 0), dg_node_input_index(g, n, 1), scratch};
   result = dg_build_add_stage(b, DG_KERNEL_TOSA_ADD_FP32, tensors, 3, 1u << 2, NULL, 0,
                               dg_shape_elements(&out->ty.shape));
   if (result == VK_SUCCESS)
      result = dg_build_copy(b, scratch, dg_node_output_index(g, n, 0), DG_COPY_RESHAPE, 0, 0);
   return result;
}

/* The same twice over one scratch tensor and one output: write after read and write
 * after write. */
static VkResult
scratch_twice_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   uint32_t scratch;
   VkResult result = dg_build_add_scratch(b, out->ty.type, &out->ty.shape, &scratch);
   uint32_t tensors[3] = {dg_node_input_index(g, n, 0), dg_node_input_index(g, n, 1), scratch};
   for (uint32_t i = 0; i < 2 && result == VK_SUCCESS; i++) {
      result = dg_build_add_stage(b, DG_KERNEL_TOSA_ADD_FP32, tensors, 3, 1u << 2, NULL, 0,
                                  dg_shape_elements(&out->ty.shape));
      if (result == VK_SUCCESS)
         result = dg_build_copy(b, scratch, dg_node_output_index(g, n, 0), DG_COPY_RESHAPE, 0, 0);
   }
   return result;
}

static dg_op_build_fn
scratch_twice_builder(uint32_t op)
{
   return op == DG_OP_ADD ? scratch_twice_build : dg_op_builder(op);
}

static dg_op_build_fn
scratch_builder(uint32_t op)
{
   return op == DG_OP_ADD ? scratch_add_build : dg_op_builder(op);
}

/* CLAMP fused with the CLAMP after it: one stage from the first's input to the
 * second's output. */
static VkResult
fused_clamp_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_node *next = n + 1;
   uint32_t tensors[2] = {dg_node_input_index(g, n, 0), dg_node_output_index(g, next, 0)};
   VkResult result = dg_build_add_stage(b, dg_build_kernel(b, n), tensors, 2, 2, n->attrs.word,
                                        12, dg_shape_elements(&dg_node_output(g, n, 0)->ty.shape));
   return result == VK_SUCCESS ? dg_build_fuse_nodes(b, 1) : result;
}

static dg_op_build_fn
fused_builder(uint32_t op)
{
   return op == DG_OP_CLAMP ? fused_clamp_build : dg_op_builder(op);
}

static void
test_scratch_and_more(void)
{
   struct planned t;
   const struct dcase add = {"plan scratch add", "t_f32_1x100 t_f32_1x100", "t_f32_1x100", NULL,
                             "%r = OpExtInst %t_f32_1x100 %tosa ADD %in0 %in1\n"};
   memset(&t, 0, sizeof(t));
   test_set_context(add.name);
   if ((t.g = h_decode(&add, &t.b))) {
      layout_for(t.g, &t.layout);
      h_counting_alloc(&t.counter, &t.alloc);
      ok(plan_with(&t, &default_caps, scratch_builder) == VK_SUCCESS, "planned");
   }
   if (t.p) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 2);
      const struct dg_plan_tensor *s = stage_tensor(p, 0, 2);
      check_eq_u64(s->kind, DG_PLAN_TENSOR_SCRATCH);
      check_eq_u64(s->ir, DG_PLAN_NONE);
      check_eq_u64(s->index, 0);
      check_eq_u64(s->bind_point, 0);
      check_eq_u64(s->first_stage, 0);
      check_eq_u64(s->last_stage, 1);
      check_eq_u64(p->memory_count, 1);
      check_eq_u64(p->memory[0], p->stages[0].tensors[2]);
      check_eq_u64(p->stages[1].tensors[0], p->stages[0].tensors[2]);
      check_eq_u64(p->stages[1].kernel, DG_KERNEL_TOSA_COPY_U32);
      check_eq_u64(p->stages[1].first_node, 0);
      check_internal_slot(p, &p->stages[0].slots[2], 0);
      const uint32_t dims[] = {1, 100}, strides[] = {400, 4};
      check_shape(p, 0, 2, 2, dims, strides);
      ok(dg_plan_stage_depends(p, 1, 0), "the copy reads the scratch after the add");
      check_eq_u64(p->bind_point_count, 1);
      VkDeviceSize size = 400;
      struct dg_interval iv;
      dg_stage_plan_intervals(p, &size, &iv);
      ok(iv.size == 400 && iv.first == 0 && iv.last == 1, "scratch interval");
      ok(dg_stage_plan_check_instantiable(p) == VK_SUCCESS, "instantiable");
      /* A second bind point and an image binding: plans say them, the layer refuses. */
      t.p->tensors[p->memory[0]].bind_point = 1;
      ok(dg_stage_plan_check_instantiable(p) == VK_ERROR_UNKNOWN, "bind point 1 refused");
      t.p->tensors[p->memory[0]].bind_point = 0;
      t.p->stages[1].binding_kind[0] = DG_PLAN_BINDING_IMAGE;
      ok(dg_stage_plan_check_instantiable(p) == VK_ERROR_UNKNOWN, "image binding refused");
   }
   planned_free(&t);

   memset(&t, 0, sizeof(t));
   test_set_context("plan scratch twice");
   if ((t.g = h_decode(&add, &t.b))) {
      layout_for(t.g, &t.layout);
      h_counting_alloc(&t.counter, &t.alloc);
      ok(plan_with(&t, &default_caps, scratch_twice_builder) == VK_SUCCESS, "planned");
   }
   if (t.p) {
      const struct dg_stage_plan *p = t.p;
      check_eq_u64(p->stage_count, 4);
      check_eq_u64(p->memory_count, 1);
      /* 1 reads what 0 wrote; 2 rewrites it (after 0's write, after 1's read); 3 reads
       * it again and rewrites the output 1 wrote. */
      static const uint32_t counts[] = {0, 1, 2, 2};
      for (uint32_t i = 0; i < 4 && i < p->stage_count; i++)
         check_eq_u64(p->stages[i].dep_count, counts[i]);
      ok(dg_plan_stage_depends(p, 1, 0), "read after write");
      ok(dg_plan_stage_depends(p, 2, 0) && dg_plan_stage_depends(p, 2, 1),
         "write after write and after read");
      ok(dg_plan_stage_depends(p, 3, 2) && dg_plan_stage_depends(p, 3, 1),
         "read after write, output write after write");
      ok(!dg_plan_stage_depends(p, 3, 0), "stage 0: ordered through stage 2, not listed");
      check_eq_u64(p->stages[2].pipeline_of, 0);
      check_eq_u64(p->stages[3].pipeline_of, 1);
   }
   planned_free(&t);

   const struct dcase two = {
       "plan fused clamps", "t_i8_16", "t_i8_16", NULL,
       "%c = OpExtInst %t_i8_16 %tosa CLAMP %i8_m10 %i8_10 %i32_1 %in0\n"
       "%r = OpExtInst %t_i8_16 %tosa CLAMP %i8_m5 %i8_5 %i32_1 %c\n"};
   memset(&t, 0, sizeof(t));
   test_set_context(two.name);
   if ((t.g = h_decode(&two, &t.b))) {
      layout_for(t.g, &t.layout);
      h_counting_alloc(&t.counter, &t.alloc);
      ok(plan_with(&t, &default_caps, fused_builder) == VK_SUCCESS, "planned");
   }
   if (t.p) {
      check_eq_u64(t.p->stage_count, 1);
      check_eq_u64(t.p->stages[0].first_node, 0);
      check_eq_u64(t.p->stages[0].node_count, 2);
      check_eq_u64(stage_tensor(t.p, 0, 1)->kind, DG_PLAN_TENSOR_OUTPUT);
      check_eq_u64(t.p->memory_count, 0);
      ok(dg_stage_plan_check_instantiable(t.p) == VK_SUCCESS, "fused stage instantiable");
   }
   planned_free(&t);
}

/* ---- refusals and allocation failure ------------------------------------------------- */

static void
test_refusals(void)
{
   struct planned t;
   /* Storage-buffer limit: 2 application tensors + 2 internal = 4. */
   struct dg_plan_caps caps = default_caps;
   caps.descriptor_limits[0].per_stage_storage_buffers = 4;
   if (plan_case(&conv_i8, &caps, &t)) {
      dg_stage_plan_destroy(t.p);
      t.p = NULL;
      caps.descriptor_limits[0].per_stage_storage_buffers = 3;
      ok(plan_with(&t, &caps, NULL) == VK_ERROR_UNKNOWN && !t.p, "over the limit: refused");
      caps.descriptor_limits[0].per_stage_storage_buffers = 0;
      caps.max_bound_sets = 2;
      ok(plan_with(&t, &caps, NULL) == VK_ERROR_UNKNOWN && !t.p, "no set for the internal one");
      /* An output binding the layout lacks. */
      t.layout.l.binding_count = 1;
      ok(plan_with(&t, &default_caps, NULL) == VK_ERROR_VALIDATION_FAILED_EXT && !t.p,
         "missing binding refused");
      t.layout.l.binding_count = 2;
      t.layout.b[1].type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      ok(plan_with(&t, &default_caps, NULL) == VK_ERROR_VALIDATION_FAILED_EXT && !t.p,
         "a non-tensor binding refused");
      t.layout.b[1].type = VK_DESCRIPTOR_TYPE_TENSOR_ARM;
      /* More work than the grid holds: 288 items, 5 groups of 64 > 2 x 2. */
      caps = default_caps;
      caps.max_groups[0] = caps.max_groups[1] = 2;
      ok(plan_with(&t, &caps, NULL) == VK_ERROR_UNKNOWN && !t.p, "grid too small");
      caps.max_groups[0] = 0;
      ok(plan_with(&t, &caps, NULL) == VK_ERROR_UNKNOWN && !t.p, "no grid");
   }
   planned_free(&t);
}

static void
test_out_of_memory(void)
{
   struct built b;
   test_set_context("plan out of memory");
   struct dg_graph *g = h_decode(&residual, &b);
   if (g) {
      struct layout layout;
      layout_for(g, &layout);
      long calls = 0;
      for (long fail = 1; fail < 10000; fail++) {
         struct h_counter counter = {.fail_at = fail};
         VkAllocationCallbacks alloc;
         h_counting_alloc(&counter, &alloc);
         struct dg_stage_plan *p = NULL;
         struct dg_plan_input in = {g, &layout.l, &default_caps, NULL};
         VkResult result = dg_stage_plan_build(&in, &alloc, &p);
         dg_stage_plan_destroy(p);
         ok(counter.live == 0, "allocation %ld failed: %ld leaked", fail, counter.live);
         if (result == VK_SUCCESS) {
            calls = counter.calls;
            break;
         }
         ok(result == VK_ERROR_OUT_OF_HOST_MEMORY && !p, "allocation %ld failed: result %d",
            fail, result);
      }
      ok(calls > 5, "swept %ld allocations", calls);
      dg_graph_destroy(g);
   }
   h_free(&b);
   test_set_context(NULL);
}

TEST_MAIN_STATE;

int
main(void)
{
   test_binary();
   test_clamp();
   test_reshape();
   test_concat();
   test_scatter();
   test_offset_aliases();
   test_pool();
   test_fft();
   test_conv();
   test_conv_family();
   test_matmul();
   test_tiled();
   test_subgroup();
   test_depthwise_row_block();
   test_coop();
   test_rescale();
   test_residual();
   test_barriers();
   test_fan_out();
   test_scratch_and_more();
   test_reduce();
   test_refusals();
   test_out_of_memory();
   return test_done();
}
