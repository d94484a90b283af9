/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The one header every tensor-layer .c includes (lvp_private.h pattern).
 * VK_LAYER_ML_Tensor_Emulation implements VK_ARM_tensors on any Vulkan 1.3
 * device with buffer device address: tensors become buffers plus small
 * metadata records (design.md §4).
 */
#ifndef TSR_PRIVATE_H
#define TSR_PRIVATE_H

#define LYR_LOG_THIS_DOMAIN LYR_LOG_TENSOR
#include "lyr_cmd.h"
#include "lyr_layer.h"

#include <assert.h>

#include "kernel_abi/tensor_record.h"
#include "tsr_record_slots.h"
#include "vmel_formats.h"

#define TSR_LAYER_NAME "VK_LAYER_ML_Tensor_Emulation"
#define TSR_MAX_RANK 6

/* Attached to VkInstance. */
struct tsr_instance {
   struct lyr_instance base;
};


/** What this layer can offer on one physical device, derived from what the
 *  layers and driver below report. */
struct tsr_caps {
   bool native;        /* VK_ARM_tensors is implemented below us: pass through */
   bool descriptor_buffer; /* the device offers VK_EXT_descriptor_buffer */
   /* ... with descriptorBuffer: tensor descriptors in descriptor buffers are
    * storage-buffer descriptors of this size (tsr_descriptor_buffer.c) */
   bool descriptor_buffer_tensors;
   size_t tensor_descriptor_size;
   bool robust_descriptor_size_differs; /* robustStorageBufferDescriptorSize is another */
   bool can_emulate;   /* the device can host the emulation */
   /* Update-after-bind of tensor bindings is emulated (tsr_uab.c): the driver
    * has no update-after-bind storage buffers, or VMEL_TENSOR_UPDATE_AFTER_BIND=emulate. */
   bool uab_emulated;
   bool uab_forced;     /* VMEL_TENSOR_UPDATE_AFTER_BIND=emulate */
   bool uab_driver_any; /* the driver has update-after-bind of some descriptor type */
   char why_not[256];  /* when !can_emulate: what is missing */
   uint32_t api_version;
   /* Underlying features the emulation uses. */
   struct lyr_feature_request device_features;
   /* What we report. */
   VkPhysicalDeviceTensorFeaturesARM features;
   VkPhysicalDeviceTensorPropertiesARM properties;
};

/* ---- objects we own (the handle is the pointer) ------------------------ */

#define TSR_MAGIC_TENSOR 0x544e5352u /* "TNSR" */
#define TSR_MAGIC_VIEW 0x54564557u   /* "TVEW" */

/* A VkTensorARM: a VkBuffer of the driver holding the elements. */
struct tsr_tensor {
   uint32_t magic;
   VkBuffer buffer;
   VkFormat format;
   VkTensorTilingARM tiling;
   VkTensorUsageFlagsARM usage;
   VkTensorCreateFlagsARM flags;
   uint32_t rank;
   uint32_t element_size;
   int64_t dims[TSR_MAX_RANK];    /* dims[0] outermost */
   int64_t strides[TSR_MAX_RANK]; /* bytes: the application's, or packed */
   bool explicit_strides;         /* the application gave pStrides */
   bool packed;
   VkDeviceSize size;             /* bytes the data spans: strides[0] * dims[0] */
   /* Set by vkBindTensorMemoryARM. */
   VkDeviceMemory memory;
   VkDeviceSize memory_offset;
   VkDeviceAddress address;
};

/* The VK_EXT_descriptor_buffer capture/replay data sizes we report
 * (VkPhysicalDeviceDescriptorBufferTensorPropertiesARM, docs/decisions.md D13):
 * a tensor's is its buffer's opaque capture address, a view's its record slot. */
#define TSR_TENSOR_CAPTURE_DATA_SIZE sizeof(uint64_t)
#define TSR_VIEW_CAPTURE_DATA_SIZE sizeof(uint32_t)

/* Where a view's tensor record lives: one slot of a record chunk. */
struct tsr_record_slot {
   VkBuffer buffer;                   /* the chunk's buffer (descriptor target) */
   VkDeviceSize offset;               /* of the record in that buffer */
   VkDeviceAddress address;           /* of the record; 0 unless descriptor_buffer_tensors */
   struct vmel_tensor_record *mapped; /* host pointer to the record */
   uint32_t chunk;
   uint32_t index;
};

/* A VkTensorViewARM. */
struct tsr_tensor_view {
   uint32_t magic;
   struct tsr_tensor *tensor;
   VkFormat format;
   VkTensorViewCreateFlagsARM flags;
   struct tsr_record_slot record;
   bool alias_tracked; /* of an IMAGE_ALIASING tensor: tsr_image_track_view() */
};

