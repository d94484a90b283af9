/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * End-to-end test helpers; see vkutil.h.
 */
#include "vkutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spirv_text.h"
#include "test.h"

static VKAPI_ATTR VkBool32 VKAPI_CALL
messenger_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
             VkDebugUtilsMessageTypeFlagsEXT types,
             const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
   struct vku *v = user;
   if (v->expect_device_failure && strstr(data->pMessage, "Failed to create device chain")) {
      fprintf(stderr, "expected loader message: %s\n", data->pMessage);
      return VK_FALSE;
   }
   if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
      v->validation_errors++;
      fprintf(stderr, "VALIDATION ERROR: %s\n", data->pMessage);
   } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
      v->validation_warnings++;
      fprintf(stderr, "validation warning: %s\n", data->pMessage);
   }
   return VK_FALSE;
}

/* Set by vku_init_sync() for the vku_init() it calls. */
static bool init_sync_validation;

VkResult
vku_init(struct vku *v, const char *const *layers, unsigned layer_count, bool validation)
{
   memset(v, 0, sizeof(*v));
   const char *names[16];
   unsigned n = 0;
   for (unsigned i = 0; i < layer_count && n < 15; i++)
      names[n++] = layers[i];
   if (validation)
      names[n++] = VKU_VALIDATION;

   const char *extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
   VkDebugUtilsMessengerCreateInfoEXT mci = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = messenger_cb,
      .pUserData = v,
   };
   VkApplicationInfo app = {
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
      .pApplicationName = "vmel-test",
      .apiVersion = VK_API_VERSION_1_3,
   };
   VkInstanceCreateInfo ici = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pNext = validation ? &mci : NULL,
      .pApplicationInfo = &app,
      .enabledLayerCount = n,
      .ppEnabledLayerNames = names,
      .enabledExtensionCount = validation ? 1 : 0,
      .ppEnabledExtensionNames = extensions,
   };
   const VkValidationFeatureEnableEXT sync_enable[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
   };
   VkValidationFeaturesEXT features = {
      .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
      .pNext = &mci,
      .enabledValidationFeatureCount = 1,
      .pEnabledValidationFeatures = sync_enable,
   };
   const char *sync_extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                    VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
   if (validation && init_sync_validation) {
      ici.pNext = &features;
      ici.enabledExtensionCount = 2;
      ici.ppEnabledExtensionNames = sync_extensions;
   }
   VkResult result = vkCreateInstance(&ici, NULL, &v->instance);
   if (result != VK_SUCCESS)
      return result;
   if (validation) {
      PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(v->instance, "vkCreateDebugUtilsMessengerEXT");
      if (create)
         create(v->instance, &mci, NULL, &v->messenger);
   }
   uint32_t count = 1;
   VkPhysicalDevice pd = VK_NULL_HANDLE;
   result = vkEnumeratePhysicalDevices(v->instance, &count, &pd);
   if ((result == VK_SUCCESS || result == VK_INCOMPLETE) && count)
      v->physical_device = pd;
   return VK_SUCCESS;
}

VkResult
vku_init_sync(struct vku *v, const char *const *layers, unsigned layer_count)
{
   init_sync_validation = true;
   VkResult result = vku_init(v, layers, layer_count, true);
   init_sync_validation = false;
   return result;
}

void
vku_require_device(struct vku *v)
{
   if (!v->physical_device) {
      printf("SKIP: no Vulkan device\n");
      exit(TEST_SKIP_CODE);
   }
}

void
vku_finish(struct vku *v)
{
   if (!v->instance)
      return;
   if (v->messenger) {
      PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
         vkGetInstanceProcAddr(v->instance, "vkDestroyDebugUtilsMessengerEXT");
      if (destroy)
         destroy(v->instance, v->messenger, NULL);
   }
   vkDestroyInstance(v->instance, NULL);
   ok(v->validation_errors == 0, "%u validation errors", v->validation_errors);
   v->instance = VK_NULL_HANDLE;
}

PFN_vkVoidFunction
vku_proc(struct vku *v, const char *name)
{
   return vkGetInstanceProcAddr(v->instance, name);
}

VkResult
vku_create_device(struct vku *v, const char *const *extensions, unsigned count, const void *pnext,
                  VkDevice *device)
{
   uint32_t nfam = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &nfam, NULL);
   VkQueueFamilyProperties fams[16];
   if (nfam > 16)
      nfam = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &nfam, fams);
   uint32_t family = 0;
   for (uint32_t i = 0; i < nfam; i++) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
         family = i;
         break;
      }
   }
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueFamilyIndex = family,
      .queueCount = 1,
      .pQueuePriorities = &priority,
   };
   VkDeviceCreateInfo dci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
      .pNext = pnext,
      .queueCreateInfoCount = 1,
      .pQueueCreateInfos = &qci,
      .enabledExtensionCount = count,
      .ppEnabledExtensionNames = extensions,
   };
   return vkCreateDevice(v->physical_device, &dci, NULL, device);
}

bool
vku_has_device_extension(struct vku *v, const char *name)
{
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(v->physical_device, NULL, &n, NULL);
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   if (!props)
      return false;
   vkEnumerateDeviceExtensionProperties(v->physical_device, NULL, &n, props);
   bool found = false;
   for (uint32_t i = 0; i < n; i++)
      found |= strcmp(props[i].extensionName, name) == 0;
   free(props);
   return found;
}

