/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_tensors objects through the loader on lavapipe: tensors of every
 * rank, format, tiling and stride pattern are created, their memory
 * requirements cover their data, they bind (several in one call, dedicated
 * allocations too), views are created on them (the record pool grows and
 * reuses slots), and view formats follow MUTABLE_FORMAT. Invalid
 * descriptions are rejected with VK_ERROR_VALIDATION_FAILED and a log line.
 * External tensor properties match the buffer equivalents.
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkGetDeviceTensorMemoryRequirementsARM device_tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCreateTensorViewARM create_view;
static PFN_vkDestroyTensorViewARM destroy_view;

static VkDevice device;
static struct vku v;

static VkResult
make_tensor(VkFormat format, VkTensorTilingARM tiling, uint32_t rank, const int64_t *dims,
            const int64_t *strides, VkTensorUsageFlagsARM usage, VkTensorARM *t)
{
   VkTensorDescriptionARM desc = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = tiling,
      .format = format,
      .dimensionCount = rank,
      .pDimensions = dims,
      .pStrides = strides,
      .usage = usage,
   };
   VkTensorCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pDescription = &desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return create_tensor(device, &info, NULL, t);
}

static void
check_layouts(void)
{
   test_set_context("layouts");
   static const struct {
      VkFormat format;
      unsigned size;
   } formats[] = {
      {VK_FORMAT_R8_BOOL_ARM, 1}, {VK_FORMAT_R8_SINT, 1},
      {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, 1},
      {VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, 2}, {VK_FORMAT_R16_UINT, 2},
      {VK_FORMAT_R32_SFLOAT, 4}, {VK_FORMAT_R64_SINT, 8},
   };
   const int64_t dims[6] = {2, 3, 4, 5, 3, 2};
   for (unsigned f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
      for (uint32_t rank = 1; rank <= 6; rank++) {
         for (int tiling = 0; tiling < 2; tiling++) {
            VkTensorARM t = VK_NULL_HANDLE;
            VkResult r = make_tensor(formats[f].format, tiling ? VK_TENSOR_TILING_LINEAR_ARM
                                                               : VK_TENSOR_TILING_OPTIMAL_ARM,
                                     rank, dims, NULL, VK_TENSOR_USAGE_SHADER_BIT_ARM, &t);
            if (!ok(r == VK_SUCCESS, "format %d rank %u tiling %d", formats[f].format, rank,
                    tiling))
               continue;
            uint64_t bytes = formats[f].size;
            for (uint32_t i = 0; i < rank; i++)
               bytes *= dims[i];
            VkTensorMemoryRequirementsInfoARM ri = {
               .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t};
            VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
            tensor_reqs(device, &ri, &req);
            ok(req.memoryRequirements.size >= bytes, "format %d rank %u: %llu bytes >= %llu",
               formats[f].format, rank, (unsigned long long)req.memoryRequirements.size,
               (unsigned long long)bytes);
            ok(req.memoryRequirements.memoryTypeBits != 0, "memory types");
            destroy_tensor(device, t, NULL);
         }
      }
   }
   destroy_tensor(device, VK_NULL_HANDLE, NULL); /* a null handle is ignored */
}

