/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A structure-aware fuzz loop for the direct tensor lowering (issue 15).
 * Every accepted golden case of tests/unit/lower (no <case>.err) is mutated
 * at the instruction level: adjacent instructions swapped, an instruction
 * duplicated, dropped or moved, an id operand replaced by another id below
 * the bound (one to three mutations per variant, half of them aimed at the
 * merges, branches, phis and labels the block splitting relies on; a
 * fixed-seed generator, so a run is reproducible). Each variant is lowered and:
 *  - a refusal must come with a message;
 *  - an accepted variant's module must parse (no id defined twice, none out
 *    of range, no truncated instruction: the shared reader's checks) and,
 *    with --spirv-val, pass spirv-val unless every id spirv-val names is one
 *    of the input's: a fault the lowering passed through untouched from the
 *    mutated input is the driver's and the validation layer's to judge (the
 *    lowering is not a SPIR-V validator, D39), but a fault involving an id
 *    the lowering created is the lowering's own and fails the test.
 * Bounded by --seconds (wall clock) and --variants; the counts are printed.
 * A failing variant is written to DIR/fuzz_<n>.spv (with --out DIR).
 * Usage: test_lower_fuzz [--spirv-val PATH] [--seconds S] [--variants N] [--seed N]
 *                        [--show N] [--out DIR] CASE_DIR
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv_text.h"
#include "test.h"
#include "tsr_lower.h"

TEST_MAIN_STATE;

static const char *spirv_val;
static const char *out_dir;
static unsigned show; /* --show N: print the first N passed-through spirv-val messages */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static unsigned refused, accepted, val_passed, val_passed_through, lowering_faults;

static uint32_t
rng(uint32_t n)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 7;
   rng_state ^= rng_state << 17;
   return n ? (uint32_t)(rng_state % n) : 0;
}

