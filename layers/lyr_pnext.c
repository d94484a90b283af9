/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * pNext chains: struct sizes (the hand-written ARM ML table and the loader's
 * link structs here, the core table generated from vk.xml in
 * lyr_struct_sizes.c), lookup, and the two ways of calling down without the
 * structs the next layer must not see: input chains are cloned into one
 * allocation, output chains get a shadow whose results are copied back.
 * Nothing here ever writes into an application's struct except the copy-back
 * of output members in lyr_out_chain_end().
 * Device-creation rewriting lives in lyr_device_features.c.
 */
#include "lyr_pnext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan_arm_ml.h>

#include "lyr_alloc.h"
#include "lyr_log.h"
#include "lyr_vk_newer.h"

/* Every copy in a block starts on this boundary (the strictest of any Vulkan struct). */
#define LYR_CHAIN_ALIGN 16

/* sType and pNext: the part of a struct that is never copied back. */
#define LYR_STRUCT_HEADER_SIZE sizeof(VkBaseOutStructure)

static size_t
align_up(size_t v)
{
   return (v + (LYR_CHAIN_ALIGN - 1)) & ~(size_t)(LYR_CHAIN_ALIGN - 1);
}

struct arm_stype_size {
   VkStructureType stype;
   uint32_t size;
};

