/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run: runs a SPIR-V graph module through VK_LAYER_ML_Graph_Emulation and
 * VK_LAYER_ML_Tensor_Emulation (enabled in that order in ppEnabledLayerNames)
 * on the default Vulkan device, with inputs and graph constants from .npy
 * files and outputs written to .npy files, and prints the timings (pipeline
 * creation, session set-up, per-dispatch wall time) and, with --profile, the
 * layer's per-operator profile. With no module it runs the built-in example
 * networks and checks them against the CPU reference (examples.c).
 *
 * This file owns the command line, the instance and device, and binding the
 * module's interface to the files; run_module.c reads the interface, npy.c
 * the files, tools/graphrun the Vulkan side of a run.
 *
 * Exit status: 0 on success (examples: every network passed), 1 when a run or
 * a check fails, 2 for a usage error.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "run_module.h"
#include "run_optical_flow.h"
#include "vmel_graph.h"
#include "vmel_run.h"

#define MAX_LAYERS 8

static const char usage_text[] =
   "usage: vmel-run [MODULE.spvasm|MODULE.spv] [options]\n"
   "\n"
   "Runs a SPIR-V graph module (SPV_ARM_graph, TOSA.001000.1) through the ML emulation\n"
   "layers on the default Vulkan device. With no MODULE, runs the built-in int8 and fp32\n"
   "example networks and checks them against the CPU reference.\n"
   "\n"
   "  --entry NAME                      the graph entry point (default: the first)\n"
   "  --input SET:BINDING=FILE.npy[:DTYPE]\n"
   "                                    data of the input tensor at SET, BINDING\n"
   "  --output SET:BINDING=FILE.npy[:DTYPE[:SHAPE]]\n"
   "                                    write the output tensor at SET, BINDING; DTYPE and\n"
   "                                    SHAPE (e.g. 1x64x10) only where the module leaves\n"
   "                                    them open\n"
   "  --constant ID=FILE.npy[:DTYPE]    data of graph constant ID (OpGraphConstantARM)\n"
   "  --dispatches N                    dispatch the graph N times (default 1)\n"
   "  --profile                         run with VMEL_GRAPH_PROFILING=1 and print the\n"
   "                                    layer's per-operator profile\n"
   "  --profile-json FILE               --profile, and write the layer's profile (JSON) to\n"
   "                                    FILE (with a MODULE)\n"
   "  --layers L1,L2,...                layers to enable (default:\n"
   "                                    VK_LAYER_ML_Graph_Emulation,VK_LAYER_ML_Tensor_Emulation)\n"
   "  -h, --help                        print this help and exit\n"
   "\n"
   "DTYPE: bool i8 u8 i16 u16 i32 u32 i64 fp16 bf16 fp32 fp64 fp8e4m3 fp8e5m2; by default\n"
   "the module's element type. .npy files: C order, little-endian, |b1 |i1 |u1 <i2 <u2 <i4\n"
   "<u4 <i8 <f2 <f4 <f8; bf16 and fp8 tensors take raw <u2 / |u1 bit patterns.\n"
   "\n"
   "vmel-run --optical-flow INPUT.png REFERENCE.png -o FLOW.npy [...]: optical flow\n"
   "(vmel-run --optical-flow --help).\n";

/* --input / --output / --constant */
struct file_arg {
   uint32_t set, binding; /* --input, --output */
   uint32_t id;           /* --constant */
   const char *path;
   bool has_dtype, has_shape;
   enum run_dtype dtype;
   uint32_t rank;
   int64_t dims[RUN_MAX_RANK];
   bool used;
};

struct options {
   const char *module;
   const char *entry;
   struct file_arg inputs[RUN_MAX_TENSORS], outputs[RUN_MAX_TENSORS];
   struct file_arg constants[RUN_MAX_CONSTANTS];
   uint32_t input_count, output_count, constant_count;
   uint32_t dispatches;
   bool profile;
   const char *profile_json; /* --profile-json FILE */
   const char *layers[MAX_LAYERS];
   uint32_t layer_count;
   char *layer_list; /* strdup of --layers, owns the names */
};

/* ---- command line ------------------------------------------------------------ */

