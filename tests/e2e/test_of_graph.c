/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_data_graph_optical_flow end to end (D49): feature and extension, rejected create
 * infos (one defect each, no handle), sessions' bind points, and the flow and cost of
 * synthetic frame pairs (of_synth) against the CPU reference (tests/reference/optical_flow.c)
 * for every grid size and performance level, with a hint, with 16-bit frames, and the EPE
 * against the ground truth at 640x480.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "of_synth.h"
#include "of_util.h"
#include "optical_flow.h"
#include "test.h"

TEST_MAIN_STATE;

/* ---- invalid create infos --------------------------------------------------------------- */

enum defect {
   D_NODE_TYPE,
   D_NO_OF_INFO,
   D_NO_INPUT,
   D_NO_FLOW,
   D_DUP_TYPE,
   D_DUP_BINDING,
   D_BAD_SET,
   D_BAD_BINDING,
   D_BAD_CONN_TYPE,
   D_HINT_NO_FLAG,
   D_FLAG_NO_HINT,
   D_COST_NO_FLAG,
   D_FLAG_NO_COST,
   D_SMALL,
   D_LARGE,
   D_IMAGE_FORMAT,
   D_FLOW_FORMAT,
   D_COST_FORMAT,
   D_NO_GRID,
   D_TWO_GRIDS,
   D_HINT_GRID,
   D_PERF,
   D_FLAGS,
   D_LAYOUT,
   D_RESOURCE,
   D_COUNT
};

static const char *const defect_names[D_COUNT] = {
    "nodeType",
    "no VkDataGraphPipelineOpticalFlowCreateInfoARM",
    "no INPUT",
    "no FLOW_VECTOR",
    "a connection type twice",
    "two connections on one binding",
    "set outside the layout",
    "binding outside the set",
    "unknown connection type",
    "HINT without ENABLE_HINT",
    "ENABLE_HINT without HINT",
    "COST without ENABLE_COST",
    "ENABLE_COST without COST",
    "63 pixels wide",
    "8193 pixels high",
    "imageFormat R8G8B8A8",
    "flowVectorFormat R32G32",
    "costFormat R32_UINT",
    "no output grid",
    "two output grid bits",
    "no hint grid",
    "performanceLevel 4",
    "flag bit 30",
    "image layout READ_ONLY_OPTIMAL",
    "resource info on a binding that is not a connection"};

static VkResult
create_defective(struct ofu *o, enum defect d, VkPipeline *pipeline)
{
   VkDataGraphPipelineSingleNodeConnectionARM conn[6];
   const VkDataGraphPipelineNodeConnectionTypeARM types[5] = {
       VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_INPUT_ARM,
       VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_REFERENCE_ARM,
       VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_FLOW_VECTOR_ARM,
       VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_HINT_ARM,
       VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_COST_ARM,
   };
   uint32_t n = 0;
   for (uint32_t i = 0; i < 5; i++) {
      if ((d == D_NO_INPUT && i == OFU_INPUT) || (d == D_NO_FLOW && i == OFU_FLOW) ||
          (d == D_FLAG_NO_HINT && i == OFU_HINT) || (d == D_FLAG_NO_COST && i == OFU_COST))
         continue;
      conn[n++] = (VkDataGraphPipelineSingleNodeConnectionARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM,
          .binding = i,
          .connection = types[i]};
   }
   if (d == D_DUP_TYPE)
      conn[n++] = (VkDataGraphPipelineSingleNodeConnectionARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM,
          .binding = 4,
          .connection = types[0]};
   if (d == D_DUP_BINDING)
      conn[1].binding = 0;
   if (d == D_BAD_SET)
      conn[1].set = 1;
   if (d == D_BAD_BINDING)
      conn[1].binding = 9;
   if (d == D_BAD_CONN_TYPE)
      conn[1].connection = (VkDataGraphPipelineNodeConnectionTypeARM)1000631009;
   VkDataGraphOpticalFlowCreateFlagsARM flags =
       VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM |
       VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM;
   if (d == D_HINT_NO_FLAG)
      flags &= ~VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM;
   if (d == D_COST_NO_FLAG)
      flags &= ~VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM;
   if (d == D_FLAGS)
      flags |= VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_RESERVED_30_BIT_ARM;
   VkDataGraphPipelineOpticalFlowCreateInfoARM of = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM,
       .width = d == D_SMALL ? 63 : 128,
       .height = d == D_LARGE ? 8193 : 96,
       .imageFormat = d == D_IMAGE_FORMAT ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_R8_UNORM,
       .flowVectorFormat = d == D_FLOW_FORMAT ? VK_FORMAT_R32G32_SFLOAT : VK_FORMAT_R16G16_SFLOAT,
       .costFormat = d == D_COST_FORMAT ? VK_FORMAT_R32_UINT : VK_FORMAT_R16_UINT,
       .outputGridSize = d == D_NO_GRID     ? 0u
                         : d == D_TWO_GRIDS ? 6u
                                            : 4u,
       .hintGridSize = d == D_HINT_GRID ? 0u : 8u,
       .performanceLevel = d == D_PERF ? (VkDataGraphOpticalFlowPerformanceLevelARM)4
                                       : VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM,
       .flags = flags,
   };
   VkDataGraphPipelineSingleNodeCreateInfoARM node = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM,
       .pNext = d == D_NO_OF_INFO ? NULL : &of,
       .nodeType = d == D_NODE_TYPE ? (VkDataGraphPipelineNodeTypeARM)1000631001
                                    : VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM,
       .connectionCount = n,
       .pConnections = conn};
   VkDataGraphPipelineResourceInfoImageLayoutARM layout = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM,
       .layout =
           d == D_LAYOUT ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL};
   VkDataGraphPipelineResourceInfoARM res = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
       .pNext = &layout,
       .binding = d == D_RESOURCE ? 5 : 0};
   VkDataGraphPipelineCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
       .pNext = &node,
       .layout = o->layout,
       .resourceInfoCount = 1,
       .pResourceInfos = &res};
   *pipeline = (VkPipeline)(uintptr_t)0x1234;
   return o->u.fn.CreateDataGraphPipelinesARM(o->u.device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info,
                                              NULL, pipeline);
}

