/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_data_graph_optical_flow's time per frame (docs/performance.md): for
 * each frame size, performance level and output grid, one pipeline and one
 * session with the OPTICAL_FLOW_CACHE bind point (tools/graphrun/of_run.c)
 * run a sequence of textured frames moving by (3, 2) px per frame twice:
 *   full      every dispatch builds both pyramids (execute flags 0);
 *   sequence  each dispatch after the first reuses the last reference's
 *             pyramid as its input's (INPUT_IS_PREVIOUS_REFERENCE), as a video
 *             does;
 * and prints the mean per frame of the GPU time between timestamps around the
 * dispatch and of the wall time of the whole submission (the two frames'
 * upload and the flow's read-back included), with the speed-up of the
 * sequence over the full rebuild measured in the same run. The first
 * dispatch of each mode is a warm-up, not timed. Never run by CTest.
 *   bench_optical_flow [--sizes 640x480,1920x1080] [--levels slow,medium,fast]
 *                      [--grids 4] [--frames N] [--device I] [--manifests DIR]
 * The layers come from --manifests DIR, else VK_LAYER_PATH, else this build
 * tree's; the driver is the loader's choice (VK_DRIVER_FILES selects one).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "of_run.h"
#include "of_synth.h"

#define MAX_ITEMS 8

struct options {
   uint32_t sizes[MAX_ITEMS][2];
   uint32_t size_count;
   VkDataGraphOpticalFlowPerformanceLevelARM levels[MAX_ITEMS];
   uint32_t level_count;
   uint32_t grids[MAX_ITEMS];
   uint32_t grid_count;
   uint32_t frames;
   uint32_t device;
   const char *manifests;
};

struct mode_time {
   double wall, gpu; /* mean ms per frame */
};

static const char *
level_name(VkDataGraphOpticalFlowPerformanceLevelARM l)
{
   return l == VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_SLOW_ARM     ? "slow"
          : l == VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM ? "medium"
                                                                          : "fast";
}

static bool
parse_list(const char *s, const char *what, struct options *o)
{
   char *copy = strdup(s);
   if (!copy)
      return false;
   uint32_t n = 0;
   bool good = true;
   for (char *tok = strtok(copy, ","); tok && good; tok = strtok(NULL, ",")) {
      if (n == MAX_ITEMS) {
         good = false;
      } else if (!strcmp(what, "sizes")) {
         good = sscanf(tok, "%ux%u", &o->sizes[n][0], &o->sizes[n][1]) == 2;
      } else if (!strcmp(what, "levels")) {
         o->levels[n] = !strcmp(tok, "slow")     ? VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_SLOW_ARM
                        : !strcmp(tok, "medium") ? VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM
                        : !strcmp(tok, "fast")   ? VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM
                                                 : VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_UNKNOWN_ARM;
         good = o->levels[n] != VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_UNKNOWN_ARM;
      } else {
         o->grids[n] = (uint32_t)strtoul(tok, NULL, 10);
         good = o->grids[n] == 1 || o->grids[n] == 2 || o->grids[n] == 4 || o->grids[n] == 8;
      }
      n++;
   }
   free(copy);
   if (!strcmp(what, "sizes"))
      o->size_count = n;
   else if (!strcmp(what, "levels"))
      o->level_count = n;
   else
      o->grid_count = n;
   if (!good || n == 0)
      fprintf(stderr, "bench_optical_flow: bad --%s %s\n", what, s);
   return good && n > 0;
}

static bool
parse(int argc, char **argv, struct options *o)
{
   parse_list("640x480,1920x1080", "sizes", o);
   parse_list("slow,medium,fast", "levels", o);
   parse_list("4", "grids", o);
   o->frames = 8;
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!v) {
         fprintf(stderr, "bench_optical_flow: %s needs a value (see the comment at the top "
                         "of bench/bench_optical_flow.c)\n",
                 a);
         return false;
      }
      i++;
      if (!strcmp(a, "--sizes") || !strcmp(a, "--levels") || !strcmp(a, "--grids")) {
         if (!parse_list(v, a + 2, o))
            return false;
      } else if (!strcmp(a, "--frames")) {
         o->frames = (uint32_t)strtoul(v, NULL, 10);
         if (o->frames < 2 || o->frames > 64)
            return fprintf(stderr, "bench_optical_flow: --frames 2 to 64\n"), false;
      } else if (!strcmp(a, "--device")) {
         o->device = (uint32_t)strtoul(v, NULL, 10);
      } else if (!strcmp(a, "--manifests")) {
         o->manifests = v;
      } else {
         fprintf(stderr, "bench_optical_flow: unknown option %s\n", a);
         return false;
      }
   }
   return true;
}

/* frames + 1 frames of w x h, frame k the texture moved by k * (3, 2) px: a crop of one
 * texture, so consecutive frames are exact integer translations. */
static uint8_t *
make_frames(uint32_t w, uint32_t h, uint32_t frames)
{
   uint32_t tw = w + 3 * frames, th = h + 2 * frames;
   uint8_t *tex = malloc((size_t)tw * th);
   uint8_t *all = malloc((size_t)w * h * (frames + 1));
   if (!tex || !all) {
      free(tex);
      free(all);
      return NULL;
   }
   for (uint32_t y = 0; y < th; y++)
      for (uint32_t x = 0; x < tw; x++)
         tex[(size_t)y * tw + x] = (uint8_t)lrintf(of_synth_texture(1, x, y));
   for (uint32_t k = 0; k <= frames; k++)
      for (uint32_t y = 0; y < h; y++)
         memcpy(all + ((size_t)k * h + y) * w, tex + (size_t)(y + 2 * k) * tw + 3 * k, w);
   free(tex);
   return all;
}

