/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Failure on every allocating entry point of both layers (issue 15), one table
 * (cases[]) swept twice:
 *  - host: the layers' k-th allocation fails, k = 0, 1, ... (the device and
 *    instance allocator, rec_alloc.h, tells the layers' allocations from the
 *    driver's and the loader's, which never fail);
 *  - driver: the k-th watched driver call fails (VK_LAYER_VMEL_test_fail_driver,
 *    tests/layers/fail_driver.h, enabled below our layers: VK_ERROR_OUT_OF_DEVICE_MEMORY
 *    from memory, buffers, descriptor pools and sets, VK_ERROR_OUT_OF_HOST_MEMORY
 *    from modules, pipelines, layouts, caches, command buffers), whoever makes it;
 * each until the call succeeds with nothing failed. Each failing call must return an
 * error its specification lists (VK_ERROR_OUT_OF_HOST_MEMORY for a host
 * allocation; OUT_OF_HOST or OUT_OF_DEVICE_MEMORY for a driver failure; never
 * VK_ERROR_UNKNOWN or success), hand out no handle, say so in a log line (a
 * driver failure of the application's own call passed down may come back
 * unlogged), and leave the layers' live allocations and the live driver objects
 * where they were. The call that then succeeds is checked where it computes
 * something: a graph pipeline and a session run against the reference, a
 * recording is submitted and its results checked. The entry points: instance
 * and device creation, tensors, views (and the first view of a new device,
 * which makes its chunk of view records), tensor memory (allocation and
 * binding), descriptor set layouts, pools, set allocation and updates (also
 * through an update template), shader modules and compute pipelines (a module
 * handle or a chained module) under both tensor lowering paths, data-graph
 * pipelines (with and without a pipeline cache), pipeline caches with
 * data-graph data, sessions and their memory binding, command buffer
 * allocation and a recording (graph dispatch, tensor barriers, events, tensor
 * copies). A recording may recover from a failed allocation (test_record_errors
 * says which): then it must succeed with the right results. A device leaves no
 * driver object behind at vkDestroyDevice (every row, and the direct lowering's
 * whole scene at the end), and after the last vkDestroyInstance nothing of the
 * layers' is allocated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "fail_driver.h"
#include "rec_alloc.h"
#include "rec_scene.h"
#include "spirv_text.h"
#include "test.h"

TEST_MAIN_STATE;

/* The fixture the cases create from (made unarmed); one per tensor lowering path. */
struct scene {
   struct dgu *u;
   bool direct;                  /* VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE=1 */
   const VkAllocationCallbacks *callbacks; /* the rec_alloc the device was made with */
   struct dgu_tensor tensor;     /* bound, with a view */
   VkDescriptorSetLayout layout; /* one tensor binding */
   VkDescriptorPool pool;
   VkShaderModule tensor_module; /* a compute shader with tensors */
   VkPipelineLayout compute_layout;
   struct dgu_pipeline_desc fp32_desc, int8_desc;
   struct dgu_graph fp32, int8;
   char *int8_text;
   VkPipelineCache cache;        /* for data-graph pipelines, filled by one creation */
   void *cache_data;             /* its data (malloc()ed) */
   size_t cache_size;
   struct rec_scene rec;         /* graph, session, sets, tensors of the recording */
   VkDescriptorUpdateTemplate rec_template; /* writes the recording's set */
   bool has_rec;
   /* the second object of a case that makes two */
   VkDeviceMemory side_memory;
   struct dgu_session side_session;
};

/* What a case promises beyond the common rules. */
enum {
   F_CACHES = 1 << 0,    /* may keep a cache entry made before the failure (host live may grow) */
   F_VOID = 1 << 1,      /* returns nothing: a failure is seen only in the log */
   F_RECOVERS = 1 << 2,  /* a failure may be recovered from: VK_SUCCESS, right results */
   F_HOST_ONLY = 1 << 3, /* no driver call below the fail layer (instance creation) */
   F_DIRECT = 1 << 4,    /* on the scene of the direct tensor lowering */
   F_LIBRARY = 1 << 5,   /* needs graphicsPipelineLibrary (a stage chaining its module) */
};

/* One entry point: make() creates into *handle (a Vulkan handle as uint64_t; a make that
 * creates more keeps the rest in the scene, and cleans up itself when it fails), unmake()
 * destroys it, check() (optional) checks what it computes. */
struct oom_case {
   const char *name;
   VkResult (*make)(struct scene *s, uint64_t *handle);
   void (*unmake)(struct scene *s, uint64_t handle);
   bool (*check)(struct scene *s, uint64_t handle);
   unsigned flags;
   /* The driver commands the test itself calls in make() (passed down by the layers as
    * the application's own, space-separated); by default the one the case is named for. */
   const char *own;
};

static struct rec_alloc alloc_state;
static PFN_vmelTestFailDriverControl fail_driver;

static long
ours_live(const struct rec_alloc *a)
{
   return __atomic_load_n(&a->live[REC_GRAPH], __ATOMIC_RELAXED) +
          __atomic_load_n(&a->live[REC_TENSOR], __ATOMIC_RELAXED);
}

static long
driver_live(void)
{
   struct fail_driver_stats st;
   fail_driver(FAIL_DRIVER_OFF, &st);
   long n = 0;
   for (int k = 0; k < FD_KINDS; k++)
      n += st.live[k];
   return n;
}

static long
driver_leaked(void)
{
   struct fail_driver_stats st;
   fail_driver(FAIL_DRIVER_OFF, &st);
   return st.leaked;
}

/* ---- the cases ---------------------------------------------------------------------------- */

static const int64_t dims4[2] = {4, 16};