static void
test_invalid(struct ofu *o)
{
   VkPipeline p;
   VkResult r = create_defective(o, D_COUNT, &p);
   if (ok(r == VK_SUCCESS && p, "the table's base create info is valid: %d", r))
      vkDestroyPipeline(o->u.device, p, NULL);
   for (int d = 0; d < D_COUNT; d++) {
      r = create_defective(o, (enum defect)d, &p);
      ok((r == VK_ERROR_VALIDATION_FAILED_EXT || r == VK_ERROR_UNKNOWN) && p == VK_NULL_HANDLE,
         "rejected: %s (%d)", defect_names[d], r);
   }
}

/* ---- results -------------------------------------------------------------------------- */

static float
half_to_float(uint16_t h)
{
   return of_half_to_float(h);
}

/* The flow (and cost) of one configuration on one frame pair, GPU against the reference.
 * hint: hint-grid vectors in pixels (NULL: none). Returns the largest vector difference. */
static float
compare(struct ofu *o, const struct ofu_config *c, const struct of_synth *s, const float *hint,
        const char *what, struct of_quality *q)
{
   struct ofu_run r;
   float worst = INFINITY;
   if (!ofu_run_create(o, c, true, &r))
      goto out;
   const uint32_t ow = (c->width + c->grid - 1) / c->grid, oh = (c->height + c->grid - 1) / c->grid;
   const size_t n = (size_t)ow * oh;
   uint16_t *frame16 = NULL;
   if (c->image_format == VK_FORMAT_R16_UNORM) {
      /* 16-bit frames: the 8-bit values in the top byte, a changing low byte */
      frame16 = malloc((size_t)c->width * c->height * 2 * 2);
      for (size_t i = 0; i < (size_t)c->width * c->height; i++) {
         frame16[i] = (uint16_t)(s->input[i] << 8 | (i * 37u & 0xffu));
         frame16[(size_t)c->width * c->height + i] = (uint16_t)(s->reference[i] << 8 | (i & 0xffu));
      }
      ofu_image_write(o, &r.in, frame16);
      ofu_image_write(o, &r.ref, frame16 + (size_t)c->width * c->height);
   } else {
      ofu_image_write(o, &r.in, s->input);
      ofu_image_write(o, &r.ref, s->reference);
   }
   uint16_t *hint16 = NULL;
   size_t hn = 0;
   if (hint) {
      hn = (size_t)((c->width + c->hint_grid - 1) / c->hint_grid) *
           ((c->height + c->hint_grid - 1) / c->hint_grid);
      hint16 = malloc(hn * 2 * sizeof(uint16_t));
      for (size_t i = 0; i < 2 * hn; i++)
         hint16[i] = of_half_from_float(hint[i]);
      ofu_image_write(o, &r.hint, hint16);
   }
   if (!ofu_dispatch(o, &r, 0))
      goto out_run;
   uint16_t *got = malloc(n * 2 * sizeof(uint16_t)), *got_cost = malloc(n * sizeof(uint16_t));
   float *want = malloc(n * 2 * sizeof(float)), *gotf = malloc(n * 2 * sizeof(float));
   uint16_t *want_cost = malloc(n * sizeof(uint16_t));
   ofu_image_read(o, &r.flow, got);
   if (c->cost)
      ofu_image_read(o, &r.cost, got_cost);
   /* the reference, from the same 8-bit frames (and the hint as the GPU reads it) */
   float *hintr = NULL;
   if (hint) {
      hintr = malloc(hn * 2 * sizeof(float));
      for (size_t i = 0; i < 2 * hn; i++)
         hintr[i] = half_to_float(hint16[i]);
   }
   struct of_image in = {s->input, c->width, c->height, c->width, 8};
   struct of_image ref = {s->reference, c->width, c->height, c->width, 8};
   struct of_pyramid pin = {0}, pref = {0};
   uint32_t levels = of_levels(c->width, c->height, (enum of_perf)c->perf);
   of_pyramid_build(&pin, &in, levels);
   of_pyramid_build(&pref, &ref, levels);
   struct of_params prm = {c->width, c->height,
                           c->grid,  c->perf ? (enum of_perf)c->perf : OF_PERF_MEDIUM,
                           hintr,    c->hint_grid};
   ok(of_compute(&prm, &pin, &pref, want, c->cost ? want_cost : NULL), "reference computes");
   uint32_t cost_worst = 0;
   for (size_t i = 0; i < 2 * n; i++)
      gotf[i] = half_to_float(got[i]);
   ofu_check_flow(what, got, want, n, &worst);
   if (c->cost)
      ofu_check_cost(what, got_cost, want_cost, n, &cost_worst);
   if (q)
      of_measure(s, gotf, c->cost ? got_cost : NULL, c->grid, q);
   printf("%s: largest flow difference %.4f px, cost %u; EPE %.3f px\n", what, worst, cost_worst,
          q ? q->epe : NAN);
   of_pyramid_free(&pin);
   of_pyramid_free(&pref);
   free(got);
   free(got_cost);
   free(want);
   free(gotf);
   free(want_cost);
   free(hintr);
out_run:
   free(hint16);
   free(frame16);
out:
   ofu_run_destroy(o, &r);
   return worst;
}

