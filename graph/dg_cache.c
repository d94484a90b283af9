/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer's part of VkPipelineCache objects (dg_cache.h): the hooks of
 * vkCreatePipelineCache, vkDestroyPipelineCache, vkGetPipelineCacheData and
 * vkMergePipelineCaches on devices that emulate VK_ARM_data_graph. The handle is
 * the driver's, unchanged; this file keeps beside it a store of data-graph entries
 * (key -> payload, dg_cache_format.c) and splits and joins the cache data: the
 * device's header, this layer's section, the driver's blob. It also computes the
 * keys (the full content of what determines a data-graph pipeline) and the layer's
 * build identity. Creation (hits, misses, identifiers) is dg_pipeline.c's.
 */
#define _GNU_SOURCE
#include "dg_runtime.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

/* Attached to a VkPipelineCache of an emulating device. */
struct dg_cache {
   VkAllocationCallbacks alloc;
   bool external_sync; /* VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT: no lock */
   pthread_mutex_t lock;
   struct dg_cache_entry **entries; /* [count], in insertion order */
   uint32_t count, capacity;
};

/* Immutable once stored; freed with its cache. */
struct dg_cache_entry {
   uint8_t key[DG_CACHE_KEY_SIZE];
   uint8_t id[DG_CACHE_KEY_SIZE]; /* dg_cache_identifier(key) */
   uint64_t size;
   uint8_t payload[]; /* [size] */
};

static void
cache_lock(struct dg_cache *c)
{
   if (!c->external_sync)
      pthread_mutex_lock(&c->lock);
}

static void
cache_unlock(struct dg_cache *c)
{
   if (!c->external_sync)
      pthread_mutex_unlock(&c->lock);
}

/* ---- the layer's build identity ------------------------------------------------------ */

/* The code and read-only data of the loaded layer (the PT_LOAD segments that are not
 * writable: relocation does not touch them), hashed once per process. Another build of the
 * layer, with another plan builder or other kernels, has another identity, so its cache
 * entries are never read as this build's. */
static uint8_t build_identity[DG_SHA256_SIZE];
static bool build_identity_valid;
static pthread_once_t build_identity_once = PTHREAD_ONCE_INIT;

/* Reads loaded segments as they are: AddressSanitizer poisons the padding between globals,
 * which is part of the segment too, so neither its checks nor its memcpy interceptor may
 * see these reads (volatile: no memcpy call is made of the loop). */
__attribute__((no_sanitize_address)) static void
hash_memory(struct dg_sha256 *s, const uint8_t *p, size_t n)
{
   uint8_t chunk[4096];
   while (n) {
      size_t k = n < sizeof(chunk) ? n : sizeof(chunk);
      for (size_t i = 0; i < k; i++)
         chunk[i] = ((const volatile uint8_t *)p)[i];
      dg_sha256_update(s, chunk, k);
      p += k;
      n -= k;
   }
}

struct phdr_search {
   const void *base;
   struct dg_sha256 sha;
   bool found;
};

static int
hash_object(struct dl_phdr_info *info, size_t size, void *user)
{
   struct phdr_search *s = user;
   (void)size;
   bool ours = false;
   for (int i = 0; i < info->dlpi_phnum && !ours; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (const void *)(info->dlpi_addr + ph->p_vaddr) <= s->base &&
          (const char *)s->base < (const char *)(info->dlpi_addr + ph->p_vaddr + ph->p_memsz))
         ours = true;
   }
   if (!ours)
      return 0;
   for (int i = 0; i < info->dlpi_phnum; i++) {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
         continue;
      dg_sha256_u64(&s->sha, ph->p_vaddr);
      dg_sha256_u64(&s->sha, ph->p_memsz);
      /* p_filesz: the part backed by the file (the rest is zero-filled). */
      hash_memory(&s->sha, (const uint8_t *)(info->dlpi_addr + ph->p_vaddr), ph->p_filesz);
   }
   s->found = true;
   return 1;
}

