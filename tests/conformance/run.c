/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * conf_run_case() (see run.h): reference first, then the layers, then the verdict. The layers'
 * stderr is captured while a case runs, so the log line that names why a pipeline was rejected
 * lands in the case's detail instead of the console; validation messages count through the
 * vkutil messenger and fail the case they occur in. Case data and the reference are prepare.c's.
 */
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spirv_text.h"
#include "test.h"
#include "ref_format.h"

const char *
conf_status_name(enum conf_status status)
{
   return status == CONF_PASS ? "pass" : status == CONF_FAIL ? "fail" : "skip";
}

bool
conf_runner_init(struct conf_runner *r, uint64_t seed, bool verbose)
{
   memset(r, 0, sizeof(*r));
   r->seed = seed;
   r->verbose = verbose;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   VkResult result = vku_init(&r->vk, layers, 2, true);
   if (result != VK_SUCCESS || !r->vk.physical_device) {
      fprintf(stderr, "vmel-conformance: no Vulkan instance or device (VkResult %d)\n", result);
      return false;
   }
   result = graph_device_create(r->vk.instance, r->vk.physical_device, &r->device);
   if (result != VK_SUCCESS) {
      fprintf(stderr, "vmel-conformance: no device with VK_ARM_data_graph (VkResult %d)\n", result);
      return false;
   }
   return true;
}

void
conf_runner_finish(struct conf_runner *r)
{
   if (r->split_ready)
      graph_device_destroy(&r->split_device);
   if (r->device.device)
      graph_device_destroy(&r->device);
   vku_finish(&r->vk);
}

/* The device for split cases: VMEL_GRAPH_MAX_GROUPS is read when the layer creates a device. */
static struct graph_device *
split_device(struct conf_runner *r)
{
   if (!r->split_tried) {
      r->split_tried = true;
      const char *old = getenv("VMEL_GRAPH_MAX_GROUPS");
      char *saved = old ? strdup(old) : NULL;
      if (old && !saved)
         return NULL;
      char value[16];
      snprintf(value, sizeof(value), "%u", CONF_SPLIT_MAX_GROUPS);
      setenv("VMEL_GRAPH_MAX_GROUPS", value, 1);
      r->split_ready = graph_device_create(r->vk.instance, r->vk.physical_device,
                                           &r->split_device) == VK_SUCCESS;
      if (saved)
         setenv("VMEL_GRAPH_MAX_GROUPS", saved, 1);
      else
         unsetenv("VMEL_GRAPH_MAX_GROUPS");
      free(saved);
   }
   return r->split_ready ? &r->split_device : NULL;
}

/* ---- stderr capture -------------------------------------------------------------------- */

struct capture {
   FILE *file;
   int saved;
};

static void
capture_begin(struct capture *cap)
{
   fflush(stderr);
   cap->saved = -1;
   cap->file = tmpfile();
   if (!cap->file)
      return;
   cap->saved = dup(2);
   if (cap->saved < 0 || dup2(fileno(cap->file), 2) < 0) {
      fclose(cap->file);
      cap->file = NULL;
   }
}

/* The captured text (malloc()ed, NUL-terminated; NULL if nothing could be captured). */
static char *
capture_end(struct capture *cap)
{
   if (!cap->file)
      return NULL;
   fflush(stderr);
   dup2(cap->saved, 2);
   close(cap->saved);
   long size = ftell(cap->file);
   char *text = NULL;
   if (size >= 0 && (text = malloc((size_t)size + 1)) != NULL) {
      rewind(cap->file);
      size_t n = fread(text, 1, (size_t)size, cap->file);
      text[n] = '\0';
   }
   fclose(cap->file);
   return text;
}

/* The line of the captured log that says why (the decoder's "TOSA ..." message, else the
 * first error line), without its newline. */
