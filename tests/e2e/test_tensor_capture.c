/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_tensors with VK_EXT_descriptor_buffer capture/replay: without the
 * extension the two capture commands are NULL and the CAPTURE_REPLAY flag is
 * refused; with it (and the device's bufferDeviceAddressCaptureReplay) the
 * sizes are reported, a tensor's and a view's capture data are taken, the
 * objects destroyed and created again from that data, and the new objects
 * report the same data (same buffer address, same record slot). A view
 * replayed into a slot in use fails with VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS.
 * Devices without VK_EXT_descriptor_buffer (lavapipe 22.3) skip the second part.
 */
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static struct vku v;

struct fns {
   PFN_vkCreateTensorARM create_tensor;
   PFN_vkDestroyTensorARM destroy_tensor;
   PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
   PFN_vkBindTensorMemoryARM bind_tensor;
   PFN_vkCreateTensorViewARM create_view;
   PFN_vkDestroyTensorViewARM destroy_view;
   PFN_vkGetTensorOpaqueCaptureDescriptorDataARM tensor_capture;
   PFN_vkGetTensorViewOpaqueCaptureDescriptorDataARM view_capture;
};

static void
load(VkDevice device, struct fns *f)
{
#define GET(var, name) f->var = (__typeof__(f->var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
   GET(tensor_capture, "vkGetTensorOpaqueCaptureDescriptorDataARM");
   GET(view_capture, "vkGetTensorViewOpaqueCaptureDescriptorDataARM");
#undef GET
}

static const int64_t dims[2] = {16, 32};
static const VkTensorDescriptionARM desc = {
   .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
   .tiling = VK_TENSOR_TILING_LINEAR_ARM,
   .format = VK_FORMAT_R32_SFLOAT,
   .dimensionCount = 2,
   .pDimensions = dims,
   .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
};

static VkResult
make_tensor(VkDevice device, const struct fns *f, VkTensorCreateFlagsARM flags,
            const void *replay, VkTensorARM *t)
{
   VkOpaqueCaptureDescriptorDataCreateInfoEXT data = {
      .sType = VK_STRUCTURE_TYPE_OPAQUE_CAPTURE_DESCRIPTOR_DATA_CREATE_INFO_EXT,
      .opaqueCaptureDescriptorData = replay,
   };
   VkTensorCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pNext = replay ? &data : NULL,
      .flags = flags,
      .pDescription = &desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return f->create_tensor(device, &info, NULL, t);
}

static VkResult
make_view(VkDevice device, const struct fns *f, VkTensorARM t, VkTensorViewCreateFlagsARM flags,
          const void *replay, VkTensorViewARM *view)
{
   VkOpaqueCaptureDescriptorDataCreateInfoEXT data = {
      .sType = VK_STRUCTURE_TYPE_OPAQUE_CAPTURE_DESCRIPTOR_DATA_CREATE_INFO_EXT,
      .opaqueCaptureDescriptorData = replay,
   };
   VkTensorViewCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
      .pNext = replay ? &data : NULL,
      .flags = flags,
      .tensor = t,
      .format = VK_FORMAT_R32_SFLOAT,
   };
   return f->create_view(device, &info, NULL, view);
}

/* Memory for the tensor, with a capture-replay address (replayed when replay != 0). */
static VkResult
bind_memory(VkDevice device, const struct fns *f, VkTensorARM t, uint64_t replay,
            VkDeviceMemory *memory)
{
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
      .tensor = t,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   f->tensor_reqs(device, &ri, &req);
   uint32_t type = 0;
   while (type < 32 && !(req.memoryRequirements.memoryTypeBits & (1u << type)))
      type++;
   VkMemoryOpaqueCaptureAddressAllocateInfo address = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_OPAQUE_CAPTURE_ADDRESS_ALLOCATE_INFO,
      .opaqueCaptureAddress = replay,
   };
   VkMemoryAllocateFlagsInfo flags = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .pNext = replay ? &address : NULL,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT |
               VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT,
   };
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &flags,
      .allocationSize = req.memoryRequirements.size,
      .memoryTypeIndex = type,
   };
   VkResult r = vkAllocateMemory(device, &mai, NULL, memory);
   if (r != VK_SUCCESS)
      return r;
   VkBindTensorMemoryInfoARM bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
      .tensor = t,
      .memory = *memory,
   };
   return f->bind_tensor(device, 1, &bind);
}

static uint64_t
memory_address(VkDevice device, VkDeviceMemory memory)
{
   VkDeviceMemoryOpaqueCaptureAddressInfo info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_MEMORY_OPAQUE_CAPTURE_ADDRESS_INFO,
      .memory = memory,
   };
   return vkGetDeviceMemoryOpaqueCaptureAddress(device, &info);
}

