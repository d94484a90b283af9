/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bytes of this layer's pipeline-cache data (dg_cache.h; the layout is
 * docs/decisions.md's "pipeline caches" record): the header and section parser,
 * the entry writer, and stage plans to and from entry payloads. No Vulkan call:
 * unit tests feed it truncated, bit-flipped and random data
 * (tests/unit/test_graph_cache_fuzz.c). All integers are little-endian. The store
 * of entries and the hooks are dg_cache.c's.
 */
#include "dg_cache.h"

#include <string.h>

#include "dg_op.h"
#include "lyr.h"
#include "vmel_kernels_graph.h"

/* ---- little-endian bytes ---------------------------------------------------------------- */

static void
put32(uint8_t *p, uint32_t v)
{
   p[0] = (uint8_t)v;
   p[1] = (uint8_t)(v >> 8);
   p[2] = (uint8_t)(v >> 16);
   p[3] = (uint8_t)(v >> 24);
}

static void
put64(uint8_t *p, uint64_t v)
{
   put32(p, (uint32_t)v);
   put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t
get32(const uint8_t *p)
{
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
get64(const uint8_t *p)
{
   return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* ---- the cache data --------------------------------------------------------------------- */

void
dg_cache_write_header(uint8_t *out, const struct dg_cache_device_id *id)
{
   put32(out, DG_CACHE_HEADER_SIZE);
   put32(out + 4, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
   put32(out + 8, id->vendor_id);
   put32(out + 12, id->device_id);
   memcpy(out + 16, id->uuid, VK_UUID_SIZE);
}

void
dg_cache_write_section_header(uint8_t *out, const struct dg_cache_device_id *id,
                              uint64_t section_size, uint32_t entries)
{
   put32(out, DG_CACHE_MAGIC);
   put32(out + 4, DG_CACHE_FORMAT_VERSION);
   put64(out + 8, section_size);
   memcpy(out + 16, id->identity, DG_SHA256_SIZE);
   put32(out + 16 + DG_SHA256_SIZE, entries);
   put32(out + 20 + DG_SHA256_SIZE, 0);
}

uint64_t
dg_cache_entry_bytes(uint64_t size)
{
   return DG_CACHE_ENTRY_HEADER_SIZE + ((size + 7) & ~(uint64_t)7);
}

void
dg_cache_write_entry(uint8_t *out, const uint8_t key[DG_CACHE_KEY_SIZE], const void *payload,
                     uint64_t size)
{
   memcpy(out, key, DG_CACHE_KEY_SIZE);
   put64(out + DG_CACHE_KEY_SIZE, size);
   dg_sha256(payload, (size_t)size, out + DG_CACHE_KEY_SIZE + 8);
   uint8_t *p = out + DG_CACHE_ENTRY_HEADER_SIZE;
   memcpy(p, payload, (size_t)size);
   memset(p + size, 0, (size_t)(dg_cache_entry_bytes(size) - DG_CACHE_ENTRY_HEADER_SIZE - size));
}

bool
dg_cache_parse(const void *data, size_t size, const struct dg_cache_device_id *id,
               bool (*entry)(const struct dg_cache_blob_entry *e, void *user), void *user,
               struct dg_cache_parsed *out)
{
   const uint8_t *d = data;
   *out = (struct dg_cache_parsed){0};
   if (!d || size == 0)
      return true;
   /* VkPipelineCacheHeaderVersionOne: data for another device (or not cache data) is
    * ignored whole, the driver's part too. */
   if (size < DG_CACHE_HEADER_SIZE || get32(d) < DG_CACHE_HEADER_SIZE || get32(d) > size ||
       get32(d + 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || get32(d + 8) != id->vendor_id ||
       get32(d + 12) != id->device_id || memcmp(d + 16, id->uuid, VK_UUID_SIZE) != 0) {
      out->ignored = "the header is not this device's VkPipelineCacheHeaderVersionOne";
      return true;
   }
   const uint8_t *s = d + DG_CACHE_HEADER_SIZE;
   size_t left = size - DG_CACHE_HEADER_SIZE;
   if (left < 4 || get32(s) != DG_CACHE_MAGIC) {
      /* The driver's own data (written without this layer): all of it goes down. */
      out->driver = d;
      out->driver_size = size;
      out->ignored = "no section of this layer (the driver's data)";
      return true;
   }
   if (left < DG_CACHE_SECTION_HEADER_SIZE || get64(s + 8) < DG_CACHE_SECTION_HEADER_SIZE ||
       get64(s + 8) > left) {
      out->ignored = "the layer's section is truncated";
      return true;
   }
   uint64_t section = get64(s + 8);
   if (section < left) {
      out->driver = s + section;
      out->driver_size = (size_t)(left - section);
   }
   if (get32(s + 4) != DG_CACHE_FORMAT_VERSION) {
      out->ignored = "the layer's section has another format version";
      return true;
   }
   if (!id->identity_valid || memcmp(s + 16, id->identity, DG_SHA256_SIZE) != 0) {
      out->ignored = "the layer's section comes from another layer build, device or driver";
      return true;
   }
   uint32_t count = get32(s + 16 + DG_SHA256_SIZE);
   /* First the structure: every entry inside the section, the last one ending it. A
    * section that does not add up is dropped whole (a flipped count or size). */
   uint64_t off = DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < count; i++) {
      if (section - off < DG_CACHE_ENTRY_HEADER_SIZE) {
         off = UINT64_MAX;
         break;
      }
      uint64_t payload = get64(s + off + DG_CACHE_KEY_SIZE);
      if (payload > section - off - DG_CACHE_ENTRY_HEADER_SIZE ||
          dg_cache_entry_bytes(payload) > section - off) {
         off = UINT64_MAX;
         break;
      }
      off += dg_cache_entry_bytes(payload);
   }
   if (off != section) {
      out->rejected = count;
      out->ignored = "the layer's section does not add up (entry count or sizes)";
      return true;
   }
   off = DG_CACHE_SECTION_HEADER_SIZE;
   for (uint32_t i = 0; i < count; i++) {
      const uint8_t *e = s + off;
      uint64_t payload = get64(e + DG_CACHE_KEY_SIZE);
      off += dg_cache_entry_bytes(payload);
      uint8_t sum[DG_SHA256_SIZE];
      dg_sha256(e + DG_CACHE_ENTRY_HEADER_SIZE, (size_t)payload, sum);
      if (memcmp(sum, e + DG_CACHE_KEY_SIZE + 8, DG_SHA256_SIZE) != 0) {
         out->rejected++;
         continue;
      }
      struct dg_cache_blob_entry be = {e, e + DG_CACHE_ENTRY_HEADER_SIZE, payload};
      out->entry_count++;
      if (!entry(&be, user))
         return false;
   }
   return true;
}

void
dg_cache_identifier(const uint8_t key[DG_CACHE_KEY_SIZE], uint8_t out[DG_CACHE_KEY_SIZE])
{
   for (uint32_t i = 0; i < DG_CACHE_KEY_SIZE; i++)
      out[i] = key[i] == 0x7f ? 0x7e : key[i];
}

/* ---- constants ---------------------------------------------------------------------------- */

void
dg_plan_constant_pack(uint8_t *dst, const struct dg_plan_tensor *v,
                      const struct dg_plan_constant *src)
{
   uint32_t es = dg_type_size(v->ty.type);
   uint32_t rank = v->ty.shape.rank;
   uint64_t n = dg_shape_elements(&v->ty.shape);
   if (!src->desc || !src->desc->pStrides) {
      memcpy(dst, src->data, n * es);
      return;
   }
   const uint8_t *base = src->data;
   int64_t idx[DG_MAX_RANK] = {0};
   for (uint64_t e = 0; e < n; e++) {
      int64_t off = 0;
      for (uint32_t d = 0; d < rank; d++)
         off += idx[d] * src->desc->pStrides[d];
      memcpy(dst + e * es, base + off, es);
      for (int d = (int)rank - 1; d >= 0; d--) {
         if (++idx[d] < v->ty.shape.dim[d])
            break;
         idx[d] = 0;
      }
   }
}

/* ---- plans: writing ----------------------------------------------------------------------- */

/* Writes (p != NULL) or measures. */
struct wr {
   uint8_t *p;
   size_t n;
};

static void
w32(struct wr *w, uint32_t v)
{
   if (w->p)
      put32(w->p + w->n, v);
   w->n += 4;
}

static void
w64(struct wr *w, uint64_t v)
{
   if (w->p)
      put64(w->p + w->n, v);
   w->n += 8;
}

static void
wslot(struct wr *w, const struct dg_plan_slot *s)
{
   w32(w, s->kind);
   w32(w, s->set);
   w32(w, s->binding);
   w32(w, s->element);
   w32(w, s->count);
}

static uint64_t
tensor_bytes(const struct dg_plan_tensor *t)
{
   return dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
}

size_t
dg_cache_plan_write(const struct dg_stage_plan *plan, const struct dg_cache_meta *meta,
                    const struct dg_cache_stage_meta *stages, uint8_t *out)
{
   struct wr w = {out, 0};
   if (out)
      memcpy(out, meta->layout, DG_SHA256_SIZE);
   w.n += DG_SHA256_SIZE;
   w32(&w, meta->graph_id);
   w32(&w, meta->node_count);
   w32(&w, plan->tensor_count);
   w32(&w, plan->stage_count);
   w32(&w, plan->dep_count);
   w32(&w, plan->constant_count);
   w32(&w, plan->memory_count);
   w32(&w, plan->bind_point_count);
   w32(&w, plan->internal_set_count);
   w32(&w, plan->app_set_count);
   w32(&w, plan->internal_set);
   w32(&w, plan->internal_binding_count);
   for (uint32_t i = 0; i < plan->tensor_count; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[i];
      w32(&w, t->kind);
      w32(&w, t->ty.type);
      w32(&w, t->ty.int_signed);
      w32(&w, t->ty.shape.rank);
      for (uint32_t d = 0; d < DG_MAX_RANK; d++)
         w64(&w, d < t->ty.shape.rank ? (uint64_t)t->ty.shape.dim[d] : 0);
      w32(&w, t->ir);
      w32(&w, t->io);
      wslot(&w, &t->slot);
      w32(&w, t->index);
      w32(&w, t->bind_point);
      w32(&w, t->alias_of);
      w64(&w, t->alias_offset);
      w32(&w, t->first_stage);
      w32(&w, t->last_stage);
   }
   for (uint32_t i = 0; i < plan->stage_count; i++) {
      const struct dg_plan_stage *s = &plan->stages[i];
      w32(&w, s->kernel);
      w32(&w, s->first_node);
      w32(&w, s->node_count);
      w32(&w, s->tensor_count);
      for (uint32_t k = 0; k < s->tensor_count; k++) {
         w32(&w, s->tensors[k]);
         w32(&w, s->binding_kind[k]);
         wslot(&w, &s->slots[k]);
         for (uint32_t j = 0; j < DG_PLAN_SHAPE_WORDS; j++)
            w32(&w, s->shape[k][j]);
      }
      w32(&w, s->write_mask);
      w32(&w, s->disjoint_writes);
      w32(&w, s->attr_words);
      for (uint32_t a = 0; a < s->attr_words; a++)
         w32(&w, s->attrs[a]);
      for (uint32_t e = 0; e < DG_EPI_WORDS; e++)
         w32(&w, s->epi[e]);
      w64(&w, s->work);
      w32(&w, s->local_size);
      w32(&w, s->groups[0]);
      w32(&w, s->groups[1]);
      w32(&w, s->first_dep);
      w32(&w, s->dep_count);
      w32(&w, s->internal_set);
      w32(&w, s->pipeline_of);
      w32(&w, stages[i].op);
      w32(&w, stages[i].result_id);
   }
   for (uint32_t i = 0; i < plan->dep_count; i++)
      w32(&w, plan->deps[i]);
   for (uint32_t i = 0; i < plan->memory_count; i++)
      w32(&w, plan->memory[i]);
   for (uint32_t i = 0; i < plan->internal_set_count; i++) {
      const struct dg_plan_internal_set *s = &plan->internal_sets[i];
      w32(&w, s->count);
      for (uint32_t k = 0; k < s->count; k++)
         w32(&w, s->tensors[k]);
   }
   /* Every constant packed: creation from an identifier has no create info to read
    * graph constants from. */
   for (uint32_t i = 0; i < plan->constant_count; i++) {
      const struct dg_plan_constant *c = &plan->constants[i];
      const struct dg_plan_tensor *t = &plan->tensors[c->tensor];
      uint64_t bytes = tensor_bytes(t);
      w32(&w, c->tensor);
      w64(&w, bytes);
      if (w.p)
         dg_plan_constant_pack(w.p + w.n, t, c);
      w.n += (size_t)bytes;
      size_t pad = (4 - (w.n & 3)) & 3;
      if (w.p)
         memset(w.p + w.n, 0, pad);
      w.n += pad;
   }
   return w.n;
}

/* ---- plans: reading ----------------------------------------------------------------------- */

struct rd {
   const uint8_t *p;
   size_t size, n;
   bool ok;
   bool oom;
};

static uint32_t
r32(struct rd *r)
{
   if (!r->ok || r->size - r->n < 4) {
      r->ok = false;
      return 0;
   }
   uint32_t v = get32(r->p + r->n);
   r->n += 4;
   return v;
}

static uint64_t
r64(struct rd *r)
{
   if (!r->ok || r->size - r->n < 8) {
      r->ok = false;
      return 0;
   }
   uint64_t v = get64(r->p + r->n);
   r->n += 8;
   return v;
}

/* An array of count elements of at least min_bytes each in the data: no allocation
 * larger than the data justifies. */
static void *
r_array(struct rd *r, const VkAllocationCallbacks *alloc, uint32_t count, size_t min_bytes,
        size_t elem)
{
   if (!r->ok || (uint64_t)count * min_bytes > r->size - r->n) {
      r->ok = false;
      return NULL;
   }
   void *a = lyr_zalloc(alloc, ((size_t)count + 1) * elem, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!a)
      r->ok = false, r->oom = true;
   return a;
}

/* The fewest bytes a record takes (dg_cache_plan_write()): a tensor (kind, type, signedness,
 * rank, six dimensions, ir, io, slot, index, bind point, alias, stage range) and a stage
 * with no tensor and no attribute (kernel, nodes, tensor count, write mask, disjoint,
 * attribute count, work, local size, grid, dependencies, internal set, shared pipeline,
 * operator, result id). */
#define TENSOR_RECORD_MIN (4 * 4 + 8 * DG_MAX_RANK + 2 * 4 + 5 * 4 + 5 * 4)
#define STAGE_RECORD_MIN (4 * 4 + 3 * 4 + 8 + 4 + 2 * 4 + 4 * 4 + 2 * 4)

static void
rslot(struct rd *r, struct dg_plan_slot *s)
{
   s->kind = (enum dg_plan_slot_kind)r32(r);
   s->set = r32(r);
   s->binding = r32(r);
   s->element = r32(r);
   s->count = r32(r);
}

#define FAIL(msg)                                                                                  \
   do {                                                                                            \
      *why = (msg);                                                                                \
      return false;                                                                                \
   } while (0)

static bool
slot_valid(const struct dg_stage_plan *p, const struct dg_plan_slot *s, const char **why)
{
   if (s->kind == DG_PLAN_SLOT_APP) {
      if (s->set >= p->app_set_count || s->count == 0 || s->element >= s->count)
         FAIL("an application slot outside the layout");
   } else if (s->kind == DG_PLAN_SLOT_INTERNAL) {
      if (s->set != p->internal_set || s->binding >= p->internal_binding_count || s->element != 0 ||
          s->count != 1)
         FAIL("an internal slot outside the internal set");
   } else {
      FAIL("a slot kind out of range");
   }
   return true;
}

/* A tensor's type and shape; checked for every tensor before tensor_valid(), which reads
 * the size of other tensors (an alias's root). */
static bool
tensor_type_valid(const struct dg_plan_tensor *t, const char **why)
{
   if (t->ty.type <= DG_TYPE_INVALID || t->ty.type >= DG_TYPE_COUNT)
      FAIL("a tensor type out of range");
   if (t->ty.shape.rank < 1 || t->ty.shape.rank > DG_MAX_RANK)
      FAIL("a tensor rank out of range");
   uint64_t bytes = dg_type_size(t->ty.type);
   for (uint32_t d = 0; d < t->ty.shape.rank; d++) {
      if (t->ty.shape.dim[d] < 1 || (uint64_t)t->ty.shape.dim[d] > (UINT64_C(1) << 31) / bytes)
         FAIL("a tensor dimension out of range");
      bytes *= (uint64_t)t->ty.shape.dim[d];
   }
   if (bytes > (UINT64_C(1) << 31))
      FAIL("a tensor larger than 2^31 bytes");
   return true;
}

static bool
tensor_valid(const struct dg_stage_plan *p, uint32_t i, const char **why)
{
   const struct dg_plan_tensor *t = &p->tensors[i];
   if (t->first_stage != DG_PLAN_NONE &&
       (t->first_stage > t->last_stage || t->last_stage >= p->stage_count))
      FAIL("a tensor's stage range out of range");
   switch (t->kind) {
   case DG_PLAN_TENSOR_INPUT:
   case DG_PLAN_TENSOR_OUTPUT:
      if (!slot_valid(p, &t->slot, why) || t->slot.kind != DG_PLAN_SLOT_APP)
         FAIL("an interface tensor without an application slot");
      if (t->alias_of != DG_PLAN_NONE || t->alias_offset)
         FAIL("an interface tensor aliasing memory");
      break;
   case DG_PLAN_TENSOR_INTERMEDIATE:
   case DG_PLAN_TENSOR_SCRATCH:
      if (t->index >= p->memory_count || p->memory[t->index] != i)
         FAIL("a session tensor's memory index out of range");
      if (t->first_stage != DG_PLAN_NONE && t->bind_point >= p->bind_point_count)
         FAIL("a bind point out of range");
      if (t->alias_of != DG_PLAN_NONE) {
         if (t->kind != DG_PLAN_TENSOR_INTERMEDIATE || t->alias_of >= p->tensor_count ||
             t->alias_of == i)
            FAIL("an alias out of range");
         const struct dg_plan_tensor *root = &p->tensors[t->alias_of];
         if ((root->kind != DG_PLAN_TENSOR_INTERMEDIATE && root->kind != DG_PLAN_TENSOR_SCRATCH) ||
             root->alias_of != DG_PLAN_NONE || root->index >= p->memory_count ||
             p->memory[root->index] != t->alias_of ||
             t->alias_offset > tensor_bytes(root) ||
             tensor_bytes(root) - t->alias_offset < tensor_bytes(t))
            FAIL("an alias whose root is not a session tensor holding its bytes");
      }
      break;
   case DG_PLAN_TENSOR_CONSTANT:
      if (t->index >= p->constant_count || p->constants[t->index].tensor != i)
         FAIL("a constant's index out of range");
      if (t->alias_of != DG_PLAN_NONE)
         FAIL("a constant aliasing memory");
      break;
   default:
      FAIL("a tensor kind out of range");
   }
   return true;
}

static bool
stage_valid(const struct dg_stage_plan *p, const struct dg_cache_stage_meta *st, uint32_t j,
            const char **why)
{
   const struct dg_plan_stage *s = &p->stages[j];
   if (s->kernel >= DG_KERNEL_COUNT)
      FAIL("a kernel id out of range");
   if (s->tensor_count > VMEL_GRAPH_MAX_TENSORS || s->attr_words > DG_PLAN_ATTR_WORDS)
      FAIL("a stage's tensor or attribute count out of range");
   if (s->epi[0] > DG_EPI_MAX_OPS)
      FAIL("a stage's epilogue op count out of range");
   for (uint32_t k = 0; k < s->tensor_count; k++) {
      if (s->tensors[k] >= p->tensor_count)
         FAIL("a stage tensor out of range");
      if (s->binding_kind[k] > DG_PLAN_BINDING_IMAGE)
         FAIL("a binding kind out of range");
      if (!slot_valid(p, &s->slots[k], why))
         return false;
      const struct dg_plan_tensor *t = &p->tensors[s->tensors[k]];
      bool internal = t->kind == DG_PLAN_TENSOR_INTERMEDIATE || t->kind == DG_PLAN_TENSOR_SCRATCH ||
                      t->kind == DG_PLAN_TENSOR_CONSTANT;
      if (internal != (s->slots[k].kind == DG_PLAN_SLOT_INTERNAL))
         FAIL("a stage binds a tensor in the wrong kind of slot");
      if (internal) {
         if (s->internal_set >= p->internal_set_count)
            FAIL("a stage's internal set out of range");
         const struct dg_plan_internal_set *is = &p->internal_sets[s->internal_set];
         if (s->slots[k].binding >= is->count || is->tensors[s->slots[k].binding] != s->tensors[k])
            FAIL("a stage's internal binding names another tensor");
      }
      if (internal && t->kind != DG_PLAN_TENSOR_CONSTANT &&
          (t->first_stage == DG_PLAN_NONE || j < t->first_stage || j > t->last_stage))
         FAIL("a stage uses a session tensor outside its lifetime");
   }
   if (s->write_mask >> s->tensor_count)
      FAIL("a write mask naming no tensor");
   if (s->internal_set != DG_PLAN_NONE && s->internal_set >= p->internal_set_count)
      FAIL("a stage's internal set out of range");
   if (s->groups[0] == 0 || s->groups[1] == 0 || s->local_size == 0)
      FAIL("an empty grid");
   if (s->first_dep > p->dep_count || s->dep_count > p->dep_count - s->first_dep)
      FAIL("a stage's dependencies out of range");
   for (uint32_t d = 0; d < s->dep_count; d++) {
      uint32_t dep = p->deps[s->first_dep + d];
      if (dep >= j || (d && dep <= p->deps[s->first_dep + d - 1]))
         FAIL("a dependency that is not an earlier stage, ascending");
   }
   if (s->pipeline_of > j || p->stages[s->pipeline_of].pipeline_of != s->pipeline_of ||
       (s->pipeline_of != j && p->stages[s->pipeline_of].kernel != s->kernel))
      FAIL("a shared pipeline that is not an earlier stage's own");
   if (st[j].op != DG_PLAN_NONE && (st[j].op >= DG_OP_COUNT || !dg_op_get(st[j].op)))
      FAIL("an operator id out of range");
   return true;
}

bool
dg_cache_plan_valid(const struct dg_stage_plan *p, const struct dg_cache_stage_meta *st,
                    const char **why)
{
   if (p->internal_set != p->app_set_count)
      FAIL("the internal set is not the set after the application's");
   if (p->internal_binding_count > VMEL_GRAPH_MAX_TENSORS ||
       (p->internal_binding_count == 0) != (p->internal_set_count == 0))
      FAIL("an internal binding count out of range");
   for (uint32_t i = 0; i < p->internal_set_count; i++) {
      const struct dg_plan_internal_set *s = &p->internal_sets[i];
      if (s->count > p->internal_binding_count)
         FAIL("an internal set larger than the internal set layout");
      for (uint32_t k = 0; k < s->count; k++) {
         if (s->tensors[k] >= p->tensor_count)
            FAIL("an internal set's tensor out of range");
         enum dg_plan_tensor_kind kind = p->tensors[s->tensors[k]].kind;
         if (kind != DG_PLAN_TENSOR_INTERMEDIATE && kind != DG_PLAN_TENSOR_SCRATCH &&
             kind != DG_PLAN_TENSOR_CONSTANT)
            FAIL("an internal set binds an interface tensor");
      }
   }
   for (uint32_t i = 0; i < p->memory_count; i++)
      if (p->memory[i] >= p->tensor_count)
         FAIL("a session tensor out of range");
   for (uint32_t i = 0; i < p->constant_count; i++) {
      const struct dg_plan_constant *c = &p->constants[i];
      if (c->tensor >= p->tensor_count || p->tensors[c->tensor].kind != DG_PLAN_TENSOR_CONSTANT)
         FAIL("a constant's tensor out of range");
   }
   for (uint32_t i = 0; i < p->tensor_count; i++)
      if (!tensor_type_valid(&p->tensors[i], why))
         return false;
   for (uint32_t i = 0; i < p->tensor_count; i++)
      if (!tensor_valid(p, i, why))
         return false;
   for (uint32_t j = 0; j < p->stage_count; j++)
      if (!stage_valid(p, st, j, why))
         return false;
   return true;
}

static bool
read_arrays(struct rd *r, struct dg_stage_plan *p, struct dg_cache_stage_meta *st)
{
   for (uint32_t i = 0; r->ok && i < p->tensor_count; i++) {
      struct dg_plan_tensor *t = &p->tensors[i];
      t->kind = (enum dg_plan_tensor_kind)r32(r);
      t->ty.type = (enum dg_type)r32(r);
      t->ty.int_signed = r32(r) != 0;
      t->ty.shape.rank = r32(r);
      for (uint32_t d = 0; d < DG_MAX_RANK; d++)
         t->ty.shape.dim[d] = (int64_t)r64(r);
      t->ir = r32(r);
      t->io = r32(r);
      rslot(r, &t->slot);
      t->index = r32(r);
      t->bind_point = r32(r);
      t->alias_of = r32(r);
      t->alias_offset = r64(r);
      t->first_stage = r32(r);
      t->last_stage = r32(r);
   }
   for (uint32_t i = 0; r->ok && i < p->stage_count; i++) {
      struct dg_plan_stage *s = &p->stages[i];
      s->kernel = r32(r);
      s->first_node = r32(r);
      s->node_count = r32(r);
      s->tensor_count = r32(r);
      if (s->tensor_count > VMEL_GRAPH_MAX_TENSORS)
         return false;
      for (uint32_t k = 0; k < s->tensor_count; k++) {
         s->tensors[k] = r32(r);
         uint32_t kind = r32(r);
         s->binding_kind[k] = kind > 255 ? 255 : (uint8_t)kind;
         rslot(r, &s->slots[k]);
         for (uint32_t j = 0; j < DG_PLAN_SHAPE_WORDS; j++)
            s->shape[k][j] = r32(r);
      }
      s->write_mask = r32(r);
      s->disjoint_writes = r32(r) != 0;
      s->attr_words = r32(r);
      if (s->attr_words > DG_PLAN_ATTR_WORDS)
         return false;
      for (uint32_t a = 0; a < s->attr_words; a++)
         s->attrs[a] = r32(r);
      for (uint32_t e = 0; e < DG_EPI_WORDS; e++)
         s->epi[e] = r32(r);
      s->work = r64(r);
      s->local_size = r32(r);
      s->groups[0] = r32(r);
      s->groups[1] = r32(r);
      s->first_dep = r32(r);
      s->dep_count = r32(r);
      s->internal_set = r32(r);
      s->pipeline_of = r32(r);
      st[i].op = r32(r);
      st[i].result_id = r32(r);
   }
   for (uint32_t i = 0; r->ok && i < p->dep_count; i++)
      p->deps[i] = r32(r);
   for (uint32_t i = 0; r->ok && i < p->memory_count; i++)
      p->memory[i] = r32(r);
   for (uint32_t i = 0; r->ok && i < p->internal_set_count; i++) {
      struct dg_plan_internal_set *s = &p->internal_sets[i];
      s->count = r32(r);
      if (s->count > VMEL_GRAPH_MAX_TENSORS)
         return false;
      for (uint32_t k = 0; k < s->count; k++)
         s->tensors[k] = r32(r);
   }
   for (uint32_t i = 0; r->ok && i < p->constant_count; i++) {
      struct dg_plan_constant *c = &p->constants[i];
      c->tensor = r32(r);
      c->size = r64(r);
      if (!r->ok || c->size > r->size - r->n)
         return false;
      c->data = r->p + r->n;
      c->desc = NULL;
      c->owned = false;
      r->n += (size_t)c->size;
      size_t pad = (4 - (r->n & 3)) & 3;
      if (pad > r->size - r->n)
         return false;
      r->n += pad;
   }
   return r->ok && r->n == r->size;
}

VkResult
dg_cache_plan_read(const void *data, size_t size, const VkAllocationCallbacks *alloc,
                   struct dg_stage_plan **out, struct dg_cache_meta *meta,
                   struct dg_cache_stage_meta **stages, const char **why)
{
   *out = NULL;
   *stages = NULL;
   *why = "truncated";
   struct rd r = {data, size, 0, true, false};
   if (size < DG_SHA256_SIZE)
      return VK_ERROR_INITIALIZATION_FAILED;
   memcpy(meta->layout, data, DG_SHA256_SIZE);
   r.n = DG_SHA256_SIZE;
   meta->graph_id = r32(&r);
   meta->node_count = r32(&r);
   struct dg_stage_plan *p = lyr_zalloc(alloc, sizeof(*p), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->alloc = *alloc;
   p->tensor_count = r32(&r);
   p->stage_count = r32(&r);
   p->dep_count = r32(&r);
   p->constant_count = r32(&r);
   p->memory_count = r32(&r);
   p->bind_point_count = r32(&r);
   p->internal_set_count = r32(&r);
   p->app_set_count = r32(&r);
   p->internal_set = r32(&r);
   p->internal_binding_count = r32(&r);
   /* The least each record takes in the data bounds every allocation. */
   p->tensors = r_array(&r, alloc, p->tensor_count, TENSOR_RECORD_MIN, sizeof(*p->tensors));
   p->stages = r_array(&r, alloc, p->stage_count, STAGE_RECORD_MIN, sizeof(*p->stages));
   struct dg_cache_stage_meta *st =
       r_array(&r, alloc, p->stage_count, STAGE_RECORD_MIN, sizeof(*st));
   p->deps = r_array(&r, alloc, p->dep_count, 4, sizeof(*p->deps));
   p->memory = r_array(&r, alloc, p->memory_count, 4, sizeof(*p->memory));
   p->internal_sets = r_array(&r, alloc, p->internal_set_count, 4, sizeof(*p->internal_sets));
   p->constants = r_array(&r, alloc, p->constant_count, 12, sizeof(*p->constants));
   bool ok = r.ok && read_arrays(&r, p, st);
   if (!ok && r.ok)
      *why = "a count out of range or trailing bytes";
   if (ok)
      ok = dg_cache_plan_valid(p, st, why);
   /* Payload constants are packed: as many bytes as their tensor's. */
   for (uint32_t i = 0; ok && i < p->constant_count; i++) {
      if (p->constants[i].size != tensor_bytes(&p->tensors[p->constants[i].tensor])) {
         *why = "a constant's size is not its tensor's";
         ok = false;
      }
   }
   if (!ok) {
      lyr_free(alloc, st);
      dg_stage_plan_destroy(p);
      if (r.oom)
         *why = "out of host memory";
      return r.oom ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_ERROR_INITIALIZATION_FAILED;
   }
   *out = p;
   *stages = st;
   *why = NULL;
   return VK_SUCCESS;
}
