/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The layers never write into the application's structs: every struct of a
 * vkCreateDevice chain (ours, the driver's, features the emulation has to turn
 * on) and the create info itself are byte-identical afterwards, and the
 * sType/pNext of output chains keep their values.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

struct snapshot {
   const void *p;
   size_t size;
   unsigned char bytes[512];
};

static void
take(struct snapshot *s, const void *p, size_t size)
{
   s->p = p;
   s->size = size;
   memcpy(s->bytes, p, size);
}

static bool
same(const struct snapshot *s)
{
   return memcmp(s->p, s->bytes, s->size) == 0;
}

int
main(void)
{
   struct vku v;
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);

   /* Features the emulation needs are left off by the application, so the
    * layers must turn them on in their copies, not here. */
   VkPhysicalDeviceVulkan13Features f13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .pNext = &f13,
      .dataGraph = VK_TRUE};
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &dgf};
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &f12,
      .tensors = VK_TRUE};
   VkPhysicalDeviceVulkan11Features f11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &tf};
   VkPhysicalDeviceFeatures core = {0};

   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph",
                        "VK_ARM_data_graph_instruction_set_tosa"};
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = 0,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = &f11,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &qci,
      .enabledExtensionCount = 3,
      .ppEnabledExtensionNames = ext,
      .pEnabledFeatures = &core,
   };
   struct snapshot snaps[9];
   take(&snaps[0], &dci, sizeof(dci));
   take(&snaps[1], &f11, sizeof(f11));
   take(&snaps[2], &tf, sizeof(tf));
   take(&snaps[3], &f12, sizeof(f12));
   take(&snaps[4], &dgf, sizeof(dgf));
   take(&snaps[5], &f13, sizeof(f13));
   take(&snaps[6], &core, sizeof(core));
   take(&snaps[7], &qci, sizeof(qci));
   take(&snaps[8], ext, sizeof(ext));

   VkDevice device = VK_NULL_HANDLE;
   ok(vkCreateDevice(v.physical_device, &dci, NULL, &device) == VK_SUCCESS, "device");
   static const char *const names[] = {"VkDeviceCreateInfo", "Vulkan11Features",
                                       "TensorFeaturesARM",  "Vulkan12Features",
                                       "DataGraphFeaturesARM", "Vulkan13Features",
                                       "VkPhysicalDeviceFeatures", "VkDeviceQueueCreateInfo",
                                       "extension names"};
   for (unsigned i = 0; i < 9; i++)
      ok(same(&snaps[i]), "%s unchanged by vkCreateDevice", names[i]);
   if (device)
      vkDestroyDevice(device, NULL);

   /* Output chains: only the values change. */
   VkPhysicalDeviceTensorPropertiesARM tp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM};
   VkPhysicalDeviceVulkan12Properties p12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, .pNext = &tp};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p12};
   vkGetPhysicalDeviceProperties2(v.physical_device, &p2);
   ok(p2.sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 && p2.pNext == &p12,
      "properties2 header kept");
   ok(p12.sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES && p12.pNext == &tp,
      "Vulkan12Properties header kept");
   ok(tp.sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM && tp.pNext == NULL,
      "TensorPropertiesARM header kept");
   check_eq_u64(tp.maxTensorDimensionCount, 6);
   ok(p12.driverID != 0, "driver struct after ours filled");
   vku_finish(&v);
   return test_done();
}
