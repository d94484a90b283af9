/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-tosa: a TOSA 1.0 flatbuffer (.tosa) converted to a SPIR-V graph module (tosa_import.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "tosa_import.h"

static const char usage_text[] =
   "usage: vmel-tosa MODEL.tosa [-o OUT.spvasm|OUT.spv]\n"
   "\n"
   "Converts a TOSA 1.0 flatbuffer file (the TOSA serialization format, one region of one\n"
   "basic block) into a SPIR-V graph module (SPV_ARM_graph, TOSA.001000.1) that vmel-run\n"
   "and the ML emulation layers run. The file is read with bounds checks on every offset,\n"
   "length and vtable entry and validated before it is converted; a file that is malformed,\n"
   "or uses what a SPIR-V graph cannot express (control flow, variables, custom operators,\n"
   "dynamic or unranked shapes, rank-0 tensors, int4), is refused with a message naming the\n"
   "field or operator and why, and the exit status is 1.\n"
   "\n"
   "Binding rule: the block's inputs are tensors at descriptor set 0, bindings 0..N-1 in\n"
   "their declared order; its outputs follow at bindings N..N+M-1. CONST and CONST_SHAPE\n"
   "tensors become constants of the module.\n"
   "\n"
   "  -o FILE      write the module to FILE: SPIR-V binary when FILE ends in .spv, SPIR-V\n"
   "               text (the vmel-as syntax) otherwise; default: text on standard output\n"
   "  -h, --help   this text\n"
   "\n"
   "Exit status: 0 on success, 1 when the file is refused or cannot be read or written, 2\n"
   "for a usage error.\n"
   "\n"
   "vmel-run runs a .tosa file directly: vmel-run MODEL.tosa --input 0=x.npy --output 0=y.npy\n"
   "(docs/tosa-import.md).\n";

static bool
ends_with(const char *s, const char *suffix)
{
   size_t a = strlen(s), b = strlen(suffix);
   return a >= b && !strcmp(s + a - b, suffix);
}

static bool
write_all(const char *path, const void *data, size_t len)
{
   FILE *f = path ? fopen(path, "wb") : stdout;
   if (!f) {
      fprintf(stderr, "vmel-tosa: %s: %s\n", path, strerror(errno));
      return false;
   }
   bool ok = fwrite(data, 1, len, f) == len;
   ok = (path ? fclose(f) : fflush(f)) == 0 && ok;
   if (!ok)
      fprintf(stderr, "vmel-tosa: %s: write failed\n", path ? path : "stdout");
   return ok;
}

int
main(int argc, char **argv)
{
   const char *in = NULL, *out = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
         fputs(usage_text, stdout);
         return 0;
      } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
         out = argv[++i];
      } else if (argv[i][0] != '-' && !in) {
         in = argv[i];
      } else {
         fprintf(stderr, "vmel-tosa: unexpected argument %s\n%s", argv[i], usage_text);
         return 2;
      }
   }
   if (!in) {
      fputs(usage_text, stderr);
      return 2;
   }
   char *data = NULL;
   size_t size = 0;
   char err[512] = "";
   if (!npy_slurp(in, &data, &size, err, sizeof(err))) {
      fprintf(stderr, "vmel-tosa: %s\n", err);
      return 1;
   }
   bool ok;
   if (out && ends_with(out, ".spv")) {
      uint32_t *words = NULL;
      size_t count = 0;
      ok = tosa_import_words(data, size, &words, &count, err, sizeof(err));
      ok = ok && write_all(out, words, count * 4);
      free(words);
   } else {
      char *text = NULL;
      size_t len = 0;
      ok = tosa_import_text(data, size, &text, &len, err, sizeof(err));
      ok = ok && write_all(out, text, len);
      free(text);
   }
   if (!ok && err[0])
      fprintf(stderr, "vmel-tosa: %s: %s\n", in, err);
   free(data);
   return ok ? 0 : 1;
}
