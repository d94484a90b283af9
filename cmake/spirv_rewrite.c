/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel_spirv_rewrite MODE IN.spv OUT.spv: a compiled kernel rewritten (D51), OUT may be IN.
 *   coop_khr       SPV_NV_cooperative_matrix into SPV_KHR_cooperative_matrix (spirv_coop_khr.c)
 *   coop_khr_bf16  coop_khr, then the matrices' 16-bit float components made bfloat16,
 *                  SPV_KHR_bfloat16 (spirv_bf16.c; a 16-bit float used elsewhere is refused)
 *   int_dot        calls of dg_sdot4() into OpSDot, debug instructions dropped (spirv_int_dot.c)
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

int
spirv_is_extension(const uint32_t *inst, const char *s)
{
   size_t bytes = ((inst[0] >> 16) - 1) * 4, n = strlen(s);
   return (inst[0] & 0xffffu) == 10 /* OpExtension */ && bytes > n &&
          memcmp(inst + 1, s, n + 1) == 0;
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

typedef int spirv_rewrite_fn(uint32_t *w, size_t n, struct spirv_out *o);

/* The modes: their rewrites, each run on the previous one's output. */
static const struct {
   const char *name;
   spirv_rewrite_fn *steps[2];
} modes[] = {
   {"coop_khr", {spirv_coop_khr, NULL}},
   {"coop_khr_bf16", {spirv_coop_khr, spirv_bf16}},
   {"int_dot", {spirv_int_dot, NULL}},
};

int
main(int argc, char **argv)
{
   size_t count = sizeof(modes) / sizeof(modes[0]), mode = 0;
   while (argc == 4 && mode < count && strcmp(argv[1], modes[mode].name) != 0)
      mode++;
   if (argc != 4 || mode == count) {
      fprintf(stderr, "usage: vmel_spirv_rewrite coop_khr|coop_khr_bf16|int_dot IN.spv OUT.spv\n");
      return 2;
   }
   size_t n = 0;
   uint32_t *w = read_module(argv[2], &n);
   int bad = !w;
   for (size_t i = 0; i < 2 && modes[mode].steps[i] && !bad; i++) {
      struct spirv_out o = {0};
      bad = modes[mode].steps[i](w, n, &o);
      free(w);
      w = o.w;
      n = o.n;
   }
   FILE *out = bad ? NULL : fopen(argv[3], "wb");
   if (!bad && (!out || fwrite(w, 4, n, out) != n || fclose(out) != 0))
      bad = spirv_fail("cannot write the output", 0);
   if (bad)
      remove(argv[3]); /* no stale output for the build to take */
   free(w);
   return bad;
}