/* A strided tensor: requirements cover its strides, a dedicated allocation and a view. */
static void
check_strided_data(void)
{
   test_set_context("strided data");
   const int64_t dims[3] = {3, 4, 5};
   const int64_t strides[3] = {4 * 32 + 16, 32, 4}; /* padded rows and planes */
   VkTensorARM t;
   if (!ok(make_tensor(VK_FORMAT_R32_SINT, VK_TENSOR_TILING_LINEAR_ARM, 3, dims, strides,
                       VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM,
                       &t) == VK_SUCCESS,
           "strided tensor"))
      return;
   VkMemoryDedicatedRequirements ded = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &ded};
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t};
   tensor_reqs(device, &ri, &req);
   ok(req.memoryRequirements.size >= (uint64_t)(strides[0] * dims[0]), "covers the strides");
   ok(req.pNext == &ded && ded.sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
      "dedicated requirements chain kept");

   /* The same description through vkGetDeviceTensorMemoryRequirementsARM. */
   VkTensorDescriptionARM desc = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = VK_FORMAT_R32_SINT,
      .dimensionCount = 3,
      .pDimensions = dims,
      .pStrides = strides,
      .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM,
   };
   VkTensorCreateInfoARM ci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                               .pDescription = &desc,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   VkDeviceTensorMemoryRequirementsARM dri = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_TENSOR_MEMORY_REQUIREMENTS_ARM, .pCreateInfo = &ci};
   VkMemoryRequirements2 req2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   device_tensor_reqs(device, &dri, &req2);
   check_eq_u64(req2.memoryRequirements.size, req.memoryRequirements.size);
   check_eq_u64(req2.memoryRequirements.memoryTypeBits, req.memoryRequirements.memoryTypeBits);

   /* Dedicated allocation through VkMemoryDedicatedAllocateInfoTensorARM. */
   uint32_t type = vku_host_memory_type(&v, req.memoryRequirements.memoryTypeBits);
   VkMemoryDedicatedAllocateInfoTensorARM dt = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM, .tensor = t};
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .pNext = &dt,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = type};
   VkDeviceMemory mem;
   ok(vkAllocateMemory(device, &mai, NULL, &mem) == VK_SUCCESS, "dedicated allocation");
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = t,
                                   .memory = mem};
   ok(bind_tensor(device, 1, &bi) == VK_SUCCESS, "bind");
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = t,
                                   .format = VK_FORMAT_R32_SINT};
   VkTensorViewARM view;
   ok(create_view(device, &vi, NULL, &view) == VK_SUCCESS, "view");
   /* Debug names reach the validation layer below as buffer names, with no
    * validation error for the ARM object types it does not know. */
   PFN_vkSetDebugUtilsObjectNameEXT set_name =
      (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(device, "vkSetDebugUtilsObjectNameEXT");
   if (ok(set_name != NULL, "vkSetDebugUtilsObjectNameEXT")) {
      VkDebugUtilsObjectNameInfoEXT name = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                            .objectType = VK_OBJECT_TYPE_TENSOR_ARM,
                                            .objectHandle = (uint64_t)t,
                                            .pObjectName = "strided tensor"};
      ok(set_name(device, &name) == VK_SUCCESS, "name a tensor");
      name.objectType = VK_OBJECT_TYPE_TENSOR_VIEW_ARM;
      name.objectHandle = (uint64_t)view;
      ok(set_name(device, &name) == VK_SUCCESS, "name a tensor view");
   }
   destroy_view(device, view, NULL);
   /* MUTABLE_FORMAT was not given: another format of the same size fails. */
   vi.format = VK_FORMAT_R32_SFLOAT;
   vku_capture_stderr_begin();
   VkResult r = create_view(device, &vi, NULL, &view);
   const char *log = vku_capture_stderr_end();
   check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
   ok(strstr(log, "MUTABLE_FORMAT") != NULL, "log says why the view was rejected");
   destroy_tensor(device, t, NULL);
   vkFreeMemory(device, mem, NULL);
}

