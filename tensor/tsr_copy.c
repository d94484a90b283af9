/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vkCmdCopyTensorARM: validates the copy, reduces each region to runs of
 * bytes contiguous in both tensors, and records either vkCmdCopyBuffer (few
 * runs) or the compute copy kernel (shaders/tensor/copy.comp, many runs),
 * whose pipelines it creates at first use and destroys with the device. The
 * kernel path wraps its dispatches in barriers and then puts the
 * application's compute state back (tsr_cmd_state.c tracks that state).
 * docs/decisions.md D10 says when each path is used and why.
 * Recording allocates nothing of its own: a kernel pipeline that cannot be
 * created (out of memory included) or a compute state that is not tracked
 * sends the region to buffer copies, so the copy is always recorded. Invalid
 * usage (a null tensor, a region out of bounds) is logged and left out.
 */
#include "tsr_private.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "kernel_abi/tensor_copy.h"
#include "vmel_kernels_tensor.h"

/* Regions with at most this many runs become one vkCmdCopyBuffer; it is also
 * the batch size of buffer copies with more runs. */
#define TSR_COPY_MAX_BUFFER_REGIONS 64

static const enum tsr_kernel_id unit_kernels[TSR_COPY_UNIT_COUNT] = {
   [TSR_COPY_UNIT_1] = TSR_KERNEL_COPY_U8,  [TSR_COPY_UNIT_2] = TSR_KERNEL_COPY_U16,
   [TSR_COPY_UNIT_4] = TSR_KERNEL_COPY_U32, [TSR_COPY_UNIT_8] = TSR_KERNEL_COPY_U64,
   [TSR_COPY_UNIT_16] = TSR_KERNEL_COPY_U128,
};

/*
 * One region after reduction: rank outer dimensions (outermost first) of runs
 * of run bytes that are contiguous in both tensors. Dimensions of extent 1
 * are dropped, inner dimensions contiguous in both tensors join the run, and
 * neighbouring dimensions that are contiguous with each other in both tensors
 * merge. A packed-to-packed copy of a whole tensor is rank 0: one run.
 */
struct copy_plan {
   uint32_t rank;
   uint64_t extent[TSR_MAX_RANK];
   uint64_t src_stride[TSR_MAX_RANK]; /* bytes */
   uint64_t dst_stride[TSR_MAX_RANK]; /* bytes */
   uint64_t run;                      /* bytes */
   uint64_t runs;                     /* product of extent[] */
   uint64_t src_offset, dst_offset;   /* of the region's first byte in each tensor */
   uint64_t src_span, dst_span;       /* first byte to one past the last byte touched */
};

/* ---- validation and reduction ----------------------------------------- */

static bool
tensor_usable(const struct tsr_tensor *t, const char *which, VkTensorUsageFlagsARM usage,
              const char *usage_name, const char *vuid)
{
   if (!t) {
      lyr_loge("vkCmdCopyTensorARM: %s is VK_NULL_HANDLE; copy skipped", which);
      return false;
   }
   if (!(t->usage & usage)) {
      lyr_loge("vkCmdCopyTensorARM: %s lacks %s usage (%s); copy skipped", which, usage_name, vuid);
      return false;
   }
   if (!t->memory || !t->address) {
      lyr_loge("vkCmdCopyTensorARM: %s is not bound to memory; copy skipped", which);
      return false;
   }
   return true;
}