uint32_t
vku_memory_type(const struct vku *v, uint32_t bits, VkMemoryPropertyFlags want)
{
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(v->physical_device, &mp);
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

uint32_t
vku_host_memory_type(const struct vku *v, uint32_t bits)
{
   return vku_memory_type(v, bits,
                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

uint32_t *
vku_assemble_file(const char *path, size_t *count)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   static char text[65536];
   size_t len = fread(text, 1, sizeof(text), f);
   fclose(f);
   uint32_t *words = NULL;
   char err[256];
   if (!spirv_text_assemble(text, len, &words, count, err, sizeof(err))) {
      fprintf(stderr, "%s: %s\n", path, err);
      return NULL;
   }
   return words;
}

static int saved_stderr = -1;
static FILE *capture_file;
static char capture_text[65536];

void
vku_capture_stderr_begin(void)
{
   fflush(stderr);
   capture_file = tmpfile();
   if (!capture_file)
      return;
   saved_stderr = dup(2);
   dup2(fileno(capture_file), 2);
}

const char *
vku_capture_stderr_end(void)
{
   capture_text[0] = 0;
   if (!capture_file)
      return capture_text;
   fflush(stderr);
   dup2(saved_stderr, 2);
   close(saved_stderr);
   rewind(capture_file);
   size_t n = fread(capture_text, 1, sizeof(capture_text) - 1, capture_file);
   capture_text[n] = 0;
   fclose(capture_file);
   capture_file = NULL;
   fputs(capture_text, stderr);
   return capture_text;
}

bool
vku_tensor_create(struct vku *v, VkDevice device, const struct vku_tensor_fns *f,
                  const VkTensorDescriptionARM *desc, uint8_t fill, VkTensorARM *tensor,
                  VkDeviceMemory *memory, void **data, VkTensorViewARM *view)
{
   VkTensorCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pDescription = desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(f->create(device, &info, NULL, tensor) == VK_SUCCESS, "vkCreateTensorARM"))
      return false;
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
      .tensor = *tensor,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   f->requirements(device, &ri, &req);
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.memoryRequirements.size,
      .memoryTypeIndex = vku_host_memory_type(v, req.memoryRequirements.memoryTypeBits),
   };
   VkBindTensorMemoryInfoARM bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
      .tensor = *tensor,
   };
   if (!ok(mai.memoryTypeIndex != UINT32_MAX &&
              vkAllocateMemory(device, &mai, NULL, memory) == VK_SUCCESS &&
              (bind.memory = *memory, f->bind(device, 1, &bind) == VK_SUCCESS) &&
              vkMapMemory(device, *memory, 0, VK_WHOLE_SIZE, 0, data) == VK_SUCCESS,
           "tensor memory"))
      return false;
   memset(*data, fill, mai.allocationSize);
   VkTensorViewCreateInfoARM vi = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
      .tensor = *tensor,
      .format = desc->format,
   };
   return ok(f->create_view(device, &vi, NULL, view) == VK_SUCCESS, "vkCreateTensorViewARM");
}

/* dst[i] = src[i] over a pair of rank-1 int32 tensors (set 0, bindings 0 and 1),
 * 16 invocations per workgroup. */
const char vku_tensor_copy_shader[] =
   "OpCapability Shader\n"
   "OpCapability TensorsARM\n"
   "OpExtension \"SPV_ARM_tensors\"\n"
   "OpMemoryModel Logical GLSL450\n"
   "OpEntryPoint GLCompute %main \"main\" %src %dst %gid\n"
   "OpExecutionMode %main LocalSize 16 1 1\n"
   "OpDecorate %src DescriptorSet 0\n"
   "OpDecorate %src Binding 0\n"
   "OpDecorate %dst DescriptorSet 0\n"
   "OpDecorate %dst Binding 1\n"
   "OpDecorate %gid BuiltIn GlobalInvocationId\n"
   "%void = OpTypeVoid\n"
   "%uint = OpTypeInt 32 0\n"
   "%v3uint = OpTypeVector %uint 3\n"
   "%uint_1 = OpConstant %uint 1\n"
   "%coords = OpTypeArray %uint %uint_1\n"
   "%tensor = OpTypeTensorARM %uint %uint_1\n"
   "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
   "%ptr_input = OpTypePointer Input %v3uint\n"
   "%src = OpVariable %ptr_tensor UniformConstant\n"
   "%dst = OpVariable %ptr_tensor UniformConstant\n"
   "%gid = OpVariable %ptr_input Input\n"
   "%fn_void = OpTypeFunction %void\n"
   "%main = OpFunction %void None %fn_void\n"
   "%entry = OpLabel\n"
   "%t_in = OpLoad %tensor %src\n"
   "%t_out = OpLoad %tensor %dst\n"
   "%id = OpLoad %v3uint %gid\n"
   "%x = OpCompositeExtract %uint %id 0\n"
   "%coord = OpCompositeConstruct %coords %x\n"
   "%v = OpTensorReadARM %uint %t_in %coord\n"
   "OpTensorWriteARM %t_out %coord %v\n"
   "OpReturn\n"
   "OpFunctionEnd\n";
