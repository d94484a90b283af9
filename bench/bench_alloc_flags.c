/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT costs the driver: the tensor
 * layer adds it to application allocations of tensor-capable memory types
 * (docs/decisions.md D13). Times vkAllocateMemory + vkFreeMemory of several
 * sizes with and without the flag, interleaved, on the default device (no
 * layers), and prints the ratio flagged / plain per size.
 *   bench_alloc_flags [iterations]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vulkan/vulkan.h>

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
   int iterations = argc > 1 ? atoi(argv[1]) : 200;
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
   VkInstance instance;
   if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS)
      return 1;
   uint32_t n = 1;
   VkPhysicalDevice pd;
   if (vkEnumeratePhysicalDevices(instance, &n, &pd) < 0 || n == 0)
      return 1;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pd, &props);
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .bufferDeviceAddress = 1};
   float prio = 1;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1,
                                .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f12,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &q};
   VkDevice device;
   if (vkCreateDevice(pd, &dci, NULL, &device) != VK_SUCCESS)
      return 1;
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(pd, &mp);
   uint32_t type = 0;
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
      if (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) {
         type = i;
         break;
      }
   }
   printf("device: %s, memory type %u\n", props.deviceName, type);
   printf("%12s %14s %14s %8s\n", "size", "plain us", "flagged us", "ratio");
   const VkDeviceSize sizes[] = {64 << 10, 1 << 20, 16 << 20, 256 << 20};
   for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
      double t[2] = {0, 0};
      for (int it = 0; it < iterations; it++) {
         for (int flagged = 0; flagged < 2; flagged++) {
            VkMemoryAllocateFlagsInfo fi = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                            .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
            VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                        .pNext = flagged ? &fi : NULL,
                                        .allocationSize = sizes[s],
                                        .memoryTypeIndex = type};
            VkDeviceMemory mem;
            double t0 = now();
            if (vkAllocateMemory(device, &mai, NULL, &mem) != VK_SUCCESS)
               return 1;
            vkFreeMemory(device, mem, NULL);
            t[flagged] += now() - t0;
         }
      }
      printf("%12llu %14.2f %14.2f %8.3f\n", (unsigned long long)sizes[s],
             t[0] / iterations * 1e6, t[1] / iterations * 1e6, t[1] / t[0]);
   }
   vkDestroyDevice(device, NULL);
   vkDestroyInstance(instance, NULL);
   return 0;
}