static VkResult
make_tensor(struct scene *s, uint64_t *h)
{
   VkTensorDescriptionARM desc = dgu_description(VK_FORMAT_R32_SFLOAT, 2, dims4);
   desc.usage = VK_TENSOR_USAGE_SHADER_BIT_ARM;
   VkTensorCreateInfoARM info = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                 .pDescription = &desc};
   VkTensorARM t = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateTensorARM(s->u->device, &info, NULL, &t);
   *h = (uint64_t)t;
   return r;
}

static void
unmake_tensor(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyTensorARM(s->u->device, (VkTensorARM)h, NULL);
}

static VkResult
make_view(struct scene *s, uint64_t *h)
{
   VkTensorViewCreateInfoARM info = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                     .tensor = s->tensor.tensor,
                                     .format = VK_FORMAT_R32_SFLOAT};
   VkTensorViewARM v = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateTensorViewARM(s->u->device, &info, NULL, &v);
   *h = (uint64_t)v;
   return r;
}

static void
unmake_view(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyTensorViewARM(s->u->device, (VkTensorViewARM)h, NULL);
}

static const VkDescriptorSetLayoutBinding tensor_binding = {
    0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL};

static VkResult
make_set_layout(struct scene *s, uint64_t *h)
{
   VkDescriptorSetLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 1,
       .pBindings = &tensor_binding};
   VkDescriptorSetLayout l = VK_NULL_HANDLE;
   VkResult r = vkCreateDescriptorSetLayout(s->u->device, &info, NULL, &l);
   *h = (uint64_t)l;
   return r;
}

static void
unmake_set_layout(struct scene *s, uint64_t h)
{
   vkDestroyDescriptorSetLayout(s->u->device, (VkDescriptorSetLayout)h, NULL);
}

static VkResult
make_pool(struct scene *s, uint64_t *h)
{
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 8};
   VkDescriptorPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = 4,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   VkDescriptorPool p = VK_NULL_HANDLE;
   VkResult r = vkCreateDescriptorPool(s->u->device, &info, NULL, &p);
   *h = (uint64_t)p;
   return r;
}

static void
unmake_pool(struct scene *s, uint64_t h)
{
   vkDestroyDescriptorPool(s->u->device, (VkDescriptorPool)h, NULL);
}

static VkResult
make_set(struct scene *s, uint64_t *h)
{
   VkDescriptorSetAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = s->pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &s->layout};
   VkDescriptorSet set = VK_NULL_HANDLE;
   VkResult r = vkAllocateDescriptorSets(s->u->device, &info, &set);
   *h = (uint64_t)set;
   return r;
}

static void
unmake_set(struct scene *s, uint64_t h)
{
   VkDescriptorSet set = (VkDescriptorSet)h;
   vkFreeDescriptorSets(s->u->device, s->pool, 1, &set);
}


static uint32_t *shader_words;
static size_t shader_count;

/* A new local size each time, so that each module misses the lowering cache. */
static void
next_shader(void)
{
   static unsigned size = 16;
   char text[2048];
   const char *at = strstr(vku_tensor_copy_shader, "LocalSize 16");
   int head = (int)(at - vku_tensor_copy_shader);
   int n = snprintf(text, sizeof(text), "%.*sLocalSize %u%s", head, vku_tensor_copy_shader,
                    size++, at + strlen("LocalSize 16"));
   ok(n > 0 && (size_t)n < sizeof(text), "the shader text fits (%d bytes)", n);
   free(shader_words);
   shader_words = NULL;
   char err[256];
   ok(spirv_text_assemble(text, strlen(text), &shader_words, &shader_count, err, sizeof(err)),
      "assemble: %s", err);
}

static VkResult
make_shader_module(struct scene *s, uint64_t *h)
{
   next_shader();
   VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = shader_count * 4,
                                    .pCode = shader_words};
   VkShaderModule m = VK_NULL_HANDLE;
   VkResult r = vkCreateShaderModule(s->u->device, &info, NULL, &m);
   *h = (uint64_t)m;
   return r;
}

static void
unmake_shader_module(struct scene *s, uint64_t h)
{
   vkDestroyShaderModule(s->u->device, (VkShaderModule)h, NULL);
}

static VkResult
make_compute_pipeline(struct scene *s, uint64_t *h)
{
   VkComputePipelineCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = s->tensor_module,
                 .pName = "main"},
       .layout = s->compute_layout};
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = vkCreateComputePipelines(s->u->device, VK_NULL_HANDLE, 1, &info, NULL, &p);
   *h = (uint64_t)p;
   return r;
}

/* The tensor module chained to the stage (module VK_NULL_HANDLE): lowered at pipeline creation
 * (a new local size each time: a miss of the lowering cache). */
static VkResult
make_compute_pipeline_chained(struct scene *s, uint64_t *h)
{
   next_shader();
   VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = shader_count * 4,
                                    .pCode = shader_words};
   VkComputePipelineCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .pNext = &smci,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .pName = "main"},
       .layout = s->compute_layout};
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = vkCreateComputePipelines(s->u->device, VK_NULL_HANDLE, 1, &info, NULL, &p);
   *h = (uint64_t)p;
   return r;
}

static void
unmake_pipeline(struct scene *s, uint64_t h)
{
   vkDestroyPipeline(s->u->device, (VkPipeline)h, NULL);
}

static VkResult
make_graph(struct scene *s, const struct dgu_pipeline_desc *desc, const struct dgu_graph *g,
           uint64_t *h)
{
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!parts)
      return VK_ERROR_UNKNOWN;
   dgu_create_parts(desc, g, parts);
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateDataGraphPipelinesARM(s->u->device, VK_NULL_HANDLE,
                                                     VK_NULL_HANDLE, 1, &parts->info, NULL, &p);
   free(parts);
   *h = (uint64_t)p;
   return r;
}

