/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of layers/lyr_pnext.c and layers/lyr_device_features.c: struct
 * sizes, chain cloning with ARM ML and unknown structs in every position,
 * output shadow chains, VkDeviceCreateInfo rewriting for each way an
 * application can enable features, and allocation failure. Every test that
 * hands the code an application chain checks afterwards that each of the
 * application's structs is byte-identical to what it was.
 */
#include <stdalign.h>
#include <stdint.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan_arm_ml.h>

#include "lyr_pnext.h"
#include "test.h"

TEST_MAIN_STATE;

/* An sType no header knows, for a struct we define here. */
#define UNKNOWN_STYPE ((VkStructureType)1000999000)

struct unknown_ext {
   VkStructureType sType;
   void *pNext;
   uint32_t payload[6];
};

/* ---- allocation: counts live blocks, fails on the Nth call when asked ---- */

struct test_alloc {
   unsigned calls;
   unsigned fail_at; /* 1-based; 0 never fails */
   int live;
};

static void *VKAPI_PTR
test_alloc_fn(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct test_alloc *a = user;
   a->calls++;
   if (a->fail_at && a->calls == a->fail_at)
      return NULL;
   if (align < sizeof(void *))
      align = sizeof(void *);
   void *p = aligned_alloc(align, (size + align - 1) / align * align);
   if (p) {
      memset(p, 0xa5, size); /* no code may rely on fresh memory being zero */
      a->live++;
   }
   return p;
}

static void *VKAPI_PTR
test_realloc_fn(void *user, void *orig, size_t size, size_t align, VkSystemAllocationScope scope)
{
   return NULL; /* nothing here reallocates */
}

static void VKAPI_PTR
test_free_fn(void *user, void *p)
{
   struct test_alloc *a = user;
   if (p) {
      a->live--;
      free(p);
   }
}

static VkAllocationCallbacks
test_callbacks(struct test_alloc *a)
{
   memset(a, 0, sizeof(*a));
   return (VkAllocationCallbacks){
       .pUserData = a,
       .pfnAllocation = test_alloc_fn,
       .pfnReallocation = test_realloc_fn,
       .pfnFree = test_free_fn,
   };
}

/* ---- byte snapshots of application structs ---- */

#define SNAP_MAX 24

struct snaps {
   unsigned count;
   const void *ptr[SNAP_MAX];
   size_t size[SNAP_MAX];
   unsigned char bytes[SNAP_MAX][1024];
};

static size_t
test_struct_size(VkStructureType stype)
{
   return stype == UNKNOWN_STYPE ? sizeof(struct unknown_ext) : lyr_struct_size(stype);
}

static void
snap_add(struct snaps *s, const void *p, size_t size)
{
   if (s->count >= SNAP_MAX || size > sizeof(s->bytes[0])) {
      ok(false, "snapshot too large");
      return;
   }
   s->ptr[s->count] = p;
   s->size[s->count] = size;
   memcpy(s->bytes[s->count], p, size);
   s->count++;
}

/* Snapshots head (head_size bytes) and every struct its chain reaches. */
static void
snap_chain(struct snaps *s, const void *head, size_t head_size)
{
   memset(s, 0, sizeof(*s));
   snap_add(s, head, head_size);
   for (const VkBaseInStructure *m = ((const VkBaseInStructure *)head)->pNext; m; m = m->pNext)
      snap_add(s, m, test_struct_size(m->sType));
}

static bool
snaps_unchanged(const struct snaps *s)
{
   bool same = true;
   for (unsigned i = 0; i < s->count; i++) {
      if (memcmp(s->ptr[i], s->bytes[i], s->size[i]) != 0) {
         fprintf(stderr, "application struct %u (sType %d) changed\n", i,
                 (int)((const VkBaseInStructure *)s->ptr[i])->sType);
         same = false;
      }
   }
   return same;
}

/* ---- chain helpers ---- */

/* Links the NULL-terminated list of structs behind head, in order; returns head. */
static void *
link_chain(void *head, ...)
{
   va_list ap;
   va_start(ap, head);
   VkBaseOutStructure *last = head;
   for (VkBaseOutStructure *s; (s = va_arg(ap, VkBaseOutStructure *)) != NULL;) {
      last->pNext = s;
      last = s;
   }
   last->pNext = NULL;
   va_end(ap);
   return head;
}

static unsigned
chain_length(const void *head)
{
   unsigned n = 0;
   for (const VkBaseInStructure *s = head; s; s = s->pNext)
      n++;
   return n;
}

/* True when the chain's sTypes are exactly expected[0..n). */
static bool
chain_is(const void *head, const VkStructureType *expected, unsigned n)
{
   unsigned i = 0;
   for (const VkBaseInStructure *s = head; s; s = s->pNext, i++) {
      if (i >= n || s->sType != expected[i]) {
         fprintf(stderr, "chain[%u]: sType %d, expected %d\n", i, (int)s->sType,
                 i < n ? (int)expected[i] : -1);
         return false;
      }
   }
   if (i != n)
      fprintf(stderr, "chain has %u structs, expected %u\n", i, n);
   return i == n;
}

/* True when no struct of the chain is one of the application's (the snapshots). */
static bool
chain_is_ours(const void *head, const struct snaps *app)
{
   for (const VkBaseInStructure *s = head; s; s = s->pNext) {
      for (unsigned i = 0; i < app->count; i++) {
         if (app->ptr[i] == s)
            return false;
      }
   }
   return true;
}

/* A copy matches its original in everything but pNext. */
static bool
same_body(const void *copy, const void *orig)
{
   const VkBaseInStructure *c = copy, *o = orig;
   size_t size = test_struct_size(o->sType);
   size_t hdr = sizeof(VkBaseInStructure);
   return c->sType == o->sType &&
          memcmp((const char *)copy + hdr, (const char *)orig + hdr, size - hdr) == 0;
}

static unsigned
count_stype(const void *head, VkStructureType stype)
{
   unsigned n = 0;
   for (const VkBaseInStructure *s = head; s; s = s->pNext)
      n += s->sType == stype;
   return n;
}

static bool
chain_has_arm(const void *head)
{
   for (const VkBaseInStructure *s = head; s; s = s->pNext) {
      if (lyr_is_arm_ml_stype(s->sType))
         return true;
   }
   return false;
}

/* ---- struct sizes ---- */

