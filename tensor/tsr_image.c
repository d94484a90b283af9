/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Images created with VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM, a bit the
 * driver below does not know: they become linear images without it (creation,
 * memory requirements without an image, image format queries), are recorded
 * with where they are bound, and lend their subresource layout to the tensors
 * bound at the same memory and offset, in either binding order: the tensor's
 * strides become the image's pitches, and its buffer grows to cover them.
 * Image layouts in barriers are tsr_barrier.c's; tensor creation and binding
 * are tsr_tensor.c's, which calls in here.
 */
#include "tsr_private.h"
#include "tsr_uab.h"

#include <inttypes.h>
#include <stdio.h>

/* An image with tensor-aliasing usage (a linear image of the driver). */
struct tsr_alias_image {
   VkImage image;
   VkAllocationCallbacks alloc; /* this record's */
   VkImageType type;
   VkFormat format;
   VkExtent3D extent;
   uint32_t array_layers;
   /* Set by vkBindImageMemory / vkBindImageMemory2. */
   bool bound;
   VkDeviceMemory memory;
   VkDeviceSize memory_offset;
   VkDeviceSize size;          /* vkGetImageMemoryRequirements */
   VkSubresourceLayout layout; /* of mip level 0, array layer 0 */
};

/* A tensor with VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM: what recreating its
 * buffer needs, and the buffer a larger one replaced. */
struct tsr_alias_tensor {
   struct tsr_tensor *tensor;
   VkAllocationCallbacks alloc; /* this record's */
   bool app_alloc;              /* the tensor's buffers use alloc (else NULL) */
   VkBufferCreateFlags buffer_flags;
   VkSharingMode sharing_mode;
   VkExternalMemoryHandleTypeFlags handle_types;
   VkDeviceSize buffer_size; /* of tensor->buffer */
   VkBuffer replaced;        /* kept for command buffers recorded before */
   void **views;             /* struct tsr_tensor_view *: records to rewrite */
   uint32_t view_count;
   uint32_t view_capacity;
   uint32_t queue_family_count;
   uint32_t queue_families[]; /* VK_SHARING_MODE_CONCURRENT */
};

/* Attached to VkDevice. device->alias_images maps VkImage to tsr_alias_image
 * for the lookups every image command makes; these lists are for matching
 * memory bindings. */
struct tsr_alias_state {
   pthread_mutex_t lock;
   void **images; /* struct tsr_alias_image *, image_count */
   uint32_t image_count;
   uint32_t image_capacity;
   void **tensors; /* struct tsr_alias_tensor *, tensor_count */
   uint32_t tensor_count;
   uint32_t tensor_capacity;
};

static const void *
image_key(VkImage image)
{
   return (const void *)(uintptr_t)image;
}

