/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The GLSL round trip (tensor/lower/lower_glsl.c) beyond the golden sweep of
 * lower_golden --glsl: the entry point keeps its name; each stage's failure
 * is a VkResult with a message naming the stage (a module with two entry
 * points, one the SPIR-V validator rejects, one SPIRV-Cross cannot translate,
 * one whose GLSL glslang rejects); the GLSL reaches the text callback; the
 * result comes from the caller's allocator, every allocation is freed, and
 * each failing allocation gives VK_ERROR_OUT_OF_HOST_MEMORY; round trips on
 * several threads at once give the same module.
 * Usage: test_lower_glsl [--spirv-val PATH]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spirv_text.h"
#include "test.h"
#include "tsr_lower_glsl.h"

TEST_MAIN_STATE;

static const char *spirv_val;

/* A compute shader copying a rank-1 fp32 tensor; the parts in between are the cases'. */
static const char head[] = "OpCapability Shader\n"
                           "OpCapability TensorsARM\n"
                           "OpExtension \"SPV_ARM_tensors\"\n"
                           "OpMemoryModel Logical GLSL450\n";
static const char decorations[] = "OpExecutionMode %main LocalSize 64 1 1\n"
                                  "OpDecorate %src DescriptorSet 0\n"
                                  "OpDecorate %src Binding 0\n"
                                  "OpDecorate %dst DescriptorSet 0\n"
                                  "OpDecorate %dst Binding 1\n"
                                  "OpDecorate %gid BuiltIn GlobalInvocationId\n";
static const char types[] = "%void = OpTypeVoid\n"
                            "%uint = OpTypeInt 32 0\n"
                            "%float = OpTypeFloat 32\n"
                            "%v3uint = OpTypeVector %uint 3\n"
                            "%uint_1 = OpConstant %uint 1\n"
                            "%float_2 = OpConstant %float 2\n"
                            "%coords = OpTypeArray %uint %uint_1\n"
                            "%tensor = OpTypeTensorARM %float %uint_1\n"
                            "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
                            "%ptr_input = OpTypePointer Input %v3uint\n"
                            "%src = OpVariable %ptr_tensor UniformConstant\n"
                            "%dst = OpVariable %ptr_tensor UniformConstant\n"
                            "%gid = OpVariable %ptr_input Input\n"
                            "%fn_void = OpTypeFunction %void\n";
static const char body[] = "%t_in = OpLoad %tensor %src\n"
                           "%t_out = OpLoad %tensor %dst\n"
                           "%id = OpLoad %v3uint %gid\n"
                           "%x = OpCompositeExtract %uint %id 0\n"
                           "%coord = OpCompositeConstruct %coords %x\n"
                           "%v = OpTensorReadARM %float %t_in %coord\n"
                           "%twice = OpFMul %float %v %float_2\n"
                           "OpTensorWriteARM %t_out %coord %twice\n";
static const char tail[] = "OpReturn\n"
                           "OpFunctionEnd\n";

struct variant {
   const char *entry_points; /* NULL: one, "main" */
   const char *annotations;  /* after the common decorations */
   const char *globals;      /* after the common types */
   const char *variables;    /* first in the entry block */
   const char *code;         /* after the copy */
};

static uint32_t *
assemble(const struct variant *v, size_t *count)
{
   const char *parts[] = {
       head,
       v->entry_points ? v->entry_points : "OpEntryPoint GLCompute %main \"main\" %src %dst %gid\n",
       decorations,
       v->annotations ? v->annotations : "",
       types,
       v->globals ? v->globals : "",
       "%main = OpFunction %void None %fn_void\n%entry = OpLabel\n",
       v->variables ? v->variables : "",
       body,
       v->code ? v->code : "",
       tail,
   };
   size_t len = 0;
   for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
      len += strlen(parts[i]);
   char *text = malloc(len + 1);
   if (!text)
      return NULL;
   text[0] = '\0';
   for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
      strcat(text, parts[i]);
   uint32_t *words = NULL;
   char err[256];
   if (!ok(spirv_text_assemble(text, len, &words, count, err, sizeof(err)), "assembly: %s", err))
      words = NULL;
   free(text);
   return words;
}

static const char *
entry_point_name(const uint32_t *words, size_t count)
{
   for (size_t i = 5; i < count && words[i] >> 16; i += words[i] >> 16)
      if ((words[i] & 0xffffu) == 15 /* OpEntryPoint */ && (words[i] >> 16) >= 4)
         return (const char *)(words + i + 3);
   return "";
}

