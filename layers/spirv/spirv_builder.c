/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The SPIR-V builder: section streams, memo tables, id allocation, raw and
 * memoized emission, capabilities and extensions, copying a parsed module in,
 * and the section walker that rewriting passes are built on. Writing the
 * module out (type replacement, merging, dependency sort) is in
 * spirv_builder_write.c.
 */
#include "spirv/spirv_builder.h"

#include <string.h>

#include <spirv/unified1/spirv.h>

#include "lyr_alloc.h"

struct spirv_memo_entry {
   uint32_t hash;
   uint32_t key_len;
   size_t key_offset;
   uint32_t id; /* 0 = empty slot */
};

/* Marks the stride part of memo keys of decorated arrays, so that they never
 * match the key of an array copied from a module. */
#define MEMO_STRIDE_TAG 0xfffffffeu

static void
fail(struct spirv_builder *b, VkResult result, const char *what)
{
   if (b->result == VK_SUCCESS) {
      b->result = result;
      b->failure = what;
   }
}

/* ---- streams ------------------------------------------------------------- */

bool
spirv_stream_append(struct spirv_stream *s, const VkAllocationCallbacks *alloc,
                    const uint32_t *words, size_t count)
{
   if (count > SIZE_MAX / 8 - s->count)
      return false;
   if (s->count + count > s->capacity) {
      size_t cap = s->capacity ? s->capacity : 64;
      while (cap < s->count + count)
         cap *= 2;
      uint32_t *w = lyr_realloc(alloc, s->words, cap * sizeof(uint32_t), 8,
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!w)
         return false;
      s->words = w;
      s->capacity = cap;
   }
   if (count)
      memcpy(s->words + s->count, words, count * sizeof(uint32_t));
   s->count += count;
   return true;
}

void
spirv_stream_finish(struct spirv_stream *s, const VkAllocationCallbacks *alloc)
{
   lyr_free(alloc, s->words);
   memset(s, 0, sizeof(*s));
}

/* ---- memo tables ----------------------------------------------------------- */

static uint32_t
hash_words(const uint32_t *key, uint32_t len)
{
   uint32_t h = 2166136261u;
   for (uint32_t i = 0; i < len; i++) {
      h ^= key[i];
      h *= 16777619u;
      h ^= h >> 15;
   }
   return h;
}

uint32_t
spirv_memo_lookup(const struct spirv_memo *m, const uint32_t *key, uint32_t len)
{
   if (!m->capacity)
      return 0;
   uint32_t h = hash_words(key, len);
   for (uint32_t i = h & (m->capacity - 1);; i = (i + 1) & (m->capacity - 1)) {
      const struct spirv_memo_entry *e = &m->entries[i];
      if (!e->id)
         return 0;
      if (e->hash == h && e->key_len == len &&
          !memcmp(m->keys.words + e->key_offset, key, len * sizeof(uint32_t)))
         return e->id;
   }
}

static bool
memo_grow(struct spirv_memo *m, const VkAllocationCallbacks *alloc)
{
   uint32_t cap = m->capacity ? m->capacity * 2 : 256;
   struct spirv_memo_entry *entries =
       lyr_zalloc(alloc, sizeof(*entries) * cap, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!entries)
      return false;
   for (uint32_t i = 0; i < m->capacity; i++) {
      const struct spirv_memo_entry *e = &m->entries[i];
      if (!e->id)
         continue;
      uint32_t j = e->hash & (cap - 1);
      while (entries[j].id)
         j = (j + 1) & (cap - 1);
      entries[j] = *e;
   }
   lyr_free(alloc, m->entries);
   m->entries = entries;
   m->capacity = cap;
   return true;
}

bool
spirv_memo_insert(struct spirv_memo *m, const VkAllocationCallbacks *alloc, const uint32_t *key,
                  uint32_t len, uint32_t id)
{
   if (spirv_memo_lookup(m, key, len))
      return true;
   if ((m->count + 1) * 2 > m->capacity && !memo_grow(m, alloc))
      return false;
   size_t offset = m->keys.count;
   if (!spirv_stream_append(&m->keys, alloc, key, len))
      return false;
   uint32_t h = hash_words(key, len);
   uint32_t i = h & (m->capacity - 1);
   while (m->entries[i].id)
      i = (i + 1) & (m->capacity - 1);
   m->entries[i] = (struct spirv_memo_entry){h, len, offset, id};
   m->count++;
   return true;
}

