/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The .npy reader and writer (npy.h): the header's Python-literal dict is
 * parsed by a small recursive-descent parser over exactly the grammar NumPy
 * writes; nothing is evaluated. Reference: numpy/lib/format.py, "Format
 * Version 1.0" and "Format Version 2.0".
 */
#include "npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64

static const struct {
   const char *descr;
   size_t size;
} npy_dtypes[NPY_DTYPE_COUNT] = {
   [NPY_BOOL] = {"|b1", 1}, [NPY_I8] = {"|i1", 1},  [NPY_U8] = {"|u1", 1},
   [NPY_I16] = {"<i2", 2},  [NPY_U16] = {"<u2", 2}, [NPY_I32] = {"<i4", 4},
   [NPY_U32] = {"<u4", 4},  [NPY_I64] = {"<i8", 8}, [NPY_F16] = {"<f2", 2},
   [NPY_F32] = {"<f4", 4},  [NPY_F64] = {"<f8", 8},
};

static bool
error(char *err, size_t err_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool
error(char *err, size_t err_len, const char *fmt, ...)
{
   if (err && err_len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, err_len, fmt, ap);
      va_end(ap);
   }
   return false;
}

size_t
npy_dtype_size(enum npy_dtype dtype)
{
   return (unsigned)dtype < NPY_DTYPE_COUNT ? npy_dtypes[dtype].size : 0;
}

const char *
npy_dtype_descr(enum npy_dtype dtype)
{
   return (unsigned)dtype < NPY_DTYPE_COUNT ? npy_dtypes[dtype].descr : "?";
}

bool
npy_dtype_from_descr(const char *descr, enum npy_dtype *dtype)
{
   for (unsigned i = 0; i < NPY_DTYPE_COUNT; i++) {
      const char *d = npy_dtypes[i].descr;
      /* A one-byte type has no byte order; NumPy writes '|' but reads '<' too. */
      if (strcmp(descr, d) == 0 ||
          (npy_dtypes[i].size == 1 && descr[0] == '<' && strcmp(descr + 1, d + 1) == 0)) {
         *dtype = (enum npy_dtype)i;
         return true;
      }
   }
   return false;
}

uint64_t
npy_array_elements(const struct npy_array *a)
{
   uint64_t n = 1;
   for (uint32_t i = 0; i < a->rank; i++)
      n *= (uint64_t)a->shape[i];
   return n;
}

/* Bytes of an array of `rank` dimensions; false on overflow. */
static bool
array_bytes(enum npy_dtype dtype, uint32_t rank, const int64_t *shape, size_t *bytes)
{
   uint64_t n = npy_dtype_size(dtype);
   for (uint32_t i = 0; i < rank; i++) {
      if (shape[i] < 0)
         return false;
      if (shape[i] != 0 && n > SIZE_MAX / (uint64_t)shape[i])
         return false;
      n *= (uint64_t)shape[i];
   }
   *bytes = (size_t)n;
   return true;
}

/* ---- header parsing ------------------------------------------------------- */

struct hdr {
   const char *s; /* NUL-terminated copy of the header */
   size_t pos;
   char *err;
   size_t err_len;
};

static void
skip_ws(struct hdr *h)
{
   while (h->s[h->pos] == ' ' || h->s[h->pos] == '\t' || h->s[h->pos] == '\n' ||
          h->s[h->pos] == '\r')
      h->pos++;
}

static bool
expect(struct hdr *h, char c, const char *what)
{
   skip_ws(h);
   if (h->s[h->pos] != c)
      return error(h->err, h->err_len, "header: expected '%c' %s at offset %zu", c, what, h->pos);
   h->pos++;
   return true;
}

/* Accepts `c` if it is next (after whitespace). */
static bool
accept(struct hdr *h, char c)
{
   skip_ws(h);
   if (h->s[h->pos] != c)
      return false;
   h->pos++;
   return true;
}

/* A quoted string without escapes (NumPy's keys and descrs have none). */
static bool
parse_string(struct hdr *h, char *out, size_t out_len, const char *what)
{
   skip_ws(h);
   char q = h->s[h->pos];
   if (q != '\'' && q != '"')
      return error(h->err, h->err_len, "header: expected a quoted string (%s) at offset %zu",
                   what, h->pos);
   size_t start = ++h->pos, n = 0;
   while (h->s[h->pos] && h->s[h->pos] != q) {
      if (h->s[h->pos] == '\\')
         return error(h->err, h->err_len, "header: escape sequence in %s at offset %zu", what,
                      h->pos);
      h->pos++;
      n++;
   }
   if (!h->s[h->pos])
      return error(h->err, h->err_len, "header: unterminated string (%s) at offset %zu", what,
                   start - 1);
   if (n + 1 > out_len)
      return error(h->err, h->err_len, "header: %s '%.*s' is too long", what, (int)n,
                   h->s + start);
   memcpy(out, h->s + start, n);
   out[n] = 0;
   h->pos++;
   return true;
}

