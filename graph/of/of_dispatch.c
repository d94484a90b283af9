/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Recording an optical-flow dispatch (D49): the slot kernel (which pyramid is the input, which
 * the reference: decided on the GPU from the cache header and the execute flags, so a command
 * buffer submitted many times swaps slots each time), the imports and pyramid levels of the
 * frames the flags do not keep, the hint import, per level from the coarsest the search and
 * the median, then the cost and the output grid. A barrier separates dependent steps. Without
 * the session's OPTICAL_FLOW_CACHE the flags that reuse a pyramid are logged and ignored: both
 * pyramids are rebuilt. DISABLE_TEMPORAL_HINTS and meanFlowL1NormHint are accepted and change
 * nothing (the algorithm has no temporal hint; the search reach is the performance level's).
 */
#include "of_private.h"

#define OF_EXEC_KEEPS_INPUT (0x2u | 0x8u)      /* INPUT_UNCHANGED, INPUT_IS_PREVIOUS_REFERENCE */
#define OF_EXEC_KEEPS_REFERENCE (0x4u | 0x10u) /* REFERENCE_UNCHANGED, ..._IS_PREVIOUS_INPUT */
#define OF_EXEC_ALL 0x1fu

struct of_rec {
   struct dg_device *device;
   const struct dg_pipeline *p;
   VkCommandBuffer cmd;
};

static void
barrier(const struct of_rec *r)
{
   dg_stage_barrier(r->device, r->cmd);
}

/* One kernel over w x h items (8x8 workgroups; 1x1 for the slot kernel). */
static void
run(const struct of_rec *r, enum of_kernel k, const uint32_t u[16], uint32_t w, uint32_t h)
{
   const struct lyr_device_next *next = &r->device->base.next;
   next->CmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->p->of->kernels[k]);
   next->CmdPushConstants(r->cmd, r->p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 16 * 4, u);
   if (k == OF_K_SLOTS)
      next->CmdDispatch(r->cmd, 1, 1, 1);
   else
      next->CmdDispatch(r->cmd, (w + 7) / 8, (h + 7) / 8, 1);
}

/* Level 0 and the levels below of the pyramid in the slot header word `which`. */
static void
import_frames(const struct of_rec *r, bool build[2])
{
   const struct of_pipeline *of = r->p->of;
   for (uint32_t which = 0; which < 2; which++) {
      if (!build[which])
         continue;
      uint32_t u[16] = {which, of->w[0], of->h[0], of->mem.pyramid_words};
      run(r, which == 0 ? OF_K_IMPORT_INPUT : OF_K_IMPORT_REFERENCE, u, of->w[0], of->h[0]);
   }
   if (of->has[OF_HINT]) {
      const uint32_t hg = of->hint_grid;
      uint32_t u[16] = {(of->info.width + hg - 1) / hg, (of->info.height + hg - 1) / hg,
                        of->mem.hint};
      run(r, OF_K_HINT, u, u[0], u[1]);
   }
   for (uint32_t l = 1; l < of->levels; l++) {
      barrier(r);
      for (uint32_t which = 0; which < 2; which++) {
         if (!build[which])
            continue;
         uint32_t u[16] = {which,
                           of->mem.level_offset[l - 1],
                           of->mem.level_offset[l],
                           of->w[l - 1],
                           of->h[l - 1],
                           of->w[l],
                           of->h[l],
                           of->mem.pyramid_words};
         run(r, OF_K_PYRAMID, u, of->w[l], of->h[l]);
      }
   }
}