static VkResult
make_graph_fp32(struct scene *s, uint64_t *h)
{
   return make_graph(s, &s->fp32_desc, &s->fp32, h);
}

static VkResult
make_graph_int8(struct scene *s, uint64_t *h)
{
   return make_graph(s, &s->int8_desc, &s->int8, h);
}

static VkResult
make_session(struct scene *s, uint64_t *h)
{
   VkDataGraphPipelineSessionCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .dataGraphPipeline = s->int8.pipeline};
   VkDataGraphPipelineSessionARM session = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateDataGraphPipelineSessionARM(s->u->device, &info, NULL, &session);
   *h = (uint64_t)session;
   return r;
}

static void
unmake_session(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyDataGraphPipelineSessionARM(s->u->device, (VkDataGraphPipelineSessionARM)h,
                                               NULL);
}

static VkResult
make_tensor_memory(struct scene *s, uint64_t *h)
{
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
       .tensor = s->tensor.tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   s->u->fn.GetTensorMemoryRequirementsARM(s->u->device, &ri, &req);
   VkMemoryDedicatedAllocateInfoTensorARM dedicated = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM,
       .tensor = s->tensor.tensor};
   VkMemoryAllocateInfo info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &dedicated,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = vku_memory_type(&s->u->v, req.memoryRequirements.memoryTypeBits, 0)};
   VkDeviceMemory m = VK_NULL_HANDLE;
   VkResult r = vkAllocateMemory(s->u->device, &info, NULL, &m);
   *h = (uint64_t)m;
   return r;
}

static void
unmake_memory(struct scene *s, uint64_t h)
{
   vkFreeMemory(s->u->device, (VkDeviceMemory)h, NULL);
}

/* The graph's fp32 session case and the checks run the recording scene's graph (CLAMP, ADD,
 * SUB over 64 floats) on its tensors. */
static bool
run_rec_graph(struct scene *s, VkPipeline pipeline, VkDataGraphPipelineSessionARM session,
              const char *what)
{
   struct dgu_graph g = s->rec.g;
   g.pipeline = pipeline;
   rec_scene_fill(&s->rec, 0.25f);
   if (!ok(dgu_run(s->u, &g, &s->rec.sets, session), "%s: the dispatch ran", what))
      return false;
   float want[REC_N];
   dgu_clamp_add_sub_expect(s->rec.in.data, want, REC_N);
   return dgu_check_f32(what, s->rec.out.data, want, REC_N);
}

static VkResult
make_tensor_bound(struct scene *s, uint64_t *h)
{
   VkResult r = make_tensor(s, h);
   if (r != VK_SUCCESS)
      return r;
   VkTensorARM t = (VkTensorARM)*h;
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   s->u->fn.GetTensorMemoryRequirementsARM(s->u->device, &ri, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = vku_memory_type(&s->u->v, req.memoryRequirements.memoryTypeBits, 0)};
   r = vkAllocateMemory(s->u->device, &mai, NULL, &s->side_memory);
   if (r == VK_SUCCESS) {
      VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                      .tensor = t,
                                      .memory = s->side_memory};
      r = s->u->fn.BindTensorMemoryARM(s->u->device, 1, &bi);
   }
   if (r != VK_SUCCESS) {
      unmake_tensor(s, *h);
      *h = 0;
      if (s->side_memory)
         vkFreeMemory(s->u->device, s->side_memory, NULL);
      s->side_memory = VK_NULL_HANDLE;
   }
   return r;
}

static void
unmake_tensor_bound(struct scene *s, uint64_t h)
{
   unmake_tensor(s, h);
   vkFreeMemory(s->u->device, s->side_memory, NULL);
   s->side_memory = VK_NULL_HANDLE;
}

static bool
check_graph_fp32(struct scene *s, uint64_t h)
{
   struct dgu_session session;
   bool good = dgu_session_create(s->u, (VkPipeline)h, &session) &&
               run_rec_graph(s, (VkPipeline)h, session.session, "the new fp32 pipeline");
   dgu_session_destroy(s->u, &session);
   return good;
}

static VkResult
make_graph_cached(struct scene *s, uint64_t *h)
{
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!parts)
      return VK_ERROR_UNKNOWN;
   dgu_create_parts(&s->int8_desc, &s->int8, parts);
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateDataGraphPipelinesARM(s->u->device, VK_NULL_HANDLE, s->cache, 1,
                                                     &parts->info, NULL, &p);
   free(parts);
   *h = (uint64_t)p;
   return r;
}

/* A pipeline cache from the data of one holding a data-graph pipeline. */
static VkResult
make_cache(struct scene *s, uint64_t *h)
{
   VkPipelineCacheCreateInfo info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                     .initialDataSize = s->cache_size,
                                     .pInitialData = s->cache_data};
   VkPipelineCache cache = VK_NULL_HANDLE;
   VkResult r = vkCreatePipelineCache(s->u->device, &info, NULL, &cache);
   *h = (uint64_t)cache;
   return r;
}

static void
unmake_cache(struct scene *s, uint64_t h)
{
   vkDestroyPipelineCache(s->u->device, (VkPipelineCache)h, NULL);
}

