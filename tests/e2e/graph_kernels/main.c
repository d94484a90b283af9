/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The TOSA graph kernels (shaders/graph/tosa/, vmel_kernels_graph) on their own, without the
 * graph layer: an instance with no layer but validation, the device's own compute pipelines
 * made from the embedded variants with the kernel ABI of include/kernel_abi/graph_kernel.h and
 * tosa_args.h (tensor records in storage buffers at set 0 binding k, descriptor count 1,
 * element 0; work count, tensor counts and indices, attributes as specialization constants;
 * a 2D grid of 1D workgroups), and every result compared with the CPU reference
 * (tests/reference, vmel_tosa_ref):
 *   - integer results, RESHAPE, CONCAT and RESCALE SINGLE/DOUBLE_ROUND bit for bit;
 *   - ADD/SUB/MUL on floats within 0.5 ulp of the fp64 result (tosa_reference_check_fp),
 *     CLAMP and MAX_POOL2D on floats exactly (NaN as the NaN mode says; zero sign and
 *     subnormal flushing free), CONV2D and MATMUL on floats with TOSA 1.0.1's dot-product
 *     accuracy requirements, RESCALE INEXACT_ROUND within its range: the bounds
 *     tosa_ref_tolerance() states for each operator and output type.
 * Tensors live at strided (non-packed) layouts in one host-visible buffer; bytes of an output
 * allocation that are not elements must keep their fill pattern. Every variant of the library
 * runs at least once (the _fp16arith ones where the device has shaderFloat16). A first part
 * checks the type layer's float conversions (shaders/common/dg_float.glsl) through a test
 * kernel against the reference's: every fp16/bf16 and fp8 bit pattern decoded, and fp32
 * values around every rounding tie, overflow threshold and subnormal boundary encoded.
 *
 * This file runs the parts, one per operator family (harness.h), timing each, and checks that
 * every variant ran.
 */
#include "harness.h"

TEST_MAIN_STATE;

/* ---- main ----------------------------------------------------------------------------------- */

int
main(void)
{
   if (vku_init(&v, NULL, 0, true) != VK_SUCCESS)
      return test_skip("no Vulkan instance");
   vku_require_device(&v);
   if (!init_device()) {
      finish_device();
      vku_finish(&v);
      return test_state.failed ? test_done() : TEST_SKIP_CODE;
   }

   static const struct {
      const char *name;
      void (*run)(void);
   } parts[] = {
      {"conversions", test_conversions}, {"binary", test_binary},   {"clamp", test_clamp},
      {"max_pool2d", test_max_pool2d},   {"conv2d", test_conv2d},   {"matmul", test_matmul},
      {"rescale", test_rescale},         {"copy", test_copy},
   };
   for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      unsigned failed = test_state.failed;
      parts[i].run();
      clock_gettime(CLOCK_MONOTONIC, &t1);
      printf("%-12s %s, %.2f s\n", parts[i].name, test_state.failed == failed ? "ok" : "FAILED",
             (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
   }

   for (unsigned i = 0; i < DG_KERNEL_COUNT; i++) {
      if (needs_fp16arith(dg_kernels[i].name) && !have_fp16arith)
         continue;
      ok(ran[i], "variant %s was not run", dg_kernels[i].name);
   }
   if (!have_fp16arith)
      printf("note: no shaderFloat16: the _fp16arith variants were not run\n");

   finish_device();
   vku_finish(&v);
   return test_done();
}