/* The checks that apply to the whole copy (VkCopyTensorInfoARM valid usage). */
static bool
copy_info_valid(const VkCopyTensorInfoARM *info, const struct tsr_tensor *src,
                const struct tsr_tensor *dst)
{
   if (info->sType != VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM) {
      lyr_loge("vkCmdCopyTensorARM: pCopyTensorInfo->sType is %d; copy skipped", info->sType);
      return false;
   }
   if (!tensor_usable(src, "srcTensor", VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, "TRANSFER_SRC",
                      "VUID-VkCopyTensorInfoARM-srcTensor-09691") ||
       !tensor_usable(dst, "dstTensor", VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, "TRANSFER_DST",
                      "VUID-VkCopyTensorInfoARM-dstTensor-09693"))
      return false;
   if (src->rank != dst->rank) {
      lyr_loge("vkCmdCopyTensorARM: srcTensor has %u dimensions, dstTensor %u "
               "(VUID-VkCopyTensorInfoARM-srcTensor-09684); copy skipped",
               src->rank, dst->rank);
      return false;
   }
   if (src->element_size != dst->element_size) {
      lyr_loge("vkCmdCopyTensorARM: formats %d and %d are not size-compatible (%u and %u "
               "bytes); copy skipped",
               src->format, dst->format, src->element_size, dst->element_size);
      return false;
   }
   if (info->regionCount && !info->pRegions) {
      lyr_loge("vkCmdCopyTensorARM: pRegions is NULL with regionCount %u; copy skipped",
               info->regionCount);
      return false;
   }
   return true;
}

/* Checks one region against both tensors and reduces it. Returns false when
 * the region is invalid (logged) or copies nothing (*empty set). */
static bool
region_plan(const struct tsr_tensor *src, const struct tsr_tensor *dst, const VkTensorCopyARM *r,
            uint32_t index, struct copy_plan *plan, bool *empty)
{
   const uint32_t rank = src->rank;
   *empty = false;
   if (r->sType != VK_STRUCTURE_TYPE_TENSOR_COPY_ARM) {
      lyr_loge("vkCmdCopyTensorARM: pRegions[%u].sType is %d; region skipped", index, r->sType);
      return false;
   }
   /* VkTensorCopyARM: with dimensionCount 0 the arrays must be NULL
    * (VUID-VkTensorCopyARM-dimensionCount-09955) and the region is the whole
    * source tensor at offset 0; otherwise it gives one entry per dimension. */
   if (r->dimensionCount == 0 && (r->pSrcOffset || r->pDstOffset || r->pExtent)) {
      lyr_loge("vkCmdCopyTensorARM: pRegions[%u].dimensionCount is 0 but an offset or extent "
               "array is given (VUID-VkTensorCopyARM-dimensionCount-09955); region skipped",
               index);
      return false;
   }
   if (r->dimensionCount != 0 && r->dimensionCount != rank) {
      lyr_loge("vkCmdCopyTensorARM: pRegions[%u].dimensionCount is %u, the tensors have %u "
               "dimensions; region skipped",
               index, r->dimensionCount, rank);
      return false;
   }

   uint64_t extent[TSR_MAX_RANK];
   plan->src_offset = plan->dst_offset = 0;
   for (uint32_t i = 0; i < rank; i++) {
      uint64_t e = r->pExtent ? r->pExtent[i] : (uint64_t)src->dims[i];
      uint64_t so = r->pSrcOffset ? r->pSrcOffset[i] : 0;
      uint64_t dof = r->pDstOffset ? r->pDstOffset[i] : 0;
      uint64_t sd = (uint64_t)src->dims[i], dd = (uint64_t)dst->dims[i];
      if (so > sd || e > sd - so || dof > dd || e > dd - dof) {
         lyr_loge("vkCmdCopyTensorARM: pRegions[%u], dimension %u: extent %" PRIu64
                  " at source offset %" PRIu64 " (of %" PRIu64 ") or destination offset %" PRIu64
                  " (of %" PRIu64 ") is out of bounds; region skipped",
                  index, i, e, so, sd, dof, dd);
         return false;
      }
      extent[i] = e;
      plan->src_offset += so * (uint64_t)src->strides[i];
      plan->dst_offset += dof * (uint64_t)dst->strides[i];
   }
   for (uint32_t i = 0; i < rank; i++) {
      if (extent[i] == 0) {
         *empty = true;
         return false;
      }
   }

   /* Keep dimensions of extent > 1, outermost first. */
   uint32_t n = 0;
   for (uint32_t i = 0; i < rank; i++) {
      if (extent[i] == 1)
         continue;
      plan->extent[n] = extent[i];
      plan->src_stride[n] = (uint64_t)src->strides[i];
      plan->dst_stride[n] = (uint64_t)dst->strides[i];
      n++;
   }
   /* Inner dimensions contiguous in both tensors join the run. */
   plan->run = src->element_size;
   while (n > 0 && plan->src_stride[n - 1] == plan->run && plan->dst_stride[n - 1] == plan->run) {
      plan->run *= plan->extent[n - 1];
      n--;
   }
   /* Merge a dimension into the one outside it when they are contiguous in both. */
   uint32_t k = 0;
   for (uint32_t i = 0; i < n; i++) {
      if (k > 0 && plan->src_stride[k - 1] == plan->src_stride[i] * plan->extent[i] &&
          plan->dst_stride[k - 1] == plan->dst_stride[i] * plan->extent[i]) {
         plan->extent[k - 1] *= plan->extent[i];
         plan->src_stride[k - 1] = plan->src_stride[i];
         plan->dst_stride[k - 1] = plan->dst_stride[i];
      } else {
         plan->extent[k] = plan->extent[i];
         plan->src_stride[k] = plan->src_stride[i];
         plan->dst_stride[k] = plan->dst_stride[i];
         k++;
      }
   }
   plan->rank = k;
   plan->runs = 1;
   plan->src_span = plan->dst_span = plan->run;
   for (uint32_t i = 0; i < k; i++) {
      plan->runs *= plan->extent[i];
      plan->src_span += (plan->extent[i] - 1) * plan->src_stride[i];
      plan->dst_span += (plan->extent[i] - 1) * plan->dst_stride[i];
   }
   return true;
}

