/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Golden tests of the direct tensor lowering (tensor/lower), no Vulkan: for
 * every tests/unit/lower/<case>.in.spvasm, assemble it with the project's
 * assembler, lower it, and
 *  - when <case>.err exists (first line: the VkResult name, second line: a
 *    piece of the message), expect exactly that failure;
 *  - otherwise compare the output with <case>.out.spvasm (the golden is
 *    assembled and the words compared, so comments and spacing do not
 *    matter), check that lowering is deterministic and that no ARM
 *    capability is left, and run `spirv-val --target-env vulkan1.3` on it.
 * With --glsl, every case also goes through the GLSL round trip
 * (tsr_lower_glsl(), the default path of the layer): a case the direct
 * lowering rejects must fail there with the same result and message (the
 * pre-pass is the direct lowering); any other must give a module without ARM
 * capabilities, with the input's entry point name, that passes spirv-val
 * (written to DIR/<case>.glsl.spv, its GLSL to DIR/<case>.comp).
 * Directives in the input's leading comments:
 *   ; lower-without: int64 storage8 ...   device features to leave out
 * Usage: lower_golden [--update] [--glsl] [--spirv-val PATH] [--out DIR] CASE_DIR [CASE...]
 * --update rewrites the goldens from the current output (review the diff!).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "spirv_text.h"
#include "test.h"
#include "tsr_lower.h"
#include "tsr_lower_glsl.h"

TEST_MAIN_STATE;

struct config {
   bool update;
   bool glsl;
   const char *spirv_val;
   const char *out_dir;
   const char *dir;
};

static char *
read_file(const char *path, size_t *len)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   struct stat st;
   char *text = NULL;
   if (fstat(fileno(f), &st) == 0 && (text = malloc((size_t)st.st_size + 1))) {
      *len = fread(text, 1, (size_t)st.st_size, f);
      text[*len] = '\0';
   }
   fclose(f);
   return text;
}

static bool
write_file(const char *path, const void *data, size_t len)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return false;
   bool ok = fwrite(data, 1, len, f) == len;
   return fclose(f) == 0 && ok;
}

/* Reads "; lower-without: a b c" from the text; an unknown feature name fails the test. */
static uint32_t
features_of(const char *text)
{
   uint32_t features = TSR_LOWER_FEATURES_ALL;
   const char *p = strstr(text, "; lower-without:");
   if (!p)
      return features;
   p += strlen("; lower-without:");
   const char *end = p + strcspn(p, "\n");
   while (p < end) {
      p += strspn(p, " \t");
      size_t n = strcspn(p, " \t\n");
      if (p + n > end)
         n = (size_t)(end - p);
      if (n) {
         uint32_t bit = tsr_lower_feature_from_name(p, n);
         ok(bit != 0, "unknown feature \"%.*s\" in lower-without", (int)n, p);
         features &= ~bit;
      }
      p += n;
   }
   return features;
}

static const char *
result_name(VkResult r)
{
   switch (r) {
   case VK_SUCCESS:
      return "VK_SUCCESS";
   case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
   case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
   case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
   default:
      return "VK_ERROR_?";
   }
}