static void
test_struct_sizes(void)
{
   test_set_context("struct sizes");
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_APPLICATION_INFO), sizeof(VkApplicationInfo));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO), sizeof(VkDeviceCreateInfo));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2),
                sizeof(VkPhysicalDeviceFeatures2));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES),
                sizeof(VkPhysicalDeviceVulkan13Features));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES),
                sizeof(VkPhysicalDeviceVulkan12Properties));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT),
                sizeof(VkPhysicalDeviceMeshShaderFeaturesEXT));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2), sizeof(VkMemoryBarrier2));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES),
                sizeof(VkPhysicalDeviceBufferDeviceAddressFeatures));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO),
                sizeof(VkLayerDeviceCreateInfo));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO),
                sizeof(VkLayerInstanceCreateInfo));
   /* Newer than Debian's headers, added by the graph layer (D51, D60): the KHR
    * cooperative-matrix features (the NV layout) and the bf16 features (sType, pNext and three
    * VkBool32: 32 bytes on LP64, the padding included, as the registry's struct) */
   check_eq_u64(lyr_struct_size((VkStructureType)1000506000),
                sizeof(VkPhysicalDeviceCooperativeMatrixFeaturesNV));
   check_eq_u64(lyr_struct_size((VkStructureType)1000141000), sizeof(void *) == 8 ? 32 : 20);

   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM),
                sizeof(VkTensorCreateInfoARM));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM),
                sizeof(VkPhysicalDeviceTensorPropertiesARM));
   check_eq_u64(
       lyr_struct_size(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM),
       sizeof(VkDataGraphPipelineShaderModuleCreateInfoARM));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM),
                sizeof(VkQueueFamilyDataGraphPropertiesARM));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM),
                sizeof(VkQueueFamilyDataGraphTOSAPropertiesARM));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM),
                sizeof(VkDataGraphPipelineSingleNodeConnectionARM));
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_TENSOR_ROLLING_BACKING_CREATE_INFO_ARM),
                sizeof(VkTensorRollingBackingCreateInfoARM));
   check_eq_u64(
       lyr_struct_size(
           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_FEATURES_ARM),
       sizeof(VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM));
   check_eq_u64(
       lyr_struct_size(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_HEAP_TENSOR_PROPERTIES_ARM),
       sizeof(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM));

   /* Every ARM sType of spec-facts §1.3–1.7 has a size (and the table's search works). */
   static const struct {
      int32_t first, count;
   } arm_blocks[] = {
       {1000460000, 24}, {1000507000, 20}, {1000508000, 1}, {1000565000, 2},
       {1000631000, 9},  {1000676000, 3},  {1000135014, 1},
   };
   unsigned known = 0;
   for (size_t b = 0; b < sizeof(arm_blocks) / sizeof(arm_blocks[0]); b++) {
      for (int32_t i = 0; i < arm_blocks[b].count; i++) {
         VkStructureType st = (VkStructureType)(arm_blocks[b].first + i);
         size_t size = lyr_struct_size(st);
         ok(size >= sizeof(VkBaseInStructure) && size % sizeof(void *) == 0,
            "ARM sType %d has size %zu", (int)st, size);
         known += size != 0;
      }
   }
   check_eq_u64(known, 60);

   check_eq_u64(lyr_struct_size((VkStructureType)1000460999), 0);
   check_eq_u64(lyr_struct_size((VkStructureType)1000507999), 0);
   /* VkPhysicalDeviceCooperativeMatrixFeaturesKHR, known by hand (D51) */
   check_eq_u64(lyr_struct_size((VkStructureType)1000506000), 24);
   check_eq_u64(lyr_struct_size(UNKNOWN_STYPE), 0);
   check_eq_u64(lyr_struct_size((VkStructureType)0x7ffffffe), 0);
   check_eq_u64(lyr_struct_size(VK_STRUCTURE_TYPE_MAX_ENUM), 0);

   test_set_context("ARM sType ranges");
   static const struct {
      int32_t stype;
      bool arm;
   } ranges[] = {
       {1000459999, false}, {1000460000, true},  {1000460999, true},  {1000461000, false},
       {1000506999, false}, {1000507000, true},  {1000508999, true},  {1000509000, false},
       {1000564999, false}, {1000565000, true},  {1000565999, true},  {1000566000, false},
       {1000630999, false}, {1000631000, true},  {1000631999, true},  {1000632000, false},
       {1000675999, false}, {1000676000, true},  {1000676999, true},  {1000677000, false},
       {1000135013, false}, {1000135014, true},  {1000135015, false}, {0, false},
       {1000059000, false}, {1000999000, false},
   };
   for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
      ok(lyr_is_arm_ml_stype((VkStructureType)ranges[i].stype) == ranges[i].arm,
         "lyr_is_arm_ml_stype(%d) should be %d", (int)ranges[i].stype, ranges[i].arm);
   }
}

static void
test_find_struct(void)
{
   test_set_context("find");
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
   VkPhysicalDeviceVulkan12Features v12a = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan12Features v12b = v12a;
   link_chain(&f2, &v11, &v12a, &v12b, NULL);
   ok(lyr_find_struct(&f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) == &f2, "head");
   ok(lyr_find_struct(&f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) == &v12a,
      "first of two");
   ok(lyr_find_struct(&f2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) == NULL,
      "absent");
   ok(lyr_find_struct(NULL, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) == NULL, "NULL chain");
}

/* ---- input chains ---- */

/* Application structs for the clone tests: a head, three core members, three ARM ones. */
struct clone_fixture {
   VkBufferCreateInfo head;
   VkExternalMemoryBufferCreateInfo ext;
   VkBufferOpaqueCaptureAddressCreateInfo capture;
   VkBufferDeviceAddressCreateInfoEXT bda;
   VkExternalMemoryTensorCreateInfoARM arm_ext;
   VkTensorRollingBackingCreateInfoARM arm_rolling;
   VkDataGraphPipelineCompilerControlCreateInfoARM arm_dg;
   struct unknown_ext unknown;
};

static void
clone_fixture_init(struct clone_fixture *f)
{
   memset(f, 0, sizeof(*f));
   f->head = (VkBufferCreateInfo){
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = 4096,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
   };
   f->ext = (VkExternalMemoryBufferCreateInfo){
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
       .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT,
   };
   f->capture = (VkBufferOpaqueCaptureAddressCreateInfo){
       .sType = VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO,
       .opaqueCaptureAddress = 0x123456789abcull,
   };
   f->bda = (VkBufferDeviceAddressCreateInfoEXT){
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT,
       .deviceAddress = 0xfeed0000ull,
   };
   f->arm_ext = (VkExternalMemoryTensorCreateInfoARM){
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM,
   };
   f->arm_rolling = (VkTensorRollingBackingCreateInfoARM){
       .sType = VK_STRUCTURE_TYPE_TENSOR_ROLLING_BACKING_CREATE_INFO_ARM,
   };
   f->arm_dg = (VkDataGraphPipelineCompilerControlCreateInfoARM){
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_COMPILER_CONTROL_CREATE_INFO_ARM,
       .pVendorOptions = "-O3",
   };
   f->unknown = (struct unknown_ext){.sType = UNKNOWN_STYPE, .payload = {1, 2, 3, 4, 5, 6}};
}

/*
 * Clones the chain behind f->head (already linked) with lyr_drop_arm_ml and
 * checks the copy: exactly the expected sTypes, none of them the
 * application's, bodies equal to the originals, application unchanged.
 */
