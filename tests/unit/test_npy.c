/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run's .npy reader and writer (tools/vmel-run/npy.h): every dtype and
 * a few shapes round-trip through the writer and the reader; headers as NumPy
 * and other writers spell them are read (versions 1.0 and 2.0, quotes, key
 * order, spacing); and malformed or unsupported files are rejected with a
 * message naming the problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "test.h"

TEST_MAIN_STATE;

/* A file with exactly this header text (which should end in '\n') and data. */
static size_t
make_file(uint8_t *buf, size_t cap, unsigned major, const char *header, const void *data,
          size_t data_len)
{
   size_t hlen = strlen(header), prefix = major == 1 ? 10 : 12;
   if (prefix + hlen + data_len > cap)
      abort();
   memcpy(buf, "\x93NUMPY", 6);
   buf[6] = (uint8_t)major;
   buf[7] = 0;
   for (size_t i = 0; i < prefix - 8; i++)
      buf[8 + i] = (uint8_t)(hlen >> (8 * i));
   memcpy(buf + prefix, header, hlen);
   if (data_len)
      memcpy(buf + prefix + hlen, data, data_len);
   return prefix + hlen + data_len;
}

static void
test_round_trip(void)
{
   test_set_context("round trip");
   static const int64_t shapes[][3] = {{0}, {5}, {2, 3}, {2, 1, 4}};
   static const uint32_t ranks[] = {0, 1, 2, 3};
   for (unsigned d = 0; d < NPY_DTYPE_COUNT; d++) {
      for (unsigned s = 0; s < 4; s++) {
         struct npy_array a = {.dtype = (enum npy_dtype)d, .rank = ranks[s]};
         memcpy(a.shape, shapes[s], sizeof(shapes[s]));
         uint64_t n = npy_array_elements(&a);
         a.size = (size_t)n * npy_dtype_size(a.dtype);
         uint8_t data[8 * 8 * 3];
         for (size_t i = 0; i < a.size; i++)
            data[i] = d == NPY_BOOL ? (uint8_t)(i & 1) : (uint8_t)(i * 37 + d);
         a.data = data;
         void *bytes = NULL;
         size_t len = 0;
         char err[256] = "";
         if (!ok(npy_serialize(&a, &bytes, &len, err, sizeof(err)), "serialize %s rank %u: %s",
                 npy_dtype_descr(a.dtype), a.rank, err))
            continue;
         const uint8_t *b = bytes;
         size_t hlen = (size_t)b[8] | (size_t)b[9] << 8;
         ok(b[6] == 1 && b[7] == 0, "version 1.0");
         ok((10 + hlen) % 64 == 0, "header padded to 64 bytes (%zu)", 10 + hlen);
         ok(b[10 + hlen - 1] == '\n', "header ends with a newline");
         check_eq_u64(len, 10 + hlen + a.size);
         struct npy_array r;
         if (ok(npy_parse(bytes, len, &r, err, sizeof(err)), "parse %s rank %u: %s",
                npy_dtype_descr(a.dtype), a.rank, err)) {
            ok(r.dtype == a.dtype, "dtype %s", npy_dtype_descr(r.dtype));
            check_eq_u64(r.rank, a.rank);
            for (uint32_t i = 0; i < a.rank; i++)
               check_eq_i64(r.shape[i], a.shape[i]);
            check_eq_u64(r.size, a.size);
            ok(memcmp(r.data, a.data, a.size) == 0, "data");
            npy_array_finish(&r);
         }
         free(bytes);
      }
   }
}