/* A session of a pipeline with its memory bound (when it needs any). */
static VkResult
session_bound(struct scene *s, VkPipeline pipeline, bool needs_memory, uint64_t *h)
{
   struct dgu *u = s->u;
   VkDataGraphPipelineSessionCreateInfoARM sci = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .dataGraphPipeline = pipeline};
   VkDataGraphPipelineSessionARM session = VK_NULL_HANDLE;
   VkResult r = u->fn.CreateDataGraphPipelineSessionARM(u->device, &sci, NULL, &session);
   if (r != VK_SUCCESS)
      return r;
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
       .session = session};
   uint32_t count = 1;
   VkDataGraphPipelineSessionBindPointRequirementARM req = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM};
   r = u->fn.GetDataGraphPipelineSessionBindPointRequirementsARM(u->device, &bri, &count, &req);
   if (r == VK_SUCCESS && count == 1) {
      VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
          .session = session,
          .bindPoint = req.bindPoint};
      VkMemoryRequirements2 mr = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      u->fn.GetDataGraphPipelineSessionMemoryRequirementsARM(u->device, &mri, &mr);
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = mr.memoryRequirements.size,
          .memoryTypeIndex = vku_memory_type(&u->v, mr.memoryRequirements.memoryTypeBits, 0)};
      r = vkAllocateMemory(u->device, &mai, NULL, &s->side_memory);
      VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
          .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
          .session = session,
          .bindPoint = req.bindPoint,
          .memory = s->side_memory};
      if (r == VK_SUCCESS)
         r = u->fn.BindDataGraphPipelineSessionMemoryARM(u->device, 1, &bi);
   } else if (r == VK_SUCCESS && needs_memory) {
      ok(false, "the session needs transient memory (%u bind points)", count);
   }
   if (r != VK_SUCCESS) {
      u->fn.DestroyDataGraphPipelineSessionARM(u->device, session, NULL);
      if (s->side_memory)
         vkFreeMemory(u->device, s->side_memory, NULL);
      s->side_memory = VK_NULL_HANDLE;
      return r;
   }
   *h = (uint64_t)session;
   return r;
}

static VkResult
make_session_bound(struct scene *s, uint64_t *h)
{
   return session_bound(s, s->int8.pipeline, true, h);
}

static void
unmake_session_bound(struct scene *s, uint64_t h)
{
   unmake_session(s, h);
   if (s->side_memory)
      vkFreeMemory(s->u->device, s->side_memory, NULL);
   s->side_memory = VK_NULL_HANDLE;
}

/* A session of the recording's fp32 graph (memory bound), checked by running it. */
static VkResult
make_session_fp32(struct scene *s, uint64_t *h)
{
   return session_bound(s, s->rec.g.pipeline, false, h);
}

static bool
check_session_fp32(struct scene *s, uint64_t h)
{
   return run_rec_graph(s, s->rec.g.pipeline, (VkDataGraphPipelineSessionARM)h,
                        "a dispatch with the new session");
}

/* Tensor writes to the recording's set (the same views again); checked by the recording. */
static VkResult
make_update(struct scene *s, uint64_t *h)
{
   (void)h;
   VkTensorViewARM views[2] = {s->rec.in.view, s->rec.out.view};
   VkWriteDescriptorSetTensorARM tw[2];
   VkWriteDescriptorSet w[2];
   for (int i = 0; i < 2; i++) {
      tw[i] = (VkWriteDescriptorSetTensorARM){
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
          .tensorViewCount = 1,
          .pTensorViews = &views[i]};
      w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .pNext = &tw[i],
                                    .dstSet = s->rec.sets.sets[0],
                                    .dstBinding = (uint32_t)i,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   }
   vkUpdateDescriptorSets(s->u->device, 2, w, 0, NULL);
   return VK_SUCCESS;
}

/* A template writing the recording's two tensor bindings from two view handles. */
static VkResult
make_template(struct scene *s, uint64_t *h)
{
   VkDescriptorUpdateTemplateEntry entries[2] = {
       {0, 0, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 0, sizeof(VkTensorViewARM)},
       {1, 0, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, sizeof(VkTensorViewARM), sizeof(VkTensorViewARM)},
   };
   VkDescriptorUpdateTemplateCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 2,
       .pDescriptorUpdateEntries = entries,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = s->rec.g.set_layouts[0]};
   VkDescriptorUpdateTemplate t = VK_NULL_HANDLE;
   VkResult r = vkCreateDescriptorUpdateTemplate(s->u->device, &info, NULL, &t);
   *h = (uint64_t)t;
   return r;
}

static void
unmake_template(struct scene *s, uint64_t h)
{
   vkDestroyDescriptorUpdateTemplate(s->u->device, (VkDescriptorUpdateTemplate)h, NULL);
}

static VkResult
make_template_update(struct scene *s, uint64_t *h)
{
   (void)h;
   VkTensorViewARM views[2] = {s->rec.in.view, s->rec.out.view};
   vkUpdateDescriptorSetWithTemplate(s->u->device, s->rec.sets.sets[0], s->rec_template, views);
   return VK_SUCCESS;
}

static VkCommandBuffer side_cmds[2];

static VkResult
make_cmds(struct scene *s, uint64_t *h)
{
   VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = s->u->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 2};
   side_cmds[0] = side_cmds[1] = (VkCommandBuffer)(uintptr_t)1; /* must become null on failure */
   VkResult r = vkAllocateCommandBuffers(s->u->device, &info, side_cmds);
   ok(r == VK_SUCCESS || (!side_cmds[0] && !side_cmds[1]),
      "a failed vkAllocateCommandBuffers leaves both handles null");
   *h = (uint64_t)(uintptr_t)side_cmds[0];
   return r;
}

static void
unmake_cmds(struct scene *s, uint64_t h)
{
   (void)h;
   vkFreeCommandBuffers(s->u->device, s->u->pool, 2, side_cmds);
}