static inline struct tsr_tensor *
tsr_tensor_from_handle(VkTensorARM handle)
{
   struct tsr_tensor *t = (struct tsr_tensor *)(uintptr_t)handle;
   assert(!t || t->magic == TSR_MAGIC_TENSOR);
   return t;
}

static inline VkTensorARM
tsr_tensor_to_handle(struct tsr_tensor *t)
{
   return (VkTensorARM)(uintptr_t)t;
}

static inline struct tsr_tensor_view *
tsr_view_from_handle(VkTensorViewARM handle)
{
   struct tsr_tensor_view *v = (struct tsr_tensor_view *)(uintptr_t)handle;
   assert(!v || v->magic == TSR_MAGIC_VIEW);
   return v;
}

static inline VkTensorViewARM
tsr_view_to_handle(struct tsr_tensor_view *v)
{
   return (VkTensorViewARM)(uintptr_t)v;
}

/* Pooled device memory for tensor records (tsr_view.c): host-visible chunks
 * of records, a free list, behind a mutex. */
struct tsr_record_pool {
   pthread_mutex_t lock;
   struct tsr_record_chunk *chunks; /* array of slots.chunk_count */
   struct tsr_record_slots slots;   /* which are free (tsr_record_slots.c) */
   VkDeviceSize stride; /* record stride: minStorageBufferOffsetAlignment-aligned */
};

/* Attached to VkDevice. */
struct tsr_device {
   struct lyr_device base;
   struct tsr_caps caps; /* as when the device was created */
   VkPhysicalDeviceMemoryProperties memory_properties;
   VkPhysicalDeviceLimits limits;
   struct tsr_record_pool records;
   uint32_t tensor_memory_types; /* bit mask, from a probe buffer */
   /* The application enabled VK_EXT_descriptor_buffer: the capture commands exist. */
   bool descriptor_buffer;
   /* ... and its descriptorBufferCaptureReplay, for which we enabled
    * bufferDeviceAddressCaptureReplay: the CAPTURE_REPLAY flags are accepted. */
   bool capture_replay;
   /* ... and descriptorBufferTensorDescriptors: record chunks have device
    * addresses and vkGetDescriptorEXT writes tensor descriptors. */
   bool descriptor_buffer_tensors;
   /* Descriptor update templates with tensor entries (tsr_descriptor.c). */
   struct lyr_map templates;
   /* Images created with tensor-aliasing usage (tsr_image.c). */
   struct lyr_map alias_images;
   /* Those images as a list and the IMAGE_ALIASING tensors (tsr_image.c). */
   struct tsr_alias_state *alias;
   /* The compute copy kernel and per-command-buffer state (tsr_copy.c). */
   struct tsr_copy_state *copy;
   /* Emulated update-after-bind of tensor bindings (tsr_uab.c), or NULL. */
   struct tsr_uab *uab;
};

static inline struct tsr_device *
tsr_device_get(const void *dispatchable)
{
   return (struct tsr_device *)lyr_device_get(dispatchable);
}


/* ---- per-area setup and hooks ----------------------------------------- */

VkResult tsr_record_pool_init(struct tsr_device *device);
void tsr_record_pool_finish(struct tsr_device *device);
/** Fills a record for the view's tensor and format. */
void tsr_record_write(const struct tsr_tensor_view *view);
/** A record slot of the pool (any free one) and its return (tsr_view.c). */
VkResult tsr_record_slot_alloc(struct tsr_device *device, struct tsr_record_slot *slot);
void tsr_record_slot_free(struct tsr_device *device, const struct tsr_record_slot *slot);

VkResult tsr_copy_init(struct tsr_device *device);
void tsr_copy_finish(struct tsr_device *device);

/* VK_EXT_descriptor_buffer with tensor descriptors (tsr_descriptor_buffer.c). */
/** Fills caps->descriptor_buffer_tensors and tensor_descriptor_size from the
 *  device below (called when it has VK_EXT_descriptor_buffer). */
void tsr_descriptor_buffer_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                                struct tsr_caps *caps);
/** At vkCreateDevice: whether descriptorBufferTensorDescriptors, when requested,
 *  can be enabled (VK_ERROR_FEATURE_NOT_PRESENT and a log line if not); sets
 *  *enabled. */
VkResult tsr_descriptor_buffer_check_device(const VkDeviceCreateInfo *info,
                                            const struct tsr_caps *caps, bool *enabled);
extern const struct lyr_hook_table tsr_descriptor_buffer_hooks;

VkResult tsr_descriptor_init(struct tsr_device *device);
void tsr_descriptor_finish(struct tsr_device *device);

/* Shader lowering and its cache (tsr_shader.c, tensor/lower/). */
VkResult tsr_shader_init(struct tsr_device *device);
void tsr_shader_finish(struct tsr_device *device);

