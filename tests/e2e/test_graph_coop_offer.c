/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the graph layer enables for cooperative matrices and bf16 at vkCreateDevice (D51, D60),
 * on lavapipe given the H200's offer by VK_LAYER_VMEL_test_coop_offer (tests/layers/
 * coop_offer.c), which prints what reached it and keeps it from the device below. The test runs
 * with VMEL_GRAPH_SEVERITY=info and reads the graph layer's shapes line:
 *  - default: KHR, NV and bf16 with their features, names added; every shape (0x7f);
 *  - VMEL_GRAPH_KERNELS=coop-nv: NV alone (its two shapes, 0x3);
 *  - coop-khr and coop-khr-square: as the default (KHR is offered there anyway);
 *  - VMEL_GRAPH_NO_COOP=1: nothing added, no shapes;
 *  - the application chains its own bf16 struct without the cooperative-matrix feature: its
 *    struct stands, no bf16 shape (0x3f);
 *  - the application chains its own KHR struct without the feature: KHR off, so no bf16 either
 *    (NV's shapes, 0x3).
 * Only devices are created: the offered features do not exist below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "lyr_vk_newer.h"
#include "test.h"

TEST_MAIN_STATE;

#define OFFER_LAYER "VK_LAYER_VMEL_test_coop_offer"

/* Creates the device of one scenario and checks the test layer's line and the shapes line
 * (shapes NULL: none expected). */
static void
scenario(const char *name, const char *kernels, const char *no_coop, void *features,
         const char *extension, const char *expect, const char *shapes)
{
   if (kernels)
      setenv("VMEL_GRAPH_KERNELS", kernels, 1);
   if (no_coop)
      setenv("VMEL_GRAPH_NO_COOP", no_coop, 1);
   struct dgu_options o = {.layer_below = OFFER_LAYER, .features = features,
                           .extension = extension};
   struct dgu u;
   unsigned failed_before = test_state.failed;
   vku_capture_stderr_begin();
   bool created = dgu_init(&u, &o);
   const char *log = vku_capture_stderr_end();
   if (ok(created, "%s: device created", name)) {
      ok(strstr(log, expect) != NULL, "%s: '%s' reached the device below", name, expect);
      const char *line = strstr(log, "cooperative matrices: the COOP kernel variants may use");
      if (shapes) {
         char want[64];
         snprintf(want, sizeof(want), "may use shapes %s ", shapes);
         ok(line && strstr(line, want) == line + strlen("cooperative matrices: the COOP kernel "
                                                        "variants "),
            "%s: shapes %s", name, shapes);
      } else {
         ok(!line, "%s: no shapes", name);
      }
      if (test_state.failed != failed_before)
         fprintf(stderr, "%s: log:\n%s\n", name, log);
   }
   dgu_finish(&u);
   unsetenv("VMEL_GRAPH_KERNELS");
   unsetenv("VMEL_GRAPH_NO_COOP");
}

int
main(void)
{
   unsetenv("VMEL_GRAPH_KERNELS");
   unsetenv("VMEL_GRAPH_NO_COOP");
   scenario("default", NULL, NULL, NULL, NULL, "KHR=1 NV=1 BF16=1,1 names=KNB", "0x7f");
   scenario("coop-nv", "coop-nv", NULL, NULL, NULL, "KHR=- NV=1 BF16=- names=.N.", "0x3");
   scenario("coop-khr", "coop-khr", NULL, NULL, NULL, "KHR=1 NV=1 BF16=1,1 names=KNB", "0x7f");
   scenario("coop-khr-square", "coop-khr-square", NULL, NULL, NULL,
            "KHR=1 NV=1 BF16=1,1 names=KNB", "0x7f");
   scenario("no coop", NULL, "1", NULL, NULL, "KHR=- NV=- BF16=- names=...", NULL);
   VkPhysicalDeviceShaderBfloat16FeaturesKHR bf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR,
      .shaderBFloat16Type = VK_TRUE};
   scenario("own bf16 struct", NULL, NULL, &bf, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME,
            "KHR=1 NV=1 BF16=1,0 names=KNB", "0x3f");
   VkPhysicalDeviceCooperativeMatrixFeaturesKHR khr = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR};
   scenario("own KHR struct", NULL, NULL, &khr, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME,
            "KHR=0 NV=1 BF16=- names=KN.", "0x3");
   return test_done();
}
