/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Independent branches and the session's barriers (docs/decisions.md D46): a graph
 *   a1 = CLAMP(in, -2, 2), a2 = ADD(a1, a1)    (branch a)
 *   b1 = CLAMP(in, -1, 1), b2 = SUB(b1, in)    (branch b)
 *   out = ADD(a2, b2)
 * written branch after branch, run with sessions created in both recording
 * orders: by level (the default: a1 b1 | a2 b2 | out, two barriers, the
 * branches' intermediates live together) and VMEL_GRAPH_STAGE_ORDER=plan (the
 * plan's order, where the memory plan's reuse of a1's bytes for b1 orders the
 * branches too: more barriers, less memory). Each output is checked bit for
 * bit against the same arithmetic in fp32 here, with the barrier counts (the
 * layer's debug log) and the memory each session asks for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static const char branches_text[] = DGU_IO_1X64 "%m2 = OpConstant %float -2\n"
                                                "%p2 = OpConstant %float 2\n"
                                                "%m1 = OpConstant %float -1\n"
                                                "%p1 = OpConstant %float 1\n"
                                                "%gt = OpTypeGraphARM 1 %t %t\n"
                                                "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
                                                "%g = OpGraphARM %gt\n"
                                                "%in = OpGraphInputARM %t %uint_0\n"
                                                "%a1 = OpExtInst %t %tosa CLAMP %m2 %p2 %propagate %in\n"
                                                "%a2 = OpExtInst %t %tosa ADD %a1 %a1\n"
                                                "%b1 = OpExtInst %t %tosa CLAMP %m1 %p1 %propagate %in\n"
                                                "%b2 = OpExtInst %t %tosa SUB %b1 %in\n"
                                                "%out = OpExtInst %t %tosa ADD %a2 %b2\n"
                                                "OpGraphSetOutputARM %out %uint_0\n"
                                                "OpGraphEndARM\n";

static const struct dgu_binding bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};

static float
clampf(float x, float lo, float hi)
{
   return x < lo ? lo : x > hi ? hi : x;
}

/* One session in the current VMEL_GRAPH_STAGE_ORDER: its barriers (-1 when not logged) and
 * memory; the output checked. */
static bool
run_session(struct dgu *u, const struct dgu_graph *g, const char *what, int *barriers,
            VkDeviceSize *memory)
{
   static const int64_t dims[2] = {1, N};
   struct dgu_tensor in, out;
   struct dgu_session s;
   struct dgu_sets sets;
   *barriers = -1;
   if (!dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) ||
       !dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out))
      return false;
   vku_capture_stderr_begin();
   bool good = dgu_session_create(u, g->pipeline, &s);
   const char *log = vku_capture_stderr_end();
   const char *line = strstr(log, "stages, ");
   if (line)
      *barriers = atoi(line + strlen("stages, "));
   *memory = s.size;
   if (good && dgu_sets_create(u, g, &sets)) {
      float *x = in.data, *y = out.data, want[N];
      for (int i = 0; i < N; i++) {
         x[i] = (float)(i - 32) * 0.125f;
         y[i] = 12345.0f;
         float a1 = clampf(x[i], -2.0f, 2.0f), b1 = clampf(x[i], -1.0f, 1.0f);
         float a2 = a1 + a1, b2 = b1 - x[i];
         want[i] = a2 + b2;
      }
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      good = dgu_run(u, g, &sets, s.session) && dgu_check_f32(what, y, want, N);
      dgu_sets_destroy(u, &sets);
   }
   dgu_session_destroy(u, &s);
   dgu_tensor_destroy(u, &out);
   dgu_tensor_destroy(u, &in);
   return good;
}

int
main(void)
{
   /* the layer logs each session's barrier count at debug level */
   setenv("VMEL_GRAPH_SEVERITY", "debug", 1);
   unsetenv("VMEL_GRAPH_STAGE_ORDER");
   struct dgu u;
   if (dgu_init(&u, NULL)) {
      struct dgu_graph g;
      const struct dgu_pipeline_desc desc = {
          .text = branches_text, .bindings = bindings, .binding_count = 2};
      if (ok(dgu_graph_create(&u, &desc, &g) == VK_SUCCESS, "the two-branch graph")) {
         test_set_context("by level");
         int level_barriers, plan_barriers;
         VkDeviceSize level_memory, plan_memory;
         ok(run_session(&u, &g, "out (by level)", &level_barriers, &level_memory),
            "the graph by level");
         ok(level_barriers == 2, "a1 b1 | a2 b2 | out: 2 barriers, logged %d", level_barriers);
         test_set_context("plan order");
         setenv("VMEL_GRAPH_STAGE_ORDER", "plan", 1);
         ok(run_session(&u, &g, "out (plan order)", &plan_barriers, &plan_memory),
            "the graph in plan order");
         unsetenv("VMEL_GRAPH_STAGE_ORDER");
         ok(plan_barriers > level_barriers,
            "plan order needs more barriers (%d) than levels (%d)", plan_barriers,
            level_barriers);
         ok(level_memory > plan_memory,
            "levels keep the branches' intermediates apart: %llu bytes, plan order %llu",
            (unsigned long long)level_memory, (unsigned long long)plan_memory);
         printf("# by level: %d barriers, %llu bytes; plan order: %d barriers, %llu bytes\n",
                level_barriers, (unsigned long long)level_memory, plan_barriers,
                (unsigned long long)plan_memory);
         test_set_context(NULL);
      }
      dgu_graph_destroy(&u, &g);
   }
   dgu_finish(&u);
   return test_done();
}