/* Every struct with an sType in spec-facts.md §1.3–1.7, in sType order. */
static const struct arm_stype_size arm_struct_sizes[] = {
    /* VK_EXT_descriptor_heap interaction of VK_ARM_tensors */
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_HEAP_TENSOR_PROPERTIES_ARM,
     sizeof(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM)},
    /* VK_ARM_tensors */
    {VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM, sizeof(VkTensorCreateInfoARM)},
    {VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM, sizeof(VkTensorViewCreateInfoARM)},
    {VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM, sizeof(VkBindTensorMemoryInfoARM)},
    {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, sizeof(VkWriteDescriptorSetTensorARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM,
     sizeof(VkPhysicalDeviceTensorPropertiesARM)},
    {VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM, sizeof(VkTensorFormatPropertiesARM)},
    {VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM, sizeof(VkTensorDescriptionARM)},
    {VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
     sizeof(VkTensorMemoryRequirementsInfoARM)},
    {VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM, sizeof(VkTensorMemoryBarrierARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
     sizeof(VkPhysicalDeviceTensorFeaturesARM)},
    {VK_STRUCTURE_TYPE_DEVICE_TENSOR_MEMORY_REQUIREMENTS_ARM,
     sizeof(VkDeviceTensorMemoryRequirementsARM)},
    {VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM, sizeof(VkCopyTensorInfoARM)},
    {VK_STRUCTURE_TYPE_TENSOR_COPY_ARM, sizeof(VkTensorCopyARM)},
    {VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM, sizeof(VkTensorDependencyInfoARM)},
    {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM,
     sizeof(VkMemoryDedicatedAllocateInfoTensorARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_TENSOR_INFO_ARM,
     sizeof(VkPhysicalDeviceExternalTensorInfoARM)},
    {VK_STRUCTURE_TYPE_EXTERNAL_TENSOR_PROPERTIES_ARM, sizeof(VkExternalTensorPropertiesARM)},
    {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM,
     sizeof(VkExternalMemoryTensorCreateInfoARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
     sizeof(VkPhysicalDeviceDescriptorBufferTensorFeaturesARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM,
     sizeof(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM)},
    {VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM, sizeof(VkDescriptorGetTensorInfoARM)},
    {VK_STRUCTURE_TYPE_TENSOR_CAPTURE_DESCRIPTOR_DATA_INFO_ARM,
     sizeof(VkTensorCaptureDescriptorDataInfoARM)},
    {VK_STRUCTURE_TYPE_TENSOR_VIEW_CAPTURE_DESCRIPTOR_DATA_INFO_ARM,
     sizeof(VkTensorViewCaptureDescriptorDataInfoARM)},
    {VK_STRUCTURE_TYPE_FRAME_BOUNDARY_TENSORS_ARM, sizeof(VkFrameBoundaryTensorsARM)},
    /* VK_ARM_data_graph */
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineSessionCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
     sizeof(VkDataGraphPipelineResourceInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM, sizeof(VkDataGraphPipelineConstantARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
     sizeof(VkDataGraphPipelineSessionMemoryRequirementsInfoARM)},
    {VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
     sizeof(VkBindDataGraphPipelineSessionMemoryInfoARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
     sizeof(VkPhysicalDeviceDataGraphFeaturesARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineShaderModuleCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
     sizeof(VkDataGraphPipelinePropertyQueryResultARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM, sizeof(VkDataGraphPipelineInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_COMPILER_CONTROL_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineCompilerControlCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
     sizeof(VkDataGraphPipelineSessionBindPointRequirementsInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM,
     sizeof(VkDataGraphPipelineSessionBindPointRequirementARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineIdentifierCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_DISPATCH_INFO_ARM,
     sizeof(VkDataGraphPipelineDispatchInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_TENSOR_SEMI_STRUCTURED_SPARSITY_INFO_ARM,
     sizeof(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PROCESSING_ENGINE_CREATE_INFO_ARM,
     sizeof(VkDataGraphProcessingEngineCreateInfoARM)},
    {VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_PROPERTIES_ARM,
     sizeof(VkQueueFamilyDataGraphProcessingEnginePropertiesARM)},
    {VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM,
     sizeof(VkQueueFamilyDataGraphPropertiesARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_INFO_ARM,
     sizeof(VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM)},
    /* VK_ARM_data_graph_instruction_set_tosa */
    {VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM,
     sizeof(VkQueueFamilyDataGraphTOSAPropertiesARM)},
    /* VK_ARM_tensor_controls */
    {VK_STRUCTURE_TYPE_TENSOR_EXPLICIT_TILING_FORMAT_PROPERTIES_ARM,
     sizeof(VkTensorExplicitTilingFormatPropertiesARM)},
    {VK_STRUCTURE_TYPE_TENSOR_ROLLING_BACKING_CREATE_INFO_ARM,
     sizeof(VkTensorRollingBackingCreateInfoARM)},
    /* VK_ARM_data_graph_optical_flow */
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM,
     sizeof(VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM)},
    {VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM,
     sizeof(VkQueueFamilyDataGraphOpticalFlowPropertiesARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineOpticalFlowCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM,
     sizeof(VkDataGraphOpticalFlowImageFormatInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM,
     sizeof(VkDataGraphOpticalFlowImageFormatPropertiesARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM,
     sizeof(VkDataGraphPipelineOpticalFlowDispatchInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM,
     sizeof(VkDataGraphPipelineResourceInfoImageLayoutARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineSingleNodeCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM,
     sizeof(VkDataGraphPipelineSingleNodeConnectionARM)},
    /* VK_ARM_data_graph_neural_accelerator_statistics */
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_NEURAL_STATISTICS_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineNeuralStatisticsCreateInfoARM)},
    {VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_NEURAL_STATISTICS_CREATE_INFO_ARM,
     sizeof(VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_FEATURES_ARM,
     sizeof(VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM)},
};

static int
arm_stype_compare(const void *key, const void *elem)
{
   int64_t a = *(const VkStructureType *)key;
   int64_t b = ((const struct arm_stype_size *)elem)->stype;
   return (a > b) - (a < b);
}

/* sType ranges owned by the ARM ML extensions: 1000000000 + (number - 1) * 1000. */
static const struct {
   int64_t first, last;
} arm_stype_ranges[] = {
    {1000135014, 1000135014}, /* VK_EXT_descriptor_heap: DESCRIPTOR_HEAP_TENSOR_PROPERTIES_ARM */
    {1000460000, 1000460999}, /* VK_ARM_tensors (461) */
    {1000507000, 1000507999}, /* VK_ARM_data_graph (508) */
    {1000508000, 1000508999}, /* VK_ARM_data_graph_instruction_set_tosa (509) */
    {1000565000, 1000565999}, /* VK_ARM_tensor_controls (566) */
    {1000631000, 1000631999}, /* VK_ARM_data_graph_optical_flow (632) */
    {1000676000, 1000676999}, /* VK_ARM_data_graph_neural_accelerator_statistics (677) */
};

bool
lyr_is_arm_ml_stype(VkStructureType stype)
{
   int64_t v = stype;
   for (size_t i = 0; i < sizeof(arm_stype_ranges) / sizeof(arm_stype_ranges[0]); i++) {
      if (v >= arm_stype_ranges[i].first && v <= arm_stype_ranges[i].last)
         return true;
   }
   return false;
}

size_t
lyr_struct_size(VkStructureType stype)
{
   /* The features structs newer than Debian's vk.xml that the graph layer adds to the devices
    * it creates (D51, D60): the layers below must clone them rather than leave them out. */
   if (stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR)
      return sizeof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR);
   if (stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR)
      return sizeof(VkPhysicalDeviceShaderBfloat16FeaturesKHR);
   if (!lyr_is_arm_ml_stype(stype)) {
      switch (stype) {
      /* The loader's link structs (vk_layer.h, not in vk.xml): layers pass them down. */
      case VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO:
         return sizeof(VkLayerInstanceCreateInfo);
      case VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO:
         return sizeof(VkLayerDeviceCreateInfo);
      default:
         return lyr_struct_size_core(stype);
      }
   }
   const struct arm_stype_size *e =
       bsearch(&stype, arm_struct_sizes, sizeof(arm_struct_sizes) / sizeof(arm_struct_sizes[0]),
               sizeof(arm_struct_sizes[0]), arm_stype_compare);
   return e ? e->size : 0;
}

bool
lyr_chain_ends(const void *chain)
{
   const VkBaseInStructure *s = chain;
   for (unsigned i = 0; i <= LYR_CHAIN_MAX; i++, s = s->pNext) {
      if (!s)
         return true;
   }
   return false;
}

bool
lyr_chain_ok(const void *chain, const char *what)
{
   if (lyr_chain_ends(chain))
      return true;
   lyr_loge("%s: the pNext chain does not end within %u structs (it loops back on itself); "
            "refused",
            what, (unsigned)LYR_CHAIN_MAX);
   return false;
}

const void *
lyr_find_struct(const void *chain, VkStructureType stype)
{
   const VkBaseInStructure *s = chain;
   for (unsigned i = 0; s && i < LYR_CHAIN_MAX; i++, s = s->pNext) {
      if (s->sType == stype)
         return s;
   }
   return NULL;
}

bool
lyr_chain_has_arm_ml(const void *chain)
{
   const VkBaseInStructure *s = chain;
   for (unsigned i = 0; s && i < LYR_CHAIN_MAX; i++, s = s->pNext) {
      if (lyr_is_arm_ml_stype(s->sType))
         return true;
   }
   return false;
}

bool
lyr_drop_arm_ml(const VkBaseInStructure *s, void *user)
{
   return lyr_is_arm_ml_stype(s->sType);
}

/*
 * The number of bytes to copy of chain member s, or 0 when it is left out:
 * the drop function says so, or its size is unknown (then a warning names it
 * when warn is set, so that one clone warns once).
 */
static size_t
member_copy_size(const VkBaseInStructure *s, lyr_drop_fn drop, void *user, bool warn)
{
   if (drop && drop(s, user))
      return 0;
   size_t size = lyr_struct_size(s->sType);
   if (!size && warn)
      lyr_logw("pNext: leaving out a struct of unknown sType %d (not in this build's vk.xml): "
               "it cannot be copied and a struct after it must be changed or left out",
               (int)s->sType);
   return size;
}

static size_t
head_copy_size(const void *head, size_t head_size)
{
   if (head_size)
      return head_size;
   return lyr_struct_size(((const VkBaseInStructure *)head)->sType);
}

/*
 * Where a copy may continue with the application's own chain: the first
 * struct of `first`'s chain that is kept but has an unknown size (newer than
 * this build's vk.xml), when every struct from there on may reach the next
 * layer as it is. A dropped ARM ML struct may: the Vulkan specification has
 * every component skip the extending structs it does not support ("Valid
 * Usage for Structure Pointer Chains"), so it stays where it cannot be cut
 * out. Any other dropped struct (a shader module info the layer replaced) must
 * go, and then there is no tail: the unknown structs are left out, with a
 * warning, as before. So it is when a struct the caller edits in its copy
 * (edits, lyr_chain_clone_pass_edit()) follows: it must be a copy. NULL when
 * there is no unknown struct. The chain ends (lyr_chain_ends()).
 */
static bool
stype_in(VkStructureType stype, const VkStructureType *list, unsigned count)
{
   for (unsigned i = 0; i < count; i++) {
      if (list[i] == stype)
         return true;
   }
   return false;
}

static const VkBaseInStructure *
pass_through_tail(const VkBaseInStructure *first, lyr_drop_fn drop, void *user,
                  const VkStructureType *edits, unsigned edit_count)
{
   const VkBaseInStructure *tail = NULL;
   for (const VkBaseInStructure *s = first; s; s = s->pNext) {
      bool dropped = drop && drop(s, user);
      if (!tail && !dropped && !lyr_struct_size(s->sType))
         tail = s;
      if (tail && dropped && !lyr_is_arm_ml_stype(s->sType))
         return NULL;
      if (tail && stype_in(s->sType, edits, edit_count)) {
         lyr_logw("pNext: leaving out the structs of unknown sType from %d on: a struct of "
                  "sType %d after them must be changed",
                  (int)tail->sType, (int)s->sType);
         return NULL;
      }
   }
   if (tail) {
      for (const VkBaseInStructure *s = tail; s; s = s->pNext) {
         if (drop && drop(s, user))
            lyr_logi("pNext: struct of sType %d passed on unchanged: it follows the struct of "
                     "unknown sType %d, which cannot be copied (a component skips the structs it "
                     "does not support)",
                     (int)s->sType, (int)tail->sType);
      }
   }
   return tail;
}

/* Whether the application's tail holds a struct this build knows: one that a caller might
 * want to change, find or add again in its copy. */
static bool
tail_has_known(const VkBaseInStructure *tail)
{
   for (const VkBaseInStructure *s = tail; s; s = s->pNext) {
      if (lyr_struct_size(s->sType))
         return true;
   }
   return false;
}

/* What a clone keeps of the application's chain past a struct of unknown size. */
struct pass_mode {
   bool pass_through;            /* continue with the application's tail */
   const VkStructureType *edits; /* sTypes never left in the tail */
   unsigned edit_count;
};

static VkResult
chain_clone(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc, const void *head,
            size_t head_size, lyr_drop_fn drop, void *user, size_t extra,
            const struct pass_mode *mode, struct lyr_chain_copy *out)
{
   memset(out, 0, sizeof(*out));
   const VkBaseInStructure *app = head;
   head_size = head_copy_size(head, head_size);
   if (!head_size)
      return lyr_error(VK_ERROR_UNKNOWN, "pNext: cannot clone a struct of unknown sType %d",
                       (int)app->sType);
   if (!lyr_chain_ends(app->pNext))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "pNext: the chain of a struct of sType %d does not end within %u structs "
                       "(it loops back on itself)",
                       (int)app->sType, (unsigned)LYR_CHAIN_MAX);
   const VkBaseInStructure *tail =
       mode->pass_through
           ? pass_through_tail(app->pNext, drop, user, mode->edits, mode->edit_count)
           : NULL;

   size_t copies = align_up(head_size);
   for (const VkBaseInStructure *s = app->pNext; s != tail; s = s->pNext)
      copies += align_up(member_copy_size(s, drop, user, true));

   const size_t total = copies + align_up(extra);
   char *block = buf;
   if (buf && total <= buf_size && ((uintptr_t)buf % LYR_CHAIN_ALIGN) == 0) {
      memset(block, 0, total);
   } else {
      block = lyr_zalloc(alloc, total, LYR_CHAIN_ALIGN, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!block)
         return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                          "pNext: no memory for a copy of a chain (%zu bytes)", total);
   }

   memcpy(block, head, head_size);
   VkBaseOutStructure *last = (VkBaseOutStructure *)block;
   last->pNext = NULL;
   size_t offset = align_up(head_size);
   for (const VkBaseInStructure *s = app->pNext; s != tail; s = s->pNext) {
      size_t size = member_copy_size(s, drop, user, false);
      if (!size)
         continue;
      if (offset + align_up(size) > copies)
         break; /* the chain changed between the passes; stay inside the block */
      VkBaseOutStructure *copy = (VkBaseOutStructure *)(block + offset);
      memcpy(copy, s, size);
      copy->pNext = NULL;
      last->pNext = copy;
      last = copy;
      offset += align_up(size);
   }
   last->pNext = (VkBaseOutStructure *)tail;

   out->head = block;
   out->extra = extra ? block + copies : NULL;
   out->block = block == buf ? NULL : block; /* the caller's buffer is not freed */
   out->alloc = alloc;
   out->app_tail = tail;
   out->tail_known = tail && tail_has_known(tail);
   return VK_SUCCESS;
}

static const struct pass_mode copy_only = {false, NULL, 0};
static const struct pass_mode pass_all = {true, NULL, 0};

VkResult
lyr_chain_clone(const VkAllocationCallbacks *alloc, const void *head, size_t head_size,
                lyr_drop_fn drop, void *user, size_t extra, struct lyr_chain_copy *out)
{
   return chain_clone(NULL, 0, alloc, head, head_size, drop, user, extra, &copy_only, out);
}

VkResult
lyr_chain_clone_in(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                   const void *head, size_t head_size, lyr_drop_fn drop, void *user, size_t extra,
                   struct lyr_chain_copy *out)
{
   return chain_clone(buf, buf_size, alloc, head, head_size, drop, user, extra, &copy_only, out);
}

VkResult
lyr_chain_clone_pass(const VkAllocationCallbacks *alloc, const void *head, size_t head_size,
                     lyr_drop_fn drop, void *user, size_t extra, struct lyr_chain_copy *out)
{
   return chain_clone(NULL, 0, alloc, head, head_size, drop, user, extra, &pass_all, out);
}

VkResult
lyr_chain_clone_pass_in(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                        const void *head, size_t head_size, lyr_drop_fn drop, void *user,
                        size_t extra, struct lyr_chain_copy *out)
{
   return chain_clone(buf, buf_size, alloc, head, head_size, drop, user, extra, &pass_all, out);
}

VkResult
lyr_chain_clone_pass_edit(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                          const void *head, size_t head_size, lyr_drop_fn drop, void *user,
                          size_t extra, const VkStructureType *edits, unsigned edit_count,
                          struct lyr_chain_copy *out)
{
   const struct pass_mode mode = {true, edits, edit_count};
   return chain_clone(buf, buf_size, alloc, head, head_size, drop, user, extra, &mode, out);
}

void
lyr_chain_copy_free(struct lyr_chain_copy *copy)
{
   if (copy->block)
      lyr_free(copy->alloc, copy->block);
   memset(copy, 0, sizeof(*copy));
}

/* s keeps its own pNext, so a caller may add a whole chain of its structs; it goes right
 * after the head, since the end of a copy may be the application's own tail. */
void
lyr_chain_append(void *head, void *s)
{
   VkBaseOutStructure *h = head, *last = s;
   while (last->pNext)
      last = last->pNext;
   last->pNext = h->pNext;
   h->pNext = s;
}

/* One copied struct of an output shadow chain; an array of these opens the block. */
struct out_copy {
   void *app;
   void *copy;
   size_t size;
};

VkResult
lyr_out_chain_begin(struct lyr_out_chain *oc, const VkAllocationCallbacks *alloc, void *app_head,
                    size_t head_size, lyr_drop_fn drop, void *user)
{
   memset(oc, 0, sizeof(*oc));
   oc->head = app_head;
   oc->app_head = app_head;
   oc->alloc = alloc;
   if (!app_head || !drop)
      return VK_SUCCESS;

   /*
    * Everything after the last dropped struct keeps its pNext, so it stays the
    * application's own; the structs before it are copied.
    */
   const VkBaseOutStructure *app = app_head;
   if (!lyr_chain_ends(app->pNext)) {
      oc->head = NULL;
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "pNext: the chain of a struct of sType %d does not end within %u structs "
                       "(it loops back on itself)",
                       (int)app->sType, (unsigned)LYR_CHAIN_MAX);
   }
   /* From a struct of unknown size on, the application's chain goes down as it is
    * (pass_through_tail()): only drops before it need the shadow. */
   const VkBaseOutStructure *tail = (const VkBaseOutStructure *)pass_through_tail(
       (const VkBaseInStructure *)app->pNext, drop, user, NULL, 0);
   const VkBaseOutStructure *last_drop = NULL;
   for (const VkBaseOutStructure *s = app->pNext; s != tail; s = s->pNext) {
      if (drop((const VkBaseInStructure *)s, user))
         last_drop = s;
   }
   if (!last_drop)
      return VK_SUCCESS;

   head_size = head_copy_size(app_head, head_size);
   oc->head = NULL; /* until the shadow exists */
   if (!head_size)
      return lyr_error(VK_ERROR_UNKNOWN, "pNext: cannot shadow a struct of unknown sType %d",
                       (int)app->sType);

   unsigned count = 1;
   size_t copies = align_up(head_size);
   for (const VkBaseOutStructure *s = app->pNext; s != last_drop; s = s->pNext) {
      size_t size = member_copy_size((const VkBaseInStructure *)s, drop, user, true);
      if (size) {
         count++;
         copies += align_up(size);
      }
   }
   size_t table = align_up(count * sizeof(struct out_copy));
   char *block =
       lyr_alloc(alloc, table + copies, LYR_CHAIN_ALIGN, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!block)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "pNext: no memory for a shadow of an output chain (%zu bytes)",
                       table + copies);

   struct out_copy *entries = (struct out_copy *)block;
   size_t offset = table;
   unsigned n = 0;
   VkBaseOutStructure *last = NULL;
   for (const VkBaseOutStructure *s = app; s != last_drop; s = s->pNext) {
      size_t size =
          s == app ? head_size : member_copy_size((const VkBaseInStructure *)s, drop, user, false);
      if (!size)
         continue;
      if (n == count || offset + align_up(size) > table + copies)
         break; /* the chain changed between the passes; stay inside the block */
      VkBaseOutStructure *copy = (VkBaseOutStructure *)(block + offset);
      memcpy(copy, s, size);
      copy->pNext = NULL;
      if (last)
         last->pNext = copy;
      last = copy;
      entries[n].app = (void *)s;
      entries[n].copy = copy;
      entries[n].size = size;
      n++;
      offset += align_up(size);
   }
   last->pNext = last_drop->pNext;

   oc->head = entries[0].copy;
   oc->block = block;
   oc->count = n;
   return VK_SUCCESS;
}

void
lyr_out_chain_end(struct lyr_out_chain *oc)
{
   if (oc->block) {
      const struct out_copy *entries = oc->block;
      for (unsigned i = 0; i < oc->count; i++) {
         if (entries[i].size > LYR_STRUCT_HEADER_SIZE) {
            memcpy((char *)entries[i].app + LYR_STRUCT_HEADER_SIZE,
                   (const char *)entries[i].copy + LYR_STRUCT_HEADER_SIZE,
                   entries[i].size - LYR_STRUCT_HEADER_SIZE);
         }
      }
      lyr_free(oc->alloc, oc->block);
   }
   oc->head = oc->app_head;
   oc->block = NULL;
   oc->count = 0;
}
