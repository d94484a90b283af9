/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The embedded kernel registry (cmake/EmbedKernels.cmake): every variant of
 * vmel_kernels_tensor is a SPIR-V module of the requested version with the
 * workgroup size its ABI header states, indexed by its generated enum and
 * found by name.
 */
#include "test.h"

#include "kernel_abi/tensor_copy.h"
#include "vmel_kernels_tensor.h"

TEST_MAIN_STATE;

int
main(void)
{
   static const char *const copy_names[] = {"copy_u8", "copy_u16", "copy_u32", "copy_u64",
                                            "copy_u128"};
   static const enum tsr_kernel_id copy_ids[] = {TSR_KERNEL_COPY_U8, TSR_KERNEL_COPY_U16,
                                                 TSR_KERNEL_COPY_U32, TSR_KERNEL_COPY_U64,
                                                 TSR_KERNEL_COPY_U128};
   check_eq_u64(TSR_KERNEL_COUNT, 5);
   for (unsigned i = 0; i < TSR_KERNEL_COUNT; i++) {
      const struct vmel_kernel *k = &tsr_kernels[i];
      test_set_context(k->name);
      ok(k->word_count > 5, "%u words", k->word_count);
      check_eq_u64(k->code[0], 0x07230203u);
      /* SPIR-V 1.5 (VMEL_KERNEL_SPIRV_VERSION): version word 0x00010500. */
      ok(k->code[1] <= 0x00010500u, "SPIR-V version 0x%08x at most 1.5", k->code[1]);
      ok(k->code[3] > 1, "id bound %u", k->code[3]);
      ok(strcmp(k->source, "shaders/tensor/copy.comp") == 0, "source %s", k->source);
   }
   for (unsigned i = 0; i < sizeof(copy_ids) / sizeof(copy_ids[0]); i++) {
      const struct vmel_kernel *k = &tsr_kernels[copy_ids[i]];
      test_set_context(copy_names[i]);
      check_str(k->name, copy_names[i]);
      check_eq_u64(k->local_size[0], VMEL_COPY_LOCAL_SIZE);
      check_eq_u64(k->local_size[1], 1);
      check_eq_u64(k->local_size[2], 1);
      ok(vmel_kernel_find(tsr_kernels, TSR_KERNEL_COUNT, copy_names[i]) == k, "found by name");
   }
   test_set_context(NULL);
   ok(vmel_kernel_find(tsr_kernels, TSR_KERNEL_COUNT, "copy_u7") == NULL, "unknown name");
   return test_done();
}