static void
check_clone(const char *name, struct clone_fixture *f, const VkStructureType *want, unsigned n)
{
   test_set_context(name);
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct snaps app;
   snap_chain(&app, &f->head, sizeof(f->head));

   struct lyr_chain_copy copy;
   r = lyr_chain_clone(&cb, &f->head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   if (r != VK_SUCCESS)
      return;
   ok(chain_is(copy.head, want, n), "cloned sTypes");
   ok(chain_is_ours(copy.head, &app), "every struct of the clone is a copy");
   ok(!chain_has_arm(copy.head), "no ARM struct left");
   ok(copy.extra == NULL, "no extra space asked for");
   for (const VkBaseInStructure *s = copy.head; s; s = s->pNext) {
      const void *orig = lyr_find_struct(&f->head, s->sType);
      ok(orig && same_body(s, orig), "copy of sType %d equals the original", (int)s->sType);
      ok(((uintptr_t)s & 15) == 0, "copy aligned");
   }
   ok(snaps_unchanged(&app), "application chain unchanged");
   lyr_chain_copy_free(&copy);
   ok(copy.block == NULL, "freed copy is cleared");
   check_eq_i64(ta.live, 0);
   ok(snaps_unchanged(&app), "application chain unchanged after free");
}

static void
test_clone_positions(void)
{
   struct clone_fixture f;
   const VkStructureType B = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
   const VkStructureType E = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
   const VkStructureType C = VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO;
   const VkStructureType D = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT;

   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.capture, &f.bda, NULL);
   check_clone("clone: no ARM", &f, (VkStructureType[]){B, E, C, D}, 4);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.arm_ext, &f.ext, &f.capture, &f.bda, NULL);
   check_clone("clone: ARM first", &f, (VkStructureType[]){B, E, C, D}, 4);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.arm_dg, &f.capture, &f.bda, NULL);
   check_clone("clone: ARM in the middle", &f, (VkStructureType[]){B, E, C, D}, 4);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.capture, &f.bda, &f.arm_rolling, NULL);
   check_clone("clone: ARM last", &f, (VkStructureType[]){B, E, C, D}, 4);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.arm_ext, &f.arm_rolling, &f.arm_dg, &f.bda, NULL);
   check_clone("clone: three ARM in a row", &f, (VkStructureType[]){B, E, D}, 3);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.arm_ext, &f.ext, &f.arm_rolling, &f.capture, &f.arm_dg, NULL);
   check_clone("clone: ARM first, middle and last", &f, (VkStructureType[]){B, E, C}, 3);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.arm_ext, &f.arm_rolling, &f.arm_dg, NULL);
   check_clone("clone: only ARM", &f, (VkStructureType[]){B}, 1);

   clone_fixture_init(&f);
   link_chain(&f.head, NULL);
   check_clone("clone: head alone", &f, (VkStructureType[]){B}, 1);

   /* Unknown sTypes are left out with a warning; the rest is cloned. */
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.unknown, &f.arm_ext, &f.bda, NULL);
   check_clone("clone: unknown in the middle", &f, (VkStructureType[]){B, E, D}, 3);

   clone_fixture_init(&f);
   link_chain(&f.head, &f.unknown, NULL);
   check_clone("clone: unknown alone", &f, (VkStructureType[]){B}, 1);
}

static bool
drop_one_stype(const VkBaseInStructure *s, void *user)
{
   return s->sType == *(const VkStructureType *)user;
}

static void
test_clone_options(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct clone_fixture f;
   struct snaps app;
   struct lyr_chain_copy copy;

   test_set_context("clone: no drop function keeps ARM structs");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.arm_ext, &f.bda, NULL);
   snap_chain(&app, &f.head, sizeof(f.head));
   r = lyr_chain_clone(&cb, &f.head, 0, NULL, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               4),
      "all kept");
   lyr_chain_copy_free(&copy);

   test_set_context("clone: drop function with user data");
   VkStructureType victim = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
   r = lyr_chain_clone(&cb, &f.head, 0, drop_one_stype, &victim, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               3),
      "only the victim dropped");
   lyr_chain_copy_free(&copy);

   test_set_context("clone: extra space and append");
   r = lyr_chain_clone(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 40, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(copy.extra != NULL && ((uintptr_t)copy.extra & 15) == 0, "extra is 16-aligned");
   bool zero = copy.extra != NULL;
   for (unsigned i = 0; zero && i < 40; i++)
      zero = ((const unsigned char *)copy.extra)[i] == 0;
   ok(zero, "extra is zeroed");
   VkBufferOpaqueCaptureAddressCreateInfo *added = copy.extra;
   added->sType = VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO;
   lyr_chain_append(copy.head, added);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               4),
      "added right after the head (the end of a copy may be the application's)");
   ok(snaps_unchanged(&app), "application chain unchanged");
   lyr_chain_copy_free(&copy);

   test_set_context("clone: head of unknown sType");
   clone_fixture_init(&f);
   link_chain(&f.unknown, &f.ext, &f.arm_dg, NULL);
   snap_chain(&app, &f.unknown, sizeof(f.unknown));
   r = lyr_chain_clone(&cb, &f.unknown, sizeof(f.unknown), lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(
          copy.head,
          (VkStructureType[]){UNKNOWN_STYPE, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO},
          2),
      "head_size given");
   ok(copy.head && memcmp(((struct unknown_ext *)copy.head)->payload, f.unknown.payload,
                          sizeof(f.unknown.payload)) == 0,
      "head copied");
   lyr_chain_copy_free(&copy);
   ok(lyr_chain_clone(&cb, &f.unknown, 0, lyr_drop_arm_ml, NULL, 0, &copy) != VK_SUCCESS,
      "unknown head without a size fails");
   ok(copy.block == NULL, "nothing allocated on failure");
   ok(snaps_unchanged(&app), "application chain unchanged");
   check_eq_i64(ta.live, 0);
}

/* lyr_chain_clone_in: the caller's buffer when the copy fits (nothing
 * allocated, nothing freed), an allocation when it does not. */
static bool
drop_bda(const VkBaseInStructure *s, void *user)
{
   return s->sType == VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT ||
          lyr_is_arm_ml_stype(s->sType);
}

/* lyr_chain_clone_pass(): structs of unknown size stay, with the application's chain from the
 * first of them on; a struct that must go (not ARM ML) after one makes them go instead. */