static bool
run_spirv_val(const struct config *cfg, const char *spv)
{
   pid_t pid = fork();
   if (pid == 0) {
      execl(cfg->spirv_val, cfg->spirv_val, "--target-env", "vulkan1.3", spv, (char *)NULL);
      _exit(127);
   }
   int status = 0;
   if (pid < 0 || waitpid(pid, &status, 0) < 0)
      return false;
   return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Prints the first line where two disassemblies differ. */
static void
show_difference(const char *want, const char *got)
{
   unsigned line = 1;
   while (*want && *got) {
      const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
      size_t wl = we ? (size_t)(we - want) : strlen(want);
      size_t gl = ge ? (size_t)(ge - got) : strlen(got);
      if (wl != gl || memcmp(want, got, wl)) {
         fprintf(stderr, "  line %u:\n    golden: %.*s\n    output: %.*s\n", line, (int)wl, want,
                 (int)gl, got);
         return;
      }
      want += wl + (we ? 1 : 0);
      got += gl + (ge ? 1 : 0);
      line++;
   }
   fprintf(stderr, "  differ in length after line %u\n", line);
}

static void
check_error(const char *name, const char *err_path, VkResult result, const char *err)
{
   size_t len = 0;
   char *expect = read_file(err_path, &len);
   if (!ok(expect != NULL, "%s: cannot read %s", name, err_path))
      return;
   char *nl = strchr(expect, '\n');
   const char *message = "";
   if (nl) {
      *nl = '\0';
      message = nl + 1;
      char *end = strchr(nl + 1, '\n');
      if (end)
         *end = '\0';
   }
   ok(!strcmp(result_name(result), expect), "%s: result %s, expected %s (%s)", name,
      result_name(result), expect, err);
   ok(strstr(err, message) != NULL, "%s: message \"%s\" does not contain \"%s\"", name, err,
      message);
   free(expect);
}

static void
check_output(const struct config *cfg, const char *name, const char *golden_path,
             const uint32_t *out, size_t out_count, const struct tsr_lower_options *opts,
             const uint32_t *words, size_t count)
{
   char *text = NULL;
   size_t text_len = 0;
   char err[256] = "";
   if (!ok(spirv_text_disassemble(out, out_count, &text, &text_len, err, sizeof(err)),
           "%s: disassembly failed: %s", name, err))
      return;
   ok(!spirv_declares_capability(out, out_count, SPV_ARM_CAP_TENSORS),
      "%s: TensorsARM is still declared", name);

   uint32_t *again = NULL;
   size_t again_count = 0;
   if (tsr_lower_tensors(words, count, opts, &again, &again_count, err, sizeof(err)) == VK_SUCCESS)
      ok(again_count == out_count && !memcmp(again, out, out_count * 4),
         "%s: lowering twice gave different modules", name);
   tsr_lower_free(opts, again);

   if (cfg->update) {
      ok(write_file(golden_path, text, text_len), "%s: cannot write %s", name, golden_path);
   } else {
      size_t golden_len = 0;
      char *golden = read_file(golden_path, &golden_len);
      uint32_t *gw = NULL;
      size_t gc = 0;
      if (ok(golden != NULL, "%s: no golden %s (run with --update)", name, golden_path) &&
          ok(spirv_text_assemble(golden, golden_len, &gw, &gc, err, sizeof(err)),
             "%s: golden does not assemble: %s", name, err)) {
         bool same = gc == out_count && !memcmp(gw, out, gc * 4);
         if (!ok(same, "%s: output differs from %s", name, golden_path)) {
            char *gt = NULL;
            if (spirv_text_disassemble(gw, gc, &gt, NULL, NULL, 0))
               show_difference(gt, text);
            free(gt);
         }
      }
      free(gw);
      free(golden);
   }

   if (cfg->out_dir) {
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s.spv", cfg->out_dir, name);
      if (ok(write_file(path, out, out_count * 4), "%s: cannot write %s", name, path) &&
          cfg->spirv_val)
         ok(run_spirv_val(cfg, path), "%s: spirv-val --target-env vulkan1.3 %s failed", name, path);
   }
   free(text);
}

/* The name of the module's first OpEntryPoint, or "". */
static const char *
entry_point_name(const uint32_t *words, size_t count)
{
   for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16)
      if ((words[i] & 0xffffu) == SpvOpEntryPoint && (words[i] >> 16) >= 4 &&
          i + (words[i] >> 16) <= count)
         return (const char *)(words + i + 3);
   return "";
}

static void
keep_glsl(void *user, const char *glsl)
{
   *(char **)user = strdup(glsl);
}

/* --glsl: the GLSL round trip of the case agrees with the direct lowering's verdict. */
static void
check_glsl(const struct config *cfg, const char *name, const uint32_t *words, size_t count,
           const struct tsr_lower_options *opts, VkResult direct, const char *direct_err)
{
   char err[768] = "", *glsl = NULL;
   uint32_t *out = NULL;
   size_t out_count = 0;
   VkResult result =
       tsr_lower_glsl(words, count, opts, keep_glsl, &glsl, &out, &out_count, err, sizeof(err));
   if (direct != VK_SUCCESS) {
      ok(result == direct && !strcmp(err, direct_err),
         "%s: GLSL round trip gave %s \"%s\", the direct lowering %s \"%s\"", name,
         result_name(result), err, result_name(direct), direct_err);
   } else if (ok(result == VK_SUCCESS, "%s: GLSL round trip failed: %s: %s", name,
                 result_name(result), err)) {
      ok(glsl && !strncmp(glsl, "#version 460", 12), "%s: no GLSL 4.60 reported", name);
      ok(!spirv_declares_capability(out, out_count, SPV_ARM_CAP_TENSORS),
         "%s: GLSL round trip: TensorsARM is still declared", name);
      ok(!strcmp(entry_point_name(out, out_count), entry_point_name(words, count)),
         "%s: GLSL round trip: entry point \"%s\", expected \"%s\"", name,
         entry_point_name(out, out_count), entry_point_name(words, count));
      if (cfg->out_dir) {
         char path[4096];
         snprintf(path, sizeof(path), "%s/%s.comp", cfg->out_dir, name);
         ok(glsl && write_file(path, glsl, strlen(glsl)), "%s: cannot write %s", name, path);
         snprintf(path, sizeof(path), "%s/%s.glsl.spv", cfg->out_dir, name);
         if (ok(write_file(path, out, out_count * 4), "%s: cannot write %s", name, path) &&
             cfg->spirv_val)
            ok(run_spirv_val(cfg, path), "%s: spirv-val --target-env vulkan1.3 %s failed", name,
               path);
      }
   }
   tsr_lower_free(opts, out);
   free(glsl);
}

