/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A SPIR-V graph through both layers on lavapipe, as an application runs it
 * (tools/graphrun): out = ADD(CLAMP(in, -1, 1), bias) with bias a graph
 * constant (tests/data/spirv/graph_clamp.spvasm). The result is checked
 * against values computed here; the pipeline's properties are read back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "graph_run.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

int
main(void)
{
   size_t count = 0;
   uint32_t *words = vku_assemble_file(VMEL_TEST_DATA_DIR "/spirv/graph_clamp.spvasm", &count);
   if (!ok(words != NULL, "graph assembles"))
      return test_done();
   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, layers, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   struct graph_device gd;
   if (!ok(graph_device_create(v.instance, v.physical_device, &gd) == VK_SUCCESS, "device"))
      return test_done();

   float in[4] = {-3.0f, -0.5f, 0.25f, 7.0f};
   float bias[4] = {0.5f, 1.0f, -2.0f, 10.0f};
   float out[4] = {0};
   struct graph_tensor input = {.set = 0, .binding = 0, .format = VK_FORMAT_R32_SFLOAT,
                                .rank = 2, .dims = {1, 4}, .data = in, .size = sizeof(in)};
   struct graph_tensor output = {.set = 0, .binding = 1, .format = VK_FORMAT_R32_SFLOAT,
                                 .rank = 2, .dims = {1, 4}, .data = out, .size = sizeof(out)};
   struct graph_constant c = {.id = 0, .format = VK_FORMAT_R32_SFLOAT, .rank = 2, .dims = {1, 4},
                              .data = bias};
   struct graph_run run = {
      .words = words,
      .word_count = count,
      .entry_point = "main",
      .inputs = &input,
      .input_count = 1,
      .outputs = &output,
      .output_count = 1,
      .constants = &c,
      .constant_count = 1,
      .dispatches = 2,
   };
   VkResult r = graph_run(&gd, &run);
   ok(r == VK_SUCCESS, "graph_run: %s", run.log);
   for (int i = 0; i < 4; i++) {
      float want = fminf(fmaxf(in[i], -1.0f), 1.0f) + bias[i];
      ok(out[i] == want, "out[%d] = %g, want %g", i, out[i], want);
   }
   printf("create %.2f ms, session %.2f ms, dispatch %.3f ms\n", run.timing.create_ms,
          run.timing.session_ms, run.timing.dispatch_ms);
   graph_device_destroy(&gd);
   vku_finish(&v);
   free(words);
   return test_done();
}