/* rec_scene.h's recording into a new command buffer; the result is vkEndCommandBuffer's. */
static VkResult
make_recording(struct scene *s, uint64_t *h)
{
   struct dgu *u = s->u;
   VkCommandBufferAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = u->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(u->device, &info, &cmd);
   if (r != VK_SUCCESS)
      return r;
   unsigned errors = u->v.validation_errors;
   VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   r = vkBeginCommandBuffer(cmd, &begin);
   if (r == VK_SUCCESS) {
      rec_scene_fill(&s->rec, 0.5f);
      rec_scene_record(u, &s->rec, cmd, &alloc_state);
      r = vkEndCommandBuffer(cmd);
   }
   if (r != VK_SUCCESS) {
      /* The dropped commands may be invalid in a command buffer never submitted. */
      u->v.validation_errors = errors;
      vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
      return r;
   }
   *h = (uint64_t)(uintptr_t)cmd;
   return r;
}

static void
unmake_recording(struct scene *s, uint64_t h)
{
   VkCommandBuffer cmd = (VkCommandBuffer)(uintptr_t)h;
   vkFreeCommandBuffers(s->u->device, s->u->pool, 1, &cmd);
}

static bool
check_recording(struct scene *s, uint64_t h)
{
   return rec_scene_submit(s->u, (VkCommandBuffer)(uintptr_t)h) &&
          rec_scene_check("the recording", &s->rec);
}

/* vkCreateDevice with both extensions and the scene's allocator. */
static VkResult
make_device(struct scene *s, uint64_t *h)
{
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM, .dataGraph = VK_TRUE};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &dgf,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE};
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph",
                        "VK_ARM_data_graph_instruction_set_tosa"};
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = s->u->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &tf,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 3,
                             .ppEnabledExtensionNames = ext};
   VkDevice device = VK_NULL_HANDLE;
   s->u->v.expect_device_failure = true;
   VkResult r = vkCreateDevice(s->u->v.physical_device, &dci, s->callbacks, &device);
   s->u->v.expect_device_failure = false;
   *h = (uint64_t)(uintptr_t)device;
   return r;
}

static void
unmake_device(struct scene *s, uint64_t h)
{
   vkDestroyDevice((VkDevice)(uintptr_t)h, s->callbacks);
}

/* The first view of a new device, which makes the device's first chunk of view records. */
static struct {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
} fresh;

static void
unmake_first_view(struct scene *s, uint64_t h)
{
   VkDevice device = (VkDevice)(uintptr_t)h;
   if (fresh.view)
      ((PFN_vkDestroyTensorViewARM)vkGetDeviceProcAddr(device, "vkDestroyTensorViewARM"))(
          device, fresh.view, NULL);
   if (fresh.tensor)
      ((PFN_vkDestroyTensorARM)vkGetDeviceProcAddr(device, "vkDestroyTensorARM"))(
          device, fresh.tensor, NULL);
   if (fresh.memory)
      vkFreeMemory(device, fresh.memory, NULL);
   memset(&fresh, 0, sizeof(fresh));
   unmake_device(s, h);
}

static VkResult
make_first_view(struct scene *s, uint64_t *h)
{
   uint64_t d = 0;
   VkResult r = make_device(s, &d);
   if (r != VK_SUCCESS)
      return r;
   VkDevice device = (VkDevice)(uintptr_t)d;
   VkTensorDescriptionARM desc = dgu_description(VK_FORMAT_R32_SFLOAT, 2, dims4);
   desc.usage = VK_TENSOR_USAGE_SHADER_BIT_ARM;
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc};
   r = ((PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM"))(
       device, &tci, NULL, &fresh.tensor);
   if (r == VK_SUCCESS) {
      VkTensorMemoryRequirementsInfoARM ri = {
          .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = fresh.tensor};
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      ((PFN_vkGetTensorMemoryRequirementsARM)vkGetDeviceProcAddr(
          device, "vkGetTensorMemoryRequirementsARM"))(device, &ri, &req);
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = req.memoryRequirements.size,
          .memoryTypeIndex = vku_memory_type(&s->u->v, req.memoryRequirements.memoryTypeBits, 0)};
      r = vkAllocateMemory(device, &mai, NULL, &fresh.memory);
      VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                      .tensor = fresh.tensor,
                                      .memory = fresh.memory};
      if (r == VK_SUCCESS)
         r = ((PFN_vkBindTensorMemoryARM)vkGetDeviceProcAddr(device, "vkBindTensorMemoryARM"))(
             device, 1, &bi);
   }
   if (r == VK_SUCCESS) {
      VkTensorViewCreateInfoARM vci = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                       .tensor = fresh.tensor,
                                       .format = VK_FORMAT_R32_SFLOAT};
      r = ((PFN_vkCreateTensorViewARM)vkGetDeviceProcAddr(device, "vkCreateTensorViewARM"))(
          device, &vci, NULL, &fresh.view);
   }
   if (r != VK_SUCCESS) {
      unmake_first_view(s, d);
      return r;
   }
   *h = d;
   return r;
}

/* vkCreateInstance through both layers (no validation, no fail layer). */
static VkResult
make_instance(struct scene *s, uint64_t *h)
{
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = 2,
                                .ppEnabledLayerNames = layers};
   VkInstance instance = VK_NULL_HANDLE;
   VkResult r = vkCreateInstance(&info, s->callbacks, &instance);
   *h = (uint64_t)(uintptr_t)instance;
   return r;
}

static void
unmake_instance(struct scene *s, uint64_t h)
{
   vkDestroyInstance((VkInstance)(uintptr_t)h, s->callbacks);
}