static bool
passes_spirv_val(const uint32_t *words, size_t count)
{
   if (!spirv_val)
      return true;
   char path[] = "/tmp/test_lower_glsl_XXXXXX";
   int fd = mkstemp(path);
   if (fd < 0)
      return false;
   bool written = write(fd, words, count * 4) == (ssize_t)(count * 4);
   close(fd);
   int status = -1;
   pid_t pid = written ? fork() : -1;
   if (pid == 0) {
      execl(spirv_val, spirv_val, "--target-env", "vulkan1.3", path, (char *)NULL);
      _exit(127);
   }
   if (pid > 0)
      waitpid(pid, &status, 0);
   unlink(path);
   return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The round trip of a variant must fail with `want` and a message starting with `stage`.
 * valid_input: the variant is valid SPIR-V, so the direct lowering's module must pass spirv-val
 * (the "invalid SPIR-V" variant's fault is passed through by the direct lowering). */
static void
expect_failure(const char *name, const struct variant *v, bool valid_input, VkResult want,
               const char *stage, const char *message)
{
   test_set_context(name);
   size_t count = 0;
   uint32_t *words = assemble(v, &count);
   if (!words)
      return;
   uint32_t *out = NULL;
   size_t out_count = 0;
   char err[768] = "";
   /* The direct lowering takes these modules; only the GLSL path cannot. */
   VkResult direct = tsr_lower_tensors(words, count, NULL, &out, &out_count, err, sizeof(err));
   ok(direct == VK_SUCCESS, "direct lowering: %d %s", direct, err);
   if (direct == VK_SUCCESS && valid_input)
      ok(passes_spirv_val(out, out_count), "direct lowering: spirv-val");
   tsr_lower_free(NULL, out);
   out = NULL;
   VkResult result =
       tsr_lower_glsl(words, count, NULL, NULL, NULL, &out, &out_count, err, sizeof(err));
   ok(result == want, "result %d, expected %d (%s)", result, want, err);
   ok(!strncmp(err, stage, strlen(stage)), "message \"%s\" does not start with \"%s\"", err, stage);
   ok(strstr(err, message) != NULL, "message \"%s\" does not contain \"%s\"", err, message);
   ok(out == NULL && out_count == 0, "no module on failure");
   printf("%s: %s\n", name, err);
   free(words);
   test_set_context(NULL);
}

static void
test_failures(void)
{
   struct variant two = {
       .entry_points = "OpEntryPoint GLCompute %main \"main\" %src %dst %gid\n"
                       "OpEntryPoint GLCompute %main \"again\" %src %dst %gid\n",
   };
   expect_failure("two entry points", &two, true, VK_ERROR_FEATURE_NOT_PRESENT,
                  "GLSL round trip: ", "2 entry points");

   struct variant invalid = {.code = "%bad = OpIAdd %uint %x %float_2\n"};
   expect_failure("invalid SPIR-V", &invalid, false, VK_ERROR_INITIALIZATION_FAILED,
                  "SPIR-V validator: ", "OpIAdd");

   /* Valid SPIR-V that SPIRV-Cross 2021.01 does not translate. */
   struct variant spec_op = {
       .globals = "%spec = OpSpecConstant %float 1.5\n"
                  "%quantized = OpSpecConstantOp %float QuantizeToF16 %spec\n",
   };
   expect_failure("SPIRV-Cross failure", &spec_op, true, VK_ERROR_FEATURE_NOT_PRESENT,
                  "SPIRV-Cross: ", "spec constant op");

   /* A Function array sized by a specialization constant, copied whole: GLSL cannot. */
   struct variant spec_array = {
       .annotations = "OpDecorate %len SpecId 3\n",
       .globals = "%len = OpSpecConstant %uint 3\n"
                  "%arr = OpTypeArray %float %len\n"
                  "%ptr_arr = OpTypePointer Function %arr\n"
                  "%ptr_float = OpTypePointer Function %float\n",
       .variables = "%va = OpVariable %ptr_arr Function\n"
                    "%vb = OpVariable %ptr_arr Function\n",
       .code = "%a = OpLoad %arr %va\n"
               "OpStore %vb %a\n"
               "%pb = OpAccessChain %ptr_float %vb %uint_1\n"
               "OpStore %pb %twice\n",
   };
   expect_failure("glslang failure", &spec_array, true, VK_ERROR_FEATURE_NOT_PRESENT,
                  "glslang: ", "specialization constant");
}

static void
keep_text(void *user, const char *glsl)
{
   *(char **)user = strdup(glsl);
}

static void
test_entry_point_and_text(void)
{
   test_set_context("entry point");
   struct variant named = {
       .entry_points =
           "OpEntryPoint GLCompute %main \"a_rather_long_tensor_entry\" %src %dst %gid\n",
   };
   size_t count = 0, out_count = 0;
   uint32_t *words = assemble(&named, &count), *out = NULL;
   char err[768] = "", *glsl = NULL;
   if (words && ok(tsr_lower_glsl(words, count, NULL, keep_text, &glsl, &out, &out_count, err,
                                  sizeof(err)) == VK_SUCCESS,
                   "%s", err)) {
      check_str(entry_point_name(out, out_count), "a_rather_long_tensor_entry");
      ok(passes_spirv_val(out, out_count), "spirv-val");
      ok(glsl && strstr(glsl, "#version 460") && strstr(glsl, "buffer_reference") &&
             strstr(glsl, "void main()"),
         "GLSL reported: %.200s", glsl ? glsl : "(none)");
   }
   free(glsl);
   tsr_lower_free(NULL, out);
   free(words);
   test_set_context(NULL);
}

/* A counting allocator that fails the allocation numbered `fail_at` (from 0). */
struct counting {
   unsigned allocations, frees, fail_at;
   size_t live;
};

static void *VKAPI_CALL
count_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct counting *c = user;
   if (c->allocations++ == c->fail_at)
      return NULL;
   void *p = NULL;
   if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size))
      return NULL;
   c->live++;
   return p;
}

