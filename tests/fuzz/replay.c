/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The main of a fuzz target outside libFuzzer (the ordinary build, gcc; D41):
 *   fuzz_<target> [--mutate N] PATH...
 * runs every file named, and every file of every directory named (in name order),
 * through LLVMFuzzerTestOneInput(). CTest replays the committed corpora this way
 * (unit.fuzz_*), so a crash, a sanitizer report (the ASan stage of the test command)
 * or a broken invariant found once stays fixed. It fails when no file was run.
 *
 * --mutate N also runs N mutants of each file, made by the target's
 * LLVMFuzzerCustomMutator (when it has one; else by the byte mutator below) with
 * fixed seeds: a bounded, deterministic taste of fuzzing that keeps the structure-
 * aware mutator itself tested.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>

#pragma weak LLVMFuzzerCustomMutator

static uint32_t mutate_state = 1;

static uint32_t
next_random(void)
{
   mutate_state ^= mutate_state << 13;
   mutate_state ^= mutate_state >> 17;
   mutate_state ^= mutate_state << 5;
   return mutate_state;
}

/* libFuzzer's LLVMFuzzerMutate stands in for the byte mutations a custom mutator falls back
 * to; here: a bit flip, a byte set, a byte dropped or one inserted. */
size_t
LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
   uint32_t r = next_random();
   size_t at = size ? next_random() % size : 0;
   switch (r % 4) {
   case 0:
      if (size)
         data[at] ^= (uint8_t)(1u << (r >> 8) % 8);
      return size;
   case 1:
      if (size)
         data[at] = (uint8_t)(r >> 8);
      return size;
   case 2:
      if (size) {
         memmove(data + at, data + at + 1, size - at - 1);
         return size - 1;
      }
      return size;
   default:
      if (size < max_size) {
         memmove(data + at + 1, data + at, size - at);
         data[at] = (uint8_t)(r >> 16);
         return size + 1;
      }
      return size;
   }
}

static bool
read_file(const char *path, uint8_t **data, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "%s: %s\n", path, strerror(errno));
      return false;
   }
   size_t cap = 4096, n = 0;
   uint8_t *buf = malloc(cap);
   for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
      n += got;
      if (n == cap) {
         uint8_t *grown = realloc(buf, cap *= 2);
         if (!grown)
            free(buf);
         buf = grown;
      }
   }
   fclose(f);
   if (!buf) {
      fprintf(stderr, "%s: out of memory\n", path);
      return false;
   }
   *data = buf;
   *size = n;
   return true;
}

static unsigned runs, files;

static bool
run_file(const char *path, unsigned mutants)
{
   uint8_t *data;
   size_t size;
   if (!read_file(path, &data, &size))
      return false;
   LLVMFuzzerTestOneInput(data, size);
   runs++;
   files++;
   if (mutants) {
      size_t max = size * 2 + 256;
      uint8_t *m = malloc(max);
      if (!m) {
         free(data);
         return false;
      }
      for (unsigned i = 0; i < mutants; i++) {
         memcpy(m, data, size);
         size_t n = size;
         /* Stacked mutations, as libFuzzer does (1 to 4 of them). */
         for (unsigned k = 0; k <= i % 4; k++) {
            unsigned seed = (files * 7919u + i) * 2654435761u + k;
            mutate_state = seed | 1;
            n = LLVMFuzzerCustomMutator ? LLVMFuzzerCustomMutator(m, n, max, seed)
                                        : LLVMFuzzerMutate(m, n, max);
         }
         /* A private copy of exactly n bytes, so ASan sees a read past the input. */
         uint8_t *exact = malloc(n ? n : 1);
         memcpy(exact, m, n);
         LLVMFuzzerTestOneInput(exact, n);
         free(exact);
         runs++;
      }
      free(m);
   }
   free(data);
   return true;
}

static int
compare_names(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
run_path(const char *path, unsigned mutants)
{
   DIR *d = opendir(path);
   if (!d)
      return run_file(path, mutants);
   char **names = NULL;
   size_t count = 0, cap = 0;
   bool ok = true;
   for (struct dirent *e; (e = readdir(d));) {
      if (e->d_name[0] == '.')
         continue;
      if (count == cap) {
         char **grown = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));
         if (!grown) {
            ok = false;
            break;
         }
         names = grown;
      }
      size_t len = strlen(path) + strlen(e->d_name) + 2;
      if (!(names[count] = malloc(len))) {
         ok = false;
         break;
      }
      snprintf(names[count++], len, "%s/%s", path, e->d_name);
   }
   closedir(d);
   if (count)
      qsort(names, count, sizeof(*names), compare_names);
   for (size_t i = 0; i < count; i++) {
      ok = ok && run_file(names[i], mutants);
      free(names[i]);
   }
   free(names);
   return ok;
}

int
main(int argc, char **argv)
{
   unsigned mutants = 0;
   int first = 1;
   if (argc > 2 && strcmp(argv[1], "--mutate") == 0) {
      mutants = (unsigned)strtoul(argv[2], NULL, 10);
      first = 3;
   }
   /* The libraries log every refusal; only errors are wanted here. */
   setenv("VMEL_COMMON_SEVERITY", "error", 0);
   setenv("VMEL_TENSOR_SEVERITY", "error", 0);
   setenv("VMEL_GRAPH_SEVERITY", "error", 0);
   bool ok = true;
   for (int i = first; i < argc; i++)
      ok = run_path(argv[i], mutants) && ok;
   printf("%u files, %u inputs run\n", files, runs);
   if (!files) {
      fprintf(stderr, "no input files\n");
      return 1;
   }
   return ok ? 0 : 1;
}