static void
compute_build_identity(void)
{
   struct phdr_search s = {.base = (const void *)&compute_build_identity};
   dg_sha256_init(&s.sha);
   dg_sha256_u32(&s.sha, DG_CACHE_FORMAT_VERSION);
   dl_iterate_phdr(hash_object, &s);
   if (!s.found) {
      lyr_logw("pipeline caches: the layer cannot identify its own build; data-graph "
               "entries are kept in memory but not written to or read from cache data");
      return;
   }
   dg_sha256_final(&s.sha, build_identity);
   build_identity_valid = true;
}

void
dg_cache_device_init(struct dg_device *device)
{
   lyr_map_init(&device->pipeline_caches);
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDeviceProperties props;
   instance->next.GetPhysicalDeviceProperties(device->base.physical_device, &props);
   struct dg_cache_device_id *id = &device->cache_id;
   *id = (struct dg_cache_device_id){
       .vendor_id = props.vendorID,
       .device_id = props.deviceID,
       .driver_version = props.driverVersion,
   };
   memcpy(id->uuid, props.pipelineCacheUUID, VK_UUID_SIZE);
}

/* What cache data must match: the device's fields and the section identity. The build
 * identity is hashed on first use (about 7 MB of code and kernels: tens of milliseconds),
 * not at vkCreateDevice. */
static struct dg_cache_device_id
device_id(const struct dg_device *device)
{
   struct dg_cache_device_id id = device->cache_id;
   pthread_once(&build_identity_once, compute_build_identity);
   id.identity_valid = build_identity_valid;
   struct dg_sha256 s;
   dg_sha256_init(&s);
   dg_sha256_update(&s, build_identity, sizeof(build_identity));
   dg_sha256_u32(&s, id.vendor_id);
   dg_sha256_u32(&s, id.device_id);
   dg_sha256_u32(&s, id.driver_version);
   dg_sha256_update(&s, id.uuid, VK_UUID_SIZE);
   dg_sha256_final(&s, id.identity);
   return id;
}

static void
cache_free(struct dg_cache *c)
{
   for (uint32_t i = 0; i < c->count; i++)
      lyr_free(&c->alloc, c->entries[i]);
   lyr_free(&c->alloc, c->entries);
   pthread_mutex_destroy(&c->lock);
   VkAllocationCallbacks a = c->alloc;
   lyr_free(&a, c);
}

static void
free_leftover_cache(const void *key, void *value, void *user)
{
   (void)key;
   (void)user;
   cache_free(value);
}

void
dg_cache_device_finish(struct dg_device *device)
{
   lyr_map_foreach(&device->pipeline_caches, free_leftover_cache, NULL);
   lyr_map_finish(&device->pipeline_caches);
}

struct dg_cache *
dg_cache_get(struct dg_device *device, VkPipelineCache handle)
{
   if (handle == VK_NULL_HANDLE)
      return NULL;
   return lyr_map_lookup(&device->pipeline_caches, (const void *)(uintptr_t)handle);
}

/* ---- the store ------------------------------------------------------------------------ */

static struct dg_cache_entry *
find_locked(struct dg_cache *c, const uint8_t *key, bool by_identifier)
{
   for (uint32_t i = 0; i < c->count; i++) {
      const uint8_t *k = by_identifier ? c->entries[i]->id : c->entries[i]->key;
      if (memcmp(k, key, DG_CACHE_KEY_SIZE) == 0)
         return c->entries[i];
   }
   return NULL;
}

const uint8_t *
dg_cache_find(struct dg_cache *c, const uint8_t *key, bool by_identifier, uint64_t *size,
              uint8_t found_key[DG_CACHE_KEY_SIZE])
{
   cache_lock(c);
   struct dg_cache_entry *e = find_locked(c, key, by_identifier);
   cache_unlock(c);
   if (!e)
      return NULL;
   *size = e->size;
   if (found_key)
      memcpy(found_key, e->key, DG_CACHE_KEY_SIZE);
   return e->payload;
}