static bool
parse_u32(const char *s, const char *end, uint32_t *value)
{
   if (s == end)
      return false;
   uint64_t v = 0;
   for (const char *p = s; p < end; p++) {
      if (*p < '0' || *p > '9' || v > UINT32_MAX / 10)
         return false;
      v = v * 10 + (uint64_t)(*p - '0');
   }
   if (v > UINT32_MAX)
      return false;
   *value = (uint32_t)v;
   return true;
}

/* "1x64x10" or "1,64,10" */
static bool
parse_shape(const char *s, uint32_t *rank, int64_t *dims)
{
   *rank = 0;
   for (;;) {
      const char *end = s + strcspn(s, "x,");
      uint32_t d;
      if (*rank == RUN_MAX_RANK || !parse_u32(s, end, &d) || d == 0)
         return false;
      dims[(*rank)++] = d;
      if (!*end)
         return true;
      s = end + 1;
   }
}

/* FILE.npy[:DTYPE[:SHAPE]]: the suffixes are taken from the right only where they parse,
 * so a path may contain ':'. */
static void
parse_file(char *spec, struct file_arg *a, bool allow_shape)
{
   a->path = spec;
   char *last = strrchr(spec, ':');
   if (!last)
      return;
   if (allow_shape && parse_shape(last + 1, &a->rank, a->dims)) {
      *last = 0;
      char *prev = strrchr(spec, ':');
      if (prev && run_dtype_from_name(prev + 1, &a->dtype)) {
         *prev = 0;
         a->has_dtype = a->has_shape = true;
         return;
      }
      *last = ':';
      a->rank = 0;
      return;
   }
   if (run_dtype_from_name(last + 1, &a->dtype)) {
      *last = 0;
      a->has_dtype = true;
   }
}

/* SET:BINDING=FILE... */
static bool
parse_binding_arg(char *spec, struct file_arg *a, bool allow_shape)
{
   char *eq = strchr(spec, '=');
   char *colon = eq ? memchr(spec, ':', (size_t)(eq - spec)) : NULL;
   if (!colon || !parse_u32(spec, colon, &a->set) || !parse_u32(colon + 1, eq, &a->binding) ||
       !eq[1])
      return false;
   parse_file(eq + 1, a, allow_shape);
   return true;
}

/* ID=FILE... */
static bool
parse_constant_arg(char *spec, struct file_arg *a)
{
   char *eq = strchr(spec, '=');
   if (!eq || !parse_u32(spec, eq, &a->id) || !eq[1])
      return false;
   parse_file(eq + 1, a, false);
   return true;
}

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "vmel-run: ");
   vfprintf(stderr, fmt, ap);
   fprintf(stderr, "\n(vmel-run --help for usage)\n");
   va_end(ap);
   return 2;
}

/* Returns 0, or the exit status for a usage error (or --help). */
static int
parse_args(int argc, char **argv, struct options *o)
{
   o->dispatches = 1;
   o->layers[0] = "VK_LAYER_ML_Graph_Emulation";
   o->layers[1] = "VK_LAYER_ML_Tensor_Emulation";
   o->layer_count = 2;
   for (int i = 1; i < argc; i++) {
      char *arg = argv[i];
      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
         fputs(usage_text, stdout);
         return -1;
      }
      if (strncmp(arg, "--", 2) != 0) {
         if (o->module)
            return usage_error("more than one module (%s)", arg);
         o->module = arg;
         continue;
      }
      if (strcmp(arg, "--profile") == 0) {
         o->profile = true;
         continue;
      }
      /* The others take a value: "--opt VALUE" or "--opt=VALUE". */
      char *value = strchr(arg, '=');
      size_t name_len = value ? (size_t)(value - arg) : strlen(arg);
      if (value)
         value++;
      else if (i + 1 < argc)
         value = argv[++i];
      else
         return usage_error("%s needs a value", arg);
#define IS(opt) (name_len == strlen(opt) && strncmp(arg, opt, name_len) == 0)
      if (IS("--entry")) {
         o->entry = value;
      } else if (IS("--input")) {
         if (o->input_count == RUN_MAX_TENSORS ||
             !parse_binding_arg(value, &o->inputs[o->input_count++], false))
            return usage_error("bad --input %s (want SET:BINDING=FILE.npy[:DTYPE])", value);
      } else if (IS("--output")) {
         if (o->output_count == RUN_MAX_TENSORS ||
             !parse_binding_arg(value, &o->outputs[o->output_count++], true))
            return usage_error("bad --output %s (want SET:BINDING=FILE.npy[:DTYPE[:SHAPE]])",
                               value);
      } else if (IS("--constant")) {
         if (o->constant_count == RUN_MAX_CONSTANTS ||
             !parse_constant_arg(value, &o->constants[o->constant_count++]))
            return usage_error("bad --constant %s (want ID=FILE.npy[:DTYPE])", value);
      } else if (IS("--dispatches")) {
         if (!parse_u32(value, value + strlen(value), &o->dispatches) || o->dispatches == 0)
            return usage_error("bad --dispatches %s (want a count >= 1)", value);
      } else if (IS("--profile-json")) {
         o->profile = true;
         o->profile_json = value;
      } else if (IS("--layers")) {
         free(o->layer_list);
         o->layer_list = strdup(value);
         if (!o->layer_list)
            return usage_error("out of memory");
         o->layer_count = 0;
         for (char *tok = strtok(o->layer_list, ",:"); tok; tok = strtok(NULL, ",:")) {
            if (o->layer_count == MAX_LAYERS)
               return usage_error("more than 8 layers in --layers %s", value);
            o->layers[o->layer_count++] = tok;
         }
      } else {
         return usage_error("unknown option %s", arg);
      }
#undef IS
   }
   if (!o->module && (o->entry || o->input_count || o->output_count || o->constant_count ||
                      o->profile_json))
      return usage_error("%s", "--entry, --input, --output, --constant and --profile-json need "
                               "a MODULE");
   return 0;
}

