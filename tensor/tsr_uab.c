/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Update-after-bind of tensor bindings without update-after-bind storage
 * buffers below (tsr_uab.h says how; docs/decisions.md D32 says why). Layouts
 * of ours, the sets allocated with them (each with one record slot per tensor
 * descriptor) and the pools holding those sets are kept in maps; writes and
 * copies to tensor bindings of ours fill slots. Set allocation, freeing and
 * pool reset or destruction are hooked here; layouts, pools, writes and
 * templates call in from tsr_descriptor.c, which owns those hooks.
 */
#include "tsr_uab.h"

#include <inttypes.h>
#include <stdalign.h>
#include <stdlib.h>

/* A tensor binding of a layout of ours. */
struct uab_binding {
   uint32_t binding;
   uint32_t count; /* descriptorCount (for a variable-count binding: the most) */
   bool variable;  /* VARIABLE_DESCRIPTOR_COUNT */
};

/* A layout of ours: its tensor bindings sorted by binding number. */
struct uab_layout {
   uint32_t binding_count;
   struct uab_binding bindings[];
};

/* One tensor descriptor of a set of ours: the slot its driver descriptor
 * points at, and the view written last (VK_NULL_HANDLE: none). */
struct uab_elem {
   struct tsr_record_slot slot;
   VkTensorViewARM view;
};

struct uab_set_binding {
   uint32_t binding;
   uint32_t count;
   uint32_t first; /* index of its first element in elems */
};

struct uab_pool;

/* A set allocated with a layout of ours. */
struct uab_set {
   VkDescriptorSet set;
   struct uab_pool *pool;
   struct uab_set *prev, *next; /* in the pool's list */
   uint32_t binding_count;
   uint32_t elem_count;
   struct uab_set_binding *bindings; /* in the same allocation, after elems */
   struct uab_elem elems[];
};

/* A pool that holds (or may hold) sets of ours. */
struct uab_pool {
   VkDescriptorPoolCreateFlags flags; /* the application's */
   struct uab_set *sets;
};

struct tsr_uab {
   pthread_mutex_t lock;   /* guards pools' lists and the sets' elements */
   struct lyr_map layouts; /* VkDescriptorSetLayout -> struct uab_layout */
   struct lyr_map sets;    /* VkDescriptorSet -> struct uab_set */
   struct lyr_map pools;   /* VkDescriptorPool -> struct uab_pool */
};

#define UAB_ENV "VMEL_TENSOR_UPDATE_AFTER_BIND"

static inline bool
is_tensor(VkDescriptorType type)
{
   return (uint32_t)type == (uint32_t)VK_DESCRIPTOR_TYPE_TENSOR_ARM;
}

static inline const void *
key_of(uint64_t handle)
{
   return (const void *)(uintptr_t)handle;
}

/* ---- capabilities ---------------------------------------------------------- */

void
tsr_uab_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device, struct tsr_caps *caps)
{
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   };
   VkPhysicalDeviceFeatures2 f2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &f12,
   };
   instance->next.GetPhysicalDeviceFeatures2(physical_device, &f2);
   caps->uab_driver_any = f12.descriptorBindingUniformBufferUpdateAfterBind ||
                          f12.descriptorBindingSampledImageUpdateAfterBind ||
                          f12.descriptorBindingStorageImageUpdateAfterBind ||
                          f12.descriptorBindingStorageBufferUpdateAfterBind ||
                          f12.descriptorBindingUniformTexelBufferUpdateAfterBind ||
                          f12.descriptorBindingStorageTexelBufferUpdateAfterBind;
   const char *env = getenv(UAB_ENV);
   bool forced = env && strcmp(env, "emulate") == 0;
   if (env && !forced && strcmp(env, "auto") != 0)
      lyr_logw("%s=%s ignored (auto or emulate)", UAB_ENV, env);
   caps->uab_forced = forced;
   caps->uab_emulated = forced || !caps->device_features.storage_buffer_update_after_bind;
}

/* ---- device state ------------------------------------------------------------ */

