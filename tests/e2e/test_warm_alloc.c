/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The warm recording path allocates nothing in the layers. A command buffer
 * records rec_scene.h's commands (the application's compute state, a
 * data-graph dispatch, tensor barriers, tensor copies, an event with tensor
 * barriers) and is submitted once; recording it again (vkBeginCommandBuffer's
 * implicit reset) and submitting it must make no allocation through the
 * device's allocation callbacks from libVkLayer_Graph.so or
 * libVkLayer_Tensor.so (rec_alloc.h tells them from the driver's and the
 * validation layer's by the caller of the callback). The first recording of
 * a fresh command buffer does allocate in the layers (the data-graph bind
 * point, the tracked compute state): counted too, it shows that the counter
 * sees the layers' allocations, so this test would fail if the warm path
 * allocated. Run with 1 tensor barrier per dependency (the common case) and
 * with 40 (beyond what the layers translate on the stack: those allocate per
 * call, documented in docs/decisions.md). With VMEL_TEST_RECORD_REPS=N it
 * also prints the median time of N warm recordings (begin, the commands, end),
 * to compare builds (docs/decisions.md has the numbers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec_scene.h"
#include "test.h"

TEST_MAIN_STATE;

static int
compare_double(const void *x, const void *y)
{
   double a = *(const double *)x, b = *(const double *)y;
   return a < b ? -1 : a > b;
}

static void
time_recordings(struct dgu *u, struct rec_scene *s, struct rec_alloc *a, VkCommandBuffer cmd,
                int reps)
{
   const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   double *us = calloc((size_t)reps, sizeof(*us));
   if (!us)
      return;
   for (int i = 0; i < reps; i++) {
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      vkBeginCommandBuffer(cmd, &bi);
      rec_scene_record(u, s, cmd, a);
      vkEndCommandBuffer(cmd);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      us[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3;
   }
   qsort(us, (size_t)reps, sizeof(*us), compare_double);
   printf("# %u barrier(s): warm recording, median %.1f us, min %.1f us over %d\n", s->barriers,
          us[reps / 2], us[0], reps);
   free(us);
}

static void
test_warm(struct dgu *u, struct rec_alloc *a, uint32_t barriers)
{
   char context[64];
   snprintf(context, sizeof(context), "%u tensor barrier(s) per dependency", barriers);
   test_set_context(context);
   struct rec_scene s;
   if (!rec_scene_init(u, &s, barriers)) {
      rec_scene_finish(u, &s);
      return;
   }
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = u->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(u->device, &cbai, &cmd);
   if (!ok(r == VK_SUCCESS, "vkAllocateCommandBuffers: %d", r)) {
      rec_scene_finish(u, &s);
      return;
   }
   const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   for (int round = 0; round < 3; round++) {
      rec_scene_fill(&s, 0.25f * (float)round);
      rec_alloc_arm(a, -1, false);
      vkBeginCommandBuffer(cmd, &bi);
      rec_scene_record(u, &s, cmd, a);
      r = vkEndCommandBuffer(cmd);
      bool submitted = r == VK_SUCCESS && rec_scene_submit(u, cmd);
      rec_alloc_disarm(a);
      ok(r == VK_SUCCESS, "round %d: vkEndCommandBuffer: %d", round, r);
      long ours = a->counts[REC_GRAPH] + a->counts[REC_TENSOR];
      printf("# round %d: %ld allocations by the graph layer, %ld by the tensor layer, %ld by "
             "others (driver, validation)\n",
             round, a->counts[REC_GRAPH], a->counts[REC_TENSOR], a->counts[REC_OTHER]);
      if (round == 0) {
         /* The cold recording: the counter must see the layers' allocations. */
         ok(a->counts[REC_GRAPH] > 0, "round 0 (cold): the graph layer's allocations are seen");
      } else if (barriers <= 16) {
         ok(ours == 0, "round %d (warm): no allocation by the layers (%ld)", round, ours);
      } else {
         /* Too many barriers for the stack: the translations allocate (and free) per call,
          * nothing else does. */
         ok(ours <= 6, "round %d (warm, %u barriers): only the translations allocate (%ld)",
            round, barriers, ours);
      }
      if (submitted) {
         char what[64];
         snprintf(what, sizeof(what), "round %d", round);
         rec_scene_check(what, &s);
      }
   }
   const char *reps_env = getenv("VMEL_TEST_RECORD_REPS");
   int reps = reps_env ? atoi(reps_env) : 0;
   if (reps > 0)
      time_recordings(u, &s, a, cmd, reps);
   vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
   rec_scene_finish(u, &s);
}

int
main(void)
{
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &callbacks};
   if (dgu_init(&u, &options)) {
      test_warm(&u, &a, 1);
      test_warm(&u, &a, 40);
   }
   dgu_finish(&u);
   return test_done();
}