void
spirv_memo_finish(struct spirv_memo *m, const VkAllocationCallbacks *alloc)
{
   lyr_free(alloc, m->entries);
   spirv_stream_finish(&m->keys, alloc);
   memset(m, 0, sizeof(*m));
}

/* ---- life cycle ---------------------------------------------------------- */

void
spirv_builder_init(struct spirv_builder *b, uint32_t version, const VkAllocationCallbacks *alloc)
{
   memset(b, 0, sizeof(*b));
   b->alloc = alloc ? alloc : &lyr_default_alloc;
   b->version = version;
   b->next_id = 1;
   b->result = VK_SUCCESS;
}

void
spirv_builder_finish(struct spirv_builder *b)
{
   for (unsigned s = 0; s < SPIRV_SECTION_COUNT; s++)
      spirv_stream_finish(&b->sections[s], b->alloc);
   spirv_memo_finish(&b->memo, b->alloc);
   spirv_stream_finish(&b->scratch, b->alloc);
   lyr_free(b->alloc, b->replace);
   b->replace = NULL;
   b->replace_capacity = 0;
}

uint32_t
spirv_builder_alloc_id(struct spirv_builder *b)
{
   if (b->next_id >= SPIRV_MAX_BOUND) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "id bound exceeds the SPIR-V limit");
      return 0;
   }
   return b->next_id++;
}

enum spirv_section
spirv_section_of_opcode(uint32_t opcode)
{
   switch (opcode) {
   case SpvOpCapability:
      return SPIRV_SECTION_CAPABILITY;
   case SpvOpExtension:
      return SPIRV_SECTION_EXTENSION;
   case SpvOpExtInstImport:
      return SPIRV_SECTION_EXT_IMPORT;
   case SpvOpMemoryModel:
      return SPIRV_SECTION_MEMORY_MODEL;
   case SpvOpEntryPoint:
      return SPIRV_SECTION_ENTRY_POINT;
   case SpvOpExecutionMode:
   case SpvOpExecutionModeId:
      return SPIRV_SECTION_EXECUTION_MODE;
   case SpvOpString:
   case SpvOpSourceExtension:
   case SpvOpSource:
   case SpvOpSourceContinued:
   case SpvOpName:
   case SpvOpMemberName:
   case SpvOpModuleProcessed:
      return SPIRV_SECTION_DEBUG;
   case SpvOpDecorate:
   case SpvOpMemberDecorate:
   case SpvOpDecorationGroup:
   case SpvOpGroupDecorate:
   case SpvOpGroupMemberDecorate:
   case SpvOpDecorateId:
   case SpvOpDecorateString:
   case SpvOpMemberDecorateString:
      return SPIRV_SECTION_ANNOTATION;
   case SpvOpFunction:
      return SPIRV_SECTION_FUNCTION;
   default:
      return SPIRV_SECTION_GLOBAL;
   }
}

VkResult
spirv_builder_init_from_reader(struct spirv_builder *b, const struct spirv_reader *r)
{
   spirv_builder_init(b, r->version, r->alloc);
   b->generator = r->generator;
   b->next_id = r->bound;

   bool in_functions = false;
   for (uint32_t i = 0; i < r->inst_count && b->result == VK_SUCCESS; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      const uint32_t *words = spirv_reader_inst_words(r, inst);
      if (inst->opcode == SpvOpFunction)
         in_functions = true;
      enum spirv_section s =
          in_functions ? SPIRV_SECTION_FUNCTION : spirv_section_of_opcode(inst->opcode);
      spirv_builder_append(b, s, words, inst->word_count);
      if (s == SPIRV_SECTION_GLOBAL)
         spirv_builder_memoize(b, words);
      else if (s == SPIRV_SECTION_EXT_IMPORT && inst->word_count >= 3) {
         const char *name = (const char *)(words + 2);
         size_t max = (size_t)(inst->word_count - 2) * 4;
         if (memchr(name, '\0', max) && !strcmp(name, "GLSL.std.450"))
            b->glsl_std450 = words[1];
      }
   }
   return b->result;
}

/* ---- raw emission ---------------------------------------------------------- */

void
spirv_builder_append(struct spirv_builder *b, enum spirv_section s, const uint32_t *words,
                     size_t count)
{
   if (b->result != VK_SUCCESS)
      return;
   if (!spirv_stream_append(&b->sections[s], b->alloc, words, count))
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "out of memory for a section");
}

