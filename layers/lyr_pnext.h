/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * pNext chains: find, clone and strip. A layer never writes into an
 * application's structs, not even temporarily: it calls down with copies.
 *
 * Input chains (const, read by the next layer) are cloned with the structs the
 * caller drops left out. Output chains (filled by the next layer) get a shadow
 * chain of copies without the dropped structs; after the call the results are
 * copied back into the application's structs (sType/pNext untouched).
 *
 * Struct sizes come from a table generated at build time from the system
 * vk.xml, plus the ARM extension structs of vulkan_arm_ml.h.
 */
#ifndef LYR_PNEXT_H
#define LYR_PNEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <vulkan/vulkan.h>

/** The longest pNext chain the layers walk: a longer one is taken for a loop (an
 *  application's chain that points back into itself must not hang a call). */
#define LYR_CHAIN_MAX 1024u

/** Whether the chain starting at chain (may be NULL) ends within LYR_CHAIN_MAX structs. */
bool lyr_chain_ends(const void *chain);

/** lyr_chain_ends(), logging an error that names `what` (the entry point) when not. */
bool lyr_chain_ok(const void *chain, const char *what);

/** Size of the struct with this sType, or 0 when it is unknown to us. */
size_t lyr_struct_size(VkStructureType stype);

/** The part of lyr_struct_size() generated at build time from vk.xml: the structs
 *  of the system vulkan_core.h (layers/struct_sizes.cmake); 0 for others. */
size_t lyr_struct_size_core(VkStructureType stype);

/** True for sTypes of VK_ARM_tensors, VK_ARM_data_graph and the related ARM
 *  ML extensions (the ones no driver below us is assumed to know). */
bool lyr_is_arm_ml_stype(VkStructureType stype);

/** Whether the chain starting at chain (may be NULL) holds any ARM ML struct. */
bool lyr_chain_has_arm_ml(const void *chain);

/** First struct with this sType in the chain starting at chain (may be NULL), among its
 *  first LYR_CHAIN_MAX structs. */
const void *lyr_find_struct(const void *chain, VkStructureType stype);

/** Decides whether a struct is left out of a copied chain. */
typedef bool (*lyr_drop_fn)(const VkBaseInStructure *s, void *user);

/** Drops every ARM ML struct (lyr_is_arm_ml_stype). */
bool lyr_drop_arm_ml(const VkBaseInStructure *s, void *user);

/**
 * Clones an input struct and its pNext chain into one allocation.
 *
 * @param alloc     allocator for the copy (scope COMMAND)
 * @param head      the application's struct (its sType must be known, or
 *                  head_size given)
 * @param head_size size of *head, or 0 to look it up by sType
 * @param drop      structs for which it returns true are left out (may be NULL)
 * @param user      passed to drop
 * @param extra     bytes of zeroed, 16-aligned space reserved after the copies
 *                  for structs the caller appends (lyr_chain_copy.extra)
 * @param out       filled on success; release with lyr_chain_copy_free
 *
 * A struct of unknown size (newer than this build's vk.xml) cannot be copied:
 * it is left out and a warning names its sType (lyr_chain_clone_pass() keeps
 * it). Returns VK_ERROR_OUT_OF_HOST_MEMORY on allocation failure,
 * VK_ERROR_VALIDATION_FAILED_EXT when the chain does not end (a loop), each
 * with a log line.
 */
struct lyr_chain_copy {
   void *head;    /* the copy of head */
   void *extra;   /* caller space, zeroed, or NULL if extra was 0 */
   void *block;   /* the allocation */
   const VkAllocationCallbacks *alloc;
   const void *app_tail; /* lyr_chain_clone_pass(): the application's struct the copy
                          * continues with, or NULL */
   bool tail_known;      /* app_tail's chain holds a struct of known size */
};

VkResult lyr_chain_clone(const VkAllocationCallbacks *alloc, const void *head, size_t head_size,
                         lyr_drop_fn drop, void *user, size_t extra, struct lyr_chain_copy *out);

/** lyr_chain_clone() into the caller's buf (buf_size bytes, 16-byte aligned)
 *  when the copy fits there, else into an allocation: a recording hook keeps
 *  small dependency chains off the heap. lyr_chain_copy_free() frees only an
 *  allocation; buf must outlive the copy. */
VkResult lyr_chain_clone_in(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                            const void *head, size_t head_size, lyr_drop_fn drop, void *user,
                            size_t extra, struct lyr_chain_copy *out);

/**
 * lyr_chain_clone() that keeps what this build does not know: from the first
 * struct of unknown size on, the copy continues with the application's own
 * chain unchanged (app_tail), ARM ML structs the drop function leaves out
 * included where they follow it (the Vulkan specification has every
 * component skip the extending structs it does not support). Only when a
 * struct the drop function leaves out that is not ARM ML follows, the unknown
 * structs are left out instead, with a warning. The structs from app_tail on
 * are the application's: never write into them (tail_known says whether a
 * struct of known size is among them; a caller that changes, finds or adds
 * structs of its copy then clones with lyr_chain_clone()).
 */
VkResult lyr_chain_clone_pass(const VkAllocationCallbacks *alloc, const void *head,
                              size_t head_size, lyr_drop_fn drop, void *user, size_t extra,
                              struct lyr_chain_copy *out);

/** lyr_chain_clone_pass() into the caller's buf when it fits (lyr_chain_clone_in()). */
VkResult lyr_chain_clone_pass_in(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                                 const void *head, size_t head_size, lyr_drop_fn drop, void *user,
                                 size_t extra, struct lyr_chain_copy *out);

