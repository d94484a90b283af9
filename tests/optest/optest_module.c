/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * opt_module_text() (optest.h): a [graph] block made into a whole module. The block's lines are
 * sorted into the module's sections by their opcode (OpName and the like to debug, OpDecorate
 * to annotations, OpExtInst and OpCompositeExtract to the graph body, the rest to the global
 * declarations), and every name of the documented families that the block uses and does not
 * define is declared for it (docs/optests.md "Names the runner declares"): element types,
 * scalar constants, shapes and tensor types, the TOSA enumerant constants, the graph inputs
 * %inK, graph constants %constK and the interface. A [module] block is returned as written.
 */
#include "optest.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output with a line map -------------------------------------------------------------- */

struct out {
   char *p;
   size_t n, cap;
   unsigned *map;
   size_t lines, map_cap;
   bool failed;
};

static void out_line(struct out *o, unsigned src, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends one line (fmt must not contain a newline) from file line src (0: generated). */
static void
out_line(struct out *o, unsigned src, const char *fmt, ...)
{
   if (o->failed)
      return;
   va_list ap;
   va_start(ap, fmt);
   int len = vsnprintf(NULL, 0, fmt, ap);
   va_end(ap);
   if (len < 0) {
      o->failed = true;
      return;
   }
   if (o->n + (size_t)len + 2 > o->cap) {
      size_t cap = o->cap ? o->cap * 2 : 8192;
      while (cap < o->n + (size_t)len + 2)
         cap *= 2;
      char *q = realloc(o->p, cap);
      if (!q) {
         o->failed = true;
         return;
      }
      o->p = q;
      o->cap = cap;
   }
   if (o->lines == o->map_cap) {
      size_t cap = o->map_cap ? o->map_cap * 2 : 256;
      unsigned *m = realloc(o->map, cap * sizeof(*m));
      if (!m) {
         o->failed = true;
         return;
      }
      o->map = m;
      o->map_cap = cap;
   }
   va_start(ap, fmt);
   vsnprintf(o->p + o->n, (size_t)len + 1, fmt, ap);
   va_end(ap);
   o->n += (size_t)len;
   o->p[o->n++] = '\n';
   o->p[o->n] = '\0';
   o->map[o->lines++] = src;
}

/* ---- the user's lines ---------------------------------------------------------------------- */

enum section { SEC_CAPABILITY, SEC_DEBUG, SEC_ANNOTATION, SEC_GLOBAL, SEC_BODY, SEC_COUNT };

struct uline {
   const char *s; /* not NUL-terminated */
   size_t len;
   unsigned src;
   enum section sec;
};

struct names {
   char **v;
   size_t n, cap;
};

static bool
names_has(const struct names *ns, const char *s, size_t len)
{
   for (size_t i = 0; i < ns->n; i++) {
      if (strlen(ns->v[i]) == len && memcmp(ns->v[i], s, len) == 0)
         return true;
   }
   return false;
}

static bool
names_add(struct names *ns, const char *s, size_t len)
{
   if (names_has(ns, s, len))
      return true;
   if (ns->n == ns->cap) {
      size_t cap = ns->cap ? ns->cap * 2 : 64;
      char **v = realloc(ns->v, cap * sizeof(*v));
      if (!v)
         return false;
      ns->v = v;
      ns->cap = cap;
   }
   char *c = malloc(len + 1);
   if (!c)
      return false;
   memcpy(c, s, len);
   c[len] = '\0';
   ns->v[ns->n++] = c;
   return true;
}

static void
names_free(struct names *ns)
{
   for (size_t i = 0; i < ns->n; i++)
      free(ns->v[i]);
   free(ns->v);
}

static bool
id_char(char c)
{
   return isalnum((unsigned char)c) || c == '_';
}

/* The opcode word of a line ("OpDecorate" in "OpDecorate %x ..." or "%x = OpConstant ..."). */
static void
line_opcode(const char *s, size_t len, const char **op, size_t *oplen)
{
   const char *e = s + len, *c = s;
   while (c < e && isspace((unsigned char)*c))
      c++;
   if (c < e && *c == '%') {
      while (c < e && *c != '=')
         c++;
      if (c < e)
         c++;
      while (c < e && isspace((unsigned char)*c))
         c++;
   }
   *op = c;
   while (c < e && !isspace((unsigned char)*c))
      c++;
   *oplen = (size_t)(c - *op);
}

static bool
op_is(const char *op, size_t len, const char *name)
{
   return strlen(name) == len && memcmp(op, name, len) == 0;
}

static enum section
classify(const char *op, size_t len)
{
   if (op_is(op, len, "OpCapability") || op_is(op, len, "OpExtension"))
      return SEC_CAPABILITY;
   if (op_is(op, len, "OpName") || op_is(op, len, "OpMemberName") || op_is(op, len, "OpString") ||
       op_is(op, len, "OpSource"))
      return SEC_DEBUG;
   if (len >= 10 && memcmp(op, "OpDecorate", 10) == 0)
      return SEC_ANNOTATION;
   if (op_is(op, len, "OpMemberDecorate"))
      return SEC_ANNOTATION;
   if (op_is(op, len, "OpExtInst") || op_is(op, len, "OpCompositeExtract"))
      return SEC_BODY;
   return SEC_GLOBAL;
}

/* Splits text into lines (skipping blank and ';' comment lines), records definitions and uses. */
static bool
scan_lines(const char *text, unsigned first_line, struct uline **lines, size_t *count, size_t *cap,
           struct names *defined, struct names *used, bool *replicate)
{
   unsigned src = first_line;
   for (const char *s = text; s && *s; src++) {
      const char *nl = strchr(s, '\n');
      size_t len = nl ? (size_t)(nl - s) : strlen(s);
      const char *c = s;
      while (c < s + len && isspace((unsigned char)*c))
         c++;
      if (c < s + len && *c != ';' && *c != '#') {
         if (*count == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            struct uline *l = realloc(*lines, nc * sizeof(*l));
            if (!l)
               return false;
            *lines = l;
            *cap = nc;
         }
         const char *op;
         size_t oplen;
         line_opcode(s, len, &op, &oplen);
         (*lines)[(*count)++] = (struct uline){s, len, src, classify(op, oplen)};
         if (op_is(op, oplen, "OpConstantCompositeReplicateEXT"))
            *replicate = true;
         /* Definitions: "%x =" at the start; uses: every other %name outside strings. */
         bool in_string = false;
         for (const char *p = s; p < s + len; p++) {
            if (*p == '"')
               in_string = !in_string;
            if (in_string)
               continue;
            if (*p == ';')
               break;
            if (*p != '%')
               continue;
            const char *b = p + 1, *e = b;
            while (e < s + len && id_char(*e))
               e++;
            const char *q = e;
            while (q < s + len && isspace((unsigned char)*q))
               q++;
            bool is_def = p == c && q < s + len && *q == '=';
            if (e > b && !names_add(is_def ? defined : used, b, (size_t)(e - b)))
               return false;
            p = e - 1;
         }
      }
      s = nl ? nl + 1 : NULL;
   }
   return true;
}

/* ---- declarations ------------------------------------------------------------------------- */

struct elem {
   const char *name;
   const char *decl;
   enum ref_dtype dtype;
};

static const struct elem elems[] = {
    {"bool", "OpTypeBool", REF_DTYPE_BOOL},
    {"i8", "OpTypeInt 8 0", REF_DTYPE_I8},
    {"i16", "OpTypeInt 16 0", REF_DTYPE_I16},
    {"i32", "OpTypeInt 32 0", REF_DTYPE_I32},
    {"i48", "OpTypeInt 64 0", REF_DTYPE_I48},
    {"f16", "OpTypeFloat 16", REF_DTYPE_FP16},
    {"bf16", "OpTypeFloat 16 BFloat16KHR", REF_DTYPE_BF16},
    {"f32", "OpTypeFloat 32", REF_DTYPE_FP32},
    {"e4m3", "OpTypeFloat 8 Float8E4M3EXT", REF_DTYPE_FP8E4M3},
    {"e5m2", "OpTypeFloat 8 Float8E5M2EXT", REF_DTYPE_FP8E5M2},
};
#define ELEM_COUNT (sizeof(elems) / sizeof(elems[0]))

static const struct {
   const char *name;
   int value;
} enum_consts[] = {
    {"propagate", 1},    {"ignore", 2},        {"acc_int32", 1},
    {"acc_fp16", 2},     {"acc_fp32", 3},      {"acc_int48", 4},
    {"single_round", 1}, {"inexact_round", 2}, {"double_round", 3},
};
#define ENUM_COUNT (sizeof(enum_consts) / sizeof(enum_consts[0]))

static int
elem_of_dtype(enum ref_dtype dt)
{
   for (unsigned i = 0; i < ELEM_COUNT; i++) {
      if (elems[i].dtype == dt)
         return (int)i;
   }
   return -1;
}

/* Prefix match "<elem>_" of a name; returns the element index or -1, and the rest. */
static int
elem_prefix(const char *name, const char **rest)
{
   int best = -1;
   size_t best_len = 0;
   for (unsigned i = 0; i < ELEM_COUNT; i++) {
      size_t l = strlen(elems[i].name);
      if (strncmp(name, elems[i].name, l) == 0 && name[l] == '_' && l > best_len) {
         best = (int)i;
         best_len = l;
      }
   }
   if (best >= 0)
      *rest = name + best_len + 1;
   return best;
}

struct decl {
   bool elem[ELEM_COUNT];
   bool bools;
   bool me; /* %me: Arm.MotionEngine.100 */
   bool arr[REF_MAX_RANK + 1];
   struct names i32s;    /* "i32_5", "i32_m3" */
   struct names scalars; /* other element constants */
   struct names enums;
   struct names shapes;  /* "2x3" */
   struct names tensors; /* "t_i8_2x3" */
};

static bool
parse_dims(const char *s, int64_t *dims, uint32_t *rank)
{
   *rank = 0;
   while (*s) {
      char *end;
      long long d = strtoll(s, &end, 10);
      if (end == s || d < 1 || *rank == REF_MAX_RANK || !isdigit((unsigned char)*s))
         return false;
      dims[(*rank)++] = d;
      if (*end == '\0')
         return true;
      if (*end != 'x')
         return false;
      s = end + 1;
   }
   return false;
}

static bool
need_i32(struct decl *d, int64_t v)
{
   char name[40];
   if (v < 0)
      snprintf(name, sizeof(name), "i32_m%" PRIu64, (uint64_t)0 - (uint64_t)v);
   else
      snprintf(name, sizeof(name), "i32_%" PRId64, v);
   d->elem[3] = true;
   return names_add(&d->i32s, name, strlen(name));
}

/* A tensor type by its name's parts. */
static bool
need_tensor(struct decl *d, int e, const int64_t *dims, uint32_t rank)
{
   char sh[160] = "", name[200];
   size_t n = 0;
   for (uint32_t i = 0; i < rank && n < sizeof(sh); i++)
      n += (size_t)snprintf(sh + n, sizeof(sh) - n, "%s%" PRId64, i ? "x" : "", dims[i]);
   snprintf(name, sizeof(name), "t_%s_%s", elems[e].name, sh);
   d->elem[e] = true;
   d->arr[rank] = true;
   bool ok = need_i32(d, rank) && names_add(&d->shapes, sh, strlen(sh)) &&
             names_add(&d->tensors, name, strlen(name));
   for (uint32_t i = 0; i < rank && ok; i++)
      ok = need_i32(d, dims[i]);
   return ok;
}

/* Declares a used name if it belongs to a family; unknown names are left to the assembler. */
static bool
need_name(struct decl *d, const char *name)
{
   for (unsigned i = 0; i < ELEM_COUNT; i++) {
      if (strcmp(name, elems[i].name) == 0) {
         d->elem[i] = true;
         return true;
      }
   }
   if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
      d->elem[0] = d->bools = true;
      return true;
   }
   if (strcmp(name, "me") == 0) {
      d->me = true;
      return true;
   }
   for (unsigned i = 0; i < ENUM_COUNT; i++) {
      if (strcmp(name, enum_consts[i].name) == 0) {
         d->elem[3] = true;
         return names_add(&d->enums, name, strlen(name));
      }
   }
   const char *rest;
   if (strncmp(name, "t_", 2) == 0) {
      int e = elem_prefix(name + 2, &rest);
      int64_t dims[REF_MAX_RANK];
      uint32_t rank;
      if (e >= 0 && parse_dims(rest, dims, &rank))
         return need_tensor(d, e, dims, rank);
      return true;
   }
   int e = elem_prefix(name, &rest);
   if (e < 0 || e == 0)
      return true;
   bool is_float = ref_dtype_is_float(elems[e].dtype);
   if (is_float) {
      if (rest[0] != 'x' || !rest[1] ||
          strspn(rest + 1, "0123456789abcdefABCDEF") != strlen(rest + 1))
         return true;
   } else {
      const char *digits = rest[0] == 'm' ? rest + 1 : rest;
      if (!digits[0] || strspn(digits, "0123456789") != strlen(digits))
         return true;
      if (e == 3) {
         d->elem[3] = true;
         return names_add(&d->i32s, name, strlen(name));
      }
   }
   d->elem[e] = true;
   return names_add(&d->scalars, name, strlen(name));
}

