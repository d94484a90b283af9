/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * opt_run_test() (optest_run.h): the requirements first (a missing feature skips), then the
 * data, the module and the CPU reference, then the layers: tensors at the test's strides in
 * host-visible memory filled with a guard pattern, the pipeline (with the same descriptions),
 * a session and one dispatch, and the verdict: every output within its tolerance (the bounds
 * tosa_ref_tolerance() and the tosa_ref_check_* functions state), no byte of an output's
 * memory outside its elements changed, no validation message. Invalid graphs must be rejected
 * with VK_ERROR_UNKNOWN.
 */
#include "optest_run.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_graph.h"
#include "spirv_text.h"
#include "test.h"
#include "ref_format.h"

#define GUARD_BYTE 0xa5
#define MAX_LISTED 8

/* ---- set-up ------------------------------------------------------------------------------ */

static void
query_tosa(struct opt_runner *r)
{
   VkInstance inst = r->u.v.instance;
   VkPhysicalDevice pd = r->u.v.physical_device;
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM get_props =
       (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)vkGetInstanceProcAddr(
           inst, "vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM get_op =
       (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)
           vkGetInstanceProcAddr(
               inst, "vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM");
   if (!get_props || !get_op)
      return;
   uint32_t count = 0;
   if (get_props(pd, r->u.family, &count, NULL) != VK_SUCCESS || count == 0)
      return;
   VkQueueFamilyDataGraphPropertiesARM *ops = calloc(count, sizeof(*ops));
   if (!ops)
      return;
   for (uint32_t j = 0; j < count; j++)
      ops[j].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM;
   if (get_props(pd, r->u.family, &count, ops) != VK_SUCCESS)
      count = 0;
   for (uint32_t j = 0; j < count; j++) {
      if (strcmp(ops[j].operation.name, "TOSA.001000.1") != 0)
         continue;
      VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
          .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
      if (get_op(pd, r->u.family, &ops[j], (VkBaseOutStructure *)&tosa) != VK_SUCCESS)
         continue;
      for (uint32_t k = 0; k < tosa.profileCount + tosa.extensionCount; k++) {
         const char *name = k < tosa.profileCount ? tosa.pProfiles[k].name
                                                  : tosa.pExtensions[k - tosa.profileCount].name;
         if (r->tosa_name_count < OPT_MAX_TOSA_NAMES)
            snprintf(r->tosa_names[r->tosa_name_count++], sizeof(r->tosa_names[0]), "%s", name);
      }
   }
   free(ops);
}

/* Whether the device offers cooperative-matrix extension `name` with its cooperativeMatrix
 * feature (features sType `stype`; the NV and KHR structs have one layout) and a subgroup size
 * of 32, as the COOP kernel variants need (D51; the layer checks the listed shapes too). */
static VkBool32
cooperative_matrix(struct opt_runner *r, const char *name, VkStructureType stype)
{
   VkPhysicalDevice pd = r->u.v.physical_device;
   uint32_t count = 0;
   if (vkEnumerateDeviceExtensionProperties(pd, NULL, &count, NULL) != VK_SUCCESS || !count)
      return VK_FALSE;
   VkExtensionProperties *exts = calloc(count, sizeof(*exts));
   bool listed = false;
   if (exts && vkEnumerateDeviceExtensionProperties(pd, NULL, &count, exts) == VK_SUCCESS) {
      for (uint32_t i = 0; i < count && !listed; i++)
         listed = strcmp(exts[i].extensionName, name) == 0;
   }
   free(exts);
   if (!listed)
      return VK_FALSE;
   /* The KHR features struct is newer than the validation layer below the tests (Debian 12's),
    * which would report it: a device listing the KHR extension is taken to have the feature. */
   VkPhysicalDeviceCooperativeMatrixFeaturesNV f = {.sType = stype, .cooperativeMatrix = VK_TRUE};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f};
   if (stype == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV)
      vkGetPhysicalDeviceFeatures2(pd, &f2);
   VkPhysicalDeviceVulkan11Properties p11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p11};
   vkGetPhysicalDeviceProperties2(pd, &p2);
   return f.cooperativeMatrix && p11.subgroupSize == 32;
}

static void
query_features(struct opt_runner *r)
{
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan11Features f11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f11};
   vkGetPhysicalDeviceFeatures2(r->u.v.physical_device, &f2);
   const VkStructureType nv_features =
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV;
   VkBool32 nv = cooperative_matrix(r, "VK_NV_cooperative_matrix", nv_features);
   /* VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR (newer headers) */
   VkBool32 khr =
      cooperative_matrix(r, "VK_KHR_cooperative_matrix", (VkStructureType)1000506000);
   const char *forced = getenv("VMEL_GRAPH_KERNELS");
   const VkBool32 have[] = {
       f12.shaderFloat16,
       f12.shaderInt8,
       f2.features.shaderInt16,
       f2.features.shaderInt64,
       f2.features.shaderFloat64,
       f12.storageBuffer8BitAccess,
       f11.storageBuffer16BitAccess,
       f12.bufferDeviceAddress,
       nv,
       khr,
       forced && strcmp(forced, "coop-nv") == 0 ? nv
       : forced && (strcmp(forced, "coop-khr") == 0 || strcmp(forced, "coop-khr-square") == 0)
          ? khr
          : nv || khr,
   };
   _Static_assert(sizeof(have) / sizeof(have[0]) <= sizeof(((struct opt_runner *)0)->features),
                  "feature table");
   for (unsigned i = 0; i < opt_device_feature_count && i < sizeof(have) / sizeof(have[0]); i++)
      r->features[i] = have[i] != VK_FALSE;
}

