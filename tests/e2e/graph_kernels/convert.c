/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the float conversions of the type layer
 * (shaders/common/dg_float.glsl) through the dg_convert test kernel against the reference's: every
 * fp16/bf16 and fp8 bit pattern decoded, and fp32 values around every rounding tie, overflow
 * threshold and subnormal boundary encoded.
 */
#include "harness.h"

/* ---- float conversions of the type layer --------------------------------------------------- */

#define CONVERT_RESULTS 10

static bool
same_fp32(uint32_t got, uint32_t want)
{
   bool got_nan = (got & 0x7fffffffu) > 0x7f800000u;
   bool want_nan = (want & 0x7fffffffu) > 0x7f800000u;
   if (want_nan)
      return got_nan && (got >> 31) == (want >> 31);
   return got == want;
}

/* Result j of the conversion kernel: fp16 and bf16 NaNs may differ in payload only (the fp8
 * NaNs the reference gives are the canonical ones the kernels give too). */
static bool
same_small(unsigned j, uint32_t got, uint32_t want)
{
   uint32_t exp_mask = j == 0 ? 0x7c00u : 0x7f80u;
   bool want_nan = j < 2 && (want & exp_mask) == exp_mask && (want & ~exp_mask & 0x7fffu);
   bool got_nan = j < 2 && (got & exp_mask) == exp_mask && (got & ~exp_mask & 0x7fffu);
   if (want_nan)
      return got_nan && (got & 0x8000u) == (want & 0x8000u);
   return got == want;
}

void
test_conversions(void)
{
   test_set_context("conversions");
   const struct vmel_kernel *k = vmel_kernel_find(test_graph_kernels, TEST_GRAPH_KERNEL_COUNT,
                                                  "dg_convert");
   if (!ok(k != NULL, "no dg_convert kernel"))
      return;

   /* Inputs: every 16-bit low half (all fp16/bf16/fp8 patterns) under random high halves,
    * then fp32 values around each format's rounding ties and thresholds. */
   uint32_t cap = 65536 + 64 * 2 * 8 * 4 * 3 + 64;
   uint32_t *in = malloc(cap * sizeof(*in));
   uint32_t n = 0;
   for (uint32_t i = 0; i < 65536; i++)
      in[n++] = (next_random() & 0xffff0000u) | i;
   /* Dropped-bit widths: e5m2 21, e4m3 20, fp16 13, bf16 16 (normal range; the exponent sweep
    * reaches each format's subnormals and overflow). */
   const uint32_t drops[] = {21, 20, 13, 16};
   for (uint32_t e = 96; e < 160; e++) {
      for (uint32_t s = 0; s < 2; s++) {
         for (uint32_t d = 0; d < 4; d++) {
            uint32_t half = 1u << (drops[d] - 1);
            const uint32_t tails[] = {half, half - 1, half + 1, 0, half, half * 2 - 1, half,
                                      half * 3};
            for (uint32_t t = 0; t < 8; t++) {
               uint32_t mask = (2u * half) - 1u;
               uint32_t m = ((next_random() & 0x7fffffu) & ~mask) | (tails[t] & 0x7fffffu);
               in[n++] = (s << 31) | (e << 23) | m;
            }
         }
      }
   }
   const uint32_t specials[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
      0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x477fe000, 0x477fefff, 0x477ff000,
      0x477ff001, 0x47800000, 0x33000000, 0x33000001, 0x33800000, 0xb3000000, 0x43e00000,
      0x43e80000, 0x43e80001, 0x43f00000, 0xc3e80000, 0x47600000, 0x47700000, 0x47700001,
      0x3b000000, 0x3a800000, 0x3a800001, 0x37800000, 0x37000000, 0x37000001, 0x37400000,
      0x7f7f8000, 0x7f7f7fff, 0x00008000, 0x00018000, 0x0000c000,
   };
   for (uint32_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
      in[n++] = specials[i];

   arena_used = 0;
   VkDeviceSize in_off = arena_alloc((VkDeviceSize)n * 4);
   VkDeviceSize out_off = arena_alloc((VkDeviceSize)n * 4 * CONVERT_RESULTS);
   memcpy(arena_map + in_off, in, (size_t)n * 4);
   memset(arena_map + out_off, 0, (size_t)n * 4 * CONVERT_RESULTS);

   VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = (size_t)k->word_count * 4,
      .pCode = k->code,
   };
   VkShaderModule module;
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (!ok(vkCreateShaderModule(device, &smi, NULL, &module) == VK_SUCCESS, "module")) {
      free(in);
      return;
   }
   VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = pipeline_layouts[0],
   };
   bool done = ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline) ==
                     VK_SUCCESS,
                  "pipeline");
   if (done) {
      VkDescriptorSet set = alloc_set(0);
      write_buffer(set, 0, in_off, (VkDeviceSize)n * 4);
      write_buffer(set, 1, out_off, (VkDeviceSize)n * 4 * CONVERT_RESULTS);
      done = submit(pipeline, pipeline_layouts[0], set, (n + 63) / 64, &n);
   }
   if (done) {
      const uint32_t *out = (const uint32_t *)(arena_map + out_off);
      unsigned failures[CONVERT_RESULTS] = {0};
      static const char *const names[CONVERT_RESULTS] = {
         "fp32->fp16",          "fp32->bf16",          "fp32->fp8e4m3",
         "fp32->fp8e4m3 (sat)", "fp32->fp8e5m2",       "fp32->fp8e5m2 (sat)",
         "fp16->fp32",          "bf16->fp32",          "fp8e4m3->fp32",
         "fp8e5m2->fp32"};
      for (uint32_t i = 0; i < n; i++) {
         float f;
         memcpy(&f, &in[i], 4);
         uint32_t want[CONVERT_RESULTS];
         float d[4] = {ref_fp16_to_fp32((uint16_t)in[i]), ref_bf16_to_fp32((uint16_t)in[i]),
                       ref_fp8e4m3_to_fp32((uint8_t)in[i]), ref_fp8e5m2_to_fp32((uint8_t)in[i])};
         want[0] = ref_fp32_to_fp16(f);
         want[1] = ref_fp32_to_bf16(f);
         want[2] = ref_fp32_to_fp8e4m3(f, false);
         want[3] = ref_fp32_to_fp8e4m3(f, true);
         want[4] = ref_fp32_to_fp8e5m2(f, false);
         want[5] = ref_fp32_to_fp8e5m2(f, true);
         for (unsigned j = 0; j < 4; j++)
            memcpy(&want[6 + j], &d[j], 4);
         for (unsigned j = 0; j < CONVERT_RESULTS; j++) {
            uint32_t got = out[i * CONVERT_RESULTS + j];
            bool good = j >= 6 ? same_fp32(got, want[j]) : same_small(j, got, want[j]);
            if (!good && failures[j]++ < MAX_REPORTED)
               fprintf(stderr, "  %s(0x%08x): kernel 0x%x, reference 0x%x\n", names[j], in[i],
                       got, want[j]);
         }
      }
      for (unsigned j = 0; j < CONVERT_RESULTS; j++)
         ok(failures[j] == 0, "%s: %u of %u values differ", names[j], failures[j], n);
   }
   if (pipeline)
      vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyShaderModule(device, module, NULL);
   free(in);
   test_set_context(NULL);
}