static bool
check_recording_fresh(struct scene *s, uint64_t h)
{
   (void)h;
   uint64_t cmd = 0;
   VkResult r = make_recording(s, &cmd);
   bool good = ok(r == VK_SUCCESS, "a recording with the set: %d", r) && check_recording(s, cmd);
   if (cmd)
      unmake_recording(s, cmd);
   return good;
}

static const struct oom_case cases[] = {
    {"vkCreateInstance (both layers)", make_instance, unmake_instance, NULL, F_HOST_ONLY},
    {"vkCreateDevice (VK_ARM_tensors, VK_ARM_data_graph)", make_device, unmake_device, NULL, 0},
    {"vkCreateTensorARM", make_tensor, unmake_tensor, NULL, 0},
    {"vkCreateTensorViewARM", make_view, unmake_view, NULL, 0},
    {"vkCreateTensorViewARM (the first of a new device: a chunk of view records)",
     make_first_view, unmake_first_view, NULL, 0, "vkAllocateMemory"},
    {"vkAllocateMemory (dedicated to a tensor)", make_tensor_memory, unmake_memory, NULL, 0},
    {"vkBindTensorMemoryARM (tensor, memory, binding)", make_tensor_bound, unmake_tensor_bound,
     NULL, 0, "vkAllocateMemory"},
    {"vkCreateDescriptorSetLayout (tensor binding)", make_set_layout, unmake_set_layout, NULL, 0},
    {"vkCreateDescriptorPool (tensor descriptors)", make_pool, unmake_pool, NULL, 0},
    {"vkAllocateDescriptorSets (tensor layout)", make_set, unmake_set, NULL, 0},
    {"vkUpdateDescriptorSets (tensor writes)", make_update, NULL, check_recording_fresh, F_VOID},
    {"vkCreateDescriptorUpdateTemplate (tensor entries)", make_template, unmake_template, NULL,
     0},
    {"vkUpdateDescriptorSetWithTemplate (tensor views)", make_template_update, NULL,
     check_recording_fresh, F_VOID},
    {"vkCreateShaderModule (tensor shader, GLSL lowering)", make_shader_module,
     unmake_shader_module, NULL, F_CACHES},
    {"vkCreateComputePipelines (tensor shader, GLSL lowering)", make_compute_pipeline,
     unmake_pipeline, NULL, F_CACHES},
    {"vkCreateComputePipelines (chained tensor module, GLSL lowering)",
     make_compute_pipeline_chained, unmake_pipeline, NULL, F_CACHES | F_LIBRARY},
    {"vkCreateComputePipelines (chained tensor module, direct lowering)",
     make_compute_pipeline_chained, unmake_pipeline, NULL, F_CACHES | F_DIRECT | F_LIBRARY},
    {"vkCreateShaderModule (tensor shader, direct lowering)", make_shader_module,
     unmake_shader_module, NULL, F_CACHES | F_DIRECT},
    {"vkCreateComputePipelines (tensor shader, direct lowering)", make_compute_pipeline,
     unmake_pipeline, NULL, F_CACHES | F_DIRECT},
    {"vkCreateDataGraphPipelinesARM (CLAMP, ADD, SUB fp32)", make_graph_fp32, unmake_pipeline,
     check_graph_fp32, 0},
    {"vkCreateDataGraphPipelinesARM (CONV2D i8, RESCALE, CONCAT)", make_graph_int8,
     unmake_pipeline, NULL, 0},
    {"vkCreateDataGraphPipelinesARM (CONV2D i8, a pipeline cache)", make_graph_cached,
     unmake_pipeline, NULL, F_CACHES},
    {"vkCreatePipelineCache (data of a data-graph pipeline)", make_cache, unmake_cache, NULL, 0},
    {"vkCreateDataGraphPipelineSessionARM (CONV2D i8)", make_session, unmake_session, NULL, 0},
    {"vkCreateDataGraphPipelineSessionARM (fp32, memory bound, run)", make_session_fp32,
     unmake_session_bound, check_session_fp32, 0, "vkAllocateMemory"},
    {"vkBindDataGraphPipelineSessionMemoryARM (CONV2D i8 session, memory, binding)",
     make_session_bound, unmake_session_bound, NULL, 0, "vkAllocateMemory"},
    {"vkAllocateCommandBuffers (two)", make_cmds, unmake_cmds, NULL, 0},
    {"recording: graph dispatch, tensor barriers, events, tensor copies", make_recording,
     unmake_recording, check_recording, F_RECOVERS, "vkAllocateCommandBuffers"},
};

/* ---- the sweep ------------------------------------------------------------------------------ */

enum mode { HOST, DRIVER };

static void
arm(enum mode mode, long k)
{
   if (mode == HOST)
      rec_alloc_arm(&alloc_state, k, false);
   else
      fail_driver(k, NULL);
}

/* Disarms; returns how many failed and which (the driver's command, or "allocation"). */
static unsigned
disarm(enum mode mode, const char **what)
{
   if (mode == HOST) {
      rec_alloc_disarm(&alloc_state);
      *what = "allocation";
      return alloc_state.failed;
   }
   struct fail_driver_stats st;
   fail_driver(FAIL_DRIVER_OFF, &st);
   *what = st.failed_name ? st.failed_name : "-";
   return st.failed;
}

