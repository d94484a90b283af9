/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer's part of pipeline caches (docs/decisions.md, "pipeline caches for
 * data-graph pipelines"). Two halves:
 *  - the format (dg_cache_format.c, in dg_core, no Vulkan call): the cache data
 *    vkGetPipelineCacheData returns (the VkPipelineCacheHeaderVersionOne of the device,
 *    this layer's versioned section of entries, then the driver's own data), and the
 *    payload of one entry: a stage plan with what a pipeline keeps beside it (operator and
 *    result id per stage for the creation log and the profile) and every constant's bytes;
 *  - the layer (dg_cache.c): the vkCreatePipelineCache / Destroy / GetData / Merge hooks,
 *    one store of entries per VkPipelineCache (the driver's handle), the keys.
 * Every reader here validates sizes, counts, enum values and indices: cache data is input.
 */
#ifndef DG_CACHE_H
#define DG_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "dg_sha256.h"
#include "dg_stage_plan.h"

#define DG_CACHE_KEY_SIZE DG_SHA256_SIZE
#define DG_CACHE_MAGIC 0x47444d56u /* "VMDG", little-endian */
#define DG_CACHE_FORMAT_VERSION 3u /* 2: aliases at byte offsets; 3: fused epilogues (D52) */
/* The section header: magic, version, section size (u64), identity, entry count, reserved. */
#define DG_CACHE_SECTION_HEADER_SIZE (4 + 4 + 8 + DG_SHA256_SIZE + 4 + 4)
/* An entry's header: key, payload size (u64), payload checksum; the payload follows,
 * padded to 8 bytes. */
#define DG_CACHE_ENTRY_HEADER_SIZE (DG_CACHE_KEY_SIZE + 8 + DG_SHA256_SIZE)
#define DG_CACHE_HEADER_SIZE 32 /* VkPipelineCacheHeaderVersionOne */

/* ---- the cache data --------------------------------------------------------------------- */

/** What the data must match to be read: the device's header fields and the section's
 *  identity (this layer's build and format, this device and driver). */
struct dg_cache_device_id {
   uint32_t vendor_id, device_id;
   uint32_t driver_version; /* part of the identity */
   uint8_t uuid[VK_UUID_SIZE];
   uint8_t identity[DG_SHA256_SIZE];
   bool identity_valid; /* false: the layer cannot identify its build; its section is
                         * neither written nor read */
};

/** One entry as the parser finds it: pointers into the data given to the parser. */
struct dg_cache_blob_entry {
   const uint8_t *key;
   const uint8_t *payload;
   uint64_t size;
};

/** What the parser found in cache data. */
struct dg_cache_parsed {
   const uint8_t *driver; /* the driver's part, to pass down as initialData (NULL, 0: none) */
   size_t driver_size;
   uint32_t entry_count; /* entries accepted (checksum good) */
   uint32_t rejected;    /* entries whose checksum or bounds failed */
   const char *ignored;  /* why the section (or all of the data) was ignored, else NULL */
};

/**
 * Parses cache data. Calls `entry` for every entry whose bounds and checksum are good;
 * entry returns false to stop (out of memory). Never reads outside data[0..size).
 * Returns false only when entry did.
 */
bool dg_cache_parse(const void *data, size_t size, const struct dg_cache_device_id *id,
                    bool (*entry)(const struct dg_cache_blob_entry *e, void *user), void *user,
                    struct dg_cache_parsed *out);

/** Writes the device's VkPipelineCacheHeaderVersionOne (32 bytes). */
void dg_cache_write_header(uint8_t *out, const struct dg_cache_device_id *id);
/** Writes the section header for `entries` entries totalling `section_size` bytes. */
void dg_cache_write_section_header(uint8_t *out, const struct dg_cache_device_id *id,
                                   uint64_t section_size, uint32_t entries);
/** Bytes an entry of a payload of `size` bytes takes in the section. */
uint64_t dg_cache_entry_bytes(uint64_t size);
/** Writes one entry (header, payload, padding): dg_cache_entry_bytes(size) bytes. */
void dg_cache_write_entry(uint8_t *out, const uint8_t key[DG_CACHE_KEY_SIZE], const void *payload,
                          uint64_t size);

/* ---- entry payloads: stage plans -------------------------------------------------------- */

/** What a pipeline keeps beside its plan (the creation log, the profile). */
struct dg_cache_meta {
   uint8_t layout[DG_SHA256_SIZE]; /* the hash of the pipeline layout's bindings */
   uint32_t graph_id;              /* OpGraphARM result id */
   uint32_t node_count;
};

/** Per stage: the operator (enum dg_op) of its first node, DG_PLAN_NONE for an output
 *  copy, and that node's SPIR-V result id. */
struct dg_cache_stage_meta {
   uint32_t op;
   uint32_t result_id;
};

/** Packs constant c of a plan (laid out by its description when it has one) into dst,
 *  dg_shape_elements() * dg_type_size() bytes. */
void dg_plan_constant_pack(uint8_t *dst, const struct dg_plan_tensor *v,
                           const struct dg_plan_constant *c);

/** The payload of a plan: its size (out == NULL) or the bytes (out of that size). */
size_t dg_cache_plan_write(const struct dg_stage_plan *plan, const struct dg_cache_meta *meta,
                           const struct dg_cache_stage_meta *stages, uint8_t *out);

/**
 * Reads a payload back into a plan allocated with alloc (dg_stage_plan_destroy() frees
 * it) and the stage metadata ([plan->stage_count], lyr_free() with alloc). Every index
 * of the plan is checked; constants' data point into `data` (not owned: keep it while
 * the plan's constants are uploaded). Fails with VK_ERROR_INITIALIZATION_FAILED and a
 * reason in *why for malformed data.
 */
VkResult dg_cache_plan_read(const void *data, size_t size, const VkAllocationCallbacks *alloc,
                            struct dg_stage_plan **plan, struct dg_cache_meta *meta,
                            struct dg_cache_stage_meta **stages, const char **why);

/** Checks every index and enum of a plan (what dg_cache_plan_read() relies on). */
bool dg_cache_plan_valid(const struct dg_stage_plan *plan, const struct dg_cache_stage_meta *st,
                         const char **why);

/** The identifier property of a key: the key with every byte 0x7F replaced by 0x7E (the
 *  Khronos CTS reads 0x7F as "not written"); the store is searched by it. */
void dg_cache_identifier(const uint8_t key[DG_CACHE_KEY_SIZE], uint8_t out[DG_CACHE_KEY_SIZE]);

/* ---- the layer (dg_cache.c) ------------------------------------------------------------- */

struct dg_device;
struct dg_cache;
struct dg_pipeline_layout_info;

void dg_cache_device_init(struct dg_device *device);
void dg_cache_device_finish(struct dg_device *device);

/** The store of a VkPipelineCache of this device, NULL for VK_NULL_HANDLE or unknown. */
struct dg_cache *dg_cache_get(struct dg_device *device, VkPipelineCache handle);

/** The key of a creation from a shader module (false: this creation cannot be keyed, e.g.
 *  a constant whose size cannot be known; it is then neither looked up nor stored). */
bool dg_cache_key(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
                  const VkDataGraphPipelineShaderModuleCreateInfoARM *sm, const uint32_t *words,
                  size_t word_count, const uint8_t layout_hash[DG_SHA256_SIZE],
                  uint8_t key[DG_CACHE_KEY_SIZE]);

/** The hash of a pipeline layout's recorded bindings (set, binding, type, count, stages,
 *  set-layout flags). */
void dg_cache_layout_hash(const struct dg_pipeline_layout_info *layout,
                          uint8_t out[DG_SHA256_SIZE]);

/** The payload stored under a key (or, by_identifier, under an identifier), NULL when
 *  absent. The payload lives as long as the cache. */
const uint8_t *dg_cache_find(struct dg_cache *cache, const uint8_t *key, bool by_identifier,
                             uint64_t *size, uint8_t found_key[DG_CACHE_KEY_SIZE]);

/** Stores a payload (copied) under a key unless the key is there. */
VkResult dg_cache_insert(struct dg_cache *cache, const uint8_t key[DG_CACHE_KEY_SIZE],
                         const void *payload, uint64_t size);

/* The hooks: dg_cache_hooks (dg_runtime.h). */

#endif /* DG_CACHE_H */