static void
test_results(struct ofu *o)
{
   const uint32_t W = 128, H = 96;
   struct of_synth sub = {0}, rot = {0}, two = {0}, big = {0};
   const struct of_synth_desc dsub = {OF_SYNTH_TRANSLATE, 5.37f, -2.71f};
   const struct of_synth_desc drot = {
       .kind = OF_SYNTH_ROTATE_ZOOM, .angle_deg = 2.0f, .zoom = 1.03f};
   const struct of_synth_desc dtwo = {
       OF_SYNTH_TWO_MOTIONS, 1.5f, -0.75f, 0, 0, -6.25f, 3.5f, 8.5f, 5.25f};
   const struct of_synth_desc dbig = {OF_SYNTH_TRANSLATE, 29.0f, -11.0f};
   ok(of_synth_make(&sub, &dsub, W, H, 1) && of_synth_make(&rot, &drot, W, H, 1) &&
          of_synth_make(&two, &dtwo, W, H, 1) && of_synth_make(&big, &dbig, W, H, 1),
      "synthetic frames");
   char what[128];
   /* every grid size and performance level on the sub-pixel translation */
   for (uint32_t perf = 1; perf <= 3; perf++)
      for (uint32_t grid = 1; grid <= 8; grid *= 2) {
         struct ofu_config c = {W, H, VK_FORMAT_R8_UNORM, grid, 0, perf, grid == 4};
         snprintf(what, sizeof(what), "translate_sub %ux%u grid %u level %u", W, H, grid, perf);
         compare(o, &c, &sub, NULL, what, NULL);
      }
   /* the other motions, with cost */
   struct ofu_config c = {W, H, VK_FORMAT_R8_UNORM, 2, 0, 2, true};
   compare(o, &c, &rot, NULL, "rotate_zoom grid 2 MEDIUM with cost", NULL);
   c.grid = 8;
   compare(o, &c, &two, NULL, "two_motions grid 8 MEDIUM with cost", NULL);
   /* 16-bit frames keep their top 8 bits */
   struct ofu_config c16 = {W, H, VK_FORMAT_R16_UNORM, 4, 0, 3, false};
   compare(o, &c16, &sub, NULL, "R16_UNORM frames grid 4 FAST", NULL);
   /* a 29 px motion is beyond FAST's reach at this size without a hint, within with one */
   struct ofu_config ch = {W, H, VK_FORMAT_R8_UNORM, 4, 8, 3, false};
   const uint32_t hw = W / 8, hh = H / 8;
   float *hint = malloc((size_t)hw * hh * 2 * sizeof(float));
   for (uint32_t i = 0; i < hw * hh; i++) {
      hint[2 * i] = 28.0f;
      hint[2 * i + 1] = -10.0f;
   }
   struct of_quality q = {0};
   compare(o, &ch, &big, hint, "29 px translation with a hint grid 8 FAST", &q);
   ok(q.epe <= 0.25, "29 px translation with a hint: EPE %.3f px <= 0.25", q.epe);
   free(hint);
   of_synth_free(&sub);
   of_synth_free(&rot);
   of_synth_free(&two);
   of_synth_free(&big);
}

