/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Malformed input never crashes the tensor lowering: every golden case of
 * tests/unit/lower is truncated at every word and has every word replaced by
 * a few hostile values (0, 1, all ones, off by one, a changed word count);
 * each variant is lowered and whatever comes back is freed. The lowering may
 * succeed or fail; it must return, with a message on failure. Run under the
 * sanitizer build this is also the memory-safety check of the reader, the
 * builder and the passes.
 * With --glsl N, every Nth variant the direct lowering accepts also goes
 * through the GLSL round trip (tsr_lower_glsl(): SPIRV-Cross and glslang see
 * the pre-pass's module of a mutated input), with the same expectations.
 * Usage: test_lower_robust [--glsl N] CASE_DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"
#include "tsr_lower.h"
#include "tsr_lower_glsl.h"

TEST_MAIN_STATE;

static unsigned failures_without_message;
static unsigned variants;
static unsigned glsl_every; /* --glsl N, 0 without */
static unsigned accepted, round_trips, round_trips_failed;

static void
round_trip(const uint32_t *words, size_t count)
{
   uint32_t *out = NULL;
   size_t out_count = 0;
   char err[768];
   memset(err, 0, sizeof(err));
   VkResult result =
       tsr_lower_glsl(words, count, NULL, NULL, NULL, &out, &out_count, err, sizeof(err));
   if (result != VK_SUCCESS && !err[0])
      failures_without_message++;
   if (result == VK_SUCCESS && (!out || out_count < 5))
      failures_without_message++;
   round_trips_failed += result != VK_SUCCESS;
   round_trips++;
   tsr_lower_free(NULL, out);
}

static void
lower_variant(const uint32_t *words, size_t count)
{
   uint32_t *out = NULL;
   size_t out_count = 0;
   char err[256];
   memset(err, 0, sizeof(err));
   VkResult result = tsr_lower_tensors(words, count, NULL, &out, &out_count, err, sizeof(err));
   if (result != VK_SUCCESS && !err[0])
      failures_without_message++;
   if (result == VK_SUCCESS && (!out || out_count < 5))
      failures_without_message++;
   tsr_lower_free(NULL, out);
   variants++;
   if (result == VK_SUCCESS && glsl_every && accepted++ % glsl_every == 0)
      round_trip(words, count);
}

static void
mutate_case(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!ok(f != NULL, "cannot open %s", path))
      return;
   char text[1 << 16];
   size_t len = fread(text, 1, sizeof(text) - 1, f);
   fclose(f);
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!ok(spirv_text_assemble(text, len, &words, &count, err, sizeof(err)), "%s: %s", path, err))
      return;
   uint32_t *copy = malloc(count * sizeof(uint32_t));
   if (!ok(copy != NULL, "out of memory")) {
      free(words);
      return;
   }
   for (size_t n = 0; n < count; n++)
      lower_variant(words, n);
   for (size_t i = 0; i < count; i++) {
      uint32_t hostile[5] = {0, 1, UINT32_MAX, words[i] + 1, words[i] ^ 0x00030000u};
      for (unsigned k = 0; k < 5; k++) {
         memcpy(copy, words, count * sizeof(uint32_t));
         copy[i] = hostile[k];
         lower_variant(copy, count);
      }
   }
   free(copy);
   free(words);
}

int
main(int argc, char **argv)
{
   if (argc == 4 && !strcmp(argv[1], "--glsl")) {
      glsl_every = (unsigned)strtoul(argv[2], NULL, 10);
      argv += 2;
      argc -= 2;
   }
   if (argc != 2) {
      fprintf(stderr, "usage: %s [--glsl N] CASE_DIR\n", argv[0]);
      return 2;
   }
   if (glsl_every && !ok(tsr_lower_glsl_retain(), "glslang does not initialize"))
      return test_done();
   DIR *d = opendir(argv[1]);
   if (!ok(d != NULL, "cannot open %s", argv[1]))
      return test_done();
   struct dirent *e;
   unsigned cases = 0;
   while ((e = readdir(d))) {
      size_t n = strlen(e->d_name);
      if (n < 10 || strcmp(e->d_name + n - 10, ".in.spvasm"))
         continue;
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
      mutate_case(path);
      cases++;
   }
   closedir(d);
   ok(cases > 0, "no cases in %s", argv[1]);
   ok(failures_without_message == 0, "%u variants failed without a message",
      failures_without_message);
   printf("%u cases, %u variants lowered\n", cases, variants);
   if (glsl_every) {
      printf("%u accepted, %u through the GLSL round trip (%u failed there)\n", accepted,
             round_trips, round_trips_failed);
      tsr_lower_glsl_release();
   }
   return test_done();
}