/* Several tensors bound in one call at offsets of one allocation. */
static void
check_multi_bind(void)
{
   test_set_context("multi bind");
   const int64_t dims[2] = {16, 16};
   VkTensorARM t[3];
   VkBindTensorMemoryInfoARM bi[3];
   VkDeviceSize offset = 0, align = 1;
   uint32_t bits = ~0u;
   for (int i = 0; i < 3; i++) {
      ok(make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_LINEAR_ARM, 2, dims, NULL,
                     VK_TENSOR_USAGE_SHADER_BIT_ARM, &t[i]) == VK_SUCCESS,
         "tensor %d", i);
      VkTensorMemoryRequirementsInfoARM ri = {
         .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t[i]};
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      tensor_reqs(device, &ri, &req);
      align = req.memoryRequirements.alignment;
      bits &= req.memoryRequirements.memoryTypeBits;
      offset = (offset + align - 1) / align * align;
      bi[i] = (VkBindTensorMemoryInfoARM){.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                          .tensor = t[i],
                                          .memoryOffset = offset};
      offset += req.memoryRequirements.size;
   }
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = offset,
                               .memoryTypeIndex = vku_host_memory_type(&v, bits)};
   VkDeviceMemory mem;
   ok(vkAllocateMemory(device, &mai, NULL, &mem) == VK_SUCCESS, "allocation");
   for (int i = 0; i < 3; i++)
      bi[i].memory = mem;
   ok(bind_tensor(device, 3, bi) == VK_SUCCESS, "three binds in one call");
   VkTensorViewARM views[3];
   for (int i = 0; i < 3; i++) {
      VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                      .tensor = t[i],
                                      .format = VK_FORMAT_R8_UINT};
      ok(create_view(device, &vi, NULL, &views[i]) == VK_SUCCESS, "view %d", i);
   }
   /* Destroying the tensor before its views is allowed; views go after. */
   for (int i = 0; i < 3; i++)
      destroy_tensor(device, t[i], NULL);
   for (int i = 0; i < 3; i++)
      destroy_view(device, views[i], NULL);
   vkFreeMemory(device, mem, NULL);
}

/* Many views: the record pool grows past one chunk and reuses slots. */
static void
check_many_views(void)
{
   test_set_context("many views");
   const int64_t dims[1] = {64};
   VkTensorARM t;
   ok(make_tensor(VK_FORMAT_R32_UINT, VK_TENSOR_TILING_LINEAR_ARM, 1, dims, NULL,
                  VK_TENSOR_USAGE_SHADER_BIT_ARM, &t) == VK_SUCCESS,
      "tensor");
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   tensor_reqs(device, &ri, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex =
                                  vku_host_memory_type(&v, req.memoryRequirements.memoryTypeBits)};
   VkDeviceMemory mem;
   vkAllocateMemory(device, &mai, NULL, &mem);
   VkBindTensorMemoryInfoARM bi = {
      .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM, .tensor = t, .memory = mem};
   bind_tensor(device, 1, &bi);
   enum { N = 600 };
   VkTensorViewARM *views = calloc(N, sizeof(*views));
   unsigned failures = 0;
   for (int round = 0; round < 2; round++) {
      for (int i = 0; i < N; i++) {
         VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                         .tensor = t,
                                         .format = VK_FORMAT_R32_UINT};
         failures += create_view(device, &vi, NULL, &views[i]) != VK_SUCCESS;
      }
      for (int i = 0; i < N; i++)
         destroy_view(device, views[i], NULL);
   }
   check_eq_u64(failures, 0);
   free(views);
   destroy_tensor(device, t, NULL);
   vkFreeMemory(device, mem, NULL);
}

static void
expect_invalid(const char *what, const char *log_word, VkFormat format, VkTensorTilingARM tiling,
               uint32_t rank, const int64_t *dims, const int64_t *strides,
               VkTensorUsageFlagsARM usage)
{
   VkTensorARM t = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult r = make_tensor(format, tiling, rank, dims, strides, usage, &t);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "%s: got %d", what, r);
   ok(strstr(log, log_word) != NULL, "%s: log mentions \"%s\"", what, log_word);
   if (r == VK_SUCCESS)
      destroy_tensor(device, t, NULL);
}

