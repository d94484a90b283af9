/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_data_graph_optical_flow's execute flags (D49): a video through
 * INPUT_IS_PREVIOUS_REFERENCE from one command buffer recorded once and submitted per frame
 * (the slots swap on the GPU), REFERENCE_IS_PREVIOUS_INPUT, the UNCHANGED flags, and a session
 * without OPTICAL_FLOW_CACHE, where those flags are ignored and the pyramids rebuilt. The
 * frames a flag says are kept are overwritten with noise before the dispatch, so only a
 * reused pyramid gives the reference's flow (tests/reference/optical_flow.c).
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

#define W 128u
#define H 96u
#define GRID 4u
#define GW (W / GRID)
#define GH (H / GRID)
#define FRAMES 4

#define IN_UNCHANGED VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_UNCHANGED_BIT_ARM
#define REF_UNCHANGED VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_UNCHANGED_BIT_ARM
#define IN_IS_PREV_REF VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_IS_PREVIOUS_REFERENCE_BIT_ARM
#define REF_IS_PREV_IN VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_IS_PREVIOUS_INPUT_BIT_ARM

static uint8_t frames[FRAMES][W * H];
static uint8_t noise[W * H];

/* Frame k of a video panning by (1.75, -0.6) px per frame. */
static void
make_frames(void)
{
   for (int k = 0; k < FRAMES; k++)
      for (uint32_t y = 0; y < H; y++)
         for (uint32_t x = 0; x < W; x++) {
            float v = of_synth_texture(7, x + 1.75 * k, y - 0.6 * k);
            frames[k][y * W + x] = (uint8_t)fminf(255.0f, fmaxf(0.0f, roundf(v)));
         }
   for (uint32_t i = 0; i < W * H; i++)
      noise[i] = (uint8_t)(i * 2654435761u >> 24);
}

/* The reference's flow of input -> reference. */
static void
expected(const uint8_t *in, const uint8_t *ref, float *flow)
{
   struct of_image a = {in, W, H, W, 8}, b = {ref, W, H, W, 8};
   struct of_pyramid pa = {0}, pb = {0};
   uint32_t levels = of_levels(W, H, OF_PERF_MEDIUM);
   of_pyramid_build(&pa, &a, levels);
   of_pyramid_build(&pb, &b, levels);
   struct of_params prm = {W, H, GRID, OF_PERF_MEDIUM, NULL, 0};
   of_compute(&prm, &pa, &pb, flow, NULL);
   of_pyramid_free(&pa);
   of_pyramid_free(&pb);
}

/* The GPU's flow (read back) against the reference's for these frames. */
static void
check(struct ofu *o, struct ofu_run *r, const uint8_t *in, const uint8_t *ref, const char *what)
{
   uint16_t got[GW * GH * 2];
   float want[GW * GH * 2];
   expected(in, ref, want);
   ofu_image_read(o, &r->flow, got);
   ofu_check_flow(what, got, want, GW * GH, NULL);
}

static const struct ofu_config config = {W, H, VK_FORMAT_R8_UNORM, GRID, 0, 2, false};

/* One command buffer, recorded once with INPUT_IS_PREVIOUS_REFERENCE, submitted per frame. */
static void
test_video(struct ofu *o)
{
   struct ofu_run r;
   if (!ofu_run_create(o, &config, true, &r))
      goto out;
   ofu_image_write(o, &r.in, frames[0]);
   ofu_image_write(o, &r.ref, frames[1]);
   ofu_dispatch(o, &r, 0);
   check(o, &r, frames[0], frames[1], "first pair, pyramids built");
   VkCommandBuffer cmd = dgu_begin(&o->u);
   ofu_record(o, &r, cmd, IN_IS_PREV_REF);
   ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "the video's command buffer");
   for (int k = 1; k + 1 < FRAMES; k++) {
      /* the input image holds noise: the input is the last reference's pyramid */
      ofu_image_write(o, &r.in, noise);
      ofu_image_write(o, &r.ref, frames[k + 1]);
      VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                        .commandBuffer = cmd};
      VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                          .commandBufferInfoCount = 1,
                          .pCommandBufferInfos = &cbsi};
      VkResult res = vkQueueSubmit2(o->u.queue, 1, &si, o->u.fence);
      if (res == VK_SUCCESS)
         res = vkWaitForFences(o->u.device, 1, &o->u.fence, VK_TRUE, UINT64_MAX);
      vkResetFences(o->u.device, 1, &o->u.fence);
      ok(res == VK_SUCCESS, "submission %d: %d", k, res);
      char what[96];
      snprintf(what, sizeof(what), "frame %d -> %d through INPUT_IS_PREVIOUS_REFERENCE", k, k + 1);
      check(o, &r, frames[k], frames[k + 1], what);
   }
   dgu_free_cmd(&o->u, cmd);