static bool
list_add(const VkAllocationCallbacks *alloc, void ***items, uint32_t *count, uint32_t *capacity,
         void *item)
{
   if (*count == *capacity) {
      uint32_t grown = *capacity ? *capacity * 2 : 8;
      void **p = lyr_realloc(alloc, *items, grown * sizeof(void *), sizeof(void *),
                             VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
      if (!p)
         return false;
      *items = p;
      *capacity = grown;
   }
   (*items)[(*count)++] = item;
   return true;
}

static void
list_remove(void **items, uint32_t *count, const void *item)
{
   for (uint32_t i = 0; i < *count; i++) {
      if (items[i] == item) {
         items[i] = items[--*count];
         return;
      }
   }
}

/* ---- formats ----------------------------------------------------------- */

/* The components of an image format whose texels a tensor can alias: all of
 * one size and in memory order (no packed, compressed, depth/stencil or
 * multi-planar formats). False for the others. */
static bool
format_components(VkFormat format, uint32_t *count, uint32_t *size)
{
   static const struct {
      VkFormat first, last;
      uint8_t count, size;
   } ranges[] = {
      {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SRGB, 1, 1},
      {VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SRGB, 2, 1},
      {VK_FORMAT_R8G8B8_UNORM, VK_FORMAT_B8G8R8_SRGB, 3, 1},
      {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB, 4, 1},
      {VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SFLOAT, 1, 2},
      {VK_FORMAT_R16G16_UNORM, VK_FORMAT_R16G16_SFLOAT, 2, 2},
      {VK_FORMAT_R16G16B16_UNORM, VK_FORMAT_R16G16B16_SFLOAT, 3, 2},
      {VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, 4, 2},
      {VK_FORMAT_R32_UINT, VK_FORMAT_R32_SFLOAT, 1, 4},
      {VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32_SFLOAT, 2, 4},
      {VK_FORMAT_R32G32B32_UINT, VK_FORMAT_R32G32B32_SFLOAT, 3, 4},
      {VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32B32A32_SFLOAT, 4, 4},
      {VK_FORMAT_R64_UINT, VK_FORMAT_R64_SFLOAT, 1, 8},
      {VK_FORMAT_R64G64_UINT, VK_FORMAT_R64G64_SFLOAT, 2, 8},
      {VK_FORMAT_R64G64B64_UINT, VK_FORMAT_R64G64B64_SFLOAT, 3, 8},
      {VK_FORMAT_R64G64B64A64_UINT, VK_FORMAT_R64G64B64A64_SFLOAT, 4, 8},
   };
   for (size_t i = 0; i < LYR_ARRAY_SIZE(ranges); i++) {
      if (format >= ranges[i].first && format <= ranges[i].last) {
         *count = ranges[i].count;
         *size = ranges[i].size;
         return true;
      }
   }
   return false;
}

/* Why an image with tensor-aliasing usage cannot have these parameters here,
 * or NULL. */
static const char *
alias_image_unsupported(VkFormat format, VkImageTiling tiling, VkImageCreateFlags flags,
                        bool accept_linear)
{
   uint32_t count, size;
   /* VUID-VkImageCreateInfo-tiling-09711: "If tiling is VK_IMAGE_TILING_LINEAR
    * then VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM must not be set in usage".
    * The queries answer by that rule; creation accepts such images (they are
    * linear images here anyway) for applications written against Arm's layer
    * (docs/decisions.md D27). */
   if (tiling != VK_IMAGE_TILING_OPTIMAL && !(accept_linear && tiling == VK_IMAGE_TILING_LINEAR))
      return "tensor-aliasing usage needs VK_IMAGE_TILING_OPTIMAL";
   /* "The format of the tensor must be compatible with that of the individual
    * components of the format of the image." */
   if (!format_components(format, &count, &size))
      return "the format's texels are not components of one size that a tensor can alias";
   if (flags & (VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT |
                VK_IMAGE_CREATE_SPARSE_ALIASED_BIT))
      return "tensor-aliasing images are linear images here, which cannot be sparse";
   return NULL;
}

/* ---- instance level: image format queries ------------------------------ */

static bool
emulated_on(struct lyr_instance *instance, VkPhysicalDevice physical_device)
{
   struct tsr_caps caps;
   tsr_query_caps(instance, physical_device, &caps);
   return !caps.native && caps.can_emulate;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice physicalDevice, VkFormat format,
                                           VkImageType type, VkImageTiling tiling,
                                           VkImageUsageFlags usage, VkImageCreateFlags flags,
                                           VkImageFormatProperties *pImageFormatProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if (!(usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM) || !emulated_on(instance, physicalDevice))
      return instance->next.GetPhysicalDeviceImageFormatProperties(
         physicalDevice, format, type, tiling, usage, flags, pImageFormatProperties);
   const char *why = alias_image_unsupported(format, tiling, flags, false);
   if (why) {
      lyr_logi("vkGetPhysicalDeviceImageFormatProperties: format %d: %s", format, why);
      memset(pImageFormatProperties, 0, sizeof(*pImageFormatProperties));
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   return instance->next.GetPhysicalDeviceImageFormatProperties(
      physicalDevice, format, type, VK_IMAGE_TILING_LINEAR,
      usage & ~VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM, flags, pImageFormatProperties);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_GetPhysicalDeviceImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
   VkImageFormatProperties2 *pImageFormatProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if (!(pImageFormatInfo->usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM) ||
       !emulated_on(instance, physicalDevice))
      return instance->next.GetPhysicalDeviceImageFormatProperties2(
         physicalDevice, pImageFormatInfo, pImageFormatProperties);
   const char *why = alias_image_unsupported(pImageFormatInfo->format, pImageFormatInfo->tiling,
                                             pImageFormatInfo->flags, false);
   if (why) {
      lyr_logi("vkGetPhysicalDeviceImageFormatProperties2: format %d: %s",
               pImageFormatInfo->format, why);
      memset(&pImageFormatProperties->imageFormatProperties, 0,
             sizeof(pImageFormatProperties->imageFormatProperties));
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   VkPhysicalDeviceImageFormatInfo2 info = *pImageFormatInfo;
   info.usage &= ~VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM;
   info.tiling = VK_IMAGE_TILING_LINEAR;
   struct lyr_out_chain oc;
   VkResult result = lyr_out_chain_begin(&oc, &instance->alloc, pImageFormatProperties,
                                         sizeof(*pImageFormatProperties), lyr_drop_arm_ml, NULL);
   if (result != VK_SUCCESS)
      return result;
   result = instance->next.GetPhysicalDeviceImageFormatProperties2(physicalDevice, &info, oc.head);
   lyr_out_chain_end(&oc);
   return result;
}

/* Linear images are never sparse, so tensor-aliasing images have no sparse
 * formats. */
static VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice physicalDevice, VkFormat format,
                                                 VkImageType type, VkSampleCountFlagBits samples,
                                                 VkImageUsageFlags usage, VkImageTiling tiling,
                                                 uint32_t *pPropertyCount,
                                                 VkSparseImageFormatProperties *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if ((usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM) && emulated_on(instance, physicalDevice)) {
      *pPropertyCount = 0;
      return;
   }
   instance->next.GetPhysicalDeviceSparseImageFormatProperties(
      physicalDevice, format, type, samples, usage, tiling, pPropertyCount, pProperties);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceSparseImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
   uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if ((pFormatInfo->usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM) &&
       emulated_on(instance, physicalDevice)) {
      *pPropertyCount = 0;
      return;
   }
   instance->next.GetPhysicalDeviceSparseImageFormatProperties2(physicalDevice, pFormatInfo,
                                                                pPropertyCount, pProperties);
}

static const struct lyr_hook instance_hooks[] = {
   TSR_HOOK(GetPhysicalDeviceImageFormatProperties, tsr_GetPhysicalDeviceImageFormatProperties),
   TSR_HOOK(GetPhysicalDeviceImageFormatProperties2, tsr_GetPhysicalDeviceImageFormatProperties2),
   TSR_HOOK(GetPhysicalDeviceImageFormatProperties2KHR,
            tsr_GetPhysicalDeviceImageFormatProperties2),
   TSR_HOOK(GetPhysicalDeviceSparseImageFormatProperties,
            tsr_GetPhysicalDeviceSparseImageFormatProperties),
   TSR_HOOK(GetPhysicalDeviceSparseImageFormatProperties2,
            tsr_GetPhysicalDeviceSparseImageFormatProperties2),
   TSR_HOOK(GetPhysicalDeviceSparseImageFormatProperties2KHR,
            tsr_GetPhysicalDeviceSparseImageFormatProperties2),
};

const struct lyr_hook_table tsr_image_instance_hooks = LYR_HOOK_TABLE(instance_hooks);

/* ---- image creation ----------------------------------------------------- */

static bool
needs_rewrite(const VkImageCreateInfo *info)
{
   return (info->usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM) ||
          info->initialLayout == VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM;
}

/* The create info the driver gets: tensor-aliasing usage becomes a linear
 * image without the bit, within the limits of linear images (which the image
 * format queries report for that usage). */
static VkResult
alias_image_info(struct tsr_device *device, const VkImageCreateInfo *app, VkImageCreateInfo *out,
                 const char *cmd)
{
   *out = *app;
   /* Not a valid initial layout; the closest one that keeps the contents. */
   if (app->initialLayout == VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM)
      out->initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
   if (!(app->usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM))
      return VK_SUCCESS;

   const char *why = alias_image_unsupported(app->format, app->tiling, app->flags, true);
   if (why)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT, "%s: format %d: %s", cmd, app->format, why);
   if (app->tiling == VK_IMAGE_TILING_LINEAR)
      lyr_logw("%s: TENSOR_ALIASING usage with VK_IMAGE_TILING_LINEAR breaks "
               "VUID-VkImageCreateInfo-tiling-09711; accepted (images with that usage are linear "
               "images here): tensors bound at its place take its pitches",
               cmd);
   out->usage &= ~VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM;
   out->tiling = VK_IMAGE_TILING_LINEAR;

   struct lyr_instance *instance = device->base.instance;
   VkImageFormatProperties props;
   VkResult result = instance->next.GetPhysicalDeviceImageFormatProperties(
      device->base.physical_device, out->format, out->imageType, out->tiling, out->usage,
      out->flags, &props);
   if (result != VK_SUCCESS)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: format %d, usage 0x%x: no linear images of these on this device, "
                       "so none with tensor-aliasing usage",
                       cmd, out->format, out->usage);
   if (out->extent.width > props.maxExtent.width || out->extent.height > props.maxExtent.height ||
       out->extent.depth > props.maxExtent.depth || out->mipLevels > props.maxMipLevels ||
       out->arrayLayers > props.maxArrayLayers || !(out->samples & props.sampleCounts))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: %ux%ux%u, %u mip levels, %u layers, %d samples exceed what images "
                       "with tensor-aliasing usage of format %d can have here (%ux%ux%u, %u, %u, "
                       "sample counts 0x%x)",
                       cmd, out->extent.width, out->extent.height, out->extent.depth,
                       out->mipLevels, out->arrayLayers, out->samples, out->format,
                       props.maxExtent.width, props.maxExtent.height, props.maxExtent.depth,
                       props.maxMipLevels, props.maxArrayLayers, props.sampleCounts);
   return VK_SUCCESS;
}