static VkResult
insert_locked(struct dg_cache *c, const uint8_t key[DG_CACHE_KEY_SIZE], const void *payload,
              uint64_t size)
{
   if (find_locked(c, key, false))
      return VK_SUCCESS;
   if (size > SIZE_MAX - sizeof(struct dg_cache_entry))
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   if (c->count == c->capacity) {
      uint32_t cap = c->capacity ? c->capacity * 2 : 8;
      struct dg_cache_entry **a = lyr_realloc(&c->alloc, c->entries, (size_t)cap * sizeof(*a), 8,
                                              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!a)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      c->entries = a;
      c->capacity = cap;
   }
   struct dg_cache_entry *e =
       lyr_alloc(&c->alloc, sizeof(*e) + (size_t)size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!e)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memcpy(e->key, key, DG_CACHE_KEY_SIZE);
   dg_cache_identifier(key, e->id);
   e->size = size;
   memcpy(e->payload, payload, (size_t)size);
   c->entries[c->count++] = e;
   return VK_SUCCESS;
}

VkResult
dg_cache_insert(struct dg_cache *c, const uint8_t key[DG_CACHE_KEY_SIZE], const void *payload,
                uint64_t size)
{
   cache_lock(c);
   VkResult result = insert_locked(c, key, payload, size);
   cache_unlock(c);
   return result;
}

/* ---- keys ------------------------------------------------------------------------------ */

/* Bytes per element of the formats graph tensors take (0: not one of them). */
static uint32_t
format_size(VkFormat f)
{
   switch ((int)f) {
   case VK_FORMAT_R8_BOOL_ARM:
   case VK_FORMAT_R8_SINT:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM:
      return 1;
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SFLOAT:
   case VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM:
      return 2;
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SFLOAT:
      return 4;
   case VK_FORMAT_R64_SINT:
   case VK_FORMAT_R64_UINT:
      return 8;
   default:
      return 0;
   }
}

static void
hash_description(struct dg_sha256 *s, const VkTensorDescriptionARM *d)
{
   if (!d) {
      dg_sha256_u32(s, 0);
      return;
   }
   dg_sha256_u32(s, 1);
   dg_sha256_u32(s, d->tiling);
   dg_sha256_u32(s, d->format);
   dg_sha256_u64(s, d->usage);
   uint32_t rank = d->pDimensions ? d->dimensionCount : 0;
   dg_sha256_u32(s, rank);
   for (uint32_t i = 0; i < rank; i++)
      dg_sha256_u64(s, (uint64_t)d->pDimensions[i]);
   dg_sha256_u32(s, d->pStrides != NULL);
   for (uint32_t i = 0; d->pStrides && i < rank; i++)
      dg_sha256_u64(s, (uint64_t)d->pStrides[i]);
}

/* The sTypes chained to a resource info or a constant (what is not a description is
 * keyed by its type only: no such struct changes what this layer builds today). */
static void
hash_chain_types(struct dg_sha256 *s, const void *chain)
{
   const VkBaseInStructure *b = chain;
   for (uint32_t i = 0; b && i < 64; i++, b = b->pNext)
      dg_sha256_u32(s, b->sType);
}

/* The bytes a constant's description spans, or 0 when they cannot be known. */
static uint64_t
constant_extent(const VkTensorDescriptionARM *d)
{
   uint32_t es = d ? format_size(d->format) : 0;
   if (!es || !d->pDimensions || d->dimensionCount == 0 || d->dimensionCount > DG_MAX_RANK)
      return 0;
   uint64_t extent = es;
   for (uint32_t i = 0; i < d->dimensionCount; i++) {
      if (d->pDimensions[i] <= 0 || d->pDimensions[i] > (INT64_C(1) << 31))
         return 0;
      uint64_t stride = d->pStrides ? (uint64_t)d->pStrides[i] : 0;
      if (d->pStrides && (d->pStrides[i] <= 0 || d->pStrides[i] > (INT64_C(1) << 31)))
         return 0;
      if (d->pStrides)
         extent += (uint64_t)(d->pDimensions[i] - 1) * stride;
      else
         extent *= (uint64_t)d->pDimensions[i];
      if (extent > (UINT64_C(1) << 33))
         return 0;
   }
   return extent;
}