/* True when the bytes the region reads and writes may share memory. */
static bool
plan_spans_overlap(const struct tsr_tensor *src, const struct tsr_tensor *dst,
                   const struct copy_plan *p)
{
   if (src->memory != dst->memory)
      return false;
   uint64_t s = src->memory_offset + p->src_offset, d = dst->memory_offset + p->dst_offset;
   return s < d + p->dst_span && d < s + p->src_span;
}

/* ---- buffer copies ----------------------------------------------------- */

/* One VkBufferCopy per run, in batches. With one_per_call, each run gets its
 * own vkCmdCopyBuffer and a run whose source and destination bytes overlap is
 * skipped (regions of one buffer must not overlap, VUID-vkCmdCopyBuffer-pRegions-00117). */
static void
record_buffer_copies(struct tsr_device *device, VkCommandBuffer cmd, const struct tsr_tensor *src,
                     const struct tsr_tensor *dst, const struct copy_plan *p, bool one_per_call)
{
   VkBufferCopy batch[TSR_COPY_MAX_BUFFER_REGIONS];
   uint32_t count = 0;
   uint64_t index[TSR_MAX_RANK] = {0};
   bool overlap_logged = false;
   for (uint64_t r = 0; r < p->runs; r++) {
      VkDeviceSize so = p->src_offset, dof = p->dst_offset;
      for (uint32_t d = 0; d < p->rank; d++) {
         so += index[d] * p->src_stride[d];
         dof += index[d] * p->dst_stride[d];
      }
      bool skip = one_per_call && so < dof + p->run && dof < so + p->run;
      if (skip && !overlap_logged) {
         lyr_loge("vkCmdCopyTensorARM: source and destination bytes overlap in one tensor; "
                  "overlapping runs skipped");
         overlap_logged = true;
      }
      if (!skip)
         batch[count++] = (VkBufferCopy){.srcOffset = so, .dstOffset = dof, .size = p->run};
      if (count == LYR_ARRAY_SIZE(batch) || (one_per_call && count)) {
         device->base.next.CmdCopyBuffer(cmd, src->buffer, dst->buffer, count, batch);
         count = 0;
      }
      for (uint32_t d = p->rank; d-- > 0;) {
         if (++index[d] < p->extent[d])
            break;
         index[d] = 0;
      }
   }
   if (count)
      device->base.next.CmdCopyBuffer(cmd, src->buffer, dst->buffer, count, batch);
}

/* ---- the copy kernel --------------------------------------------------- */

