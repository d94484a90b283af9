/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: vmel-run's .npy reader (tools/vmel-run/npy.c), which reads the files
 * a user names on the command line. The input is the file's bytes. A file the
 * reader accepts must describe its data exactly (elements times element size), and
 * survive a round trip through the writer: written again and read back, the same
 * dtype, shape and bytes. A refusal must say why.
 */
#include "fuzz.h"

#include "npy.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   struct npy_array a;
   char err[256] = "";
   if (!npy_parse(data, size, &a, err, sizeof(err))) {
      if (!err[0])
         fuzz_fail("a file refused without a message");
      return 0;
   }
   if (a.dtype >= NPY_DTYPE_COUNT || a.rank > NPY_MAX_RANK)
      fuzz_fail("dtype %d, rank %u accepted", (int)a.dtype, a.rank);
   uint64_t elements = npy_array_elements(&a);
   if (elements * npy_dtype_size(a.dtype) != a.size)
      fuzz_fail("%llu elements of %zu bytes in %zu bytes of data", (unsigned long long)elements,
                npy_dtype_size(a.dtype), a.size);
   /* Touch every byte of the data (ASan: the buffer really has a.size bytes). */
   unsigned sum = 0;
   for (size_t i = 0; i < a.size; i++)
      sum += ((const uint8_t *)a.data)[i];
   (void)sum;
   void *bytes = NULL;
   size_t len = 0;
   if (!npy_serialize(&a, &bytes, &len, err, sizeof(err)))
      fuzz_fail("an accepted array is not written: %s", err);
   struct npy_array b;
   if (!npy_parse(bytes, len, &b, err, sizeof(err)))
      fuzz_fail("the writer's file is refused: %s", err);
   if (b.dtype != a.dtype || b.rank != a.rank ||
       memcmp(b.shape, a.shape, sizeof(a.shape[0]) * a.rank) != 0 || b.size != a.size ||
       (a.size && memcmp(a.data, b.data, a.size) != 0))
      fuzz_fail("the round trip changes the array");
   npy_array_finish(&b);
   free(bytes);
   npy_array_finish(&a);
   return 0;
}
