/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A small test harness shared by unit and end-to-end tests. Every check
 * prints a line on failure (file:line and the message) and is counted;
 * test_done() prints "N passed, N failed" and returns the exit status.
 * A test that cannot run here calls test_skip() (CTest SKIP_RETURN_CODE 77).
 */
#ifndef VMEL_TEST_H
#define VMEL_TEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_SKIP_CODE 77

/* The counts are atomic: threads of a test (e2e.test_concurrency) check at once. The
 * context is for single-threaded tests. */
struct test_state {
   _Atomic unsigned passed;
   _Atomic unsigned failed;
   const char *context;
};

extern struct test_state test_state;

/* Define the state once in each test executable. */
#define TEST_MAIN_STATE struct test_state test_state

/* Appends printf-formatted text to *text (malloc()ed, NUL-terminated; NULL starts it). Out of
 * memory, the text stays as it was: it is a message, not a result. */
static inline void __attribute__((format(printf, 2, 3)))
test_appendf(char **text, const char *fmt, ...)
{
   size_t old = *text ? strlen(*text) : 0;
   va_list ap;
   va_start(ap, fmt);
   int len = vsnprintf(NULL, 0, fmt, ap);
   va_end(ap);
   if (len < 0)
      return;
   char *p = realloc(*text, old + (size_t)len + 1);
   if (!p)
      return;
   va_start(ap, fmt);
   vsnprintf(p + old, (size_t)len + 1, fmt, ap);
   va_end(ap);
   *text = p;
}

static inline void
test_set_context(const char *context)
{
   test_state.context = context;
}

static inline bool
test_check_(bool cond, const char *file, int line, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

static inline bool
test_check_(bool cond, const char *file, int line, const char *fmt, ...)
{
   if (cond) {
      test_state.passed++;
      return true;
   }
   test_state.failed++;
   fprintf(stderr, "FAIL %s:%d: ", file, line);
   if (test_state.context)
      fprintf(stderr, "[%s] ", test_state.context);
   va_list ap;
   va_start(ap, fmt);
   vfprintf(stderr, fmt, ap);
   va_end(ap);
   fputc('\n', stderr);
   return false;
}

/** ok(cond, fmt, ...): counts a check; prints fmt when cond is false. */
#define ok(cond, ...) test_check_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline bool
test_check_u64_(uint64_t got, uint64_t want, const char *got_expr, const char *want_expr,
                const char *file, int line)
{
   return test_check_(got == want, file, line, "%s == %" PRIu64 ", expected %s == %" PRIu64,
                      got_expr, got, want_expr, want);
}

static inline bool
test_check_i64_(int64_t got, int64_t want, const char *got_expr, const char *want_expr,
                const char *file, int line)
{
   return test_check_(got == want, file, line, "%s == %" PRId64 ", expected %s == %" PRId64,
                      got_expr, got, want_expr, want);
}

static inline bool
test_check_str_(const char *got, const char *want, const char *got_expr, const char *file,
                int line)
{
   return test_check_(got && strcmp(got, want) == 0, file, line, "%s == \"%s\", expected \"%s\"",
                      got_expr, got ? got : "(null)", want);
}

/* Each argument is evaluated exactly once. */
#define check_eq_u64(got, want)                                                                    \
   test_check_u64_((uint64_t)(got), (uint64_t)(want), #got, #want, __FILE__, __LINE__)
#define check_eq_i64(got, want)                                                                    \
   test_check_i64_((int64_t)(got), (int64_t)(want), #got, #want, __FILE__, __LINE__)
#define check_str(got, want) test_check_str_((got), (want), #got, __FILE__, __LINE__)

static inline int
test_done(void)
{
   printf("%u passed, %u failed\n", test_state.passed, test_state.failed);
   if (test_state.failed == 0 && test_state.passed == 0) {
      fprintf(stderr, "no checks ran\n");
      return 1;
   }
   return test_state.failed ? 1 : 0;
}

static inline int
test_skip(const char *why)
{
   printf("SKIP: %s\n", why);
   return TEST_SKIP_CODE;
}

#endif /* VMEL_TEST_H */