static VkResult
pipeline_create(struct tsr_device *device, enum tsr_copy_unit unit, VkPipeline *pipeline)
{
   const struct vmel_kernel *k = &tsr_kernels[unit_kernels[unit]];
   if (k->local_size[1] != 1 || k->local_size[2] != 1)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "kernel %s: workgroup %ux%ux%u, not 1-D",
                       k->name, k->local_size[0], k->local_size[1], k->local_size[2]);
   VkResult result = lyr_create_compute_pipeline(&device->base, k->code, k->word_count,
                                                 device->copy->layout, NULL, VK_NULL_HANDLE,
                                                 pipeline);
   if (result != VK_SUCCESS)
      return lyr_error(result, "kernel %s: creating its compute pipeline failed", k->name);
   return VK_SUCCESS;
}

/* The pipeline of a unit, created at first use; VK_NULL_HANDLE if it cannot be. */
static VkPipeline
copy_pipeline(struct tsr_device *device, enum tsr_copy_unit unit)
{
   struct tsr_copy_state *c = device->copy;
   VkPipeline pipeline = atomic_load(&c->pipelines[unit]);
   if (pipeline)
      return pipeline;
   pthread_mutex_lock(&c->lock);
   pipeline = atomic_load(&c->pipelines[unit]);
   if (!pipeline && !c->failed[unit]) {
      /* Lack of memory may pass: tried again at the next copy; other failures are final. */
      VkResult result = pipeline_create(device, unit, &pipeline);
      c->failed[unit] = result != VK_SUCCESS && result != VK_ERROR_OUT_OF_HOST_MEMORY &&
                        result != VK_ERROR_OUT_OF_DEVICE_MEMORY;
      if (pipeline)
         atomic_store(&c->pipelines[unit], pipeline);
   }
   pthread_mutex_unlock(&c->lock);
   return pipeline;
}

/* The widest unit that divides the run, both start addresses and every
 * stride, among those the device can load and store. */
static bool
plan_unit(const struct tsr_device *device, const struct copy_plan *p, uint64_t src_address,
          uint64_t dst_address, enum tsr_copy_unit *unit)
{
   uint64_t bits = p->run | src_address | dst_address;
   for (uint32_t d = 0; d < p->rank; d++)
      bits |= p->src_stride[d] | p->dst_stride[d];
   int u = TSR_COPY_UNIT_16;
   while (u > TSR_COPY_UNIT_1 && (bits & ((1u << u) - 1)))
      u--;
   const struct lyr_feature_request *f = &device->caps.device_features;
   if (u == TSR_COPY_UNIT_2 && !f->storage_buffer_16bit_access)
      u = TSR_COPY_UNIT_1;
   if (u == TSR_COPY_UNIT_1 && !f->storage_buffer_8bit_access)
      return false;
   *unit = (enum tsr_copy_unit)u;
   return true;
}

/* Fills the kernel's arguments: the plan's dimensions plus the run, in units. */
static bool
plan_args(const struct copy_plan *p, enum tsr_copy_unit unit, uint64_t src_address,
          uint64_t dst_address, struct vmel_copy_args *args, uint64_t *units)
{
   const uint32_t unit_bytes = 1u << unit;
   if (p->rank + 1 > VMEL_COPY_MAX_DIMS)
      return false;
   memset(args, 0, sizeof(*args));
   args->src[0] = (uint32_t)src_address;
   args->src[1] = (uint32_t)(src_address >> 32);
   args->dst[0] = (uint32_t)dst_address;
   args->dst[1] = (uint32_t)(dst_address >> 32);
   args->rank = p->rank + 1;
   *units = p->runs * (p->run / unit_bytes);
   /* Every offset is below the tensor size (at most maxStorageBufferRange). */
   if (*units > UINT32_MAX || p->src_span > UINT32_MAX || p->dst_span > UINT32_MAX)
      return false;
   for (uint32_t d = 0; d < p->rank; d++) {
      args->extent[d] = (uint32_t)p->extent[d];
      args->src_stride[d] = (uint32_t)p->src_stride[d];
      args->dst_stride[d] = (uint32_t)p->dst_stride[d];
   }
   args->extent[p->rank] = (uint32_t)(p->run / unit_bytes);
   args->src_stride[p->rank] = unit_bytes;
   args->dst_stride[p->rank] = unit_bytes;
   return true;
}