VkResult tsr_image_init(struct tsr_device *device);
void tsr_image_finish(struct tsr_device *device);
/** At vkBindTensorMemoryARM of a tensor with IMAGE_ALIASING usage: when an
 *  aliasing image is bound at the same memory and offset, the tensor takes its
 *  strides from the image's subresource layout. Returns VK_ERROR_VALIDATION_FAILED
 *  (and logs why) when the two cannot alias. */
VkResult tsr_image_alias_tensor(struct tsr_device *device, struct tsr_tensor *tensor);

/** Buffer usage every tensor buffer gets. */
#define TSR_BUFFER_USAGE                                                                           \
   (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |                        \
    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT)

/** Memory types tensor buffers can be bound to (tsr_memory.c, set at device
 *  creation); allocations of these types get VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT. */
VkResult tsr_memory_init(struct tsr_device *device);

extern const struct lyr_hook_table tsr_tensor_hooks;     /* tsr_tensor.c */
extern const struct lyr_hook_table tsr_view_hooks;       /* tsr_view.c */
extern const struct lyr_hook_table tsr_memory_hooks;     /* tsr_memory.c */
extern const struct lyr_hook_table tsr_descriptor_hooks; /* tsr_descriptor.c */
extern const struct lyr_hook_table tsr_barrier_hooks;    /* tsr_barrier.c */
extern const struct lyr_hook_table tsr_copy_hooks;       /* tsr_copy.c */
extern const struct lyr_hook_table tsr_image_hooks;      /* tsr_image.c */
extern const struct lyr_hook_table tsr_shader_hooks;     /* tsr_shader.c */
extern const struct lyr_hook_table tsr_uab_hooks;        /* tsr_uab.c */

#define TSR_HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}

void tsr_query_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                    struct tsr_caps *caps);

/** Tensor format features for one tiling (0 when the format is not handled). */
VkFormatFeatureFlags2 tsr_format_features(struct lyr_instance *instance,
                                          VkPhysicalDevice physical_device,
                                          const struct tsr_caps *caps, VkFormat format,
                                          bool optimal);

/** True for the formats only VK_ARM_tensors defines (bool, bf16, fp8). */
bool tsr_format_is_arm(VkFormat format);