void
spirv_builder_insert(struct spirv_builder *b, enum spirv_section s, size_t offset,
                     const uint32_t *words, size_t count)
{
   struct spirv_stream *st = &b->sections[s];
   size_t old = st->count;
   if (offset > old) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "insertion past the end of a section");
      return;
   }
   spirv_builder_append(b, s, words, count);
   if (b->result != VK_SUCCESS || offset == old)
      return;
   /* Rotate the appended words into place. */
   uint32_t *tmp =
       lyr_alloc(b->alloc, count * sizeof(uint32_t), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!tmp) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "out of memory for an insertion");
      return;
   }
   memcpy(tmp, st->words + old, count * sizeof(uint32_t));
   memmove(st->words + offset + count, st->words + offset, (old - offset) * sizeof(uint32_t));
   memcpy(st->words + offset, tmp, count * sizeof(uint32_t));
   lyr_free(b->alloc, tmp);
}

static void
emit_words(struct spirv_builder *b, enum spirv_section s, uint32_t opcode, const uint32_t *head,
           uint32_t head_count, const uint32_t *operands, uint32_t count)
{
   uint32_t total = 1 + head_count + count;
   if (total > 0xffffu) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "instruction longer than 65535 words");
      return;
   }
   uint32_t first[4];
   first[0] = total << 16 | (opcode & 0xffffu);
   for (uint32_t i = 0; i < head_count; i++)
      first[1 + i] = head[i];
   spirv_builder_append(b, s, first, 1 + head_count);
   spirv_builder_append(b, s, operands, count);
}

void
spirv_build_op(struct spirv_builder *b, enum spirv_section s, uint32_t opcode,
               const uint32_t *operands, uint32_t count)
{
   emit_words(b, s, opcode, NULL, 0, operands, count);
}

uint32_t
spirv_build_op_tr(struct spirv_builder *b, enum spirv_section s, uint32_t opcode, uint32_t type,
                  uint32_t result, const uint32_t *operands, uint32_t count)
{
   if (!result)
      result = spirv_builder_alloc_id(b);
   uint32_t head[2];
   uint32_t n = 0;
   if (type)
      head[n++] = type;
   head[n++] = result;
   emit_words(b, s, opcode, head, n, operands, count);
   return b->result == VK_SUCCESS ? result : 0;
}

void
spirv_build_decorate(struct spirv_builder *b, uint32_t target, uint32_t decoration,
                     const uint32_t *literals, uint32_t count)
{
   uint32_t head[2] = {target, decoration};
   emit_words(b, SPIRV_SECTION_ANNOTATION, SpvOpDecorate, head, 2, literals, count);
}

void
spirv_build_member_decorate(struct spirv_builder *b, uint32_t type, uint32_t member,
                            uint32_t decoration, const uint32_t *literals, uint32_t count)
{
   uint32_t head[3] = {type, member, decoration};
   emit_words(b, SPIRV_SECTION_ANNOTATION, SpvOpMemberDecorate, head, 3, literals, count);
}

/* ---- memoized types and constants ------------------------------------------ */

/* A scratch array of n words (for keys too long for the stack), or NULL. */
static uint32_t *
scratch(struct spirv_builder *b, size_t n)
{
   b->scratch.count = 0;
   if (n > b->scratch.capacity) {
      uint32_t *w = lyr_realloc(b->alloc, b->scratch.words, n * sizeof(uint32_t), 8,
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!w) {
         fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "out of memory for a key");
         return NULL;
      }
      b->scratch.words = w;
      b->scratch.capacity = n;
   }
   return b->scratch.words;
}

/* The key {opcode, first, words[0..count)} in the scratch array, or NULL (the failure
 * recorded, `too_long` when count passes what an instruction can hold). */
static uint32_t *
scratch_key(struct spirv_builder *b, uint32_t opcode, uint32_t first, const uint32_t *words,
            uint32_t count, const char *too_long)
{
   if (count > 0xfff0u) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, too_long);
      return NULL;
   }
   uint32_t *key = scratch(b, count + 2);
   if (!key)
      return NULL;
   key[0] = opcode;
   key[1] = first;
   memcpy(key + 2, words, count * sizeof(uint32_t));
   return key;
}

static void
memo_put(struct spirv_builder *b, const uint32_t *key, uint32_t len, uint32_t id)
{
   if (b->result == VK_SUCCESS && !spirv_memo_insert(&b->memo, b->alloc, key, len, id))
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "out of memory for the memo table");
}

