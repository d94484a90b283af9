/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bounded FlatBuffers reader (tosa_fb.h). Each read checks `pos + size <= fb->size` in
 * 64-bit arithmetic before touching a byte.
 */
#include "tosa_fb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
tosa_fb_init(struct tosa_fb *fb, const void *data, size_t size)
{
   memset(fb, 0, sizeof(*fb));
   fb->data = data;
   fb->size = size;
}

bool
tosa_fb_fail(struct tosa_fb *fb, const char *field, uint64_t offset, const char *fmt, ...)
{
   if (fb->failed)
      return false;
   fb->failed = true;
   char why[160];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(why, sizeof(why), fmt, ap);
   va_end(ap);
   snprintf(fb->err, sizeof(fb->err), "%s: %s at offset %llu", field, why,
            (unsigned long long)offset);
   return false;
}

static bool
in_bounds(const struct tosa_fb *fb, uint64_t pos, uint64_t size)
{
   return pos <= fb->size && size <= fb->size - pos;
}

/* The table a u32 offset stored at `at` refers to. */
static bool
table_at(struct tosa_fb *fb, uint64_t at, const char *name, struct tosa_fb_table *out)
{
   if (!in_bounds(fb, at, 4))
      return tosa_fb_fail(fb, name, at, "offset runs past the end of the file (%llu bytes)",
                          (unsigned long long)fb->size);
   uint64_t pos = at + tosa_fb_load_u32(fb, at);
   if (!in_bounds(fb, pos, 4))
      return tosa_fb_fail(fb, name, at, "table offset points past the end of the file");
   int32_t soff = (int32_t)tosa_fb_load_u32(fb, pos);
   int64_t vt = (int64_t)pos - (int64_t)soff;
   if (vt < 0 || !in_bounds(fb, (uint64_t)vt, 4))
      return tosa_fb_fail(fb, name, pos, "vtable offset %d points outside the file", soff);
   uint32_t vsize = tosa_fb_load_u16(fb, (uint64_t)vt);
   uint32_t tsize = tosa_fb_load_u16(fb, (uint64_t)vt + 2);
   if (vsize < 4 || vsize % 2 || !in_bounds(fb, (uint64_t)vt, vsize))
      return tosa_fb_fail(fb, name, (uint64_t)vt, "bad vtable size %u", vsize);
   if (tsize < 4 || !in_bounds(fb, pos, tsize))
      return tosa_fb_fail(fb, name, pos, "table size %u runs past the end of the file", tsize);
   out->pos = pos;
   out->vtable = (uint64_t)vt;
   out->vtable_size = vsize;
   out->table_size = tsize;
   return true;
}

bool
tosa_fb_root(struct tosa_fb *fb, const char *ident, struct tosa_fb_table *root)
{
   if (fb->size > TOSA_FB_MAX_SIZE)
      return tosa_fb_fail(fb, "file", 0, "%llu bytes, more than the limit of %llu",
                          (unsigned long long)fb->size, (unsigned long long)TOSA_FB_MAX_SIZE);
   if (fb->size < 8)
      return tosa_fb_fail(fb, "file", 0, "%llu bytes is too short for a FlatBuffer",
                          (unsigned long long)fb->size);
   if (ident && memcmp(fb->data + 4, ident, 4) != 0)
      return tosa_fb_fail(fb, "file identifier", 4, "not \"%.4s\"", ident);
   return table_at(fb, 0, "root table", root);
}

uint64_t
tosa_fb_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index, uint32_t size,
              const char *name)
{
   uint64_t entry = 4 + 2 * (uint64_t)index;
   if (fb->failed || entry + 2 > t->vtable_size)
      return 0;
   uint32_t off = tosa_fb_load_u16(fb, t->vtable + entry);
   if (off == 0)
      return 0;
   if (off < 4 || (uint64_t)off + size > t->table_size) {
      tosa_fb_fail(fb, name, t->vtable + entry, "field offset %u outside its table of %u bytes",
                   off, t->table_size);
      return 0;
   }
   return t->pos + off;
}

bool
tosa_fb_u8(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index, const char *name,
           uint8_t def, uint8_t *value)
{
   uint64_t at = tosa_fb_field(fb, t, index, 1, name);
   *value = at ? fb->data[at] : def;
   return !fb->failed;
}

