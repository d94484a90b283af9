/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What every fuzz target of tests/fuzz shares (docs/decisions.md D41). Each target
 * is one file defining LLVMFuzzerTestOneInput(); it is linked either with libFuzzer
 * (VMEL_FUZZ=ON, clang, -fsanitize=fuzzer,address,undefined: tools/fuzz.sh) or with
 * replay.c, a main that runs the committed corpus through it (CTest, unit.fuzz_*).
 * A target keeps no state between inputs and frees everything it allocates, so a
 * leak shows up in LeakSanitizer. An invariant it checks fails with fuzz_fail(),
 * which aborts: libFuzzer and replay.c both report an abort as a finding.
 */
#ifndef VMEL_FUZZ_H
#define VMEL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
/* libFuzzer's own mutator; replay.c has a simple one for its --mutate mode. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/** Reports a broken invariant and aborts (a finding). */
#define fuzz_fail(...)                                                                             \
   do {                                                                                            \
      fprintf(stderr, "%s:%d: invariant broken: ", __FILE__, __LINE__);                          \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
      abort();                                                                                     \
   } while (0)

/** The input as SPIR-V words: a malloc()ed, aligned copy of the first size / 4 * 4 bytes
 *  (the fuzzer's buffer is not aligned). NULL for an empty input or out of memory. */
static inline uint32_t *
fuzz_words(const uint8_t *data, size_t size, size_t *count)
{
   *count = size / 4;
   if (!*count)
      return NULL;
   uint32_t *w = malloc(*count * 4);
   if (w)
      memcpy(w, data, *count * 4);
   return w;
}

#endif /* VMEL_FUZZ_H */