/* ---- timings and profile ------------------------------------------------------- */

struct profile {
   char *json;            /* the layer's profile property, or NULL */
   const char *json_path; /* --profile-json */
};

static struct profile profile_state;

/* graph_run's after_dispatch hook: the graph layer's profile property
 * (VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON, include/vmel_graph.h), if it lists it. */
static void
collect_profile(const struct graph_device *gd, VkPipeline pipeline, void *user)
{
   struct profile *p = user;
   PFN_vkGetDataGraphPipelineAvailablePropertiesARM avail =
      (PFN_vkGetDataGraphPipelineAvailablePropertiesARM)vkGetDeviceProcAddr(
         gd->device, "vkGetDataGraphPipelineAvailablePropertiesARM");
   PFN_vkGetDataGraphPipelinePropertiesARM get =
      (PFN_vkGetDataGraphPipelinePropertiesARM)vkGetDeviceProcAddr(
         gd->device, "vkGetDataGraphPipelinePropertiesARM");
   VkDataGraphPipelineInfoARM info = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                      .dataGraphPipeline = pipeline};
   /* The layer collects timestamps when the application waits. */
   vkDeviceWaitIdle(gd->device);
   uint32_t n = 0;
   if (!avail || !get || avail(gd->device, &info, &n, NULL) != VK_SUCCESS || n == 0)
      return;
   VkDataGraphPipelinePropertyARM *props = calloc(n, sizeof(*props));
   if (!props || avail(gd->device, &info, &n, props) < 0) {
      free(props);
      return;
   }
   bool listed = false;
   for (uint32_t i = 0; i < n; i++)
      listed |= props[i] == VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON;
   free(props);
   VkDataGraphPipelinePropertyQueryResultARM r = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
      .property = VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON};
   if (!listed || get(gd->device, &info, 1, &r) != VK_SUCCESS || !r.isText)
      return;
   char *text = malloc(r.dataSize + 1);
   if (!text)
      return;
   r.pData = text;
   if (get(gd->device, &info, 1, &r) != VK_SUCCESS) {
      free(text);
      return;
   }
   text[r.dataSize] = 0;
   p->json = text;
}

/* The "by_operator" part of the profile ({"<op>": {"stages": N, "ns": M}, ...}) as a table;
 * false if the text is not in that form. */