/* The literal of a float bit pattern that the assembler encodes back to exactly those bits:
 * the SPIRV-Tools form (exponent one past the largest) for an all-ones exponent field, else
 * the exact value as a C99 hex float. */
static void
float_literal(enum ref_dtype dt, uint64_t bits, char *buf, size_t size)
{
   unsigned width = (unsigned)ref_dtype_size(dt) * 8;
   unsigned ebits = dt == REF_DTYPE_FP16      ? 5
                    : dt == REF_DTYPE_FP8E4M3 ? 4
                    : dt == REF_DTYPE_FP8E5M2 ? 5
                                              : 8;
   unsigned mbits = width - 1 - ebits;
   uint64_t mant = bits & ((UINT64_C(1) << mbits) - 1);
   uint64_t field = (bits >> mbits) & ((UINT64_C(1) << ebits) - 1);
   bool neg = (bits >> (width - 1)) & 1;
   int bias = (1 << (ebits - 1)) - 1;
   if (field == (UINT64_C(1) << ebits) - 1) {
      unsigned digits = (mbits + 3) / 4;
      uint64_t m = mant << (digits * 4 - mbits);
      if (!m) {
         snprintf(buf, size, "%s0x1p+%d", neg ? "-" : "", bias + 1);
         return;
      }
      while ((m & 0xf) == 0) {
         m >>= 4;
         digits--;
      }
      snprintf(buf, size, "%s0x1.%0*" PRIx64 "p+%d", neg ? "-" : "", (int)digits, m, bias + 1);
      return;
   }
   double v = field ? ldexp((double)(mant | (UINT64_C(1) << mbits)), (int)field - bias - (int)mbits)
                    : ldexp((double)mant, 1 - bias - (int)mbits);
   snprintf(buf, size, "%s%a", neg ? "-" : "", v);
}