/* key = opcode, operands...; the type is emitted as key[0] %id key[1..emit_len). */
static uint32_t
get_type(struct spirv_builder *b, const uint32_t *key, uint32_t key_len, uint32_t emit_len)
{
   uint32_t id = spirv_memo_lookup(&b->memo, key, key_len);
   if (id || b->result != VK_SUCCESS)
      return id;
   id = spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, key[0], 0, 0, key + 1, emit_len - 1);
   memo_put(b, key, key_len, id);
   return id;
}

/* key = opcode, type, literals...; emitted as key[0] key[1] %id key[2..]. */
static uint32_t
get_const(struct spirv_builder *b, const uint32_t *key, uint32_t key_len)
{
   uint32_t id = spirv_memo_lookup(&b->memo, key, key_len);
   if (id || b->result != VK_SUCCESS)
      return id;
   id = spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, key[0], key[1], 0, key + 2, key_len - 2);
   memo_put(b, key, key_len, id);
   return id;
}

uint32_t
spirv_get_type_void(struct spirv_builder *b)
{
   uint32_t key[] = {SpvOpTypeVoid};
   return get_type(b, key, 1, 1);
}

uint32_t
spirv_get_type_bool(struct spirv_builder *b)
{
   uint32_t key[] = {SpvOpTypeBool};
   return get_type(b, key, 1, 1);
}

uint32_t
spirv_get_type_int(struct spirv_builder *b, uint32_t width, bool is_signed)
{
   uint32_t key[] = {SpvOpTypeInt, width, is_signed ? 1u : 0u};
   return get_type(b, key, 3, 3);
}

uint32_t
spirv_get_type_float(struct spirv_builder *b, uint32_t width)
{
   uint32_t key[] = {SpvOpTypeFloat, width};
   return get_type(b, key, 2, 2);
}

uint32_t
spirv_get_type_vector(struct spirv_builder *b, uint32_t component, uint32_t count)
{
   uint32_t key[] = {SpvOpTypeVector, component, count};
   return get_type(b, key, 3, 3);
}

uint32_t
spirv_get_type_pointer(struct spirv_builder *b, uint32_t storage_class, uint32_t type)
{
   uint32_t key[] = {SpvOpTypePointer, storage_class, type};
   return get_type(b, key, 3, 3);
}

uint32_t
spirv_get_type_function(struct spirv_builder *b, uint32_t return_type, const uint32_t *params,
                        uint32_t count)
{
   uint32_t *key = scratch_key(b, SpvOpTypeFunction, return_type, params, count,
                               "function type with too many parameters");
   return key ? get_type(b, key, count + 2, count + 2) : 0;
}

static uint32_t
get_strided(struct spirv_builder *b, const uint32_t *key, uint32_t key_len, uint32_t emit_len,
            uint32_t stride)
{
   bool is_new = !spirv_memo_lookup(&b->memo, key, key_len);
   uint32_t id = get_type(b, key, key_len, emit_len);
   if (is_new && id && stride)
      spirv_build_decorate(b, id, SpvDecorationArrayStride, &stride, 1);
   return id;
}

uint32_t
spirv_get_type_array(struct spirv_builder *b, uint32_t element, uint32_t length_id, uint32_t stride)
{
   uint32_t key[] = {SpvOpTypeArray, element, length_id, MEMO_STRIDE_TAG, stride};
   return get_strided(b, key, 5, 3, stride);
}

uint32_t
spirv_get_type_runtime_array(struct spirv_builder *b, uint32_t element, uint32_t stride)
{
   uint32_t key[] = {SpvOpTypeRuntimeArray, element, MEMO_STRIDE_TAG, stride};
   return get_strided(b, key, 4, 2, stride);
}

uint32_t
spirv_build_type_struct(struct spirv_builder *b, const uint32_t *members, uint32_t count,
                        const uint32_t *offsets)
{
   uint32_t id = spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, SpvOpTypeStruct, 0, 0, members, count);
   for (uint32_t i = 0; offsets && id && i < count; i++)
      spirv_build_member_decorate(b, id, i, SpvDecorationOffset, &offsets[i], 1);
   return id;
}

uint32_t
spirv_get_const(struct spirv_builder *b, uint32_t type, const uint32_t *words, uint32_t count)
{
   uint32_t key[4] = {SpvOpConstant, type};
   if (count > 2) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "constant wider than 64 bits");
      return 0;
   }
   memcpy(key + 2, words, count * sizeof(uint32_t));
   return get_const(b, key, count + 2);
}

