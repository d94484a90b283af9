/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A bounded reader of FlatBuffers binaries (the format of TOSA's .tosa files), with no
 * FlatBuffers library: every offset, length and vtable entry is checked against the buffer
 * before it is used, and the first failure is kept with the field's name and the byte offset
 * where reading stopped. Reads go through memcpy (no alignment is assumed), positions are
 * 64-bit so no sum overflows, and nothing recurses: a caller walks tables level by level.
 *
 * The format in short (FlatBuffers "internals" documentation): the file starts with a u32
 * offset to the root table (and, at bytes 4..7, an optional 4-character file identifier). A
 * table starts with an i32 that, subtracted from the table's position, gives its vtable: u16
 * vtable size in bytes, u16 table size, then one u16 per field, the field's offset from the
 * table's start (0: absent, the schema default applies). Strings, vectors and sub-tables are
 * referred to by a u32 offset relative to where the offset itself is stored; vectors and
 * strings start with a u32 element count (strings end with a NUL not counted). A union is two
 * fields: a u8 type (0: none) and the offset of a table.
 */
#ifndef VMEL_TOSA_FB_H
#define VMEL_TOSA_FB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Largest file read (bytes). */
#define TOSA_FB_MAX_SIZE (UINT64_C(1) << 30)

struct tosa_fb {
   const uint8_t *data;
   uint64_t size;
   bool failed;
   char err[256]; /* the first failure: "<field>: <why> at offset N" */
};

/** A table: its position and its vtable's (already checked to lie in the buffer). */
struct tosa_fb_table {
   uint64_t pos;
   uint64_t vtable;
   uint32_t vtable_size; /* bytes, >= 4 */
   uint32_t table_size;  /* bytes, >= 4 */
};

/** A vector: the position of its first element and its length. */
struct tosa_fb_vec {
   uint64_t pos;
   uint32_t count;
};

void tosa_fb_init(struct tosa_fb *fb, const void *data, size_t size);

/** Records a failure (the first one wins); returns false. */
bool tosa_fb_fail(struct tosa_fb *fb, const char *field, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** The root table; checks the file identifier when `ident` is not NULL. */
bool tosa_fb_root(struct tosa_fb *fb, const char *ident, struct tosa_fb_table *root);

/** Where field `index` lies, or 0 when the table does not have it. */
uint64_t tosa_fb_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                       uint32_t size, const char *name);

/* Scalars: the schema default when absent; false after a failure. */
bool tosa_fb_u8(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                const char *name, uint8_t def, uint8_t *value);
bool tosa_fb_u32(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                 const char *name, uint32_t def, uint32_t *value);
bool tosa_fb_i32(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                 const char *name, int32_t def, int32_t *value);
bool tosa_fb_bool(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                  const char *name, bool *value);

/**
 * A sub-table field. @param present  false (and true returned) when absent; pass NULL to make
 * the field required.
 */
bool tosa_fb_table_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                         const char *name, struct tosa_fb_table *out, bool *present);

/**
 * A vector field of elements of `elem_size` bytes (4 for offsets to tables or strings); an
 * absent vector reads as empty. At most `max_count` elements.
 */
bool tosa_fb_vec_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                       const char *name, uint32_t elem_size, uint32_t max_count,
                       struct tosa_fb_vec *out);

/** A string field (absent: "" with length 0); at most max_len bytes, NUL-terminated in the file. */
bool tosa_fb_string_field(struct tosa_fb *fb, const struct tosa_fb_table *t, uint32_t index,
                          const char *name, uint32_t max_len, const char **str, uint32_t *len);

/** Element i of a vector of tables / of strings. */
bool tosa_fb_vec_table(struct tosa_fb *fb, const struct tosa_fb_vec *v, uint32_t i,
                       const char *name, struct tosa_fb_table *out);
bool tosa_fb_vec_string(struct tosa_fb *fb, const struct tosa_fb_vec *v, uint32_t i,
                        const char *name, uint32_t max_len, const char **str, uint32_t *len);

/** Little-endian loads at a checked position (the caller checked the vector's extent). */
static inline uint32_t
tosa_fb_load_u32(const struct tosa_fb *fb, uint64_t pos)
{
   const uint8_t *p = fb->data + pos;
   return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t
tosa_fb_load_u16(const struct tosa_fb *fb, uint64_t pos)
{
   const uint8_t *p = fb->data + pos;
   return (uint16_t)(p[0] | p[1] << 8);
}

#endif /* VMEL_TOSA_FB_H */