/* "OpConstant %<elem> <literal>" for a scalar constant name; false if out of range. */
static bool
scalar_decl(const char *name, char *buf, size_t size)
{
   const char *rest;
   int e = elem_prefix(name, &rest);
   enum ref_dtype dt = elems[e].dtype;
   unsigned width = (unsigned)ref_dtype_size(dt) * 8;
   if (ref_dtype_is_float(dt)) {
      uint64_t bits = strtoull(rest + 1, NULL, 16);
      if (strlen(rest + 1) > width / 4 || (width < 64 && bits >> width))
         return false;
      char lit[64];
      float_literal(dt, bits, lit, sizeof(lit));
      snprintf(buf, size, "OpConstant %%%s %s", elems[e].name, lit);
      return true;
   }
   bool neg = rest[0] == 'm';
   unsigned long long mag = strtoull(neg ? rest + 1 : rest, NULL, 10);
   unsigned bits = ref_dtype_int_bits(dt);
   unsigned long long lim = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
   if (strlen(neg ? rest + 1 : rest) > 20 || mag > lim || (neg && mag > (lim + 1) / 2))
      return false;
   if (!neg) {
      snprintf(buf, size, "OpConstant %%%s %llu", elems[e].name, mag);
   } else {
      uint64_t pattern =
          ((uint64_t)0 - (uint64_t)mag) & (width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1);
      snprintf(buf, size, "OpConstant %%%s 0x%" PRIx64, elems[e].name, pattern);
   }
   return true;
}