/*
 * The application synchronizes vkCmdCopyTensorARM with the transfer stage,
 * but the kernel runs in the compute stage. Before it: transfer and compute
 * writes (chained from the application's barriers into the transfer stage)
 * become visible to the kernel. After it: its writes become visible to the
 * transfer stage (which the application's later barriers chain from), to
 * compute and to the host.
 */
static void
kernel_barrier(struct tsr_device *device, VkCommandBuffer cmd, const struct tsr_tensor *src,
               const struct tsr_tensor *dst, bool before)
{
   VkAccessFlags src_access, dst_access;
   VkPipelineStageFlags src_stages, dst_stages;
   if (before) {
      src_stages = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      src_access = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      dst_stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      dst_access = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
   } else {
      src_stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      src_access = VK_ACCESS_SHADER_WRITE_BIT;
      dst_stages = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                   VK_PIPELINE_STAGE_HOST_BIT;
      dst_access = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                   VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
   }
   VkBufferMemoryBarrier barriers[2];
   const VkBuffer buffers[2] = {src->buffer, dst->buffer};
   uint32_t count = src->buffer == dst->buffer ? 1 : 2;
   for (uint32_t i = 0; i < count; i++) {
      barriers[i] = (VkBufferMemoryBarrier){
         .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
         .srcAccessMask = src_access,
         .dstAccessMask = dst_access,
         .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
         .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
         .buffer = buffers[i],
         .offset = 0,
         .size = VK_WHOLE_SIZE,
      };
   }
   device->base.next.CmdPipelineBarrier(cmd, src_stages, dst_stages, 0, 0, NULL, count, barriers, 0,
                                        NULL);
}

/* What one vkCmdCopyTensorARM records, across its regions. */
struct copy_recording {
   struct tsr_device *device;
   VkCommandBuffer cmd;
   const struct tsr_tensor *src, *dst;
   struct lyr_cmd_state *state;
   bool kernel_allowed; /* the command buffer and tensors allow compute work */
   bool kernel_used;    /* the barrier before the first dispatch is recorded */
   VkPipeline bound;    /* the copy pipeline bound last, or null */
};