static void *VKAPI_CALL
count_realloc(void *user, void *old, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct counting *c = user;
   if (c->allocations++ == c->fail_at)
      return NULL;
   void *p = realloc(old, size);
   if (p && !old)
      c->live++;
   return p;
}

static void VKAPI_CALL
count_free(void *user, void *p)
{
   struct counting *c = user;
   if (p) {
      c->frees++;
      c->live--;
      free(p);
   }
}

static void
test_allocator(void)
{
   test_set_context("allocator");
   size_t count = 0;
   struct variant plain = {0};
   uint32_t *words = assemble(&plain, &count);
   if (!words)
      return;
   unsigned failures = 0, leaks = 0, wrong = 0, n;
   bool done = false;
   for (n = 0; n < 100000 && !done; n++) {
      struct counting c = {.fail_at = n};
      VkAllocationCallbacks cb = {.pUserData = &c,
                                  .pfnAllocation = count_alloc,
                                  .pfnReallocation = count_realloc,
                                  .pfnFree = count_free};
      struct tsr_lower_options opts = {.features = TSR_LOWER_FEATURES_ALL, .alloc = &cb};
      uint32_t *out = NULL;
      size_t out_count = 0;
      char err[768];
      VkResult r =
          tsr_lower_glsl(words, count, &opts, NULL, NULL, &out, &out_count, err, sizeof(err));
      done = r == VK_SUCCESS;
      failures += !done;
      wrong += !done && r != VK_ERROR_OUT_OF_HOST_MEMORY;
      if (done)
         ok(c.live == 1 && out && out_count > 5 && passes_spirv_val(out, out_count),
            "the result is the one live allocation and passes spirv-val");
      tsr_lower_free(&opts, out);
      leaks += c.live != 0;
   }
   ok(done, "never succeeded");
   ok(wrong == 0, "%u failed allocations gave another result", wrong);
   ok(leaks == 0, "%u runs leaked", leaks);
   printf("allocator: %u failing allocations, each VK_ERROR_OUT_OF_HOST_MEMORY\n", failures);
   free(words);
   test_set_context(NULL);
}

struct thread_job {
   const uint32_t *words;
   size_t count;
   const uint32_t *want;
   size_t want_count;
   unsigned mismatches;
};

static void *
thread_main(void *data)
{
   struct thread_job *job = data;
   for (int i = 0; i < 16; i++) {
      uint32_t *out = NULL;
      size_t out_count = 0;
      char err[768];
      VkResult r = tsr_lower_glsl(job->words, job->count, NULL, NULL, NULL, &out, &out_count, err,
                                  sizeof(err));
      job->mismatches += r != VK_SUCCESS || out_count != job->want_count ||
                         memcmp(out, job->want, out_count * 4) != 0;
      tsr_lower_free(NULL, out);
   }
   return NULL;
}

static void
test_threads(void)
{
   test_set_context("threads");
   size_t count = 0, want_count = 0;
   struct variant plain = {0};
   uint32_t *words = assemble(&plain, &count), *want = NULL;
   char err[768];
   if (!words || !ok(tsr_lower_glsl(words, count, NULL, NULL, NULL, &want, &want_count, err,
                                    sizeof(err)) == VK_SUCCESS,
                     "%s", err)) {
      free(words);
      return;
   }
   ok(passes_spirv_val(want, want_count), "spirv-val");
   pthread_t threads[6];
   struct thread_job jobs[6];
   unsigned started = 0, mismatches = 0;
   for (unsigned i = 0; i < 6; i++) {
      jobs[i] = (struct thread_job){words, count, want, want_count, 0};
      started += pthread_create(&threads[i], NULL, thread_main, &jobs[i]) == 0;
   }
   for (unsigned i = 0; i < started; i++) {
      pthread_join(threads[i], NULL);
      mismatches += jobs[i].mismatches;
   }
   ok(started == 6, "threads");
   ok(mismatches == 0, "%u concurrent round trips failed or differed", mismatches);
   tsr_lower_free(NULL, want);
   free(words);
   test_set_context(NULL);
}

int
main(int argc, char **argv)
{
   if (argc == 3 && !strcmp(argv[1], "--spirv-val"))
      spirv_val = argv[2];
   /* Without a reference held, each round trip initializes glslang and finalizes it. */
   test_failures();
   test_entry_point_and_text();
   /* Held, as a device holds it: the symbol tables are built once. */
   ok(tsr_lower_glsl_retain(), "glslang initializes");
   test_allocator();
   test_threads();
   tsr_lower_glsl_release();
   return test_done();
}
