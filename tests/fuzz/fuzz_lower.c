/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: the tensor layer's shader lowering (tensor/lower), which runs on every
 * module an application creates that declares TensorsARM: the direct lowering, and the
 * same passes shaped for SPIRV-Cross as the GLSL round trip's pre-pass (for_glsl; the
 * round trip's SPIRV-Cross and glslang stages are other projects' code and are not
 * fuzzed here). The input's words are lowered both ways with every device feature,
 * then once more with the features the input's checksum picks. Checked: a refusal has
 * a VkResult the contract allows and a message; a lowered module is no longer a tensor
 * module and the layers' reader accepts it. Mutations: fuzz_spirv_mutate.c (instruction
 * level), as for graphs.
 */
#include "fuzz.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "tsr_lower.h"

static void
lower(const uint32_t *words, size_t count, uint32_t features, bool for_glsl)
{
   struct tsr_lower_options opts = {.features = features, .for_glsl = for_glsl};
   uint32_t *out = NULL;
   size_t out_count = 0;
   char err[256] = "";
   VkResult res = tsr_lower_tensors(words, count, &opts, &out, &out_count, err, sizeof(err));
   if (res != VK_SUCCESS) {
      if (res != VK_ERROR_INITIALIZATION_FAILED && res != VK_ERROR_FEATURE_NOT_PRESENT &&
          res != VK_ERROR_OUT_OF_HOST_MEMORY)
         fuzz_fail("lowering (for_glsl %d) returns %d", for_glsl, res);
      if (!err[0])
         fuzz_fail("lowering (for_glsl %d) refuses without a message (%d)", for_glsl, res);
      if (out)
         fuzz_fail("a refusal with an output module");
      return;
   }
   if (!out || !out_count)
      fuzz_fail("lowering (for_glsl %d) succeeds with no module", for_glsl);
   if (spirv_declares_capability(out, out_count, SPV_ARM_CAP_TENSORS))
      fuzz_fail("the lowered module (for_glsl %d) still declares TensorsARM", for_glsl);
   struct spirv_reader r;
   struct spirv_diag diag = {0};
   if (spirv_reader_init(&r, out, out_count, NULL, &diag) != VK_SUCCESS)
      fuzz_fail("the lowered module (for_glsl %d) is unreadable: word %u: %s", for_glsl,
                diag.offset, diag.message);
   spirv_reader_finish(&r);
   tsr_lower_free(&opts, out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   size_t count;
   uint32_t *words = fuzz_words(data, size, &count);
   if (!words)
      return 0;
   lower(words, count, TSR_LOWER_FEATURES_ALL, false);
   lower(words, count, TSR_LOWER_FEATURES_ALL, true);
   uint32_t sum = 0;
   for (size_t i = 0; i < count; i++)
      sum = sum * 31u + words[i];
   lower(words, count, (sum ^ sum >> 11 ^ sum >> 22) & TSR_LOWER_FEATURES_ALL, (sum & 1u) != 0);
   free(words);
   return 0;
}