VkResult
tsr_uab_init(struct tsr_device *device)
{
   struct tsr_uab *uab = lyr_zalloc(&device->base.alloc, sizeof(*uab), alignof(struct tsr_uab),
                                    VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!uab)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDevice: no memory for the "
                                                    "update-after-bind state");
   pthread_mutex_init(&uab->lock, NULL);
   lyr_map_init(&uab->layouts);
   lyr_map_init(&uab->sets);
   lyr_map_init(&uab->pools);
   device->uab = uab;
   lyr_logi("update-after-bind of tensor bindings emulated (%s)",
            device->caps.device_features.storage_buffer_update_after_bind
                ? UAB_ENV "=emulate"
                : "the device has no update-after-bind storage buffers");
   return VK_SUCCESS;
}

static void
free_value(const void *key, void *value, void *user)
{
   (void)key;
   struct tsr_device *device = user;
   lyr_free(&device->base.alloc, value);
}

/* Sets still allocated when the device goes: their slots die with the pool. */
static void
free_set_value(const void *key, void *value, void *user)
{
   free_value(key, value, user);
}

void
tsr_uab_finish(struct tsr_device *device)
{
   struct tsr_uab *uab = device->uab;
   if (!uab)
      return;
   lyr_map_foreach(&uab->layouts, free_value, device);
   lyr_map_foreach(&uab->sets, free_set_value, device);
   lyr_map_foreach(&uab->pools, free_value, device);
   lyr_map_finish(&uab->layouts);
   lyr_map_finish(&uab->sets);
   lyr_map_finish(&uab->pools);
   pthread_mutex_destroy(&uab->lock);
   lyr_free(&device->base.alloc, uab);
   device->uab = NULL;
}

/* ---- layouts -------------------------------------------------------------------- */

bool
tsr_uab_layout_info_ours(const struct tsr_device *device,
                         const VkDescriptorSetLayoutCreateInfo *info)
{
   if (!device->uab || !(info->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT))
      return false;
   for (uint32_t i = 0; i < info->bindingCount; i++) {
      if (is_tensor(info->pBindings[i].descriptorType))
         return true;
   }
   return false;
}