void
dg_cache_layout_hash(const struct dg_pipeline_layout_info *layout, uint8_t out[DG_SHA256_SIZE])
{
   struct dg_sha256 s;
   dg_sha256_init(&s);
   uint32_t sets = dg_pipeline_layout_set_count(layout);
   dg_sha256_u32(&s, sets);
   for (uint32_t i = 0; i < sets; i++) {
      const struct dg_set_layout_info *set = dg_pipeline_layout_set(layout, i);
      uint32_t count = 0;
      VkDescriptorSetLayoutCreateFlags flags = 0;
      const VkDescriptorSetLayoutBinding *b =
          set ? dg_set_layout_bindings(set, &count, &flags) : NULL;
      dg_sha256_u32(&s, set != NULL);
      dg_sha256_u32(&s, flags);
      dg_sha256_u32(&s, count);
      for (uint32_t j = 0; b && j < count; j++) {
         dg_sha256_u32(&s, b[j].binding);
         dg_sha256_u32(&s, b[j].descriptorType);
         dg_sha256_u32(&s, b[j].descriptorCount);
         dg_sha256_u32(&s, b[j].stageFlags);
      }
   }
   dg_sha256_final(&s, out);
}

bool
dg_cache_key(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
             const VkDataGraphPipelineShaderModuleCreateInfoARM *sm, const uint32_t *words,
             size_t word_count, const uint8_t layout_hash[DG_SHA256_SIZE],
             uint8_t key[DG_CACHE_KEY_SIZE])
{
   struct dg_sha256 s;
   dg_sha256_init(&s);
   static const char tag[] = "vmel data-graph pipeline key 1";
   dg_sha256_update(&s, tag, sizeof(tag));
   /* What the plan builder reads of the device (dg_stage.c plan_caps()). */
   dg_sha256_u32(&s, device->fp16_arith);
   /* The kernel mode (VMEL_GRAPH_KERNELS, D44) and the limits the tiled variants check. */
   dg_sha256_u32(&s, (uint32_t)dg_kernel_mode_from_env());
   dg_sha256_u32(&s, dg_fusion_from_env()); /* VMEL_GRAPH_FUSION (D52) */
   dg_sha256_u32(&s, dg_split_k_from_env()); /* VMEL_GRAPH_SPLIT_K (D56) */
   dg_sha256_u32(&s, device->limits.maxComputeWorkGroupInvocations);
   dg_sha256_u32(&s, device->limits.maxComputeSharedMemorySize);
   dg_sha256_u32(&s, device->device_type == VK_PHYSICAL_DEVICE_TYPE_CPU);
   dg_sha256_u32(&s, device->max_groups[0]);
   dg_sha256_u32(&s, device->max_groups[1]);
   dg_sha256_u32(&s, device->max_bound_sets);
   dg_sha256_u32(&s, device->alias_alignment);
   dg_sha256_u32(&s, device->coop); /* the cooperative-matrix shapes (D51) */
   dg_sha256_u32(&s, device->int_dot);
   dg_sha256_u32(&s, device->subgroup8); /* the SUBGROUP variants (D55) */
   dg_sha256_u32(&s, device->cpu_threads); /* a CPU device's split-K choice (D61) */
   for (uint32_t l = 0; l < 2; l++) {
      dg_sha256_u32(&s, device->descriptor_limits[l].per_stage_storage_buffers);
      dg_sha256_u32(&s, device->descriptor_limits[l].set_storage_buffers);
      dg_sha256_u32(&s, device->descriptor_limits[l].per_stage_resources);
   }
   /* Flags that only say how to create (not what) are left out. */
   dg_sha256_u64(&s, info->flags &
                         ~(uint64_t)(VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
                                     VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT));
   dg_sha256_update(&s, layout_hash, DG_SHA256_SIZE);
   dg_sha256_u64(&s, word_count);
   dg_sha256_update(&s, words, word_count * 4);
   /* The entry point as given: the module and the name decide which entry point is used. */
   size_t name = sm->pName ? strlen(sm->pName) : 0;
   dg_sha256_u64(&s, sm->pName ? name : UINT64_MAX);
   dg_sha256_update(&s, sm->pName ? sm->pName : "", name);
   uint32_t rc = info->pResourceInfos ? info->resourceInfoCount : 0;
   dg_sha256_u32(&s, rc);
   for (uint32_t i = 0; i < rc; i++) {
      const VkDataGraphPipelineResourceInfoARM *r = &info->pResourceInfos[i];
      dg_sha256_u32(&s, r->descriptorSet);
      dg_sha256_u32(&s, r->binding);
      dg_sha256_u32(&s, r->arrayElement);
      hash_chain_types(&s, r->pNext);
      hash_description(&s, lyr_find_struct(r->pNext, VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM));
   }
   uint32_t cc = sm->pConstants ? sm->constantCount : 0;
   dg_sha256_u32(&s, cc);
   for (uint32_t i = 0; i < cc; i++) {
      const VkDataGraphPipelineConstantARM *c = &sm->pConstants[i];
      const VkTensorDescriptionARM *d =
          lyr_find_struct(c->pNext, VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM);
      uint64_t extent = constant_extent(d);
      if (!extent || !c->pConstantData)
         return false;
      dg_sha256_u32(&s, c->id);
      hash_chain_types(&s, c->pNext);
      hash_description(&s, d);
      dg_sha256_u64(&s, extent);
      dg_sha256_update(&s, c->pConstantData, (size_t)extent);
   }
   const VkSpecializationInfo *si = sm->pSpecializationInfo;
   dg_sha256_u32(&s, si != NULL);
   if (si) {
      uint32_t mc = si->pMapEntries ? si->mapEntryCount : 0;
      dg_sha256_u32(&s, mc);
      for (uint32_t i = 0; i < mc; i++) {
         dg_sha256_u32(&s, si->pMapEntries[i].constantID);
         dg_sha256_u32(&s, si->pMapEntries[i].offset);
         dg_sha256_u64(&s, si->pMapEntries[i].size);
      }
      size_t ds = si->pData ? si->dataSize : 0;
      dg_sha256_u64(&s, ds);
      dg_sha256_update(&s, si->pData ? si->pData : "", ds);
   }
   const VkDataGraphPipelineCompilerControlCreateInfoARM *cc_info = lyr_find_struct(
       info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_COMPILER_CONTROL_CREATE_INFO_ARM);
   const char *options = cc_info && cc_info->pVendorOptions ? cc_info->pVendorOptions : "";
   dg_sha256_u64(&s, strlen(options));
   dg_sha256_update(&s, options, strlen(options));
   dg_sha256_final(&s, key);
   return true;
}

