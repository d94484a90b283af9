/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * An unshaped graph through both layers on lavapipe, as applications written
 * for Arm's layer run one (tests/data/spirv/graph_unshaped.spvasm): the
 * interface tensors and graph constants have a Rank and no Shape, the shapes
 * come from the resource infos' and constants' VkTensorDescriptionARMs, and
 * the intermediates' shapes are inferred (D23). The output is checked
 * against a convolution computed here; a description that the graph cannot
 * satisfy (an output shape the operators do not give) is refused at creation.
 */
#include <stdio.h>
#include <stdlib.h>

#include "graph_run.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

enum { H = 5, W = 5, C = 2, K = 3, OC = 3, OH = H - K + 1, OW = W - K + 1 };

/* out = 2 * (conv2d(in, w) + bias), NHWC / OHWI, no padding, stride 1. */
static void
expect(const float *in, const float *w, const float *bias, float *out)
{
   for (int y = 0; y < OH; y++)
      for (int x = 0; x < OW; x++)
         for (int o = 0; o < OC; o++) {
            float acc = bias[o];
            for (int ky = 0; ky < K; ky++)
               for (int kx = 0; kx < K; kx++)
                  for (int c = 0; c < C; c++)
                     acc += in[((y + ky) * W + (x + kx)) * C + c] * w[((o * K + ky) * K + kx) * C + c];
            out[(y * OW + x) * OC + o] = 2.0f * acc;
         }
}

static VkResult
run(struct graph_device *gd, const uint32_t *words, size_t count, const int64_t *out_dims,
    float *in, float *w, float *bias, float *out, char *log, size_t log_size)
{
   struct graph_tensor input = {.set = 0, .binding = 0, .format = VK_FORMAT_R32_SFLOAT,
                                .rank = 4, .dims = {1, H, W, C}, .data = in,
                                .size = sizeof(float) * H * W * C};
   struct graph_tensor output = {.set = 0, .binding = 1, .format = VK_FORMAT_R32_SFLOAT,
                                 .rank = 2, .dims = {out_dims[0], out_dims[1]}, .data = out,
                                 .size = sizeof(float) * (size_t)(out_dims[0] * out_dims[1])};
   struct graph_constant c[2] = {
      {.id = 0, .format = VK_FORMAT_R32_SFLOAT, .rank = 4, .dims = {OC, K, K, C}, .data = w},
      {.id = 1, .format = VK_FORMAT_R32_SFLOAT, .rank = 1, .dims = {OC}, .data = bias},
   };
   struct graph_run r = {
      .words = words,
      .word_count = count,
      .entry_point = "main",
      .inputs = &input,
      .input_count = 1,
      .outputs = &output,
      .output_count = 1,
      .constants = c,
      .constant_count = 2,
      .dispatches = 1,
   };
   VkResult result = graph_run(gd, &r);
   snprintf(log, log_size, "%s", r.log);
   return result;
}

int
main(void)
{
   size_t count = 0;
   uint32_t *words =
      vku_assemble_file(VMEL_TEST_DATA_DIR "/spirv/graph_unshaped.spvasm", &count);
   if (!ok(words != NULL, "graph assembles"))
      return test_done();
   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, layers, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   struct graph_device gd;
   if (!ok(graph_device_create(v.instance, v.physical_device, &gd) == VK_SUCCESS, "device"))
      return test_done();

   /* Small integers: every sum is exact in fp32, whatever the order. */
   float in[H * W * C], w[OC * K * K * C], bias[OC], out[OH * OW * OC], want[OH * OW * OC];
   for (int i = 0; i < H * W * C; i++)
      in[i] = (float)((i * 7) % 11 - 5);
   for (int i = 0; i < OC * K * K * C; i++)
      w[i] = (float)((i * 5) % 7 - 3);
   for (int i = 0; i < OC; i++)
      bias[i] = (float)(i * 10 - 10);
   expect(in, w, bias, want);

   char log[512];
   const int64_t dims[2] = {OH * OW, OC};
   VkResult r = run(&gd, words, count, dims, in, w, bias, out, log, sizeof(log));
   if (ok(r == VK_SUCCESS, "unshaped graph runs: %s", log)) {
      int bad = 0;
      for (int i = 0; i < OH * OW * OC; i++)
         bad += out[i] != want[i];
      ok(bad == 0, "%d of %d outputs differ from the reference (out[0] %g, want %g)", bad,
         OH * OW * OC, out[0], want[0]);
   }
   /* The inferred [9,3] is not the [3,9] the application describes: refused at creation. */
   const int64_t wrong[2] = {OC, OH * OW};
   r = run(&gd, words, count, wrong, in, w, bias, out, log, sizeof(log));
   ok(r == VK_ERROR_VALIDATION_FAILED_EXT || r == VK_ERROR_UNKNOWN,
      "an output description the graph cannot give is refused: %d (%s)", r, log);

   graph_device_destroy(&gd);
   vku_finish(&v);
   free(words);
   return test_done();
}