static bool
print_profile_table(const char *json, const char *indent)
{
   struct {
      char name[32];
      unsigned long long stages, ns;
   } ops[64];
   unsigned count = 0;
   unsigned long long total = 0;
   const char *d = strstr(json, "\"dispatches\":");
   const char *p = strstr(json, "\"by_operator\":");
   if (!d || !p || !(p = strchr(p, '{')))
      return false;
   unsigned long long dispatches = strtoull(d + strlen("\"dispatches\":"), NULL, 10);
   for (p++;;) {
      p += strspn(p, " \t\r\n,");
      if (*p == '}')
         break;
      const char *name_end = *p == '"' ? strchr(p + 1, '"') : NULL;
      const char *obj_end = name_end ? strchr(name_end, '}') : NULL;
      const char *stages = name_end ? strstr(name_end, "\"stages\":") : NULL;
      const char *ns = name_end ? strstr(name_end, "\"ns\":") : NULL;
      if (count == 64 || !obj_end || !stages || !ns || stages > obj_end || ns > obj_end)
         return false;
      snprintf(ops[count].name, sizeof(ops[count].name), "%.*s", (int)(name_end - p - 1), p + 1);
      ops[count].stages = strtoull(stages + strlen("\"stages\":"), NULL, 10);
      ops[count].ns = strtoull(ns + strlen("\"ns\":"), NULL, 10);
      total += ops[count++].ns;
      p = obj_end + 1;
   }
   if (dispatches == 0) {
      printf("%sprofile: no dispatch sampled (the graph layer listed the property, with no "
             "timestamps in it)\n",
             indent);
      return true;
   }
   printf("%sprofile (VMEL_GRAPH_PROFILING=1), GPU time over %llu sampled dispatch(es):\n", indent,
          dispatches);
   printf("%s  %-16s %8s %14s %14s %7s\n", indent, "operator", "stages", "total ms",
          "per dispatch", "share");
   for (unsigned i = 0; i < count; i++)
      printf("%s  %-16s %8llu %14.3f %14.3f %6.1f%%\n", indent, ops[i].name, ops[i].stages,
             (double)ops[i].ns * 1e-6, (double)ops[i].ns * 1e-6 / (double)dispatches,
             total ? 100.0 * (double)ops[i].ns / (double)total : 0.0);
   return true;
}

void
vmel_run_prepare(const struct vmel_run_ctx *ctx, struct graph_run *run)
{
   run->dispatches = ctx->dispatches;
   if (ctx->profile) {
      free(profile_state.json);
      profile_state = (struct profile){.json_path = ctx->profile_json};
      run->after_dispatch = collect_profile;
      run->user = &profile_state;
   }
}

void
vmel_run_print_timing(const struct graph_run *run, const char *indent)
{
   const struct graph_timing *t = &run->timing;
   uint32_t n = run->dispatches ? run->dispatches : 1;
   printf("%spipeline creation %10.3f ms\n", indent, t->create_ms);
   printf("%ssession set-up    %10.3f ms\n", indent, t->session_ms);
   if (n == 1)
      printf("%sdispatch          %10.3f ms (wall time, submit to fence)\n", indent,
             t->dispatch_ms);
   else
      printf("%sdispatch          %10.3f ms mean of %u (min %.3f, max %.3f; wall time, submit "
             "to fence)\n",
             indent, t->dispatch_ms, n, t->dispatch_min_ms, t->dispatch_max_ms);
   if (run->after_dispatch != collect_profile)
      return;
   struct profile *p = run->user;
   if (!p->json) {
      printf("%sprofile: unavailable (the graph layer lists no profile property for this "
             "pipeline)\n",
             indent);
      return;
   }
   if (!print_profile_table(p->json, indent))
      printf("%sprofile (VMEL_GRAPH_PROFILING=1):\n%s\n", indent, p->json);
   if (p->json_path) {
      FILE *f = fopen(p->json_path, "w");
      bool ok = f && fputs(p->json, f) >= 0;
      if (f)
         ok = fclose(f) == 0 && ok;
      if (ok)
         printf("%swrote %s (the profile property)\n", indent, p->json_path);
      else
         fprintf(stderr, "vmel-run: cannot write %s\n", p->json_path);
   }
   free(p->json);
   p->json = NULL;
}

/* ---- binding the module's interface to files --------------------------------------- */

static const char *
decl_str(const struct run_tensor_decl *d, char *buf, size_t len)
{
   char elem[16], shape[64];
   if (d->shaped)
      run_shape_str(d->rank, d->dims, shape, sizeof(shape));
   else if (d->ranked)
      snprintf(shape, sizeof(shape), "[rank %u]", d->rank);
   else
      snprintf(shape, sizeof(shape), "[unranked]");
   snprintf(buf, len, "%s %s", run_elem_name(&d->elem, elem, sizeof(elem)), shape);
   return buf;
}