/* Entry points (tsr_<VkName without vk>). */
VKAPI_ATTR VkResult VKAPI_CALL tsr_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkInstance *pInstance);
VKAPI_ATTR void VKAPI_CALL tsr_DestroyInstance(VkInstance instance,
                                               const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL tsr_EnumerateDeviceExtensionProperties(
   VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
   VkExtensionProperties *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL tsr_GetPhysicalDeviceToolProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
   VkPhysicalDeviceToolProperties *pToolProperties);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                          VkPhysicalDeviceFeatures2 *pFeatures);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceProperties2(
   VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2 *pProperties);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceFormatProperties2(
   VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceExternalTensorPropertiesARM(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalTensorInfoARM *pExternalTensorInfo,
   VkExternalTensorPropertiesARM *pExternalTensorProperties);
VKAPI_ATTR VkResult VKAPI_CALL tsr_CreateDevice(VkPhysicalDevice physicalDevice,
                                                const VkDeviceCreateInfo *pCreateInfo,
                                                const VkAllocationCallbacks *pAllocator,
                                                VkDevice *pDevice);
VKAPI_ATTR void VKAPI_CALL tsr_DestroyDevice(VkDevice device,
                                             const VkAllocationCallbacks *pAllocator);

/* ---- tensor/image aliasing (tsr_image.c) ------------------------------ */

/** Instance-level hooks of tsr_image.c: image format queries with
 *  VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM. */
extern const struct lyr_hook_table tsr_image_instance_hooks;

/**
 * At vkCreateTensorARM, once the buffer of a tensor with
 * VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM exists: keeps what recreating that
 * buffer needs. An aliased image's row pitch can make the tensor span more
 * bytes than its packed size; tsr_image_alias_tensor() then replaces
 * tensor->buffer with a larger one bound at the same place.
 * @param bci        the create info the buffer was made with (copied)
 * @param pAllocator the application's allocator for the tensor (copied), or NULL
 * Returns VK_ERROR_OUT_OF_HOST_MEMORY on allocation failure. A tensor this
 * was not called for still aliases an image bound before it (its larger
 * buffer then exclusive, without external handle types) but not one bound
 * after it.
 */
VkResult tsr_image_track_tensor(struct tsr_device *device, struct tsr_tensor *tensor,
                                const VkBufferCreateInfo *bci,
                                const VkAllocationCallbacks *pAllocator);

/**
 * At vkDestroyTensorARM of a tensor with IMAGE_ALIASING usage, before its
 * buffer is destroyed: forgets the tensor (it must be called, or a later
 * vkBindImageMemory would look at freed memory) and destroys any buffer the
 * tensor's current one replaced.
 */
void tsr_image_untrack_tensor(struct tsr_device *device, struct tsr_tensor *tensor);
/** At vkCreateTensorViewARM, after the record is written: a view of an IMAGE_ALIASING
 *  tensor is listed with it, so that its record is written again when an image bound
 *  later gives the tensor other strides (or buffer). */
VkResult tsr_image_track_view(struct tsr_device *device, struct tsr_tensor_view *view);
/** At vkDestroyTensorViewARM (the tensor may be gone already). */
void tsr_image_untrack_view(struct tsr_device *device, struct tsr_tensor_view *view);

/* ---- vkCmdCopyTensorARM and per-command-buffer state ------------------ */
/* Owned by the copy area: tsr_copy.c (copies, the copy kernel's pipelines)
 * and tsr_cmd_state.c (the hooks that keep the application's compute state
 * per command buffer in a struct lyr_cmd_tracker, layers/lyr_cmd.h). */

/** Bytes each invocation of the copy kernel moves: one variant each
 *  (shaders/tensor/copy.comp). */
enum tsr_copy_unit {
   TSR_COPY_UNIT_1,
   TSR_COPY_UNIT_2,
   TSR_COPY_UNIT_4,
   TSR_COPY_UNIT_8,
   TSR_COPY_UNIT_16,
   TSR_COPY_UNIT_COUNT,
};

/** How copies are recorded: VMEL_TENSOR_COPY=auto|buffer|kernel, read at
 *  device creation (tests force each path). */
enum tsr_copy_mode {
   TSR_COPY_AUTO,   /* buffer copies for up to 64 contiguous runs, the kernel beyond */
   TSR_COPY_BUFFER, /* buffer copies only */
   TSR_COPY_KERNEL, /* the kernel wherever it can run */
};

/* Attached to VkDevice (tsr_device::copy). */
struct tsr_copy_state {
   struct lyr_cmd_tracker cmds;     /* the application's compute state (layers/lyr_cmd.h) */
   enum tsr_copy_mode mode;
   uint32_t max_groups[2];          /* workgroups per dispatch in x and y */
   VkPipelineLayout layout;         /* one compute push-constant range, no sets */
   pthread_mutex_t lock;            /* guards creating pipelines[] and failed[] */
   /* Created at first use under the lock, then read without it (a copy is recorded from any
    * thread: no device-wide lock on vkCmdCopyTensorARM, D42). */
   _Atomic(VkPipeline) pipelines[TSR_COPY_UNIT_COUNT];
   bool failed[TSR_COPY_UNIT_COUNT];          /* creation failed: not retried */
};

/* Hooks of tsr_cmd_state.c; tsr_copy.c lists them in tsr_copy_hooks. */
VKAPI_ATTR VkResult VKAPI_CALL tsr_CreateCommandPool(VkDevice device,
                                                     const VkCommandPoolCreateInfo *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkCommandPool *pCommandPool);
VKAPI_ATTR void VKAPI_CALL tsr_DestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                                  const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL tsr_ResetCommandPool(VkDevice device, VkCommandPool commandPool,
                                                    VkCommandPoolResetFlags flags);
VKAPI_ATTR VkResult VKAPI_CALL tsr_AllocateCommandBuffers(
   VkDevice device, const VkCommandBufferAllocateInfo *pAllocateInfo,
   VkCommandBuffer *pCommandBuffers);
VKAPI_ATTR void VKAPI_CALL tsr_FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                                  uint32_t commandBufferCount,
                                                  const VkCommandBuffer *pCommandBuffers);
VKAPI_ATTR VkResult VKAPI_CALL tsr_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                      const VkCommandBufferBeginInfo *pBeginInfo);
VKAPI_ATTR VkResult VKAPI_CALL tsr_ResetCommandBuffer(VkCommandBuffer commandBuffer,
                                                      VkCommandBufferResetFlags flags);
VKAPI_ATTR VkResult VKAPI_CALL tsr_EndCommandBuffer(VkCommandBuffer commandBuffer);
/** Records on the command buffer that a hook could not record what it had to
 *  (vkEndCommandBuffer returns result; layers/lyr_cmd.h). */
void tsr_cmd_fail(struct tsr_device *device, VkCommandBuffer cmd, VkResult result);
VKAPI_ATTR void VKAPI_CALL tsr_CmdBindPipeline(VkCommandBuffer commandBuffer,
                                               VkPipelineBindPoint pipelineBindPoint,
                                               VkPipeline pipeline);
VKAPI_ATTR void VKAPI_CALL tsr_CmdPushConstants(VkCommandBuffer commandBuffer,
                                                VkPipelineLayout layout,
                                                VkShaderStageFlags stageFlags, uint32_t offset,
                                                uint32_t size, const void *pValues);

#endif /* TSR_PRIVATE_H */