bool
tosa_fb_u32(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index, const char *name,
            uint32_t def, uint32_t *value)
{
   uint64_t at = tosa_fb_field(fb, t, index, 4, name);
   *value = at ? tosa_fb_load_u32(fb, at) : def;
   return !fb->failed;
}

bool
tosa_fb_i32(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index, const char *name,
            int32_t def, int32_t *value)
{
   uint32_t v;
   bool ok = tosa_fb_u32(fb, t, index, name, (uint32_t)def, &v);
   *value = (int32_t)v;
   return ok;
}

bool
tosa_fb_bool(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index, const char *name,
             bool *value)
{
   uint8_t v;
   bool ok = tosa_fb_u8(fb, t, index, name, 0, &v);
   if (ok && v > 1)
      return tosa_fb_fail(fb, name, tosa_fb_field(fb, t, index, 1, name), "bool value %u", v);
   *value = v == 1;
   return ok;
}

bool
tosa_fb_table_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                    const char *name, struct tosa_fb_table *out, bool *present)
{
   uint64_t at = tosa_fb_field(fb, t, index, 4, name);
   if (fb->failed)
      return false;
   if (!at) {
      if (!present)
         return tosa_fb_fail(fb, name, t->pos, "required table is absent");
      *present = false;
      return true;
   }
   if (present)
      *present = true;
   return table_at(fb, at, name, out);
}

/* The vector a u32 offset stored at `at` refers to. */
static bool
vec_at(struct tosa_fb *fb, uint64_t at, const char *name, uint32_t elem_size, uint32_t max_count,
       struct tosa_fb_vec *out)
{
   if (!in_bounds(fb, at, 4))
      return tosa_fb_fail(fb, name, at, "offset runs past the end of the file");
   uint64_t pos = at + tosa_fb_load_u32(fb, at);
   if (!in_bounds(fb, pos, 4))
      return tosa_fb_fail(fb, name, at, "vector offset points past the end of the file");
   uint32_t count = tosa_fb_load_u32(fb, pos);
   if (count > max_count)
      return tosa_fb_fail(fb, name, pos, "%u elements, more than the limit of %u", count,
                          max_count);
   if (!in_bounds(fb, pos + 4, (uint64_t)count * elem_size))
      return tosa_fb_fail(fb, name, pos, "%u elements of %u bytes run past the end of the file",
                          count, elem_size);
   out->pos = pos + 4;
   out->count = count;
   return true;
}

bool
tosa_fb_vec_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                  const char *name, uint32_t elem_size, uint32_t max_count,
                  struct tosa_fb_vec *out)
{
   out->pos = 0;
   out->count = 0;
   uint64_t at = tosa_fb_field(fb, t, index, 4, name);
   if (fb->failed)
      return false;
   return !at || vec_at(fb, at, name, elem_size, max_count, out);
}

static bool
string_at(struct tosa_fb *fb, uint64_t at, const char *name, uint32_t max_len, const char **str,
          uint32_t *len)
{
   struct tosa_fb_vec v;
   if (!vec_at(fb, at, name, 1, max_len, &v))
      return false;
   if (!in_bounds(fb, v.pos + v.count, 1) || fb->data[v.pos + v.count] != 0)
      return tosa_fb_fail(fb, name, v.pos - 4, "string of %u bytes has no terminating NUL",
                          v.count);
   if (memchr(fb->data + v.pos, 0, v.count))
      return tosa_fb_fail(fb, name, v.pos - 4, "string contains a NUL byte");
   *str = (const char *)fb->data + v.pos;
   *len = v.count;
   return true;
}

bool
tosa_fb_string_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                     const char *name, uint32_t max_len, const char **str, uint32_t *len)
{
   *str = "";
   *len = 0;
   uint64_t at = tosa_fb_field(fb, t, index, 4, name);
   if (fb->failed)
      return false;
   return !at || string_at(fb, at, name, max_len, str, len);
}

bool
tosa_fb_vec_table(struct tosa_fb *fb, const struct tosa_fb_vec *v, uint32_t i, const char *name,
                  struct tosa_fb_table *out)
{
   return !fb->failed && i < v->count && table_at(fb, v->pos + 4 * (uint64_t)i, name, out);
}

bool
tosa_fb_vec_string(struct tosa_fb *fb, const struct tosa_fb_vec *v, uint32_t i, const char *name,
                   uint32_t max_len, const char **str, uint32_t *len)
{
   return !fb->failed && i < v->count &&
          string_at(fb, v->pos + 4 * (uint64_t)i, name, max_len, str, len);
}