static bool
result_allowed(enum mode mode, VkResult r)
{
   if (mode == HOST)
      return r == VK_ERROR_OUT_OF_HOST_MEMORY;
   return r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

/* The sweep of one case in one mode; returns the number of failing calls checked. */
static long
sweep(struct scene *s, const struct oom_case *c, enum mode mode)
{
   char context[200];
   snprintf(context, sizeof(context), "%s, %s", c->name,
            mode == HOST ? "host allocation k failing" : "driver call k failing");
   test_set_context(context);
   struct rec_alloc *a = &alloc_state;
   for (long k = 0; k < 100000; k++) {
      long ours = ours_live(a), driver = driver_live(), leaked = driver_leaked();
      uint64_t handle = 0;
      vku_capture_stderr_begin();
      arm(mode, k);
      VkResult r = c->make(s, &handle);
      const char *what;
      unsigned failed = disarm(mode, &what);
      const char *log = vku_capture_stderr_end();
      if (failed == 0) {
         ok(r == VK_SUCCESS, "succeeds once nothing fails (%ld calls): %d (log: %.400s)", k, r,
            log);
         if (r == VK_SUCCESS && c->check)
            c->check(s, handle);
         if (handle && c->unmake)
            c->unmake(s, handle);
         ok(driver_leaked() == leaked, "%ld driver objects left at a vkDestroyDevice",
            driver_leaked() - leaked);
         return k;
      }
      bool good = true;
      if (c->flags & F_VOID) {
         r = VK_ERROR_OUT_OF_HOST_MEMORY; /* nothing returned; the log says it */
      } else if (r == VK_SUCCESS && (c->flags & F_RECOVERS)) {
         /* Recovered: the work must still be right. */
         good &= c->check ? c->check(s, handle) : true;
         if (handle && c->unmake)
            c->unmake(s, handle);
         handle = 0;
      } else {
         good &= ok(result_allowed(mode, r), "k = %ld (%s) gives %d (log: %.600s)", k, what, r,
                    log);
         good &= ok(handle == 0, "k = %ld (%s) hands out no handle", k, what);
      }
      if (r != VK_SUCCESS) {
         /* The application's own call failing below us needs no word from the layers. */
         bool own = mode == DRIVER && (strstr(c->name, what) == c->name ||
                                       (c->own && strstr(c->own, what)));
         good &= ok(own || strstr(log, mode == HOST ? "out of host memory" : "] E: "),
                    "k = %ld (%s) is logged: %.600s", k, what, log);
      }
      long ours_after = ours_live(a), driver_after = driver_live();
      good &= ok((c->flags & F_CACHES) ? ours_after >= ours : ours_after == ours,
                 "k = %ld (%s) leaks nothing of the layers' (%ld live before, %ld after)", k, what,
                 ours, ours_after);
      good &= ok(driver_after == driver,
                 "k = %ld (%s) leaks no driver object (%ld live before, %ld after)", k, what,
                 driver, driver_after);
      if (handle && c->unmake)
         c->unmake(s, handle);
      /* A device made and destroyed by a case takes nothing of the layers' with it. */
      good &= ok(driver_leaked() == leaked, "k = %ld (%s): %ld driver objects left at a "
                 "vkDestroyDevice", k, what, driver_leaked() - leaked);
      if (!good)
         return k; /* one report per case is enough to act on */
   }
   ok(false, "still failing after 100000 calls");
   return 0;
}

/* ---- the scene ------------------------------------------------------------------------------ */
static char *
read_text(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *text = calloc(1, 1 << 16);
   size_t n = text ? fread(text, 1, (1 << 16) - 1, f) : 0;
   fclose(f);
   if (text && n == 0) {
      free(text);
      return NULL;
   }
   return text;
}

static const struct dgu_binding fp32_bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
};
static const struct dgu_binding int8_bindings[] = {
    {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, 8, 8, 4}},
    {0, 1, 1, VK_FORMAT_R8_UINT, 4, {1, 6, 6, 8}},
    {0, 2, 1, VK_FORMAT_R8_SINT, 4, {1, 6, 6, 16}},
};
static int8_t weights[8 * 3 * 3 * 4];
static int32_t bias[8], multipliers[8];
static int8_t shifts[8];
static const struct dgu_constant int8_constants[] = {
    {0, VK_FORMAT_R8_SINT, 4, {8, 3, 3, 4}, weights},
    {1, VK_FORMAT_R32_SINT, 1, {8}, bias},
    {2, VK_FORMAT_R32_SINT, 1, {8}, multipliers},
    {3, VK_FORMAT_R8_SINT, 1, {8}, shifts},
};

