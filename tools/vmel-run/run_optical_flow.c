/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run --optical-flow: the optical flow between two PNG frames through
 * VK_ARM_data_graph_optical_flow (tools/graphrun/of_run.c), written as a
 * float32 .npy of shape (H, W, 2) at the output grid, optionally the cost as
 * uint16 (H, W) and a colour picture of the flow (flow_vis.h).
 */
#include "run_optical_flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow_vis.h"
#include "npy.h"
#include "of_run.h"
#include "png_io.h"

static const char of_usage_text[] =
   "usage: vmel-run --optical-flow INPUT.png REFERENCE.png -o FLOW.npy [options]\n"
   "\n"
   "The optical flow from INPUT to REFERENCE (flow(p): where p of INPUT is in REFERENCE)\n"
   "through VK_ARM_data_graph_optical_flow on the default Vulkan device. PNG frames of any\n"
   "colour type become 8-bit luma (Rec. 601: Y = (77 R + 150 G + 29 B + 128) >> 8).\n"
   "\n"
   "  -o, --output FLOW.npy     the flow, float32, shape (ceil(H/G), ceil(W/G), 2), x then y\n"
   "  --grid G                  output grid 1, 2, 4 or 8 (default 4)\n"
   "  --level slow|medium|fast  performance level (default medium)\n"
   "  --hint HINT.npy           a hint flow, float32 (ceil(H/G), ceil(W/G), 2)\n"
   "  --cost COST.npy           also write the cost, uint16 (ceil(H/G), ceil(W/G))\n"
   "  --png FLOW.png            also write the flow as colours: hue = direction (right red,\n"
   "                            down chartreuse, left cyan, up violet), saturation = length\n"
   "                            over the longest vector, white = no motion\n"
   "  --layers L1,L2,...        layers to enable (default:\n"
   "                            VK_LAYER_ML_Graph_Emulation,VK_LAYER_ML_Tensor_Emulation)\n";

struct of_options {
   const char *input, *reference, *output, *hint, *cost, *png;
   uint32_t grid;
   VkDataGraphOpticalFlowPerformanceLevelARM level;
   const char *layers[8];
   uint32_t layer_count;
   char *layer_list;
};

static int
of_usage_error(const char *what, const char *arg)
{
   fprintf(stderr, "vmel-run --optical-flow: %s%s\n(vmel-run --optical-flow --help for usage)\n",
           what, arg ? arg : "");
   return 2;
}

/* Returns 0, -1 for --help, or the exit status of a usage error. */
static int
parse(int argc, char **argv, struct of_options *o)
{
   o->grid = 4;
   o->level = VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM;
   o->layers[0] = "VK_LAYER_ML_Graph_Emulation";
   o->layers[1] = "VK_LAYER_ML_Tensor_Emulation";
   o->layer_count = 2;
   for (int i = 1; i < argc; i++) {
      const char *arg = argv[i];
      if (strcmp(arg, "--optical-flow") == 0)
         continue;
      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
         fputs(of_usage_text, stdout);
         return -1;
      }
      if (arg[0] != '-') {
         if (!o->input)
            o->input = arg;
         else if (!o->reference)
            o->reference = arg;
         else
            return of_usage_error("a third frame: ", arg);
         continue;
      }
      if (i + 1 >= argc)
         return of_usage_error("a value is missing after ", arg);
      const char *value = argv[++i];
      if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
         o->output = value;
      } else if (strcmp(arg, "--grid") == 0) {
         o->grid = (uint32_t)strtoul(value, NULL, 10);
         if (o->grid != 1 && o->grid != 2 && o->grid != 4 && o->grid != 8)
            return of_usage_error("--grid wants 1, 2, 4 or 8, not ", value);
      } else if (strcmp(arg, "--level") == 0) {
         if (strcmp(value, "slow") == 0)
            o->level = VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_SLOW_ARM;
         else if (strcmp(value, "medium") == 0)
            o->level = VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM;
         else if (strcmp(value, "fast") == 0)
            o->level = VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM;
         else
            return of_usage_error("--level wants slow, medium or fast, not ", value);
      } else if (strcmp(arg, "--hint") == 0) {
         o->hint = value;
      } else if (strcmp(arg, "--cost") == 0) {
         o->cost = value;
      } else if (strcmp(arg, "--png") == 0) {
         o->png = value;
      } else if (strcmp(arg, "--layers") == 0) {
         free(o->layer_list);
         o->layer_list = strdup(value);
         o->layer_count = 0;
         for (char *tok = o->layer_list ? strtok(o->layer_list, ",:") : NULL; tok;
              tok = strtok(NULL, ",:")) {
            if (o->layer_count == 8)
               return of_usage_error("more than 8 layers in --layers ", value);
            o->layers[o->layer_count++] = tok;
         }
      } else {
         return of_usage_error("unknown option ", arg);
      }
   }
   if (!o->input || !o->reference)
      return of_usage_error("two PNG frames are needed (INPUT.png REFERENCE.png)", NULL);
   if (!o->output)
      return of_usage_error("-o FLOW.npy is needed", NULL);
   return 0;
}

