/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-as: the command line of the SPIR-V text assembler (spirv_text.h).
 *   vmel-as [-o out.spv] in.spvasm     assemble (default output: in.spv)
 *   vmel-as -d [-o out.spvasm] in.spv  disassemble (default output: stdout)
 * "-" names stdin or stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"

static void
usage(FILE *out)
{
   fprintf(out, "usage: vmel-as [-o OUT] IN.spvasm      assemble (default OUT: IN.spv)\n"
                "       vmel-as -d [-o OUT] IN.spv      disassemble (default OUT: stdout)\n"
                "\n"
                "Assembles SPIR-V text into a binary module, or disassembles one, with the ARM\n"
                "tensor and graph instructions (SPV_ARM_tensors, SPV_ARM_graph) and the\n"
                "TOSA.001000.1 and Arm.MotionEngine.100 instruction sets. \"-\" names standard\n"
                "input or output. Exit status: 0 on success, 1 on an error in the module or a\n"
                "file, 2 for a usage error.\n"
                "\n"
                "  -d          disassemble a binary module (default: assemble text)\n"
                "  -o OUT      write the result to OUT\n"
                "  -h, --help  print this help and exit\n");
}

static char *
read_file(const char *path, size_t *size)
{
   FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "vmel-as: %s: %s\n", path, strerror(errno));
      return NULL;
   }
   size_t cap = 1 << 16, len = 0;
   char *data = malloc(cap);
   while (data) {
      len += fread(data + len, 1, cap - len, f);
      if (len < cap)
         break;
      char *bigger = realloc(data, cap * 2);
      if (!bigger) {
         free(data);
         data = NULL;
         break;
      }
      data = bigger;
      cap *= 2;
   }
   bool error = ferror(f);
   if (f != stdin)
      fclose(f);
   if (!data || error) {
      fprintf(stderr, "vmel-as: %s: %s\n", path, data ? "read error" : "out of memory");
      free(data);
      return NULL;
   }
   *size = len;
   return data;
}

static bool
write_file(const char *path, const void *data, size_t size)
{
   FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
   if (!f) {
      fprintf(stderr, "vmel-as: %s: %s\n", path, strerror(errno));
      return false;
   }
   bool ok = fwrite(data, 1, size, f) == size;
   if (f != stdout)
      ok = fclose(f) == 0 && ok;
   else
      ok = fflush(f) == 0 && ok;
   if (!ok)
      fprintf(stderr, "vmel-as: %s: write error\n", path);
   return ok;
}

/* in.spvasm -> in.spv */
static char *
default_output(const char *in)
{
   size_t len = strlen(in);
   const char *dot = strrchr(in, '.');
   const char *slash = strrchr(in, '/');
   if (dot && (!slash || dot > slash))
      len = (size_t)(dot - in);
   char *out = malloc(len + 5);
   if (out) {
      memcpy(out, in, len);
      memcpy(out + len, ".spv", 5);
   }
   return out;
}

int
main(int argc, char **argv)
{
   bool disassemble = false;
   const char *in = NULL, *out = NULL;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "-d") == 0) {
         disassemble = true;
      } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
         out = argv[++i];
      } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
         usage(stdout);
         return 0;
      } else if (!in && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)) {
         in = argv[i];
      } else {
         usage(stderr);
         return 2;
      }
   }
   if (!in) {
      usage(stderr);
      return 2;
   }

   size_t size;
   char *data = read_file(in, &size);
   if (!data)
      return 1;

   char err[256];
   int status = 1;
   if (disassemble) {
      char *text;
      size_t len;
      if (size % 4 != 0)
         fprintf(stderr, "vmel-as: %s: size %zu is not a multiple of 4\n", in, size);
      else if (!spirv_text_disassemble((const uint32_t *)(const void *)data, size / 4, &text, &len,
                                       err, sizeof(err)))
         fprintf(stderr, "vmel-as: %s: %s\n", in, err);
      else {
         status = write_file(out ? out : "-", text, len) ? 0 : 1;
         free(text);
      }
   } else {
      uint32_t *words;
      size_t count;
      if (!spirv_text_assemble(data, size, &words, &count, err, sizeof(err))) {
         if (strncmp(err, "line ", 5) == 0)
            fprintf(stderr, "%s:%s\n", in, err + 5);
         else
            fprintf(stderr, "%s: %s\n", in, err);
      } else {
         if (!out && strcmp(in, "-") == 0)
            out = "-";
         char *path = out ? NULL : default_output(in);
         if (out || path)
            status = write_file(out ? out : path, words, count * 4) ? 0 : 1;
         else
            fprintf(stderr, "vmel-as: out of memory\n");
         free(path);
         free(words);
      }
   }
   free(data);
   return status;
}
