/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-lower: the tensor lowering (tensor/lower) on the command line, for
 * debugging shaders and the lowering itself: the direct SPIR-V lowering, or
 * with --glsl the GLSL round trip (the layer's default path, whose GLSL is
 * printed to stderr).
 *   vmel-lower [-t] [--glsl] [-o OUT] [--without FEATURE]... IN
 * IN is a binary module, or SPIR-V text when its name ends in .spvasm. The
 * result is written as binary, or as text with -t (default OUT: stdout for
 * text, IN.lowered.spv for binary). FEATURE is one of int8 int16 int64
 * float16 float64 storage8 storage16 non_uniform runtime_array: a device
 * feature to pretend is missing. On failure the reason is printed and the
 * exit status is 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "tsr_lower.h"
#include "tsr_lower_glsl.h"

static void
usage(FILE *out)
{
   fprintf(out,
           "usage: vmel-lower [-t] [--glsl] [-o OUT] [--without FEATURE]... IN(.spv|.spvasm)\n"
           "\n"
           "Runs the tensor layer's shader lowering (SPV_ARM_tensors to storage buffers) on a\n"
           "module, for debugging shaders and the lowering: the direct SPIR-V lowering, or with\n"
           "--glsl the GLSL round trip (the layer's default path; its GLSL goes to stderr).\n"
           "IN is a binary module, or SPIR-V text when its name ends in .spvasm. Exit status:\n"
           "0 on success, 1 when the lowering fails (the reason is printed), 2 for a usage\n"
           "error.\n"
           "\n"
           "  -t                 write SPIR-V text (default: binary)\n"
           "  --glsl             lower through GLSL, as the layer does by default\n"
           "  -o OUT             write to OUT (default: stdout for text, IN.lowered.spv for\n"
           "                     binary)\n"
           "  --without FEATURE  lower as if the device lacked FEATURE (repeatable): int8\n"
           "                     int16 int64 float16 float64 storage8 storage16 non_uniform\n"
           "                     runtime_array vertex fragment\n"
           "  -h, --help         print this help and exit\n");
}

static char *
read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "vmel-lower: %s: %s\n", path, strerror(errno));
      return NULL;
   }
   char *data = NULL;
   size_t len = 0, cap = 0;
   for (;;) {
      if (len == cap) {
         cap = cap ? cap * 2 : 1 << 16;
         char *bigger = realloc(data, cap + 1);
         if (!bigger) {
            free(data);
            fclose(f);
            fprintf(stderr, "vmel-lower: out of memory\n");
            return NULL;
         }
         data = bigger;
      }
      size_t n = fread(data + len, 1, cap - len, f);
      len += n;
      if (n == 0)
         break;
   }
   bool error = ferror(f);
   fclose(f);
   if (error) {
      fprintf(stderr, "vmel-lower: %s: read error\n", path);
      free(data);
      return NULL;
   }
   data[len] = '\0';
   *size = len;
   return data;
}

static bool
ends_with(const char *s, const char *suffix)
{
   size_t n = strlen(s), m = strlen(suffix);
   return n >= m && !strcmp(s + n - m, suffix);
}

/* The input as words: assembled from text, or copied from a binary. */
static uint32_t *
load_module(const char *path, size_t *count)
{
   size_t size = 0;
   char *data = read_file(path, &size);
   if (!data)
      return NULL;
   uint32_t *words = NULL;
   char err[256] = "";
   if (ends_with(path, ".spvasm")) {
      if (!spirv_text_assemble(data, size, &words, count, err, sizeof(err)))
         fprintf(stderr, "vmel-lower: %s: %s\n", path, err);
   } else if (size % 4) {
      fprintf(stderr, "vmel-lower: %s: %zu bytes is not a whole number of words\n", path, size);
   } else if ((words = malloc(size ? size : 4))) {
      memcpy(words, data, size);
      *count = size / 4;
   }
   free(data);
   return words;
}

static void
print_glsl(void *user, const char *glsl)
{
   fputs(glsl, stderr);
}

static int
write_output(const char *path, const uint32_t *words, size_t count, bool text)
{
   FILE *f = path ? fopen(path, "wb") : stdout;
   if (!f) {
      fprintf(stderr, "vmel-lower: %s: %s\n", path, strerror(errno));
      return 1;
   }
   bool ok = true;
   if (text) {
      char *dis = NULL;
      size_t len = 0;
      char err[256] = "";
      ok = spirv_text_disassemble(words, count, &dis, &len, err, sizeof(err));
      if (!ok)
         fprintf(stderr, "vmel-lower: disassembly failed: %s\n", err);
      else
         ok = fwrite(dis, 1, len, f) == len;
      free(dis);
   } else {
      ok = fwrite(words, 4, count, f) == count;
   }
   if (f != stdout)
      ok = fclose(f) == 0 && ok;
   return ok ? 0 : 1;
}

int
main(int argc, char **argv)
{
   bool text = false, glsl = false;
   const char *out = NULL, *in = NULL;
   struct tsr_lower_options opts = {.features = TSR_LOWER_FEATURES_ALL};
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
         usage(stdout);
         return 0;
      } else if (!strcmp(argv[i], "-t")) {
         text = true;
      } else if (!strcmp(argv[i], "--glsl")) {
         glsl = true;
      } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
         out = argv[++i];
      } else if (!strcmp(argv[i], "--without") && i + 1 < argc) {
         const char *name = argv[++i];
         uint32_t bit = tsr_lower_feature_from_name(name, strlen(name));
         if (!bit) {
            fprintf(stderr, "vmel-lower: unknown feature %s\n", name);
            return 2;
         }
         opts.features &= ~bit;
      } else if (argv[i][0] == '-' || in) {
         usage(stderr);
         return 2;
      } else {
         in = argv[i];
      }
   }
   if (!in) {
      usage(stderr);
      return 2;
   }
   size_t count = 0;
   uint32_t *words = load_module(in, &count);
   if (!words)
      return 1;

   uint32_t *lowered = NULL;
   size_t lowered_count = 0;
   char err[512] = "";
   VkResult result =
       glsl ? tsr_lower_glsl(words, count, &opts, print_glsl, NULL, &lowered, &lowered_count, err,
                             sizeof(err))
            : tsr_lower_tensors(words, count, &opts, &lowered, &lowered_count, err, sizeof(err));
   free(words);
   if (result != VK_SUCCESS) {
      fprintf(stderr, "vmel-lower: %s: %s (VkResult %d)\n", in, err, result);
      return 1;
   }
   char default_out[4096];
   if (!out && !text) {
      snprintf(default_out, sizeof(default_out), "%s.lowered.spv", in);
      out = default_out;
   }
   int status = write_output(out, lowered, lowered_count, text);
   tsr_lower_free(&opts, lowered);
   return status;
}
