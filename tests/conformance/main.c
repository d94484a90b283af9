/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-conformance: the conformance runner's command line (design.md §9). Generates every
 * case, keeps those --op / --filter name, takes a bounded subset with --max-cases (every
 * operator × type-support row and every operator's invalid graphs first, round-robin, so the
 * subset stays representative), then lists or runs them. Prints each failure with its details,
 * writes one line per case to --results, and ends with "N passed, N failed, N skipped".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "run.h"
#include "test.h"

TEST_MAIN_STATE;

struct options {
   const char *ops;     /* comma-separated operator names, or NULL */
   const char *filter;  /* substring of case names, or NULL */
   const char *results; /* results file, or NULL */
   size_t max_cases;    /* 0: all */
   uint64_t seed;
   bool list, modules, verbose, check_rows;
};

static void
usage(FILE *f)
{
   fprintf(f, "usage: vmel-conformance [--op NAME[,NAME...]] [--filter TEXT] [--max-cases N]\n"
              "                        [--seed S] [--results FILE] [--list] [--module]\n"
              "                        [--verbose] [--check-rows]\n"
              "Runs single-operator TOSA graphs through the graph and tensor layers (with\n"
              "VK_LAYER_KHRONOS_validation below them) and checks them against the CPU\n"
              "reference. --op takes add, sub, mul, clamp, reshape, concat, max_pool2d, conv2d,\n"
              "matmul, rescale (any case). --max-cases keeps a subset that covers every\n"
              "operator and type row first. --results writes \"name status detail\" per case.\n"
              "--list prints the selected cases' names, --module their modules (SPIR-V text\n"
              "for vmel-as), without running them; --verbose prints every case's verdict and\n"
              "the module of each failing case. --check-rows checks the cases' type rows\n"
              "against the operator declarations (every declared row has a valid case,\n"
              "every valid case a declared row) and runs nothing.\n");
}

static bool
parse_u64(const char *s, uint64_t *out)
{
   char *end;
   errno = 0;
   unsigned long long v = strtoull(s, &end, 0);
   if (errno || end == s || *end)
      return false;
   *out = v;
   return true;
}

static int
parse_options(int argc, char **argv, struct options *o)
{
   *o = (struct options){.seed = 1};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      bool has_value = i + 1 < argc;
      uint64_t v;
      if (!strcmp(a, "--op") && has_value) {
         o->ops = argv[++i];
      } else if (!strcmp(a, "--filter") && has_value) {
         o->filter = argv[++i];
      } else if (!strcmp(a, "--results") && has_value) {
         o->results = argv[++i];
      } else if (!strcmp(a, "--max-cases") && has_value && parse_u64(argv[i + 1], &v)) {
         o->max_cases = (size_t)v;
         i++;
      } else if (!strcmp(a, "--seed") && has_value && parse_u64(argv[i + 1], &v)) {
         o->seed = v;
         i++;
      } else if (!strcmp(a, "--list")) {
         o->list = true;
      } else if (!strcmp(a, "--check-rows")) {
         o->check_rows = true;
      } else if (!strcmp(a, "--module")) {
         o->modules = true;
      } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
         o->verbose = true;
      } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
         usage(stdout);
         exit(0);
      } else {
         fprintf(stderr, "vmel-conformance: bad argument \"%s\"\n", a);
         usage(stderr);
         return 2;
      }
   }
   return 0;
}

/* Whether the comma-separated list names the case's operator. */
static bool
op_selected(const char *ops, enum tosa_ref_op op)
{
   if (!ops)
      return true;
   const char *name = gt_op_short_name(op);
   size_t len = strlen(name);
   for (const char *p = ops; *p;) {
      size_t n = strcspn(p, ",");
      if (n == len && !strncasecmp(p, name, n))
         return true;
      p += n + (p[n] == ',');
   }
   return false;
}