static VkResult
tensor_data(VkDevice device, const struct fns *f, VkTensorARM t, uint64_t *data)
{
   VkTensorCaptureDescriptorDataInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CAPTURE_DESCRIPTOR_DATA_INFO_ARM,
      .tensor = t,
   };
   return f->tensor_capture(device, &info, data);
}

static VkResult
view_data(VkDevice device, const struct fns *f, VkTensorViewARM view, uint32_t *data)
{
   VkTensorViewCaptureDescriptorDataInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CAPTURE_DESCRIPTOR_DATA_INFO_ARM,
      .tensorView = view,
   };
   return f->view_capture(device, &info, data);
}

/* Without VK_EXT_descriptor_buffer: no capture commands, no CAPTURE_REPLAY flags. */
static void
check_without_extension(void)
{
   test_set_context("without VK_EXT_descriptor_buffer");
   const char *ext[] = {"VK_ARM_tensors"};
   VkDevice device;
   if (!ok(vku_create_device(&v, ext, 1, NULL, &device) == VK_SUCCESS, "device"))
      return;
   struct fns f;
   load(device, &f);
   ok(f.create_tensor && f.create_view, "tensor commands");
   ok(!f.tensor_capture && !f.view_capture, "capture commands are NULL");
   VkTensorARM t = VK_NULL_HANDLE;
   if (f.create_tensor) {
      VkResult r =
         make_tensor(device, &f, VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM, NULL, &t);
      check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
      if (r == VK_SUCCESS)
         f.destroy_tensor(device, t, NULL);
   }
   vkDestroyDevice(device, NULL);
}

/* Why this device cannot run the capture/replay part, or NULL. */
static const char *
capture_unsupported(char *why, size_t size)
{
   if (!vku_has_device_extension(&v, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME))
      return "the device lacks VK_EXT_descriptor_buffer (tensor capture/replay needs it)";
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
   };
   VkPhysicalDeviceVulkan12Features v12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = &db,
   };
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &v12,
   };
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   if (!db.descriptorBufferCaptureReplay || !v12.bufferDeviceAddressCaptureReplay) {
      snprintf(why, size,
               "the device lacks descriptorBufferCaptureReplay (%u) or "
               "bufferDeviceAddressCaptureReplay (%u)",
               db.descriptorBufferCaptureReplay, v12.bufferDeviceAddressCaptureReplay);
      return why;
   }
   return NULL;
}

static void
check_reported(void)
{
   test_set_context("features and properties");
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
   };
   tf.descriptorBufferTensorDescriptors = VK_TRUE; /* must be overwritten */
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &tf,
   };
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   /* Offered with descriptor buffers (D31): this test runs only where the device has them. */
   check_eq_u64(tf.descriptorBufferTensorDescriptors, VK_TRUE);
   VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
   };
   VkPhysicalDeviceDescriptorBufferTensorPropertiesARM tp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM,
      .pNext = &dbp,
      .tensorDescriptorSize = 12345,
   };
   VkPhysicalDeviceProperties2 p2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
      .pNext = &tp,
   };
   vkGetPhysicalDeviceProperties2(v.physical_device, &p2);
   check_eq_u64(tp.tensorCaptureReplayDescriptorDataSize, 8);
   check_eq_u64(tp.tensorViewCaptureReplayDescriptorDataSize, 4);
   /* A tensor descriptor is the storage-buffer descriptor of the view's record (D31). */
   check_eq_u64(tp.tensorDescriptorSize, dbp.storageBufferDescriptorSize);
}