size_t
tsr_uab_layout_space(const VkDescriptorSetLayoutCreateInfo *app)
{
   const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = lyr_find_struct(
       app->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
   return bf ? (bf->bindingCount * sizeof(VkDescriptorBindingFlags) + 7) & ~(size_t)7 : 0;
}

void
tsr_uab_layout_lower(const struct tsr_device *device, const VkDescriptorSetLayoutCreateInfo *app,
                     VkDescriptorSetLayoutCreateInfo *copy, void *space)
{
   if (!device->caps.uab_driver_any)
      copy->flags &= ~VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
   VkDescriptorSetLayoutBindingFlagsCreateInfo *bf =
       (VkDescriptorSetLayoutBindingFlagsCreateInfo *)lyr_find_struct(
           copy->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
   if (!bf || !bf->bindingCount || !bf->pBindingFlags)
      return;
   VkDescriptorBindingFlags *flags = space;
   for (uint32_t i = 0; i < bf->bindingCount; i++) {
      flags[i] = bf->pBindingFlags[i];
      if (i < app->bindingCount && is_tensor(app->pBindings[i].descriptorType))
         flags[i] &=
             ~(VkDescriptorBindingFlags)(VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT |
                                         VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT);
   }
   bf->pBindingFlags = flags;
}

static int
binding_cmp(const void *a, const void *b)
{
   const struct uab_binding *x = a, *y = b;
   return x->binding < y->binding ? -1 : x->binding > y->binding;
}

VkResult
tsr_uab_layout_created(struct tsr_device *device, const VkDescriptorSetLayoutCreateInfo *app,
                       const VkAllocationCallbacks *alloc, VkDescriptorSetLayout layout)
{
   (void)alloc;
   struct tsr_uab *uab = device->uab;
   const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = lyr_find_struct(
       app->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
   uint32_t n = 0;
   for (uint32_t i = 0; i < app->bindingCount; i++)
      n += is_tensor(app->pBindings[i].descriptorType) && app->pBindings[i].descriptorCount;
   struct uab_layout *l = lyr_zalloc(&device->base.alloc, sizeof(*l) + n * sizeof(l->bindings[0]),
                                     8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!l)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkCreateDescriptorSetLayout: no memory to record an update-after-bind "
                       "tensor layout");
   for (uint32_t i = 0; i < app->bindingCount; i++) {
      const VkDescriptorSetLayoutBinding *b = &app->pBindings[i];
      if (!is_tensor(b->descriptorType) || !b->descriptorCount)
         continue;
      VkDescriptorBindingFlags flags =
          bf && i < bf->bindingCount && bf->pBindingFlags ? bf->pBindingFlags[i] : 0;
      l->bindings[l->binding_count++] = (struct uab_binding){
          .binding = b->binding,
          .count = b->descriptorCount,
          .variable = (flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) != 0,
      };
   }
   qsort(l->bindings, l->binding_count, sizeof(l->bindings[0]), binding_cmp);
   if (!lyr_map_insert(&uab->layouts, key_of((uint64_t)layout), l)) {
      lyr_free(&device->base.alloc, l);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkCreateDescriptorSetLayout: no memory to record an update-after-bind "
                       "tensor layout");
   }
   return VK_SUCCESS;
}

bool
tsr_uab_layout_is_ours(struct tsr_device *device, VkDescriptorSetLayout layout)
{
   return device->uab && layout && lyr_map_lookup(&device->uab->layouts, key_of((uint64_t)layout));
}

bool
tsr_uab_layout_binding_is_ours(struct tsr_device *device, VkDescriptorSetLayout layout,
                               uint32_t binding)
{
   const struct uab_layout *l =
       device->uab && layout ? lyr_map_lookup(&device->uab->layouts, key_of((uint64_t)layout))
                             : NULL;
   for (uint32_t i = 0; l && i < l->binding_count; i++) {
      if (l->bindings[i].binding == binding)
         return true;
   }
   return false;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_uab_DestroyDescriptorSetLayout(VkDevice _device, VkDescriptorSetLayout layout,
                                   const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (device->uab && layout) {
      /* Sets keep their own copy of what they need. */
      struct uab_layout *l = lyr_map_remove(&device->uab->layouts, key_of((uint64_t)layout));
      lyr_free(&device->base.alloc, l);
   }
   device->base.next.DestroyDescriptorSetLayout(_device, layout, pAllocator);
}

/* ---- pools ------------------------------------------------------------------------ */

VkDescriptorPoolCreateFlags
tsr_uab_pool_flags(const struct tsr_device *device, VkDescriptorPoolCreateFlags flags)
{
   if (device->uab && !device->caps.uab_driver_any)
      flags &= ~(VkDescriptorPoolCreateFlags)VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
   return flags;
}

static struct uab_pool *
pool_get(struct tsr_device *device, VkDescriptorPool pool, bool create)
{
   struct tsr_uab *uab = device->uab;
   struct uab_pool *p = lyr_map_lookup(&uab->pools, key_of((uint64_t)pool));
   if (p || !create)
      return p;
   p = lyr_zalloc(&device->base.alloc, sizeof(*p), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return NULL;
   if (!lyr_map_insert(&uab->pools, key_of((uint64_t)pool), p)) {
      lyr_free(&device->base.alloc, p);
      return NULL;
   }
   return p;
}

/* Returns the set's slots and forgets it (uab->lock held). */
static void
set_release_locked(struct tsr_device *device, struct uab_set *s)
{
   struct tsr_uab *uab = device->uab;
   lyr_map_remove(&uab->sets, key_of((uint64_t)s->set));
   if (s->pool) {
      if (s->prev)
         s->prev->next = s->next;
      else
         s->pool->sets = s->next;
      if (s->next)
         s->next->prev = s->prev;
   }
   for (uint32_t i = 0; i < s->elem_count; i++)
      tsr_record_slot_free(device, &s->elems[i].slot);
   lyr_free(&device->base.alloc, s);
}

static void
pool_release_sets(struct tsr_device *device, VkDescriptorPool pool, bool destroy)
{
   struct tsr_uab *uab = device->uab;
   pthread_mutex_lock(&uab->lock);
   struct uab_pool *p = destroy ? lyr_map_remove(&uab->pools, key_of((uint64_t)pool))
                                : lyr_map_lookup(&uab->pools, key_of((uint64_t)pool));
   while (p && p->sets)
      set_release_locked(device, p->sets);
   pthread_mutex_unlock(&uab->lock);
   if (destroy)
      lyr_free(&device->base.alloc, p);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_uab_ResetDescriptorPool(VkDevice _device, VkDescriptorPool pool,
                            VkDescriptorPoolResetFlags flags)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (device->uab)
      pool_release_sets(device, pool, false);
   return device->base.next.ResetDescriptorPool(_device, pool, flags);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_uab_DestroyDescriptorPool(VkDevice _device, VkDescriptorPool pool,
                              const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (device->uab && pool)
      pool_release_sets(device, pool, true);
   device->base.next.DestroyDescriptorPool(_device, pool, pAllocator);
}

/* ---- sets ---------------------------------------------------------------------------- */

/* A set record for a layout of ours, its slots taken and zeroed; NULL when out
 * of memory (logged). variable: the variable-count binding's count (0 without
 * a VkDescriptorSetVariableDescriptorCountAllocateInfo, as the spec says). */
static struct uab_set *
set_create(struct tsr_device *device, const struct uab_layout *l, uint32_t variable)
{
   uint32_t elems = 0;
   for (uint32_t i = 0; i < l->binding_count; i++)
      elems += l->bindings[i].variable ? variable : l->bindings[i].count;
   size_t size = sizeof(struct uab_set) + elems * sizeof(struct uab_elem) +
                 l->binding_count * sizeof(struct uab_set_binding);
   struct uab_set *s = lyr_zalloc(&device->base.alloc, size, alignof(struct uab_set),
                                  VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!s) {
      lyr_loge("vkAllocateDescriptorSets: no memory for a set of %u update-after-bind tensor "
               "descriptors",
               elems);
      return NULL;
   }
   s->bindings = (struct uab_set_binding *)&s->elems[elems];
   s->binding_count = l->binding_count;
   uint32_t first = 0;
   for (uint32_t i = 0; i < l->binding_count; i++) {
      uint32_t count = l->bindings[i].variable ? variable : l->bindings[i].count;
      s->bindings[i] = (struct uab_set_binding){l->bindings[i].binding, count, first};
      first += count;
   }
   for (; s->elem_count < elems; s->elem_count++) {
      struct uab_elem *e = &s->elems[s->elem_count];
      if (tsr_record_slot_alloc(device, &e->slot) != VK_SUCCESS) {
         lyr_loge("vkAllocateDescriptorSets: out of memory for the record slot of "
                  "update-after-bind tensor "
                  "descriptor %u of %u",
                  s->elem_count, elems);
         for (uint32_t i = 0; i < s->elem_count; i++)
            tsr_record_slot_free(device, &s->elems[i].slot);
         lyr_free(&device->base.alloc, s);
         return NULL;
      }
      memset(e->slot.mapped, 0, sizeof(*e->slot.mapped));
   }
   return s;
}

/* The driver's descriptors of a new set point at its slots, once and for all. */
static VkResult
set_write_driver(struct tsr_device *device, const struct uab_set *s)
{
   if (!s->elem_count)
      return VK_SUCCESS;
   size_t size = s->binding_count * sizeof(VkWriteDescriptorSet) +
                 s->elem_count * sizeof(VkDescriptorBufferInfo);
   void *block = lyr_alloc(&device->base.alloc, size, 16, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!block)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkAllocateDescriptorSets: no memory to write %u update-after-bind "
                       "tensor descriptors",
                       s->elem_count);
   VkWriteDescriptorSet *writes = block;
   VkDescriptorBufferInfo *infos = (VkDescriptorBufferInfo *)(writes + s->binding_count);
   uint32_t n = 0;
   for (uint32_t i = 0; i < s->binding_count; i++) {
      const struct uab_set_binding *b = &s->bindings[i];
      if (!b->count)
         continue;
      for (uint32_t j = 0; j < b->count; j++) {
         const struct tsr_record_slot *slot = &s->elems[b->first + j].slot;
         infos[b->first + j] =
             (VkDescriptorBufferInfo){slot->buffer, slot->offset, VMEL_TENSOR_RECORD_SIZE};
      }
      writes[n++] = (VkWriteDescriptorSet){
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = s->set,
          .dstBinding = b->binding,
          .descriptorCount = b->count,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
          .pBufferInfo = &infos[b->first],
      };
   }
   device->base.next.UpdateDescriptorSets(device->base.handle, n, writes, 0, NULL);
   lyr_free(&device->base.alloc, block);
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_uab_AllocateDescriptorSets(VkDevice _device, const VkDescriptorSetAllocateInfo *pAllocateInfo,
                               VkDescriptorSet *pDescriptorSets)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result =
       device->base.next.AllocateDescriptorSets(_device, pAllocateInfo, pDescriptorSets);
   struct tsr_uab *uab = device->uab;
   if (result != VK_SUCCESS || !uab)
      return result;
   const VkDescriptorSetVariableDescriptorCountAllocateInfo *var =
       lyr_find_struct(pAllocateInfo->pNext,
                       VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
   uint32_t made = 0;
   pthread_mutex_lock(&uab->lock);
   struct uab_pool *pool = NULL;
   for (; made < pAllocateInfo->descriptorSetCount; made++) {
      const struct uab_layout *l =
          lyr_map_lookup(&uab->layouts, key_of((uint64_t)pAllocateInfo->pSetLayouts[made]));
      if (!l)
         continue;
      if (!pool && !(pool = pool_get(device, pAllocateInfo->descriptorPool, true))) {
         result = lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                            "vkAllocateDescriptorSets: no memory to record the pool");
         break;
      }
      bool has_variable = var && var->descriptorSetCount == pAllocateInfo->descriptorSetCount;
      struct uab_set *s = set_create(device, l, has_variable ? var->pDescriptorCounts[made] : 0);
      if (!s) {
         result = VK_ERROR_OUT_OF_HOST_MEMORY;
         break;
      }
      s->set = pDescriptorSets[made];
      if (set_write_driver(device, s) != VK_SUCCESS ||
          !lyr_map_insert(&uab->sets, key_of((uint64_t)s->set), s)) {
         for (uint32_t i = 0; i < s->elem_count; i++)
            tsr_record_slot_free(device, &s->elems[i].slot);
         lyr_free(&device->base.alloc, s);
         result = lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                            "vkAllocateDescriptorSets: no memory to record a set of "
                            "update-after-bind tensor descriptors");
         break;
      }
      s->pool = pool;
      s->next = pool->sets;
      if (pool->sets)
         pool->sets->prev = s;
      pool->sets = s;
   }
   if (result != VK_SUCCESS) {
      /* Forget what was made; the driver's sets go back where the pool allows. */
      for (uint32_t i = 0; i < made; i++) {
         struct uab_set *s = lyr_map_lookup(&uab->sets, key_of((uint64_t)pDescriptorSets[i]));
         if (s)
            set_release_locked(device, s);
      }
   }
   pthread_mutex_unlock(&uab->lock);
   if (result != VK_SUCCESS) {
      if (pool && (pool->flags & VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT))
         device->base.next.FreeDescriptorSets(_device, pAllocateInfo->descriptorPool,
                                              pAllocateInfo->descriptorSetCount, pDescriptorSets);
      else
         lyr_logw("vkAllocateDescriptorSets: the pool cannot free single sets; the %u sets "
                  "stay allocated below until the pool is reset",
                  pAllocateInfo->descriptorSetCount);
      for (uint32_t i = 0; i < pAllocateInfo->descriptorSetCount; i++)
         pDescriptorSets[i] = VK_NULL_HANDLE;
   }
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_uab_FreeDescriptorSets(VkDevice _device, VkDescriptorPool descriptorPool,
                           uint32_t descriptorSetCount, const VkDescriptorSet *pDescriptorSets)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_uab *uab = device->uab;
   if (uab) {
      pthread_mutex_lock(&uab->lock);
      for (uint32_t i = 0; i < descriptorSetCount; i++) {
         struct uab_set *s = pDescriptorSets[i]
                                 ? lyr_map_lookup(&uab->sets, key_of((uint64_t)pDescriptorSets[i]))
                                 : NULL;
         if (s)
            set_release_locked(device, s);
      }
      pthread_mutex_unlock(&uab->lock);
   }
   return device->base.next.FreeDescriptorSets(_device, descriptorPool, descriptorSetCount,
                                               pDescriptorSets);
}

VkResult
tsr_uab_pool_created(struct tsr_device *device, VkDescriptorPool pool,
                     VkDescriptorPoolCreateFlags flags)
{
   if (!device->uab || !(flags & VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT))
      return VK_SUCCESS;
   pthread_mutex_lock(&device->uab->lock);
   struct uab_pool *p = pool_get(device, pool, true);
   if (p)
      p->flags = flags;
   pthread_mutex_unlock(&device->uab->lock);
   return p ? VK_SUCCESS
            : lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                        "vkCreateDescriptorPool: no memory to record an update-after-bind pool");
}

/* ---- writes and copies ----------------------------------------------------------------- */

static struct uab_set *
set_lookup(struct tsr_device *device, VkDescriptorSet set)
{
   return set ? lyr_map_lookup(&device->uab->sets, key_of((uint64_t)set)) : NULL;
}

/* The element index of (binding, element), or UINT32_MAX; *left: elements from
 * there to the end of the set's tensor bindings that follow consecutively. */
static uint32_t
elem_index(const struct uab_set *s, uint32_t binding, uint32_t element)
{
   for (uint32_t i = 0; i < s->binding_count; i++) {
      if (s->bindings[i].binding != binding)
         continue;
      /* Running past a binding's end continues at the next binding (consecutive
       * binding updates). */
      while (i < s->binding_count && element >= s->bindings[i].count) {
         element -= s->bindings[i].count;
         i++;
      }
      return i < s->binding_count ? s->bindings[i].first + element : UINT32_MAX;
   }
   return UINT32_MAX;
}

static void
elem_set(struct uab_elem *e, VkTensorViewARM handle)
{
   const struct tsr_tensor_view *view = tsr_view_from_handle(handle);
   e->view = handle;
   if (view)
      memcpy(e->slot.mapped, view->record.mapped, sizeof(*e->slot.mapped));
   else
      memset(e->slot.mapped, 0, sizeof(*e->slot.mapped));
}

bool
tsr_uab_write_is_ours(struct tsr_device *device, const VkWriteDescriptorSet *w)
{
   if (!device->uab || !is_tensor(w->descriptorType))
      return false;
   /* A tensor write to a binding that is not a tensor binding of ours (a
    * mutable one) goes down as any tensor write. */
   const struct uab_set *set = set_lookup(device, w->dstSet);
   return set && elem_index(set, w->dstBinding, 0) != UINT32_MAX;
}

void
tsr_uab_write_views(struct tsr_device *device, VkDescriptorSet set, uint32_t binding,
                    uint32_t element, uint32_t count, const void *data, size_t stride)
{
   struct tsr_uab *uab = device->uab;
   pthread_mutex_lock(&uab->lock);
   struct uab_set *s = set_lookup(device, set);
   uint32_t at = s ? elem_index(s, binding, element) : UINT32_MAX;
   if (at == UINT32_MAX || count > s->elem_count - at) {
      pthread_mutex_unlock(&uab->lock);
      lyr_loge("update of set 0x%" PRIx64 " binding %u elements %u..%u: outside its "
               "update-after-bind tensor descriptors; ignored",
               (uint64_t)set, binding, element, element + count);
      return;
   }
   for (uint32_t j = 0; j < count; j++) {
      VkTensorViewARM view;
      memcpy(&view, (const char *)data + j * stride, sizeof(view));
      elem_set(&s->elems[at + j], view);
   }
   pthread_mutex_unlock(&uab->lock);
}

void
tsr_uab_write(struct tsr_device *device, const VkWriteDescriptorSet *w)
{
   const VkWriteDescriptorSetTensorARM *t =
       lyr_find_struct(w->pNext, VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM);
   if (!t || t->tensorViewCount != w->descriptorCount || !t->pTensorViews) {
      lyr_loge("vkUpdateDescriptorSets: an update-after-bind tensor write (binding %u) lacks "
               "a VkWriteDescriptorSetTensorARM with descriptorCount views; write ignored",
               w->dstBinding);
      return;
   }
   tsr_uab_write_views(device, w->dstSet, w->dstBinding, w->dstArrayElement, w->descriptorCount,
                       t->pTensorViews, sizeof(VkTensorViewARM));
}

/* Copies count elements slot to slot (uab->lock held); false when outside. */
static bool
copy_locked(struct uab_set *src, struct uab_set *dst, const VkCopyDescriptorSet *c)
{
   uint32_t from = elem_index(src, c->srcBinding, c->srcArrayElement);
   uint32_t to = elem_index(dst, c->dstBinding, c->dstArrayElement);
   if (from == UINT32_MAX || to == UINT32_MAX || c->descriptorCount > src->elem_count - from ||
       c->descriptorCount > dst->elem_count - to)
      return false;
   for (uint32_t j = 0; j < c->descriptorCount; j++) {
      /* memmove semantics within one set: copy through a temporary. */
      struct vmel_tensor_record r;
      uint32_t k = (src == dst && to > from) ? c->descriptorCount - 1 - j : j;
      memcpy(&r, src->elems[from + k].slot.mapped, sizeof(r));
      memcpy(dst->elems[to + k].slot.mapped, &r, sizeof(r));
      dst->elems[to + k].view = src->elems[from + k].view;
   }
   return true;
}

/* Whether a copy is between tensor bindings of ours (sets of ours and a
 * binding that is a tensor binding there). */
static bool
copy_is_ours(struct tsr_device *device, const VkCopyDescriptorSet *c, struct uab_set **src,
             struct uab_set **dst)
{
   *src = set_lookup(device, c->srcSet);
   *dst = set_lookup(device, c->dstSet);
   bool src_tensor = *src && elem_index(*src, c->srcBinding, 0) != UINT32_MAX;
   bool dst_tensor = *dst && elem_index(*dst, c->dstBinding, 0) != UINT32_MAX;
   return src_tensor || dst_tensor;
}

VkResult
tsr_uab_copies(struct tsr_device *device, uint32_t count, const VkCopyDescriptorSet *copies,
               const VkCopyDescriptorSet **kept, uint32_t *kept_count, VkCopyDescriptorSet **owned)
{
   *kept = copies;
   *kept_count = count;
   *owned = NULL;
   struct tsr_uab *uab = device->uab;
   if (!uab || !count)
      return VK_SUCCESS;
   uint32_t ours = 0;
   struct uab_set *src, *dst;
   for (uint32_t i = 0; i < count; i++)
      ours += copy_is_ours(device, &copies[i], &src, &dst);
   if (!ours)
      return VK_SUCCESS;
   VkCopyDescriptorSet *rest = NULL;
   if (ours < count) {
      rest = lyr_alloc(&device->base.alloc, (count - ours) * sizeof(*rest), 8,
                       VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!rest)
         return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                          "vkUpdateDescriptorSets: no memory to split %u descriptor copies", count);
   }
   uint32_t n = 0;
   pthread_mutex_lock(&uab->lock);
   for (uint32_t i = 0; i < count; i++) {
      if (!copy_is_ours(device, &copies[i], &src, &dst)) {
         rest[n++] = copies[i];
         continue;
      }
      if (!src || !dst || !copy_locked(src, dst, &copies[i]))
         lyr_loge("vkUpdateDescriptorSets: a copy of %u tensor descriptors between binding %u "
                  "and binding %u is not between update-after-bind tensor bindings of two "
                  "sets of such layouts, or runs outside them; ignored",
                  copies[i].descriptorCount, copies[i].srcBinding, copies[i].dstBinding);
   }
   pthread_mutex_unlock(&uab->lock);
   *kept = rest;
   *kept_count = n;
   *owned = rest;
   return VK_SUCCESS;
}