/* The targets at 640x480: EPE of a sub-pixel translation and of two motions. */
static void
test_quality_640(struct ofu *o)
{
   const struct of_synth_desc dsub = {OF_SYNTH_TRANSLATE, 5.37f, -2.71f};
   const struct of_synth_desc dtwo = {
       OF_SYNTH_TWO_MOTIONS, 1.5f, -0.75f, 0, 0, -6.25f, 3.5f, 8.5f, 5.25f};
   struct of_synth s = {0};
   struct of_quality q = {0};
   if (ok(of_synth_make(&s, &dsub, 640, 480, 1), "640x480 frames")) {
      struct ofu_config c = {640, 480, VK_FORMAT_R8_UNORM, 4, 0, 3, true};
      compare(o, &c, &s, NULL, "translate_sub 640x480 grid 4 FAST", &q);
      ok(q.epe <= 0.25, "translate_sub 640x480: EPE %.3f px <= 0.25 (reference 0.039)", q.epe);
   }
   of_synth_free(&s);
   if (ok(of_synth_make(&s, &dtwo, 640, 480, 1), "640x480 two motions")) {
      struct ofu_config c = {640, 480, VK_FORMAT_R8_UNORM, 8, 0, 3, false};
      compare(o, &c, &s, NULL, "two_motions 640x480 grid 8 FAST", &q);
      ok(q.epe <= 1.0, "two_motions 640x480: EPE %.3f px <= 1.0 (reference 0.125)", q.epe);
   }
   of_synth_free(&s);
}

/* ---- sessions -------------------------------------------------------------------------- */

static void
test_sessions(struct ofu *o)
{
   struct ofu_config c = {128, 96, VK_FORMAT_R8_UNORM, 4, 0, 3, false};
   struct ofu_run r;
   /* ofu_run_create checks the bind point count: 1 without the cache flag */
   if (ofu_run_create(o, &c, false, &r)) {
      VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
          .session = r.session,
          .bindPoint = VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM};
      VkMemoryRequirements2 mr = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      o->u.fn.GetDataGraphPipelineSessionMemoryRequirementsARM(o->u.device, &mri, &mr);
      ok(mr.memoryRequirements.size == 0, "no cache bind point without OPTICAL_FLOW_CACHE");
      VkBindDataGraphPipelineSessionMemoryInfoARM bind = {
          .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
          .session = r.session,
          .bindPoint = VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM,
          .memory = r.memory[0]};
      vku_capture_stderr_begin();
      VkResult res = o->u.fn.BindDataGraphPipelineSessionMemoryARM(o->u.device, 1, &bind);
      vku_capture_stderr_end();
      ok(res == VK_ERROR_VALIDATION_FAILED_EXT, "binding the cache bind point refused: %d", res);
   }
   ofu_run_destroy(o, &r);
   if (ofu_run_create(o, &c, true, &r)) {
      VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
          .session = r.session};
      VkDataGraphPipelineSessionBindPointRequirementARM req[2] = {
          {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM},
          {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM}};
      uint32_t n = 2;
      o->u.fn.GetDataGraphPipelineSessionBindPointRequirementsARM(o->u.device, &bri, &n, req);
      ok(n == 2 && req[0].bindPoint == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM &&
             req[1].bindPoint == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM &&
             req[1].bindPointType == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM,
         "with OPTICAL_FLOW_CACHE: TRANSIENT and OPTICAL_FLOW_CACHE bind points");
   }
   ofu_run_destroy(o, &r);
}