/* The frames and the hint, read and checked before any Vulkan work. */
struct of_inputs {
   uint32_t w, h;
   uint8_t *input, *reference;
   struct npy_array hint;
   bool has_hint;
};

static bool
read_inputs(const struct of_options *o, struct of_inputs *in)
{
   char err[512];
   uint32_t w2, h2;
   if (!png_read_luma(o->input, &in->w, &in->h, &in->input, err, sizeof(err)) ||
       !png_read_luma(o->reference, &w2, &h2, &in->reference, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s\n", err);
      return false;
   }
   if (w2 != in->w || h2 != in->h) {
      fprintf(stderr, "vmel-run: the frames differ in size (%ux%u and %ux%u)\n", in->w, in->h, w2,
              h2);
      return false;
   }
   if (!o->hint)
      return true;
   if (!npy_read_file(o->hint, &in->hint, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s\n", err);
      return false;
   }
   in->has_hint = true;
   uint32_t ow = (in->w + o->grid - 1) / o->grid, oh = (in->h + o->grid - 1) / o->grid;
   if (in->hint.dtype != NPY_F32 || in->hint.rank != 3 || in->hint.shape[0] != oh ||
       in->hint.shape[1] != ow || in->hint.shape[2] != 2) {
      fprintf(stderr, "vmel-run: %s: the hint must be float32 of shape (%u, %u, 2)\n", o->hint,
              oh, ow);
      return false;
   }
   return true;
}

static bool
write_outputs(const struct of_options *o, uint32_t ow, uint32_t oh, float *flow, uint16_t *cost)
{
   char err[512];
   struct npy_array a = {.dtype = NPY_F32, .rank = 3, .shape = {oh, ow, 2}, .data = flow,
                         .size = (size_t)ow * oh * 2 * sizeof(float)};
   if (!npy_write_file(o->output, &a, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s\n", err);
      return false;
   }
   printf("  flow: %s (%u x %u vectors, float32)\n", o->output, ow, oh);
   if (o->cost) {
      struct npy_array c = {.dtype = NPY_U16, .rank = 2, .shape = {oh, ow}, .data = cost,
                            .size = (size_t)ow * oh * sizeof(uint16_t)};
      if (!npy_write_file(o->cost, &c, err, sizeof(err))) {
         fprintf(stderr, "vmel-run: %s\n", err);
         return false;
      }
      printf("  cost: %s (uint16)\n", o->cost);
   }
   if (o->png) {
      uint8_t *rgb = malloc((size_t)ow * oh * 3);
      float max = rgb ? flow_vis_image(flow, ow, oh, rgb) : 0.0f;
      bool good = rgb && png_write(o->png, ow, oh, 3, rgb, err, sizeof(err));
      free(rgb);
      if (!good) {
         fprintf(stderr, "vmel-run: %s\n", rgb ? err : "out of memory");
         return false;
      }
      printf("  picture: %s (full saturation = %.2f px)\n", o->png, max);
   }
   return true;
}

static int
run(const struct of_options *o, const struct of_inputs *in, VkInstance instance)
{
   /* The first device with VK_ARM_data_graph, as vmel-run picks for graphs. */
   VkPhysicalDevice pds[16], pd = VK_NULL_HANDLE;
   uint32_t n = 16;
   vkEnumeratePhysicalDevices(instance, &n, pds);
   for (uint32_t i = 0; i < n && !pd; i++)
      if (graph_has_extension(pds[i], VK_ARM_DATA_GRAPH_EXTENSION_NAME))
         pd = pds[i];
   if (!pd) {
      fprintf(stderr, "vmel-run: no device offers VK_ARM_data_graph (%u device(s)); vmel-info "
                      "says why\n",
              n);
      return 1;
   }
   struct graph_device gd;
   bool offered = false;
   VkResult r = of_device_create(instance, pd, &gd, &offered);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "vmel-run: creating a device with VK_ARM_data_graph failed (%d); vmel-info "
                      "says what the device offers\n",
              r);
      return 1;
   }
   if (!offered)
      fprintf(stderr, "vmel-run: note: the device does not list %s; creating the pipeline "
                      "anyway\n",
              VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME);
   struct of_run_params p = {.width = in->w, .height = in->h, .image_format = VK_FORMAT_R8_UNORM,
                             .grid = o->grid, .level = o->level, .hint = in->has_hint,
                             .cost = o->cost != NULL};
   struct of_run *ofr;
   char log[512] = "";
   int status = 1;
   r = of_run_create(&gd, &p, &ofr, log, sizeof(log));
   if (r != VK_SUCCESS) {
      fprintf(stderr, "vmel-run: %s\n", log);
      fprintf(stderr, "vmel-run: no optical-flow pipeline on this device: the graph layer's log "
                      "above says why (VMEL_GRAPH_SEVERITY=info says more)\n");
      graph_device_destroy(&gd);
      return 1;
   }
   uint32_t ow, oh;
   of_run_output_size(ofr, &ow, &oh);
   of_run_set_frames(ofr, in->input, in->reference);
   if (in->has_hint)
      of_run_set_hint(ofr, in->hint.data);
   double wall = 0, gpu = 0;
   float *flow = malloc((size_t)ow * oh * 2 * sizeof(float));
   uint16_t *cost = malloc((size_t)ow * oh * sizeof(uint16_t));
   if (!flow || !cost) {
      fprintf(stderr, "vmel-run: out of memory\n");
   } else if ((r = of_run_dispatch(ofr, 0, &wall, &gpu)) != VK_SUCCESS) {
      fprintf(stderr, "vmel-run: the optical-flow dispatch failed (%d)\n", r);
   } else {
      of_run_read(ofr, flow, cost);
      printf("vmel-run --optical-flow: %ux%u frames, grid %u: %.2f ms (GPU %s%.2f ms)\n", in->w,
             in->h, o->grid, wall, isnan(gpu) ? "n/a " : "", isnan(gpu) ? 0.0 : gpu);
      status = write_outputs(o, ow, oh, flow, cost) ? 0 : 1;
   }
   free(flow);
   free(cost);
   of_run_destroy(ofr);
   graph_device_destroy(&gd);
   return status;
}

int
vmel_run_optical_flow(int argc, char **argv)
{
   struct of_options o = {0};
   int status = parse(argc, argv, &o);
   if (status) {
      free(o.layer_list);
      return status < 0 ? 0 : status;
   }
   struct of_inputs in = {0};
   status = 1;
   if (read_inputs(&o, &in)) {
      VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                               .pApplicationName = "vmel-run",
                               .apiVersion = VK_API_VERSION_1_3};
      VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                  .pApplicationInfo = &app,
                                  .enabledLayerCount = o.layer_count,
                                  .ppEnabledLayerNames = o.layers};
      VkInstance instance;
      VkResult r = vkCreateInstance(&ici, NULL, &instance);
      if (r == VK_SUCCESS) {
         status = run(&o, &in, instance);
         vkDestroyInstance(instance, NULL);
      } else {
         fprintf(stderr, "vmel-run: vkCreateInstance failed (%d); are the layers on "
                         "VK_LAYER_PATH or installed?\n",
                 r);
      }
   }
   free(in.input);
   free(in.reference);
   if (in.has_hint)
      npy_array_finish(&in.hint);
   free(o.layer_list);
   return status;
}
