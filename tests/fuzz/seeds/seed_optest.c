/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Seeds for fuzz_graph from the operator tests: every test of every .optest file named
 * on the command line, its module written as vmel-optest writes it (docs/optests.md),
 * assembled and dumped to $VMEL_FUZZ_SEEDS/graph/.
 */
#include "optest.h"
#include "seeds.h"
#include "spirv_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
   unsigned modules = 0;
   for (int i = 1; i < argc; i++) {
      struct opt_file file;
      char err[512];
      if (!opt_parse_file(argv[i], &file, err, sizeof(err))) {
         fprintf(stderr, "%s\n", err);
         continue;
      }
      for (size_t t = 0; t < file.count; t++) {
         size_t lines;
         char *text = opt_module_text(&file, &file.tests[t], NULL, &lines, err, sizeof(err));
         uint32_t *words = NULL;
         size_t count = 0;
         if (text && spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err))) {
            seed_dump("graph", words, count * 4);
            modules++;
         }
         free(words);
         free(text);
      }
      opt_file_finish(&file);
   }
   printf("%u optest modules\n", modules);
   return 0;
}