/* ---- the hooks ------------------------------------------------------------------------- */

static bool
add_parsed(const struct dg_cache_blob_entry *e, void *user)
{
   return insert_locked(user, e->key, e->payload, e->size) == VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreatePipelineCache(VkDevice _device, const VkPipelineCacheCreateInfo *pCreateInfo,
                       const VkAllocationCallbacks *pAllocator, VkPipelineCache *pPipelineCache)
{
   struct dg_device *device = dg_device_get(_device);
   const VkAllocationCallbacks *a = lyr_pick_alloc(&device->base.alloc, pAllocator);
   struct dg_cache *c = lyr_zalloc(a, sizeof(*c), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!c)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   c->alloc = *a;
   c->external_sync =
       (pCreateInfo->flags & VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT) != 0;
   pthread_mutex_init(&c->lock, NULL);
   struct dg_cache_parsed parsed = {0};
   bool data = pCreateInfo->initialDataSize && pCreateInfo->pInitialData;
   struct dg_cache_device_id id = data ? device_id(device) : device->cache_id;
   if (data && !dg_cache_parse(pCreateInfo->pInitialData, pCreateInfo->initialDataSize, &id,
                               add_parsed, c, &parsed)) {
      cache_free(c);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreatePipelineCache: no memory for the "
                                                    "data-graph entries of the initial data");
   }
   if (parsed.ignored && pCreateInfo->initialDataSize)
      lyr_logi("vkCreatePipelineCache: %s: %s",
               parsed.driver ? "data-graph entries ignored" : "initial data ignored",
               parsed.ignored);
   if (parsed.rejected)
      lyr_logw("vkCreatePipelineCache: %u data-graph entries of the initial data are "
               "corrupt (bounds or checksum) and were dropped",
               parsed.rejected);
   VkPipelineCacheCreateInfo down = *pCreateInfo;
   down.initialDataSize = parsed.driver_size;
   down.pInitialData = parsed.driver_size ? parsed.driver : NULL;
   VkResult result =
       device->base.next.CreatePipelineCache(_device, &down, pAllocator, pPipelineCache);
   bool out_of_memory =
       result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY;
   if (result != VK_SUCCESS && !out_of_memory && down.initialDataSize) {
      /* Some drivers refuse malformed initial data (the NVIDIA H200 driver returns
       * VK_ERROR_UNKNOWN for a truncated blob) instead of starting empty as the
       * specification says incompatible data does: start the cache empty. Out of
       * memory is the application's to see (e2e.test_create_oom). */
      lyr_logw("vkCreatePipelineCache: the driver refused its %zu bytes of the initial data "
               "(%d); the cache starts without them",
               (size_t)down.initialDataSize, (int)result);
      down.initialDataSize = 0;
      down.pInitialData = NULL;
      result = device->base.next.CreatePipelineCache(_device, &down, pAllocator, pPipelineCache);
   }
   if (result != VK_SUCCESS) {
      cache_free(c);
      return result;
   }
   if (!lyr_map_insert(&device->pipeline_caches, (const void *)(uintptr_t)*pPipelineCache, c)) {
      device->base.next.DestroyPipelineCache(_device, *pPipelineCache, pAllocator);
      *pPipelineCache = VK_NULL_HANDLE;
      cache_free(c);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (c->count)
      lyr_logi("vkCreatePipelineCache: %u data-graph pipelines from the initial data", c->count);
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyPipelineCache(VkDevice _device, VkPipelineCache pipelineCache,
                        const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   if (pipelineCache == VK_NULL_HANDLE)
      return;
   struct dg_cache *c =
       lyr_map_remove(&device->pipeline_caches, (const void *)(uintptr_t)pipelineCache);
   if (c)
      cache_free(c);
   device->base.next.DestroyPipelineCache(_device, pipelineCache, pAllocator);
}

/* The section with the first n entries: its size. */
static uint64_t
section_size_locked(const struct dg_cache *c, uint32_t n)
{
   uint64_t size = DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < n; i++)
      size += dg_cache_entry_bytes(c->entries[i]->size);
   return size;
}

static void
write_section_locked(const struct dg_cache_device_id *id, const struct dg_cache *c, uint32_t n,
                     uint8_t *out)
{
   uint32_t written = id->identity_valid ? n : 0;
   uint64_t size = section_size_locked(c, written);
   dg_cache_write_section_header(out, id, size, written);
   uint64_t off = DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < written; i++) {
      const struct dg_cache_entry *e = c->entries[i];
      dg_cache_write_entry(out + off, e->key, e->payload, e->size);
      off += dg_cache_entry_bytes(e->size);
   }
}