static void
test_clone_pass(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   struct clone_fixture f;
   struct snaps app;
   struct lyr_chain_copy copy;
   VkResult r;

   test_set_context("clone pass: unknown in the middle");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.arm_dg, &f.ext, &f.unknown, &f.arm_ext, &f.bda, NULL);
   snap_chain(&app, &f.head, sizeof(f.head));
   r = lyr_chain_clone_pass(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   UNKNOWN_STYPE,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               5),
      "the ARM struct before the unknown one cut out, the rest the application's");
   ok(copy.app_tail == &f.unknown && copy.tail_known, "tail: the unknown struct, known ones after");
   ok(((const VkBaseInStructure *)copy.head)->pNext != (const void *)&f.ext, "ext is a copy");
   ok(snaps_unchanged(&app), "application chain unchanged");
   lyr_chain_copy_free(&copy);
   check_eq_i64(ta.live, 0);

   test_set_context("clone pass: unknown last");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.arm_ext, &f.unknown, NULL);
   r = lyr_chain_clone_pass(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   UNKNOWN_STYPE},
               3),
      "kept at the end");
   ok(copy.app_tail == &f.unknown && !copy.tail_known, "nothing known after it");
   lyr_chain_copy_free(&copy);

   test_set_context("clone pass: a struct that must go after the unknown one");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.unknown, &f.ext, &f.bda, NULL);
   r = lyr_chain_clone_pass(&cb, &f.head, 0, drop_bda, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO},
               2),
      "the unknown struct is left out (as lyr_chain_clone() does)");
   ok(copy.app_tail == NULL, "no tail");
   lyr_chain_copy_free(&copy);

   test_set_context("clone pass edit: an edited struct after the unknown one");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.unknown, &f.ext, &f.bda, NULL);
   const VkStructureType edits[] = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
   r = lyr_chain_clone_pass_edit(NULL, 0, &cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, edits, 1,
                                 &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               3),
      "the unknown struct is left out, so that the edited one is a copy");
   ok(copy.app_tail == NULL &&
          lyr_find_struct(((const VkBaseInStructure *)copy.head)->pNext,
                          VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO) != &f.ext,
      "no tail; the edited struct found is the copy");
   lyr_chain_copy_free(&copy);

   test_set_context("clone pass edit: an edited struct before the unknown one");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.unknown, &f.bda, NULL);
   r = lyr_chain_clone_pass_edit(NULL, 0, &cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, edits, 1,
                                 &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_length(copy.head) == 4 && copy.app_tail == &f.unknown,
      "the unknown struct and what follows pass on as the application's");
   ok(((const VkBaseInStructure *)copy.head)->pNext != (const void *)&f.ext,
      "the edited struct is a copy");
   lyr_chain_copy_free(&copy);
   check_eq_i64(ta.live, 0);

   test_set_context("clone: unknown struct without pass-through");
   link_chain(&f.head, &f.ext, &f.unknown, NULL);
   r = lyr_chain_clone(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_length(copy.head) == 2 && copy.app_tail == NULL, "left out");
   lyr_chain_copy_free(&copy);
   check_eq_i64(ta.live, 0);

   /* A chain that loops back on itself: refused, nothing allocated, every walk ends. */
   test_set_context("clone: a loop");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.capture, &f.bda, NULL);
   f.bda.pNext = &f.ext;
   ta.calls = 0;
   ok(!lyr_chain_ends(f.head.pNext), "lyr_chain_ends sees the loop");
   ok(lyr_find_struct(f.head.pNext, VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM) == NULL,
      "lyr_find_struct ends");
   ok(!lyr_chain_has_arm_ml(f.head.pNext), "lyr_chain_has_arm_ml ends");
   r = lyr_chain_clone(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
   ok(copy.head == NULL && copy.block == NULL, "nothing handed out");
   r = lyr_chain_clone_pass(&cb, &f.head, 0, lyr_drop_arm_ml, NULL, 0, &copy);
   check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
   f.bda.pNext = &f.bda; /* a struct pointing at itself */
   ok(!lyr_chain_ok(f.head.pNext, "test"), "lyr_chain_ok refuses a self loop");
   check_eq_i64(ta.calls, 0);
   check_eq_i64(ta.live, 0);
}

static void
test_clone_in(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   struct clone_fixture f;
   struct lyr_chain_copy copy;
   _Alignas(16) unsigned char buf[512];

   test_set_context("clone_in: fits in the caller's buffer");
   clone_fixture_init(&f);
   link_chain(&f.head, &f.ext, &f.arm_ext, &f.bda, NULL);
   memset(buf, 0xcd, sizeof(buf));
   VkResult r = lyr_chain_clone_in(buf, sizeof(buf), &cb, &f.head, 0, lyr_drop_arm_ml, NULL, 40,
                                   &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(copy.head == (void *)buf && copy.block == NULL, "copied into the buffer");
   check_eq_i64(ta.calls, 0);
   ok(chain_is(copy.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                   VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_CREATE_INFO_EXT},
               3),
      "ARM struct dropped");
   bool zero = copy.extra != NULL;
   for (unsigned i = 0; zero && i < 40; i++)
      zero = ((const unsigned char *)copy.extra)[i] == 0;
   ok(zero, "extra is zeroed");
   lyr_chain_copy_free(&copy);
   check_eq_i64(ta.live, 0);

   test_set_context("clone_in: too large for the buffer");
   r = lyr_chain_clone_in(buf, 64, &cb, &f.head, 0, lyr_drop_arm_ml, NULL, 40, &copy);
   check_eq_i64(r, VK_SUCCESS);
   ok(copy.block != NULL && copy.head != (void *)buf, "allocated");
   check_eq_i64(ta.live, 1);
   lyr_chain_copy_free(&copy);
   check_eq_i64(ta.live, 0);
   ta.fail_at = ta.calls + 1;
   r = lyr_chain_clone_in(buf, 64, &cb, &f.head, 0, lyr_drop_arm_ml, NULL, 40, &copy);
   check_eq_i64(r, VK_ERROR_OUT_OF_HOST_MEMORY);
   ta.fail_at = 0;
}

/* ---- output chains ---- */

struct out_fixture {
   VkPhysicalDeviceFeatures2 f2;
   VkPhysicalDeviceVulkan11Features v11;
   VkPhysicalDeviceVulkan12Features v12;
   VkPhysicalDeviceVulkan13Features v13;
   VkPhysicalDeviceTensorFeaturesARM tensor;
   VkPhysicalDeviceDataGraphFeaturesARM graph;
   struct unknown_ext unknown;
};

static void
out_fixture_init(struct out_fixture *f)
{
   memset(f, 0, sizeof(*f));
   f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   f->tensor.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM;
   f->graph.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM;
   f->unknown.sType = UNKNOWN_STYPE;
   f->unknown.payload[0] = 7;
}

/* Whether the fake driver may see ARM ML structs (and skip them, as the Vulkan specification
 * has a component do with structs it does not support). */
static bool driver_skips_arm;

/* What a driver newer than this build does with the shadow chain: fills the structs it
 * knows, UNKNOWN_STYPE included (payload[1] = 9). */
static void
fake_driver_fill(void *head)
{
   for (VkBaseOutStructure *s = head; s; s = s->pNext) {
      if (driver_skips_arm && lyr_is_arm_ml_stype(s->sType))
         continue;
      if (s->sType == UNKNOWN_STYPE) {
         ((struct unknown_ext *)s)->payload[1] = 9;
         continue;
      }
      switch (s->sType) {
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
         ((VkPhysicalDeviceFeatures2 *)s)->features.shaderInt64 = VK_TRUE;
         ((VkPhysicalDeviceFeatures2 *)s)->features.robustBufferAccess = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
         ((VkPhysicalDeviceVulkan11Features *)s)->storageBuffer16BitAccess = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
         ((VkPhysicalDeviceVulkan12Features *)s)->bufferDeviceAddress = VK_TRUE;
         ((VkPhysicalDeviceVulkan12Features *)s)->timelineSemaphore = VK_TRUE;
         break;
      case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
         ((VkPhysicalDeviceVulkan13Features *)s)->synchronization2 = VK_TRUE;
         break;
      default:
         ok(false, "the driver saw sType %d", (int)s->sType);
         break;
      }
   }
}

/* The application's sType/pNext bytes of each snapshot are what they were. */
static bool
headers_unchanged(const struct snaps *s)
{
   for (unsigned i = 0; i < s->count; i++) {
      if (memcmp(s->ptr[i], s->bytes[i], sizeof(VkBaseOutStructure)) != 0)
         return false;
   }
   return true;
}