static bool
parse_word(struct hdr *h, const char *word)
{
   size_t n = strlen(word);
   if (strncmp(h->s + h->pos, word, n) != 0)
      return false;
   char next = h->s[h->pos + n];
   if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') || next == '_' ||
       (next >= '0' && next <= '9'))
      return false;
   h->pos += n;
   return true;
}

static bool
parse_descr(struct hdr *h, enum npy_dtype *dtype)
{
   skip_ws(h);
   if (h->s[h->pos] == '[')
      return error(h->err, h->err_len,
                   "structured dtypes (a descr list) are not supported; use a plain array");
   char descr[32];
   if (!parse_string(h, descr, sizeof(descr), "descr"))
      return false;
   if (npy_dtype_from_descr(descr, dtype))
      return true;
   if (descr[0] == '>')
      return error(h->err, h->err_len,
                   "dtype '%s' is big-endian; only little-endian data is supported", descr);
   return error(h->err, h->err_len,
                "dtype '%s' is not supported (supported: |b1 |i1 |u1 <i2 <u2 <i4 <u4 <i8 <f2 "
                "<f4 <f8)",
                descr);
}

static bool
parse_bool(struct hdr *h, bool *value)
{
   skip_ws(h);
   if (parse_word(h, "True"))
      *value = true;
   else if (parse_word(h, "False"))
      *value = false;
   else
      return error(h->err, h->err_len,
                   "header: fortran_order must be True or False (offset %zu)", h->pos);
   return true;
}

static bool
parse_dim(struct hdr *h, int64_t *dim)
{
   skip_ws(h);
   size_t start = h->pos;
   if (h->s[h->pos] == '-')
      return error(h->err, h->err_len, "header: negative dimension in shape at offset %zu",
                   h->pos);
   if (h->s[h->pos] < '0' || h->s[h->pos] > '9')
      return error(h->err, h->err_len, "header: expected a dimension (an integer) at offset %zu",
                   h->pos);
   int64_t v = 0;
   while (h->s[h->pos] >= '0' && h->s[h->pos] <= '9') {
      int digit = h->s[h->pos] - '0';
      if (v > (INT64_MAX - digit) / 10)
         return error(h->err, h->err_len, "header: dimension at offset %zu is too large", start);
      v = v * 10 + digit;
      h->pos++;
   }
   char c = h->s[h->pos];
   if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.')
      return error(h->err, h->err_len, "header: dimension at offset %zu is not an integer",
                   start);
   *dim = v;
   return true;
}

/* A Python tuple of integers: (), (3,), (2, 3), (2, 3,). */
static bool
parse_shape(struct hdr *h, uint32_t *rank, int64_t *shape)
{
   if (!expect(h, '(', "(the shape must be a tuple)"))
      return false;
   *rank = 0;
   if (accept(h, ')'))
      return true;
   for (;;) {
      if (*rank == NPY_MAX_RANK)
         return error(h->err, h->err_len, "shape has more than %d dimensions", NPY_MAX_RANK);
      if (!parse_dim(h, &shape[(*rank)++]))
         return false;
      bool comma = accept(h, ',');
      if (accept(h, ')')) {
         if (*rank == 1 && !comma)
            return error(h->err, h->err_len,
                         "header: shape (%lld) is not a tuple (a 1-D shape is written (%lld,))",
                         (long long)shape[0], (long long)shape[0]);
         return true;
      }
      if (!comma)
         return error(h->err, h->err_len, "header: expected ',' or ')' in shape at offset %zu",
                      h->pos);
   }
}

