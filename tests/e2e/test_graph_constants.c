/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graph constants in device-local memory through the staging upload
 * (graph/dg_upload.c, docs/decisions.md D46), forced with
 * VMEL_GRAPH_CONSTANTS=staging (lavapipe's memory is all host-visible, where
 * the layer would map the constants):
 *   - a graph out = in + C (C a [1,64] fp32 graph constant) created, its
 *     creation logged as an upload, run, and checked element by element
 *     against the sum computed here (fp32 addition, bit-exact);
 *   - the upload borrows the application's queue: one thread creates and
 *     destroys such pipelines while another labels, submits to and waits on
 *     that queue; the validation layer below checks that no two calls use the
 *     queue at once (its thread-safety check), and every result stays right;
 *   - vkCreateDataGraphPipelinesARM with the layers' k-th allocation failing,
 *     for k = 0, 1, ... until it succeeds: VK_ERROR_OUT_OF_HOST_MEMORY, no
 *     handle, a log line, nothing of the layers' leaked (test_create_oom's
 *     contract, on the staging path).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "rec_alloc.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static const char add_const_text[] =
    DGU_IO_1X64 "%c = OpGraphConstantARM %t 7\n"
                "%gt = OpTypeGraphARM 1 %t %t\n"
                "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
                "%g = OpGraphARM %gt\n"
                "%in = OpGraphInputARM %t %uint_0\n"
                "%out = OpExtInst %t %tosa ADD %in %c\n"
                "OpGraphSetOutputARM %out %uint_0\n"
                "OpGraphEndARM\n";

static float constant_data[N];
static const struct dgu_binding bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};
static const struct dgu_constant constants[] = {
    {7, VK_FORMAT_R32_SFLOAT, 2, {1, N}, constant_data},
};
static const struct dgu_pipeline_desc desc = {
    .text = add_const_text,
    .bindings = bindings,
    .binding_count = 2,
    .constants = constants,
    .constant_count = 1,
};

/* Runs g once on in -> out and checks out = in + constant_data. */
static bool
run_and_check(struct dgu *u, const struct dgu_graph *g, const char *what)
{
   static const int64_t dims[2] = {1, N};
   struct dgu_tensor in, out;
   struct dgu_session s;
   struct dgu_sets sets;
   bool good = dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
               dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out) &&
               dgu_session_create(u, g->pipeline, &s) && dgu_sets_create(u, g, &sets);
   if (!good)
      return false;
   float *x = in.data, *y = out.data, want[N];
   for (int i = 0; i < N; i++) {
      x[i] = (float)(i - 20) * 0.375f;
      y[i] = -1.0f;
      want[i] = x[i] + constant_data[i];
   }
   dgu_write(u, sets.sets[0], 0, 0, &in);
   dgu_write(u, sets.sets[0], 1, 0, &out);
   good = dgu_run(u, g, &sets, s.session) && dgu_check_f32(what, y, want, N);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_tensor_destroy(u, &out);
   dgu_tensor_destroy(u, &in);
   return good;
}

static void
test_staged_run(struct dgu *u)
{
   test_set_context("staged upload");
   struct dgu_graph g;
   vku_capture_stderr_begin();
   VkResult r = dgu_graph_create(u, &desc, &g);
   const char *log = vku_capture_stderr_end();
   if (ok(r == VK_SUCCESS, "pipeline with a staged constant: %d", r)) {
      ok(strstr(log, "uploaded to device-local memory") != NULL,
         "the creation uploads the constant through a staging buffer (log: %s)", log);
      ok(run_and_check(u, &g, "out = in + C"), "the graph reads the uploaded constant");
   }
   dgu_graph_destroy(u, &g);
}

/* ---- the upload against the application's use of the queue ------------------------------- */

struct submitter {
   struct dgu *u;
   volatile bool stop;
   int submissions;
   bool failed;
   bool labels; /* vkQueueInsertDebugUtilsLabelEXT too */
};

/* The application's thread: empty submissions and waits on its queue until stopped. */
static void *
submit_loop(void *arg)
{
   struct submitter *t = arg;
   struct dgu *u = t->u;
   PFN_vkQueueInsertDebugUtilsLabelEXT label = (PFN_vkQueueInsertDebugUtilsLabelEXT)
      vkGetDeviceProcAddr(u->device, "vkQueueInsertDebugUtilsLabelEXT");
   t->labels = label != NULL;
   while (!t->stop && !t->failed) {
      VkDebugUtilsLabelEXT info = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
                                   .pLabelName = "application"};
      if (label)
         label(u->queue, &info);
      VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
      if (vkQueueSubmit(u->queue, 1, &si, VK_NULL_HANDLE) != VK_SUCCESS ||
          vkQueueWaitIdle(u->queue) != VK_SUCCESS)
         t->failed = true;
      t->submissions++;
   }
   return NULL;
}