static bool
ops_valid(const char *ops)
{
   for (const char *p = ops; p && *p;) {
      size_t n = strcspn(p, ",");
      bool found = false;
      for (int op = 0; op < TOSA_REF_OP_COUNT && !found; op++) {
         const char *name = gt_op_short_name((enum tosa_ref_op)op);
         found = name && strlen(name) == n && !strncasecmp(p, name, n);
      }
      if (!found) {
         fprintf(stderr, "vmel-conformance: no operator \"%.*s\"\n", (int)n, p);
         return false;
      }
      p += n + (p[n] == ',');
   }
   return true;
}

/* The van der Corput sequence: k's bits reversed, as a fraction in [0, 1). */
static double
spread(uint32_t k)
{
   double f = 0, unit = 0.5;
   for (; k; k >>= 1, unit /= 2)
      f += (k & 1) * unit;
   return f;
}

/*
 * Ranks the m cases of one group (indices idx) in the order a subset takes them: spread over the
 * group (first, middle, quarters, ...), so that a few cases of a group already mix its shapes,
 * attributes and split dispatches.
 */
static void
rank_group(const size_t *idx, size_t m, size_t *rank, bool *used)
{
   size_t next = 0;
   memset(used, 0, m * sizeof(*used));
   for (uint32_t k = 0; next < m; k++) {
      size_t p = (size_t)(spread(k) * (double)m);
      if (p < m && !used[p]) {
         used[p] = true;
         rank[idx[p]] = next++;
      }
   }
}

/*
 * The cases to run, in generation order: all of them, or a subset of max cases taken
 * round-robin over the groups ("<op>.<row>", "<op>.invalid", "<op>.require"): one case of
 * every group, then a second one, and so on (rank_group() says which); heavy cases only once
 * nothing else is left.
 */
static size_t
select_cases(const struct conf_list *all, const struct options *o, const struct conf_case **out)
{
   size_t count = all->count ? all->count : 1;
   bool *keep = calloc(count, sizeof(*keep)), *done = calloc(count, sizeof(*done));
   bool *used = calloc(count, sizeof(*used));
   size_t *rank = calloc(count, sizeof(*rank)), *idx = calloc(count, sizeof(*idx));
   size_t n = SIZE_MAX;
   if (!keep || !done || !used || !rank || !idx)
      goto out;
   size_t candidates = 0, max_rank = 0;
   for (size_t i = 0; i < all->count; i++) {
      const struct conf_case *c = &all->v[i];
      keep[i] = op_selected(o->ops, c->op.op) && (!o->filter || strstr(c->name, o->filter));
      candidates += keep[i];
      rank[i] = SIZE_MAX / 2; /* heavy cases: last */
   }
   /* Each group's non-heavy cases, ranked. */
   for (size_t i = 0; i < all->count; i++) {
      if (!keep[i] || done[i])
         continue;
      size_t m = 0;
      for (size_t j = i; j < all->count; j++) {
         if (keep[j] && !done[j] && !strcmp(all->v[j].group, all->v[i].group)) {
            done[j] = true;
            if (!all->v[j].heavy)
               idx[m++] = j;
         }
      }
      rank_group(idx, m, rank, used);
      max_rank = m > max_rank ? m : max_rank;
   }
   size_t limit = o->max_cases && o->max_cases < candidates ? o->max_cases : candidates;
   bool *take = done;
   memset(take, 0, count * sizeof(*take));
   size_t taken = 0;
   for (size_t round = 0; round <= max_rank && taken < limit; round++) {
      size_t want = round < max_rank ? round : SIZE_MAX / 2;
      for (size_t i = 0; i < all->count && taken < limit; i++) {
         if (keep[i] && !take[i] && rank[i] == want) {
            take[i] = true;
            taken++;
         }
      }
   }
   n = 0;
   for (size_t i = 0; i < all->count; i++) {
      if (take[i])
         out[n++] = &all->v[i];
   }
out:
   free(keep);
   free(done);
   free(used);
   free(rank);
   free(idx);
   return n;
}

