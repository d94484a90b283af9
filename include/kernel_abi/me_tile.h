/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The Motion Engine kernel's tiling (shaders/graph/motion_engine/block_match.comp,
 * graph/build/me_build.c; D47), valid C and GLSL: a tiled variant's workgroup matches
 * DG_ME_TILE x DG_ME_TILE blocks from shared memory of DG_ME_SHARED_WORDS 32-bit words
 * (16 KiB, Vulkan's minimum maxComputeSharedMemorySize), four pixels a word.
 */
#ifndef VMEL_KERNEL_ABI_ME_TILE_H
#define VMEL_KERNEL_ABI_ME_TILE_H

#define DG_ME_TILE 8u
#define DG_ME_SHARED_WORDS 4096u

#endif