static void
test_header_text(void)
{
   test_set_context("headers");
   struct npy_array a;
   char err[256];
   uint8_t buf[512];
   const float f[6] = {1, 2, 3, 4, 5, 6};
   size_t len = make_file(buf, sizeof(buf), 1,
                          "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }    \n", f,
                          sizeof(f));
   if (ok(npy_parse(buf, len, &a, err, sizeof(err)), "NumPy's header: %s", err)) {
      ok(a.dtype == NPY_F32 && a.rank == 2 && a.shape[0] == 2 && a.shape[1] == 3, "f4 (2, 3)");
      ok(((const float *)a.data)[5] == 6.0f, "data");
      npy_array_finish(&a);
   }
   /* Other writers: double quotes, other key order, no trailing comma, no spaces. */
   len = make_file(buf, sizeof(buf), 1,
                   "{\"shape\":(6,),\"fortran_order\":False,\"descr\":\"<f4\"}\n", f,
                   sizeof(f));
   if (ok(npy_parse(buf, len, &a, err, sizeof(err)), "double quotes, key order: %s", err)) {
      ok(a.rank == 1 && a.shape[0] == 6, "shape (6,)");
      npy_array_finish(&a);
   }
   /* Version 2.0: a 4-byte header length. */
   len = make_file(buf, sizeof(buf), 2, "{'descr': '<i2', 'fortran_order': False, 'shape': (3,)}\n",
                   "\1\0\2\0\3\0", 6);
   if (ok(npy_parse(buf, len, &a, err, sizeof(err)), "version 2.0: %s", err)) {
      ok(a.dtype == NPY_I16 && a.shape[0] == 3 && ((const int16_t *)a.data)[2] == 3, "i2 data");
      npy_array_finish(&a);
   }
   /* A scalar, a one-byte type with '<', a zero-sized array. */
   len = make_file(buf, sizeof(buf), 1, "{'descr': '<u1', 'fortran_order': False, 'shape': ()}\n",
                   "\7", 1);
   if (ok(npy_parse(buf, len, &a, err, sizeof(err)), "scalar <u1: %s", err)) {
      ok(a.dtype == NPY_U8 && a.rank == 0 && npy_array_elements(&a) == 1, "u1 scalar");
      npy_array_finish(&a);
   }
   len = make_file(buf, sizeof(buf), 1,
                   "{'descr': '|b1', 'fortran_order': False, 'shape': (0, 4)}\n", NULL, 0);
   if (ok(npy_parse(buf, len, &a, err, sizeof(err)), "empty: %s", err)) {
      ok(a.size == 0 && npy_array_elements(&a) == 0, "no elements");
      npy_array_finish(&a);
   }
   enum npy_dtype d;
   ok(npy_dtype_from_descr("<i8", &d) && d == NPY_I64, "<i8 is int64");
   ok(npy_dtype_from_descr("|i1", &d) && d == NPY_I8, "|i1");
   ok(!npy_dtype_from_descr("<u8", &d), "<u8 is not supported");
}

struct bad_case {
   const char *name;
   unsigned major;
   const char *header;
   size_t data_len;
   const char *message; /* a substring of the error */
};

