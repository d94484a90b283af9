/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Helpers for end-to-end tests: instances with a given layer list (our layers
 * above VK_LAYER_KHRONOS_validation, as ppEnabledLayerNames orders them), a
 * debug-utils messenger that counts validation errors, the lavapipe device,
 * memory-type lookup, SPIR-V text files assembled, and capturing what the
 * layers log to stderr.
 */
#ifndef VMEL_VKUTIL_H
#define VMEL_VKUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

#define VKU_GRAPH "VK_LAYER_ML_Graph_Emulation"
#define VKU_TENSOR "VK_LAYER_ML_Tensor_Emulation"
#define VKU_META "VK_LAYER_ML_Emulation"
#define VKU_VALIDATION "VK_LAYER_KHRONOS_validation"
#define VKU_FAKE_NATIVE "VK_LAYER_VMEL_test_native"

struct vku {
   VkInstance instance;
   VkDebugUtilsMessengerEXT messenger;
   VkPhysicalDevice physical_device;
   _Atomic unsigned validation_errors; /* atomic: messages come from any thread */
   _Atomic unsigned validation_warnings;
   /* Set while a test expects vkCreateDevice to fail: the loader then reports
    * "Failed to create device chain" through the messenger, which is not a
    * validation error. */
   bool expect_device_failure;
};

/**
 * Creates an instance (Vulkan 1.3) with layers in this order, then
 * VK_LAYER_KHRONOS_validation when validation is true, and picks the first
 * physical device. Returns the vkCreateInstance result.
 */
VkResult vku_init(struct vku *v, const char *const *layers, unsigned layer_count, bool validation);

/** vku_init with validation, and the validation layer's synchronization
 *  validation enabled (VkValidationFeaturesEXT): hazards count as errors. */
VkResult vku_init_sync(struct vku *v, const char *const *layers, unsigned layer_count);

/** Destroys the instance; reports validation errors seen as test failures. */
void vku_finish(struct vku *v);

/** Looks up an instance-level function (ours included) by name. */
PFN_vkVoidFunction vku_proc(struct vku *v, const char *name);

/** Creates a device with one compute queue and the given extensions/chain. */
VkResult vku_create_device(struct vku *v, const char *const *extensions, unsigned count,
                           const void *pnext, VkDevice *device);

/** True if the device extension is listed (pLayerName NULL). */
bool vku_has_device_extension(struct vku *v, const char *name);

/** The first memory type of the physical device in `bits` with all of `want`;
 *  UINT32_MAX when there is none. */
uint32_t vku_memory_type(const struct vku *v, uint32_t bits, VkMemoryPropertyFlags want);

/** vku_memory_type() for host-visible, host-coherent memory. */
uint32_t vku_host_memory_type(const struct vku *v, uint32_t bits);

/** Assembles a SPIR-V text file (at most 64 KiB) with vmel_spirv_text: malloc()ed
 *  words, or NULL (the assembler's message printed) when it cannot be read or assembled. */
uint32_t *vku_assemble_file(const char *path, size_t *count);

/** Starts capturing stderr into memory (fd 2 redirected to a temp file). */
void vku_capture_stderr_begin(void);
/** Stops capturing; returns the captured text (static buffer) and echoes it. */
const char *vku_capture_stderr_end(void);

/** Skips the test (exit 77) when no Vulkan 1.3 device is available. */
void vku_require_device(struct vku *v);

/** The VK_ARM_tensors commands tensor tests create tensors with. */
struct vku_tensor_fns {
   PFN_vkCreateTensorARM create;
   PFN_vkDestroyTensorARM destroy;
   PFN_vkGetTensorMemoryRequirementsARM requirements;
   PFN_vkBindTensorMemoryARM bind;
   PFN_vkCreateTensorViewARM create_view;
   PFN_vkDestroyTensorViewARM destroy_view;
};

/**
 * A tensor as desc describes it, in host-visible memory of its own, bound and mapped (the
 * whole allocation filled with `fill`), with a view of desc's format. Counts a check per
 * step; on failure what was made is left in the outputs for the caller to destroy.
 */
bool vku_tensor_create(struct vku *v, VkDevice device, const struct vku_tensor_fns *f,
                       const VkTensorDescriptionARM *desc, uint8_t fill, VkTensorARM *tensor,
                       VkDeviceMemory *memory, void **data, VkTensorViewARM *view);

/** SPIR-V text (tensor shader): dst[i] = src[i] over a pair of rank-1 int32 tensors at set 0,
 * bindings 0 and 1, "LocalSize 16 1 1". */
extern const char vku_tensor_copy_shader[];

#endif /* VMEL_VKUTIL_H */