/* A SPIR-V graph's session has no OPTICAL_FLOW_CACHE bind point, with or without the flag. */
static void
test_graph_session(struct ofu *o)
{
   const struct dgu_binding bindings[] = {
       {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
       {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
   };
   struct dgu_pipeline_desc desc = {
       .text = DGU_CLAMP_ADD_SUB_TEXT, .bindings = bindings, .binding_count = 2};
   struct dgu_graph g = {0};
   VkDataGraphPipelineSessionARM session = VK_NULL_HANDLE;
   if (!ok(dgu_graph_create(&o->u, &desc, &g) == VK_SUCCESS, "a SPIR-V graph pipeline"))
      goto out;
   VkDataGraphPipelineSessionCreateInfoARM sci = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .flags = VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM,
       .dataGraphPipeline = g.pipeline};
   vku_capture_stderr_begin();
   VkResult r = o->u.fn.CreateDataGraphPipelineSessionARM(o->u.device, &sci, NULL, &session);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_SUCCESS && log && strstr(log, "OPTICAL_FLOW_CACHE is for optical-flow"),
      "a graph session with OPTICAL_FLOW_CACHE: created, the flag logged as ignored: %d", r);
   if (r != VK_SUCCESS)
      goto out;
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
       .session = session};
   VkDataGraphPipelineSessionBindPointRequirementARM req[2] = {
       {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM},
       {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM}};
   uint32_t n = 2;
   o->u.fn.GetDataGraphPipelineSessionBindPointRequirementsARM(o->u.device, &bri, &n, req);
   bool cache = false;
   for (uint32_t i = 0; i < n; i++)
      cache |= req[i].bindPoint == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM;
   ok(!cache, "no OPTICAL_FLOW_CACHE bind point on a graph session (%u bind points)", n);
   VkDeviceMemory memory = VK_NULL_HANDLE;
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = 4096,
                               .memoryTypeIndex = vku_memory_type(&o->u.v, ~0u, 0)};
   vkAllocateMemory(o->u.device, &mai, NULL, &memory);
   VkBindDataGraphPipelineSessionMemoryInfoARM bind = {
       .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
       .session = session,
       .bindPoint = VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM,
       .memory = memory};
   vku_capture_stderr_begin();
   r = o->u.fn.BindDataGraphPipelineSessionMemoryARM(o->u.device, 1, &bind);
   vku_capture_stderr_end();
   ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "binding a graph session's cache bind point: %d", r);
   vkFreeMemory(o->u.device, memory, NULL);
out:
   if (session)
      o->u.fn.DestroyDataGraphPipelineSessionARM(o->u.device, session, NULL);
   dgu_graph_destroy(&o->u, &g);
}

int
main(void)
{
   struct ofu o;
   if (!ofu_init(&o, true)) {
      ofu_finish(&o);
      return test_done();
   }
   VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM off = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &off};
   vkGetPhysicalDeviceFeatures2(o.u.v.physical_device, &f2);
   ok(off.dataGraphOpticalFlow == VK_TRUE, "dataGraphOpticalFlow is supported");
   ok(vku_has_device_extension(&o.u.v, VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME),
      "VK_ARM_data_graph_optical_flow is listed");
   vku_capture_stderr_begin();
   test_invalid(&o);
   vku_capture_stderr_end();
   test_sessions(&o);
   test_graph_session(&o);
   test_results(&o);
   test_quality_640(&o);
   ofu_finish(&o);
   return test_done();
}