static void
test_rejected(void)
{
   test_set_context("rejected");
   static const struct bad_case cases[] = {
      {"Fortran order", 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 16,
       "fortran_order is True"},
      {"big-endian", 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }\n", 8,
       "big-endian"},
      {"complex", 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\n", 16,
       "dtype '<c8' is not supported"},
      {"unicode", 1, "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }\n", 24,
       "not supported"},
      {"structured", 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }\n",
       8, "structured dtypes"},
      {"1-D shape without comma", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3), }\n",
       12, "not a tuple"},
      {"negative dimension", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }\n", 0,
       "negative dimension"},
      {"float dimension", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,), }\n", 8,
       "not an integer"},
      {"shape is a list", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }\n", 8,
       "must be a tuple"},
      {"missing key", 1, "{'descr': '<f4', 'shape': (2,), }\n", 8, "missing key 'fortran_order'"},
      {"duplicate key", 1,
       "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8,
       "appears twice"},
      {"unexpected key", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}\n", 8,
       "unexpected key 'extra'"},
      {"not a dict", 1, "('<f4', False, (2,))\n", 8, "must be a dict"},
      {"bad fortran_order", 1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }\n", 8,
       "True or False"},
      {"unterminated string", 1, "{'descr': '<f4 \n", 8, "unterminated string"},
      {"garbage after the dict", 1,
       "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x\n", 8, "after the dict"},
      {"no newline", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }  ", 8,
       "newline"},
      {"truncated data", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n", 20,
       "truncated"},
      {"trailing bytes", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 9,
       "trailing bytes"},
      {"version 3.0", 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", 8,
       "version 3.0 is not supported"},
   };
   uint8_t buf[512], data[64] = {0};
   char err[256];
   struct npy_array a;
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct bad_case *c = &cases[i];
      size_t len = make_file(buf, sizeof(buf), c->major == 2 ? 2 : 1, c->header, data,
                             c->data_len);
      buf[6] = (uint8_t)c->major;
      err[0] = 0;
      if (!ok(!npy_parse(buf, len, &a, err, sizeof(err)), "%s: accepted", c->name)) {
         npy_array_finish(&a);
         continue;
      }
      ok(strstr(err, c->message) != NULL, "%s: message \"%s\" lacks \"%s\"", c->name, err,
         c->message);
   }

   /* Byte-level damage. */
   size_t len = make_file(buf, sizeof(buf), 1,
                          "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n",
                          "\0\1\2", 3);
   ok(!npy_parse(buf, len, &a, err, sizeof(err)) && strstr(err, "bool element 2 is 2"),
      "bool 2: %s", err);
   ok(!npy_parse(buf, 5, &a, err, sizeof(err)) && strstr(err, "not a .npy file"), "short: %s",
      err);
   memcpy(buf, "\x93NUMPZ", 6);
   ok(!npy_parse(buf, len, &a, err, sizeof(err)) && strstr(err, "not a .npy file"),
      "bad magic: %s", err);
   len = make_file(buf, sizeof(buf), 1, "{'descr': '|u1', 'fortran_order': False, 'shape': ()}\n",
                   "\0", 1);
   buf[8] = 0xff; /* header length past the end */
   ok(!npy_parse(buf, len, &a, err, sizeof(err)) && strstr(err, "runs past the end"),
      "header length: %s", err);
   len = make_file(buf, sizeof(buf), 1, "{'descr': '|u1', 'fortran_order': False, 'shape': ()}\n",
                   "\0", 1);
   buf[20] = 0;
   ok(!npy_parse(buf, len, &a, err, sizeof(err)) && strstr(err, "NUL"), "NUL: %s", err);
   len = make_file(buf, sizeof(buf), 1,
                   "{'descr': '<f8', 'fortran_order': False, 'shape': "
                   "(99999999999, 99999999999, 99999999999), }\n",
                   NULL, 0);
   ok(!npy_parse(buf, len, &a, err, sizeof(err)) && strstr(err, "too large"), "overflow: %s",
      err);
}

static void
test_files(void)
{
   test_set_context("files");
   char path[] = "/tmp/vmel_test_npy_XXXXXX";
   int fd = mkstemp(path);
   if (!ok(fd >= 0, "mkstemp"))
      return;
   close(fd);
   int32_t values[4] = {-1, 2, -3, 4};
   struct npy_array a = {.dtype = NPY_I32, .rank = 2, .shape = {2, 2}, .data = values,
                         .size = sizeof(values)};
   char err[256] = "";
   ok(npy_write_file(path, &a, err, sizeof(err)), "write: %s", err);
   struct npy_array r;
   if (ok(npy_read_file(path, &r, err, sizeof(err)), "read: %s", err)) {
      ok(r.dtype == NPY_I32 && r.rank == 2 && memcmp(r.data, values, sizeof(values)) == 0,
         "same array");
      npy_array_finish(&r);
   }
   /* A bad file's message names it. */
   FILE *f = fopen(path, "wb");
   if (f) {
      fputs("not numpy", f);
      fclose(f);
   }
   ok(!npy_read_file(path, &r, err, sizeof(err)) && strstr(err, path) &&
         strstr(err, "not a .npy file"),
      "garbage file: %s", err);
   unlink(path);
   ok(!npy_read_file(path, &r, err, sizeof(err)) && strstr(err, path), "missing file: %s", err);
   /* The writer checks its argument. */
   a.size = 12;
   void *bytes;
   size_t len;
   ok(!npy_serialize(&a, &bytes, &len, err, sizeof(err)), "size mismatch refused");
}

int
main(void)
{
   test_round_trip();
   test_header_text();
   test_rejected();
   test_files();
   return test_done();
}