/* Records a region with the kernel; false when it cannot (nothing recorded). */
static bool
record_kernel(struct copy_recording *rec, const struct copy_plan *p)
{
   struct tsr_device *device = rec->device;
   uint64_t src_address = rec->src->address + p->src_offset;
   uint64_t dst_address = rec->dst->address + p->dst_offset;
   enum tsr_copy_unit unit;
   struct vmel_copy_args args;
   uint64_t units;
   if (!rec->kernel_allowed || !plan_unit(device, p, src_address, dst_address, &unit) ||
       !plan_args(p, unit, src_address, dst_address, &args, &units))
      return false;
   VkPipeline pipeline = copy_pipeline(device, unit);
   if (!pipeline)
      return false;

   if (!rec->kernel_used) {
      kernel_barrier(device, rec->cmd, rec->src, rec->dst, true);
      rec->kernel_used = true;
   }
   if (rec->bound != pipeline) {
      device->base.next.CmdBindPipeline(rec->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      rec->bound = pipeline;
   }
   /* Workgroups of the registry's size; each dispatch within the x and y
    * limits, and under 2^31 invocations so 32-bit indices cannot wrap. */
   const uint64_t local = tsr_kernels[unit_kernels[unit]].local_size[0];
   const uint64_t max_x = device->copy->max_groups[0], max_y = device->copy->max_groups[1];
   uint64_t per_dispatch = max_x * max_y;
   if (per_dispatch > (UINT64_C(1) << 31) / local)
      per_dispatch = (UINT64_C(1) << 31) / local;
   const uint64_t groups = (units + local - 1) / local;
   uint32_t dispatches = 0;
   for (uint64_t first = 0; first < groups;) {
      uint64_t g = groups - first < per_dispatch ? groups - first : per_dispatch;
      uint64_t gx = g < max_x ? g : max_x;
      uint64_t gy = g / gx;
      uint64_t covered = gx * gy * local, base = first * local;
      args.base = (uint32_t)base;
      args.count = (uint32_t)(units - base < covered ? units - base : covered);
      device->base.next.CmdPushConstants(rec->cmd, device->copy->layout,
                                         VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(args), &args);
      device->base.next.CmdDispatch(rec->cmd, (uint32_t)gx, (uint32_t)gy, 1);
      first += gx * gy;
      dispatches++;
   }
   lyr_logd("vkCmdCopyTensorARM: kernel %s, %" PRIu64 " units in %u dispatches",
            tsr_kernels[unit_kernels[unit]].name, units, dispatches);
   return true;
}

static void
record_region(struct copy_recording *rec, const struct copy_plan *p)
{
   const enum tsr_copy_mode mode = rec->device->copy->mode;
   /* Regions of one buffer whose byte spans intersect go to the kernel: buffer
    * copies of one buffer must not overlap even where the runs interleave. */
   bool same_buffer =
      rec->src->buffer == rec->dst->buffer && plan_spans_overlap(rec->src, rec->dst, p);
   bool kernel = mode == TSR_COPY_KERNEL ||
                 (mode == TSR_COPY_AUTO &&
                  (p->runs > TSR_COPY_MAX_BUFFER_REGIONS || same_buffer));
   if (kernel && record_kernel(rec, p))
      return;
   lyr_logd("vkCmdCopyTensorARM: %" PRIu64 " buffer copies of %" PRIu64 " bytes%s", p->runs,
            p->run, same_buffer ? ", one per vkCmdCopyBuffer" : "");
   record_buffer_copies(rec->device, rec->cmd, rec->src, rec->dst, p, same_buffer);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdCopyTensorARM(VkCommandBuffer commandBuffer, const VkCopyTensorInfoARM *pCopyTensorInfo)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   const VkCopyTensorInfoARM *info = pCopyTensorInfo;
   if (!info) {
      lyr_loge("vkCmdCopyTensorARM: pCopyTensorInfo is NULL");
      return;
   }
   const struct tsr_tensor *src = tsr_tensor_from_handle(info->srcTensor);
   const struct tsr_tensor *dst = tsr_tensor_from_handle(info->dstTensor);
   if (!copy_info_valid(info, src, dst))
      return;

   struct copy_recording rec = {
      .device = device,
      .cmd = commandBuffer,
      .src = src,
      .dst = dst,
      .state = lyr_cmd_state_get(&device->copy->cmds, commandBuffer),
   };
   /* Protected tensors stay on the transfer path (no device addresses there). */
   rec.kernel_allowed = lyr_cmd_state_can_dispatch(rec.state) &&
                        !((src->flags | dst->flags) & VK_TENSOR_CREATE_PROTECTED_BIT_ARM);

   for (uint32_t i = 0; i < info->regionCount; i++) {
      struct copy_plan plan;
      bool empty;
      if (region_plan(src, dst, &info->pRegions[i], i, &plan, &empty))
         record_region(&rec, &plan);
      else if (empty)
         lyr_logd("vkCmdCopyTensorARM: pRegions[%u] has an extent of 0; nothing to copy", i);
   }

   if (rec.kernel_used) {
      kernel_barrier(device, commandBuffer, src, dst, false);
      lyr_cmd_state_restore_compute(
         &device->copy->cmds, rec.state, commandBuffer,
         &(struct lyr_cmd_disturbed){.pipeline = true, .push_constants = true});
   }
}

/* ---- hooks, setup ------------------------------------------------------ */

static const struct lyr_hook hooks[] = {
   TSR_HOOK(CmdCopyTensorARM, tsr_CmdCopyTensorARM),
   /* The state the copy kernel must restore (tsr_cmd_state.c). */
   TSR_HOOK(CreateCommandPool, tsr_CreateCommandPool),
   TSR_HOOK(DestroyCommandPool, tsr_DestroyCommandPool),
   TSR_HOOK(ResetCommandPool, tsr_ResetCommandPool),
   TSR_HOOK(AllocateCommandBuffers, tsr_AllocateCommandBuffers),
   TSR_HOOK(FreeCommandBuffers, tsr_FreeCommandBuffers),
   TSR_HOOK(BeginCommandBuffer, tsr_BeginCommandBuffer),
   TSR_HOOK(EndCommandBuffer, tsr_EndCommandBuffer),
   TSR_HOOK(ResetCommandBuffer, tsr_ResetCommandBuffer),
   TSR_HOOK(CmdBindPipeline, tsr_CmdBindPipeline),
   TSR_HOOK(CmdPushConstants, tsr_CmdPushConstants),
};

const struct lyr_hook_table tsr_copy_hooks = LYR_HOOK_TABLE(hooks);

static enum tsr_copy_mode
mode_from_env(void)
{
   const char *s = getenv("VMEL_TENSOR_COPY");
   if (!s || !*s || strcmp(s, "auto") == 0)
      return TSR_COPY_AUTO;
   if (strcmp(s, "buffer") == 0)
      return TSR_COPY_BUFFER;
   if (strcmp(s, "kernel") == 0)
      return TSR_COPY_KERNEL;
   lyr_logw("VMEL_TENSOR_COPY=%s is not auto, buffer or kernel; using auto", s);
   return TSR_COPY_AUTO;
}

/* maxComputeWorkGroupCount[0..1], lowered by VMEL_TENSOR_COPY_MAX_GROUPS (tests
 * use it to exercise dispatch splitting on small copies). */
static void
max_groups_init(struct tsr_device *device, uint32_t max_groups[2])
{
   max_groups[0] = device->limits.maxComputeWorkGroupCount[0];
   max_groups[1] = device->limits.maxComputeWorkGroupCount[1];
   const char *s = getenv("VMEL_TENSOR_COPY_MAX_GROUPS");
   if (!s || !*s)
      return;
   char *end;
   unsigned long v = strtoul(s, &end, 10);
   if (*end || v == 0) {
      lyr_logw("VMEL_TENSOR_COPY_MAX_GROUPS=%s is not a positive number; ignored", s);
      return;
   }
   for (int i = 0; i < 2; i++) {
      if (v < max_groups[i])
         max_groups[i] = (uint32_t)v;
   }
}

VkResult
tsr_copy_init(struct tsr_device *device)
{
   struct tsr_copy_state *c = lyr_zalloc(&device->base.alloc, sizeof(*c), 8,
                                         VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!c)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "tensor copies: no memory for their state");
   c->mode = mode_from_env();
   max_groups_init(device, c->max_groups);

   VkPushConstantRange range = {
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
      .offset = 0,
      .size = sizeof(struct vmel_copy_args),
   };
   VkPipelineLayoutCreateInfo plci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   VkResult result = device->base.next.CreatePipelineLayout(device->base.handle, &plci,
                                                            &device->base.alloc, &c->layout);
   if (result != VK_SUCCESS) {
      result = lyr_error(result, "tensor copies: vkCreatePipelineLayout failed");
      goto fail_layout;
   }
   if ((result = lyr_cmd_tracker_init(&device->base, &c->cmds)) != VK_SUCCESS)
      goto fail_tracker;
   pthread_mutex_init(&c->lock, NULL);
   device->copy = c;
   return VK_SUCCESS;

fail_tracker:
   device->base.next.DestroyPipelineLayout(device->base.handle, c->layout, &device->base.alloc);
fail_layout:
   lyr_free(&device->base.alloc, c);
   return result;
}

void
tsr_copy_finish(struct tsr_device *device)
{
   struct tsr_copy_state *c = device->copy;
   if (!c)
      return;
   for (int u = 0; u < TSR_COPY_UNIT_COUNT; u++) {
      VkPipeline pipeline = atomic_load(&c->pipelines[u]);
      if (pipeline)
         device->base.next.DestroyPipeline(device->base.handle, pipeline, &device->base.alloc);
   }
   pthread_mutex_destroy(&c->lock);
   lyr_cmd_tracker_finish(&c->cmds);
   device->base.next.DestroyPipelineLayout(device->base.handle, c->layout, &device->base.alloc);
   device->copy = NULL;
   lyr_free(&device->base.alloc, c);
}