static VkResult
image_record(struct tsr_device *device, const VkImageCreateInfo *info, VkImage image,
             const VkAllocationCallbacks *pAllocator)
{
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   struct tsr_alias_image *img =
      lyr_zalloc(alloc, sizeof(*img), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!img)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   img->image = image;
   img->alloc = *alloc;
   img->type = info->imageType;
   img->format = info->format;
   img->extent = info->extent;
   img->array_layers = info->arrayLayers;

   struct tsr_alias_state *state = device->alias;
   pthread_mutex_lock(&state->lock);
   bool listed = list_add(&device->base.alloc, &state->images, &state->image_count,
                          &state->image_capacity, img);
   pthread_mutex_unlock(&state->lock);
   if (listed && lyr_map_insert(&device->alias_images, image_key(image), img))
      return VK_SUCCESS;
   if (listed) {
      pthread_mutex_lock(&state->lock);
      list_remove(state->images, &state->image_count, img);
      pthread_mutex_unlock(&state->lock);
   }
   lyr_free(alloc, img);
   return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateImage(VkDevice _device, const VkImageCreateInfo *pCreateInfo,
                const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (!needs_rewrite(pCreateInfo))
      return device->base.next.CreateImage(_device, pCreateInfo, pAllocator, pImage);

   VkImageCreateInfo info;
   VkResult result = alias_image_info(device, pCreateInfo, &info, "vkCreateImage");
   if (result != VK_SUCCESS)
      return result;
   result = device->base.next.CreateImage(_device, &info, pAllocator, pImage);
   if (result != VK_SUCCESS || !(pCreateInfo->usage & VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM))
      return result;
   result = image_record(device, &info, *pImage, pAllocator);
   if (result != VK_SUCCESS) {
      device->base.next.DestroyImage(_device, *pImage, pAllocator);
      *pImage = VK_NULL_HANDLE;
   }
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_DestroyImage(VkDevice _device, VkImage image, const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_alias_image *img =
      image ? lyr_map_remove(&device->alias_images, image_key(image)) : NULL;
   if (img) {
      pthread_mutex_lock(&device->alias->lock);
      list_remove(device->alias->images, &device->alias->image_count, img);
      pthread_mutex_unlock(&device->alias->lock);
      VkAllocationCallbacks alloc = img->alloc;
      lyr_free(&alloc, img);
   }
   device->base.next.DestroyImage(_device, image, pAllocator);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetDeviceImageMemoryRequirements(VkDevice _device, const VkDeviceImageMemoryRequirements *pInfo,
                                     VkMemoryRequirements2 *pMemoryRequirements)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (!needs_rewrite(pInfo->pCreateInfo)) {
      device->base.next.GetDeviceImageMemoryRequirements(_device, pInfo, pMemoryRequirements);
      return;
   }
   VkImageCreateInfo info;
   if (alias_image_info(device, pInfo->pCreateInfo, &info,
                        "vkGetDeviceImageMemoryRequirements") != VK_SUCCESS) {
      memset(&pMemoryRequirements->memoryRequirements, 0,
             sizeof(pMemoryRequirements->memoryRequirements));
      return;
   }
   VkDeviceImageMemoryRequirements req = *pInfo;
   req.pCreateInfo = &info;
   device->base.next.GetDeviceImageMemoryRequirements(_device, &req, pMemoryRequirements);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetDeviceImageSparseMemoryRequirements(
   VkDevice _device, const VkDeviceImageMemoryRequirements *pInfo,
   uint32_t *pSparseMemoryRequirementCount,
   VkSparseImageMemoryRequirements2 *pSparseMemoryRequirements)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (!needs_rewrite(pInfo->pCreateInfo)) {
      device->base.next.GetDeviceImageSparseMemoryRequirements(
         _device, pInfo, pSparseMemoryRequirementCount, pSparseMemoryRequirements);
      return;
   }
   VkImageCreateInfo info;
   if (alias_image_info(device, pInfo->pCreateInfo, &info,
                        "vkGetDeviceImageSparseMemoryRequirements") != VK_SUCCESS) {
      *pSparseMemoryRequirementCount = 0;
      return;
   }
   VkDeviceImageMemoryRequirements req = *pInfo;
   req.pCreateInfo = &info;
   device->base.next.GetDeviceImageSparseMemoryRequirements(
      _device, &req, pSparseMemoryRequirementCount, pSparseMemoryRequirements);
}

/* ---- aliasing ----------------------------------------------------------- */

static void
format_dims(const struct tsr_tensor *t, char *out, size_t size)
{
   size_t n = (size_t)snprintf(out, size, "[");
   for (uint32_t i = 0; i < t->rank && n < size; i++)
      n += (size_t)snprintf(out + n, size - n, "%s%" PRId64, i ? ", " : "", t->dims[i]);
   if (n < size)
      snprintf(out + n, size - n, "]");
}

/**
 * The strides a tensor takes from an image it aliases, outermost first, and
 * the bytes from its first element to past its last. VK_ARM_tensors, Memory
 * Aliasing: the tensor has at least as many dimensions as the image plus one;
 * its innermost dimension is the image format's component count; "the size of
 * the tensor along all dimensions other than the N innermost dimensions
 * necessary to represent the image ... must be 1". So a 2D image is [H, W, C]
 * (rowPitch for H), a 3D one [D, H, W, C] (depthPitch for D). An array
 * image's next dimension may also span its layers (arrayPitch), and a tensor
 * may cover less than the image's extent.
 */
static VkResult
alias_strides(struct tsr_device *device, const struct tsr_alias_image *img,
              const struct tsr_tensor *t, int64_t *strides, VkDeviceSize *extent,
              const char *cmd)
{
   char dims[128], what[320];
   format_dims(t, dims, sizeof(dims));
   snprintf(what, sizeof(what), "%s: tensor %s of format %d cannot alias image 0x%" PRIx64
            " (format %d, %ux%ux%u, %u layers)",
            cmd, dims, t->format, (uint64_t)(uintptr_t)img->image, img->format,
            img->extent.width, img->extent.height, img->extent.depth, img->array_layers);

   uint32_t components = 0, component_size = 0;
   format_components(img->format, &components, &component_size);
   uint32_t n = img->type == VK_IMAGE_TYPE_1D ? 1 : img->type == VK_IMAGE_TYPE_2D ? 2 : 3;
   bool array = img->type != VK_IMAGE_TYPE_3D && img->array_layers > 1;
   const uint32_t r = t->rank;
   const int64_t es = t->element_size;
   if (r < n + 1)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: a %uD image needs a tensor of at least %u dimensions", what, n, n + 1);
   if (t->element_size != component_size)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: %u-byte elements, %u-byte image components", what, t->element_size,
                       component_size);
   if (t->dims[r - 1] != components)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the innermost dimension must be the %u components of a texel", what,
                       components);
   if (img->layout.offset != 0)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the image's data starts %" PRIu64 " bytes after where it is bound",
                       what, (uint64_t)img->layout.offset);

   /* Inner to outer: components, width, height, depth, then layers. */
   const struct {
      int64_t stride;
      uint32_t limit;
      const char *name;
   } axes[4] = {
      {components * es, img->extent.width, "width"},
      {(int64_t)img->layout.rowPitch, img->extent.height, "height"},
      {(int64_t)img->layout.depthPitch, img->extent.depth, "depth"},
      {(int64_t)img->layout.arrayPitch, img->array_layers, "array layers"},
   };
   strides[r - 1] = es;
   uint32_t d = r - 1; /* dimensions left, outermost first */
   for (uint32_t a = 0; a < 4 && d > 0; a++) {
      if (a == 1 && n < 2)
         continue;
      if (a == 2 && n < 3)
         continue;
      if (a == 3 && !array)
         continue;
      d--;
      if (t->dims[d] > axes[a].limit)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "%s: dimension %u (%" PRId64 ") exceeds the image's %s (%u)", what, d,
                          t->dims[d], axes[a].name, axes[a].limit);
      strides[d] = axes[a].stride;
   }
   for (; d > 0; d--) {
      if (t->dims[d - 1] != 1)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "%s: dimension %u is %" PRId64 "; dimensions outside the image must "
                          "be 1",
                          what, d - 1, t->dims[d - 1]);
      strides[d - 1] = strides[d] * t->dims[d];
   }

   /* The strides must make a valid tensor description (VkTensorDescriptionARM). */
   VkDeviceSize last = 0;
   for (uint32_t i = 0; i < r; i++) {
      if (strides[i] <= 0 || strides[i] % es != 0 ||
          strides[i] > device->caps.properties.maxTensorStride)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "%s: the image's pitch %" PRId64 " is not a stride this tensor can have",
                          what, strides[i]);
      if (i > 0 && strides[i - 1] < strides[i] * t->dims[i])
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "%s: the image's pitches would make dimensions %u and %u overlap", what,
                          i - 1, i);
      last += (VkDeviceSize)((t->dims[i] - 1) * strides[i]);
   }
   *extent = last + (VkDeviceSize)es;
   if (*extent > img->size)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the tensor would span %" PRIu64 " bytes, the image only %" PRIu64,
                       what, (uint64_t)*extent, (uint64_t)img->size);
   return VK_SUCCESS;
}