static void
decl_free(struct decl *d)
{
   names_free(&d->i32s);
   names_free(&d->scalars);
   names_free(&d->enums);
   names_free(&d->shapes);
   names_free(&d->tensors);
}

static int
cmp_i32_names(const void *a, const void *b)
{
   const char *x = *(const char *const *)a + 4, *y = *(const char *const *)b + 4;
   long long vx = x[0] == 'm' ? -strtoll(x + 1, NULL, 10) : strtoll(x, NULL, 10);
   long long vy = y[0] == 'm' ? -strtoll(y + 1, NULL, 10) : strtoll(y, NULL, 10);
   return (vx > vy) - (vx < vy);
}

/* The tensor type name of a declaration ("t_i8_2x3"). */
static void
tensor_name(const struct opt_tensor *t, char *buf, size_t size)
{
   int e = elem_of_dtype(t->dtype);
   size_t n = (size_t)snprintf(buf, size, "t_%s_", elems[e].name);
   for (uint32_t i = 0; i < t->rank && n < size; i++)
      n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, i ? "x" : "", t->shape[i]);
}

static bool
need_decl_tensor(struct decl *d, const struct opt_tensor *t)
{
   return need_tensor(d, elem_of_dtype(t->dtype), t->shape, t->rank);
}

/* ---- printing ------------------------------------------------------------------------------ */