/* --list and --module. */
static int
print_cases(const struct conf_case *const *cases, size_t n, bool modules)
{
   for (size_t i = 0; i < n; i++) {
      if (!modules) {
         printf("%s\n", cases[i]->name);
         continue;
      }
      struct gt_op op;
      char *text, err[256];
      conf_case_op(cases[i], &op);
      if (!gt_write(&op, &text, err, sizeof(err))) {
         fprintf(stderr, "vmel-conformance: %s: %s\n", cases[i]->name, err);
         return 1;
      }
      printf("; case %s\n%s\n", cases[i]->name, text);
      free(text);
   }
   return 0;
}

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
run_cases(const struct conf_case *const *cases, size_t n, const struct options *o)
{
   FILE *results = NULL;
   if (o->results && !(results = fopen(o->results, "w"))) {
      fprintf(stderr, "vmel-conformance: cannot write %s: %s\n", o->results, strerror(errno));
      return 2;
   }
   struct conf_runner runner;
   if (!conf_runner_init(&runner, o->seed, o->verbose)) {
      conf_runner_finish(&runner);
      if (results)
         fclose(results);
      printf("0 passed, 0 failed, %zu skipped\n", n);
      return TEST_SKIP_CODE;
   }
   size_t counts[3] = {0, 0, 0};
   double t0 = now_s();
   for (size_t i = 0; i < n; i++) {
      struct conf_result res;
      conf_run_case(&runner, cases[i], &res);
      counts[res.status]++;
      if (res.status == CONF_FAIL) {
         printf("FAIL %s: %s\n", cases[i]->name, res.detail);
         if (res.report)
            fputs(res.report, stdout);
      } else if (o->verbose) {
         printf("%s %s (%.1f ms): %s\n", conf_status_name(res.status), cases[i]->name, res.ms,
                res.detail);
      }
      fflush(stdout);
      if (results) {
         fprintf(results, "%s %s %s\n", cases[i]->name, conf_status_name(res.status), res.detail);
         fflush(results);
      }
      free(res.report);
   }
   double seconds = now_s() - t0;
   conf_runner_finish(&runner);
   if (results)
      fclose(results);
   printf("vmel-conformance: %zu cases in %.1f s (seed %llu)\n", n, seconds,
          (unsigned long long)o->seed);
   printf("%zu passed, %zu failed, %zu skipped\n", counts[CONF_PASS], counts[CONF_FAIL],
          counts[CONF_SKIP]);
   return counts[CONF_FAIL] ? 1 : 0;
}

int
main(int argc, char **argv)
{
   struct options o;
   int rc = parse_options(argc, argv, &o);
   if (rc)
      return rc;
   if (!ops_valid(o.ops))
      return 2;
   struct conf_list all = {0};
   conf_generate_elementwise(&all);
   conf_generate_data(&all);
   conf_generate_tensor(&all);
   conf_generate_rescale(&all);
   if (all.out_of_memory) {
      fprintf(stderr, "vmel-conformance: out of memory generating the cases\n");
      free(all.v);
      return 2;
   }
   /* Split cases form one group per operator, so that a subset dispatches a 2D grid for every
    * operator. */
   for (size_t i = 0; i < all.count; i++) {
      if (all.v[i].split)
         snprintf(all.v[i].group, sizeof(all.v[i].group), "%s.split",
                  gt_op_short_name(all.v[i].op.op));
   }
   for (size_t i = 0; i < all.count; i++) {
      for (size_t j = 0; j < i; j++) {
         if (!strcmp(all.v[i].name, all.v[j].name)) {
            fprintf(stderr, "vmel-conformance: two cases are named %s\n", all.v[i].name);
            free(all.v);
            return 2;
         }
      }
   }
   if (o.check_rows) {
      rc = conf_check_rows(&all);
      free(all.v);
      return rc;
   }
   const struct conf_case **cases = calloc(all.count ? all.count : 1, sizeof(*cases));
   size_t n = cases ? select_cases(&all, &o, cases) : SIZE_MAX;
   if (n == SIZE_MAX) {
      fprintf(stderr, "vmel-conformance: out of memory\n");
      free(cases);
      free(all.v);
      return 2;
   }
   if (o.list || o.modules) {
      rc = print_cases(cases, n, o.modules);
   } else {
      rc = run_cases(cases, n, &o);
   }
   free(cases);
   free(all.v);
   return rc;
}
