/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-optest FILE...: runs every test of each .optest file (docs/optests.md) through the graph
 * and tensor layers on the Vulkan device, VK_LAYER_KHRONOS_validation below them, and prints one
 * line per test and the summary "N passed, N failed, N skipped". Exit status: 0 when nothing
 * failed and something ran, 1 on a failure or a file that does not parse, 77 (CTest's skip) when
 * every test was skipped or there is no device.
 *
 * Options: --filter TEXT runs the tests whose name contains TEXT; --verbose prints the module
 * of a failing test with the file's line numbers, and for a float output checked within ulps or
 * an error bound the largest error seen (a fraction of the bound, and ulps); --parse-only checks
 * the files without Vulkan;
 * --expect-failures N [--expect-skips M] is the runner's self-check: the exit status is 0 when
 * exactly N tests failed (and M were skipped) (tests/optest/selftest/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"
#include "optest_run.h"
#include "test.h"

TEST_MAIN_STATE;

static int
usage(void)
{
   fprintf(stderr, "usage: vmel-optest [--verbose] [--filter TEXT] [--parse-only] "
                   "[--expect-failures N [--expect-skips M]] FILE...\n");
   return 2;
}

int
main(int argc, char **argv)
{
   bool verbose = false, parse_only = false;
   const char *filter = NULL;
   long expect_failures = -1, expect_skips = -1;
   int first = 1;
   for (; first < argc && strncmp(argv[first], "--", 2) == 0; first++) {
      if (strcmp(argv[first], "--verbose") == 0)
         verbose = true;
      else if (strcmp(argv[first], "--parse-only") == 0)
         parse_only = true;
      else if (strcmp(argv[first], "--filter") == 0 && first + 1 < argc)
         filter = argv[++first];
      else if (strcmp(argv[first], "--expect-failures") == 0 && first + 1 < argc)
         expect_failures = strtol(argv[++first], NULL, 10);
      else if (strcmp(argv[first], "--expect-skips") == 0 && first + 1 < argc)
         expect_skips = strtol(argv[++first], NULL, 10);
      else
         return usage();
   }
   if (first == argc)
      return usage();

   /* Every file parses before anything runs: a typo fails fast, with its line. */
   int nfiles = argc - first;
   struct opt_file *files = calloc((size_t)nfiles, sizeof(*files));
   if (!files) {
      fprintf(stderr, "vmel-optest: out of memory\n");
      return 1;
   }
   bool parsed = true;
   size_t total = 0;
   for (int i = 0; i < nfiles; i++) {
      char err[768];
      if (!opt_parse_file(argv[first + i], &files[i], err, sizeof(err))) {
         fprintf(stderr, "%s\n", err);
         parsed = false;
      }
      total += files[i].count;
   }
   if (!parsed || parse_only) {
      if (parsed)
         printf("%zu tests in %d files parse\n", total, nfiles);
      for (int i = 0; i < nfiles; i++)
         opt_file_finish(&files[i]);
      free(files);
      return parsed ? 0 : 1;
   }

   struct opt_runner r;
   int status = 1;
   if (opt_runner_init(&r, verbose)) {
      for (int i = 0; i < nfiles; i++) {
         for (size_t k = 0; k < files[i].count; k++) {
            if (!filter || strstr(files[i].tests[k].name, filter))
               opt_run_test(&r, &files[i], &files[i].tests[k]);
         }
      }
      printf("%u passed, %u failed, %u skipped\n", r.passed, r.failed, r.skipped);
      if (expect_failures >= 0) {
         bool as_expected = r.failed == (unsigned long)expect_failures &&
                            (expect_skips < 0 || r.skipped == (unsigned long)expect_skips);
         printf("self-check: %u failures (%ld expected), %u skipped (%ld expected): %s\n", r.failed,
                expect_failures, r.skipped, expect_skips,
                as_expected ? "the runner reports failures and skips" : "WRONG");
         status = as_expected ? 0 : 1;
      } else {
         status = r.failed ? 1 : r.passed == 0 ? TEST_SKIP_CODE : 0;
      }
      opt_runner_finish(&r);
   } else {
      printf("0 passed, 1 failed, 0 skipped\n");
   }
   for (int i = 0; i < nfiles; i++)
      opt_file_finish(&files[i]);
   free(files);
   return status;
}