static void
test_out_chain(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct out_fixture f;
   struct snaps app;
   struct lyr_out_chain oc;

   test_set_context("out chain: nothing dropped");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.v11, &f.v12, NULL);
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(oc.head == &f.f2 && oc.block == NULL, "the application's chain goes down as is");
   check_eq_i64(ta.calls, 0);
   fake_driver_fill(oc.head);
   lyr_out_chain_end(&oc);
   ok(f.v12.bufferDeviceAddress == VK_TRUE, "results in place");

   test_set_context("out chain: ARM in the middle, suffix kept");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.v12, &f.tensor, &f.v13, &f.graph, &f.v11, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(oc.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES},
               4),
      "shadow without ARM structs");
   ok(oc.head != &f.f2, "head is a copy");
   ok(lyr_find_struct(oc.head, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES) == &f.v11,
      "the struct after the last dropped one is the application's own");
   check_eq_u64(oc.count, 3);
   ok(snaps_unchanged(&app), "application untouched before the call returns");
   fake_driver_fill(oc.head);
   lyr_out_chain_end(&oc);
   check_eq_i64(ta.live, 0);
   ok(oc.block == NULL, "shadow freed");
   ok(headers_unchanged(&app), "application sType/pNext bytes unchanged");
   ok(f.f2.features.shaderInt64 && f.f2.features.robustBufferAccess, "core results copied back");
   ok(f.v12.bufferDeviceAddress && f.v12.timelineSemaphore, "Vulkan12 results copied back");
   ok(f.v13.synchronization2, "Vulkan13 results copied back");
   ok(f.v11.storageBuffer16BitAccess, "Vulkan11 results written in place");
   ok(memcmp(&f.tensor, app.bytes[2], sizeof(f.tensor)) == 0, "ARM struct untouched");
   ok(memcmp(&f.graph, app.bytes[4], sizeof(f.graph)) == 0, "ARM struct untouched");
   ok(f.f2.pNext == &f.v12 && f.v12.pNext == &f.tensor && f.tensor.pNext == &f.v13 &&
          f.v13.pNext == &f.graph && f.graph.pNext == &f.v11 && f.v11.pNext == NULL,
      "application links intact");

   test_set_context("out chain: ARM last");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.v12, &f.tensor, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(oc.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES},
               2),
      "shadow");
   ok(chain_is_ours(oc.head, &app), "all copies");
   fake_driver_fill(oc.head);
   lyr_out_chain_end(&oc);
   ok(headers_unchanged(&app), "application sType/pNext bytes unchanged");
   ok(f.v12.bufferDeviceAddress && f.f2.features.shaderInt64, "results copied back");
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: consecutive ARM first");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.tensor, &f.graph, &f.v13, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(oc.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES},
               2),
      "shadow");
   check_eq_u64(oc.count, 1);
   fake_driver_fill(oc.head);
   lyr_out_chain_end(&oc);
   ok(headers_unchanged(&app), "application sType/pNext bytes unchanged");
   ok(f.v13.synchronization2 && f.f2.features.shaderInt64, "results");
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: unknown struct before a dropped one");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.unknown, &f.tensor, &f.v12, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(oc.head == &f.f2 && oc.block == NULL,
      "the application's chain goes down as is: the unknown struct cannot be copied, the ARM "
      "struct after it is skipped below");
   driver_skips_arm = true;
   fake_driver_fill(oc.head);
   driver_skips_arm = false;
   lyr_out_chain_end(&oc);
   ok(f.unknown.payload[1] == 9, "the unknown struct reached the driver");
   ok(f.v12.bufferDeviceAddress && f.f2.features.shaderInt64, "results in place");
   ok(memcmp(&f.tensor, app.bytes[2], sizeof(f.tensor)) == 0, "ARM struct untouched");
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: dropped, unknown, dropped");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.tensor, &f.v12, &f.unknown, &f.graph, &f.v13, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(oc.head,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                   UNKNOWN_STYPE,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES},
               5),
      "the first ARM struct cut out, the rest the application's from Vulkan12 on");
   ok(lyr_find_struct(oc.head, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) == &f.v12,
      "Vulkan12 is the application's own");
   driver_skips_arm = true;
   fake_driver_fill(oc.head);
   driver_skips_arm = false;
   lyr_out_chain_end(&oc);
   ok(headers_unchanged(&app), "application sType/pNext bytes unchanged");
   ok(f.unknown.payload[1] == 9 && f.v13.synchronization2 && f.f2.features.shaderInt64,
      "results");
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: a loop");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.v11, &f.v12, NULL);
   f.v12.pNext = &f.v11;
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
   ok(oc.head == NULL && oc.block == NULL, "nothing to pass down");
   lyr_out_chain_end(&oc);
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: unknown struct after the last dropped one");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.tensor, &f.unknown, NULL);
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_length(oc.head) == 2 &&
          ((VkBaseOutStructure *)oc.head)->pNext == (VkBaseOutStructure *)&f.unknown,
      "stays the application's own: it needs no copy");
   lyr_out_chain_end(&oc);
   check_eq_i64(ta.live, 0);

   test_set_context("out chain: allocation failure");
   out_fixture_init(&f);
   link_chain(&f.f2, &f.tensor, &f.v12, NULL);
   snap_chain(&app, &f.f2, sizeof(f.f2));
   ta.calls = 0;
   ta.fail_at = 1;
   r = lyr_out_chain_begin(&oc, &cb, &f.f2, 0, lyr_drop_arm_ml, NULL);
   check_eq_i64(r, VK_ERROR_OUT_OF_HOST_MEMORY);
   ok(oc.head == NULL && oc.block == NULL, "nothing to pass down");
   lyr_out_chain_end(&oc); /* harmless */
   check_eq_i64(ta.live, 0);
   ok(snaps_unchanged(&app), "application unchanged");
   ta.fail_at = 0;
}

/* ---- device creation ---- */

static const char *const strip_names[] = {
    "VK_ARM_tensors",
    "VK_ARM_data_graph",
    "VK_ARM_data_graph_instruction_set_tosa",
};

static struct lyr_feature_request
request_all(void)
{
   struct lyr_feature_request r;
   bool *b = (bool *)&r;
   for (size_t i = 0; i < sizeof(r) / sizeof(bool); i++)
      b[i] = true;
   return r;
}

static const VkStructureType vk1x_stypes[] = {
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
};

static const VkStructureType standalone_stypes[] = {
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
};

/* Version (11, 12, 13) whose Vulkan1x struct covers a standalone struct. */
static unsigned
standalone_version(VkStructureType stype)
{
   switch (stype) {
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
      return 11;
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
   case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
      return 13;
   default:
      return 12;
   }
}

/*
 * Checks what every rewritten chain must satisfy: no ARM struct, no sType
 * twice, no Vulkan1x struct next to a standalone struct of the same version,
 * none of the application's structs in it, and each requested feature on.
 */
static void
check_device_chain(const VkDeviceCreateInfo *info, const struct snaps *app)
{
   ok(info->sType == VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, "sType");
   ok(!chain_has_arm(info->pNext), "no ARM struct");
   for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext)
      ok(count_stype(info->pNext, s->sType) == 1, "sType %d once", (int)s->sType);
   for (size_t i = 0; i < sizeof(standalone_stypes) / sizeof(standalone_stypes[0]); i++) {
      if (!lyr_find_struct(info->pNext, standalone_stypes[i]))
         continue;
      unsigned v = standalone_version(standalone_stypes[i]);
      ok(!lyr_find_struct(info->pNext, vk1x_stypes[v - 11]),
         "standalone sType %d next to Vulkan%u features", (int)standalone_stypes[i], v);
   }
   ok(chain_is_ours(info->pNext, app), "the chain passed down holds only copies");
}