/* The dtype to bind: the command line's, else the one whose .npy dtype the file has, else
 * the element type's default. */
static bool
choose_dtype(const char *what, const struct run_tensor_decl *d, const struct file_arg *a,
             const struct npy_array *npy, enum run_dtype *dtype)
{
   char desc[96];
   decl_str(d, desc, sizeof(desc));
   if (a && a->has_dtype) {
      if (!run_elem_accepts(&d->elem, a->dtype)) {
         fprintf(stderr, "vmel-run: %s is %s; dtype %s does not fit it\n", what, desc,
                 run_dtype_name(a->dtype));
         return false;
      }
      if (npy && npy->dtype != run_dtype_npy(a->dtype)) {
         fprintf(stderr, "vmel-run: %s: %s holds %s data; dtype %s needs %s\n", what, a->path,
                 npy_dtype_descr(npy->dtype), run_dtype_name(a->dtype),
                 npy_dtype_descr(run_dtype_npy(a->dtype)));
         return false;
      }
      *dtype = a->dtype;
      return true;
   }
   if (npy) {
      for (unsigned i = 0; i < RUN_DTYPE_COUNT; i++) {
         if (run_elem_accepts(&d->elem, (enum run_dtype)i) &&
             run_dtype_npy((enum run_dtype)i) == npy->dtype) {
            *dtype = (enum run_dtype)i;
            return true;
         }
      }
      enum run_dtype want = RUN_FP32;
      run_elem_default(&d->elem, &want);
      fprintf(stderr, "vmel-run: %s is %s, which takes %s data; %s holds %s\n", what, desc,
              npy_dtype_descr(run_dtype_npy(want)), a->path, npy_dtype_descr(npy->dtype));
      return false;
   }
   if (!run_elem_default(&d->elem, dtype)) {
      fprintf(stderr, "vmel-run: %s has element type %s, which vmel-run cannot bind\n", what,
              desc);
      return false;
   }
   return true;
}

/* The shape to bind: the module's where it is a constant, checked against the file's or the
 * command line's; else theirs. */
static bool
choose_shape(const char *what, const struct run_tensor_decl *d, uint32_t rank,
             const int64_t *dims, bool given, uint32_t *out_rank, int64_t *out_dims)
{
   char a[64], b[64];
   if (given && (d->shaped || (d->ranked && rank != d->rank))) {
      bool same = rank == d->rank;
      for (uint32_t i = 0; same && i < rank; i++)
         same = dims[i] == d->dims[i];
      if (!same) {
         fprintf(stderr, "vmel-run: %s has shape %s in the module, not %s\n", what,
                 d->shaped ? run_shape_str(d->rank, d->dims, a, sizeof(a)) : "of another rank",
                 run_shape_str(rank, dims, b, sizeof(b)));
         return false;
      }
   }
   if (d->shaped) {
      *out_rank = d->rank;
      memcpy(out_dims, d->dims, d->rank * sizeof(*dims));
      return true;
   }
   if (!given) {
      fprintf(stderr,
              "vmel-run: %s has no constant shape in the module; give it on the command line\n",
              what);
      return false;
   }
   if (rank == 0 || rank > RUN_MAX_RANK) {
      fprintf(stderr, "vmel-run: %s: rank %u is not 1..%d\n", what, rank, RUN_MAX_RANK);
      return false;
   }
   for (uint32_t i = 0; i < rank; i++) {
      if (dims[i] < 1) {
         fprintf(stderr, "vmel-run: %s: dimension %u is %lld\n", what, i, (long long)dims[i]);
         return false;
      }
   }
   *out_rank = rank;
   memcpy(out_dims, dims, rank * sizeof(*dims));
   return true;
}

/* What one command-line run holds, freed by bound_finish(). */
struct bound {
   struct npy_array files[RUN_MAX_TENSORS + RUN_MAX_CONSTANTS];
   uint32_t file_count;
   struct graph_tensor inputs[RUN_MAX_TENSORS], outputs[RUN_MAX_TENSORS];
   struct graph_constant constants[RUN_MAX_CONSTANTS];
   enum run_dtype output_dtypes[RUN_MAX_TENSORS];
};