static void
log_reason(const char *log, char *out, size_t size)
{
   out[0] = '\0';
   if (!log)
      return;
   const char *line = strstr(log, "TOSA ");
   if (!line && !(line = strstr(log, " E: ")))
      line = log;
   while (line > log && line[-1] != '\n')
      line--;
   size_t n = strcspn(line, "\n");
   snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), line);
}

/* ---- text helpers ------------------------------------------------------------------------ */

static void detail(struct conf_result *res, enum conf_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
detail(struct conf_result *res, enum conf_status status, const char *fmt, ...)
{
   res->status = status;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
   va_end(ap);
   for (char *p = res->detail; *p; p++) {
      if (*p == '\n' || *p == '\t')
         *p = ' ';
   }
}

static void
format_value(const struct ref_tensor *t, int64_t i, char *buf, size_t size)
{
   if (t->dtype == REF_DTYPE_FP64) {
      snprintf(buf, size, "%.17g", ref_tensor_get_fp(t, i));
   } else if (ref_dtype_is_float(t->dtype)) {
      int digits = (int)ref_dtype_size(t->dtype) * 2;
      snprintf(buf, size, "%.9g (0x%0*llx)", ref_tensor_get_fp(t, i), digits,
               (unsigned long long)ref_tensor_get_bits(t, i));
   } else {
      snprintf(buf, size, "%lld", (long long)ref_tensor_get_int(t, i));
   }
}

static void
format_index(const struct ref_tensor *t, int64_t offset, char *buf, size_t size)
{
   int64_t index[REF_MAX_RANK];
   ref_tensor_index(t, offset, index);
   size_t n = (size_t)snprintf(buf, size, "[");
   for (uint32_t d = 0; d < t->rank && n < size; d++)
      n += (size_t)snprintf(buf + n, size - n, "%s%lld", d ? "," : "", (long long)index[d]);
   if (n < size)
      snprintf(buf + n, size - n, "]");
}

/* ---- binding the case -------------------------------------------------------------------- */

struct binding {
   struct graph_tensor inputs[GT_MAX_INPUTS];
   struct graph_constant constants[GT_MAX_INPUTS];
   struct graph_tensor output;
   uint32_t input_count, constant_count;
};

static void
bind_case(const struct conf_case *c, const struct conf_inst *inst, struct binding *b)
{
   memset(b, 0, sizeof(*b));
   for (uint32_t i = 0; i < inst->op.input_count; i++) {
      const struct ref_tensor *t = inst->inputs[i];
      if (inst->op.inputs[i].alias)
         continue;
      VkFormat format = ref_dtype_format(t->dtype, i == 0 && c->in_unsigned);
      if (inst->op.inputs[i].source == GT_GRAPH_INPUT) {
         struct graph_tensor *g = &b->inputs[b->input_count];
         *g = (struct graph_tensor){.set = 0,
                                    .binding = b->input_count,
                                    .format = format,
                                    .rank = t->rank,
                                    .data = t->data,
                                    .size = (size_t)t->count * ref_dtype_size(t->dtype)};
         memcpy(g->dims, t->shape, sizeof(int64_t) * t->rank);
         b->input_count++;
      } else {
         struct graph_constant *g = &b->constants[b->constant_count];
         *g = (struct graph_constant){
             .id = b->constant_count, .format = format, .rank = t->rank, .data = t->data};
         memcpy(g->dims, t->shape, sizeof(int64_t) * t->rank);
         b->constant_count++;
      }
   }
   const struct ref_tensor *o = inst->output;
   b->output = (struct graph_tensor){.set = 0,
                                     .binding = b->input_count,
                                     .format = ref_dtype_format(o->dtype, c->out_unsigned),
                                     .rank = o->rank,
                                     .data = o->data,
                                     .size = (size_t)o->count * ref_dtype_size(o->dtype)};
   memcpy(b->output.dims, o->shape, sizeof(int64_t) * o->rank);
}

/* ---- comparing ---------------------------------------------------------------------------- */

static const char *
tol_name(const struct tosa_ref_tolerance *tol)
{
   switch (tol->kind) {
   case TOSA_REF_TOL_EXACT:
      return "EXACT";
   case TOSA_REF_TOL_FP_EXACT:
      return "FP_EXACT";
   case TOSA_REF_TOL_ULP:
      return "ULP";
   case TOSA_REF_TOL_DOT_PRODUCT:
      return "DOT_PRODUCT";
   default:
      return "RESCALE_RANGE";
   }
}

/* Whether element i passes a per-element tolerance (for listing the mismatches). */
static bool
element_ok(const struct conf_inst *inst, const bool out_unsigned, int64_t i)
{
   const struct ref_tensor *imp = inst->output, *ref = inst->ref;
   switch (inst->tol.kind) {
   case TOSA_REF_TOL_FP_EXACT:
      return tosa_ref_check_fp_exact(imp->dtype, ref_tensor_get_fp(imp, i),
                                     ref_tensor_get_fp(ref, i));
   case TOSA_REF_TOL_ULP:
      return tosa_ref_check_fp(imp->dtype, ref_tensor_get_fp(imp, i), ref_tensor_get_fp(ref, i),
                               inst->tol.ulp);
   case TOSA_REF_TOL_RESCALE_RANGE: {
      int64_t v = ref_tensor_get_int(imp, i);
      unsigned bits = ref_dtype_int_bits(imp->dtype);
      if (out_unsigned)
         v = (int64_t)((uint64_t)v & ((UINT64_C(1) << bits) - 1));
      return v >= ref_tensor_get_int(inst->lo, i) && v <= ref_tensor_get_int(inst->hi, i);
   }
   case TOSA_REF_TOL_DOT_PRODUCT:
      return true;
   default:
      if (ref_dtype_is_float(imp->dtype))
         return ref_tensor_get_bits(imp, i) == ref_tensor_get_bits(ref, i);
      return ref_tensor_get_int(imp, i) == ref_tensor_get_int(ref, i);
   }
}

static void
list_element(struct conf_result *res, const struct conf_inst *inst, int64_t i)
{
   char at[64], got[64], want[64];
   format_index(inst->output, i, at, sizeof(at));
   format_value(inst->output, i, got, sizeof(got));
   if (inst->tol.kind == TOSA_REF_TOL_RESCALE_RANGE) {
      snprintf(want, sizeof(want), "[%lld, %lld]", (long long)ref_tensor_get_int(inst->lo, i),
               (long long)ref_tensor_get_int(inst->hi, i));
   } else {
      format_value(inst->ref, i, want, sizeof(want));
   }
   test_appendf(&res->report, "    %s: got %s, expected %s\n", at, got, want);
}

static void
compare(const struct conf_case *c, const struct conf_inst *inst, struct conf_result *res)
{
   const struct tosa_ref_tolerance *tol = &inst->tol;
   struct tosa_ref_check_report rep = {.pass = true, .first_failure = -1};
   struct tosa_ref_dot_report dot = {.pass = true, .first_failure = -1};
   int st;
   if (tol->kind == TOSA_REF_TOL_DOT_PRODUCT)
      st = tosa_ref_check_dot_product(&inst->dot, inst->output, inst->ref, inst->bnd, &dot);
   else if (tol->kind == TOSA_REF_TOL_RESCALE_RANGE)
      st = tosa_ref_check_rescale_range(inst->output, c->out_unsigned, inst->lo, inst->hi, &rep);
   else
      st = tosa_ref_check_tensor(tol, inst->output, inst->ref, &rep);
   if (st != TOSA_REF_OK) {
      detail(res, CONF_FAIL, "the check could not run: %s", tosa_ref_last_message());
      return;
   }
   if (tol->kind == TOSA_REF_TOL_DOT_PRODUCT) {
      char bound[200];
      snprintf(bound, sizeof(bound),
               "DOT_PRODUCT (ks %lld, ksb %lld): max |err| %.3g <= %.3g, sum err^2 %.3g <= %.3g",
               (long long)inst->dot.ks, (long long)dot.ksb, dot.max_abs_err, dot.abs_bound,
               dot.err_sumsq, dot.variance_bound);
      if (dot.pass) {
         detail(res, CONF_PASS, "%s; %s", bound, tol->source);
         return;
      }
      detail(res, CONF_FAIL, "outside the tolerance: %s", bound);
      if (dot.first_failure >= 0)
         list_element(res, inst, dot.first_failure);
      return;
   }
   char name[48];
   if (tol->kind == TOSA_REF_TOL_ULP)
      snprintf(name, sizeof(name), "ULP %g", tol->ulp);
   else
      snprintf(name, sizeof(name), "%s", tol_name(tol));
   if (rep.pass) {
      detail(res, CONF_PASS, "%s; %s", name, tol->source);
      return;
   }
   /* TOSA lets an implementation flush subnormal inputs to zero, all of them or none: the
    * whole output may match the flushed-input reference instead. */
   struct tosa_ref_check_report ftz = {.pass = true, .first_failure = -1};
   if (tol->kind == TOSA_REF_TOL_ULP && inst->ref_ftz &&
       tosa_ref_check_tensor(tol, inst->output, inst->ref_ftz, &ftz) == TOSA_REF_OK && ftz.pass) {
      detail(res, CONF_PASS, "%s with subnormal inputs flushed to zero; %s", name, tol->source);
      return;
   }
   char at[64];
   format_index(inst->output, rep.first_failure, at, sizeof(at));
   detail(res, CONF_FAIL, "%lld of %lld elements outside %s, the first at %s",
          (long long)rep.failures, (long long)inst->output->count, name, at);
   unsigned listed = 0;
   for (int64_t i = rep.first_failure; i < inst->output->count && listed < 8; i++) {
      if (!element_ok(inst, c->out_unsigned, i)) {
         list_element(res, inst, i);
         listed++;
      }
   }
}

/* ---- one case ------------------------------------------------------------------------------ */

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Whether the reference agrees with the case's intent; sets the result when it does not. */
static bool
reference_agrees(const struct conf_case *c, const struct conf_inst *inst, struct conf_result *res)
{
   int st = inst->status;
   bool rejects = st == TOSA_REF_ERROR || st == TOSA_REF_UNSUPPORTED;
   switch (c->intent) {
   case CONF_VALID:
      if (st == TOSA_REF_OK)
         return true;
      if (st == TOSA_REF_UNPREDICTABLE)
         detail(res, CONF_SKIP, "the reference says UNPREDICTABLE (%s): nothing to compare",
                inst->message);
      else
         detail(res, CONF_FAIL, "the reference rejects a case generated as valid: %s %s",
                tosa_ref_status_name(st), inst->message);
      return false;
   case CONF_INVALID:
      if (rejects)
         return true;
      detail(res, CONF_FAIL, "the reference says %s for a case generated as invalid %s",
             tosa_ref_status_name(st), inst->message);
      return false;
   default:
      if (st == TOSA_REF_UNPREDICTABLE)
         return true;
      detail(res, CONF_FAIL, "the reference says %s for a case generated as a failing REQUIRE",
             tosa_ref_status_name(st));
      return false;
   }
}

/* The verdict on what graph_run() did. */
static void
judge(const struct conf_case *c, const struct conf_inst *inst, const struct graph_run *run,
      VkResult r, const char *reason, struct conf_result *res)
{
   switch (c->intent) {
   case CONF_VALID:
      if (r != VK_SUCCESS)
         detail(res, CONF_FAIL, "%s; layer: %s", run->log, reason[0] ? reason : "(no log)");
      else
         compare(c, inst, res);
      break;
   case CONF_INVALID:
      if (run->create_result == VK_ERROR_UNKNOWN)
         detail(res, CONF_PASS, "rejected with VK_ERROR_UNKNOWN (reference: %s %s); layer: %s",
                tosa_ref_status_name(inst->status), inst->message, reason);
      else if (run->create_result == VK_SUCCESS)
         detail(res, CONF_FAIL, "an invalid graph was accepted (reference: %s %s)",
                tosa_ref_status_name(inst->status), inst->message);
      else
         detail(res, CONF_FAIL,
                "vkCreateDataGraphPipelinesARM returned %d, not VK_ERROR_UNKNOWN "
                "(reference: %s); layer: %s",
                run->create_result, inst->message, reason);
      break;
   default:
      if (run->create_result == VK_ERROR_UNKNOWN)
         detail(res, CONF_PASS, "REQUIRE (%s): rejected with VK_ERROR_UNKNOWN; layer: %s",
                inst->message, reason);
      else if (r == VK_SUCCESS)
         detail(res, CONF_PASS, "REQUIRE (%s): ran; the result is unpredictable, not compared",
                inst->message);
      else
         detail(res, CONF_FAIL, "REQUIRE (%s): %s", inst->message, run->log);
      break;
   }
}

/* Assembles the case's module; NULL (with the result set) on failure. */
static uint32_t *
module_words(const struct conf_inst *inst, size_t *count, char **text, struct conf_result *res)
{
   char err[256];
   if (!gt_write(&inst->op, text, err, sizeof(err))) {
      detail(res, CONF_FAIL, "graph_text: %s", err);
      return NULL;
   }
   uint32_t *words = NULL;
   if (!spirv_text_assemble(*text, strlen(*text), &words, count, err, sizeof(err))) {
      detail(res, CONF_FAIL, "the module does not assemble: %s", err);
      return NULL;
   }
   return words;
}

void
conf_run_case(struct conf_runner *r, const struct conf_case *c, struct conf_result *res)
{
   memset(res, 0, sizeof(*res));
   double t0 = now_ms();
   struct conf_rng rng;
   struct conf_inst inst;
   conf_rng_init(&rng, r->seed, c->name);
   if (!conf_prepare(c, &rng, &inst)) {
      detail(res, CONF_FAIL, "out of memory preparing the case");
      conf_inst_finish(&inst);
      return;
   }
   char *text = NULL;
   size_t count = 0;
   uint32_t *words = NULL;
   struct graph_device *dev = c->split ? split_device(r) : &r->device;
   if (!reference_agrees(c, &inst, res)) {
      /* res is set */
   } else if (!dev) {
      detail(res, CONF_FAIL, "no device with VMEL_GRAPH_MAX_GROUPS=%u", CONF_SPLIT_MAX_GROUPS);
   } else if ((words = module_words(&inst, &count, &text, res)) != NULL) {
      struct binding b;
      bind_case(c, &inst, &b);
      struct graph_run run = {
          .words = words,
          .word_count = count,
          .entry_point = "main",
          .inputs = b.inputs,
          .input_count = b.input_count,
          .outputs = &b.output,
          .output_count = 1,
          .constants = b.constants,
          .constant_count = b.constant_count,
      };
      unsigned errors = r->vk.validation_errors;
      struct capture cap;
      capture_begin(&cap);
      VkResult result = graph_run(dev, &run);
      char *log = capture_end(&cap);
      char reason[320];
      log_reason(log, reason, sizeof(reason));
      judge(c, &inst, &run, result, reason, res);
      if (r->vk.validation_errors != errors) {
         detail(res, CONF_FAIL, "%u validation errors (%s)", r->vk.validation_errors - errors,
                reason);
      }
      if (res->status == CONF_FAIL && log && log[0])
         test_appendf(&res->report, "    layer log:\n%s", log);
      free(log);
   }
   if (res->status == CONF_FAIL && r->verbose && text)
      test_appendf(&res->report, "    module:\n%s", text);
   free(words);
   free(text);
   conf_inst_finish(&inst);
   res->ms = now_ms() - t0;
}