/* The VkBool32 the device will read for one feature of the request. */
static VkBool32
enabled_core(const VkDeviceCreateInfo *info, size_t offset)
{
   const VkPhysicalDeviceFeatures *core = info->pEnabledFeatures;
   if (!core) {
      const VkPhysicalDeviceFeatures2 *f2 =
          lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
      core = f2 ? &f2->features : NULL;
   }
   return core ? *(const VkBool32 *)((const char *)core + offset) : VK_FALSE;
}

static VkBool32
enabled_in(const VkDeviceCreateInfo *info, VkStructureType vk1x, size_t vk1x_offset,
           VkStructureType standalone, size_t standalone_offset)
{
   const void *s = lyr_find_struct(info->pNext, vk1x);
   if (s)
      return *(const VkBool32 *)((const char *)s + vk1x_offset);
   s = lyr_find_struct(info->pNext, standalone);
   if (s)
      return *(const VkBool32 *)((const char *)s + standalone_offset);
   return VK_FALSE;
}

#define ENABLED(info, ver, sa_stype, sa_type, member)                                              \
   enabled_in(info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_##ver##_FEATURES,                   \
              offsetof(VkPhysicalDeviceVulkan1##ver##Features, member), sa_stype,                  \
              offsetof(sa_type, member))

static void
check_all_enabled(const VkDeviceCreateInfo *info)
{
   ok(enabled_core(info, offsetof(VkPhysicalDeviceFeatures, shaderInt16)), "shaderInt16");
   ok(enabled_core(info, offsetof(VkPhysicalDeviceFeatures, shaderInt64)), "shaderInt64");
   ok(enabled_core(info, offsetof(VkPhysicalDeviceFeatures, shaderFloat64)), "shaderFloat64");
   ok(ENABLED(info, 1, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
              VkPhysicalDevice16BitStorageFeatures, storageBuffer16BitAccess),
      "storageBuffer16BitAccess");
   ok(ENABLED(info, 1, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
              VkPhysicalDevice16BitStorageFeatures, uniformAndStorageBuffer16BitAccess),
      "uniformAndStorageBuffer16BitAccess");
   ok(ENABLED(info, 1, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
              VkPhysicalDevice16BitStorageFeatures, storagePushConstant16),
      "storagePushConstant16");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
              VkPhysicalDevice8BitStorageFeatures, storageBuffer8BitAccess),
      "storageBuffer8BitAccess");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
              VkPhysicalDevice8BitStorageFeatures, uniformAndStorageBuffer8BitAccess),
      "uniformAndStorageBuffer8BitAccess");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
              VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8),
      "shaderInt8");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
              VkPhysicalDeviceShaderFloat16Int8Features, shaderFloat16),
      "shaderFloat16");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
              VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddress),
      "bufferDeviceAddress");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
              VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressCaptureReplay),
      "bufferDeviceAddressCaptureReplay");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
              VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModel),
      "vulkanMemoryModel");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
              VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModelDeviceScope),
      "vulkanMemoryModelDeviceScope");
   ok(ENABLED(info, 2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
              VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore),
      "timelineSemaphore");
   ok(ENABLED(info, 3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
              VkPhysicalDeviceSynchronization2Features, synchronization2),
      "synchronization2");
   ok(ENABLED(info, 3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
              VkPhysicalDeviceMaintenance4Features, maintenance4),
      "maintenance4");
   ok(ENABLED(info, 3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
              VkPhysicalDeviceSubgroupSizeControlFeatures, subgroupSizeControl),
      "subgroupSizeControl");
   ok(ENABLED(info, 3, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
              VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups),
      "computeFullSubgroups");
}

struct device_fixture {
   float priority;
   VkDeviceQueueCreateInfo queue;
   const char *extensions[4];
   VkDeviceCreateInfo info;
   VkPhysicalDeviceFeatures core;
   VkPhysicalDeviceFeatures2 f2;
   VkPhysicalDeviceVulkan11Features v11;
   VkPhysicalDeviceVulkan12Features v12;
   VkPhysicalDeviceVulkan13Features v13;
   VkPhysicalDeviceBufferDeviceAddressFeatures bda;
   VkPhysicalDevice8BitStorageFeatures s8;
   VkPhysicalDeviceSynchronization2Features sync2;
   VkPhysicalDeviceTensorFeaturesARM tensor;
   VkPhysicalDeviceDataGraphFeaturesARM graph;
   VkPhysicalDeviceRobustness2FeaturesEXT robust2;
   VkLayerDeviceCreateInfo link;
};

static void
device_fixture_init(struct device_fixture *f)
{
   memset(f, 0, sizeof(*f));
   f->priority = 1.0f;
   f->queue = (VkDeviceQueueCreateInfo){
       .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
       .queueCount = 1,
       .pQueuePriorities = &f->priority,
   };
   f->extensions[0] = "VK_KHR_swapchain";
   f->info = (VkDeviceCreateInfo){
       .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
       .queueCreateInfoCount = 1,
       .pQueueCreateInfos = &f->queue,
       .enabledExtensionCount = 1,
       .ppEnabledExtensionNames = f->extensions,
   };
   f->core.robustBufferAccess = VK_TRUE;
   f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->f2.features.robustBufferAccess = VK_TRUE;
   f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->v11.multiview = VK_TRUE;
   f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->v12.descriptorIndexing = VK_TRUE;
   f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
   f->v13.dynamicRendering = VK_TRUE;
   f->bda.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
   f->bda.bufferDeviceAddressCaptureReplay = VK_TRUE;
   f->s8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES;
   f->s8.storagePushConstant8 = VK_TRUE;
   f->sync2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES;
   f->tensor.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM;
   f->tensor.tensors = VK_TRUE;
   f->graph.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM;
   f->graph.dataGraph = VK_TRUE;
   f->robust2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
   f->robust2.nullDescriptor = VK_TRUE;
   f->link.sType = VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO;
   f->link.function = VK_LAYER_LINK_INFO;
}

/* Snapshots everything of the fixture the application owns. */
static void
device_snap(struct snaps *s, const struct device_fixture *f)
{
   snap_chain(s, &f->info, sizeof(f->info));
   snap_add(s, &f->queue, sizeof(f->queue));
   snap_add(s, f->extensions, sizeof(f->extensions));
   snap_add(s, &f->core, sizeof(f->core));
}

static VkResult
rewrite(const VkAllocationCallbacks *cb, const struct device_fixture *f,
        const struct lyr_feature_request *req, struct lyr_device_info_copy *out)
{
   return lyr_device_info_rewrite(cb, &f->info, req, strip_names,
                                  sizeof(strip_names) / sizeof(strip_names[0]), out);
}