static void
bound_finish(struct bound *b, uint32_t output_count)
{
   for (uint32_t i = 0; i < b->file_count; i++)
      npy_array_finish(&b->files[i]);
   for (uint32_t i = 0; i < output_count; i++)
      free(b->outputs[i].data);
}

static struct file_arg *
find_binding(struct file_arg *args, uint32_t count, const struct run_tensor_decl *d)
{
   for (uint32_t i = 0; i < count; i++) {
      if (args[i].set == d->set && args[i].binding == d->binding) {
         args[i].used = true;
         return &args[i];
      }
   }
   return NULL;
}

/* Reads a file and picks dtype and shape for a tensor or constant. */
static bool
bind_file(struct bound *b, const char *what, const struct run_tensor_decl *d,
          const struct file_arg *a, VkFormat *format, uint32_t *rank, int64_t *dims,
          const void **data)
{
   char err[512];
   struct npy_array *npy = &b->files[b->file_count];
   if (!npy_read_file(a->path, npy, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s: %s\n", what, err);
      return false;
   }
   b->file_count++;
   enum run_dtype dtype;
   if (!choose_dtype(what, d, a, npy, &dtype) ||
       !choose_shape(what, d, npy->rank, npy->shape, true, rank, dims))
      return false;
   *format = run_dtype_format(dtype);
   *data = npy->data;
   return true;
}

static void
print_decl(const char *kind, uint32_t index, const struct run_tensor_decl *d, bool is_constant,
           const char *arrow, const char *path)
{
   char desc[96], where[40];
   if (is_constant)
      snprintf(where, sizeof(where), "id %u", d->constant_id);
   else
      snprintf(where, sizeof(where), "set %u binding %u", d->set, d->binding);
   printf("  %-8s %2u  %-18s %-26s %-20s %s %s\n", kind, index, where,
          decl_str(d, desc, sizeof(desc)), d->name, arrow, path ? path : "(not written)");
}

static bool
bind_all(struct options *o, const struct run_module *m, struct bound *b)
{
   char what[64];
   for (uint32_t i = 0; i < m->input_count; i++) {
      const struct run_tensor_decl *d = &m->inputs[i];
      struct graph_tensor *t = &b->inputs[i];
      snprintf(what, sizeof(what), "input %u (set %u, binding %u)", i, d->set, d->binding);
      struct file_arg *a = find_binding(o->inputs, o->input_count, d);
      if (!a) {
         char desc[96];
         fprintf(stderr, "vmel-run: %s, %s, has no --input %u:%u=FILE.npy\n", what,
                 decl_str(d, desc, sizeof(desc)), d->set, d->binding);
         return false;
      }
      const void *data;
      if (!bind_file(b, what, d, a, &t->format, &t->rank, t->dims, &data))
         return false;
      t->set = d->set;
      t->binding = d->binding;
      t->data = (void *)data;
      t->size = b->files[b->file_count - 1].size;
      print_decl("input", i, d, false, "<-", a->path);
   }
   for (uint32_t i = 0; i < m->constant_count; i++) {
      const struct run_tensor_decl *d = &m->constants[i];
      struct graph_constant *c = &b->constants[i];
      snprintf(what, sizeof(what), "graph constant %u", d->constant_id);
      struct file_arg *a = NULL;
      for (uint32_t k = 0; k < o->constant_count && !a; k++) {
         if (o->constants[k].id == d->constant_id)
            a = &o->constants[k];
      }
      if (!a) {
         char desc[96];
         fprintf(stderr, "vmel-run: %s, %s, has no --constant %u=FILE.npy\n", what,
                 decl_str(d, desc, sizeof(desc)), d->constant_id);
         return false;
      }
      a->used = true;
      c->id = d->constant_id;
      if (!bind_file(b, what, d, a, &c->format, &c->rank, c->dims, &c->data))
         return false;
      print_decl("constant", i, d, true, "<-", a->path);
   }
   for (uint32_t i = 0; i < m->output_count; i++) {
      const struct run_tensor_decl *d = &m->outputs[i];
      struct graph_tensor *t = &b->outputs[i];
      snprintf(what, sizeof(what), "output %u (set %u, binding %u)", i, d->set, d->binding);
      struct file_arg *a = find_binding(o->outputs, o->output_count, d);
      if (!choose_dtype(what, d, a, NULL, &b->output_dtypes[i]) ||
          !choose_shape(what, d, a ? a->rank : 0, a ? a->dims : NULL, a && a->has_shape,
                        &t->rank, t->dims))
         return false;
      t->set = d->set;
      t->binding = d->binding;
      t->format = run_dtype_format(b->output_dtypes[i]);
      print_decl("output", i, d, false, "->", a ? a->path : NULL);
   }
   /* Every file named must have found its tensor. */
   for (uint32_t i = 0; i < o->input_count + o->output_count; i++) {
      bool input = i < o->input_count;
      const struct file_arg *a = input ? &o->inputs[i] : &o->outputs[i - o->input_count];
      if (!a->used) {
         fprintf(stderr, "vmel-run: graph \"%s\" has no %s at set %u, binding %u (%s)\n",
                 m->entry, input ? "input" : "output", a->set, a->binding, a->path);
         return false;
      }
   }
   for (uint32_t i = 0; i < o->constant_count; i++) {
      if (!o->constants[i].used) {
         fprintf(stderr, "vmel-run: graph \"%s\" uses no graph constant %u (%s)\n", m->entry,
                 o->constants[i].id, o->constants[i].path);
         return false;
      }
   }
   return true;
}

static bool
write_outputs(const struct options *o, const struct run_module *m, struct bound *b)
{
   bool ok = true;
   for (uint32_t i = 0; i < m->output_count; i++) {
      const struct graph_tensor *t = &b->outputs[i];
      const struct file_arg *a = NULL;
      for (uint32_t k = 0; k < o->output_count && !a; k++) {
         if (o->outputs[k].set == t->set && o->outputs[k].binding == t->binding)
            a = &o->outputs[k];
      }
      if (!a)
         continue;
      struct npy_array arr = {.dtype = run_dtype_npy(b->output_dtypes[i]),
                              .rank = t->rank,
                              .data = t->data,
                              .size = t->size};
      memcpy(arr.shape, t->dims, t->rank * sizeof(t->dims[0]));
      char err[512], shape[64];
      if (!npy_write_file(a->path, &arr, err, sizeof(err))) {
         fprintf(stderr, "vmel-run: output %u: %s\n", i, err);
         ok = false;
         continue;
      }
      printf("  wrote %s (%s %s)\n", a->path, run_dtype_name(b->output_dtypes[i]),
             run_shape_str(t->rank, t->dims, shape, sizeof(shape)));
   }
   return ok;
}

/* A command-line run: the module, its interface and the files bound to it. */
struct module_run {
   uint32_t *words;
   size_t word_count;
   struct run_module module;
   struct bound bound;
};

static void
module_run_destroy(struct module_run *mr)
{
   if (!mr)
      return;
   bound_finish(&mr->bound, mr->module.output_count);
   free(mr->words);
   free(mr);
}

/* Everything that needs no Vulkan: load the module, read its interface, read the files. */
static struct module_run *
module_run_create(struct options *o)
{
   char err[512];
   struct module_run *mr = calloc(1, sizeof(*mr));
   if (!mr) {
      fprintf(stderr, "vmel-run: out of memory\n");
      return NULL;
   }
   if (!run_module_load(o->module, &mr->words, &mr->word_count, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s\n", err);
      module_run_destroy(mr);
      return NULL;
   }
   if (!run_module_read(mr->words, mr->word_count, o->entry, &mr->module, err, sizeof(err))) {
      fprintf(stderr, "vmel-run: %s: %s\n", o->module, err);
      module_run_destroy(mr);
      return NULL;
   }
   const struct run_module *m = &mr->module;
   printf("Graph \"%s\" of %s: %u input(s), %u output(s), %u graph constant(s)\n", m->entry,
          o->module, m->input_count, m->output_count, m->constant_count);
   if (!bind_all(o, m, &mr->bound)) {
      module_run_destroy(mr);
      return NULL;
   }
   return mr;
}

static int
module_run_execute(const struct vmel_run_ctx *ctx, const struct options *o, struct module_run *mr)
{
   const struct run_module *m = &mr->module;
   struct graph_run run = {
      .words = mr->words,
      .word_count = mr->word_count,
      .entry_point = m->entry,
      .inputs = mr->bound.inputs,
      .input_count = m->input_count,
      .outputs = mr->bound.outputs,
      .output_count = m->output_count,
      .constants = mr->bound.constants,
      .constant_count = m->constant_count,
   };
   vmel_run_prepare(ctx, &run);
   VkResult r = graph_run(&ctx->gd, &run);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "vmel-run: %s\n", run.log);
      if (run.create_result != VK_SUCCESS)
         fprintf(stderr, "vmel-run: the graph layer refused the pipeline; its log above says "
                         "why (VMEL_GRAPH_SEVERITY=info says more)\n");
      return 1;
   }
   vmel_run_print_timing(&run, "  ");
   return write_outputs(o, m, &mr->bound) ? 0 : 1;
}