/* The levels from the coarsest; returns the field that holds level 0's flow. */
static uint32_t
match_levels(const struct of_rec *r)
{
   const struct of_pipeline *of = r->p->of;
   const struct of_memory *m = &of->mem;
   /* docs/optical-flow.md's table: radius, Lucas-Kanade steps, neighbours */
   const uint32_t radius = of->perf == 1 ? 4 : of->perf == 3 ? 2 : 3;
   const uint32_t iters = of->perf == 1 ? 3 : of->perf == 3 ? 1 : 2;
   const uint32_t neighbours = of->perf == 3 ? 0 : 1;
   uint32_t out = 0, prev_grid = 0;
   for (int l = (int)of->levels - 1; l >= 0; l--) {
      const uint32_t gw = (of->w[l] + OF_STEP - 1) / OF_STEP,
                     gh = (of->h[l] + OF_STEP - 1) / OF_STEP;
      uint32_t u[16] = {
          m->level_offset[l],
          m->pyramid_words,
          of->w[l],
          of->h[l],
          gw,
          gh,
          m->field[out ^ 1u],
          prev_grid,
          m->field[2],
          radius | iters << 8 | neighbours << 16,
          of->has[OF_HINT] ? m->hint : ~0u,
          of->hint_grid | (uint32_t)l << 8,
          of->info.width | of->info.height << 16,
      };
      barrier(r);
      run(r, OF_K_SEARCH, u, gw, gh);
      barrier(r);
      uint32_t mu[16] = {m->field[2], m->field[out], gw, gh};
      run(r, OF_K_MEDIAN, mu, gw, gh);
      prev_grid = gw | gh << 16;
      out ^= 1u;
   }
   return out ^ 1u;
}

void
of_dispatch_record(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                   const VkDataGraphPipelineDispatchInfoARM *info)
{
   const struct dg_pipeline *p = s->pipeline;
   const struct of_pipeline *of = p->of;
   const struct of_rec r = {device, p, cmd};
   const VkDataGraphPipelineOpticalFlowDispatchInfoARM *odi =
       info ? lyr_find_struct(info->pNext,
                              VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM)
            : NULL;
   uint32_t flags = odi ? odi->flags : 0;
   if (flags & ~OF_EXEC_ALL) {
      lyr_logw("vkCmdDispatchDataGraphARM: optical-flow execute flags 0x%x ignored",
               flags & ~OF_EXEC_ALL);
      flags &= OF_EXEC_ALL;
   }
   if (!s->of->cache && (flags & (OF_EXEC_KEEPS_INPUT | OF_EXEC_KEEPS_REFERENCE))) {
      lyr_logw("vkCmdDispatchDataGraphARM: execute flags 0x%x reuse a pyramid, but the session "
               "was created without OPTICAL_FLOW_CACHE: both pyramids are rebuilt",
               flags & (OF_EXEC_KEEPS_INPUT | OF_EXEC_KEEPS_REFERENCE));
      flags &= ~(OF_EXEC_KEEPS_INPUT | OF_EXEC_KEEPS_REFERENCE);
   }
   bool build[2] = {!(flags & OF_EXEC_KEEPS_INPUT), !(flags & OF_EXEC_KEEPS_REFERENCE)};
   device->base.next.CmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
                                           p->internal_set, 1, &s->of->set, 0, NULL);
   /* an earlier dispatch of the session may still use its buffers */
   barrier(&r);
   uint32_t u[16] = {flags};
   run(&r, OF_K_SLOTS, u, 1, 1);
   barrier(&r);
   import_frames(&r, build);
   const uint32_t field = match_levels(&r);
   const uint32_t gw = (of->w[0] + OF_STEP - 1) / OF_STEP, gh = (of->h[0] + OF_STEP - 1) / OF_STEP;
   if (of->has[OF_COST]) {
      barrier(&r);
      uint32_t cu[16] = {0,  of->mem.pyramid_words, of->w[0],    of->h[0], gw,
                         gh, of->mem.field[field],  of->mem.cost};
      run(&r, OF_K_COST, cu, gw, gh);
   }
   barrier(&r);
   const uint32_t ow = (of->info.width + of->grid - 1) / of->grid;
   const uint32_t oh = (of->info.height + of->grid - 1) / of->grid;
   uint32_t ou[16] = {of->mem.field[field], gw, gh, of->grid, ow, oh, of->mem.cost};
   run(&r, OF_K_OUTPUT, ou, ow, oh);
}