bool
opt_runner_init(struct opt_runner *r, bool verbose)
{
   memset(r, 0, sizeof(*r));
   r->verbose = verbose;
   if (!dgu_init(&r->u, NULL))
      return false;
   query_tosa(r);
   query_features(r);
   return true;
}

void
opt_runner_finish(struct opt_runner *r)
{
   dgu_finish(&r->u);
}

/* ---- one test's state ---------------------------------------------------------------------- */

struct run {
   const struct opt_file *file;
   const struct opt_test *t;
   struct ref_tensor *inputs[OPT_MAX_TENSORS];
   struct ref_tensor *constants[OPT_MAX_TENSORS];
   struct ref_tensor *outputs[OPT_MAX_TENSORS]; /* what the layers wrote */
   struct ref_graph_result ref;
   bool ref_evaluated;
   char *text;
   unsigned *line_map;
   size_t line_count;
   uint32_t *words;
   size_t word_count;
   bool verbose; /* --verbose: also the largest error of a float output within its bound */
   /* The verdict: the first failure's line, then details. */
   bool failed, skipped;
   char why[512];
   char *details;
};

static void why(struct run *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the test's failure (the first one wins). */
static void
why(struct run *x, const char *fmt, ...)
{
   if (x->failed)
      return;
   x->failed = true;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(x->why, sizeof(x->why), fmt, ap);
   va_end(ap);
}

static void
run_finish(struct run *x)
{
   for (unsigned i = 0; i < OPT_MAX_TENSORS; i++) {
      ref_tensor_destroy(x->inputs[i]);
      ref_tensor_destroy(x->constants[i]);
      ref_tensor_destroy(x->outputs[i]);
   }
   ref_graph_result_finish(&x->ref);
   free(x->text);
   free(x->line_map);
   free(x->words);
   free(x->details);
}

/* ---- requirements, data, module, reference ------------------------------------------------ */

/* The first requirement the device lacks, or NULL. */
static const char *
missing_requirement(const struct opt_runner *r, const struct opt_test *t)
{
   for (uint32_t i = 0; i < t->require_count; i++) {
      const char *name = t->requires[i];
      bool have = false;
      if (strncmp(name, "PRO-", 4) == 0 || strncmp(name, "EXT-", 4) == 0) {
         for (uint32_t k = 0; k < r->tosa_name_count && !have; k++)
            have = strcmp(r->tosa_names[k], name) == 0;
      } else {
         for (unsigned k = 0; k < opt_device_feature_count && !have; k++)
            have = strcmp(opt_device_features[k], name) == 0 && r->features[k];
      }
      if (!have)
         return name;
   }
   return NULL;
}

static bool
make_data(struct run *x)
{
   const struct opt_test *t = x->t;
   for (uint32_t i = 0; i < t->input_count; i++) {
      if (!(x->inputs[i] = opt_make_tensor(&t->inputs[i], t->seed, i)))
         return false;
   }
   for (uint32_t i = 0; i < t->constant_count; i++) {
      if (!(x->constants[i] = opt_make_tensor(&t->constants[i], t->seed, OPT_MAX_TENSORS + i)))
         return false;
   }
   return true;
}

/* The file line of an assembler message "line N: ...". */
static unsigned
file_line(const struct run *x, const char *msg)
{
   unsigned n;
   if (sscanf(msg, "line %u", &n) == 1 && n >= 1 && n <= x->line_count && x->line_map)
      return x->line_map[n - 1];
   return 0;
}

static bool
assemble(struct run *x)
{
   char err[512];
   x->text = opt_module_text(x->file, x->t, &x->line_map, &x->line_count, err, sizeof(err));
   if (!x->text) {
      why(x, "the module: %s", err);
      return false;
   }
   if (!spirv_text_assemble(x->text, strlen(x->text), &x->words, &x->word_count, err,
                            sizeof(err))) {
      unsigned line = file_line(x, err);
      if (line)
         why(x, "%s:%u: the graph does not assemble: %s", x->file->path, line, err);
      else
         why(x, "the generated module does not assemble: %s", err);
      return false;
   }
   return true;
}

static void
reference(struct run *x)
{
   const struct opt_test *t = x->t;
   struct ref_graph_constant consts[OPT_MAX_TENSORS];
   for (uint32_t i = 0; i < t->constant_count; i++)
      consts[i] = (struct ref_graph_constant){i, x->constants[i]};
   ref_graph_eval(x->words, x->word_count, "main", (const struct ref_tensor *const *)x->inputs,
                  t->input_count, consts, t->constant_count, &x->ref);
   x->ref_evaluated = true;
}

static bool
same_shape(const struct ref_tensor *a, const struct opt_tensor *d)
{
   if (a->dtype != d->dtype || a->rank != d->rank)
      return false;
   for (uint32_t i = 0; i < a->rank; i++) {
      if (a->shape[i] != d->shape[i])
         return false;
   }
   return true;
}

/* Whether the reference's verdict fits the test's expectation (the failure recorded if not). */
static bool
reference_agrees(struct run *x)
{
   const struct opt_test *t = x->t;
   int st = x->ref.status;
   switch (t->expect) {
   case OPT_EXPECT_REFERENCE:
      if (st == TOSA_REF_UNPREDICTABLE) {
         why(x,
             "the reference says UNPREDICTABLE (%s): choose data for which the graph is "
             "defined",
             x->ref.message);
         return false;
      }
      if (st != TOSA_REF_OK) {
         why(x, "the reference rejects the graph: %s %s", tosa_ref_status_name(st), x->ref.message);
         return false;
      }
      break;
   case OPT_EXPECT_INVALID:
      if (st == TOSA_REF_OK || st == TOSA_REF_UNPREDICTABLE) {
         why(x, "'expect: invalid', but the reference evaluates the graph (%s)",
             tosa_ref_status_name(st));
         return false;
      }
      return true;
   case OPT_EXPECT_VALUES:
      if (st != TOSA_REF_OK)
         return true; /* literal values need no reference (an operator it lacks) */
      break;
   }
   if (x->ref.output_count != t->output_count) {
      why(x, "the graph sets %u outputs; the test declares %u", x->ref.output_count,
          t->output_count);
      return false;
   }
   for (uint32_t i = 0; i < t->output_count; i++) {
      if (!same_shape(x->ref.outputs[i].value, &t->outputs[i])) {
         why(x, "output %u: the graph's type is not the declared one", i);
         return false;
      }
   }
   return true;
}

/* ---- Vulkan ------------------------------------------------------------------------------ */

/* A graph input or output: the application's tensor at its strides. */
struct app_tensor {
   struct dgu_tensor t; /* .size: the allocation's size */
   const struct opt_tensor *decl;
   int64_t strides[REF_MAX_RANK]; /* bytes: the declaration's, or packed */
};

/* Byte offset of element `offset` of a declaration at its strides. */
static uint64_t
element_at(const struct app_tensor *a, const struct ref_tensor *shape, int64_t offset)
{
   int64_t index[REF_MAX_RANK];
   ref_tensor_index(shape, offset, index);
   uint64_t at = 0;
   for (uint32_t d = 0; d < shape->rank; d++)
      at += (uint64_t)index[d] * (uint64_t)a->strides[d];
   return at;
}

static bool
app_tensor_create(struct run *x, struct dgu *u, const struct opt_tensor *decl, struct app_tensor *a)
{
   memset(a, 0, sizeof(*a));
   a->decl = decl;
   VkFormat format = ref_dtype_format(decl->dtype, decl->is_unsigned);
   size_t esize = ref_dtype_size(decl->dtype);
   int64_t packed = (int64_t)esize;
   for (uint32_t d = decl->rank; d-- > 0;) {
      a->strides[d] = decl->strided ? decl->strides[d] : packed;
      packed *= decl->shape[d];
   }
   a->t.format = format;
   a->t.rank = decl->rank;
   memcpy(a->t.dims, decl->shape, sizeof(int64_t) * decl->rank);
   a->t.elements = (uint64_t)decl->count;
   VkTensorDescriptionARM desc = dgu_description(format, decl->rank, a->t.dims);
   desc.pStrides = decl->strided ? a->strides : NULL;
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   VkResult r = u->fn.CreateTensorARM(u->device, &tci, NULL, &a->t.tensor);
   if (r != VK_SUCCESS) {
      why(x, "vkCreateTensorARM (line %u): %d", decl->line, r);
      return false;
   }
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = a->t.tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   u->fn.GetTensorMemoryRequirementsARM(u->device, &ri, &req);
   a->t.size = (size_t)req.memoryRequirements.size;
   uint32_t type = vku_host_memory_type(&u->v, req.memoryRequirements.memoryTypeBits);
   if (type == UINT32_MAX) {
      why(x, "no host-visible memory type for a tensor");
      return false;
   }
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = type};
   r = vkAllocateMemory(u->device, &mai, NULL, &a->t.memory);
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = a->t.tensor,
                                   .memory = a->t.memory};
   if (r == VK_SUCCESS)
      r = u->fn.BindTensorMemoryARM(u->device, 1, &bi);
   if (r == VK_SUCCESS)
      r = vkMapMemory(u->device, a->t.memory, 0, VK_WHOLE_SIZE, 0, &a->t.data);
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = a->t.tensor,
                                   .format = format};
   if (r == VK_SUCCESS)
      r = u->fn.CreateTensorViewARM(u->device, &vi, NULL, &a->t.view);
   if (r != VK_SUCCESS) {
      why(x, "tensor memory, binding, mapping or view: %d", r);
      return false;
   }
   memset(a->t.data, GUARD_BYTE, a->t.size);
   return true;
}

