/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor descriptors: set layouts, pools, writes, copies, push descriptors and
 * update templates, with each VK_DESCRIPTOR_TYPE_TENSOR_ARM replaced by a
 * read-only storage buffer holding the view's tensor record
 * (include/kernel_abi/tensor_record.h, docs/decisions.md D3 and D11).
 *
 * Nothing the application passes is written to: every rewrite is a copy,
 * made only when something needs rewriting, and freed before returning.
 * Templates with tensor (or image) entries are ours: the driver's template
 * reads a blob we fill from the application's data at each update.
 * Views and their records belong to tsr_view.c; pipeline layouts and
 * descriptor sets themselves pass through (they are the driver's handles).
 */
#include "tsr_uab.h"

#include <stdalign.h>
#include <stddef.h>

/* Scratch space on the stack for one call's rewritten writes or template
 * blob; larger calls allocate. */
#define SCRATCH_STACK_SIZE 2048

static inline bool
is_tensor_type(VkDescriptorType type)
{
   return (uint32_t)type == (uint32_t)VK_DESCRIPTOR_TYPE_TENSOR_ARM;
}

/* What the driver sees in place of a descriptor type. */
static inline VkDescriptorType
lowered_type(VkDescriptorType type)
{
   return is_tensor_type(type) ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : type;
}

/* Descriptor types whose writes read VkDescriptorImageInfo. */
static bool
is_image_type(VkDescriptorType type)
{
   switch ((uint32_t)type) {
   case VK_DESCRIPTOR_TYPE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
   case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
   case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
#ifdef VK_QCOM_image_processing
   case VK_DESCRIPTOR_TYPE_SAMPLE_WEIGHT_IMAGE_QCOM:
   case VK_DESCRIPTOR_TYPE_BLOCK_MATCH_IMAGE_QCOM:
#endif
      return true;
   default:
      return false;
   }
}

static inline VkImageLayout
lowered_layout(VkImageLayout layout)
{
   return (uint32_t)layout == (uint32_t)VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM
              ? VK_IMAGE_LAYOUT_GENERAL
              : layout;
}

/* The storage-buffer descriptor of one tensor view: its record. A null view
 * stays a null descriptor (nullDescriptor rules are the driver's). */
static VkDescriptorBufferInfo
view_buffer_info(VkTensorViewARM handle)
{
   const struct tsr_tensor_view *view = tsr_view_from_handle(handle);
   if (!view)
      return (VkDescriptorBufferInfo){VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
   return (VkDescriptorBufferInfo){
       .buffer = view->record.buffer,
       .offset = view->record.offset,
       .range = VMEL_TENSOR_RECORD_SIZE,
   };
}

/* ---- scratch memory: the stack, or the heap for large calls ------------- */

struct scratch {
   const VkAllocationCallbacks *alloc;
   void *heap;
   alignas(16) unsigned char stack[SCRATCH_STACK_SIZE];
};

static void *
scratch_get(struct scratch *s, const VkAllocationCallbacks *alloc, size_t size)
{
   s->alloc = alloc;
   s->heap = NULL;
   if (size <= sizeof(s->stack))
      return s->stack;
   s->heap = lyr_alloc(alloc, size, 16, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   return s->heap;
}

static void
scratch_put(struct scratch *s)
{
   lyr_free(s->alloc, s->heap);
   s->heap = NULL;
}

static inline size_t
align8(size_t v)
{
   return (v + 7) & ~(size_t)7;
}

/* ---- mutable descriptor type lists -------------------------------------- */

static bool
mutable_has_tensor(const VkMutableDescriptorTypeCreateInfoEXT *m)
{
   if (!m)
      return false;
   for (uint32_t i = 0; i < m->mutableDescriptorTypeListCount; i++) {
      const VkMutableDescriptorTypeListEXT *list = &m->pMutableDescriptorTypeLists[i];
      for (uint32_t j = 0; j < list->descriptorTypeCount; j++) {
         if (is_tensor_type(list->pDescriptorTypes[j]))
            return true;
      }
   }
   return false;
}

/* Bytes mutable_lower() needs (8-aligned). */
static size_t
mutable_space(const VkMutableDescriptorTypeCreateInfoEXT *m)
{
   if (!m)
      return 0;
   size_t size = m->mutableDescriptorTypeListCount * sizeof(VkMutableDescriptorTypeListEXT);
   for (uint32_t i = 0; i < m->mutableDescriptorTypeListCount; i++)
      size += m->pMutableDescriptorTypeLists[i].descriptorTypeCount * sizeof(VkDescriptorType);
   return align8(size);
}

/* Rewrites our copy of the struct: TENSOR_ARM becomes STORAGE_BUFFER in each
 * list, once (a list must not name a type twice). */
static void
mutable_lower(VkMutableDescriptorTypeCreateInfoEXT *m, void *space)
{
   VkMutableDescriptorTypeListEXT *lists = space;
   VkDescriptorType *types = (VkDescriptorType *)(lists + m->mutableDescriptorTypeListCount);
   for (uint32_t i = 0; i < m->mutableDescriptorTypeListCount; i++) {
      const VkMutableDescriptorTypeListEXT *src = &m->pMutableDescriptorTypeLists[i];
      bool has_storage = false;
      for (uint32_t j = 0; j < src->descriptorTypeCount; j++)
         has_storage |= src->pDescriptorTypes[j] == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      uint32_t n = 0;
      for (uint32_t j = 0; j < src->descriptorTypeCount; j++) {
         VkDescriptorType type = src->pDescriptorTypes[j];
         if (is_tensor_type(type)) {
            if (has_storage)
               continue;
            type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            has_storage = true;
         }
         types[n++] = type;
      }
      lists[i] = (VkMutableDescriptorTypeListEXT){n, types};
      types += n;
   }
   m->pMutableDescriptorTypeLists = m->mutableDescriptorTypeListCount ? lists : NULL;
}

/* Lowers the mutable lists of a cloned chain, if it has any. */
static void
mutable_lower_in_copy(void *copy_head, void *space)
{
   VkMutableDescriptorTypeCreateInfoEXT *m =
       (VkMutableDescriptorTypeCreateInfoEXT *)lyr_find_struct(
           copy_head, VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
   if (m)
      mutable_lower(m, space);
}

/* ---- set layouts ----------------------------------------------------------- */

/*
 * The create info to pass down: the application's own when it has nothing of
 * ours, else a copy (in copy, to be freed) with tensor bindings as storage
 * buffers, mutable lists lowered and ARM structs left out. Binding flags,
 * immutable samplers and stage flags are the application's.
 */
static VkResult
layout_info_lower(const struct tsr_device *device, const VkAllocationCallbacks *alloc,
                  const VkDescriptorSetLayoutCreateInfo *app, struct lyr_chain_copy *copy,
                  const VkDescriptorSetLayoutCreateInfo **out)
{
   memset(copy, 0, sizeof(*copy));
   *out = app;
   const VkMutableDescriptorTypeCreateInfoEXT *mut =
       lyr_find_struct(app->pNext, VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
   bool tensors = false;
   for (uint32_t i = 0; i < app->bindingCount && !tensors; i++)
      tensors = is_tensor_type(app->pBindings[i].descriptorType);
   if (!tensors && !mutable_has_tensor(mut) && !lyr_chain_has_arm_ml(app->pNext))
      return VK_SUCCESS;

   size_t bindings_size = align8(app->bindingCount * sizeof(VkDescriptorSetLayoutBinding));
   bool uab = tsr_uab_layout_info_ours(device, app);
   size_t uab_size = uab ? tsr_uab_layout_space(app) : 0;
   /* Structs of newer sTypes pass through (D43); these are lowered in the copy. */
   static const VkStructureType edits[] = {
       VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT,
       VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
   VkResult result = lyr_chain_clone_pass_edit(NULL, 0, alloc, app, sizeof(*app),
                                               lyr_drop_arm_ml, NULL,
                                               bindings_size + mutable_space(mut) + uab_size,
                                               edits, LYR_ARRAY_SIZE(edits), copy);
   if (result != VK_SUCCESS)
      return result;
   VkDescriptorSetLayoutCreateInfo *info = copy->head;
   if (app->bindingCount) {
      VkDescriptorSetLayoutBinding *bindings = copy->extra;
      for (uint32_t i = 0; i < app->bindingCount; i++) {
         bindings[i] = app->pBindings[i];
         bindings[i].descriptorType = lowered_type(bindings[i].descriptorType);
      }
      info->pBindings = bindings;
   }
   if (mut)
      mutable_lower_in_copy(info, (char *)copy->extra + bindings_size);
   if (uab)
      tsr_uab_layout_lower(device, app, info,
                           (char *)copy->extra + bindings_size + mutable_space(mut));
   *out = info;
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateDescriptorSetLayout(VkDevice _device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                              const VkAllocationCallbacks *pAllocator,
                              VkDescriptorSetLayout *pSetLayout)
{
   struct tsr_device *device = tsr_device_get(_device);
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   struct lyr_chain_copy copy;
   const VkDescriptorSetLayoutCreateInfo *info;
   VkResult result = layout_info_lower(device, alloc, pCreateInfo, &copy, &info);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDescriptorSetLayout: no memory to lower the create info");
   result = device->base.next.CreateDescriptorSetLayout(_device, info, pAllocator, pSetLayout);
   lyr_chain_copy_free(&copy);
   if (result == VK_SUCCESS && tsr_uab_layout_info_ours(device, pCreateInfo)) {
      result = tsr_uab_layout_created(device, pCreateInfo, alloc, *pSetLayout);
      if (result != VK_SUCCESS) {
         device->base.next.DestroyDescriptorSetLayout(_device, *pSetLayout, pAllocator);
         *pSetLayout = VK_NULL_HANDLE;
      }
   }
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetDescriptorSetLayoutSupport(VkDevice _device,
                                  const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                                  VkDescriptorSetLayoutSupport *pSupport)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct lyr_chain_copy copy;
   const VkDescriptorSetLayoutCreateInfo *info;
   if (layout_info_lower(device, &device->base.alloc, pCreateInfo, &copy, &info) != VK_SUCCESS) {
      lyr_loge("vkGetDescriptorSetLayoutSupport: out of host memory; reporting unsupported");
      pSupport->supported = VK_FALSE;
      return;
   }
   device->base.next.GetDescriptorSetLayoutSupport(_device, info, pSupport);
   lyr_chain_copy_free(&copy);
}

/* ---- pools ----------------------------------------------------------------- */

/*
 * Pool sizes: TENSOR_ARM counts are merged into the STORAGE_BUFFER entry
 * (appended when there is none). With a VkMutableDescriptorTypeCreateInfoEXT
 * chained, pool sizes and mutable lists correspond by index, so entries are
 * retyped in place instead (duplicate types in pool sizes are valid).
 */
static uint32_t
pool_sizes_lower(const VkDescriptorPoolCreateInfo *app, bool keep_indices,
                 VkDescriptorPoolSize *sizes)
{
   uint64_t tensors = 0;
   for (uint32_t i = 0; i < app->poolSizeCount; i++) {
      if (is_tensor_type(app->pPoolSizes[i].type))
         tensors += app->pPoolSizes[i].descriptorCount;
   }
   bool merge = !keep_indices && tensors <= UINT32_MAX;
   uint32_t n = 0;
   int storage = -1;
   for (uint32_t i = 0; i < app->poolSizeCount; i++) {
      VkDescriptorPoolSize size = app->pPoolSizes[i];
      if (merge && is_tensor_type(size.type))
         continue;
      size.type = lowered_type(size.type);
      if (storage < 0 && size.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
         storage = (int)n;
      sizes[n++] = size;
   }
   if (!merge || tensors == 0)
      return n;
   if (storage >= 0 && sizes[storage].descriptorCount + tensors <= UINT32_MAX)
      sizes[storage].descriptorCount += (uint32_t)tensors;
   else
      sizes[n++] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (uint32_t)tensors};
   return n;
}

/* A pool of the driver's was made (result): pools that may hold update-after-bind
 * tensor sets are recorded (tsr_uab.c). */
static VkResult
pool_created(struct tsr_device *device, const VkDescriptorPoolCreateInfo *app, VkResult result,
             const VkAllocationCallbacks *pAllocator, VkDescriptorPool *pool)
{
   if (result != VK_SUCCESS)
      return result;
   result = tsr_uab_pool_created(device, *pool, app->flags);
   if (result != VK_SUCCESS) {
      device->base.next.DestroyDescriptorPool(device->base.handle, *pool, pAllocator);
      *pool = VK_NULL_HANDLE;
   }
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateDescriptorPool(VkDevice _device, const VkDescriptorPoolCreateInfo *pCreateInfo,
                         const VkAllocationCallbacks *pAllocator, VkDescriptorPool *pDescriptorPool)
{
   struct tsr_device *device = tsr_device_get(_device);
   const VkMutableDescriptorTypeCreateInfoEXT *mut = lyr_find_struct(
       pCreateInfo->pNext, VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT);
   bool tensors = false;
   for (uint32_t i = 0; i < pCreateInfo->poolSizeCount && !tensors; i++)
      tensors = is_tensor_type(pCreateInfo->pPoolSizes[i].type);
   VkDescriptorPoolCreateFlags flags = tsr_uab_pool_flags(device, pCreateInfo->flags);
   if (!tensors && !mutable_has_tensor(mut) && !lyr_chain_has_arm_ml(pCreateInfo->pNext) &&
       flags == pCreateInfo->flags)
      return pool_created(
          device, pCreateInfo,
          device->base.next.CreateDescriptorPool(_device, pCreateInfo, pAllocator, pDescriptorPool),
          pAllocator, pDescriptorPool);

   /* One more size than the application's: the appended STORAGE_BUFFER. */
   size_t sizes_size = align8((pCreateInfo->poolSizeCount + 1) * sizeof(VkDescriptorPoolSize));
   struct lyr_chain_copy copy;
   static const VkStructureType edits[] = {
       VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT};
   VkResult result = lyr_chain_clone_pass_edit(
       NULL, 0, lyr_pick_alloc(&device->base.alloc, pAllocator), pCreateInfo, sizeof(*pCreateInfo),
       lyr_drop_arm_ml, NULL, sizes_size + mutable_space(mut), edits, LYR_ARRAY_SIZE(edits),
       &copy);
   if (result != VK_SUCCESS)
      return result;
   VkDescriptorPoolCreateInfo *info = copy.head;
   VkDescriptorPoolSize *sizes = copy.extra;
   info->flags = flags;
   info->poolSizeCount = pool_sizes_lower(pCreateInfo, mut != NULL, sizes);
   info->pPoolSizes = sizes;
   if (mut)
      mutable_lower_in_copy(info, (char *)copy.extra + sizes_size);
   result = device->base.next.CreateDescriptorPool(_device, info, pAllocator, pDescriptorPool);
   lyr_chain_copy_free(&copy);
   return pool_created(device, pCreateInfo, result, pAllocator, pDescriptorPool);
}

/* ---- writes: vkUpdateDescriptorSets and push descriptors ------------------ */

/* How one application write is passed down. */
enum write_plan {
   WRITE_AS_IS,  /* the application's struct itself */
   WRITE_COPY,   /* a copy: pNext stripped and/or image layouts lowered */
   WRITE_TENSOR, /* a STORAGE_BUFFER write of the views' records */
   WRITE_DROP,   /* invalid tensor write: logged and left out */
   WRITE_UAB,    /* a tensor write to an update-after-bind set of ours: tsr_uab.c */
};

/*
 * The chain without ARM structs, without copying, when the structs to keep
 * all follow the last ARM struct (the usual case: the chain is just the
 * VkWriteDescriptorSetTensorARM). Sets *needs_clone otherwise.
 */
static const void *
chain_strip_arm_suffix(const void *chain, bool *needs_clone)
{
   const void *suffix = chain;
   bool kept = false;
   *needs_clone = false;
   const VkBaseInStructure *s = chain;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      if (lyr_is_arm_ml_stype(s->sType)) {
         if (kept)
            *needs_clone = true;
         suffix = s->pNext;
      } else {
         kept = true;
      }
   }
   return suffix;
}

static bool
image_infos_need_lowering(const VkWriteDescriptorSet *w)
{
   if (!is_image_type(w->descriptorType) || !w->pImageInfo)
      return false;
   for (uint32_t j = 0; j < w->descriptorCount; j++) {
      if (lowered_layout(w->pImageInfo[j].imageLayout) != w->pImageInfo[j].imageLayout)
         return true;
   }
   return false;
}

/* Checks a tensor write; returns false (and logs, when what is not NULL)
 * when it cannot be lowered. */
static bool
tensor_write_valid(const VkWriteDescriptorSet *w, const char *what)
{
   const VkWriteDescriptorSetTensorARM *t =
       lyr_find_struct(w->pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM);
   if (!t) {
      if (what)
         lyr_loge("%s: a VK_DESCRIPTOR_TYPE_TENSOR_ARM write (binding %u) has no "
                  "VkWriteDescriptorSetTensorARM in its pNext chain; write ignored",
                  what, w->dstBinding);
      return false;
   }
   if (t->tensorViewCount != w->descriptorCount || !t->pTensorViews) {
      if (what)
         lyr_loge("%s: VkWriteDescriptorSetTensorARM::tensorViewCount %u != descriptorCount %u "
                  "(binding %u); write ignored",
                  what, t->tensorViewCount, w->descriptorCount, w->dstBinding);
      return false;
   }
   return true;
}

/* The writes to pass down and what holds them. */
struct lowered_writes {
   const VkWriteDescriptorSet *writes;
   uint32_t count;
   struct lyr_chain_copy *clones;
   uint32_t clone_count;
   struct scratch scratch;
};

/* What pass one of writes_lower found. */
struct write_sizes {
   bool any_change;
   uint32_t clones;
   size_t buffer_infos;
   size_t image_infos;
};

static enum write_plan
write_plan(struct tsr_device *uab_device, const VkWriteDescriptorSet *w, const char *what,
           struct write_sizes *sizes)
{
   if (uab_device && tsr_uab_write_is_ours(uab_device, w))
      return WRITE_UAB;
   bool needs_clone = false;
   if (lyr_chain_has_arm_ml(w->pNext))
      chain_strip_arm_suffix(w->pNext, &needs_clone);
   if (is_tensor_type(w->descriptorType)) {
      if (!tensor_write_valid(w, what))
         return WRITE_DROP;
      sizes->buffer_infos += w->descriptorCount;
   } else if (image_infos_need_lowering(w)) {
      sizes->image_infos += w->descriptorCount;
   } else if (!lyr_chain_has_arm_ml(w->pNext)) {
      return WRITE_AS_IS;
   }
   sizes->clones += needs_clone;
   return is_tensor_type(w->descriptorType) ? WRITE_TENSOR : WRITE_COPY;
}

/* Fills out (a copy of w) for plan; infos point at free space, advanced. */
static VkResult
write_lower(const VkAllocationCallbacks *alloc, const VkWriteDescriptorSet *w, enum write_plan plan,
            VkWriteDescriptorSet *out, VkDescriptorBufferInfo **buffer_infos,
            VkDescriptorImageInfo **image_infos, struct lowered_writes *lw)
{
   *out = *w;
   bool needs_clone = false;
   out->pNext = chain_strip_arm_suffix(w->pNext, &needs_clone);
   if (needs_clone) {
      struct lyr_chain_copy *clone = &lw->clones[lw->clone_count];
      VkResult result = lyr_chain_clone_pass(alloc, w, sizeof(*w), lyr_drop_arm_ml, NULL, 0, clone);
      if (result != VK_SUCCESS)
         return result;
      lw->clone_count++;
      out->pNext = ((VkWriteDescriptorSet *)clone->head)->pNext;
   }
   if (plan == WRITE_TENSOR) {
      const VkWriteDescriptorSetTensorARM *t =
          lyr_find_struct(w->pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM);
      VkDescriptorBufferInfo *infos = *buffer_infos;
      for (uint32_t j = 0; j < w->descriptorCount; j++)
         infos[j] = view_buffer_info(t->pTensorViews[j]);
      *buffer_infos += w->descriptorCount;
      out->descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      out->pBufferInfo = infos;
      out->pImageInfo = NULL;
      out->pTexelBufferView = NULL;
   } else if (image_infos_need_lowering(w)) {
      VkDescriptorImageInfo *infos = *image_infos;
      for (uint32_t j = 0; j < w->descriptorCount; j++) {
         infos[j] = w->pImageInfo[j];
         infos[j].imageLayout = lowered_layout(infos[j].imageLayout);
      }
      *image_infos += w->descriptorCount;
      out->pImageInfo = infos;
   }
   return VK_SUCCESS;
}

static void
writes_release(struct lowered_writes *lw)
{
   for (uint32_t i = 0; i < lw->clone_count; i++)
      lyr_chain_copy_free(&lw->clones[i]);
   scratch_put(&lw->scratch);
}

/*
 * Lowers an array of writes. lw->writes is the application's own array when
 * nothing needs rewriting (no allocation); otherwise a rewritten copy in
 * scratch space. Release with writes_release() after the call down.
 */
static VkResult
writes_lower(struct tsr_device *uab_device, const VkAllocationCallbacks *alloc, uint32_t count,
             const VkWriteDescriptorSet *app, const char *what, struct lowered_writes *lw)
{
   lw->writes = app;
   lw->count = count;
   lw->clones = NULL;
   lw->clone_count = 0;
   lw->scratch.alloc = alloc;
   lw->scratch.heap = NULL;

   struct write_sizes sizes = {0};
   for (uint32_t i = 0; i < count; i++)
      sizes.any_change |= write_plan(uab_device, &app[i], what, &sizes) != WRITE_AS_IS;
   if (!sizes.any_change)
      return VK_SUCCESS;

   size_t writes_size = align8(count * sizeof(VkWriteDescriptorSet));
   size_t buffers_size = align8(sizes.buffer_infos * sizeof(VkDescriptorBufferInfo));
   size_t images_size = align8(sizes.image_infos * sizeof(VkDescriptorImageInfo));
   size_t clones_size = sizes.clones * sizeof(struct lyr_chain_copy);
   char *block =
       scratch_get(&lw->scratch, alloc, writes_size + buffers_size + images_size + clones_size);
   if (!block)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "%s: no memory to rewrite %u writes", what,
                       count);
   VkWriteDescriptorSet *writes = (VkWriteDescriptorSet *)block;
   VkDescriptorBufferInfo *buffer_infos = (VkDescriptorBufferInfo *)(block + writes_size);
   VkDescriptorImageInfo *image_infos =
       (VkDescriptorImageInfo *)(block + writes_size + buffers_size);
   lw->clones = (struct lyr_chain_copy *)(block + writes_size + buffers_size + images_size);

   /* Pass two recomputes each write's plan (cheap) instead of storing it. */
   struct write_sizes again = {0};
   uint32_t n = 0;
   for (uint32_t i = 0; i < count; i++) {
      enum write_plan plan = write_plan(uab_device, &app[i], NULL /* logged in pass one */, &again);
      if (plan == WRITE_DROP)
         continue;
      if (plan == WRITE_UAB) {
         tsr_uab_write(uab_device, &app[i]);
         continue;
      }
      if (plan == WRITE_AS_IS) {
         writes[n++] = app[i];
         continue;
      }
      VkResult result =
          write_lower(alloc, &app[i], plan, &writes[n++], &buffer_infos, &image_infos, lw);
      if (result != VK_SUCCESS) {
         writes_release(lw);
         return lyr_error(result, "%s: no memory to copy a write's pNext chain", what);
      }
   }
   lw->writes = writes;
   lw->count = n;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_UpdateDescriptorSets(VkDevice _device, uint32_t descriptorWriteCount,
                         const VkWriteDescriptorSet *pDescriptorWrites,
                         uint32_t descriptorCopyCount, const VkCopyDescriptorSet *pDescriptorCopies)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct lowered_writes lw;
   struct tsr_device *uab_device = tsr_uab_active(device) ? device : NULL;
   /* Out of memory (logged): nothing is updated, since the copies may read
    * what the writes would have written. */
   if (writes_lower(uab_device, &device->base.alloc, descriptorWriteCount, pDescriptorWrites,
                    "vkUpdateDescriptorSets", &lw) != VK_SUCCESS)
      return;
   /* Copies pass through: tensor bindings are storage buffers on both sides;
    * those between update-after-bind tensor bindings of ours copy slots. */
   const VkCopyDescriptorSet *copies = pDescriptorCopies;
   uint32_t copy_count = descriptorCopyCount;
   VkCopyDescriptorSet *owned = NULL;
   if (uab_device && tsr_uab_copies(device, descriptorCopyCount, pDescriptorCopies, &copies,
                                    &copy_count, &owned) != VK_SUCCESS) {
      writes_release(&lw);
      return;
   }
   if (lw.count || copy_count)
      device->base.next.UpdateDescriptorSets(_device, lw.count, lw.writes, copy_count, copies);
   lyr_free(&device->base.alloc, owned);
   writes_release(&lw);
}

static void
push_descriptor_set(PFN_vkCmdPushDescriptorSetKHR next, const char *what,
                    VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                    VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                    const VkWriteDescriptorSet *pDescriptorWrites)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (!next) {
      lyr_loge("%s: not provided by the device (enable VK_KHR_push_descriptor)", what);
      return;
   }
   struct lowered_writes lw;
   VkResult result =
       writes_lower(NULL, &device->base.alloc, descriptorWriteCount, pDescriptorWrites, what, &lw);
   if (result != VK_SUCCESS) {
      /* Out of memory: vkEndCommandBuffer returns it (D26). */
      tsr_cmd_fail(device, commandBuffer, result);
      return;
   }
   next(commandBuffer, pipelineBindPoint, layout, set, lw.count, lw.writes);
   writes_release(&lw);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                            VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                            const VkWriteDescriptorSet *pDescriptorWrites)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   push_descriptor_set(device->base.next.CmdPushDescriptorSetKHR, "vkCmdPushDescriptorSetKHR",
                       commandBuffer, pipelineBindPoint, layout, set, descriptorWriteCount,
                       pDescriptorWrites);
}

/* The Vulkan 1.4 name: the same command, so the KHR one below serves when the
 * device below predates 1.4. */
static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushDescriptorSet(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                         VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                         const VkWriteDescriptorSet *pDescriptorWrites)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   PFN_vkCmdPushDescriptorSetKHR next = device->base.next.CmdPushDescriptorSet
                                            ? device->base.next.CmdPushDescriptorSet
                                            : device->base.next.CmdPushDescriptorSetKHR;
   push_descriptor_set(next, "vkCmdPushDescriptorSet", commandBuffer, pipelineBindPoint, layout,
                       set, descriptorWriteCount, pDescriptorWrites);
}

/* ---- descriptor update templates ----------------------------------------- */

/* How an entry's elements are copied from the application's data to the blob. */
enum entry_kind {
   ENTRY_IMAGE,   /* VkDescriptorImageInfo, layout lowered */
   ENTRY_BUFFER,  /* VkDescriptorBufferInfo */
   ENTRY_TEXEL,   /* VkBufferView */
   ENTRY_ACCEL,   /* an acceleration structure handle */
   ENTRY_INLINE,  /* descriptorCount bytes */
   ENTRY_TENSOR,  /* VkTensorViewARM in, VkDescriptorBufferInfo out */
   ENTRY_UNKNOWN, /* a type we cannot copy */
};

static enum entry_kind
entry_kind(VkDescriptorType type)
{
   if (is_tensor_type(type))
      return ENTRY_TENSOR;
   if (is_image_type(type))
      return ENTRY_IMAGE;
   switch ((uint32_t)type) {
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
   case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      return ENTRY_BUFFER;
   case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return ENTRY_TEXEL;
   case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
      return ENTRY_INLINE;
   case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
   case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_NV:
      return ENTRY_ACCEL;
   default:
      return ENTRY_UNKNOWN;
   }
}

/* Bytes of one element in the blob (what the driver's template reads). */
static size_t
entry_blob_element_size(enum entry_kind kind)
{
   switch (kind) {
   case ENTRY_IMAGE:
      return sizeof(VkDescriptorImageInfo);
   case ENTRY_BUFFER:
   case ENTRY_TENSOR:
      return sizeof(VkDescriptorBufferInfo);
   case ENTRY_TEXEL:
      return sizeof(VkBufferView);
   case ENTRY_ACCEL:
      return sizeof(VkAccelerationStructureKHR);
   case ENTRY_INLINE:
      return 1;
   default:
      return 0;
   }
}

struct tsr_template_entry {
   enum entry_kind kind;
   uint32_t binding; /* dstBinding, dstArrayElement: for update-after-bind tensor entries */
   uint32_t element;
   bool slots;        /* a tensor entry of an update-after-bind binding of ours (tsr_uab.c) */
   uint32_t count;    /* descriptors, or bytes for inline uniform blocks */
   size_t app_offset; /* in the application's pData */
   size_t app_stride;
   size_t blob_offset;
   size_t blob_stride;
};

/* A VkDescriptorUpdateTemplate the layer owns (the handle is the pointer). */
struct tsr_template {
   /* The driver's, or VK_NULL_HANDLE when every entry is an update-after-bind
    * tensor entry of ours. */
   VkDescriptorUpdateTemplate driver;
   /* The template's set layout is an update-after-bind tensor layout of ours
    * (tsr_uab.c): tensor entries fill slots and are not in the driver's template. */
   bool uab;
   size_t blob_size;
   uint32_t entry_count;
   struct tsr_template_entry entries[];
};

static inline VkDescriptorUpdateTemplate
template_to_handle(struct tsr_template *t)
{
   return (VkDescriptorUpdateTemplate)(uintptr_t)t;
}

/* Ours, or NULL for a template of the driver's. */
static struct tsr_template *
template_lookup(struct tsr_device *device, VkDescriptorUpdateTemplate handle)
{
   if (handle == VK_NULL_HANDLE)
      return NULL;
   return lyr_map_lookup(&device->templates, (const void *)(uintptr_t)handle);
}

/* Whether the layer must own a template with these entries: it has tensor
 * entries (or image entries, whose layouts may need lowering) and every
 * entry is of a type whose data we know how to copy. */
static bool
template_needs_wrapping(const VkDescriptorUpdateTemplateCreateInfo *info)
{
   bool ours = false;
   for (uint32_t i = 0; i < info->descriptorUpdateEntryCount; i++) {
      enum entry_kind kind = entry_kind(info->pDescriptorUpdateEntries[i].descriptorType);
      if (kind == ENTRY_UNKNOWN)
         return false;
      ours |= kind == ENTRY_TENSOR || kind == ENTRY_IMAGE;
   }
   return ours;
}

/* Lays the blob out (entries packed, 8-aligned) and fills driver_entries;
 * returns their count (tensor entries of an update-after-bind template of
 * ours are left out). */
static uint32_t
template_layout(struct tsr_device *device, struct tsr_template *t,
                const VkDescriptorUpdateTemplateCreateInfo *info,
                VkDescriptorUpdateTemplateEntry *driver_entries)
{
   size_t offset = 0;
   uint32_t n = 0;
   for (uint32_t i = 0; i < info->descriptorUpdateEntryCount; i++) {
      const VkDescriptorUpdateTemplateEntry *app = &info->pDescriptorUpdateEntries[i];
      struct tsr_template_entry *e = &t->entries[i];
      e->kind = entry_kind(app->descriptorType);
      e->binding = app->dstBinding;
      e->element = app->dstArrayElement;
      e->count = app->descriptorCount;
      e->app_offset = app->offset;
      e->app_stride = app->stride;
      e->blob_offset = offset;
      e->blob_stride = entry_blob_element_size(e->kind);
      offset = align8(offset + (size_t)e->count * e->blob_stride);
      e->slots = t->uab && e->kind == ENTRY_TENSOR &&
                 tsr_uab_layout_binding_is_ours(device, info->descriptorSetLayout, e->binding);
      if (e->slots)
         continue;
      driver_entries[n] = *app;
      driver_entries[n].descriptorType = lowered_type(app->descriptorType);
      driver_entries[n].offset = e->blob_offset;
      driver_entries[n].stride = e->kind == ENTRY_INLINE ? 0 : e->blob_stride;
      n++;
   }
   t->entry_count = info->descriptorUpdateEntryCount;
   t->blob_size = offset;
   return n;
}

/* Translates the application's data into the blob the driver's template reads. */
static void
template_fill(const struct tsr_template *t, const void *pData, void *blob)
{
   for (uint32_t i = 0; i < t->entry_count; i++) {
      const struct tsr_template_entry *e = &t->entries[i];
      const char *src = (const char *)pData + e->app_offset;
      char *dst = (char *)blob + e->blob_offset;
      if (e->kind == ENTRY_INLINE) {
         memcpy(dst, src, e->count);
         continue;
      }
      for (uint32_t j = 0; j < e->count; j++) {
         const char *s = src + j * e->app_stride;
         char *d = dst + j * e->blob_stride;
         if (e->kind == ENTRY_TENSOR) {
            VkTensorViewARM view;
            memcpy(&view, s, sizeof(view));
            VkDescriptorBufferInfo info = view_buffer_info(view);
            memcpy(d, &info, sizeof(info));
         } else if (e->kind == ENTRY_IMAGE) {
            VkDescriptorImageInfo info;
            memcpy(&info, s, sizeof(info));
            info.imageLayout = lowered_layout(info.imageLayout);
            memcpy(d, &info, sizeof(info));
         } else {
            memcpy(d, s, e->blob_stride);
         }
      }
   }
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateDescriptorUpdateTemplate(VkDevice _device,
                                   const VkDescriptorUpdateTemplateCreateInfo *pCreateInfo,
                                   const VkAllocationCallbacks *pAllocator,
                                   VkDescriptorUpdateTemplate *pDescriptorUpdateTemplate)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (!template_needs_wrapping(pCreateInfo)) {
      for (uint32_t i = 0; i < pCreateInfo->descriptorUpdateEntryCount; i++) {
         if (is_tensor_type(pCreateInfo->pDescriptorUpdateEntries[i].descriptorType))
            return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                             "vkCreateDescriptorUpdateTemplate: a template with tensor entries "
                             "has an entry of a descriptor type the layer cannot copy");
      }
      return device->base.next.CreateDescriptorUpdateTemplate(_device, pCreateInfo, pAllocator,
                                                              pDescriptorUpdateTemplate);
   }

   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   uint32_t count = pCreateInfo->descriptorUpdateEntryCount;
   struct tsr_template *t =
       lyr_zalloc(alloc, sizeof(*t) + count * sizeof(t->entries[0]), alignof(struct tsr_template),
                  VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!t)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDescriptorUpdateTemplate: %u entries",
                       count);
   struct scratch scratch;
   VkDescriptorUpdateTemplateEntry *driver_entries =
       scratch_get(&scratch, alloc, count * sizeof(VkDescriptorUpdateTemplateEntry));
   if (!driver_entries) {
      lyr_free(alloc, t);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDescriptorUpdateTemplate: %u entries",
                       count);
   }
   t->uab = pCreateInfo->templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET &&
            tsr_uab_layout_is_ours(device, pCreateInfo->descriptorSetLayout);
   VkDescriptorUpdateTemplateCreateInfo info = *pCreateInfo;
   info.descriptorUpdateEntryCount = template_layout(device, t, pCreateInfo, driver_entries);
   info.pDescriptorUpdateEntries = driver_entries;
   VkResult result = VK_SUCCESS;
   if (info.descriptorUpdateEntryCount)
      result =
          device->base.next.CreateDescriptorUpdateTemplate(_device, &info, pAllocator, &t->driver);
   scratch_put(&scratch);
   if (result != VK_SUCCESS) {
      lyr_free(alloc, t);
      return result;
   }
   if (!lyr_map_insert(&device->templates, t, t)) {
      if (t->driver)
         device->base.next.DestroyDescriptorUpdateTemplate(_device, t->driver, pAllocator);
      lyr_free(alloc, t);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkCreateDescriptorUpdateTemplate: cannot record the template");
   }
   *pDescriptorUpdateTemplate = template_to_handle(t);
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_DestroyDescriptorUpdateTemplate(VkDevice _device,
                                    VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                    const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_template *t =
       descriptorUpdateTemplate
           ? lyr_map_remove(&device->templates, (const void *)(uintptr_t)descriptorUpdateTemplate)
           : NULL;
   if (!t) {
      device->base.next.DestroyDescriptorUpdateTemplate(_device, descriptorUpdateTemplate,
                                                        pAllocator);
      return;
   }
   if (t->driver)
      device->base.next.DestroyDescriptorUpdateTemplate(_device, t->driver, pAllocator);
   lyr_free2(&device->base.alloc, pAllocator, t);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_UpdateDescriptorSetWithTemplate(VkDevice _device, VkDescriptorSet descriptorSet,
                                    VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                    const void *pData)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_template *t = template_lookup(device, descriptorUpdateTemplate);
   if (!t) {
      device->base.next.UpdateDescriptorSetWithTemplate(_device, descriptorSet,
                                                        descriptorUpdateTemplate, pData);
      return;
   }
   if (t->uab) {
      /* Tensor entries fill the set's slots (tsr_uab.c); the rest goes down. */
      for (uint32_t i = 0; i < t->entry_count; i++) {
         const struct tsr_template_entry *e = &t->entries[i];
         if (e->slots)
            tsr_uab_write_views(device, descriptorSet, e->binding, e->element, e->count,
                                (const char *)pData + e->app_offset, e->app_stride);
      }
      if (!t->driver)
         return;
   }
   struct scratch scratch;
   void *blob = scratch_get(&scratch, &device->base.alloc, t->blob_size);
   if (!blob) {
      lyr_loge("vkUpdateDescriptorSetWithTemplate: no memory for %zu bytes; update skipped",
               t->blob_size);
      return;
   }
   template_fill(t, pData, blob);
   device->base.next.UpdateDescriptorSetWithTemplate(_device, descriptorSet, t->driver, blob);
   scratch_put(&scratch);
}

/* The blob lives on this call's stack (or heap): push data is consumed while
 * recording, and no two recordings share it. */
static void
push_with_template(PFN_vkCmdPushDescriptorSetWithTemplateKHR next, const char *what,
                   VkCommandBuffer commandBuffer,
                   VkDescriptorUpdateTemplate descriptorUpdateTemplate, VkPipelineLayout layout,
                   uint32_t set, const void *pData)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (!next) {
      lyr_loge("%s: not provided by the device (enable VK_KHR_push_descriptor)", what);
      return;
   }
   struct tsr_template *t = template_lookup(device, descriptorUpdateTemplate);
   if (!t) {
      next(commandBuffer, descriptorUpdateTemplate, layout, set, pData);
      return;
   }
   struct scratch scratch;
   void *blob = scratch_get(&scratch, &device->base.alloc, t->blob_size);
   if (!blob) {
      lyr_loge("%s: no memory for %zu bytes; push not recorded", what, t->blob_size);
      tsr_cmd_fail(device, commandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY);
      return;
   }
   template_fill(t, pData, blob);
   next(commandBuffer, t->driver, layout, set, blob);
   scratch_put(&scratch);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                        VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                        VkPipelineLayout layout, uint32_t set, const void *pData)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   push_with_template(device->base.next.CmdPushDescriptorSetWithTemplateKHR,
                      "vkCmdPushDescriptorSetWithTemplateKHR", commandBuffer,
                      descriptorUpdateTemplate, layout, set, pData);
}