/* Replaces the tensor's buffer with one of size bytes bound at the same
 * place; bound is what the image bound there occupies. The old buffer is
 * destroyed, or with keep_old (command buffers may have recorded it) kept
 * until the tensor is destroyed. */
static VkResult
replace_buffer(struct tsr_device *device, struct tsr_alias_tensor *e, VkDeviceSize size,
               VkDeviceSize bound, bool keep_old, const char *cmd)
{
   struct tsr_tensor *t = e->tensor;
   VkDevice handle = device->base.handle;
   const VkAllocationCallbacks *pAllocator = e->app_alloc ? &e->alloc : NULL;
   VkExternalMemoryBufferCreateInfo ext = {
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = e->handle_types,
   };
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .pNext = e->handle_types ? &ext : NULL,
      .flags = e->buffer_flags,
      .size = size,
      .usage = TSR_BUFFER_USAGE,
      .sharingMode = e->sharing_mode,
      .queueFamilyIndexCount = e->queue_family_count,
      .pQueueFamilyIndices = e->queue_family_count ? e->queue_families : NULL,
   };
   VkBuffer buffer;
   VkResult result = device->base.next.CreateBuffer(handle, &bci, pAllocator, &buffer);
   if (result != VK_SUCCESS)
      return lyr_error(result, "%s: cannot create the %" PRIu64 "-byte buffer of an aliasing "
                       "tensor", cmd, (uint64_t)size);

   VkBufferMemoryRequirementsInfo2 ri = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
      .buffer = buffer,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   device->base.next.GetBufferMemoryRequirements2(handle, &ri, &req);
   const VkMemoryRequirements *mr = &req.memoryRequirements;
   if (mr->size > bound || t->memory_offset % mr->alignment != 0) {
      device->base.next.DestroyBuffer(handle, buffer, pAllocator);
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: an aliasing tensor needs %" PRIu64 " bytes aligned to %" PRIu64
                       " at offset %" PRIu64 "; the image bound there has %" PRIu64,
                       cmd, (uint64_t)mr->size, (uint64_t)mr->alignment,
                       (uint64_t)t->memory_offset, (uint64_t)bound);
   }
   VkBindBufferMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
      .buffer = buffer,
      .memory = t->memory,
      .memoryOffset = t->memory_offset,
   };
   result = device->base.next.BindBufferMemory2(handle, 1, &bind);
   if (result != VK_SUCCESS) {
      device->base.next.DestroyBuffer(handle, buffer, pAllocator);
      return lyr_error(result, "%s: cannot bind the buffer of an aliasing tensor", cmd);
   }
   VkBufferDeviceAddressInfo ai = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = buffer,
   };
   if (keep_old) {
      if (e->replaced)
         device->base.next.DestroyBuffer(handle, e->replaced, pAllocator);
      e->replaced = t->buffer;
   } else {
      device->base.next.DestroyBuffer(handle, t->buffer, pAllocator);
   }
   e->buffer_size = size;
   t->buffer = buffer;
   t->address = device->base.next.GetBufferDeviceAddress(handle, &ai);
   return VK_SUCCESS;
}

