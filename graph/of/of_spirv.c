/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The optical-flow kernels are compiled with placeholder descriptor sets (OF_SPV_APP_SET for
 * the application's images, OF_SPV_INTERNAL_SET for the session's buffers); pipeline creation
 * rewrites the OpDecorate DescriptorSet / Binding operands to the connections' (set, binding)
 * and the internal set's index. Nothing else of the module changes.
 */
#include "of_private.h"

#define SPV_OP_DECORATE 71u
#define SPV_DEC_BINDING 33u
#define SPV_DEC_DESCRIPTOR_SET 34u
#define OF_PATCH_MAX 16

bool
of_spirv_patch(uint32_t *words, size_t count, const uint32_t *sets, const uint32_t *bindings,
               uint32_t app_count, uint32_t internal_set)
{
   if (count < 5 || words[0] != 0x07230203u)
      return false;
   /* the DescriptorSet and Binding decorations' operand words, per decorated id */
   struct {
      uint32_t id;
      uint32_t *set, *binding;
   } v[OF_PATCH_MAX];
   uint32_t n = 0;
   for (size_t i = 5; i < count;) {
      uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
      if (len == 0 || i + len > count)
         return false;
      if (op == SPV_OP_DECORATE && len == 4 &&
          (words[i + 2] == SPV_DEC_BINDING || words[i + 2] == SPV_DEC_DESCRIPTOR_SET)) {
         uint32_t k = 0;
         while (k < n && v[k].id != words[i + 1])
            k++;
         if (k == n) {
            if (n == OF_PATCH_MAX)
               return false;
            v[n].id = words[i + 1];
            v[n].set = v[n].binding = NULL;
            n++;
         }
         if (words[i + 2] == SPV_DEC_BINDING)
            v[k].binding = &words[i + 3];
         else
            v[k].set = &words[i + 3];
      }
      i += len;
   }
   for (uint32_t k = 0; k < n; k++) {
      if (!v[k].set || !v[k].binding)
         return false;
      if (*v[k].set == OF_SPV_INTERNAL_SET) {
         *v[k].set = internal_set;
      } else if (*v[k].set == OF_SPV_APP_SET && *v[k].binding < app_count) {
         uint32_t b = *v[k].binding;
         *v[k].set = sets[b];
         *v[k].binding = bindings[b];
      } else {
         return false;
      }
   }
   return true;
}