/* One mode: a warm-up dispatch, then frames - 1 timed ones. */
static VkResult
run_mode(struct of_run *r, const uint8_t *frames, uint32_t w, uint32_t h, uint32_t count,
         VkDataGraphOpticalFlowExecuteFlagsARM flags, struct mode_time *t)
{
   size_t frame = (size_t)w * h;
   double wall_sum = 0, gpu_sum = 0;
   for (uint32_t k = 0; k < count; k++) {
      of_run_set_frames(r, frames + k * frame, frames + (k + 1) * frame);
      double wall, gpu;
      VkResult res = of_run_dispatch(r, k ? flags : 0, &wall, &gpu);
      if (res != VK_SUCCESS)
         return res;
      if (k) {
         wall_sum += wall;
         gpu_sum += gpu;
      }
   }
   t->wall = wall_sum / (count - 1);
   t->gpu = gpu_sum / (count - 1);
   return VK_SUCCESS;
}

static int
bench(const struct options *o, const struct graph_device *gd)
{
   printf("%-10s %-6s %-4s %9s | %10s %10s | %10s %10s | %8s %8s\n", "size", "level", "grid",
          "create ms", "full GPU", "full wall", "seq GPU", "seq wall", "GPU x", "wall x");
   for (uint32_t s = 0; s < o->size_count; s++) {
      uint32_t w = o->sizes[s][0], h = o->sizes[s][1];
      uint8_t *frames = make_frames(w, h, o->frames);
      if (!frames) {
         fprintf(stderr, "bench_optical_flow: out of memory\n");
         return 1;
      }
      for (uint32_t l = 0; l < o->level_count; l++) {
         for (uint32_t g = 0; g < o->grid_count; g++) {
            struct of_run_params p = {.width = w, .height = h,
                                      .image_format = VK_FORMAT_R8_UNORM, .grid = o->grids[g],
                                      .level = o->levels[l], .cost = true, .cache = true};
            struct of_run *r;
            char log[512] = "";
            double t0 = graph_now_ms();
            VkResult res = of_run_create(gd, &p, &r, log, sizeof(log));
            double create = graph_now_ms() - t0;
            if (res != VK_SUCCESS) {
               fprintf(stderr, "bench_optical_flow: %s\nbench_optical_flow: no optical-flow "
                               "pipeline here: the graph layer's log above says why\n",
                       log);
               free(frames);
               return 1;
            }
            struct mode_time full, seq;
            res = run_mode(r, frames, w, h, o->frames, 0, &full);
            if (res == VK_SUCCESS)
               res = run_mode(r, frames, w, h, o->frames,
                              VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_IS_PREVIOUS_REFERENCE_BIT_ARM,
                              &seq);
            of_run_destroy(r);
            if (res != VK_SUCCESS) {
               fprintf(stderr, "bench_optical_flow: a dispatch failed (%d)\n", res);
               free(frames);
               return 1;
            }
            char size[24];
            snprintf(size, sizeof(size), "%ux%u", w, h);
            printf("%-10s %-6s %-4u %9.1f | %10.3f %10.3f | %10.3f %10.3f | %8.2f %8.2f\n", size,
                   level_name(o->levels[l]), o->grids[g], create, full.gpu, full.wall, seq.gpu,
                   seq.wall, full.gpu / seq.gpu, full.wall / seq.wall);
            fflush(stdout);
         }
      }
      free(frames);
   }
   printf("ms per frame, mean of %u frames after a warm-up; GPU: timestamps around the "
          "dispatch (nan: the queue has none); wall: the submission, two frames' upload and the "
          "read-back included; x: full / sequence\n",
          o->frames - 1);
   return 0;
}

int
main(int argc, char **argv)
{
   struct options o = {0};
   if (!parse(argc, argv, &o))
      return 2;
   static char manifests[4096];
   if (o.manifests)
      setenv("VK_LAYER_PATH", realpath(o.manifests, manifests) ? manifests : o.manifests, 1);
   else
      setenv("VK_LAYER_PATH", VMEL_BUILD_MANIFESTS, 0);
   setenv("NODEVICE_SELECT", "1", 0);
   setenv("MESA_VK_IGNORE_CONFORMANCE_WARNING", "1", 0);
   unsetenv("VMEL_GRAPH_PROFILING");
   const char *layers[] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "bench_optical_flow",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 2,
                               .ppEnabledLayerNames = layers};
   VkInstance instance;
   VkResult r = vkCreateInstance(&ici, NULL, &instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "bench_optical_flow: vkCreateInstance failed (%d); layers from %s\n", r,
              getenv("VK_LAYER_PATH"));
      return 1;
   }
   VkPhysicalDevice pds[16];
   uint32_t n = 16;
   vkEnumeratePhysicalDevices(instance, &n, pds);
   int status = 1;
   if (o.device >= n) {
      fprintf(stderr, "bench_optical_flow: no device %u (%u found)\n", o.device, n);
   } else {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(pds[o.device], &props);
      struct graph_device gd;
      bool offered = false;
      r = of_device_create(instance, pds[o.device], &gd, &offered);
      if (r != VK_SUCCESS) {
         fprintf(stderr, "bench_optical_flow: no device with VK_ARM_data_graph (%d)\n", r);
      } else {
         printf("bench_optical_flow on %s%s\n", props.deviceName,
                offered ? "" : " (VK_ARM_data_graph_optical_flow not listed: trying anyway)");
         status = bench(&o, &gd);
         graph_device_destroy(&gd);
      }
   }
   vkDestroyInstance(instance, NULL);
   return status;
}