static double
now_s(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct module {
   uint32_t *w;
   size_t n;
   size_t *starts; /* word offset of each instruction */
   size_t count;
   size_t first_function; /* index of the first OpFunction, or count */
};

static bool
index_module(struct module *m)
{
   m->count = 0;
   m->first_function = SIZE_MAX;
   free(m->starts);
   m->starts = malloc((m->n + 1) * sizeof(size_t));
   if (!m->starts)
      return false;
   for (size_t i = 5; i < m->n && m->w[i] >> 16; i += m->w[i] >> 16) {
      if ((m->w[i] & 0xffffu) == SpvOpFunction && m->first_function == SIZE_MAX)
         m->first_function = m->count;
      m->starts[m->count++] = i;
   }
   if (m->first_function == SIZE_MAX)
      m->first_function = m->count;
   return true;
}

static uint32_t
inst_len(const struct module *m, size_t i)
{
   return m->w[m->starts[i]] >> 16;
}

/* A copy of `src` with instruction order `order[0..k)` (indices into src). */
static uint32_t *
rebuild(const struct module *src, const size_t *order, size_t k, size_t *n)
{
   size_t total = 5;
   for (size_t i = 0; i < k; i++)
      total += inst_len(src, order[i]);
   uint32_t *w = malloc(total * sizeof(uint32_t));
   if (!w)
      return NULL;
   memcpy(w, src->w, 5 * sizeof(uint32_t));
   size_t at = 5;
   for (size_t i = 0; i < k; i++) {
      uint32_t len = inst_len(src, order[i]);
      memcpy(w + at, src->w + src->starts[order[i]], len * sizeof(uint32_t));
      at += len;
   }
   *n = total;
   return w;
}

/* One mutation of m, in place. Instruction-level edits mostly hit the function bodies. */
static bool
mutate(struct module *m)
{
   if (m->count < 2)
      return false;
   size_t lo = rng(4) == 0 ? 0 : m->first_function;
   if (lo >= m->count - 1)
      lo = 0;
   size_t i = lo + rng((uint32_t)(m->count - lo));
   /* Half the time, the structure the lowering splits: a merge, branch, phi or label. */
   for (uint32_t tries = rng(2) ? 64 : 0; tries; tries--) {
      uint32_t op = m->w[m->starts[i]] & 0xffffu;
      if (op == SpvOpLoopMerge || op == SpvOpSelectionMerge || op == SpvOpBranch ||
          op == SpvOpBranchConditional || op == SpvOpPhi || op == SpvOpLabel)
         break;
      i = lo + rng((uint32_t)(m->count - lo));
   }
   size_t *order = malloc((m->count + 1) * sizeof(size_t));
   if (!order)
      return false;
   size_t k = 0;
   uint32_t kind = rng(5);
   if (kind == 4) { /* an id operand replaced by another id below the bound */
      uint32_t len = inst_len(m, i);
      free(order);
      if (len < 2)
         return false;
      uint32_t *word = &m->w[m->starts[i] + 1 + rng(len - 1)];
      if (*word == 0 || *word >= m->w[3])
         return false;
      *word = 1 + rng(m->w[3] - 1);
      return true;
   }
   size_t j = lo + rng((uint32_t)(m->count - lo)); /* kind 3: where i moves to */
   for (size_t x = 0; x < m->count; x++) {
      if (kind == 0 && x == i && i + 1 < m->count) { /* swap i and i + 1 */
         order[k++] = i + 1;
         order[k++] = i;
         x++;
         continue;
      }
      if (kind == 2 && x == i) /* drop */
         continue;
      if (kind == 3 && x == i && j != i)
         continue;
      order[k++] = x;
      if (kind == 1 && x == i) /* duplicate */
         order[k++] = i;
      if (kind == 3 && x == j && j != i)
         order[k++] = i;
   }
   size_t n = 0;
   uint32_t *w = rebuild(m, order, k, &n);
   free(order);
   if (!w)
      return false;
   free(m->w);
   m->w = w;
   m->n = n;
   return index_module(m);
}

/* Runs spirv-val on words; its messages go to msg. */
static bool
run_spirv_val(const uint32_t *words, size_t count, char *msg, size_t msg_len)
{
   char path[] = "/tmp/test_lower_fuzz_XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0)
      return false;
   bool written = write(fd, words, count * 4) == (ssize_t)(count * 4);
   close(fd);
   int pipefd[2];
   if (!written || pipe(pipefd) != 0) {
      unlink(path);
      return false;
   }
   pid_t pid = fork();
   if (pid == 0) {
      dup2(pipefd[1], 1);
      dup2(pipefd[1], 2);
      close(pipefd[0]);
      execl(spirv_val, spirv_val, "--target-env", "vulkan1.3", path, (char *)NULL);
      _exit(127);
   }
   close(pipefd[1]);
   size_t got = 0;
   ssize_t r;
   while (got + 1 < msg_len && (r = read(pipefd[0], msg + got, msg_len - 1 - got)) > 0)
      got += (size_t)r;
   msg[got] = '\0';
   char drain[256];
   while (read(pipefd[0], drain, sizeof(drain)) > 0)
      ;
   close(pipefd[0]);
   int status = -1;
   if (pid > 0)
      waitpid(pid, &status, 0);
   unlink(path);
   return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether the first line of spirv-val's message (the error, not the disassembled instruction
 * after it, which may be the lowering's translation of a faulty input instruction) names an id
 * at or above bound ("Id 39 ", "'52[%52]'"). */
static bool
names_new_id(const char *msg, uint32_t bound)
{
   /* "ID 'N[%N]' defined in block 'M[%M]' does not dominate its use in block ...": the
    * input's definition not dominating its use is the input's fault (the lowering moves no
    * input instruction across blocks), even when the block is now a split part M. */
   const char *dom = strstr(msg, "' defined in block '");
   const char *nl = strchr(msg, '\n');
   if (dom && (!nl || dom < nl) && strstr(msg, "does not dominate")) {
      const char *id = dom;
      while (id > msg && id[-1] != '\'')
         id--;
      return strtoul(id, NULL, 10) >= bound;
   }
   for (const char *p = msg; *p && *p != '\n'; p++) {
      unsigned long id;
      char *end;
      if (!strncmp(p, "Id ", 3) && p[3] >= '0' && p[3] <= '9') {
         id = strtoul(p + 3, &end, 10);
         if (id >= bound)
            return true;
      } else if (*p == '\'' && p[1] >= '0' && p[1] <= '9') {
         id = strtoul(p + 1, &end, 10);
         if (*end == '[' && id >= bound)
            return true;
      }
   }
   return false;
}

static void
save(const uint32_t *words, size_t count, unsigned n)
{
   if (!out_dir)
      return;
   char path[4096];
   snprintf(path, sizeof(path), "%s/fuzz_%u.spv", out_dir, n);
   FILE *f = fopen(path, "wb");
   if (f) {
      fwrite(words, 4, count, f);
      fclose(f);
      fprintf(stderr, "  input written to %s\n", path);
   }
}

static void
check_variant(const char *name, const uint32_t *words, size_t count)
{
   uint32_t *out = NULL;
   size_t out_count = 0;
   char err[512];
   memset(err, 0, sizeof(err));
   VkResult result = tsr_lower_tensors(words, count, NULL, &out, &out_count, err, sizeof(err));
   if (result != VK_SUCCESS) {
      refused++;
      ok(err[0] != '\0', "%s: refused (%d) without a message", name, result);
      return;
   }
   accepted++;
   struct spirv_reader r;
   struct spirv_diag diag = {0};
   bool parses = spirv_reader_init(&r, out, out_count, NULL, &diag) == VK_SUCCESS;
   spirv_reader_finish(&r);
   if (!ok(parses, "%s: the lowered module does not parse: %s", name, diag.message))
      save(words, count, accepted);
   if (parses && spirv_val) {
      char msg[2048];
      if (run_spirv_val(out, out_count, msg, sizeof(msg))) {
         val_passed++;
      } else if (names_new_id(msg, words[3])) {
         lowering_faults++;
         ok(false, "%s: spirv-val rejects an id the lowering created:\n%s", name, msg);
         save(words, count, accepted);
      } else if (val_passed_through++ < show) {
         printf("%s: passed through: %s", name, msg);
      }
   }
   tsr_lower_free(NULL, out);
}

static bool
load_case(const char *dir, const char *name, struct module *m)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s.err", dir, name);
   if (access(path, F_OK) == 0)
      return false; /* a rejection case */
   snprintf(path, sizeof(path), "%s/%s.in.spvasm", dir, name);
   FILE *f = fopen(path, "rb");
   if (!f)
      return false;
   static char text[1 << 16];
   size_t len = fread(text, 1, sizeof(text) - 1, f);
   fclose(f);
   char err[256];
   *m = (struct module){0};
   if (!ok(spirv_text_assemble(text, len, &m->w, &m->n, err, sizeof(err)), "%s: %s", path, err))
      return false;
   return index_module(m);
}

int
main(int argc, char **argv)
{
   double seconds = 3;
   unsigned max_variants = 20000;
   int i = 1;
   for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
      if (!strcmp(argv[i], "--spirv-val"))
         spirv_val = argv[i + 1];
      else if (!strcmp(argv[i], "--seconds"))
         seconds = strtod(argv[i + 1], NULL);
      else if (!strcmp(argv[i], "--variants"))
         max_variants = (unsigned)strtoul(argv[i + 1], NULL, 10);
      else if (!strcmp(argv[i], "--seed"))
         rng_state = strtoull(argv[i + 1], NULL, 0) | 1;
      else if (!strcmp(argv[i], "--show"))
         show = (unsigned)strtoul(argv[i + 1], NULL, 10);
      else if (!strcmp(argv[i], "--out"))
         out_dir = argv[i + 1];
      else
         break;
   }
   if (i + 1 != argc) {
      fprintf(stderr,
              "usage: %s [--spirv-val PATH] [--seconds S] [--variants N] [--seed N] [--out DIR] "
              "CASE_DIR\n",
              argv[0]);
      return 2;
   }
   if (out_dir)
      mkdir(out_dir, 0777);
   struct module cases[256];
   char names[256][128];
   size_t n = 0;
   DIR *d = opendir(argv[i]);
   struct dirent *e;
   while (d && (e = readdir(d)) && n < 256) {
      size_t len = strlen(e->d_name);
      if (len <= 10 || strcmp(e->d_name + len - 10, ".in.spvasm") || len - 10 >= 128)
         continue;
      snprintf(names[n], sizeof(names[n]), "%.*s", (int)(len - 10), e->d_name);
      if (load_case(argv[i], names[n], &cases[n]))
         n++;
   }
   if (d)
      closedir(d);
   if (!ok(n > 0, "no accepted cases in %s", argv[i]))
      return test_done();

   double start = now_s();
   unsigned variants = 0;
   while (variants < max_variants && now_s() - start < seconds) {
      size_t c = rng((uint32_t)n);
      struct module m = {.n = cases[c].n};
      m.w = malloc(m.n * sizeof(uint32_t));
      if (!m.w)
         break;
      memcpy(m.w, cases[c].w, m.n * sizeof(uint32_t));
      if (index_module(&m)) {
         unsigned k = 1 + rng(3);
         bool changed = false;
         for (unsigned x = 0; x < k; x++)
            changed |= mutate(&m);
         if (changed) {
            char name[192];
            snprintf(name, sizeof(name), "%s #%u", names[c], variants);
            check_variant(name, m.w, m.n);
            variants++;
         }
      }
      free(m.w);
      free(m.starts);
   }
   for (size_t c = 0; c < n; c++) {
      free(cases[c].w);
      free(cases[c].starts);
   }
   printf("%zu cases, %u variants in %.1f s: %u refused, %u accepted", n, variants, now_s() - start,
          refused, accepted);
   if (spirv_val)
      printf(" (%u pass spirv-val, %u fail it over the input's own ids, %u over the lowering's)",
             val_passed, val_passed_through, lowering_faults);
   printf("\n");
   ok(variants > 0, "no variants ran");
   return test_done();
}
