/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * pNext chains the layers cannot fully read (issue 15):
 *  - structs newer than the build's vk.xml pass through both layers to the
 *    driver, in queries (VkPhysicalDeviceVulkan14Features after an ARM struct:
 *    filled where the driver has Vulkan 1.4) and at device creation (an sType
 *    no header knows, last in the chain: the device is created);
 *  - a chain that loops back on itself is refused by vkCreateTensorARM with
 *    VK_ERROR_VALIDATION_FAILED_EXT instead of hanging.
 * No validation layer: the chains deliberately hold structs the Debian
 * validation layer (1.3.239) does not know.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

/* VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES (Vulkan 1.4, after this build's
 * headers): 21 VkBool32 members; room for more so a driver writes inside the struct. */
#define STYPE_VULKAN_1_4_FEATURES ((VkStructureType)55)
/* An sType no version defines: every component must skip it. */
#define STYPE_NOBODY ((VkStructureType)1000999000)

struct newer_features {
   VkStructureType sType;
   void *pNext;
   VkBool32 b[32];
};

static void
test_query(struct vku *v)
{
   test_set_context("query: Vulkan14Features after an ARM struct");
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(v->physical_device, &props);
   struct newer_features nobody = {.sType = STYPE_NOBODY, .b = {7}};
   struct newer_features v14 = {.sType = STYPE_VULKAN_1_4_FEATURES, .pNext = &nobody};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &v14};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v->physical_device, &f2);
   ok(tf.tensors == VK_TRUE, "the layer answered its own struct");
   ok(f2.pNext == &tf && tf.pNext == &v14 && v14.pNext == &nobody && nobody.pNext == NULL,
      "the application's links are kept");
   ok(nobody.b[0] == 7 && nobody.b[1] == 0, "the struct nobody knows is untouched");
   bool any = false;
   for (unsigned i = 0; i < 21; i++)
      any |= v14.b[i] != VK_FALSE;
   if (VK_API_VERSION_MINOR(props.apiVersion) >= 4 || VK_API_VERSION_MAJOR(props.apiVersion) > 1)
      ok(any, "the Vulkan 1.4 driver filled Vulkan14Features (it reached the driver)");
   else
      fprintf(stderr, "# device API %u.%u: Vulkan14Features is not filled below 1.4\n",
              VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion));
}

static void
test_device_and_loop(struct vku *v)
{
   test_set_context("device: a struct nobody knows, last");
   struct newer_features nobody = {.sType = STYPE_NOBODY};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &nobody,
       .tensors = VK_TRUE};
   const char *ext[] = {"VK_ARM_tensors"};
   VkDevice device = VK_NULL_HANDLE;
   VkResult r = vku_create_device(v, ext, 1, &tf, &device);
   ok(r == VK_SUCCESS, "vkCreateDevice: %d", r);
   if (r != VK_SUCCESS)
      return;

   test_set_context("vkCreateTensorARM: a looping chain");
   PFN_vkCreateTensorARM create =
       (PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM");
   int64_t dims[2] = {4, 4};
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_SFLOAT,
       .dimensionCount = 2,
       .pDimensions = dims,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   VkExternalMemoryTensorCreateInfoARM a = {
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM};
   VkExternalMemoryTensorCreateInfoARM b = {
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM, .pNext = &a};
   a.pNext = &b;
   VkTensorCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
       .pNext = &a,
       .pDescription = &desc,
   };
   VkTensorARM tensor = VK_NULL_HANDLE;
   ok(create != NULL, "vkCreateTensorARM");
   if (create) {
      vku_capture_stderr_begin();
      r = create(device, &info, NULL, &tensor);
      const char *log = vku_capture_stderr_end();
      check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
      ok(tensor == VK_NULL_HANDLE, "no tensor");
      ok(strstr(log, "loops") != NULL, "a log line says the chain loops: %s", log);
      info.pNext = NULL;
      r = create(device, &info, NULL, &tensor);
      ok(r == VK_SUCCESS, "the same create info without the loop: %d", r);
      PFN_vkDestroyTensorARM destroy =
          (PFN_vkDestroyTensorARM)vkGetDeviceProcAddr(device, "vkDestroyTensorARM");
      if (r == VK_SUCCESS && destroy)
         destroy(device, tensor, NULL);
   }
   vkDestroyDevice(device, NULL);
}

int
main(void)
{
   struct vku v;
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, false) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   test_query(&v);
   test_device_and_loop(&v);
   vku_finish(&v);
   return test_done();
}