/* A linear tensor with its own strides (pStrides) keeps them: the spec's
 * linear aliasing rule wants them equal to the image's pitches (Memory
 * Aliasing: pStrides[dimensionCount-3] == rowPitch, pStrides[dimensionCount-4]
 * == depthPitch), so where a dimension of more than one element has another
 * stride, the two would read each other's bytes as different elements. */
static VkResult
alias_check_strides(const struct tsr_alias_image *img, const struct tsr_tensor *t,
                    const int64_t *strides, const char *cmd)
{
   for (uint32_t d = 0; d < t->rank; d++) {
      if (t->dims[d] > 1 && t->strides[d] != strides[d]) {
         char dims[128];
         format_dims(t, dims, sizeof(dims));
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "%s: linear tensor %s with pStrides[%u] = %" PRId64
                          " cannot alias image 0x%" PRIx64 " (format %d, row pitch %" PRIu64
                          ", depth pitch %" PRIu64 ", array pitch %" PRIu64
                          "), whose layout puts dimension %u at %" PRId64
                          " bytes (VK_ARM_tensors, Memory Aliasing: a linear tensor's strides "
                          "must be the image's pitches); give pStrides NULL to take them",
                          cmd, dims, d, t->strides[d], (uint64_t)(uintptr_t)img->image,
                          img->format, (uint64_t)img->layout.rowPitch,
                          (uint64_t)img->layout.depthPitch, (uint64_t)img->layout.arrayPitch, d,
                          strides[d]);
      }
   }
   lyr_logd("%s: linear tensor with its own strides aliases image 0x%" PRIx64, cmd,
            (uint64_t)(uintptr_t)img->image);
   return VK_SUCCESS;
}