static void
test_concurrent_queue(struct dgu *u)
{
   test_set_context("upload while the application submits");
   /* The graph's layouts and module once; pipelines are created from them in the loop. */
   struct dgu_graph g;
   if (!ok(dgu_graph_create(u, &desc, &g) == VK_SUCCESS, "first pipeline"))
      return;
   struct submitter t = {.u = u};
   pthread_t thread;
   if (!ok(pthread_create(&thread, NULL, submit_loop, &t) == 0, "submitting thread"))
      return;
   struct dgu_create_parts parts;
   dgu_create_parts(&desc, &g, &parts);
   int created = 0;
   for (int i = 0; i < 24; i++) {
      VkPipeline p = VK_NULL_HANDLE;
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                                     &parts.info, NULL, &p);
      if (!ok(r == VK_SUCCESS, "creation %d while the queue is busy: %d", i, r))
         break;
      vkDestroyPipeline(u->device, p, NULL);
      created++;
   }
   t.stop = true;
   pthread_join(thread, NULL);
   ok(!t.failed, "the application's submissions and waits succeed (%d)", t.submissions);
   printf("# %d pipelines created during %d submissions%s\n", created, t.submissions,
          t.labels ? " (each after a queue label)" : "");
   ok(run_and_check(u, &g, "after the concurrent creations"), "the graph still computes");
   ok(u->v.validation_errors == 0, "no validation error (thread safety of the queue): %u",
      u->v.validation_errors);
   dgu_graph_destroy(u, &g);
}

/* ---- allocation failure ------------------------------------------------------------------- */

static long
ours_live(const struct rec_alloc *a)
{
   return __atomic_load_n(&a->live[REC_GRAPH], __ATOMIC_RELAXED) +
          __atomic_load_n(&a->live[REC_TENSOR], __ATOMIC_RELAXED);
}

static void
test_oom(struct dgu *u, struct rec_alloc *a)
{
   test_set_context("vkCreateDataGraphPipelinesARM, staged constant, allocation failure");
   struct dgu_graph g;
   if (!ok(dgu_graph_create(u, &desc, &g) == VK_SUCCESS, "the pipeline without failures"))
      return;
   struct dgu_create_parts parts;
   dgu_create_parts(&desc, &g, &parts);
   long k = 0;
   for (; k < 100000; k++) {
      long before = ours_live(a);
      VkPipeline p = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      rec_alloc_arm(a, k, false);
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                                     &parts.info, NULL, &p);
      rec_alloc_disarm(a);
      const char *log = vku_capture_stderr_end();
      if (a->failed == 0) {
         ok(r == VK_SUCCESS, "succeeds once no allocation fails (%ld allocations): %d", k, r);
         vkDestroyPipeline(u->device, p, NULL);
         break;
      }
      bool good = ok(r == VK_ERROR_OUT_OF_HOST_MEMORY,
                     "allocation %ld failing gives VK_ERROR_OUT_OF_HOST_MEMORY, got %d (log: %s)",
                     k, r, log);
      good &= ok(p == VK_NULL_HANDLE, "allocation %ld failing hands out no handle", k);
      good &= ok(strstr(log, "out of host memory") != NULL, "allocation %ld failing is logged: %s",
                 k, log);
      good &= ok(ours_live(a) == before, "allocation %ld failing leaks nothing (%ld live, was %ld)",
                 k, ours_live(a), before);
      if (p)
         vkDestroyPipeline(u->device, p, NULL);
      if (!good)
         break;
   }
   printf("# %ld failing allocations checked\n", k);
   ok(k > 0, "the staged creation allocates through the layers");
   ok(run_and_check(u, &g, "after the failures"), "the device still creates and runs graphs");
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   /* before the layers read it, at vkCreateDevice */
   setenv("VMEL_GRAPH_CONSTANTS", "staging", 1);
   setenv("VMEL_GRAPH_SEVERITY", "debug", 1);
   for (int i = 0; i < N; i++)
      constant_data[i] = 0.25f * (float)(i % 9) - 1.0f;
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &callbacks};
   if (dgu_init(&u, &options)) {
      test_staged_run(&u);
      test_concurrent_queue(&u);
      test_oom(&u, &a);
   }
   dgu_finish(&u);
   return test_done();
}
