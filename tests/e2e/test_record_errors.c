/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Errors during recording are not lost. The device is created with
 * allocation callbacks (rec_alloc.h) that fail the layers' N-th allocation
 * (or the N-th and every later one) while rec_scene.h's commands are
 * recorded into a fresh command buffer: the application's compute state,
 * a data-graph bind and dispatch, tensor barriers through vkCmdPipelineBarrier2,
 * vkCmdSetEvent2 and vkCmdWaitEvents2, and tensor copies. N runs over every
 * allocation the layers make in that recording (counted first), with 1 and
 * with 40 tensor barriers per dependency (40 takes the heap paths of both
 * layers' translations). Each time:
 *  - nothing crashes;
 *  - vkEndCommandBuffer returns VK_ERROR_OUT_OF_HOST_MEMORY when a failed
 *    allocation kept a hook from recording what it must, and VK_SUCCESS when
 *    the only failures were ones a layer recovers from (the tensor layer's
 *    tracking of push constants, which only its copy kernel needs; the copy
 *    then takes buffer copies);
 *  - with VK_SUCCESS, the submitted work computes the right result, under
 *    synchronization validation (a dropped barrier between the copies is a
 *    hazard);
 *  - the error is cleared by vkBeginCommandBuffer, vkResetCommandBuffer and
 *    vkResetCommandPool: the same command buffer recorded again without
 *    failures ends with VK_SUCCESS and computes the right result.
 * The .kernel variant (VMEL_TENSOR_COPY=kernel) runs it all with the copy
 * kernel, whose compute state restore needs the tracked state, and first
 * fails the kernel pipeline's lazy creation (test_copy_pipeline).
 * vkAllocateCommandBuffers and a whole recording under each failing host
 * allocation and driver call are rows of test_create_oom's table; this test
 * keeps what that table does not check: which failures a recording recovers
 * from, every later allocation failing too, the error cleared by begin and
 * both resets, and synchronization validation of the recovered work.
 * Validation errors of a recording that ends with an error are not counted:
 * the dropped commands leave hazards the application never submits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec_scene.h"
#include "test.h"

TEST_MAIN_STATE;

/* A failure a layer recovers from: the command is still recorded correctly. */
static bool
recoverable(int phase, enum rec_owner owner)
{
   return owner == REC_TENSOR && phase == PH_PUSH;
}

static VkCommandBuffer
new_cmd(struct dgu *u)
{
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = u->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(u->device, &cbai, &cmd);
   ok(r == VK_SUCCESS, "vkAllocateCommandBuffers: %d", r);
   return r == VK_SUCCESS ? cmd : VK_NULL_HANDLE;
}

static const VkCommandBufferBeginInfo begin_info = {
   .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};

/* Records (no failures), ends, submits, checks. */
static void
record_clean(struct dgu *u, struct rec_scene *s, struct rec_alloc *a, VkCommandBuffer cmd,
             const char *what, float seed)
{
   rec_scene_fill(s, seed);
   vkBeginCommandBuffer(cmd, &begin_info);
   rec_scene_record(u, s, cmd, a);
   VkResult r = vkEndCommandBuffer(cmd);
   if (ok(r == VK_SUCCESS, "%s: vkEndCommandBuffer: %d", what, r) && rec_scene_submit(u, cmd))
      rec_scene_check(what, s);
}

/* One recording with the layers' allocation `n` failing (and every later one with after). */
static void
inject(struct dgu *u, struct rec_scene *s, struct rec_alloc *a, long n, bool after)
{
   char what[160];
   VkCommandBuffer cmd = new_cmd(u);
   if (!cmd)
      return;
   rec_scene_fill(s, 0.5f + (float)n);
   unsigned errors = u->v.validation_errors;
   vkBeginCommandBuffer(cmd, &begin_info);
   rec_alloc_arm(a, n, after);
   rec_scene_record(u, s, cmd, a);
   rec_alloc_disarm(a);
   VkResult r = vkEndCommandBuffer(cmd);

   bool lost = false;
   unsigned failed = a->failed < REC_MAX_FAILED ? a->failed : REC_MAX_FAILED;
   for (unsigned i = 0; i < failed; i++)
      lost |= !recoverable(a->failures[i].phase, a->failures[i].owner);
   snprintf(what, sizeof(what), "allocation %ld%s failing (first in %s, %s layer)", n,
            after ? " and later" : "", a->failed ? rec_phase_names[a->failures[0].phase] : "-",
            a->failed ? (a->failures[0].owner == REC_GRAPH ? "graph" : "tensor") : "-");
   if (!ok(a->failed > 0, "%s: an allocation was failed", what)) {
      vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
      return;
   }
   if (lost) {
      ok(r == VK_ERROR_OUT_OF_HOST_MEMORY, "%s: vkEndCommandBuffer returns "
         "VK_ERROR_OUT_OF_HOST_MEMORY (%d)", what, r);
      /* The dropped commands leave hazards in a command buffer never submitted. */
      u->v.validation_errors = errors;
   } else {
      if (ok(r == VK_SUCCESS, "%s: recovered, vkEndCommandBuffer returns VK_SUCCESS (%d)", what,
             r) &&
          rec_scene_submit(u, cmd))
         rec_scene_check(what, s);
   }

   /* The error does not outlive the recording: begin, reset or pool reset clear it. */
   switch (n % 3) {
   case 0:
      snprintf(what, sizeof(what), "recorded again after allocation %ld failed", n);
      break;
   case 1:
      vkResetCommandBuffer(cmd, 0);
      snprintf(what, sizeof(what), "recorded again after vkResetCommandBuffer");
      break;
   default:
      vkResetCommandPool(u->device, u->pool, 0);
      snprintf(what, sizeof(what), "recorded again after vkResetCommandPool");
      break;
   }
   record_clean(u, s, a, cmd, what, 3.0f + (float)n);
   vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
}

static void
test_injection(struct dgu *u, struct rec_alloc *a, uint32_t barriers)
{
   char context[64];
   snprintf(context, sizeof(context), "%u tensor barrier(s) per dependency", barriers);
   test_set_context(context);
   struct rec_scene s;
   if (!rec_scene_init(u, &s, barriers)) {
      rec_scene_finish(u, &s);
      return;
   }
   /* Count the layers' allocations in a clean recording of a fresh command buffer. */
   VkCommandBuffer cmd = new_cmd(u);
   if (cmd) {
      rec_scene_fill(&s, 0.0f);
      vkBeginCommandBuffer(cmd, &begin_info);
      rec_alloc_arm(a, -1, false);
      rec_scene_record(u, &s, cmd, a);
      rec_alloc_disarm(a);
      long count = a->ours;
      VkResult r = vkEndCommandBuffer(cmd);
      if (ok(r == VK_SUCCESS, "clean recording: vkEndCommandBuffer: %d", r) &&
          rec_scene_submit(u, cmd))
         rec_scene_check("clean recording", &s);
      vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
      printf("# %ld allocations by the layers in the recording\n", count);
      ok(count >= 3, "the recording allocates in both layers (%ld)", count);
      for (long n = 0; n < count; n++)
         inject(u, &s, a, n, false);
      for (long n = 0; n < count; n++)
         inject(u, &s, a, n, true);
   }
   rec_scene_finish(u, &s);
}

/* Under VMEL_TENSOR_COPY=kernel (e2e.test_record_errors.kernel), before any
 * other copy: the first copy creates the copy kernel's pipeline; the driver's
 * first allocation in it fails, so the creation fails for lack of memory and
 * the copy takes buffer copies: still recorded, VK_SUCCESS, the right result.
 * The second copy creates the pipeline (a failure for lack of memory is not
 * final) and runs the kernel. */
static void
test_copy_pipeline(struct dgu *u, struct rec_alloc *a)
{
   test_set_context("copy kernel pipeline out of memory");
   struct rec_scene s;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (rec_scene_init(u, &s, 1) && (cmd = new_cmd(u))) {
      rec_scene_fill(&s, 1.0f);
      vkBeginCommandBuffer(cmd, &begin_info);
      vku_capture_stderr_begin();
      rec_alloc_arm_phase(a, PH_COPY1, 1);
      rec_scene_record(u, &s, cmd, a);
      rec_alloc_disarm(a);
      const char *log = vku_capture_stderr_end();
      ok(a->failed == 1 && a->failures[0].owner == REC_OTHER,
         "the driver's first allocation in the first copy failed");
      ok(strstr(log, "creating its compute pipeline failed") != NULL,
         "the copy kernel's pipeline creation failed (log: %.300s)", log);
      VkResult r = vkEndCommandBuffer(cmd);
      if (ok(r == VK_SUCCESS, "vkEndCommandBuffer: %d", r) && rec_scene_submit(u, cmd))
         rec_scene_check("copies after a failed kernel pipeline", &s);
      vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
   }
   rec_scene_finish(u, &s);
}

int
main(void)
{
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &callbacks, .sync_validation = true};
   if (dgu_init(&u, &options)) {
      const char *copy = getenv("VMEL_TENSOR_COPY");
      if (copy && strcmp(copy, "kernel") == 0)
         test_copy_pipeline(&u, &a);
      test_injection(&u, &a, 1);
      test_injection(&u, &a, 40);
   }
   dgu_finish(&u);
   return test_done();
}