static void
check_capture_replay(VkDevice device, const struct fns *f)
{
   const VkTensorCreateFlagsARM tflag = VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM;
   const VkTensorViewCreateFlagsARM vflag =
      VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM;

   test_set_context("capture");
   VkTensorARM t;
   VkDeviceMemory memory;
   if (!ok(make_tensor(device, f, tflag, NULL, &t) == VK_SUCCESS, "tensor"))
      return;
   if (!check_eq_i64(bind_memory(device, f, t, 0, &memory), VK_SUCCESS))
      return;
   uint64_t memory_captured = memory_address(device, memory);
   /* May be 0: an implementation whose buffer addresses follow from their
    * memory's (the replayed memory then gives the same address). */
   uint64_t tensor_captured = 0;
   check_eq_i64(tensor_data(device, f, t, &tensor_captured), VK_SUCCESS);
   /* Some plain views first, so that the captured one is not in slot 0. */
   VkTensorViewARM plain[3];
   for (unsigned i = 0; i < 3; i++)
      check_eq_i64(make_view(device, f, t, 0, NULL, &plain[i]), VK_SUCCESS);
   VkTensorViewARM view;
   check_eq_i64(make_view(device, f, t, vflag, NULL, &view), VK_SUCCESS);
   uint32_t view_captured = 0xffffffffu;
   check_eq_i64(view_data(device, f, view, &view_captured), VK_SUCCESS);
   printf("captured: tensor 0x%llx, view slot 0x%08x, memory 0x%llx\n",
          (unsigned long long)tensor_captured, view_captured,
          (unsigned long long)memory_captured);
   fflush(stdout);
   uint32_t plain_data;
   check_eq_i64(view_data(device, f, plain[0], &plain_data), VK_ERROR_VALIDATION_FAILED_EXT);

   /* Everything captured goes away. */
   f->destroy_view(device, view, NULL);
   for (unsigned i = 0; i < 3; i++)
      f->destroy_view(device, plain[i], NULL);
   f->destroy_tensor(device, t, NULL);
   vkFreeMemory(device, memory, NULL);

   test_set_context("replay");
   /* In capture order: the memory and tensor first (before any other
    * allocation could take the address range). */
   VkDeviceMemory replay_memory;
   if (!ok(make_tensor(device, f, tflag, &tensor_captured, &t) == VK_SUCCESS, "replayed tensor"))
      return;
   if (!check_eq_i64(bind_memory(device, f, t, memory_captured, &replay_memory), VK_SUCCESS)) {
      f->destroy_tensor(device, t, NULL);
      return;
   }
   check_eq_u64(memory_address(device, replay_memory), memory_captured);
   uint64_t tensor_replayed = 0;
   check_eq_i64(tensor_data(device, f, t, &tensor_replayed), VK_SUCCESS);
   check_eq_u64(tensor_replayed, tensor_captured);

   /* Views of other tensors take slots meanwhile: the replayed view must still
    * get its own back. */
   VkTensorARM other;
   VkDeviceMemory other_memory;
   VkTensorViewARM others[2];
   check_eq_i64(make_tensor(device, f, 0, NULL, &other), VK_SUCCESS);
   check_eq_i64(bind_memory(device, f, other, 0, &other_memory), VK_SUCCESS);
   for (unsigned i = 0; i < 2; i++)
      check_eq_i64(make_view(device, f, other, 0, NULL, &others[i]), VK_SUCCESS);
   VkTensorViewARM replayed = VK_NULL_HANDLE;
   VkResult r = make_view(device, f, t, vflag, &view_captured, &replayed);
   check_eq_i64(r, VK_SUCCESS);
   uint32_t view_replayed = 0xffffffffu;
   if (r == VK_SUCCESS)
      check_eq_i64(view_data(device, f, replayed, &view_replayed), VK_SUCCESS);
   check_eq_u64(view_replayed, view_captured);

   test_set_context("replay into a slot in use");
   VkTensorViewARM twin = VK_NULL_HANDLE;
   check_eq_i64(make_view(device, f, t, vflag, &view_captured, &twin),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   uint32_t other_slot;
   VkTensorViewARM capturable;
   check_eq_i64(make_view(device, f, other, vflag, NULL, &capturable), VK_SUCCESS);
   check_eq_i64(view_data(device, f, capturable, &other_slot), VK_SUCCESS);
   ok(other_slot != view_captured, "a new view gets another slot");
   check_eq_i64(make_view(device, f, t, vflag, &other_slot, &twin),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   const uint32_t out_of_range = 0x00000100u; /* index 256 of chunk 0 */
   check_eq_i64(make_view(device, f, t, vflag, &out_of_range, &twin),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);

   test_set_context("replay into a chunk not made yet");
   const uint32_t far = 2u << 16 | 5u;
   VkTensorViewARM far_view = VK_NULL_HANDLE;
   r = make_view(device, f, t, vflag, &far, &far_view);
   check_eq_i64(r, VK_SUCCESS);
   uint32_t far_data = 0;
   if (r == VK_SUCCESS)
      check_eq_i64(view_data(device, f, far_view, &far_data), VK_SUCCESS);
   check_eq_u64(far_data, far);

   f->destroy_view(device, far_view, NULL);
   f->destroy_view(device, capturable, NULL);
   f->destroy_view(device, replayed, NULL);
   for (unsigned i = 0; i < 2; i++)
      f->destroy_view(device, others[i], NULL);
   f->destroy_tensor(device, t, NULL);
   f->destroy_tensor(device, other, NULL);
   vkFreeMemory(device, replay_memory, NULL);
   vkFreeMemory(device, other_memory, NULL);
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   check_without_extension();

   char why[256];
   const char *missing = capture_unsupported(why, sizeof(why));
   if (missing) {
      vku_finish(&v);
      if (test_state.failed)
         return test_done();
      return test_skip(missing);
   }
   check_reported();

   test_set_context("device");
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
      .descriptorBuffer = VK_TRUE,
      .descriptorBufferCaptureReplay = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors", VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
   VkDevice device;
   if (!ok(vku_create_device(&v, ext, 2, &db, &device) == VK_SUCCESS, "device"))
      return test_done();
   struct fns f;
   load(device, &f);
   if (ok(f.create_tensor && f.tensor_capture && f.view_capture, "entry points"))
      check_capture_replay(device, &f);
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