/* The Vulkan 1.4 name (see tsr_CmdPushDescriptorSet). */
static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushDescriptorSetWithTemplate(VkCommandBuffer commandBuffer,
                                     VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                     VkPipelineLayout layout, uint32_t set, const void *pData)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   PFN_vkCmdPushDescriptorSetWithTemplateKHR next =
       device->base.next.CmdPushDescriptorSetWithTemplate
           ? device->base.next.CmdPushDescriptorSetWithTemplate
           : device->base.next.CmdPushDescriptorSetWithTemplateKHR;
   push_with_template(next, "vkCmdPushDescriptorSetWithTemplate", commandBuffer,
                      descriptorUpdateTemplate, layout, set, pData);
}

/* ---- hooks and device state ------------------------------------------------ */

static const struct lyr_hook hooks[] = {
    TSR_HOOK(CreateDescriptorSetLayout, tsr_CreateDescriptorSetLayout),
    TSR_HOOK(GetDescriptorSetLayoutSupport, tsr_GetDescriptorSetLayoutSupport),
    TSR_HOOK(GetDescriptorSetLayoutSupportKHR, tsr_GetDescriptorSetLayoutSupport),
    TSR_HOOK(CreateDescriptorPool, tsr_CreateDescriptorPool),
    TSR_HOOK(UpdateDescriptorSets, tsr_UpdateDescriptorSets),
    TSR_HOOK(CmdPushDescriptorSetKHR, tsr_CmdPushDescriptorSetKHR),
    TSR_HOOK(CmdPushDescriptorSet, tsr_CmdPushDescriptorSet),
    TSR_HOOK(CreateDescriptorUpdateTemplate, tsr_CreateDescriptorUpdateTemplate),
    TSR_HOOK(CreateDescriptorUpdateTemplateKHR, tsr_CreateDescriptorUpdateTemplate),
    TSR_HOOK(DestroyDescriptorUpdateTemplate, tsr_DestroyDescriptorUpdateTemplate),
    TSR_HOOK(DestroyDescriptorUpdateTemplateKHR, tsr_DestroyDescriptorUpdateTemplate),
    TSR_HOOK(UpdateDescriptorSetWithTemplate, tsr_UpdateDescriptorSetWithTemplate),
    TSR_HOOK(UpdateDescriptorSetWithTemplateKHR, tsr_UpdateDescriptorSetWithTemplate),
    TSR_HOOK(CmdPushDescriptorSetWithTemplateKHR, tsr_CmdPushDescriptorSetWithTemplateKHR),
    TSR_HOOK(CmdPushDescriptorSetWithTemplate, tsr_CmdPushDescriptorSetWithTemplate),
};

const struct lyr_hook_table tsr_descriptor_hooks = LYR_HOOK_TABLE(hooks);

VkResult
tsr_descriptor_init(struct tsr_device *device)
{
   lyr_map_init(&device->templates);
   return VK_SUCCESS;
}

void
tsr_descriptor_finish(struct tsr_device *device)
{
   /* The application destroys its templates before the device
    * (VUID-vkDestroyDevice-device-05137); the map holds none by now. */
   lyr_map_finish(&device->templates);
}