out:
   ofu_run_destroy(o, &r);
}

static void
test_reuse(struct ofu *o)
{
   struct ofu_run r;
   if (!ofu_run_create(o, &config, true, &r))
      goto out;
   ofu_image_write(o, &r.in, frames[1]);
   ofu_image_write(o, &r.ref, frames[0]);
   ofu_dispatch(o, &r, 0);
   check(o, &r, frames[1], frames[0], "1 -> 0, pyramids built");
   /* REFERENCE_IS_PREVIOUS_INPUT: frame 2 against frame 1 */
   ofu_image_write(o, &r.in, frames[2]);
   ofu_image_write(o, &r.ref, noise);
   ofu_dispatch(o, &r, REF_IS_PREV_IN);
   check(o, &r, frames[2], frames[1], "2 -> 1 through REFERENCE_IS_PREVIOUS_INPUT");
   /* both unchanged: the same pair again, from noise in both images */
   ofu_image_write(o, &r.in, noise);
   ofu_dispatch(o, &r, IN_UNCHANGED | REF_UNCHANGED);
   check(o, &r, frames[2], frames[1], "2 -> 1 through INPUT_UNCHANGED | REFERENCE_UNCHANGED");
   /* one unchanged: a new reference, the same input */
   ofu_image_write(o, &r.ref, frames[3]);
   ofu_dispatch(o, &r, IN_UNCHANGED);
   check(o, &r, frames[2], frames[3], "2 -> 3 through INPUT_UNCHANGED");
   /* flags that only the algorithm's hints concern: no effect */
   ofu_image_write(o, &r.in, frames[0]);
   ofu_image_write(o, &r.ref, frames[1]);
   ofu_dispatch(o, &r, VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_DISABLE_TEMPORAL_HINTS_BIT_ARM);
   check(o, &r, frames[0], frames[1], "0 -> 1 with DISABLE_TEMPORAL_HINTS");
out:
   ofu_run_destroy(o, &r);
}

/* Without OPTICAL_FLOW_CACHE the reuse flags are logged and ignored: the images count. */
static void
test_cacheless(struct ofu *o)
{
   struct ofu_run r;
   if (!ofu_run_create(o, &config, false, &r))
      goto out;
   ofu_image_write(o, &r.in, frames[0]);
   ofu_image_write(o, &r.ref, frames[1]);
   ofu_dispatch(o, &r, 0);
   ofu_image_write(o, &r.in, frames[2]);
   ofu_image_write(o, &r.ref, frames[3]);
   vku_capture_stderr_begin();
   ofu_dispatch(o, &r, IN_UNCHANGED | REF_IS_PREV_IN);
   const char *log = vku_capture_stderr_end();
   ok(log && strstr(log, "without OPTICAL_FLOW_CACHE"), "the ignored flags are logged");
   check(o, &r, frames[2], frames[3], "cache-less session: 2 -> 3, pyramids rebuilt");
out:
   ofu_run_destroy(o, &r);
}

/* A device without the extension enabled takes no single-node pipeline. */
static void
test_not_enabled(void)
{
   struct ofu plain;
   if (ofu_init(&plain, false)) {
      VkPipeline p = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      VkResult r = ofu_pipeline(&plain, &config, &p);
      vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT && p == VK_NULL_HANDLE,
         "no optical-flow pipeline without the extension: %d", r);
   }
   ofu_finish(&plain);
}

int
main(void)
{
   struct ofu o;
   make_frames();
   test_not_enabled();
   if (ofu_init(&o, true)) {
      test_video(&o);
      test_reuse(&o);
      test_cacheless(&o);
   }
   ofu_finish(&o);
   return test_done();
}