static void
upload(struct app_tensor *a, const struct ref_tensor *src)
{
   size_t esize = ref_dtype_size(src->dtype);
   for (int64_t i = 0; i < src->count; i++)
      memcpy((char *)a->t.data + element_at(a, src, i), (const char *)src->data + i * esize, esize);
}

/* Reads the output back; false when a byte that is no element's lost the guard pattern. */
static struct ref_tensor *
download(struct run *x, const struct app_tensor *a, unsigned index)
{
   const struct opt_tensor *d = a->decl;
   struct ref_tensor *out = ref_tensor_create(d->dtype, d->rank, d->shape);
   uint8_t *touched = calloc(a->t.size ? a->t.size : 1, 1);
   if (!out || !touched) {
      free(touched);
      ref_tensor_destroy(out);
      why(x, "out of memory");
      return NULL;
   }
   size_t esize = ref_dtype_size(d->dtype);
   for (int64_t i = 0; i < out->count; i++) {
      uint64_t at = element_at(a, out, i);
      memcpy((char *)out->data + i * esize, (const char *)a->t.data + at, esize);
      memset(touched + at, 1, esize);
   }
   const uint8_t *bytes = a->t.data;
   for (size_t b = 0; b < a->t.size; b++) {
      if (!touched[b] && bytes[b] != GUARD_BYTE) {
         why(x, "output %u: byte %zu of its memory, which holds no element, was written", index, b);
         break;
      }
   }
   free(touched);
   return out;
}