static bool
strides_packed(const struct tsr_tensor *t)
{
   int64_t packed = t->element_size;
   for (uint32_t i = t->rank; i-- > 0;) {
      if (t->strides[i] != packed)
         return false;
      packed *= t->dims[i];
   }
   return true;
}

/* The tensor takes the image's layout. Called with the state locked;
 * keep_old as for replace_buffer(). */
static VkResult
alias_apply(struct tsr_device *device, const struct tsr_alias_image *img,
            struct tsr_alias_tensor *e, bool keep_old, const char *cmd)
{
   struct tsr_tensor *t = e->tensor;
   int64_t strides[TSR_MAX_RANK];
   VkDeviceSize extent = 0;
   VkResult result = alias_strides(device, img, t, strides, &extent, cmd);
   if (result != VK_SUCCESS)
      return result;
   if (t->explicit_strides)
      return alias_check_strides(img, t, strides, cmd);
   /* Our tensors span strides[0] * dims[0] bytes where that fits the image. */
   VkDeviceSize full = (VkDeviceSize)(strides[0] * t->dims[0]);
   VkDeviceSize size = full <= img->size ? full : extent;
   if (size > e->buffer_size) {
      result = replace_buffer(device, e, size, img->size, keep_old, cmd);
      if (result != VK_SUCCESS)
         return result;
   }
   memcpy(t->strides, strides, sizeof(strides[0]) * t->rank);
   t->packed = strides_packed(t);
   t->size = size;
   /* Views made before the image was bound see the new strides and buffer. */
   for (uint32_t i = 0; i < e->view_count; i++) {
      tsr_record_write(e->views[i]);
      tsr_uab_view_rewritten(device, e->views[i]); /* copies in update-after-bind sets */
   }
   if (lyr_log_enabled(LYR_LOG_THIS_DOMAIN, LYR_LOG_DEBUG)) {
      char dims[128];
      format_dims(t, dims, sizeof(dims));
      lyr_logd("%s: tensor %s aliases image 0x%" PRIx64 ": row pitch %" PRIu64 ", %" PRIu64
               " bytes",
               cmd, dims, (uint64_t)(uintptr_t)img->image, (uint64_t)img->layout.rowPitch,
               (uint64_t)size);
   }
   return VK_SUCCESS;
}

static struct tsr_alias_tensor *
find_tensor_locked(struct tsr_alias_state *state, const struct tsr_tensor *tensor)
{
   for (uint32_t i = 0; i < state->tensor_count; i++) {
      struct tsr_alias_tensor *e = state->tensors[i];
      if (e->tensor == tensor)
         return e;
   }
   return NULL;
}

