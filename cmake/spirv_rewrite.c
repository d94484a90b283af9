/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel_spirv_rewrite MODE IN.spv OUT.spv: a compiled kernel rewritten (D51), OUT may be IN.
 *   coop_khr  SPV_NV_cooperative_matrix into SPV_KHR_cooperative_matrix (spirv_coop_khr.c)
 *   int_dot   calls of dg_sdot4() into OpSDot, debug instructions dropped (spirv_int_dot.c)
 * A failure prints a message, removes OUT (so that the next build compiles again) and exits
 * 1, which fails the build (cmake/EmbedKernels.cmake, SPIRV_REWRITE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_rewrite.h"

int
spirv_fail(const char *msg, uint32_t id)
{
   fprintf(stderr, "vmel_spirv_rewrite: %s (id %u)\n", msg, id);
   return 1;
}

int
spirv_emit(struct spirv_out *o, const uint32_t *words, size_t count)
{
   if (o->n + count > o->cap) {
      size_t cap = (o->n + count) * 2;
      uint32_t *w = realloc(o->w, cap * sizeof(*w));
      if (!w)
         return spirv_fail("out of memory", 0);
      o->w = w;
      o->cap = cap;
   }
   memcpy(o->w + o->n, words, count * sizeof(*words));
   o->n += count;
   return 0;
}

int
spirv_emit_string_op(struct spirv_out *o, uint32_t op, const char *s)
{
   uint32_t words[16] = {0};
   size_t bytes = strlen(s) + 1, count = 1 + (bytes + 3) / 4;
   if (count > 16)
      return spirv_fail("a string too long", 0);
   memcpy(words + 1, s, bytes);
   words[0] = (uint32_t)(count << 16) | op;
   return spirv_emit(o, words, count);
}

/* The module at path, whole, or NULL after a message. */
static uint32_t *
read_module(const char *path, size_t *n)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return spirv_fail("cannot read the input", 0), NULL;
   uint32_t *w = NULL;
   long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
   if (size >= 20 && size % 4 == 0 && fseek(f, 0, SEEK_SET) == 0 && (w = malloc((size_t)size))) {
      *n = (size_t)size / 4;
      if (fread(w, 4, *n, f) != *n || w[0] != 0x07230203u) {
         free(w);
         w = NULL;
      }
   }
   fclose(f);
   if (!w)
      spirv_fail("the input is no little-endian SPIR-V module", 0);
   return w;
}

int
main(int argc, char **argv)
{
   if (argc != 4 || (strcmp(argv[1], "coop_khr") != 0 && strcmp(argv[1], "int_dot") != 0)) {
      fprintf(stderr, "usage: vmel_spirv_rewrite coop_khr|int_dot IN.spv OUT.spv\n");
      return 2;
   }
   size_t n = 0;
   uint32_t *w = read_module(argv[2], &n);
   struct spirv_out o = {0};
   int bad = !w || (strcmp(argv[1], "coop_khr") == 0 ? spirv_coop_khr(w, n, &o)
                                                      : spirv_int_dot(w, n, &o));
   FILE *out = bad ? NULL : fopen(argv[3], "wb");
   if (!bad && (!out || fwrite(o.w, 4, o.n, out) != o.n || fclose(out) != 0))
      bad = spirv_fail("cannot write the output", 0);
   if (bad)
      remove(argv[3]); /* no stale output for the build to take */
   free(w);
   free(o.w);
   return bad;
}