static void
test_device_no_feature_structs(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_device_info_copy out;
   struct lyr_feature_request all = request_all();

   test_set_context("device (a): no feature structs");
   device_fixture_init(&f);
   link_chain(&f.info, &f.tensor, &f.robust2, &f.graph, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   check_all_enabled(&out.info);
   ok(out.info.pEnabledFeatures != NULL, "a new pEnabledFeatures");
   ok(lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) == NULL,
      "no VkPhysicalDeviceFeatures2 added");
   for (size_t i = 0; i < 3; i++)
      ok(!lyr_find_struct(out.info.pNext, vk1x_stypes[i]), "no Vulkan1x struct created");
   for (size_t i = 0; i < sizeof(standalone_stypes) / sizeof(standalone_stypes[0]); i++)
      ok(lyr_find_struct(out.info.pNext, standalone_stypes[i]), "standalone %d appended",
         (int)standalone_stypes[i]);
   const VkPhysicalDevice16BitStorageFeatures *s16 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
   ok(s16 && !s16->storageInputOutput16, "features not requested stay off");
   ok(!out.info.pEnabledFeatures->robustBufferAccess, "core features not requested stay off");
   const VkPhysicalDeviceRobustness2FeaturesEXT *r2 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
   ok(r2 && r2->nullDescriptor, "other application structs kept");
   check_eq_u64(out.info.queueCreateInfoCount, 1);
   ok(out.info.pQueueCreateInfos == &f.queue, "queue infos passed by pointer");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);

   test_set_context("device (a): part of the request, app pEnabledFeatures");
   device_fixture_init(&f);
   f.info.pEnabledFeatures = &f.core;
   link_chain(&f.info, &f.graph, NULL);
   device_snap(&app, &f);
   struct lyr_feature_request some = {.buffer_device_address = true, .shader_int64 = true};
   r = rewrite(&cb, &f, &some, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   ok(chain_is(
          out.info.pNext,
          (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES}, 1),
      "only the struct needed was appended");
   ok(out.info.pEnabledFeatures && out.info.pEnabledFeatures != &f.core,
      "pEnabledFeatures is a copy");
   ok(out.info.pEnabledFeatures->shaderInt64 && out.info.pEnabledFeatures->robustBufferAccess &&
          !out.info.pEnabledFeatures->shaderInt16,
      "the copy keeps the application's bits and adds ours");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);

   test_set_context("device (a): nothing requested");
   device_fixture_init(&f);
   f.info.pEnabledFeatures = &f.core;
   link_chain(&f.info, &f.link, &f.tensor, NULL);
   device_snap(&app, &f);
   struct lyr_feature_request none = {0};
   r = rewrite(&cb, &f, &none, &out);
   check_eq_i64(r, VK_SUCCESS);
   ok(chain_is(out.info.pNext, (VkStructureType[]){VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO}, 1),
      "only the loader's link info is left");
   ok(out.info.pEnabledFeatures == &f.core, "pEnabledFeatures untouched when not needed");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);
   r = rewrite(&cb, &f, NULL, &out);
   check_eq_i64(r, VK_SUCCESS);
   ok(out.info.pEnabledFeatures == &f.core, "NULL request");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

/* Feature structs newer than the build: kept when nothing the rewrite changes follows them. */
static void
test_device_unknown_structs(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   struct device_fixture f;
   struct lyr_device_info_copy out;
   struct lyr_feature_request all = request_all();
   struct unknown_ext unknown = {.sType = UNKNOWN_STYPE, .payload = {3}};
   VkResult r;

   test_set_context("device: unknown struct last");
   device_fixture_init(&f);
   link_chain(&f.info, &f.tensor, &f.v12, &f.graph, &unknown, NULL);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   ok(lyr_find_struct(out.info.pNext, UNKNOWN_STYPE) == &unknown, "goes down, the application's");
   ok(!chain_has_arm(out.info.pNext), "no ARM struct");
   const VkPhysicalDeviceVulkan12Features *v12 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
   ok(v12 && v12 != &f.v12 && v12->bufferDeviceAddress, "Vulkan12 copied and changed");
   ok(!f.v12.bufferDeviceAddress, "the application's Vulkan12 untouched");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);

   test_set_context("device: unknown struct before one the rewrite changes");
   device_fixture_init(&f);
   link_chain(&f.info, &unknown, &f.v12, NULL);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   ok(lyr_find_struct(out.info.pNext, UNKNOWN_STYPE) == NULL,
      "left out: Vulkan12 after it must be changed in a copy");
   v12 = lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
   ok(v12 && v12 != &f.v12 && v12->bufferDeviceAddress, "Vulkan12 copied and changed");
   ok(!f.v12.bufferDeviceAddress, "the application's Vulkan12 untouched");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

static void
test_device_vk1x(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_device_info_copy out;
   struct lyr_feature_request all = request_all();

   test_set_context("device (b): Vulkan11/12/13Features");
   device_fixture_init(&f);
   f.info.pEnabledFeatures = &f.core;
   link_chain(&f.info, &f.tensor, &f.v11, &f.graph, &f.v12, &f.v13, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   check_all_enabled(&out.info);
   ok(chain_is(out.info.pNext,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES},
               3),
      "no struct appended");
   const VkPhysicalDeviceVulkan11Features *v11 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
   const VkPhysicalDeviceVulkan12Features *v12 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
   const VkPhysicalDeviceVulkan13Features *v13 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
   ok(v11 && v11->multiview && v12 && v12->descriptorIndexing && v13 && v13->dynamicRendering,
      "the application's own feature bits are kept");
   ok(v12 && v12->bufferDeviceAddress && v12->bufferDeviceAddressCaptureReplay &&
         !v12->bufferDeviceAddressMultiDevice,
      "only the requested bits are added");
   ok(!f.v12.bufferDeviceAddress && !f.v11.storageBuffer16BitAccess && !f.v13.synchronization2,
      "the application's structs are not modified");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);

   test_set_context("device (b): Vulkan12Features only");
   device_fixture_init(&f);
   link_chain(&f.info, &f.v12, &f.tensor, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   check_all_enabled(&out.info);
   ok(!lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES) &&
          !lyr_find_struct(out.info.pNext,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES),
      "no 1.2 standalone struct next to Vulkan12Features");
   ok(lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES) &&
          lyr_find_struct(out.info.pNext,
                          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES),
      "1.1 and 1.3 features as standalone structs");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

