/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Update-after-bind for tensor bindings where the driver has no
 * update-after-bind storage buffers, or VMEL_TENSOR_UPDATE_AFTER_BIND=emulate
 * (tsr_uab.c, docs/decisions.md D32). A tensor binding of a set layout created
 * with UPDATE_AFTER_BIND_POOL is "ours": the driver's binding is a plain
 * storage buffer whose descriptors point, once and for all (written when the
 * set is allocated), at record slots the set owns. A write of a tensor view
 * to such a binding copies the view's 64-byte record into the element's slot
 * instead of updating the driver's set, so the driver never sees an update
 * after bind, and what a shader reads is what was written last before the
 * submission (host-coherent memory; the submission makes host writes
 * visible). Nothing is hooked on the recording or submission path.
 */
#ifndef TSR_UAB_H
#define TSR_UAB_H

#include "tsr_private.h"

struct tsr_uab;

/** What the driver below has, read at caps time: whether tensor bindings'
 *  update-after-bind is emulated on this physical device, and whether the
 *  driver has any update-after-bind descriptor type (then layouts keep
 *  UPDATE_AFTER_BIND_POOL and pools their UPDATE_AFTER_BIND_BIT). */
void tsr_uab_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                  struct tsr_caps *caps);

/** At device creation when the application enabled
 *  descriptorBindingStorageTensorUpdateAfterBind on an emulating device. */
VkResult tsr_uab_init(struct tsr_device *device);
void tsr_uab_finish(struct tsr_device *device);

static inline bool
tsr_uab_active(const struct tsr_device *device)
{
   return device->uab != NULL;
}

/** Whether a layout create info would be ours (checked before creating it). */
bool tsr_uab_layout_info_ours(const struct tsr_device *device,
                              const VkDescriptorSetLayoutCreateInfo *info);

/** Bytes tsr_uab_layout_lower() needs in the copy's extra space. */
size_t tsr_uab_layout_space(const VkDescriptorSetLayoutCreateInfo *app);

/** Lowers a cloned layout create info of ours (tensor bindings already
 *  storage buffers): drops UPDATE_AFTER_BIND and UPDATE_UNUSED_WHILE_PENDING
 *  from tensor bindings, and UPDATE_AFTER_BIND_POOL where the driver has no
 *  update-after-bind at all. space: tsr_uab_layout_space() bytes. */
void tsr_uab_layout_lower(const struct tsr_device *device,
                          const VkDescriptorSetLayoutCreateInfo *app,
                          VkDescriptorSetLayoutCreateInfo *copy, void *space);

/** After the driver created a layout of ours: remembers its tensor bindings. */
VkResult tsr_uab_layout_created(struct tsr_device *device,
                                const VkDescriptorSetLayoutCreateInfo *app,
                                const VkAllocationCallbacks *alloc, VkDescriptorSetLayout layout);

bool tsr_uab_layout_is_ours(struct tsr_device *device, VkDescriptorSetLayout layout);

/** Whether binding is a tensor binding of a layout of ours (not, e.g., a mutable one). */
bool tsr_uab_layout_binding_is_ours(struct tsr_device *device, VkDescriptorSetLayout layout,
                                    uint32_t binding);

/** Pool flags to pass down. */
VkDescriptorPoolCreateFlags tsr_uab_pool_flags(const struct tsr_device *device,
                                               VkDescriptorPoolCreateFlags flags);

/** After the driver made a pool: pools the application created with
 *  UPDATE_AFTER_BIND_BIT are recorded with its flags (FREE_DESCRIPTOR_SET
 *  decides how a failed allocation is undone). */
VkResult tsr_uab_pool_created(struct tsr_device *device, VkDescriptorPool pool,
                              VkDescriptorPoolCreateFlags flags);

/** Whether a vkUpdateDescriptorSets write goes to a slot of ours (dstSet's
 *  layout is ours and the write is a tensor write). */
bool tsr_uab_write_is_ours(struct tsr_device *device, const VkWriteDescriptorSet *w);

/** Applies a write of ours: copies the views' records into the set's slots. */
void tsr_uab_write(struct tsr_device *device, const VkWriteDescriptorSet *w);

/** Applies count views, stride bytes apart in data, to set's binding from
 *  element (running into the next bindings as a descriptor write does). */
void tsr_uab_write_views(struct tsr_device *device, VkDescriptorSet set, uint32_t binding,
                         uint32_t element, uint32_t count, const void *data, size_t stride);

/**
 * Descriptor copies: those between tensor bindings of ours are made here (slot
 * to slot); *kept gets the ones to pass down: the application's array when
 * none is ours, else a filtered copy in *owned (free with lyr_free after the
 * call down). Returns VK_ERROR_OUT_OF_HOST_MEMORY (logged) when the copy
 * cannot be made.
 */
VkResult tsr_uab_copies(struct tsr_device *device, uint32_t count,
                        const VkCopyDescriptorSet *copies, const VkCopyDescriptorSet **kept,
                        uint32_t *kept_count, VkCopyDescriptorSet **owned);

/** A view's record was written again (an image bound later gave its tensor
 *  other strides): slots holding a copy of it are refreshed. */
void tsr_uab_view_rewritten(struct tsr_device *device, const struct tsr_tensor_view *view);

extern const struct lyr_hook_table tsr_uab_hooks;

#endif /* TSR_UAB_H */