static void
print_user(struct out *o, const struct uline *l, size_t n, enum section sec)
{
   for (size_t i = 0; i < n; i++) {
      if (l[i].sec == sec)
         out_line(o, l[i].src, "%.*s", (int)l[i].len, l[i].s);
   }
}

static void
print_head(struct out *o, const struct decl *d, bool replicate)
{
   out_line(o, 0, "OpCapability Shader");
   out_line(o, 0, "OpCapability VulkanMemoryModel");
   static const struct {
      int elem;
      const char *cap;
   } caps[] = {{1, "Int8"}, {2, "Int16"}, {4, "Int64"}, {5, "Float16"}, {6, "BFloat16TypeKHR"}};
   for (unsigned i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
      if (d->elem[caps[i].elem])
         out_line(o, 0, "OpCapability %s", caps[i].cap);
   }
   bool fp8 = d->elem[8] || d->elem[9];
   if (fp8)
      out_line(o, 0, "OpCapability Float8EXT");
   out_line(o, 0, "OpCapability TensorsARM");
   out_line(o, 0, "OpCapability GraphARM");
   if (replicate)
      out_line(o, 0, "OpCapability ReplicatedCompositesEXT");
}

static void
print_extensions(struct out *o, const struct decl *d, bool replicate)
{
   out_line(o, 0, "OpExtension \"SPV_ARM_tensors\"");
   out_line(o, 0, "OpExtension \"SPV_ARM_graph\"");
   if (d->elem[6])
      out_line(o, 0, "OpExtension \"SPV_KHR_bfloat16\"");
   if (d->elem[8] || d->elem[9])
      out_line(o, 0, "OpExtension \"SPV_EXT_float8\"");
   if (replicate)
      out_line(o, 0, "OpExtension \"SPV_EXT_replicated_composites\"");
   out_line(o, 0, "%%tosa = OpExtInstImport \"TOSA.001000.1\"");
   if (d->me)
      out_line(o, 0, "%%me = OpExtInstImport \"Arm.MotionEngine.100\"");
   out_line(o, 0, "OpMemoryModel Logical Vulkan");
}

static bool
print_types(struct out *o, struct decl *d, const struct names *defined, char *err, size_t err_len)
{
   for (unsigned i = 0; i < ELEM_COUNT; i++) {
      if (d->elem[i] && !names_has(defined, elems[i].name, strlen(elems[i].name)))
         out_line(o, 0, "%%%s = %s", elems[i].name, elems[i].decl);
   }
   if (d->bools) {
      if (!names_has(defined, "true", 4))
         out_line(o, 0, "%%true = OpConstantTrue %%bool");
      if (!names_has(defined, "false", 5))
         out_line(o, 0, "%%false = OpConstantFalse %%bool");
   }
   qsort(d->i32s.v, d->i32s.n, sizeof(char *), cmp_i32_names);
   struct names *scalar_lists[2] = {&d->i32s, &d->scalars};
   for (unsigned l = 0; l < 2; l++) {
      for (size_t i = 0; i < scalar_lists[l]->n; i++) {
         const char *name = scalar_lists[l]->v[i];
         if (names_has(defined, name, strlen(name)))
            continue;
         char decl[128];
         if (!scalar_decl(name, decl, sizeof(decl))) {
            snprintf(err, err_len, "%%%s: the value does not fit the type", name);
            return false;
         }
         out_line(o, 0, "%%%s = %s", name, decl);
      }
   }
   for (size_t i = 0; i < d->enums.n; i++) {
      for (unsigned k = 0; k < ENUM_COUNT; k++) {
         if (strcmp(d->enums.v[i], enum_consts[k].name) == 0 &&
             !names_has(defined, d->enums.v[i], strlen(d->enums.v[i])))
            out_line(o, 0, "%%%s = OpConstant %%i32 %d", enum_consts[k].name, enum_consts[k].value);
      }
   }
   for (uint32_t r = 1; r <= REF_MAX_RANK; r++) {
      if (d->arr[r])
         out_line(o, 0, "%%arr_%u = OpTypeArray %%i32 %%i32_%u", r, r);
   }
   for (size_t i = 0; i < d->shapes.n; i++) {
      int64_t dims[REF_MAX_RANK];
      uint32_t rank;
      parse_dims(d->shapes.v[i], dims, &rank);
      char line[256];
      size_t n = (size_t)snprintf(line, sizeof(line), "%%sh_%s = OpConstantComposite %%arr_%u",
                                  d->shapes.v[i], rank);
      for (uint32_t k = 0; k < rank && n < sizeof(line); k++)
         n += (size_t)snprintf(line + n, sizeof(line) - n, " %%i32_%" PRId64, dims[k]);
      out_line(o, 0, "%s", line);
   }
   for (size_t i = 0; i < d->tensors.n; i++) {
      const char *name = d->tensors.v[i];
      if (names_has(defined, name, strlen(name)))
         continue;
      const char *rest;
      int e = elem_prefix(name + 2, &rest);
      int64_t dims[REF_MAX_RANK];
      uint32_t rank;
      parse_dims(rest, dims, &rank);
      out_line(o, 0, "%%%s = OpTypeTensorARM %%%s %%i32_%u %%sh_%s", name, elems[e].name, rank,
               rest);
   }
   return true;
}