/* The graph's layouts and pipeline, with the application's descriptions (strides included). */
static VkResult
create_graph(struct run *x, struct dgu *u, const struct app_tensor *io, uint32_t n,
             struct dgu_graph *g)
{
   const struct opt_test *t = x->t;
   memset(g, 0, sizeof(*g));
   g->result = VK_ERROR_UNKNOWN;
   VkDescriptorSetLayoutBinding b[2 * OPT_MAX_TENSORS];
   struct dgu_binding bind[2 * OPT_MAX_TENSORS];
   for (uint32_t i = 0; i < n; i++) {
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                            VK_SHADER_STAGE_ALL, NULL};
      bind[i] = (struct dgu_binding){
          .set = 0, .binding = i, .count = 1, .format = io[i].t.format, .rank = io[i].t.rank};
      memcpy(bind[i].dims, io[i].t.dims, sizeof(int64_t) * io[i].t.rank);
   }
   VkDescriptorSetLayoutCreateInfo sli = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = n,
       .pBindings = b,
   };
   VkResult r = vkCreateDescriptorSetLayout(u->device, &sli, NULL, &g->set_layouts[0]);
   if (r != VK_SUCCESS) {
      why(x, "vkCreateDescriptorSetLayout: %d", r);
      return r;
   }
   g->set_count = 1;
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = g->set_layouts};
   r = vkCreatePipelineLayout(u->device, &plci, NULL, &g->layout);
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = x->word_count * 4,
                                   .pCode = x->words};
   if (r == VK_SUCCESS)
      r = vkCreateShaderModule(u->device, &mci, NULL, &g->module);
   if (r != VK_SUCCESS) {
      why(x, "pipeline layout or shader module: %d", r);
      return r;
   }
   struct dgu_constant consts[OPT_MAX_TENSORS];
   for (uint32_t i = 0; i < t->constant_count; i++) {
      const struct opt_tensor *c = &t->constants[i];
      consts[i] = (struct dgu_constant){.id = i,
                                        .format = ref_dtype_format(c->dtype, c->is_unsigned),
                                        .rank = c->rank,
                                        .data = x->constants[i]->data};
      memcpy(consts[i].dims, c->shape, sizeof(int64_t) * c->rank);
   }
   struct dgu_pipeline_desc desc = {
       .text = NULL,
       .bindings = bind,
       .binding_count = n,
       .constants = consts,
       .constant_count = t->constant_count,
   };
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!parts) {
      why(x, "out of memory");
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   dgu_create_parts(&desc, g, parts);
   for (uint32_t i = 0; i < n; i++)
      parts->resource_descs[i].pStrides = io[i].decl->strided ? io[i].strides : NULL;
   g->result = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                                 &parts->info, NULL, &g->pipeline);
   free(parts);
   return g->result;
}

/* Creates, dispatches and reads back; for an invalid graph, checks the rejection. */
static void
run_device(struct opt_runner *r, struct run *x)
{
   const struct opt_test *t = x->t;
   struct dgu *u = &r->u;
   struct app_tensor io[2 * OPT_MAX_TENSORS];
   uint32_t n = t->input_count + t->output_count, made = 0;
   struct dgu_graph g = {0};
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   memset(io, 0, sizeof(io));
   for (; made < n; made++) {
      bool in = made < t->input_count;
      const struct opt_tensor *d = in ? &t->inputs[made] : &t->outputs[made - t->input_count];
      if (!app_tensor_create(x, u, d, &io[made]))
         goto done;
      if (in)
         upload(&io[made], x->inputs[made]);
   }
   VkResult res = create_graph(x, u, io, n, &g);
   if (x->failed)
      goto done;
   if (t->expect == OPT_EXPECT_INVALID) {
      if (res != VK_ERROR_UNKNOWN)
         why(x,
             "an invalid graph: vkCreateDataGraphPipelinesARM returned %d, not "
             "VK_ERROR_UNKNOWN (%d) (reference: %s)",
             res, VK_ERROR_UNKNOWN, x->ref.message);
      goto done;
   }
   if (res != VK_SUCCESS) {
      why(x, "vkCreateDataGraphPipelinesARM: %d (the layer's log above says why)", res);
      goto done;
   }
   if (!dgu_session_create(u, g.pipeline, &s) || !dgu_sets_create(u, &g, &sets)) {
      why(x, "session or descriptor sets");
      goto done;
   }
   for (uint32_t i = 0; i < n; i++)
      dgu_write(u, sets.sets[0], i, 0, &io[i].t);
   if (!dgu_run(u, &g, &sets, s.session)) {
      why(x, "the dispatch did not complete");
      goto done;
   }
   for (uint32_t k = 0; k < t->output_count; k++) {
      if (!(x->outputs[k] = download(x, &io[t->input_count + k], k)))
         break;
   }
done:
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
   for (uint32_t i = 0; i < n; i++)
      dgu_tensor_destroy(u, &io[i].t);
}

