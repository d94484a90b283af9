/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Hand-made malformed .tosa files, from a valid one made by flatc (tests/tosa/ops/add.json):
 *   test_tosa_malformed ADD.tosa
 * Each must be refused with a message naming what is wrong, without reading outside the
 * buffer (run under ASan in the sanitizer builds): every truncation; the root offset, a
 * vtable offset, a field offset, a vector length and a string length made huge; a table whose
 * vtable is itself (soffset 0: the "vtable loop" of a reader that follows offsets blindly);
 * a wrong file identifier; a size over the 1 GiB limit. Then every single-byte change of the
 * file is either refused with a message or gives a module the assembler accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "test.h"
#include "tosa_fb.h"
#include "tosa_import.h"

TEST_MAIN_STATE;

static uint8_t *base;
static size_t base_size;

static void
put_u32(uint8_t *p, uint32_t v)
{
   p[0] = (uint8_t)v;
   p[1] = (uint8_t)(v >> 8);
   p[2] = (uint8_t)(v >> 16);
   p[3] = (uint8_t)(v >> 24);
}

/* The file with 4 bytes at `pos` replaced by v must be refused with a message containing
 * `want`. */
static void
refused_u32(const char *what, uint64_t pos, uint32_t v, const char *want)
{
   uint8_t *copy = malloc(base_size);
   memcpy(copy, base, base_size);
   put_u32(copy + pos, v);
   char err[512] = "", *text = NULL;
   bool accepted = tosa_import_text(copy, base_size, &text, NULL, err, sizeof(err));
   ok(!accepted, "%s: accepted", what);
   ok(strstr(err, want) != NULL, "%s: message \"%s\" lacks \"%s\"", what, err, want);
   printf("%-28s %s\n", what, err);
   free(text);
   free(copy);
}

int
main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: %s ADD.tosa\n", argv[0]);
      return 2;
   }
   char *data, err[512];
   if (!ok(npy_slurp(argv[1], &data, &base_size, err, sizeof(err)), "%s", err))
      return test_done();
   base = (uint8_t *)data;
   char *text = NULL;
   ok(tosa_import_text(base, base_size, &text, NULL, err, sizeof(err)), "the valid file: %s",
      err);
   free(text);

   /* Positions of the structures to corrupt, found with the reader itself. */
   struct tosa_fb fb;
   struct tosa_fb_table root, region, block, tensor;
   struct tosa_fb_vec regions, blocks, tensors;
   tosa_fb_init(&fb, base, base_size);
   bool found = tosa_fb_root(&fb, "TOSA", &root) &&
                tosa_fb_vec_field(&fb, &root, 1, "regions", 4, 8, &regions) &&
                tosa_fb_vec_table(&fb, &regions, 0, "region", &region) &&
                tosa_fb_vec_field(&fb, &region, 1, "blocks", 4, 8, &blocks) &&
                tosa_fb_vec_table(&fb, &blocks, 0, "block", &block) &&
                tosa_fb_vec_field(&fb, &block, 2, "tensors", 4, 64, &tensors) &&
                tosa_fb_vec_table(&fb, &tensors, 0, "tensor", &tensor);
   if (!ok(found, "the valid file cannot be walked: %s", fb.err))
      return test_done();
   uint64_t name_at = tosa_fb_field(&fb, &tensor, 0, 4, "name");
   uint64_t name_pos = name_at + tosa_fb_load_u32(&fb, name_at);

   refused_u32("root offset", 0, 0xfffffff0u, "root table: table offset points past the end");
   refused_u32("file identifier", 4, 0x41534f55u, "file identifier: not \"TOSA\"");
   refused_u32("vtable offset", root.pos, 0x7ffffff0u, "vtable offset");
   refused_u32("vtable loop", block.pos, 0, "TosaRegion.blocks: bad vtable size");
   refused_u32("regions vector offset", root.pos + tosa_fb_load_u16(&fb, root.vtable + 6),
               0x00fffff0u, "TosaGraph.regions: vector offset points past the end");
   refused_u32("tensor count", tensors.pos - 4, 0xffffffffu,
               "TosaBasicBlock.tensors: 4294967295 elements, more than the limit");
   refused_u32("tensor count in range", tensors.pos - 4, 60000,
               "TosaBasicBlock.tensors: 60000 elements of 4 bytes run past the end");
   refused_u32("string length", name_pos, 0x7fffffffu, "TosaTensor.name: 2147483647 elements");
   refused_u32("string terminator", name_pos, 0, "TosaTensor.name: string of 0 bytes has no "
                                                 "terminating NUL");
   /* A vtable entry beyond its table: the first field of the first tensor. */
   {
      uint8_t *copy = malloc(base_size);
      memcpy(copy, base, base_size);
      copy[tensor.vtable + 4] = 0xf0;
      copy[tensor.vtable + 5] = 0x7f;
      bool accepted = tosa_import_text(copy, base_size, &text, NULL, err, sizeof(err));
      ok(!accepted && strstr(err, "TosaTensor.name: field offset 32752 outside its table"),
         "field offset: %s", err);
      free(copy);
   }
   /* Over the size limit: refused before a byte is read. */
   bool accepted = tosa_import_text(base, (size_t)TOSA_FB_MAX_SIZE + 1, &text, NULL, err,
                                    sizeof(err));
   ok(!accepted && strstr(err, "more than the limit"), "1 GiB + 1: %s", err);

   /* Every truncation. */
   unsigned refused = 0;
   for (size_t len = 0; len < base_size; len++) {
      err[0] = 0;
      text = NULL;
      if (tosa_import_text(base, len, &text, NULL, err, sizeof(err))) {
         ok(false, "truncated to %zu bytes: accepted", len);
         free(text);
      } else {
         refused += ok(err[0], "truncated to %zu bytes: no message", len);
      }
   }
   printf("%u truncations refused with a message\n", refused);

   /* Every single-byte change: refused with a message, or a module that assembles. */
   unsigned runs = 0, rejected = 0;
   uint8_t *copy = malloc(base_size);
   for (size_t pos = 0; pos < base_size; pos++) {
      static const uint8_t values[] = {0x00, 0x01, 0x07, 0x7f, 0x80, 0xfe, 0xff};
      for (size_t k = 0; k < sizeof(values); k++) {
         if (base[pos] == values[k])
            continue;
         memcpy(copy, base, base_size);
         copy[pos] = values[k];
         uint32_t *words = NULL;
         size_t count = 0;
         err[0] = 0;
         runs++;
         if (tosa_import_words(copy, base_size, &words, &count, err, sizeof(err))) {
            free(words);
            continue;
         }
         rejected++;
         if (!err[0] || !strncmp(err, "internal:", 9))
            ok(false, "byte %zu = 0x%02x: %s", pos, values[k], err[0] ? err : "no message");
      }
   }
   free(copy);
   printf("%u single-byte changes, %u refused with a message, the rest assemble\n", runs,
          rejected);
   free(data);
   return test_done();
}