/* ---- views whose record changes ---------------------------------------------------------- */

struct rewrite_walk {
   const struct tsr_tensor_view *view;
};

static void
rewrite_set(const void *key, void *value, void *user)
{
   (void)key;
   struct uab_set *s = value;
   const struct rewrite_walk *w = user;
   VkTensorViewARM handle = tsr_view_to_handle((struct tsr_tensor_view *)w->view);
   for (uint32_t i = 0; i < s->elem_count; i++) {
      if (s->elems[i].view == handle)
         memcpy(s->elems[i].slot.mapped, w->view->record.mapped, sizeof(*s->elems[i].slot.mapped));
   }
}

void
tsr_uab_view_rewritten(struct tsr_device *device, const struct tsr_tensor_view *view)
{
   struct tsr_uab *uab = device->uab;
   if (!uab)
      return;
   struct rewrite_walk w = {view};
   pthread_mutex_lock(&uab->lock);
   lyr_map_foreach(&uab->sets, rewrite_set, &w);
   pthread_mutex_unlock(&uab->lock);
}

/* ---- hooks ------------------------------------------------------------------------------------
 */

static const struct lyr_hook hooks[] = {
    TSR_HOOK(DestroyDescriptorSetLayout, tsr_uab_DestroyDescriptorSetLayout),
    TSR_HOOK(AllocateDescriptorSets, tsr_uab_AllocateDescriptorSets),
    TSR_HOOK(FreeDescriptorSets, tsr_uab_FreeDescriptorSets),
    TSR_HOOK(ResetDescriptorPool, tsr_uab_ResetDescriptorPool),
    TSR_HOOK(DestroyDescriptorPool, tsr_uab_DestroyDescriptorPool),
};

const struct lyr_hook_table tsr_uab_hooks = LYR_HOOK_TABLE(hooks);