uint32_t
spirv_get_const_uint(struct spirv_builder *b, uint32_t width, uint64_t value)
{
   uint32_t type = spirv_get_type_int(b, width, false);
   uint32_t words[2] = {(uint32_t)value, (uint32_t)(value >> 32)};
   if (width < 32)
      words[0] &= (1u << width) - 1;
   return spirv_get_const(b, type, words, width > 32 ? 2 : 1);
}

uint32_t
spirv_get_const_u32(struct spirv_builder *b, uint32_t value)
{
   return spirv_get_const_uint(b, 32, value);
}

uint32_t
spirv_get_const_f32_bits(struct spirv_builder *b, uint32_t bits)
{
   return spirv_get_const(b, spirv_get_type_float(b, 32), &bits, 1);
}

uint32_t
spirv_get_const_bool(struct spirv_builder *b, bool value)
{
   uint32_t key[] = {value ? SpvOpConstantTrue : SpvOpConstantFalse, spirv_get_type_bool(b)};
   return get_const(b, key, 2);
}

uint32_t
spirv_get_const_null(struct spirv_builder *b, uint32_t type)
{
   uint32_t key[] = {SpvOpConstantNull, type};
   return get_const(b, key, 2);
}

uint32_t
spirv_get_const_composite(struct spirv_builder *b, uint32_t type, const uint32_t *ids,
                          uint32_t count)
{
   uint32_t *key =
      scratch_key(b, SpvOpConstantComposite, type, ids, count, "composite constant too long");
   return key ? get_const(b, key, count + 2) : 0;
}

void
spirv_builder_memoize(struct spirv_builder *b, const uint32_t *inst)
{
   uint32_t opcode = inst[0] & 0xffffu, wc = inst[0] >> 16;
   uint32_t *key;
   switch (opcode) {
   case SpvOpTypeVoid:
   case SpvOpTypeBool:
   case SpvOpTypeInt:
   case SpvOpTypeFloat:
   case SpvOpTypeVector:
   case SpvOpTypeMatrix:
   case SpvOpTypeSampler:
   case SpvOpTypeImage:
   case SpvOpTypeSampledImage:
   case SpvOpTypePointer:
   case SpvOpTypeFunction:
      if (wc < 2 || !(key = scratch(b, wc)))
         return;
      key[0] = opcode;
      memcpy(key + 1, inst + 2, (wc - 2) * sizeof(uint32_t));
      memo_put(b, key, wc - 1, inst[1]);
      return;
   case SpvOpConstantTrue:
   case SpvOpConstantFalse:
   case SpvOpConstant:
   case SpvOpConstantNull:
   case SpvOpConstantComposite:
      if (wc < 3 || !(key = scratch(b, wc)))
         return;
      key[0] = opcode;
      key[1] = inst[1];
      memcpy(key + 2, inst + 3, (wc - 3) * sizeof(uint32_t));
      memo_put(b, key, wc - 1, inst[2]);
      return;
   default:
      return;
   }
}

uint32_t
spirv_get_ext_import(struct spirv_builder *b, const char *name)
{
   bool glsl = !strcmp(name, "GLSL.std.450");
   if (glsl && b->glsl_std450)
      return b->glsl_std450;
   const struct spirv_stream *s = &b->sections[SPIRV_SECTION_EXT_IMPORT];
   size_t len = strlen(name);
   for (size_t i = 0; i < s->count; i += s->words[i] >> 16) {
      uint32_t wc = s->words[i] >> 16;
      if (wc >= 3 && (size_t)(wc - 2) * 4 > len && !memcmp(s->words + i + 2, name, len + 1))
         return s->words[i + 1];
   }
   uint32_t words[64] = {0};
   if (len >= sizeof(words) - 4) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "import name too long");
      return 0;
   }
   memcpy(words, name, len);
   uint32_t id = spirv_build_op_tr(b, SPIRV_SECTION_EXT_IMPORT, SpvOpExtInstImport, 0, 0, words,
                                   (uint32_t)(len / 4 + 1));
   if (glsl)
      b->glsl_std450 = id;
   return id;
}

/* ---- capabilities and extensions ------------------------------------------- */

bool
spirv_builder_has_capability(const struct spirv_builder *b, uint32_t cap)
{
   const struct spirv_stream *s = &b->sections[SPIRV_SECTION_CAPABILITY];
   for (size_t i = 0; i < s->count; i += s->words[i] >> 16)
      if ((s->words[i] >> 16) >= 2 && s->words[i + 1] == cap)
         return true;
   return false;
}