static bool
parse_header(struct hdr *h, enum npy_dtype *dtype, uint32_t *rank, int64_t *shape)
{
   bool have_descr = false, have_order = false, have_shape = false, fortran = false;
   if (!expect(h, '{', "(the header must be a dict)"))
      return false;
   while (!accept(h, '}')) {
      char key[32];
      if (!parse_string(h, key, sizeof(key), "key") || !expect(h, ':', "after a key"))
         return false;
      bool *seen;
      bool ok;
      if (strcmp(key, "descr") == 0) {
         seen = &have_descr;
         ok = parse_descr(h, dtype);
      } else if (strcmp(key, "fortran_order") == 0) {
         seen = &have_order;
         ok = parse_bool(h, &fortran);
      } else if (strcmp(key, "shape") == 0) {
         seen = &have_shape;
         ok = parse_shape(h, rank, shape);
      } else {
         return error(h->err, h->err_len,
                      "header: unexpected key '%s' (only descr, fortran_order, shape)", key);
      }
      if (!ok)
         return false;
      if (*seen)
         return error(h->err, h->err_len, "header: key '%s' appears twice", key);
      *seen = true;
      if (!accept(h, ',')) {
         if (!expect(h, '}', "or ',' after a value"))
            return false;
         break;
      }
   }
   if (!have_descr || !have_order || !have_shape)
      return error(h->err, h->err_len, "header: missing key '%s'",
                   !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
   if (fortran)
      return error(h->err, h->err_len,
                   "fortran_order is True; only C-order arrays are supported "
                   "(numpy.ascontiguousarray)");
   /* Only the padding NumPy writes may follow: spaces and the final newline. */
   size_t end = strlen(h->s);
   for (size_t i = h->pos; i + 1 < end; i++) {
      if (h->s[i] != ' ' && h->s[i] != '\t' && h->s[i] != '\n' && h->s[i] != '\r')
         return error(h->err, h->err_len, "header: unexpected '%c' after the dict at offset %zu",
                      h->s[i], i);
   }
   return true;
}

bool
npy_parse(const void *bytes, size_t len, struct npy_array *out, char *err, size_t err_len)
{
   const uint8_t *b = bytes;
   if (len < NPY_MAGIC_LEN + 2 || memcmp(b, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
      return error(err, err_len, "not a .npy file (no \\x93NUMPY magic string)");
   uint8_t major = b[6], minor = b[7];
   if ((major != 1 && major != 2) || minor != 0)
      return error(err, err_len, "format version %u.%u is not supported (only 1.0 and 2.0)",
                   major, minor);
   size_t prefix = major == 1 ? 10 : 12;
   if (len < prefix)
      return error(err, err_len, "file ends inside the header length (%zu bytes)", len);
   size_t hlen = major == 1 ? (size_t)b[8] | (size_t)b[9] << 8
                            : (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 |
                                 (size_t)b[11] << 24;
   if (hlen > len - prefix)
      return error(err, err_len, "header length %zu runs past the end of the file (%zu bytes)",
                   hlen, len);
   if (hlen == 0 || b[prefix + hlen - 1] != '\n')
      return error(err, err_len, "header does not end with a newline");
   char *text = malloc(hlen + 1);
   if (!text)
      return error(err, err_len, "out of memory");
   memcpy(text, b + prefix, hlen);
   text[hlen] = 0;
   if (strlen(text) != hlen) {
      free(text);
      return error(err, err_len, "header contains a NUL byte");
   }
   struct hdr h = {.s = text, .err = err, .err_len = err_len};
   enum npy_dtype dtype = NPY_U8;
   uint32_t rank = 0;
   int64_t shape[NPY_MAX_RANK] = {0};
   bool ok = parse_header(&h, &dtype, &rank, shape);
   free(text);
   if (!ok)
      return false;

   size_t want;
   if (!array_bytes(dtype, rank, shape, &want))
      return error(err, err_len, "shape is too large");
   size_t have = len - prefix - hlen;
   if (have != want)
      return error(err, err_len, "data is %zu bytes; shape and dtype %s need %zu (%s)", have,
                   npy_dtype_descr(dtype), want, have < want ? "truncated" : "trailing bytes");
   const uint8_t *data = b + prefix + hlen;
   if (dtype == NPY_BOOL) {
      for (size_t i = 0; i < want; i++) {
         if (data[i] > 1)
            return error(err, err_len, "bool element %zu is %u, not 0 or 1", i, data[i]);
      }
   }
   void *copy = malloc(want ? want : 1);
   if (!copy)
      return error(err, err_len, "out of memory (%zu bytes of data)", want);
   memcpy(copy, data, want);
   memset(out, 0, sizeof(*out));
   out->dtype = dtype;
   out->rank = rank;
   memcpy(out->shape, shape, sizeof(shape));
   out->data = copy;
   out->size = want;
   return true;
}

bool
npy_slurp(const char *path, char **data, size_t *len, char *err, size_t err_len)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return error(err, err_len, "%s: %s", path, strerror(errno));
   char *buf = NULL;
   size_t n = 0, cap = 0;
   for (;;) {
      if (n == cap) {
         size_t ncap = cap ? cap * 2 : 65536;
         char *nbuf = realloc(buf, ncap + 1);
         if (!nbuf) {
            free(buf);
            fclose(f);
            return error(err, err_len, "%s: out of memory", path);
         }
         buf = nbuf;
         cap = ncap;
      }
      size_t got = fread(buf + n, 1, cap - n, f);
      n += got;
      if (got == 0)
         break;
   }
   bool failed = ferror(f);
   fclose(f);
   if (failed) {
      free(buf);
      return error(err, err_len, "%s: read error", path);
   }
   buf[n] = 0;
   *data = buf;
   *len = n;
   return true;
}

bool
npy_read_file(const char *path, struct npy_array *out, char *err, size_t err_len)
{
   char *buf;
   size_t len;
   if (!npy_slurp(path, &buf, &len, err, err_len))
      return false;
   char why[256];
   bool ok = npy_parse(buf, len, out, why, sizeof(why));
   free(buf);
   if (!ok)
      return error(err, err_len, "%s: %s", path, why);
   return true;
}

/* ---- writing -------------------------------------------------------------- */

bool
npy_serialize(const struct npy_array *a, void **bytes, size_t *len, char *err, size_t err_len)
{
   if ((unsigned)a->dtype >= NPY_DTYPE_COUNT || a->rank > NPY_MAX_RANK)
      return error(err, err_len, "bad dtype or rank");
   size_t want;
   if (!array_bytes(a->dtype, a->rank, a->shape, &want) || want != a->size ||
       (want && !a->data))
      return error(err, err_len, "data size %zu does not match the shape and dtype", a->size);

   char shape[NPY_MAX_RANK * 22 + 4];
   size_t n = 0;
   shape[n++] = '(';
   for (uint32_t i = 0; i < a->rank; i++)
      n += (size_t)snprintf(shape + n, sizeof(shape) - n, "%s%lld", i ? ", " : "",
                            (long long)a->shape[i]);
   n += (size_t)snprintf(shape + n, sizeof(shape) - n, "%s)", a->rank == 1 ? "," : "");

   char dict[sizeof(shape) + 80];
   int dlen = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                       npy_dtype_descr(a->dtype), shape);
   if (dlen < 0 || (size_t)dlen >= sizeof(dict))
      return error(err, err_len, "header too long");
   /* Version 1.0 unless the header does not fit its 16-bit length. */
   size_t prefix = 10, total = prefix + (size_t)dlen + 1;
   total = (total + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
   if (total - prefix > 0xffff) {
      prefix = 12;
      total = (prefix + (size_t)dlen + 1 + NPY_ALIGN - 1) / NPY_ALIGN * NPY_ALIGN;
   }
   size_t hlen = total - prefix;
   if (want > SIZE_MAX - total)
      return error(err, err_len, "array too large");
   uint8_t *buf = malloc(total + want);
   if (!buf)
      return error(err, err_len, "out of memory");
   memcpy(buf, NPY_MAGIC, NPY_MAGIC_LEN);
   buf[6] = prefix == 10 ? 1 : 2;
   buf[7] = 0;
   for (size_t i = 0; i < prefix - 8; i++)
      buf[8 + i] = (uint8_t)(hlen >> (8 * i));
   memcpy(buf + prefix, dict, (size_t)dlen);
   memset(buf + prefix + dlen, ' ', hlen - (size_t)dlen - 1);
   buf[total - 1] = '\n';
   if (want)
      memcpy(buf + total, a->data, want);
   *bytes = buf;
   *len = total + want;
   return true;
}

bool
npy_write_file(const char *path, const struct npy_array *a, char *err, size_t err_len)
{
   void *bytes;
   size_t len;
   char why[128];
   if (!npy_serialize(a, &bytes, &len, why, sizeof(why)))
      return error(err, err_len, "%s: %s", path, why);
   FILE *f = fopen(path, "wb");
   if (!f) {
      free(bytes);
      return error(err, err_len, "%s: %s", path, strerror(errno));
   }
   bool ok = fwrite(bytes, 1, len, f) == len;
   ok = fclose(f) == 0 && ok;
   free(bytes);
   if (!ok)
      return error(err, err_len, "%s: write error", path);
   return true;
}

void
npy_array_finish(struct npy_array *a)
{
   free(a->data);
   memset(a, 0, sizeof(*a));
}
