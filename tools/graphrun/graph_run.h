/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Running one SPIR-V graph module through VK_ARM_data_graph as an application
 * does: tensors in host-visible memory, one descriptor set layout per set the
 * graph's tensors use, a data-graph pipeline with resource infos and graph
 * constants, a session with its memory, and one or more dispatches on a
 * compute queue. Shared by vmel-run, the end-to-end tests and the
 * conformance runner.
 */
#ifndef VMEL_GRAPH_RUN_H
#define VMEL_GRAPH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

#define GRAPH_RUN_MAX_RANK 6

/** A graph input or output: the tensor bound at (set, binding). */
struct graph_tensor {
   uint32_t set, binding;
   VkFormat format;
   uint32_t rank;
   int64_t dims[GRAPH_RUN_MAX_RANK];
   void *data; /* packed; inputs: read; outputs: written (graph_run allocates if NULL) */
   size_t size; /* bytes of data */
};

/** A graph constant (OpGraphConstantARM id). */
struct graph_constant {
   uint32_t id;
   VkFormat format;
   uint32_t rank;
   int64_t dims[GRAPH_RUN_MAX_RANK];
   const void *data; /* packed */
};

/** The VK_ARM_tensors and VK_ARM_data_graph device commands an application calls. */
struct graph_arm_fns {
   PFN_vkCreateTensorARM CreateTensorARM;
   PFN_vkDestroyTensorARM DestroyTensorARM;
   PFN_vkGetTensorMemoryRequirementsARM GetTensorMemoryRequirementsARM;
   PFN_vkBindTensorMemoryARM BindTensorMemoryARM;
   PFN_vkCreateTensorViewARM CreateTensorViewARM;
   PFN_vkDestroyTensorViewARM DestroyTensorViewARM;
   PFN_vkCreateDataGraphPipelinesARM CreateDataGraphPipelinesARM;
   PFN_vkCreateDataGraphPipelineSessionARM CreateDataGraphPipelineSessionARM;
   PFN_vkDestroyDataGraphPipelineSessionARM DestroyDataGraphPipelineSessionARM;
   PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM
      GetDataGraphPipelineSessionBindPointRequirementsARM;
   PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM
      GetDataGraphPipelineSessionMemoryRequirementsARM;
   PFN_vkBindDataGraphPipelineSessionMemoryARM BindDataGraphPipelineSessionMemoryARM;
   PFN_vkCmdDispatchDataGraphARM CmdDispatchDataGraphARM;
   PFN_vkGetDataGraphPipelineAvailablePropertiesARM GetDataGraphPipelineAvailablePropertiesARM;
   PFN_vkGetDataGraphPipelinePropertiesARM GetDataGraphPipelinePropertiesARM;
};

/** Loads every command of f through vkGetDeviceProcAddr; false when any is missing. */
bool graph_arm_fns_load(VkDevice device, struct graph_arm_fns *f);

/** The Vulkan objects graph_run needs from the caller. */
struct graph_device {
   VkPhysicalDevice physical_device;
   VkDevice device;
   uint32_t queue_family; /* with VK_QUEUE_DATA_GRAPH_BIT_ARM */
   VkQueue queue;
};

struct graph_timing {
   double create_ms;   /* vkCreateDataGraphPipelinesARM */
   double session_ms;  /* session, memory and descriptor set-up */
   double dispatch_ms; /* per dispatch, wall time from submit to fence (mean) */
   double dispatch_min_ms, dispatch_max_ms; /* fastest and slowest dispatch */
};

struct graph_run {
   const uint32_t *words;
   size_t word_count;
   const char *entry_point;
   struct graph_tensor *inputs;
   uint32_t input_count;
   struct graph_tensor *outputs;
   uint32_t output_count;
   const struct graph_constant *constants;
   uint32_t constant_count;
   uint32_t dispatches; /* 0 means 1 */
   /* Called once the last dispatch has completed, before anything is destroyed, e.g. to
    * query the pipeline's properties (vmel-run --profile); may be NULL. */
   void (*after_dispatch)(const struct graph_device *gd, VkPipeline pipeline, void *user);
   void *user;
   struct graph_timing timing; /* filled */
   char log[512];              /* why a step failed */
   VkResult create_result;     /* what vkCreateDataGraphPipelinesARM returned */
};

/** Bytes per element of a tensor format (0 if not a tensor format). */
uint32_t graph_format_size(VkFormat format);

/** The first memory type in bits with all of want, or UINT32_MAX. */
uint32_t graph_memory_type(VkPhysicalDevice physical_device, uint32_t bits,
                           VkMemoryPropertyFlags want);

/** Whether the physical device lists the device extension (through the enabled layers). */
bool graph_has_extension(VkPhysicalDevice physical_device, const char *name);

/** A monotonic clock in milliseconds. */
double graph_now_ms(void);

/** Element count of a tensor. */
uint64_t graph_tensor_elements(const struct graph_tensor *t);

/** Creates a device with VK_ARM_tensors and VK_ARM_data_graph(+TOSA) on the
 *  instance's physical device and finds a data-graph queue. */
VkResult graph_device_create(VkInstance instance, VkPhysicalDevice physical_device,
                             struct graph_device *out);

#define GRAPH_DEVICE_MAX_EXTRA 4
/** graph_device_create() with up to GRAPH_DEVICE_MAX_EXTRA more extensions and feature structs
 *  (extra_features, a pNext chain, may be NULL). */
VkResult graph_device_create_with(VkInstance instance, VkPhysicalDevice physical_device,
                                  const char *const *extra, uint32_t extra_count,
                                  void *extra_features, struct graph_device *out);
void graph_device_destroy(struct graph_device *gd);

/** Runs the graph. Returns the first failing VkResult (the pipeline creation
 *  result is also in create_result), with run->log saying which step. */
VkResult graph_run(const struct graph_device *gd, struct graph_run *run);

#endif /* VMEL_GRAPH_RUN_H */
