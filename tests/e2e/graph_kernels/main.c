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
 * (tests/reference, vmel_tosa_ref): CONV2D and MATMUL (integers bit for bit, floats with
 * TOSA 1.0.1's dot-product accuracy requirements), for every variant including the _fp16arith
 * ones the layers pick only where the device has shaderFloat16 (the others only where it has
 * not), and the copy kernels RESHAPE and CONCAT run on, i48 included (no TOSA row reaches
 * tosa_copy_u64 through the layers), bit for bit.
 * Tensors live at strided (non-packed) layouts in one host-visible buffer; bytes of an output
 * allocation that are not elements must keep their fill pattern. A first part checks the type
 * layer's float conversions (shaders/common/dg_float.glsl) through a test kernel against the
 * reference's: every fp16/bf16 and fp8 bit pattern decoded, and fp32 values around every
 * rounding tie, overflow threshold and subnormal boundary encoded.
 * ADD, SUB, MUL, CLAMP, MAX_POOL2D, RESCALE (and every later operator) are tested through the
 * layers as data instead: tests/optest/data/<op>.optest (docs/optests.md).
 *
 * This file runs the parts, one per operator family (harness.h), timing each, and checks that
 * every variant of those families ran.
 */
#include "harness.h"

TEST_MAIN_STATE;

/* The operator families this executable still dispatches directly: CONV2D and MATMUL (the
 * device picks either the _fp16arith variants or the others, so the layers reach only one set),
 * the copies (tosa_copy_u64 serves i48, which no TOSA RESHAPE or CONCAT row has). Every other
 * operator is tested through the layers as data (tests/optest/data/<op>.optest, docs/optests.md).
 */
static bool
tested_here(const char *variant)
{
   static const char *const prefixes[] = {"tosa_conv2d_", "tosa_matmul_", "tosa_copy_"};
   /* The TILED variants run one workgroup per output tile over arranged weights (D44): the
    * layer's build is what sets them up, so they are tested through it (the tiled .optest
    * files in three kernel modes), not here; so do the COOP and INT_DOT variants (D51): the
    * coop .optest files on a device with cooperative matrices, the tiled files under
    * VMEL_GRAPH_KERNELS=int-dot; the SPLITK variants with their reduce kernels (D56): a
    * session scratch tensor between two stages, splitk.optest and the tiled files under
    * VMEL_GRAPH_SPLIT_K; and the SUBGROUP variants (D55): conv2d_subgroup.optest and the tiled
    * files on a CPU device with 8-lane subgroups. */
   if (strstr(variant, "_tiled_") || strstr(variant, "_coop_") || strstr(variant, "_int_dot_") ||
       strstr(variant, "_splitk_") || strstr(variant, "_subgroup_"))
      return false;
   for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
      if (strncmp(variant, prefixes[i], strlen(prefixes[i])) == 0)
         return true;
   }
   return false;
}

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
       {"conversions", test_conversions},
       {"conv2d", test_conv2d},
       {"matmul", test_matmul},
       {"copy", test_copy},
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
      if (!tested_here(dg_kernels[i].name))
         continue;
      ok(ran[i], "variant %s was not run", dg_kernels[i].name);
   }
   if (!have_fp16arith)
      printf("note: no shaderFloat16: the _fp16arith variants were not run\n");

   finish_device();
   vku_finish(&v);
   return test_done();
}