static bool
scene_init(struct scene *s, struct dgu *u, const VkAllocationCallbacks *callbacks, bool direct)
{
   memset(s, 0, sizeof(*s));
   s->u = u;
   s->callbacks = callbacks;
   s->direct = direct;
   for (size_t i = 0; i < sizeof(weights); i++)
      weights[i] = (int8_t)(i % 7) - 3;
   for (int i = 0; i < 8; i++) {
      multipliers[i] = 1 << 30;
      shifts[i] = 30;
   }
   if (!dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims4, &s->tensor))
      return false;
   uint64_t h;
   if (!ok(make_set_layout(s, &h) == VK_SUCCESS, "set layout"))
      return false;
   s->layout = (VkDescriptorSetLayout)h;
   if (!ok(make_pool(s, &h) == VK_SUCCESS, "pool"))
      return false;
   s->pool = (VkDescriptorPool)h;
   if (!ok(make_shader_module(s, &h) == VK_SUCCESS, "tensor shader module"))
      return false;
   s->tensor_module = (VkShaderModule)h;
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b};
   VkDescriptorSetLayout compute_set;
   if (!ok(vkCreateDescriptorSetLayout(u->device, &dsl, NULL, &compute_set) == VK_SUCCESS,
           "compute set layout"))
      return false;
   VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pSetLayouts = &compute_set};
   VkResult r = vkCreatePipelineLayout(u->device, &pl, NULL, &s->compute_layout);
   vkDestroyDescriptorSetLayout(u->device, compute_set, NULL);
   if (!ok(r == VK_SUCCESS, "compute pipeline layout"))
      return false;

   static const char fp32_text[] = DGU_CLAMP_ADD_SUB_TEXT;
   s->fp32_desc = (struct dgu_pipeline_desc){
       .text = fp32_text, .bindings = fp32_bindings, .binding_count = 2};
   if (!ok(dgu_graph_create(u, &s->fp32_desc, &s->fp32) == VK_SUCCESS, "fp32 graph"))
      return false;
   s->int8_text = read_text(VMEL_TEST_DATA_DIR "/spirv/graph_conv2d.spvasm");
   if (!ok(s->int8_text != NULL, "read graph_conv2d.spvasm"))
      return false;
   s->int8_desc = (struct dgu_pipeline_desc){.text = s->int8_text,
                                             .bindings = int8_bindings,
                                             .binding_count = 3,
                                             .constants = int8_constants,
                                             .constant_count = 4};
   if (!ok(dgu_graph_create(u, &s->int8_desc, &s->int8) == VK_SUCCESS, "int8 graph"))
      return false;
   /* A cache that holds the int8 pipeline: the cached case takes its hit path. */
   VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   if (!ok(vkCreatePipelineCache(u->device, &pcci, NULL, &s->cache) == VK_SUCCESS,
           "pipeline cache"))
      return false;
   uint64_t p;
   if (!ok(make_graph_cached(s, &p) == VK_SUCCESS, "int8 graph into the cache"))
      return false;
   unmake_pipeline(s, p);
   if (!ok(vkGetPipelineCacheData(u->device, s->cache, &s->cache_size, NULL) == VK_SUCCESS &&
              (s->cache_data = malloc(s->cache_size)) != NULL &&
              vkGetPipelineCacheData(u->device, s->cache, &s->cache_size, s->cache_data) ==
                  VK_SUCCESS,
           "the cache's data"))
      return false;
   s->has_rec = true; /* rec_scene_finish() takes what rec_scene_init() made */
   if (!rec_scene_init(u, &s->rec, 1))
      return false;
   uint64_t t;
   if (!ok(make_template(s, &t) == VK_SUCCESS, "descriptor update template"))
      return false;
   s->rec_template = (VkDescriptorUpdateTemplate)t;
   return true;
}

static void
scene_finish(struct scene *s)
{
   struct dgu *u = s->u;
   if (s->rec_template)
      vkDestroyDescriptorUpdateTemplate(u->device, s->rec_template, NULL);
   if (s->has_rec)
      rec_scene_finish(u, &s->rec);
   if (s->cache)
      vkDestroyPipelineCache(u->device, s->cache, NULL);
   free(s->cache_data);
   dgu_graph_destroy(u, &s->fp32);
   dgu_graph_destroy(u, &s->int8);
   free(s->int8_text);
   vkDestroyPipelineLayout(u->device, s->compute_layout, NULL);
   vkDestroyShaderModule(u->device, s->tensor_module, NULL);
   vkDestroyDescriptorPool(u->device, s->pool, NULL);
   vkDestroyDescriptorSetLayout(u->device, s->layout, NULL);
   dgu_tensor_destroy(u, &s->tensor);
}

int
main(void)
{
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&alloc_state);
   struct dgu u, direct;
   struct dgu_options options = {.device_alloc = &callbacks,
                                 .layer_below = VMEL_FAIL_DRIVER_LAYER,
                                 .pipeline_library = true};
   bool have = dgu_init(&u, &options);
   if (have) {
      fail_driver = (PFN_vmelTestFailDriverControl)vkGetDeviceProcAddr(u.device,
                                                                       VMEL_FAIL_DRIVER_CONTROL);
      have = ok(fail_driver != NULL, "%s below our layers answers vkGetDeviceProcAddr(%s)",
                VMEL_FAIL_DRIVER_LAYER, VMEL_FAIL_DRIVER_CONTROL);
   }
   /* The tensor layer reads the lowering mode when a device is created. */
   setenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE", "1", 1);
   bool have_direct = have && dgu_init(&direct, &options);
   unsetenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE");
   if (have_direct) {
      struct scene s, sd;
      bool ready = scene_init(&s, &u, &callbacks, false);
      ready = ready && scene_init(&sd, &direct, &callbacks, true);
      for (size_t i = 0; ready && i < sizeof(cases) / sizeof(cases[0]); i++) {
         const struct oom_case *c = &cases[i];
         struct scene *scene = (c->flags & F_DIRECT) ? &sd : &s;
         if ((c->flags & F_LIBRARY) && !scene->u->pipeline_library) {
            printf("# %s: skipped, the device has no VK_EXT_graphics_pipeline_library\n",
                   c->name);
            continue;
         }
         long host = sweep(scene, c, HOST);
         long driver = (c->flags & F_HOST_ONLY) ? 0 : sweep(scene, c, DRIVER);
         printf("# %s: %ld failing host allocations, %ld failing driver calls checked\n", c->name,
                host, driver);
      }
      if (ready)
         scene_finish(&sd);
      scene_finish(&s);
      test_set_context(NULL);
      /* The direct scene's device goes first, while the main instance keeps the fail layer
       * loaded: every driver object the layers made for it must be gone with it (the
       * views' record chunks and the copy kernel's objects live as long as the device). */
      dgu_finish(&direct);
      ok(driver_leaked() == 0, "%ld driver objects left behind at vkDestroyDevice",
         driver_leaked());
   }
   dgu_finish(&u);
   test_set_context(NULL);
   ok(ours_live(&alloc_state) == 0,
      "after vkDestroyDevice and vkDestroyInstance: %ld of the layers' allocations live",
      ours_live(&alloc_state));
   free(shader_words);
   return test_done();
}