void
spirv_builder_add_capability(struct spirv_builder *b, uint32_t cap)
{
   if (!spirv_builder_has_capability(b, cap))
      spirv_build_op(b, SPIRV_SECTION_CAPABILITY, SpvOpCapability, &cap, 1);
}

/* Removes the instructions of section s for which match() is true. */
static bool
remove_matching(struct spirv_builder *b, enum spirv_section s,
                bool (*match)(const uint32_t *inst, const void *data), const void *data)
{
   struct spirv_stream *st = &b->sections[s];
   size_t out = 0;
   bool removed = false;
   for (size_t i = 0; i < st->count;) {
      uint32_t wc = st->words[i] >> 16;
      if (match(st->words + i, data)) {
         removed = true;
      } else {
         memmove(st->words + out, st->words + i, wc * sizeof(uint32_t));
         out += wc;
      }
      i += wc;
   }
   st->count = out;
   return removed;
}

static bool
match_capability(const uint32_t *inst, const void *data)
{
   return (inst[0] >> 16) >= 2 && inst[1] == *(const uint32_t *)data;
}

bool
spirv_builder_remove_capability(struct spirv_builder *b, uint32_t cap)
{
   return remove_matching(b, SPIRV_SECTION_CAPABILITY, match_capability, &cap);
}

static bool
match_extension(const uint32_t *inst, const void *data)
{
   const char *name = data;
   size_t len = strlen(name);
   uint32_t wc = inst[0] >> 16;
   return wc >= 2 && (size_t)(wc - 1) * 4 > len && !memcmp(inst + 1, name, len + 1);
}

bool
spirv_builder_has_extension(const struct spirv_builder *b, const char *name)
{
   const struct spirv_stream *s = &b->sections[SPIRV_SECTION_EXTENSION];
   for (size_t i = 0; i < s->count; i += s->words[i] >> 16)
      if (match_extension(s->words + i, name))
         return true;
   return false;
}

void
spirv_builder_add_extension(struct spirv_builder *b, const char *name)
{
   if (spirv_builder_has_extension(b, name))
      return;
   uint32_t words[64] = {0};
   size_t len = strlen(name);
   if (len >= sizeof(words) - 4) {
      fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "extension name too long");
      return;
   }
   memcpy(words, name, len);
   spirv_build_op(b, SPIRV_SECTION_EXTENSION, SpvOpExtension, words, (uint32_t)(len / 4 + 1));
}

bool
spirv_builder_remove_extension(struct spirv_builder *b, const char *name)
{
   return remove_matching(b, SPIRV_SECTION_EXTENSION, match_extension, name);
}

/* ---- walking ------------------------------------------------------------- */

VkResult
spirv_builder_rewrite(struct spirv_builder *b, enum spirv_section s, spirv_rewrite_fn fn,
                      void *data)
{
   if (b->result != VK_SUCCESS)
      return b->result;
   struct spirv_stream old = b->sections[s];
   memset(&b->sections[s], 0, sizeof(b->sections[s]));

   VkResult result = VK_SUCCESS;
   for (size_t i = 0; i < old.count;) {
      const uint32_t *inst = old.words + i;
      uint32_t wc = inst[0] >> 16;
      bool keep = true;
      result = fn(b, inst, data, &keep);
      if (result == VK_SUCCESS && keep)
         spirv_builder_append(b, s, inst, wc);
      if (result == VK_SUCCESS)
         result = b->result;
      if (result != VK_SUCCESS)
         break;
      i += wc;
   }
   spirv_stream_finish(&old, b->alloc);
   return result;
}

void
spirv_builder_replace_type(struct spirv_builder *b, uint32_t old_type, uint32_t new_type)
{
   if (b->result != VK_SUCCESS || !old_type || old_type == new_type)
      return;
   if (old_type >= b->replace_capacity) {
      uint32_t cap = b->next_id > old_type ? b->next_id : old_type + 1;
      uint32_t *r = lyr_realloc(b->alloc, b->replace, cap * sizeof(uint32_t), 8,
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!r) {
         fail(b, VK_ERROR_OUT_OF_HOST_MEMORY, "out of memory for type replacements");
         return;
      }
      memset(r + b->replace_capacity, 0, (cap - b->replace_capacity) * sizeof(uint32_t));
      b->replace = r;
      b->replace_capacity = cap;
   }
   b->replace[old_type] = new_type;
}