/**
 * lyr_chain_clone_pass() for a caller that finds and changes, or adds, structs of
 * the sTypes in edits in its copy: such a struct is never left in the
 * application's tail (when one follows a struct of unknown size, the unknown
 * structs are left out with a warning, as lyr_chain_clone() does), so that
 * lyr_find_struct() on the copy finds a copy and lyr_chain_append() adds none
 * twice. buf (may be NULL) as lyr_chain_clone_in() takes it. Every path that
 * forwards an application's chain clones with this or lyr_chain_clone_pass()
 * (decisions D43).
 */
VkResult lyr_chain_clone_pass_edit(void *buf, size_t buf_size, const VkAllocationCallbacks *alloc,
                                   const void *head, size_t head_size, lyr_drop_fn drop,
                                   void *user, size_t extra, const VkStructureType *edits,
                                   unsigned edit_count, struct lyr_chain_copy *out);

void lyr_chain_copy_free(struct lyr_chain_copy *copy);

/** Adds s (caller-owned, e.g. in copy->extra; its own pNext chain with it) to a cloned
 *  chain, right after the head. */
void lyr_chain_append(void *head, void *s);

/**
 * Shadow of an output chain. lyr_out_chain_begin() returns in oc->head a
 * chain to pass down: copies of the application's structs minus the dropped
 * ones; when nothing is dropped, oc->head is the application's own head and
 * no allocation is made. From the last dropped struct on, and from a struct
 * of unknown size on (as lyr_chain_clone() says), the application's chain
 * goes down as it is. A chain that does not end is refused
 * (VK_ERROR_VALIDATION_FAILED_EXT, logged). lyr_out_chain_end() copies the results back into the
 * application's structs (never their sType/pNext) and frees the shadow.
 */
struct lyr_out_chain {
   void *head;
   void *app_head;
   void *block;
   const VkAllocationCallbacks *alloc;
   unsigned count;
};

VkResult lyr_out_chain_begin(struct lyr_out_chain *oc, const VkAllocationCallbacks *alloc,
                             void *app_head, size_t head_size, lyr_drop_fn drop, void *user);
void lyr_out_chain_end(struct lyr_out_chain *oc);

/**
 * Device creation. The layer asks for the underlying features the emulation
 * can use; lyr_device_info_rewrite() copies the application's
 * VkDeviceCreateInfo and its chain, drops ARM ML structs, removes the listed
 * extension names and turns on each requested feature in whichever struct the
 * application used for it (VkPhysicalDeviceVulkan1xFeatures, the standalone
 * struct such as VkPhysicalDeviceBufferDeviceAddressFeatures, pEnabledFeatures
 * or VkPhysicalDeviceFeatures2), appending the right struct when there is none,
 * without ever creating a Vulkan1x struct next to a standalone struct for the
 * same features (VUID-VkDeviceCreateInfo-pNext-02829/02830/06532) and adding
 * extension names the chosen features need when the device's API version
 * predates them (not needed on Vulkan 1.3 for the features below).
 */
struct lyr_feature_request {
   bool buffer_device_address;         /* Vulkan12 / BufferDeviceAddressFeatures */
   bool buffer_device_address_capture_replay;
   bool storage_buffer_8bit_access;     /* Vulkan12 / 8BitStorageFeatures */
   bool uniform_and_storage_buffer_8bit_access;
   bool shader_int8;                    /* Vulkan12 / ShaderFloat16Int8Features */
   bool shader_float16;
   bool storage_buffer_16bit_access;    /* Vulkan11 / 16BitStorageFeatures */
   bool uniform_and_storage_buffer_16bit_access;
   bool storage_push_constant_16;
   bool shader_int16;                   /* VkPhysicalDeviceFeatures */
   bool shader_int64;
   bool shader_float64;
   bool shader_storage_image_extended_formats;
   bool vulkan_memory_model;            /* Vulkan12 / VulkanMemoryModelFeatures */
   bool vulkan_memory_model_device_scope;
   bool timeline_semaphore;             /* Vulkan12 / TimelineSemaphoreFeatures */
   bool synchronization2;               /* Vulkan13 / Synchronization2Features */
   bool maintenance4;                   /* Vulkan13 / Maintenance4Features */
   bool subgroup_size_control;          /* Vulkan13 / SubgroupSizeControlFeatures */
   bool compute_full_subgroups;
   bool storage_buffer_update_after_bind;    /* Vulkan12 / DescriptorIndexingFeatures */
   bool storage_buffer_non_uniform_indexing;
   bool shader_integer_dot_product;     /* Vulkan13 / ShaderIntegerDotProductFeatures: the
                                         * graph layer's INT_DOT kernels (D51) */
};

struct lyr_device_info_copy {
   VkDeviceCreateInfo info;               /* pass &info down */
   struct lyr_chain_copy chain;           /* owns the cloned chain */
   const char **extension_names;          /* owned, from chain.alloc */
};

VkResult lyr_device_info_rewrite(const VkAllocationCallbacks *alloc, const VkDeviceCreateInfo *app,
                                 const struct lyr_feature_request *request,
                                 const char *const *strip_extensions, unsigned strip_count,
                                 struct lyr_device_info_copy *out);
void lyr_device_info_copy_free(struct lyr_device_info_copy *copy);

/** Reads which of the request's features the device supports (next layer's
 *  vkGetPhysicalDeviceFeatures2, Vulkan 1.1+ structs). */
void lyr_feature_request_from_device(PFN_vkGetPhysicalDeviceFeatures2 get_features2,
                                     VkPhysicalDevice physical_device,
                                     struct lyr_feature_request *supported);

#endif /* LYR_PNEXT_H */