static void
check_invalid(void)
{
   test_set_context("invalid");
   const int64_t dims7[7] = {1, 1, 1, 1, 1, 1, 1};
   const int64_t dims[3] = {2, 3, 4};
   const int64_t zero[3] = {2, 0, 4};
   const int64_t small[3] = {48, 16, 2};    /* innermost < element size 4 */
   const int64_t odd[3] = {48, 18, 6};      /* not a multiple of 4 */
   const int64_t overlap[3] = {20, 16, 4};  /* 20 < 16 * 3 */
   const int64_t good[3] = {64, 16, 4};
   const int64_t wide[2] = {4, 8};
   VkFormat f = VK_FORMAT_R32_SINT;
   VkTensorTilingARM lin = VK_TENSOR_TILING_LINEAR_ARM, opt = VK_TENSOR_TILING_OPTIMAL_ARM;
   expect_invalid("rank 0", "dimensionCount", f, lin, 0, dims, NULL, 0);
   expect_invalid("rank 7", "dimensionCount", f, lin, 7, dims7, NULL, 0);
   expect_invalid("zero dimension", "pDimensions[1]", f, lin, 3, zero, NULL, 0);
   expect_invalid("stride below element", "element size", f, lin, 3, dims, small, 0);
   expect_invalid("misaligned stride", "multiple of the element size", f, lin, 3, dims, odd, 0);
   expect_invalid("overlapping strides", "overlap", f, lin, 3, dims, overlap, 0);
   expect_invalid("strides with optimal tiling", "optimal", f, opt, 3, dims, good, 0);
   expect_invalid("not a tensor format", "format", VK_FORMAT_R8G8B8A8_UNORM, lin, 3, dims, NULL,
                  0);
   expect_invalid("aliasing with innermost 8", "innermost dimension", f, opt, 2, wide, NULL,
                  VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM);
   /* Usage 0 is tolerated. */
   VkTensorARM t;
   ok(make_tensor(f, lin, 3, dims, good, 0, &t) == VK_SUCCESS, "usage 0 with strides");
   destroy_tensor(device, t, NULL);
}

static void
check_external(void)
{
   test_set_context("external");
   PFN_vkGetPhysicalDeviceExternalTensorPropertiesARM ext =
      (PFN_vkGetPhysicalDeviceExternalTensorPropertiesARM)vku_proc(
         &v, "vkGetPhysicalDeviceExternalTensorPropertiesARM");
   if (!ok(ext != NULL, "vkGetPhysicalDeviceExternalTensorPropertiesARM"))
      return;
   const int64_t dims[2] = {8, 8};
   VkTensorDescriptionARM desc = {.sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                  .tiling = VK_TENSOR_TILING_LINEAR_ARM,
                                  .format = VK_FORMAT_R32_SFLOAT,
                                  .dimensionCount = 2,
                                  .pDimensions = dims,
                                  .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM};
   const VkExternalMemoryHandleTypeFlagBits types[] = {
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT,
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
   for (unsigned i = 0; i < 3; i++) {
      VkPhysicalDeviceExternalTensorInfoARM info = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_TENSOR_INFO_ARM,
         .pDescription = &desc,
         .handleType = types[i]};
      VkExternalTensorPropertiesARM props = {
         .sType = VK_STRUCTURE_TYPE_EXTERNAL_TENSOR_PROPERTIES_ARM};
      ext(v.physical_device, &info, &props);
      /* Independent answer: the same question asked about a storage buffer. */
      VkPhysicalDeviceExternalBufferInfo binfo = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
         .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                  VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
         .handleType = types[i]};
      VkExternalBufferProperties bprops = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
      vkGetPhysicalDeviceExternalBufferProperties(v.physical_device, &binfo, &bprops);
      ok(memcmp(&props.externalMemoryProperties, &bprops.externalMemoryProperties,
                sizeof(bprops.externalMemoryProperties)) == 0,
         "handle type 0x%x matches the buffer answer", types[i]);
   }
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   const char *ext[] = {"VK_ARM_tensors"};
   if (!ok(vku_create_device(&v, ext, 1, NULL, &device) == VK_SUCCESS, "device"))
      return test_done();
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(device_tensor_reqs, "vkGetDeviceTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
#undef GET
   if (!ok(create_tensor && destroy_tensor && tensor_reqs && device_tensor_reqs && bind_tensor &&
              create_view && destroy_view,
           "entry points"))
      return test_done();
   check_layouts();
   check_strided_data();
   check_multi_bind();
   check_many_views();
   check_invalid();
   check_external();
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
