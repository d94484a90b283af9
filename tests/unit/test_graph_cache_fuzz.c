/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer's pipeline-cache format (graph/dg_cache_format.c), without a device:
 *  - SHA-256 against the FIPS 180-4 example vectors (and split updates);
 *  - stage plans of real graphs (decoded and planned as in test_stage_plan.c: graph
 *    constants, module constants, build constants, intermediates, an alias, output
 *    copies, internal sets, dependencies) written as entry payloads and read back:
 *    the same bytes when written again, constants packed;
 *  - cache data (header, section, entries) parsed back, entries found; another device,
 *    UUID, format version or identity ignored;
 *  - fuzzing with a fixed seed: every truncation, thousands of bit flips, byte
 *    overwrites and random data, both of whole cache data (through the parser, with
 *    its checksums) and of payloads fed straight to the plan reader (no checksum to hide
 *    behind); every plan the reader accepts is then used the way the layer uses one
 *    (specialization, intervals, roots, internal sets, constants' bytes), so that an
 *    index the validation missed shows up under AddressSanitizer.
 */
#include "decode/harness.h"
#include "dg_cache.h"
#include "dg_stage_plan.h"
#include "lyr.h"
#include "ops/dg_op.h"

#include <stdlib.h>
#include <string.h>

TEST_MAIN_STATE;

static uint32_t seed = 0x9e3779b9u;

static uint32_t
rnd(void)
{
   seed ^= seed << 13;
   seed ^= seed >> 17;
   seed ^= seed << 5;
   return seed;
}

/* ---- SHA-256 ---------------------------------------------------------------------------- */

static void
check_hex(const uint8_t *d, const char *hex, const char *what)
{
   char got[65];
   for (int i = 0; i < 32; i++)
      snprintf(got + 2 * i, 3, "%02x", d[i]);
   ok(strcmp(got, hex) == 0, "SHA-256 %s: %s", what, got);
}

static void
test_sha256(void)
{
   test_set_context("sha256");
   uint8_t d[32];
   dg_sha256("abc", 3, d);
   check_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
   dg_sha256("", 0, d);
   check_hex(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty");
   const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
   dg_sha256(two, strlen(two), d);
   check_hex(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits");
   struct dg_sha256 s;
   dg_sha256_init(&s);
   char a[1001];
   memset(a, 'a', sizeof(a));
   for (int i = 0; i < 1000; i++)
      dg_sha256_update(&s, a, (size_t)(i % 2 ? 999 : 1001));
   dg_sha256_final(&s, d);
   check_hex(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
             "a million a, in uneven updates");
}

/* ---- plans ------------------------------------------------------------------------------ */

struct layout {
   struct dg_plan_app_binding b[2 * H_MAX_RES];
   struct dg_plan_layout l;
};

static void
layout_for(const struct dg_graph *g, struct layout *out)
{
   uint32_t n = 0;
   for (uint32_t i = 0; i < g->input_count; i++)
      out->b[n++] = (struct dg_plan_app_binding){
          g->inputs[i].set, g->inputs[i].binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   for (uint32_t i = 0; i < g->output_count; i++) {
      bool dup = false;
      for (uint32_t j = 0; j < n; j++)
         dup |= out->b[j].set == g->outputs[i].set && out->b[j].binding == g->outputs[i].binding;
      if (!dup)
         out->b[n++] = (struct dg_plan_app_binding){
             g->outputs[i].set, g->outputs[i].binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, 0, false};
   }
   out->l = (struct dg_plan_layout){2, out->b, n};
}

static const struct dg_plan_caps caps = {.max_groups = {65535, 65535}};

static const struct dcase cases[] = {
    {"residual chain, graph constant, output copies", "t_f32_1x8", "t_f32_1x8 t_f32_1x8 t_f32_1x8",
     "%k = OpGraphConstantARM %t_f32_1x8 0\n",
     "%c1 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m2 %f32_2 %i32_1 %in0\n"
     "%c2 = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %c1\n"
     "%a = OpExtInst %t_f32_1x8 %tosa ADD %c2 %c1\n"
     "%d = OpExtInst %t_f32_1x8 %tosa ADD %a %k\n"
     "%r = OpExtInst %t_f32_1x8 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %d\n",
     "OpGraphSetOutputARM %r %i32_0\nOpGraphSetOutputARM %in0 %i32_1\n"
     "OpGraphSetOutputARM %k %i32_2\n",
     .fill = "0=3"},
    {"reshape alias", "t_f32_2x3", "t_f32_6", "%shape = OpConstantComposite %t_i32_1 %i32_6\n",
     "%c = OpExtInst %t_f32_2x3 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %in0\n"
     "%s = OpExtInst %t_f32_6 %tosa RESHAPE %c %shape\n"
     "%r = OpExtInst %t_f32_6 %tosa CLAMP %f32_m1 %f32_1 %i32_1 %s\n"},
    {"rescale, build constants", "t_i32_1x2x4", "t_i8_1x2x4",
     "%m = OpGraphConstantARM %t_i32_4 0\n%s = OpGraphConstantARM %t_i8_4 1\n"
     "%izp = OpConstantNull %t_i32_1\n%ozp = OpConstantComposite %t_i8_1 %i8_m5\n",
     "%r = OpExtInst %t_i8_1x2x4 %tosa RESCALE %true %i32_3 %true %false %false %in0 %m %s "
     "%izp %ozp\n",
     .fill = "0=1073741824 1=30"},
    {"conv2d, module and graph constants", "t_i8_1x8x8x4", "t_i32_1x6x6x8",
     "%pad = OpConstantNull %t_i32_4\n%one = OpConstantCompositeReplicateEXT %t_i32_2 %i32_1\n"
     "%w = OpGraphConstantARM %t_i8_8x3x3x4 0\n%bias = OpGraphConstantARM %t_i32_8 1\n"
     "%izp = OpConstantComposite %t_i8_1 %i8_m128\n%wzp = OpConstantComposite %t_i8_1 %i8_3\n",
     "%r = OpExtInst %t_i32_1x6x6x8 %tosa CONV2D %pad %one %one %i32_1 %true %in0 %w %bias %izp "
     "%wzp\n",
     .fill = "0=2 1=7"},
};
#define CASES (sizeof(cases) / sizeof(cases[0]))

/* The payloads of the cases (written once). */
static uint8_t *payloads[CASES];
static size_t payload_sizes[CASES];

static const VkAllocationCallbacks *
alloc(void)
{
   static VkAllocationCallbacks a;
   static struct h_counter counter;
   if (!a.pfnAllocation)
      h_counting_alloc(&counter, &a);
   return &a;
}

static void
build_payloads(void)
{
   for (uint32_t i = 0; i < CASES; i++) {
      test_set_context(cases[i].name);
      struct built b;
      struct dg_graph *g = h_decode(&cases[i], &b);
      if (!ok(g != NULL, "decoded"))
         continue;
      struct layout l;
      layout_for(g, &l);
      struct dg_plan_input in = {g, &l.l, &caps, NULL};
      struct dg_stage_plan *p = NULL;
      VkResult r = dg_stage_plan_build(&in, alloc(), &p);
      if (ok(r == VK_SUCCESS, "planned: %d", r)) {
         struct dg_cache_stage_meta *st = calloc(p->stage_count + 1, sizeof(*st));
         for (uint32_t s = 0; s < p->stage_count; s++) {
            bool node = p->stages[s].node_count && p->stages[s].first_node < g->node_count;
            st[s].op = node ? g->nodes[p->stages[s].first_node].op : DG_PLAN_NONE;
            st[s].result_id = node ? g->nodes[p->stages[s].first_node].result_id : 0;
         }
         struct dg_cache_meta meta = {.graph_id = g->graph_id, .node_count = g->node_count};
         memset(meta.layout, 0x11 * (int)(i + 1), sizeof(meta.layout));
         const char *why = "";
         bool valid = dg_cache_plan_valid(p, st, &why);
         ok(valid, "a built plan is valid: %s", why);
         size_t size = dg_cache_plan_write(p, &meta, st, NULL);
         uint8_t *data = malloc(size);
         ok(dg_cache_plan_write(p, &meta, st, data) == size, "written size %zu", size);
         payloads[i] = data;
         payload_sizes[i] = size;
         /* Read back, written again: the same bytes. */
         struct dg_stage_plan *q = NULL;
         struct dg_cache_stage_meta *qs = NULL;
         struct dg_cache_meta qm;
         r = dg_cache_plan_read(data, size, alloc(), &q, &qm, &qs, &why);
         ok(r == VK_SUCCESS, "read back: %d %s", r, why ? why : "");
         if (r == VK_SUCCESS) {
            ok(q->stage_count == p->stage_count && q->tensor_count == p->tensor_count &&
                   q->constant_count == p->constant_count && qm.graph_id == meta.graph_id &&
                   memcmp(qm.layout, meta.layout, 32) == 0,
               "counts: %u stages, %u tensors, %u constants", q->stage_count, q->tensor_count,
               q->constant_count);
            for (uint32_t s = 0; s < p->stage_count; s++)
               ok(qs[s].op == st[s].op && qs[s].result_id == st[s].result_id &&
                      memcmp(&q->stages[s].shape, &p->stages[s].shape,
                             sizeof(p->stages[s].shape)) == 0,
                  "stage %u metadata", s);
            uint8_t *again = malloc(size);
            ok(dg_cache_plan_write(q, &qm, qs, again) == size && memcmp(again, data, size) == 0,
               "written again: the same bytes");
            free(again);
            /* Constants: packed bytes equal to the plan's source. */
            for (uint32_t c = 0; c < p->constant_count; c++) {
               const struct dg_plan_tensor *t = &p->tensors[p->constants[c].tensor];
               uint64_t n = dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
               uint8_t *packed = malloc(n);
               dg_plan_constant_pack(packed, t, &p->constants[c]);
               ok(q->constants[c].size == n && memcmp(q->constants[c].data, packed, n) == 0,
                  "constant %u: %llu bytes", c, (unsigned long long)n);
               free(packed);
            }
            lyr_free(alloc(), qs);
            dg_stage_plan_destroy(q);
         }
         free(st);
      }
      dg_stage_plan_destroy(p);
      dg_graph_destroy(g);
      h_free(&b);
   }
   test_set_context(NULL);
}

/* Uses an accepted plan the way the layer does (dg_stage.c, dg_session.c,
 * dg_pipeline.c), touching every index it holds. Returns a checksum to keep it live. */
static uint64_t
use_plan(const struct dg_stage_plan *p, const struct dg_cache_stage_meta *st)
{
   uint64_t sum = 0;
   uint32_t ids[DG_PLAN_SPEC_MAX], values[DG_PLAN_SPEC_MAX];
   (void)dg_stage_plan_check_instantiable(p);
   for (uint32_t s = 0; s < p->stage_count; s++) {
      uint32_t n = dg_plan_stage_spec(p, s, ids, values);
      for (uint32_t i = 0; i < n; i++)
         sum += values[i];
      const struct dg_plan_stage *ps = &p->stages[s];
      for (uint32_t k = 0; k < ps->tensor_count; k++) {
         uint32_t root = dg_plan_tensor_root(p, ps->tensors[k]);
         sum += p->tensors[root].kind;
      }
      for (uint32_t j = 0; j < s; j++)
         sum += dg_plan_stage_depends(p, s, j);
      if (ps->internal_set != DG_PLAN_NONE)
         sum += p->internal_sets[ps->internal_set].count;
      sum += p->stages[ps->pipeline_of].kernel;
      if (st[s].op != DG_PLAN_NONE)
         sum += strlen(dg_op_get(st[s].op)->name);
   }
   for (uint32_t i = 0; i < p->internal_set_count; i++)
      for (uint32_t k = 0; k < p->internal_sets[i].count; k++) {
         const struct dg_plan_tensor *t = &p->tensors[p->internal_sets[i].tensors[k]];
         sum +=
             t->kind == DG_PLAN_TENSOR_CONSTANT ? p->constants[t->index].size : p->memory[t->index];
      }
   VkDeviceSize *sizes = calloc(p->memory_count + 1, sizeof(*sizes));
   struct dg_interval *iv = calloc(p->memory_count + 1, sizeof(*iv));
   for (uint32_t i = 0; i < p->memory_count; i++) {
      const struct dg_plan_tensor *t = &p->tensors[p->memory[i]];
      sizes[i] = dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
   }
   dg_stage_plan_intervals(p, sizes, iv);
   for (uint32_t i = 0; i < p->memory_count; i++)
      sum += iv[i].size + iv[i].first + iv[i].last;
   free(sizes);
   free(iv);
   for (uint32_t c = 0; c < p->constant_count; c++) {
      const uint8_t *d = p->constants[c].data;
      for (uint64_t b = 0; b < p->constants[c].size; b++)
         sum += d[b];
   }
   return sum;
}

static uint32_t accepted, rejected;
static uint64_t sink;

static void
read_payload(const uint8_t *data, size_t size)
{
   struct dg_stage_plan *p = NULL;
   struct dg_cache_stage_meta *st = NULL;
   struct dg_cache_meta meta;
   const char *why = NULL;
   VkResult r = dg_cache_plan_read(data, size, alloc(), &p, &meta, &st, &why);
   if (r == VK_SUCCESS) {
      accepted++;
      sink += use_plan(p, st);
      lyr_free(alloc(), st);
      dg_stage_plan_destroy(p);
   } else {
      rejected++;
      if (r != VK_ERROR_INITIALIZATION_FAILED || !why)
         ok(false, "a malformed payload: %d, %s", r, why ? why : "(no reason)");
   }
}

static void
test_fuzz_payloads(void)
{
   test_set_context("fuzz payloads");
   accepted = rejected = 0;
   uint32_t mutations = 0;
   for (uint32_t i = 0; i < CASES; i++) {
      const uint8_t *data = payloads[i];
      size_t size = payload_sizes[i];
      if (!data)
         continue;
      uint8_t *m = malloc(size + 64);
      /* Every truncation (and a few bytes too many). */
      for (size_t cut = 0; cut < size; cut++, mutations++) {
         uint8_t *t = malloc(cut ? cut : 1);
         memcpy(t, data, cut);
         read_payload(t, cut);
         free(t);
      }
      memcpy(m, data, size);
      memset(m + size, 0, 64);
      read_payload(m, size + 4);
      mutations++;
      /* Bit flips, 1 to 4 at a time. */
      for (uint32_t k = 0; k < 3000; k++, mutations++) {
         memcpy(m, data, size);
         uint32_t flips = 1 + rnd() % 4;
         for (uint32_t f = 0; f < flips; f++)
            m[rnd() % size] ^= (uint8_t)(1u << (rnd() % 8));
         read_payload(m, size);
      }
      /* Word overwrites with values that stress counts and indices. */
      static const uint32_t evil[] = {0,      1,          2,          0x7f,       0xff,
                                      0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
                                      16,     17,         64,         1000};
      for (uint32_t k = 0; k < 3000; k++, mutations++) {
         memcpy(m, data, size);
         size_t at = (rnd() % (size / 4)) * 4;
         uint32_t v = evil[rnd() % (sizeof(evil) / sizeof(evil[0]))];
         memcpy(m + at, &v, 4);
         read_payload(m, size);
      }
      /* Random bytes after a valid prefix. */
      for (uint32_t k = 0; k < 300; k++, mutations++) {
         size_t keep = rnd() % size;
         memcpy(m, data, keep);
         for (size_t b = keep; b < size; b++)
            m[b] = (uint8_t)rnd();
         read_payload(m, size);
      }
      free(m);
   }
   printf("# %u mutated payloads: %u accepted, %u rejected\n", mutations, accepted, rejected);
   ok(mutations > 20000, "%u mutated payloads: %u accepted, %u rejected, none crashed", mutations,
      accepted, rejected);
   ok(rejected > mutations / 2, "most mutations are rejected (%u)", rejected);
}

/* ---- cache data ------------------------------------------------------------------------- */

static const struct dg_cache_device_id device_id = {
    .vendor_id = 0x10005,
    .device_id = 0x1234,
    .uuid = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
    .identity = {0xaa, 0xbb},
    .identity_valid = true,
};

static const uint8_t driver_blob[] = {32, 0, 0, 0, 1, 0, 0, 0, 'd', 'r', 'i', 'v', 'e', 'r'};

/* Header, section with every case's payload, driver blob. */
static uint8_t *
make_data(size_t *size)
{
   uint64_t section = DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < CASES; i++)
      section += dg_cache_entry_bytes(payload_sizes[i]);
   *size = DG_CACHE_HEADER_SIZE + (size_t)section + sizeof(driver_blob);
   uint8_t *d = calloc(1, *size);
   dg_cache_write_header(d, &device_id);
   dg_cache_write_section_header(d + DG_CACHE_HEADER_SIZE, &device_id, section, CASES);
   size_t off = DG_CACHE_HEADER_SIZE + DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < CASES; i++) {
      uint8_t key[32];
      memset(key, (int)i + 1, sizeof(key));
      dg_cache_write_entry(d + off, key, payloads[i], payload_sizes[i]);
      off += dg_cache_entry_bytes(payload_sizes[i]);
   }
   memcpy(d + off, driver_blob, sizeof(driver_blob));
   return d;
}

struct found {
   uint32_t count;
   bool payload_ok;
};

static bool
on_entry(const struct dg_cache_blob_entry *e, void *user)
{
   struct found *f = user;
   /* Entries reach the store only after this; the store copies e->size bytes. */
   uint64_t sum = 0;
   for (uint64_t i = 0; i < e->size; i++)
      sum += e->payload[i];
   sink += sum + e->key[0] + e->key[31];
   read_payload(e->payload, (size_t)e->size);
   f->count++;
   return true;
}

static void
test_data(void)
{
   test_set_context("cache data");
   size_t size;
   uint8_t *d = make_data(&size);
   struct found f = {0};
   struct dg_cache_parsed parsed;
   ok(dg_cache_parse(d, size, &device_id, on_entry, &f, &parsed), "parsed");
   ok(f.count == CASES && parsed.entry_count == CASES && !parsed.rejected && !parsed.ignored,
      "%u entries found", f.count);
   ok(parsed.driver_size == sizeof(driver_blob) &&
          memcmp(parsed.driver, driver_blob, sizeof(driver_blob)) == 0,
      "the driver's blob: %zu bytes", parsed.driver_size);

   struct dg_cache_device_id other = device_id;
   other.uuid[3] ^= 1;
   f.count = 0;
   dg_cache_parse(d, size, &other, on_entry, &f, &parsed);
   ok(f.count == 0 && parsed.driver_size == 0 && parsed.ignored, "another UUID: all ignored");
   other = device_id;
   other.vendor_id++;
   dg_cache_parse(d, size, &other, on_entry, &f, &parsed);
   ok(f.count == 0 && parsed.driver_size == 0, "another vendor: all ignored");
   other = device_id;
   other.identity[0] ^= 1;
   dg_cache_parse(d, size, &other, on_entry, &f, &parsed);
   ok(f.count == 0 && parsed.driver_size == sizeof(driver_blob),
      "another layer build or driver: entries ignored, the driver's blob kept");
   f.count = 0;
   d[DG_CACHE_HEADER_SIZE + 4]++; /* format version */
   dg_cache_parse(d, size, &device_id, on_entry, &f, &parsed);
   ok(f.count == 0 && parsed.driver_size == sizeof(driver_blob),
      "another format version: entries ignored, the driver's blob kept");
   d[DG_CACHE_HEADER_SIZE + 4]--;
   /* The driver's own data (no section): all of it goes down. */
   uint8_t plain[48];
   dg_cache_write_header(plain, &device_id);
   memset(plain + 32, 0x42, 16);
   dg_cache_parse(plain, sizeof(plain), &device_id, on_entry, &f, &parsed);
   ok(f.count == 0 && parsed.driver == plain && parsed.driver_size == sizeof(plain),
      "the driver's data passes whole");

   test_set_context("fuzz cache data");
   accepted = rejected = 0;
   uint32_t mutations = 0, with_entries = 0;
   uint8_t *m = malloc(size);
   for (size_t cut = 0; cut <= size; cut++, mutations++) {
      uint8_t *t = malloc(cut ? cut : 1);
      memcpy(t, d, cut);
      f.count = 0;
      dg_cache_parse(t, cut, &device_id, on_entry, &f, &parsed);
      with_entries += f.count != 0;
      if (parsed.driver)
         ok(parsed.driver >= t && parsed.driver + parsed.driver_size <= t + cut,
            "the driver's part lies in the data");
      free(t);
   }
   for (uint32_t k = 0; k < 4000; k++, mutations++) {
      memcpy(m, d, size);
      uint32_t flips = 1 + rnd() % 3;
      for (uint32_t i = 0; i < flips; i++) {
         /* Half of them in the headers, where the structure is. */
         size_t at = rnd() % 2 ? rnd() % (DG_CACHE_HEADER_SIZE + DG_CACHE_SECTION_HEADER_SIZE +
                                          DG_CACHE_ENTRY_HEADER_SIZE)
                               : rnd() % size;
         m[at] ^= (uint8_t)(1u << (rnd() % 8));
      }
      f.count = 0;
      dg_cache_parse(m, size, &device_id, on_entry, &f, &parsed);
      if (parsed.driver)
         ok(parsed.driver >= m && parsed.driver + parsed.driver_size <= m + size,
            "the driver's part lies in the data");
   }
   for (uint32_t k = 0; k < 1000; k++, mutations++) {
      size_t keep = rnd() % 100;
      memcpy(m, d, size);
      for (size_t b = keep; b < size; b++)
         m[b] = (uint8_t)rnd();
      dg_cache_parse(m, size, &device_id, on_entry, &f, &parsed);
   }
   free(m);
   printf("# %u mutated cache data: %u payloads accepted, %u rejected behind the checksums\n",
          mutations, accepted, rejected);
   ok(mutations > 5000 && with_entries > 0, "%u mutated cache data, %u truncations kept entries",
      mutations, with_entries);
   free(d);
}

static void
test_identifier(void)
{
   test_set_context("identifier");
   uint8_t key[32], id[32];
   for (int i = 0; i < 32; i++)
      key[i] = (uint8_t)(0x70 + i);
   dg_cache_identifier(key, id);
   ok(memchr(id, 0x7f, 32) == NULL && id[15] == 0x7e && id[16] == 0x80,
      "0x7F becomes 0x7E, nothing else changes");
}

int
main(void)
{
   test_sha256();
   build_payloads();
   test_fuzz_payloads();
   test_data();
   test_identifier();
   for (uint32_t i = 0; i < CASES; i++)
      free(payloads[i]);
   return test_done() + (int)(sink & 0);
}