/* A record for the tensor, with what its buffer was created with. */
static struct tsr_alias_tensor *
tensor_record_create(struct tsr_device *device, struct tsr_tensor *tensor,
                     const VkBufferCreateInfo *bci, const VkAllocationCallbacks *pAllocator)
{
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   uint32_t families =
      bci->sharingMode == VK_SHARING_MODE_CONCURRENT ? bci->queueFamilyIndexCount : 0;
   struct tsr_alias_tensor *e =
      lyr_zalloc(alloc, sizeof(*e) + families * sizeof(uint32_t), 8,
                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!e)
      return NULL;
   const VkExternalMemoryBufferCreateInfo *ext =
      lyr_find_struct(bci->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
   e->tensor = tensor;
   e->alloc = *alloc;
   e->app_alloc = pAllocator != NULL;
   e->buffer_flags = bci->flags;
   e->sharing_mode = bci->sharingMode;
   e->handle_types = ext ? ext->handleTypes : 0;
   e->buffer_size = bci->size;
   e->queue_family_count = families;
   if (families)
      memcpy(e->queue_families, bci->pQueueFamilyIndices, families * sizeof(uint32_t));
   return e;
}

static void
tensor_record_free(struct tsr_device *device, struct tsr_alias_tensor *e)
{
   lyr_free(&e->alloc, e->views);
   if (e->replaced)
      device->base.next.DestroyBuffer(device->base.handle, e->replaced,
                                      e->app_alloc ? &e->alloc : NULL);
   VkAllocationCallbacks alloc = e->alloc;
   lyr_free(&alloc, e);
}

VkResult
tsr_image_track_tensor(struct tsr_device *device, struct tsr_tensor *tensor,
                       const VkBufferCreateInfo *bci, const VkAllocationCallbacks *pAllocator)
{
   struct tsr_alias_state *state = device->alias;
   struct tsr_alias_tensor *e = tensor_record_create(device, tensor, bci, pAllocator);
   if (!e)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pthread_mutex_lock(&state->lock);
   bool listed = list_add(&device->base.alloc, &state->tensors, &state->tensor_count,
                          &state->tensor_capacity, e);
   pthread_mutex_unlock(&state->lock);
   if (!listed) {
      tensor_record_free(device, e);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   return VK_SUCCESS;
}

void
tsr_image_untrack_tensor(struct tsr_device *device, struct tsr_tensor *tensor)
{
   struct tsr_alias_state *state = device->alias;
   pthread_mutex_lock(&state->lock);
   struct tsr_alias_tensor *e = find_tensor_locked(state, tensor);
   if (e)
      list_remove(state->tensors, &state->tensor_count, e);
   pthread_mutex_unlock(&state->lock);
   if (e)
      tensor_record_free(device, e);
}

VkResult
tsr_image_track_view(struct tsr_device *device, struct tsr_tensor_view *view)
{
   if (!(view->tensor->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM))
      return VK_SUCCESS;
   struct tsr_alias_state *state = device->alias;
   bool listed = true;
   pthread_mutex_lock(&state->lock);
   struct tsr_alias_tensor *e = find_tensor_locked(state, view->tensor);
   if (e) {
      listed = list_add(&e->alloc, &e->views, &e->view_count, &e->view_capacity, view);
      /* Again under the lock: an image bound meanwhile may have changed the layout. */
      tsr_record_write(view);
   }
   pthread_mutex_unlock(&state->lock);
   if (!listed)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   view->alias_tracked = e != NULL;
   return VK_SUCCESS;
}

void
tsr_image_untrack_view(struct tsr_device *device, struct tsr_tensor_view *view)
{
   if (!view->alias_tracked)
      return;
   /* The tensor may have been destroyed: its record is found by address only. */
   struct tsr_alias_state *state = device->alias;
   pthread_mutex_lock(&state->lock);
   for (uint32_t i = 0; i < state->tensor_count; i++) {
      struct tsr_alias_tensor *e = state->tensors[i];
      if (e->tensor == view->tensor) {
         list_remove(e->views, &e->view_count, view);
         break;
      }
   }
   pthread_mutex_unlock(&state->lock);
}

/* The record of a tensor tsr_image_track_tensor() was not told about: it
 * lives for one call (an exclusive buffer, the device's allocator), and that
 * tensor is not aliased by images bound after it. */
static void
untracked_record(struct tsr_tensor *tensor, struct tsr_alias_tensor *e)
{
   *e = (struct tsr_alias_tensor){
      .tensor = tensor,
      .sharing_mode = VK_SHARING_MODE_EXCLUSIVE,
      .buffer_size = tensor->size,
      .buffer_flags = (tensor->flags & VK_TENSOR_CREATE_PROTECTED_BIT_ARM)
                         ? VK_BUFFER_CREATE_PROTECTED_BIT
                         : 0,
   };
}

VkResult
tsr_image_alias_tensor(struct tsr_device *device, struct tsr_tensor *tensor)
{
   if (!(tensor->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM))
      return VK_SUCCESS;
   struct tsr_alias_state *state = device->alias;
   VkResult result = VK_SUCCESS;
   pthread_mutex_lock(&state->lock);
   struct tsr_alias_tensor untracked;
   struct tsr_alias_tensor *e = find_tensor_locked(state, tensor);
   if (!e) {
      lyr_logw("vkBindTensorMemoryARM: an IMAGE_ALIASING tensor tsr_image_track_tensor() was "
               "not told about; images bound after it will not alias it");
      untracked_record(tensor, &untracked);
      e = &untracked;
   }
   for (uint32_t i = 0; i < state->image_count; i++) {
      const struct tsr_alias_image *img = state->images[i];
      if (img->bound && img->memory == tensor->memory &&
          img->memory_offset == tensor->memory_offset) {
         /* Nothing can have recorded the buffer bound a moment ago. */
         result = alias_apply(device, img, e, false, "vkBindTensorMemoryARM");
         break;
      }
   }
   pthread_mutex_unlock(&state->lock);
   return result;
}

/* After an image is bound: records where, and aliases the tensors bound there. */
static VkResult
image_bound(struct tsr_device *device, VkImage image, VkDeviceMemory memory, VkDeviceSize offset,
            const char *cmd)
{
   struct tsr_alias_image *img = lyr_map_lookup(&device->alias_images, image_key(image));
   if (!img)
      return VK_SUCCESS;
   VkImageSubresource sub = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT};
   VkSubresourceLayout layout;
   device->base.next.GetImageSubresourceLayout(device->base.handle, image, &sub, &layout);
   VkMemoryRequirements req;
   device->base.next.GetImageMemoryRequirements(device->base.handle, image, &req);

   struct tsr_alias_state *state = device->alias;
   VkResult result = VK_SUCCESS;
   pthread_mutex_lock(&state->lock);
   img->bound = true;
   img->memory = memory;
   img->memory_offset = offset;
   img->layout = layout;
   img->size = req.size;
   for (uint32_t i = 0; i < state->tensor_count; i++) {
      struct tsr_alias_tensor *e = state->tensors[i];
      if (e->tensor->memory != VK_NULL_HANDLE && e->tensor->memory == memory &&
          e->tensor->memory_offset == offset) {
         VkResult r = alias_apply(device, img, e, true, cmd);
         if (result == VK_SUCCESS)
            result = r;
      }
   }
   pthread_mutex_unlock(&state->lock);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_BindImageMemory(VkDevice _device, VkImage image, VkDeviceMemory memory,
                    VkDeviceSize memoryOffset)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result = device->base.next.BindImageMemory(_device, image, memory, memoryOffset);
   if (result != VK_SUCCESS)
      return result;
   return image_bound(device, image, memory, memoryOffset, "vkBindImageMemory");
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_BindImageMemory2(VkDevice _device, uint32_t bindInfoCount,
                     const VkBindImageMemoryInfo *pBindInfos)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result = device->base.next.BindImageMemory2(_device, bindInfoCount, pBindInfos);
   for (uint32_t i = 0; i < bindInfoCount && result == VK_SUCCESS; i++)
      result = image_bound(device, pBindInfos[i].image, pBindInfos[i].memory,
                           pBindInfos[i].memoryOffset, "vkBindImageMemory2");
   return result;
}

static const struct lyr_hook hooks[] = {
   TSR_HOOK(CreateImage, tsr_CreateImage),
   TSR_HOOK(DestroyImage, tsr_DestroyImage),
   TSR_HOOK(BindImageMemory, tsr_BindImageMemory),
   TSR_HOOK(BindImageMemory2, tsr_BindImageMemory2),
   TSR_HOOK(BindImageMemory2KHR, tsr_BindImageMemory2),
   TSR_HOOK(GetDeviceImageMemoryRequirements, tsr_GetDeviceImageMemoryRequirements),
   TSR_HOOK(GetDeviceImageMemoryRequirementsKHR, tsr_GetDeviceImageMemoryRequirements),
   TSR_HOOK(GetDeviceImageSparseMemoryRequirements, tsr_GetDeviceImageSparseMemoryRequirements),
   TSR_HOOK(GetDeviceImageSparseMemoryRequirementsKHR,
            tsr_GetDeviceImageSparseMemoryRequirements),
};

const struct lyr_hook_table tsr_image_hooks = LYR_HOOK_TABLE(hooks);

/* ---- device setup ------------------------------------------------------- */

VkResult
tsr_image_init(struct tsr_device *device)
{
   device->alias = lyr_zalloc(&device->base.alloc, sizeof(*device->alias), 8,
                              VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!device->alias)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pthread_mutex_init(&device->alias->lock, NULL);
   lyr_map_init(&device->alias_images);
   return VK_SUCCESS;
}

void
tsr_image_finish(struct tsr_device *device)
{
   struct tsr_alias_state *state = device->alias;
   /* What the application did not destroy. */
   for (uint32_t i = 0; i < state->tensor_count; i++)
      tensor_record_free(device, state->tensors[i]);
   for (uint32_t i = 0; i < state->image_count; i++) {
      struct tsr_alias_image *img = state->images[i];
      VkAllocationCallbacks alloc = img->alloc;
      lyr_free(&alloc, img);
   }
   lyr_free(&device->base.alloc, state->tensors);
   lyr_free(&device->base.alloc, state->images);
   pthread_mutex_destroy(&state->lock);
   lyr_free(&device->base.alloc, state);
   device->alias = NULL;
   lyr_map_finish(&device->alias_images);
}