static void
print_interface(struct out *o, const struct opt_test *t)
{
   struct names ptrs = {0};
   const struct opt_tensor *io[2 * OPT_MAX_TENSORS];
   uint32_t n = 0;
   for (uint32_t i = 0; i < t->input_count; i++)
      io[n++] = &t->inputs[i];
   for (uint32_t i = 0; i < t->output_count; i++)
      io[n++] = &t->outputs[i];
   for (uint32_t i = 0; i < n; i++) {
      char tn[200];
      tensor_name(io[i], tn, sizeof(tn));
      if (!names_has(&ptrs, tn, strlen(tn))) {
         if (!names_add(&ptrs, tn, strlen(tn)))
            o->failed = true;
         out_line(o, 0, "%%p_%s = OpTypePointer UniformConstant %%%s", tn, tn);
      }
   }
   names_free(&ptrs);
   for (uint32_t i = 0; i < n; i++) {
      char tn[200];
      tensor_name(io[i], tn, sizeof(tn));
      bool in = i < t->input_count;
      out_line(o, 0, "%%var_%s%u = OpVariable %%p_%s UniformConstant", in ? "in" : "out",
               in ? i : i - t->input_count, tn);
   }
   for (uint32_t i = 0; i < t->constant_count; i++) {
      char tn[200];
      tensor_name(&t->constants[i], tn, sizeof(tn));
      out_line(o, 0, "%%const%u = OpGraphConstantARM %%%s %u", i, tn, i);
   }
}

static void
print_graph(struct out *o, const struct opt_test *t, const struct uline *l, size_t nl)
{
   char line[2048];
   size_t n =
       (size_t)snprintf(line, sizeof(line), "%%graph_type = OpTypeGraphARM %u", t->input_count);
   for (uint32_t i = 0; i < t->input_count + t->output_count && n < sizeof(line); i++) {
      char tn[200];
      tensor_name(i < t->input_count ? &t->inputs[i] : &t->outputs[i - t->input_count], tn,
                  sizeof(tn));
      n += (size_t)snprintf(line + n, sizeof(line) - n, " %%%s", tn);
   }
   out_line(o, 0, "%s", line);
   n = (size_t)snprintf(line, sizeof(line), "OpGraphEntryPointARM %%graph \"main\"");
   for (uint32_t i = 0; i < t->input_count && n < sizeof(line); i++)
      n += (size_t)snprintf(line + n, sizeof(line) - n, " %%var_in%u", i);
   for (uint32_t i = 0; i < t->output_count && n < sizeof(line); i++)
      n += (size_t)snprintf(line + n, sizeof(line) - n, " %%var_out%u", i);
   out_line(o, 0, "%s", line);
   out_line(o, 0, "%%graph = OpGraphARM %%graph_type");
   for (uint32_t i = 0; i < t->input_count; i++) {
      char tn[200];
      tensor_name(&t->inputs[i], tn, sizeof(tn));
      out_line(o, 0, "%%in%u = OpGraphInputARM %%%s %%i32_%u", i, tn, i);
   }
   print_user(o, l, nl, SEC_BODY);
   for (uint32_t i = 0; i < t->output_count; i++)
      out_line(o, 0, "OpGraphSetOutputARM %%out%u %%i32_%u", i, i);
   out_line(o, 0, "OpGraphEndARM");
}