static void
run_case(const struct config *cfg, const char *name)
{
   char in_path[4096], out_path[4096], err_path[4096];
   snprintf(in_path, sizeof(in_path), "%s/%s.in.spvasm", cfg->dir, name);
   snprintf(out_path, sizeof(out_path), "%s/%s.out.spvasm", cfg->dir, name);
   snprintf(err_path, sizeof(err_path), "%s/%s.err", cfg->dir, name);
   test_set_context(name);

   size_t len = 0;
   char *text = read_file(in_path, &len);
   if (!ok(text != NULL, "cannot read %s", in_path))
      return;
   uint32_t *words = NULL;
   size_t count = 0;
   char err[512] = "";
   if (ok(spirv_text_assemble(text, len, &words, &count, err, sizeof(err)),
          "%s does not assemble: %s", in_path, err)) {
      struct tsr_lower_options opts = {.features = features_of(text)};
      uint32_t *out = NULL;
      size_t out_count = 0;
      VkResult result = tsr_lower_tensors(words, count, &opts, &out, &out_count, err, sizeof(err));
      if (access(err_path, F_OK) == 0)
         check_error(name, err_path, result, err);
      else if (ok(result == VK_SUCCESS, "%s: lowering failed: %s: %s", name, result_name(result),
                  err))
         check_output(cfg, name, out_path, out, out_count, &opts, words, count);
      tsr_lower_free(&opts, out);
      if (cfg->glsl)
         check_glsl(cfg, name, words, count, &opts, result, err);
   }
   free(words);
   free(text);
   test_set_context(NULL);
}

static int
compare_names(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every <case> with a <case>.in.spvasm in dir, sorted. */
static char **
list_cases(const char *dir, size_t *count)
{
   DIR *d = opendir(dir);
   char **names = NULL;
   size_t n = 0, cap = 0;
   struct dirent *e;
   const char *suffix = ".in.spvasm";
   while (d && (e = readdir(d))) {
      size_t len = strlen(e->d_name), sl = strlen(suffix);
      if (len <= sl || strcmp(e->d_name + len - sl, suffix))
         continue;
      if (n == cap) {
         cap = cap ? cap * 2 : 64;
         char **grown = realloc(names, cap * sizeof(*names));
         if (!grown)
            break;
         names = grown;
      }
      names[n] = strndup(e->d_name, len - sl);
      if (names[n])
         n++;
   }
   if (d)
      closedir(d);
   if (n)
      qsort(names, n, sizeof(*names), compare_names);
   *count = n;
   return names;
}

int
main(int argc, char **argv)
{
   struct config cfg = {0};
   int i = 1;
   for (; i < argc && argv[i][0] == '-'; i++) {
      if (!strcmp(argv[i], "--update"))
         cfg.update = true;
      else if (!strcmp(argv[i], "--glsl"))
         cfg.glsl = true;
      else if (!strcmp(argv[i], "--spirv-val") && i + 1 < argc)
         cfg.spirv_val = argv[++i];
      else if (!strcmp(argv[i], "--out") && i + 1 < argc)
         cfg.out_dir = argv[++i];
      else
         break;
   }
   if (i >= argc) {
      fprintf(stderr,
              "usage: %s [--update] [--glsl] [--spirv-val PATH] [--out DIR] CASE_DIR [CASE...]\n",
              argv[0]);
      return 2;
   }
   cfg.dir = argv[i++];
   /* Keeps glslang's symbol tables for the whole run, as a device does. */
   if (cfg.glsl && !ok(tsr_lower_glsl_retain(), "glslang does not initialize"))
      return test_done();
   if (cfg.out_dir && mkdir(cfg.out_dir, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "cannot create %s\n", cfg.out_dir);
      return 2;
   }
   if (i < argc) {
      for (; i < argc; i++)
         run_case(&cfg, argv[i]);
      return test_done();
   }
   size_t n = 0;
   char **names = list_cases(cfg.dir, &n);
   ok(n > 0, "no cases in %s", cfg.dir);
   for (size_t k = 0; k < n; k++) {
      run_case(&cfg, names[k]);
      free(names[k]);
   }
   free(names);
   printf("%zu cases\n", n);
   if (cfg.glsl)
      tsr_lower_glsl_release();
   return test_done();
}
