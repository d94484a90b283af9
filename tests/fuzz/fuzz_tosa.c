/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: the .tosa importer (tools/vmel-tosa), which reads files a user names on
 * vmel-run's and vmel-tosa's command lines. The input is the file's bytes. A refusal must say
 * why; a file the importer accepts must become SPIR-V text that the project's assembler
 * accepts (tosa_import_words), so the lowering never writes a module it cannot read back.
 */
#include "fuzz.h"

#include "tosa_import.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   char err[512] = "";
   uint32_t *words = NULL;
   size_t count = 0;
   if (!tosa_import_words(data, size, &words, &count, err, sizeof(err))) {
      if (!err[0])
         fuzz_fail("a file refused without a message");
      if (!strncmp(err, "internal:", 9))
         fuzz_fail("%s", err);
      return 0;
   }
   if (count < 5 || words[0] != 0x07230203u)
      fuzz_fail("an accepted file gives %zu words", count);
   free(words);
   return 0;
}