/* ---- instance and device ------------------------------------------------------------- */

/* The first device with VK_ARM_data_graph (through the layers). */
static VkPhysicalDevice
pick_device(VkInstance instance, VkPhysicalDeviceProperties *props)
{
   uint32_t n = 0;
   vkEnumeratePhysicalDevices(instance, &n, NULL);
   VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof(*pds));
   if (!pds)
      return VK_NULL_HANDLE;
   vkEnumeratePhysicalDevices(instance, &n, pds);
   VkPhysicalDevice pick = VK_NULL_HANDLE;
   for (uint32_t i = 0; i < n && !pick; i++) {
      if (graph_has_extension(pds[i], VK_ARM_DATA_GRAPH_EXTENSION_NAME))
         pick = pds[i];
   }
   free(pds);
   if (pick)
      vkGetPhysicalDeviceProperties(pick, props);
   else
      fprintf(stderr,
              "vmel-run: no device offers VK_ARM_data_graph (%u device(s)). The graph layer "
              "must be enabled above the tensor layer; vmel-info says more.\n",
              n);
   return pick;
}

int
main(int argc, char **argv)
{
   for (int i = 1; i < argc; i++)
      if (strcmp(argv[i], "--optical-flow") == 0)
         return vmel_run_optical_flow(argc, argv);
   struct options *o = calloc(1, sizeof(*o));
   if (!o) {
      fprintf(stderr, "vmel-run: out of memory\n");
      return 1;
   }
   int status = parse_args(argc, argv, o);
   if (status) {
      free(o->layer_list);
      free(o);
      return status < 0 ? 0 : status;
   }
   /* Before the instance: the graph layer reads it when it loads. */
   if (o->profile)
      setenv("VMEL_GRAPH_PROFILING", "1", 1);
   setvbuf(stdout, NULL, _IOLBF, 0);
   struct module_run *mr = NULL;
   if (o->module && !(mr = module_run_create(o))) {
      free(o->layer_list);
      free(o);
      return 1;
   }

   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "vmel-run",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = o->layer_count,
                               .ppEnabledLayerNames = o->layers};
   VkInstance instance;
   VkResult r = vkCreateInstance(&ici, NULL, &instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "vmel-run: vkCreateInstance failed (%d). Are the layers on VK_LAYER_PATH "
                      "or installed? Layers asked for:",
              r);
      for (uint32_t i = 0; i < o->layer_count; i++)
         fprintf(stderr, " %s", o->layers[i]);
      fprintf(stderr, "\n");
      module_run_destroy(mr);
      free(o->layer_list);
      free(o);
      return 1;
   }
   struct vmel_run_ctx ctx = {
      .dispatches = o->dispatches, .profile = o->profile, .profile_json = o->profile_json};
   VkPhysicalDeviceProperties props;
   VkPhysicalDevice pd = pick_device(instance, &props);
   status = 1;
   if (pd && (r = graph_device_create(instance, pd, &ctx.gd)) != VK_SUCCESS)
      fprintf(stderr, "vmel-run: creating a device with VK_ARM_data_graph failed (%d)\n", r);
   if (pd && r == VK_SUCCESS) {
      printf("vmel-run on %s, through", props.deviceName);
      for (uint32_t i = 0; i < o->layer_count; i++)
         printf("%s %s", i ? "," : "", o->layers[i]);
      printf("\n");
      if (mr)
         status = module_run_execute(&ctx, o, mr);
      else
         status = vmel_run_examples(&ctx) ? 1 : 0;
      graph_device_destroy(&ctx.gd);
   }
   vkDestroyInstance(instance, NULL);
   module_run_destroy(mr);
   free(o->layer_list);
   free(o);
   return status;
}