static void
test_device_standalone(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_device_info_copy out;
   struct lyr_feature_request all = request_all();

   test_set_context("device (c): standalone structs only");
   device_fixture_init(&f);
   link_chain(&f.info, &f.graph, &f.bda, &f.tensor, &f.s8, &f.sync2, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   check_all_enabled(&out.info);
   for (size_t i = 0; i < 3; i++)
      ok(!lyr_find_struct(out.info.pNext, vk1x_stypes[i]), "no Vulkan1x struct created");
   const VkPhysicalDeviceBufferDeviceAddressFeatures *bda = lyr_find_struct(
       out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES);
   ok(bda && bda != &f.bda && bda->bufferDeviceAddress && bda->bufferDeviceAddressCaptureReplay,
      "the application's BDA struct copied, its bits kept, ours added");
   const VkPhysicalDevice8BitStorageFeatures *s8 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
   ok(s8 && s8->storagePushConstant8 && s8->storageBuffer8BitAccess, "8-bit storage copy");
   /* 3 app structs kept + 16-bit, ShaderFloat16Int8, memory model, timeline, maintenance4,
    * subgroup size control, descriptor indexing and integer dot product appended. */
   check_eq_u64(chain_length(out.info.pNext), 11);
   ok(!f.bda.bufferDeviceAddress && !f.s8.storageBuffer8BitAccess && !f.sync2.synchronization2,
      "the application's structs are not modified");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

static void
test_device_features2(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_device_info_copy out;
   struct lyr_feature_request all = request_all();

   test_set_context("device (d): VkPhysicalDeviceFeatures2");
   device_fixture_init(&f);
   link_chain(&f.info, &f.tensor, &f.f2, &f.v13, &f.graph, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, &all, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_device_chain(&out.info, &app);
   check_all_enabled(&out.info);
   ok(out.info.pEnabledFeatures == NULL, "pEnabledFeatures stays NULL");
   const VkPhysicalDeviceFeatures2 *f2 =
       lyr_find_struct(out.info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
   ok(f2 && f2 != &f.f2 && f2->features.shaderInt16 && f2->features.shaderInt64 &&
          f2->features.shaderFloat64 && f2->features.robustBufferAccess,
      "core bits in the VkPhysicalDeviceFeatures2 copy");
   ok(!f.f2.features.shaderInt64, "the application's VkPhysicalDeviceFeatures2 not modified");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

static void
test_device_extensions(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_device_info_copy out;

   test_set_context("device (e): extension names stripped");
   device_fixture_init(&f);
   f.extensions[0] = "VK_ARM_tensors";
   f.extensions[1] = "VK_KHR_swapchain";
   f.extensions[2] = "VK_ARM_data_graph";
   f.extensions[3] = "VK_EXT_robustness2";
   f.info.enabledExtensionCount = 4;
   link_chain(&f.info, &f.tensor, NULL);
   device_snap(&app, &f);
   r = rewrite(&cb, &f, NULL, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_eq_u64(out.info.enabledExtensionCount, 2);
   ok(out.info.ppEnabledExtensionNames != (const char *const *)f.extensions, "a new array");
   if (out.info.enabledExtensionCount == 2) {
      check_str(out.info.ppEnabledExtensionNames[0], "VK_KHR_swapchain");
      check_str(out.info.ppEnabledExtensionNames[1], "VK_EXT_robustness2");
   }
   ok(out.info.pNext == NULL, "the ARM feature struct is gone");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);

   test_set_context("device (e): every name stripped");
   f.extensions[0] = "VK_ARM_tensors";
   f.extensions[1] = "VK_ARM_data_graph_instruction_set_tosa";
   f.info.enabledExtensionCount = 2;
   device_snap(&app, &f);
   r = rewrite(&cb, &f, NULL, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_eq_u64(out.info.enabledExtensionCount, 0);
   ok(out.info.ppEnabledExtensionNames == NULL, "no names");
   ok(snaps_unchanged(&app), "application unchanged");
   lyr_device_info_copy_free(&out);

   test_set_context("device (e): no names at all");
   f.info.enabledExtensionCount = 0;
   f.info.ppEnabledExtensionNames = NULL;
   r = rewrite(&cb, &f, NULL, &out);
   check_eq_i64(r, VK_SUCCESS);
   check_eq_u64(out.info.enabledExtensionCount, 0);
   ok(out.extension_names == NULL, "nothing allocated for names");
   lyr_device_info_copy_free(&out);
   check_eq_i64(ta.live, 0);
}

/* ---- reading the device's features ---- */

static unsigned fake_features_calls;

static void VKAPI_PTR
fake_get_features2(VkPhysicalDevice physical_device, VkPhysicalDeviceFeatures2 *features)
{
   fake_features_calls++;
   ok(chain_is(features,
               (VkStructureType[]){VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES},
               4),
      "the query chain");
   features->features.shaderInt64 = VK_TRUE;
   features->features.robustBufferAccess = VK_TRUE;
   for (VkBaseOutStructure *s = features->pNext; s; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES)
         ((VkPhysicalDeviceVulkan11Features *)s)->storageBuffer16BitAccess = VK_TRUE;
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
         ((VkPhysicalDeviceVulkan12Features *)s)->bufferDeviceAddress = VK_TRUE;
         ((VkPhysicalDeviceVulkan12Features *)s)->shaderInt8 = VK_TRUE;
      }
      if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
         ((VkPhysicalDeviceVulkan13Features *)s)->computeFullSubgroups = VK_TRUE;
   }
}

static void
test_feature_query(void)
{
   test_set_context("feature query");
   struct lyr_feature_request got;
   memset(&got, 0xff, sizeof(got));
   lyr_feature_request_from_device(fake_get_features2, VK_NULL_HANDLE, &got);
   check_eq_u64(fake_features_calls, 1);
   struct lyr_feature_request want = {
       .shader_int64 = true,
       .storage_buffer_16bit_access = true,
       .buffer_device_address = true,
       .shader_int8 = true,
       .compute_full_subgroups = true,
   };
   ok(memcmp(&got, &want, sizeof(got)) == 0, "exactly the supported features");
}

/* ---- allocation failure ---- */

/* Fails the Nth allocation for N = 1, 2, ... until the call succeeds; nothing may leak. */
static void
test_alloc_failure(void)
{
   struct test_alloc ta;
   VkAllocationCallbacks cb = test_callbacks(&ta);
   VkResult r;
   struct device_fixture f;
   struct snaps app;
   struct lyr_feature_request all = request_all();

   test_set_context("allocation failure: device rewrite");
   device_fixture_init(&f);
   f.extensions[1] = "VK_ARM_tensors";
   f.info.enabledExtensionCount = 2;
   link_chain(&f.info, &f.tensor, &f.v12, NULL);
   device_snap(&app, &f);
   unsigned failures = 0;
   for (unsigned n = 1; n < 16; n++) {
      struct lyr_device_info_copy out;
      ta.calls = 0;
      ta.fail_at = n;
      r = rewrite(&cb, &f, &all, &out);
      if (r == VK_SUCCESS) {
         lyr_device_info_copy_free(&out);
         check_eq_i64(ta.live, 0);
         break;
      }
      failures++;
      check_eq_i64(r, VK_ERROR_OUT_OF_HOST_MEMORY);
      check_eq_i64(ta.live, 0);
      ok(out.chain.block == NULL && out.extension_names == NULL, "nothing handed out");
   }
   check_eq_u64(failures, 2);
   ok(snaps_unchanged(&app), "application unchanged");

   test_set_context("allocation failure: clone");
   struct clone_fixture c;
   clone_fixture_init(&c);
   link_chain(&c.head, &c.ext, &c.arm_ext, NULL);
   struct lyr_chain_copy copy;
   ta.calls = 0;
   ta.fail_at = 1;
   r = lyr_chain_clone(&cb, &c.head, 0, lyr_drop_arm_ml, NULL, 64, &copy);
   check_eq_i64(r, VK_ERROR_OUT_OF_HOST_MEMORY);
   ok(copy.head == NULL && copy.block == NULL && copy.extra == NULL, "nothing handed out");
   check_eq_i64(ta.live, 0);
   ta.fail_at = 0;
}

int
main(void)
{
   test_struct_sizes();
   test_find_struct();
   test_clone_positions();
   test_clone_options();
   test_clone_pass();
   test_clone_in();
   test_out_chain();
   test_device_no_feature_structs();
   test_device_unknown_structs();
   test_device_vk1x();
   test_device_standalone();
   test_device_features2();
   test_device_extensions();
   test_feature_query();
   test_alloc_failure();
   test_set_context(NULL);
   return test_done();
}