/* ---- checking ------------------------------------------------------------------------------ */

static void
format_value(const struct ref_tensor *t, int64_t i, bool is_unsigned, char *buf, size_t size)
{
   if (t->dtype == REF_DTYPE_FP64) {
      snprintf(buf, size, "%.17g", ref_tensor_get_fp(t, i));
   } else if (ref_dtype_is_float(t->dtype)) {
      int digits = (int)ref_dtype_size(t->dtype) * 2;
      snprintf(buf, size, "%.9g (0x%0*" PRIx64 ")", ref_tensor_get_fp(t, i), digits,
               ref_tensor_get_bits(t, i));
   } else if (is_unsigned) {
      snprintf(buf, size, "%" PRIu64, ref_tensor_get_bits(t, i));
   } else {
      snprintf(buf, size, "%" PRId64, ref_tensor_get_int(t, i));
   }
}

static void
format_index(const struct ref_tensor *t, int64_t offset, char *buf, size_t size)
{
   int64_t index[REF_MAX_RANK];
   ref_tensor_index(t, offset, index);
   size_t n = (size_t)snprintf(buf, size, "[");
   for (uint32_t d = 0; d < t->rank && n < size; d++)
      n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, d ? "," : "", index[d]);
   if (n < size)
      snprintf(buf + n, size - n, "]");
}

