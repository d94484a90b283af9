/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The registry entry of a build-time compiled kernel variant (design.md §5).
 * cmake/EmbedKernels.cmake compiles every variant of the build's variant tables
 * with glslangValidator and generates, per kernel library, a C array of these
 * entries indexed by a generated enum (for example vmel_kernels_tensor.h:
 * enum tsr_kernel_id, tsr_kernels[TSR_KERNEL_COUNT]). C only.
 */
#ifndef VMEL_KERNEL_H
#define VMEL_KERNEL_H

#include <stdint.h>
#include <string.h>

/** One compiled variant of a kernel template. */
struct vmel_kernel {
   const char *name;       /* variant name from the variant table, e.g. "copy_u32" */
   const char *source;     /* the GLSL template, relative to the source tree */
   const uint32_t *code;   /* SPIR-V words */
   uint32_t word_count;    /* words in code */
   uint32_t local_size[3]; /* workgroup size read from the module */
};

/**
 * Finds a variant by name.
 *
 * @param kernels a generated registry array
 * @param count   its element count (the generated *_COUNT enumerant)
 * @param name    variant name
 * @return the entry, or NULL when there is none of that name
 */
static inline const struct vmel_kernel *
vmel_kernel_find(const struct vmel_kernel *kernels, unsigned count, const char *name)
{
   for (unsigned i = 0; i < count; i++) {
      if (strcmp(kernels[i].name, name) == 0)
         return &kernels[i];
   }
   return NULL;
}

#endif /* VMEL_KERNEL_H */