static char *
module_as_written(const struct opt_test *t, unsigned **line_map, size_t *line_count)
{
   size_t len = strlen(t->text);
   char *copy = malloc(len + 1);
   if (!copy)
      return NULL;
   memcpy(copy, t->text, len + 1);
   size_t lines = 0;
   for (size_t i = 0; i < len; i++)
      lines += copy[i] == '\n';
   if (line_map) {
      *line_map = malloc((lines + 1) * sizeof(unsigned));
      if (!*line_map) {
         free(copy);
         return NULL;
      }
      for (size_t i = 0; i <= lines; i++)
         (*line_map)[i] = t->text_line + (unsigned)i;
   }
   if (line_count)
      *line_count = lines;
   return copy;
}

char *
opt_module_text(const struct opt_file *file, const struct opt_test *t, unsigned **line_map,
                size_t *line_count, char *err, size_t err_len)
{
   if (line_map)
      *line_map = NULL;
   if (line_count)
      *line_count = 0;
   if (t->full_module) {
      char *m = module_as_written(t, line_map, line_count);
      if (!m)
         snprintf(err, err_len, "out of memory");
      return m;
   }
   struct uline *lines = NULL;
   size_t nl = 0, cap = 0;
   struct names defined = {0}, used = {0};
   struct decl d = {0};
   struct out o = {0};
   bool replicate = false, ok = true;
   if (file->prelude)
      ok = scan_lines(file->prelude, file->prelude_line, &lines, &nl, &cap, &defined, &used,
                      &replicate);
   if (ok)
      ok = scan_lines(t->text, t->text_line, &lines, &nl, &cap, &defined, &used, &replicate);
   /* What the generated parts use, then what the lines use. */
   ok = ok && need_i32(&d, 0);
   for (uint32_t i = 0; ok && i < t->input_count; i++)
      ok = need_decl_tensor(&d, &t->inputs[i]) && need_i32(&d, i);
   for (uint32_t i = 0; ok && i < t->constant_count; i++)
      ok = need_decl_tensor(&d, &t->constants[i]);
   for (uint32_t i = 0; ok && i < t->output_count; i++)
      ok = need_decl_tensor(&d, &t->outputs[i]) && need_i32(&d, i) &&
           need_i32(&d, t->input_count + i);
   for (size_t i = 0; ok && i < used.n; i++) {
      if (!names_has(&defined, used.v[i], strlen(used.v[i])))
         ok = need_name(&d, used.v[i]);
   }
   if (!ok) {
      snprintf(err, err_len, "out of memory");
   } else {
      print_head(&o, &d, replicate);
      print_user(&o, lines, nl, SEC_CAPABILITY);
      print_extensions(&o, &d, replicate);
      print_user(&o, lines, nl, SEC_DEBUG);
      for (uint32_t i = 0; i < t->input_count + t->output_count; i++) {
         bool in = i < t->input_count;
         uint32_t k = in ? i : i - t->input_count;
         out_line(&o, 0, "OpDecorate %%var_%s%u DescriptorSet 0", in ? "in" : "out", k);
         out_line(&o, 0, "OpDecorate %%var_%s%u Binding %u", in ? "in" : "out", k, i);
      }
      print_user(&o, lines, nl, SEC_ANNOTATION);
      ok = print_types(&o, &d, &defined, err, err_len);
      if (ok) {
         print_interface(&o, t);
         print_user(&o, lines, nl, SEC_GLOBAL);
         print_graph(&o, t, lines, nl);
      }
      if (ok && o.failed) {
         snprintf(err, err_len, "out of memory");
         ok = false;
      }
   }
   free(lines);
   names_free(&defined);
   names_free(&used);
   decl_free(&d);
   if (!ok) {
      free(o.p);
      free(o.map);
      return NULL;
   }
   if (line_map)
      *line_map = o.map;
   else
      free(o.map);
   if (line_count)
      *line_count = o.lines;
   return o.p;
}