/* "If pDataSize is less than the maximum size that can be retrieved by the pipeline cache,
 * at most pDataSize bytes will be written to pData, and VK_INCOMPLETE will be returned
 * [...] If pDataSize is less than what is necessary to store this header, nothing will be
 * written to pData and zero will be written to pDataSize." A short buffer gets the header
 * and the entries that fit whole (a valid cache), not the driver's part. */
static VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPipelineCacheData(VkDevice _device, VkPipelineCache pipelineCache, size_t *pDataSize,
                        void *pData)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_cache *c = dg_cache_get(device, pipelineCache);
   if (!c)
      return device->base.next.GetPipelineCacheData(_device, pipelineCache, pDataSize, pData);
   struct dg_cache_device_id id = device_id(device);
   cache_lock(c);
   uint32_t n = id.identity_valid ? c->count : 0;
   uint64_t section = section_size_locked(c, n);
   size_t driver = 0;
   VkResult result = device->base.next.GetPipelineCacheData(_device, pipelineCache, &driver, NULL);
   if (result < VK_SUCCESS) {
      cache_unlock(c);
      return result;
   }
   uint64_t total = DG_CACHE_HEADER_SIZE + section + driver;
   if (total > SIZE_MAX) {
      cache_unlock(c);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkGetPipelineCacheData: %llu bytes",
                       (unsigned long long)total);
   }
   if (!pData) {
      cache_unlock(c);
      *pDataSize = (size_t)total;
      return VK_SUCCESS;
   }
   size_t room = *pDataSize;
   uint8_t *out = pData;
   if (room < DG_CACHE_HEADER_SIZE) {
      cache_unlock(c);
      *pDataSize = 0;
      return VK_INCOMPLETE;
   }
   dg_cache_write_header(out, &id);
   if (room < DG_CACHE_HEADER_SIZE + DG_CACHE_SECTION_HEADER_SIZE) {
      /* The header alone: valid (empty) cache data. */
      cache_unlock(c);
      *pDataSize = DG_CACHE_HEADER_SIZE;
      return VK_INCOMPLETE;
   }
   if (room - DG_CACHE_HEADER_SIZE < section) {
      /* The entries that fit whole. */
      uint32_t fit = 0;
      while (fit < n && section_size_locked(c, fit + 1) <= room - DG_CACHE_HEADER_SIZE)
         fit++;
      write_section_locked(&id, c, fit, out + DG_CACHE_HEADER_SIZE);
      uint64_t written = DG_CACHE_HEADER_SIZE + section_size_locked(c, fit);
      cache_unlock(c);
      *pDataSize = (size_t)written;
      return VK_INCOMPLETE;
   }
   write_section_locked(&id, c, n, out + DG_CACHE_HEADER_SIZE);
   size_t driver_room = room - DG_CACHE_HEADER_SIZE - (size_t)section;
   result = device->base.next.GetPipelineCacheData(_device, pipelineCache, &driver_room,
                                                   out + DG_CACHE_HEADER_SIZE + section);
   cache_unlock(c);
   if (result < VK_SUCCESS)
      return result;
   *pDataSize = DG_CACHE_HEADER_SIZE + (size_t)section + driver_room;
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_MergePipelineCaches(VkDevice _device, VkPipelineCache dstCache, uint32_t srcCacheCount,
                       const VkPipelineCache *pSrcCaches)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_cache *dst = dg_cache_get(device, dstCache);
   for (uint32_t i = 0; dst && i < srcCacheCount; i++) {
      struct dg_cache *src = dg_cache_get(device, pSrcCaches[i]);
      if (!src || src == dst)
         continue;
      /* Entries are immutable and live as long as their cache, which the application may
       * not destroy during this call: a snapshot of the array suffices. */
      cache_lock(src);
      uint32_t n = src->count;
      struct dg_cache_entry **snap = lyr_alloc(&dst->alloc, ((size_t)n + 1) * sizeof(*snap), 8,
                                               VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (snap && n)
         memcpy(snap, src->entries, n * sizeof(*snap));
      cache_unlock(src);
      if (!snap)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      VkResult result = VK_SUCCESS;
      cache_lock(dst);
      for (uint32_t j = 0; j < n && result == VK_SUCCESS; j++)
         result = insert_locked(dst, snap[j]->key, snap[j]->payload, snap[j]->size);
      cache_unlock(dst);
      lyr_free(&dst->alloc, snap);
      if (result != VK_SUCCESS)
         return result;
   }
   return device->base.next.MergePipelineCaches(_device, dstCache, srcCacheCount, pSrcCaches);
}

static const struct lyr_hook hooks[] = {
    DG_HOOK(CreatePipelineCache, dg_CreatePipelineCache),
    DG_HOOK(DestroyPipelineCache, dg_DestroyPipelineCache),
    DG_HOOK(GetPipelineCacheData, dg_GetPipelineCacheData),
    DG_HOOK(MergePipelineCaches, dg_MergePipelineCaches),
};

const struct lyr_hook_table dg_cache_hooks = LYR_HOOK_TABLE(hooks);
