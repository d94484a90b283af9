/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor descriptors: set layouts, pools, writes, copies, push descriptors and update templates, with each VK_DESCRIPTOR_TYPE_TENSOR_ARM replaced by a read-only storage buffer holding the view's tensor record (include/kernel_abi/tensor_record.h).
 */
#include "tsr_private.h"

const struct lyr_hook_table tsr_descriptor_hooks = {NULL, 0};

VkResult
tsr_descriptor_init(struct tsr_device *device)
{
   lyr_map_init(&device->templates);
   return VK_SUCCESS;
}

void
tsr_descriptor_finish(struct tsr_device *device)
{
   lyr_map_finish(&device->templates);
}