static const char *
tol_name(enum tosa_ref_tol_kind k)
{
   static const char *const names[] = {"exact",       "fp_exact",      "ulp",
                                       "dot_product", "rescale_range", "cast_fp",
                                       "abs_bound"};
   return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

/* Whether element i of imp passes a per-element check against want (for the listing; bnd:
 * the ABS_BOUND bound). */
static bool
element_ok(const struct tosa_ref_tolerance *tol, const struct ref_tensor *imp,
           const struct ref_tensor *want, const struct ref_tensor *bnd, int64_t i)
{
   switch (tol->kind) {
   case TOSA_REF_TOL_ABS_BOUND:
      return tosa_ref_check_fp_bnd(imp->dtype, ref_tensor_get_fp(imp, i),
                                   ref_tensor_get_fp(want, i), ref_tensor_get_fp(bnd, i));
   case TOSA_REF_TOL_FP_EXACT:
      return tosa_ref_check_fp_exact(imp->dtype, ref_tensor_get_fp(imp, i),
                                     ref_tensor_get_fp(want, i));
   case TOSA_REF_TOL_ULP:
      return tosa_ref_check_fp(imp->dtype, ref_tensor_get_fp(imp, i), ref_tensor_get_fp(want, i),
                               tol->ulp);
   case TOSA_REF_TOL_CAST_FP:
      return tosa_ref_check_cast_fp(imp->dtype, ref_tensor_get_fp(imp, i),
                                    ref_tensor_get_fp(want, i));
   default:
      if (ref_dtype_is_float(imp->dtype))
         return ref_tensor_get_bits(imp, i) == ref_tensor_get_bits(want, i);
      return ref_tensor_get_int(imp, i) == ref_tensor_get_int(want, i);
   }
}

static void
list_mismatches(struct run *x, const struct tosa_ref_tolerance *tol, const struct ref_tensor *imp,
                const struct ref_tensor *want, const struct ref_tensor *lo,
                const struct ref_tensor *hi, bool is_unsigned, int64_t first)
{
   /* ABS_BOUND: hi is the bound (lo is NULL), listed with the expected value */
   const struct ref_tensor *bnd = tol->kind == TOSA_REF_TOL_ABS_BOUND ? hi : NULL;
   if (bnd)
      hi = NULL;
   unsigned listed = 0;
   for (int64_t i = first < 0 ? 0 : first; i < imp->count && listed < MAX_LISTED; i++) {
      char at[64], got[64], exp[96];
      if (lo) {
         int64_t v =
             is_unsigned ? (int64_t)ref_tensor_get_bits(imp, i) : ref_tensor_get_int(imp, i);
         if (v >= ref_tensor_get_int(lo, i) && v <= ref_tensor_get_int(hi, i))
            continue;
         snprintf(exp, sizeof(exp), "[%" PRId64 ", %" PRId64 "]", ref_tensor_get_int(lo, i),
                  ref_tensor_get_int(hi, i));
      } else {
         if (i != first && element_ok(tol, imp, want, bnd, i))
            continue;
         format_value(want, i, is_unsigned, exp, sizeof(exp));
         if (bnd) {
            size_t n = strlen(exp);
            snprintf(exp + n, sizeof(exp) - n, " +- %.3g", ref_tensor_get_fp(bnd, i));
         }
      }
      format_index(imp, i, at, sizeof(at));
      format_value(imp, i, is_unsigned, got, sizeof(got));
      test_appendf(&x->details, "    %s: got %s, expected %s\n", at, got, exp);
      listed++;
   }
}

/* A copy of a float tensor with every subnormal flushed to a zero of its sign. */
static struct ref_tensor *
flushed(const struct ref_tensor *t, bool *any)
{
   struct ref_tensor *f = ref_tensor_create(t->dtype, t->rank, t->shape);
   if (!f)
      return NULL;
   memcpy(f->data, t->data, (size_t)t->count * ref_dtype_size(t->dtype));
   if (!ref_dtype_may_flush(t->dtype))
      return f;
   double minn = ref_dtype_normal_min(t->dtype);
   for (int64_t i = 0; i < t->count; i++) {
      double v = ref_tensor_get_fp(t, i);
      if (v != 0 && fabs(v) < minn) {
         ref_tensor_set_fp(f, i, signbit(v) ? -0.0 : 0.0);
         *any = true;
      }
   }
   return f;
}

/* TOSA lets an implementation flush every subnormal input to zero: the FP64 reference of
 * output k with the inputs (and constants) flushed, or NULL when none holds a subnormal; with
 * its ABS_BOUND bound in *bound where bound is not NULL. */
static struct ref_tensor *
flushed_reference(struct run *x, unsigned k, struct ref_tensor **bound)
{
   const struct opt_test *t = x->t;
   struct ref_tensor *in[OPT_MAX_TENSORS] = {0}, *cs[OPT_MAX_TENSORS] = {0};
   struct ref_graph_constant consts[OPT_MAX_TENSORS];
   bool any = false, ok = true;
   for (uint32_t i = 0; i < t->input_count && ok; i++)
      ok = (in[i] = flushed(x->inputs[i], &any)) != NULL;
   for (uint32_t i = 0; i < t->constant_count && ok; i++) {
      ok = (cs[i] = flushed(x->constants[i], &any)) != NULL;
      consts[i] = (struct ref_graph_constant){i, cs[i]};
   }
   struct ref_tensor *result = NULL;
   if (ok && any) {
      struct ref_graph_result res;
      if (ref_graph_eval(x->words, x->word_count, "main", (const struct ref_tensor *const *)in,
                         t->input_count, consts, t->constant_count, &res) == TOSA_REF_OK) {
         result = res.outputs[k].fp64;
         res.outputs[k].fp64 = NULL;
         if (bound) {
            *bound = res.outputs[k].bound;
            res.outputs[k].bound = NULL;
         }
      }
      ref_graph_result_finish(&res);
   }
   for (unsigned i = 0; i < OPT_MAX_TENSORS; i++) {
      ref_tensor_destroy(in[i]);
      ref_tensor_destroy(cs[i]);
   }
   return result;
}

/* The tolerance an output is checked with: the test's, or the reference's for its operator. */
static bool
output_tolerance(struct run *x, unsigned k, struct tosa_ref_tolerance *tol)
{
   const struct opt_test *t = x->t;
   bool have_ref = x->ref.status == TOSA_REF_OK;
   if (t->tol == OPT_TOL_DEFAULT) {
      if (have_ref) {
         *tol = x->ref.outputs[k].tol;
         return true;
      }
      *tol = (struct tosa_ref_tolerance){TOSA_REF_TOL_EXACT, 0, "the test (no reference)"};
      return true;
   }
   static const enum tosa_ref_tol_kind kinds[] = {
       [OPT_TOL_EXACT] = TOSA_REF_TOL_EXACT,
       [OPT_TOL_FP_EXACT] = TOSA_REF_TOL_FP_EXACT,
       [OPT_TOL_ULP] = TOSA_REF_TOL_ULP,
       [OPT_TOL_DOT_PRODUCT] = TOSA_REF_TOL_DOT_PRODUCT,
       [OPT_TOL_RESCALE_RANGE] = TOSA_REF_TOL_RESCALE_RANGE,
       [OPT_TOL_ABS_BOUND] = TOSA_REF_TOL_ABS_BOUND,
   };
   *tol = (struct tosa_ref_tolerance){kinds[t->tol], t->ulp, "the test's tolerance"};
   return true;
}

/* --verbose: the largest |imp - ref| / bound of an ULP or ABS_BOUND output that passed (flushed
 * subnormal results and exact matches count 0), to see the margin a device leaves. */
static void
note_margin(struct run *x, const struct tosa_ref_tolerance *tol, const struct ref_tensor *imp,
            const struct ref_tensor *ref, const struct ref_tensor *bnd, unsigned k)
{
   double worst = 0, worst_ulp = 0;
   int64_t at = -1;
   for (int64_t i = 0; i < imp->count; i++) {
      double v = ref_tensor_get_fp(imp, i), r = ref_tensor_get_fp(ref, i);
      if (!isfinite(v) || !isfinite(r) || v == r)
         continue;
      if (v == 0 && fabs(r) < ref_dtype_normal_min(imp->dtype))
         continue;
      double ulp = tosa_ref_ulp(imp->dtype, r);
      double b = bnd ? ref_tensor_get_fp(bnd, i) : ulp * tol->ulp;
      double e = fabs(v - r);
      if (b > 0 && isfinite(b) && e / b > worst) {
         worst = e / b;
         at = i;
      }
      if (ulp > 0 && e / ulp > worst_ulp)
         worst_ulp = e / ulp;
   }
   char idx[64] = "-";
   if (at >= 0)
      format_index(imp, at, idx, sizeof(idx));
   test_appendf(&x->details, "     output %u: max error %.4f of the bound (at %s), %.3f ulp\n", k,
                worst, idx, worst_ulp);
}

static void
check_reference_output(struct run *x, unsigned k)
{
   const struct ref_graph_output *o = &x->ref.outputs[k];
   const struct ref_tensor *imp = x->outputs[k];
   bool is_unsigned = x->t->outputs[k].is_unsigned;
   struct tosa_ref_tolerance tol;
   output_tolerance(x, k, &tol);
   struct tosa_ref_check_report rep = {.pass = true, .first_failure = -1};
   int st = TOSA_REF_OK;
   const struct ref_tensor *want = o->value;
   /* The reference computed with subnormal inputs flushed, where only it passed. */
   struct ref_tensor *flushed_ref = NULL, *flushed_bnd = NULL;
   switch (tol.kind) {
   case TOSA_REF_TOL_EXACT:
      st = tosa_ref_check_tensor(&tol, imp, o->value, &rep);
      break;
   case TOSA_REF_TOL_FP_EXACT:
      want = o->fp64 ? o->fp64 : o->value;
      st = tosa_ref_check_tensor(&tol, imp, want, &rep);
      break;
   case TOSA_REF_TOL_ULP:
   case TOSA_REF_TOL_CAST_FP: /* the exact input of a CAST between float types */
      if (!o->fp64) {
         why(x, "output %u: '%s' needs a float operator's result (%s gives none)", k,
             tol_name(tol.kind), o->op_name);
         return;
      }
      want = o->fp64;
      st = tosa_ref_check_tensor(&tol, imp, want, &rep);
      if (st == TOSA_REF_OK && !rep.pass) {
         struct ref_tensor *ftz = flushed_reference(x, k, NULL);
         struct tosa_ref_check_report r2 = {.pass = true, .first_failure = -1};
         if (ftz && tosa_ref_check_tensor(&tol, imp, ftz, &r2) == TOSA_REF_OK && r2.pass) {
            rep = r2;
            flushed_ref = ftz; /* the margin is the flushed reference's */
            ftz = NULL;
         }
         ref_tensor_destroy(ftz);
      }
      break;
   case TOSA_REF_TOL_DOT_PRODUCT: {
      if (!o->fp64 || !o->bound) {
         why(x, "output %u: 'dot_product' needs CONV2D or MATMUL on floats (%s)", k, o->op_name);
         return;
      }
      struct tosa_ref_dot_report dot;
      st = tosa_ref_check_dot_product(&o->dot, imp, o->fp64, o->bound, &dot);
      if (st == TOSA_REF_OK && !dot.pass) {
         why(x,
             "output %u: outside the dot-product bound (ks %" PRId64 ", ksb %" PRId64
             "): max |err| %.3g <= %.3g, sum err^2 %.3g <= %.3g",
             k, o->dot.ks, dot.ksb, dot.max_abs_err, dot.abs_bound, dot.err_sumsq,
             dot.variance_bound);
         if (dot.first_failure >= 0)
            list_mismatches(x, &tol, imp, o->fp64, NULL, NULL, is_unsigned, dot.first_failure);
         return;
      }
      break;
   }
   case TOSA_REF_TOL_ABS_BOUND:
      if (!o->fp64 || !o->bound) {
         why(x, "output %u: 'abs_bound' needs EXP, LOG, SIN, COS, SIGMOID, TANH or POW (%s)", k,
             o->op_name);
         return;
      }
      want = o->fp64;
      st = tosa_ref_check_tensor_bound(imp, o->fp64, o->bound, &rep);
      if (st == TOSA_REF_OK && !rep.pass) {
         /* the whole output may instead be right for the inputs with subnormals flushed */
         struct ref_tensor *fbnd = NULL;
         struct ref_tensor *ftz = flushed_reference(x, k, &fbnd);
         struct tosa_ref_check_report r2 = {.pass = true, .first_failure = -1};
         if (ftz && fbnd && tosa_ref_check_tensor_bound(imp, ftz, fbnd, &r2) == TOSA_REF_OK &&
             r2.pass) {
            rep = r2;
            flushed_ref = ftz; /* the margin is the flushed reference's */
            flushed_bnd = fbnd;
            ftz = fbnd = NULL;
         }
         ref_tensor_destroy(ftz);
         ref_tensor_destroy(fbnd);
      }
      break;
   case TOSA_REF_TOL_RESCALE_RANGE:
      if (!o->lo) {
         why(x, "output %u: 'rescale_range' needs RESCALE with INEXACT_ROUND (%s)", k, o->op_name);
         return;
      }
      st = tosa_ref_check_rescale_range(imp, o->out_unsigned, o->lo, o->hi, &rep);
      break;
   }
   if (st != TOSA_REF_OK) {
      why(x, "output %u: the %s check could not run: %s", k, tol_name(tol.kind),
          tosa_ref_last_message());
      return;
   }
   if (rep.pass) {
      if (x->verbose && o->fp64 &&
          (tol.kind == TOSA_REF_TOL_ULP || tol.kind == TOSA_REF_TOL_ABS_BOUND)) {
         bool abs = tol.kind == TOSA_REF_TOL_ABS_BOUND;
         note_margin(x, &tol, imp, flushed_ref ? flushed_ref : o->fp64,
                     abs ? (flushed_bnd ? flushed_bnd : o->bound) : NULL, k);
         if (flushed_ref)
            test_appendf(&x->details, "     (against the reference with subnormal inputs "
                                      "flushed, which this output matches)\n");
      }
      ref_tensor_destroy(flushed_ref);
      ref_tensor_destroy(flushed_bnd);
      return;
   }
   char at[64], n[32] = "";
   format_index(imp, rep.first_failure, at, sizeof(at));
   if (tol.kind == TOSA_REF_TOL_ULP)
      snprintf(n, sizeof(n), " %g", tol.ulp);
   why(x, "output %u (%s): %" PRId64 " of %" PRId64 " elements outside %s%s, the first at %s", k,
       o->op_name, rep.failures, imp->count, tol_name(tol.kind), n, at);
   list_mismatches(x, &tol, imp, want, tol.kind == TOSA_REF_TOL_RESCALE_RANGE ? o->lo : NULL,
                   tol.kind == TOSA_REF_TOL_ABS_BOUND ? o->bound : o->hi,
                   is_unsigned || o->out_unsigned, rep.first_failure);
}

static void
check_literal_output(struct run *x, unsigned k)
{
   const struct opt_tensor *e = &x->t->expected[k];
   const struct ref_tensor *imp = x->outputs[k];
   struct tosa_ref_tolerance tol;
   output_tolerance(x, k, &tol);
   if (tol.kind == TOSA_REF_TOL_DOT_PRODUCT || tol.kind == TOSA_REF_TOL_RESCALE_RANGE ||
       tol.kind == TOSA_REF_TOL_ABS_BOUND)
      tol.kind = TOSA_REF_TOL_EXACT; /* the reference's bound needs the reference's data */
   struct ref_tensor *want = ref_tensor_create(
       tol.kind == TOSA_REF_TOL_EXACT ? e->dtype : REF_DTYPE_FP64, e->rank, e->shape);
   if (!want) {
      why(x, "out of memory");
      return;
   }
   for (int64_t i = 0; i < want->count; i++) {
      if (want->dtype == REF_DTYPE_FP64)
         ref_tensor_set_fp(want, i, e->values[i]);
      else
         ref_tensor_set_bits(want, i, e->bits[i]);
   }
   if (tol.kind != TOSA_REF_TOL_EXACT && !ref_dtype_is_float(e->dtype))
      tol.kind = TOSA_REF_TOL_EXACT;
   struct tosa_ref_check_report rep = {.pass = true, .first_failure = -1};
   if (tol.kind == TOSA_REF_TOL_EXACT && want->dtype == REF_DTYPE_FP64) {
      why(x, "output %u: exact literal floats need bit patterns", k);
   } else if (tosa_ref_check_tensor(&tol, imp, want, &rep) != TOSA_REF_OK) {
      why(x, "output %u: the %s check could not run: %s", k, tol_name(tol.kind),
          tosa_ref_last_message());
   } else if (!rep.pass) {
      char at[64];
      format_index(imp, rep.first_failure, at, sizeof(at));
      why(x,
          "output %u: %" PRId64 " of %" PRId64 " elements differ from the literal values "
          "(line %u, %s), the first at %s",
          k, rep.failures, imp->count, e->line, tol_name(tol.kind), at);
      list_mismatches(x, &tol, imp, want, NULL, NULL, e->is_unsigned, rep.first_failure);
   }
   ref_tensor_destroy(want);
}

/* ---- one test ------------------------------------------------------------------------------ */

static void
print_module(struct run *x)
{
   if (!x->text)
      return;
   fprintf(stderr, "    module:\n");
   unsigned n = 1;
   for (const char *s = x->text; *s; n++) {
      const char *nl = strchr(s, '\n');
      size_t len = nl ? (size_t)(nl - s) : strlen(s);
      unsigned src = x->line_map && n <= x->line_count ? x->line_map[n - 1] : 0;
      if (src)
         fprintf(stderr, "    %4u | %.*s\n", src, (int)len, s);
      else
         fprintf(stderr, "         | %.*s\n", (int)len, s);
      s = nl ? nl + 1 : s + len;
   }
}

void
opt_run_test(struct opt_runner *r, const struct opt_file *file, const struct opt_test *t)
{
   struct run x = {.file = file, .t = t, .verbose = r->verbose};
   const char *missing = missing_requirement(r, t);
   if (missing) {
      printf("skip %s:%u: %s: the device lacks %s\n", file->path, t->line, t->name, missing);
      fflush(stdout);
      r->skipped++;
      return;
   }
   unsigned failed_before = test_state.failed;
   unsigned validation_before = r->u.v.validation_errors;
   if (!make_data(&x))
      why(&x, "out of memory making the data");
   else if (assemble(&x)) {
      reference(&x);
      if (reference_agrees(&x)) {
         fflush(stdout);
         run_device(r, &x);
         for (uint32_t k = 0; k < t->output_count && !x.failed && t->expect != OPT_EXPECT_INVALID;
              k++) {
            if (t->expect == OPT_EXPECT_REFERENCE)
               check_reference_output(&x, k);
            else
               check_literal_output(&x, k);
         }
      }
   }
   if (r->u.v.validation_errors != validation_before)
      why(&x, "%u validation messages (above)", r->u.v.validation_errors - validation_before);
   if (test_state.failed != failed_before)
      why(&x, "a Vulkan call failed (above)");
   if (x.failed) {
      printf("FAIL %s:%u: %s: %s\n", file->path, t->line, t->name, x.why);
      if (x.details)
         printf("%s", x.details);
      fflush(stdout);
      if (r->verbose)
         print_module(&x);
      r->failed++;
   } else {
      const char *what = t->expect == OPT_EXPECT_INVALID  ? "rejected"
                         : t->expect == OPT_EXPECT_VALUES ? "literal values"
                                                          : "reference";
      printf("ok   %s: %s (%u operators)\n", t->name, what, x.ref.operator_count);
      if (x.details)
         printf("%s", x.details); /* --verbose: the margins */
      r->passed++;
   }
   fflush(stdout);
   run_finish(&x);
}
