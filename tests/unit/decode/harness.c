/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph-decoder test harness (see harness.h): module text generation with
 * on-demand declarations, assembly, create-info arrays derived from the types,
 * mutations of the create info, the counting allocator, and running a case.
 */
#include <ctype.h>
#include <stdarg.h>

#include "harness.h"
#include "spirv_text.h"

/* ---- growable text ---------------------------------------------------------------------- */

struct sbuf {
   char *p;
   size_t n, cap;
};

static void
sb_add(struct sbuf *s, const char *text)
{
   size_t len = strlen(text);
   if (s->n + len + 1 > s->cap) {
      size_t cap = s->cap ? s->cap * 2 : 4096;
      while (cap < s->n + len + 1)
         cap *= 2;
      char *p = realloc(s->p, cap);
      if (!p) {
         fprintf(stderr, "out of memory\n");
         exit(1);
      }
      s->p = p;
      s->cap = cap;
   }
   memcpy(s->p + s->n, text, len + 1);
   s->n += len;
}

static void sb_addf(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
sb_addf(struct sbuf *s, const char *fmt, ...)
{
   char line[1024];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(line, sizeof(line), fmt, ap);
   va_end(ap);
   sb_add(s, line);
}

/* ---- names the case mentions ----------------------------------------------------------- */

#define MAX_NAMES 512

struct names {
   char v[MAX_NAMES][64];
   int n;
};

static bool
names_has(const struct names *ns, const char *name)
{
   for (int i = 0; i < ns->n; i++) {
      if (strcmp(ns->v[i], name) == 0)
         return true;
   }
   return false;
}

static void
names_add(struct names *ns, const char *name)
{
   if (!names_has(ns, name) && ns->n < MAX_NAMES)
      snprintf(ns->v[ns->n++], sizeof(ns->v[0]), "%s", name);
}

/* Adds every %name of text (without the %). */
static void
scan_names(struct names *ns, const char *text)
{
   for (const char *p = text; p && *p; p++) {
      if (*p != '%')
         continue;
      char name[64];
      size_t n = 0;
      for (p++; (isalnum((unsigned char)*p) || *p == '_') && n + 1 < sizeof(name); p++)
         name[n++] = *p;
      name[n] = '\0';
      if (n)
         names_add(ns, name);
      p--;
   }
}

/* ---- element types and names ------------------------------------------------------------- */

struct h_type {
   const char *name, *spv;
   VkFormat format;
   uint32_t size;
   bool is_float;
};

static const struct h_type h_types[] = {
    {"bool", "OpTypeBool", VK_FORMAT_R8_BOOL_ARM, 1, false},
    {"i8", "OpTypeInt 8 0", VK_FORMAT_R8_SINT, 1, false},
    {"i16", "OpTypeInt 16 0", VK_FORMAT_R16_SINT, 2, false},
    {"i32", "OpTypeInt 32 0", VK_FORMAT_R32_SINT, 4, false},
    {"i48", "OpTypeInt 64 0", VK_FORMAT_R64_SINT, 8, false},
    {"f16", "OpTypeFloat 16", VK_FORMAT_R16_SFLOAT, 2, true},
    {"bf16", "OpTypeFloat 16 BFloat16KHR", VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, 2, true},
    {"f32", "OpTypeFloat 32", VK_FORMAT_R32_SFLOAT, 4, true},
    {"e4m3", "OpTypeFloat 8 Float8E4M3EXT", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, 1, true},
    {"e5m2", "OpTypeFloat 8 Float8E5M2EXT", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, 1, true},
};
#define H_TYPE_COUNT (sizeof(h_types) / sizeof(h_types[0]))

/* "f32_..." -> the type and a pointer past "f32_". */
static const struct h_type *
type_prefix(const char *name, const char **rest)
{
   for (size_t i = 0; i < H_TYPE_COUNT; i++) {
      size_t len = strlen(h_types[i].name);
      if (strncmp(name, h_types[i].name, len) == 0 && name[len] == '_') {
         *rest = name + len + 1;
         return &h_types[i];
      }
   }
   return NULL;
}

struct h_tensor {
   const struct h_type *type;
   uint32_t rank;
   int64_t dim[8];
   char form; /* 't' shaped, 'u' ranked without Shape, 'n' unranked */
};

/* "t_f32_1x4"; "u_f32_1x4" and "n_f32_1x4" declare the type without Shape (rank 2) or without
 * Rank, and are described as [1,4] in the create info. */
static bool
parse_tensor(const char *name, struct h_tensor *t)
{
   const char *rest;
   if ((name[0] != 't' && name[0] != 'u' && name[0] != 'n') || name[1] != '_' ||
       !(t->type = type_prefix(name + 2, &rest)))
      return false;
   t->form = name[0];
   t->rank = 0;
   while (*rest && t->rank < 8) {
      if (!isdigit((unsigned char)*rest))
         return false;
      t->dim[t->rank++] = strtoll(rest, (char **)&rest, 10);
      if (*rest == 'x')
         rest++;
      else if (*rest)
         return false;
   }
   return t->rank > 0;
}

/* "a2_t_f32_1x4" -> 2 and "t_f32_1x4" */
static bool
parse_array(const char *name, uint32_t *length, const char **elem)
{
   if (name[0] != 'a' || !isdigit((unsigned char)name[1]))
      return false;
   char *end;
   *length = (uint32_t)strtoul(name + 1, &end, 10);
   if (end[0] != '_' || (end[1] != 't' && end[1] != 'u' && end[1] != 'n') || end[2] != '_')
      return false;
   *elem = end + 1;
   return true;
}

/* "i32_m3" -> "4294967293"; "f32_1p5" -> "1.5". */
static bool
parse_scalar(const char *name, const struct h_type **type, char *literal, size_t size)
{
   const char *rest;
   if (!(*type = type_prefix(name, &rest)) || !strcmp((*type)->name, "bool"))
      return false;
   bool negative = *rest == 'm';
   rest += negative;
   if (!isdigit((unsigned char)*rest))
      return false;
   char *end;
   unsigned long long v = strtoull(rest, &end, 10);
   if ((*type)->is_float) {
      unsigned long long frac = 0;
      if (*end == 'p' && isdigit((unsigned char)end[1]))
         frac = strtoull(end + 1, &end, 10);
      if (*end)
         return false;
      snprintf(literal, size, "%s%llu.%llu", negative ? "-" : "", v, frac);
      return true;
   }
   if (*end)
      return false;
   uint32_t bits = 8 * (*type)->size;
   unsigned long long mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
   snprintf(literal, size, "%llu", (negative ? 0 - v : v) & mask);
   return true;
}

static void
shape_name(const struct h_tensor *t, char *buf, size_t size)
{
   size_t n = 0;
   for (uint32_t i = 0; i < t->rank && n < size; i++)
      n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, i ? "x" : "", t->dim[i]);
}

/* ---- module text ------------------------------------------------------------------------ */

static void
split_words(const char *list, char out[][64], uint32_t *count)
{
   *count = 0;
   for (const char *p = list; p && *p;) {
      while (*p == ' ')
         p++;
      size_t n = 0;
      while (p[n] && p[n] != ' ')
         n++;
      if (n) {
         snprintf(out[*count], 64, "%.*s", (int)n, p);
         (*count)++;
      }
      p += n;
   }
}

/* The interface of the case: names of the I/O types. */
struct io {
   char in[H_MAX_RES][64], out[H_MAX_RES][64];
   uint32_t n_in, n_out;
};

/* Declares what the names need, in dependency order. */
static void
emit_declarations(struct sbuf *s, struct names *ns)
{
   struct names consts = {.n = 0}, shapes = {.n = 0}, tensors = {.n = 0}, arrays = {.n = 0};
   struct names ranks = {.n = 0};
   for (int i = 0; i < ns->n; i++) {
      const char *name = ns->v[i];
      struct h_tensor t;
      uint32_t length;
      const char *elem;
      char buf[96];
      if (strncmp(name, "p_", 2) == 0)
         name += 2;
      if (parse_array(name, &length, &elem)) {
         names_add(&arrays, name);
         snprintf(buf, sizeof(buf), "i32_%u", length);
         names_add(&consts, buf);
         name = elem;
      }
      if (parse_tensor(name, &t)) {
         names_add(&tensors, name);
         char sh[64];
         shape_name(&t, sh, sizeof(sh));
         names_add(&shapes, sh);
         snprintf(buf, sizeof(buf), "%u", t.rank);
         names_add(&ranks, buf);
         snprintf(buf, sizeof(buf), "i32_%u", t.rank);
         names_add(&consts, buf);
         for (uint32_t d = 0; d < t.rank; d++) {
            snprintf(buf, sizeof(buf), "i32_%" PRId64, t.dim[d]);
            names_add(&consts, buf);
         }
      }
      const struct h_type *type;
      char literal[64];
      if (parse_scalar(ns->v[i], &type, literal, sizeof(literal)))
         names_add(&consts, ns->v[i]);
   }
   for (size_t i = 0; i < H_TYPE_COUNT; i++)
      sb_addf(s, "%%%s = %s\n", h_types[i].name, h_types[i].spv);
   sb_add(s, "%true = OpConstantTrue %bool\n%false = OpConstantFalse %bool\n");
   for (int i = 0; i < consts.n; i++) {
      const struct h_type *type;
      char literal[64];
      parse_scalar(consts.v[i], &type, literal, sizeof(literal));
      sb_addf(s, "%%%s = OpConstant %%%s %s\n", consts.v[i], type->name, literal);
   }
   for (int i = 0; i < ranks.n; i++)
      sb_addf(s, "%%arr_%s = OpTypeArray %%i32 %%i32_%s\n", ranks.v[i], ranks.v[i]);
   for (int i = 0; i < shapes.n; i++) {
      struct h_tensor t;
      char name[80];
      snprintf(name, sizeof(name), "t_i8_%s", shapes.v[i]);
      parse_tensor(name, &t);
      sb_addf(s, "%%sh_%s = OpConstantComposite %%arr_%u", shapes.v[i], t.rank);
      for (uint32_t d = 0; d < t.rank; d++)
         sb_addf(s, " %%i32_%" PRId64, t.dim[d]);
      sb_add(s, "\n");
   }
   for (int i = 0; i < tensors.n; i++) {
      struct h_tensor t;
      char sh[64];
      parse_tensor(tensors.v[i], &t);
      shape_name(&t, sh, sizeof(sh));
      if (t.form == 'n')
         sb_addf(s, "%%%s = OpTypeTensorARM %%%s\n", tensors.v[i], t.type->name);
      else if (t.form == 'u')
         sb_addf(s, "%%%s = OpTypeTensorARM %%%s %%i32_%u\n", tensors.v[i], t.type->name, t.rank);
      else
         sb_addf(s, "%%%s = OpTypeTensorARM %%%s %%i32_%u %%sh_%s\n", tensors.v[i],
                 t.type->name, t.rank, sh);
   }
   for (int i = 0; i < arrays.n; i++) {
      uint32_t length;
      const char *elem;
      parse_array(arrays.v[i], &length, &elem);
      sb_addf(s, "%%%s = OpTypeArray %%%s %%i32_%u\n", arrays.v[i], elem, length);
   }
   for (int i = 0; i < ns->n; i++) {
      struct h_tensor t;
      uint32_t length;
      const char *elem;
      const char *pointee = ns->v[i] + 2;
      if (strncmp(ns->v[i], "p_", 2) == 0 &&
          (parse_tensor(pointee, &t) || parse_array(pointee, &length, &elem)))
         sb_addf(s, "%%%s = OpTypePointer UniformConstant %%%s\n", ns->v[i], pointee);
   }
}

static void
emit_graph(struct sbuf *s, const struct dcase *c, const struct io *io)
{
   if (c->graph) {
      sb_add(s, c->graph);
      return;
   }
   sb_add(s, "%graph = OpGraphARM %gt\n");
   for (uint32_t i = 0; i < io->n_in; i++) {
      uint32_t length;
      const char *elem;
      if (parse_array(io->in[i], &length, &elem)) {
         for (uint32_t e = 0; e < length; e++)
            sb_addf(s, "%%in%u_%u = OpGraphInputARM %%%s %%i32_%u %%i32_%u\n", i, e, elem, i, e);
      } else {
         sb_addf(s, "%%in%u = OpGraphInputARM %%%s %%i32_%u\n", i, io->in[i], i);
      }
   }
   if (c->body)
      sb_add(s, c->body);
   sb_add(s, c->sets ? c->sets : "OpGraphSetOutputARM %r %i32_0\n");
   sb_add(s, "OpGraphEndARM\n");
}

/* The section of SPIR-V's logical layout (2.4) a case's line belongs in: 0 capabilities,
 * 1 debug strings and sources, 2 names, 3 annotations, 4 anything else. Cases write their
 * lines where they like; the module puts each in its section (dg_structure.c checks it). */
static int
line_section(const char *line, size_t len)
{
   const char *p = line, *end = line + len;
   while (p < end && isspace((unsigned char)*p))
      p++;
   const char *eq = memchr(p, '=', (size_t)(end - p));
   if (*p == '%' && eq) {
      p = eq + 1;
      while (p < end && isspace((unsigned char)*p))
         p++;
   }
   static const struct {
      const char *op;
      int sec;
   } ops[] = {{"OpCapability ", 0},    {"OpString ", 1},       {"OpSource", 1},
              {"OpName ", 2},          {"OpMemberName ", 2},   {"OpDecorate", 3},
              {"OpMemberDecorate", 3}, {"OpGroupDecorate", 3}, {"OpGroupMemberDecorate", 3},
              {"OpDecorationGroup", 3}};
   for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
      size_t n = strlen(ops[i].op);
      if ((size_t)(end - p) >= n && strncmp(p, ops[i].op, n) == 0)
         return ops[i].sec;
   }
   return 4;
}

/* Appends the lines of text that belong in section `sec`. */
static void
sb_add_section(struct sbuf *s, const char *text, int sec)
{
   for (const char *line = text; line && *line;) {
      const char *end = strchr(line, '\n');
      size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
      if (line_section(line, len) == sec) {
         char buf[1024];
         snprintf(buf, sizeof(buf), "%.*s%s", (int)len, line, end ? "" : "\n");
         sb_add(s, buf);
      }
      line += len;
   }
}

/* The whole module; names gathers everything it mentions first. */
static char *
module_text(const struct dcase *c, const struct io *io)
{
   struct sbuf tail = {0}, s = {0};
   struct names ns = {.n = 0};
   if (c->decls)
      sb_add_section(&tail, c->decls, 4);
   if (c->gtype) {
      sb_add(&tail, c->gtype);
   } else {
      sb_addf(&tail, "%%gt = OpTypeGraphARM %u", io->n_in);
      for (uint32_t i = 0; i < io->n_in; i++)
         sb_addf(&tail, " %%%s", io->in[i]);
      for (uint32_t i = 0; i < io->n_out; i++)
         sb_addf(&tail, " %%%s", io->out[i]);
      sb_add(&tail, "\n");
   }
   if (c->entry) {
      sb_add(&tail, c->entry);
   } else {
      sb_add(&tail, "OpGraphEntryPointARM %graph \"main\"");
      for (uint32_t i = 0; i < io->n_in; i++)
         sb_addf(&tail, " %%vin%u", i);
      for (uint32_t i = 0; i < io->n_out; i++)
         sb_addf(&tail, " %%vout%u", i);
      sb_add(&tail, "\n");
   }
   emit_graph(&tail, c, io);
   for (uint32_t i = 0; i < io->n_in; i++) {
      char p[80];
      snprintf(p, sizeof(p), "p_%s", io->in[i]);
      names_add(&ns, p);
   }
   for (uint32_t i = 0; i < io->n_out; i++) {
      char p[80];
      snprintf(p, sizeof(p), "p_%s", io->out[i]);
      names_add(&ns, p);
   }
   for (uint32_t i = 0; i < 8; i++) {
      char k[16];
      snprintf(k, sizeof(k), "i32_%u", i);
      names_add(&ns, k);
   }
   scan_names(&ns, tail.p);
   if (c->decls)
      scan_names(&ns, c->decls);

   if (c->mutate != M_NO_GRAPH_CAP)
      sb_add(&s, "OpCapability GraphARM\n");
   sb_add(&s, c->caps ? c->caps
                      : "OpCapability VulkanMemoryModel\nOpCapability TensorsARM\n"
                        "OpCapability Int8\nOpCapability Int16\nOpCapability Int64\n"
                        "OpCapability Float16\nOpCapability BFloat16TypeKHR\n"
                        "OpCapability Float8EXT\nOpCapability ReplicatedCompositesEXT\n");
   if (c->header)
      sb_add_section(&s, c->header, 0);
   sb_add(&s, c->extensions ? c->extensions
                            : "OpExtension \"SPV_ARM_tensors\"\nOpExtension \"SPV_ARM_graph\"\n"
                              "OpExtension \"SPV_KHR_bfloat16\"\nOpExtension \"SPV_EXT_float8\"\n"
                              "OpExtension \"SPV_EXT_replicated_composites\"\n");
   if (c->header)
      sb_add_section(&s, c->header, 4);
   sb_add(&s, "%tosa = OpExtInstImport \"TOSA.001000.1\"\n");
   sb_add(&s, c->memory_model ? c->memory_model : "OpMemoryModel Logical Vulkan\n");
   for (int sec = 1; sec <= 3; sec++) {
      if (c->header)
         sb_add_section(&s, c->header, sec);
      if (c->decls)
         sb_add_section(&s, c->decls, sec);
   }
   for (uint32_t i = 0; i < io->n_in; i++)
      sb_addf(&s, "OpDecorate %%vin%u DescriptorSet 0\nOpDecorate %%vin%u Binding %u\n", i, i, i);
   for (uint32_t i = 0; i < io->n_out; i++)
      sb_addf(&s, "OpDecorate %%vout%u DescriptorSet 1\nOpDecorate %%vout%u Binding %u\n", i, i, i);
   emit_declarations(&s, &ns);
   for (uint32_t i = 0; i < io->n_in; i++)
      sb_addf(&s, "%%vin%u = OpVariable %%p_%s UniformConstant\n", i, io->in[i]);
   for (uint32_t i = 0; i < io->n_out; i++)
      sb_addf(&s, "%%vout%u = OpVariable %%p_%s UniformConstant\n", i, io->out[i]);
   sb_add(&s, tail.p);
   free(tail.p);
   return s.p;
}

/* Word offset of the instruction on the line marked ";@" (0 if none). */
static uint32_t
marked_offset(const char *text, const uint32_t *words, size_t count)
{
   uint32_t index = 0;
   bool found = false;
   for (const char *line = text; *line && !found;) {
      const char *end = strchr(line, '\n');
      size_t len = end ? (size_t)(end - line) : strlen(line);
      const char *p = line;
      while (p < line + len && isspace((unsigned char)*p))
         p++;
      bool is_inst = p < line + len && *p != ';';
      const char *mark = strstr(line, ";@");
      if (mark && mark < line + len)
         found = true;
      else if (is_inst)
         index++;
      line = end ? end + 1 : line + len;
   }
   if (!found)
      return 0;
   size_t off = 5;
   for (uint32_t i = 0; i < index && off < count; i++)
      off += words[off] >> 16;
   return (uint32_t)off;
}

/* ---- create info ------------------------------------------------------------------------ */

static void
describe(const char *type_name, VkTensorDescriptionARM *desc, int64_t *dims)
{
   struct h_tensor t = {0};
   uint32_t length;
   const char *elem = type_name;
   parse_array(type_name, &length, &elem);
   parse_tensor(elem, &t);
   memcpy(dims, t.dim, sizeof(int64_t) * t.rank);
   *desc = (VkTensorDescriptionARM){
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = t.type ? t.type->format : VK_FORMAT_UNDEFINED,
       .dimensionCount = t.rank,
       .pDimensions = dims,
       .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
}

/* The fill value of graph constant `id` ("ID=VALUE ..."). */
static uint64_t
fill_value(const char *fill, uint32_t id)
{
   for (const char *p = fill; p && *p;) {
      char *end;
      unsigned long k = strtoul(p, &end, 10);
      if (*end != '=')
         break;
      long long v = strtoll(end + 1, &end, 0);
      if (k == id)
         return (uint64_t)v;
      p = end;
      while (*p == ' ')
         p++;
   }
   return 0;
}

/* One VkDataGraphPipelineConstantARM per "OpGraphConstantARM %t_... ID" in the text. */
static void
add_graph_constants(const struct dcase *c, struct built *b)
{
   for (const char *p = strstr(b->text, "OpGraphConstantARM"); p && b->const_count < H_MAX_CONST;
        p = strstr(p + 1, "OpGraphConstantARM")) {
      char type_name[64];
      unsigned id;
      if (sscanf(p, "OpGraphConstantARM %%%63s %u", type_name, &id) != 2)
         continue;
      struct h_tensor t;
      if (!parse_tensor(type_name, &t))
         continue;
      uint32_t k = b->const_count++;
      describe(type_name, &b->const_desc[k], b->const_dims[k]);
      uint64_t elements = 1;
      for (uint32_t i = 0; i < t.rank; i++)
         elements *= (uint64_t)t.dim[i];
      uint8_t *data = calloc(elements * t.type->size + 16, 1);
      if (!data) {
         ok(0, "out of memory");
         b->const_count--;
         return;
      }
      uint64_t v = fill_value(c->fill, id);
      for (uint64_t e = 0; e < elements; e++)
         for (uint32_t byte = 0; byte < t.type->size; byte++)
            data[e * t.type->size + byte] = (uint8_t)(v >> (8 * byte));
      b->const_data[k] = data;
      b->consts[k] = (VkDataGraphPipelineConstantARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
          .pNext = &b->const_desc[k],
          .id = id,
          .pConstantData = data,
      };
   }
}

/* Re-lays the first constant out with a gap after each row of each outer dimension. */
static void
stride_first_constant(struct built *b)
{
   VkTensorDescriptionARM *d = &b->const_desc[0];
   uint32_t size = d->format == VK_FORMAT_R32_SINT || d->format == VK_FORMAT_R32_SFLOAT ? 4
                   : d->format == VK_FORMAT_R64_SINT                                    ? 8
                   : d->format == VK_FORMAT_R16_SINT                                    ? 2
                                                                                        : 1;
   int64_t *st = b->const_strides[0];
   uint32_t rank = d->dimensionCount;
   st[rank - 1] = size;
   for (uint32_t i = rank - 1; i-- > 0;)
      st[i] = st[i + 1] * d->pDimensions[i + 1] * 2;
   uint64_t elements = 1;
   for (uint32_t i = 0; i < rank; i++)
      elements *= (uint64_t)d->pDimensions[i];
   uint8_t *packed = b->const_data[0];
   uint8_t *strided = calloc((size_t)(st[0] * d->pDimensions[0]) + 16, 1);
   if (!strided) {
      ok(0, "out of memory");
      return;
   }
   uint64_t idx[8] = {0};
   for (uint64_t e = 0; e < elements; e++) {
      uint64_t off = 0;
      for (uint32_t i = 0; i < rank; i++)
         off += idx[i] * (uint64_t)st[i];
      /* pattern: element e holds e + 1 in its low byte */
      memcpy(strided + off, packed + e * size, size);
      strided[off] = (uint8_t)(e + 1);
      for (uint32_t i = rank; i-- > 0;) {
         if (++idx[i] < (uint64_t)d->pDimensions[i])
            break;
         idx[i] = 0;
      }
   }
   free(packed);
   b->const_data[0] = strided;
   b->consts[0].pConstantData = strided;
   d->pStrides = st;
}

static void
mutate(const struct dcase *c, struct built *b)
{
   static int64_t bad_strides[8] = {6, 6, 6, 6, 6, 6, 6, 6}; /* not a multiple of 4 */
   switch (c->mutate) {
   case M_RES_DROP:
      b->res[0].descriptorSet = 99;
      break;
   case M_RES_DUP:
      b->res[b->res_count++] = b->res[0];
      b->info.resource_info_count = b->res_count;
      break;
   case M_RES_ELEMENT:
      b->res[0].arrayElement = 1;
      break;
   case M_RES_DIMS:
      b->res_dims[0][0]++;
      break;
   case M_RES_FORMAT:
      b->res_desc[0].format = b->res_desc[0].format == VK_FORMAT_R32_SFLOAT ? VK_FORMAT_R16_SFLOAT
                                                                            : VK_FORMAT_R32_SFLOAT;
      break;
   case M_RES_USAGE:
      b->res_desc[0].usage = VK_TENSOR_USAGE_SHADER_BIT_ARM;
      break;
   case M_RES_NO_DESC:
      b->res[0].pNext = NULL;
      break;
   case M_GC_DROP:
      b->consts[0].id = 999;
      break;
   case M_GC_DUP:
      b->consts[b->const_count++] = b->consts[0];
      b->info.constant_count = b->const_count;
      break;
   case M_GC_TILING:
      b->const_desc[0].tiling = VK_TENSOR_TILING_OPTIMAL_ARM;
      break;
   case M_GC_STRIDES:
      b->const_desc[0].pStrides = bad_strides;
      break;
   case M_GC_STRIDED:
      stride_first_constant(b);
      break;
   case M_GC_DIMS:
      b->const_dims[0][0]++;
      break;
   case M_GC_NULL_DATA:
      b->consts[0].pConstantData = NULL;
      break;
   case M_ENTRY_NAME:
      b->info.entry_point = "nope";
      break;
   case M_SPEC_OFF:
      b->info.specialization_enabled = false;
      break;
   default:
      break;
   }
}

bool
h_build(const struct dcase *c, struct built *b)
{
   struct io io;
   memset(b, 0, sizeof(*b));
   split_words(c->inputs, io.in, &io.n_in);
   split_words(c->outputs, io.out, &io.n_out);
   b->text = module_text(c, &io);
   char err[256] = "";
   if (!spirv_text_assemble(b->text, strlen(b->text), &b->words, &b->word_count, err,
                            sizeof(err))) {
      ok(0, "%s: assembly failed: %s\n%s", c->name, err, b->text);
      return false;
   }
   b->marked_offset = marked_offset(b->text, b->words, b->word_count);
   for (uint32_t i = 0; i < io.n_in + io.n_out && i < H_MAX_RES; i++) {
      bool out = i >= io.n_in;
      describe(out ? io.out[i - io.n_in] : io.in[i], &b->res_desc[i], b->res_dims[i]);
      b->res[i] = (VkDataGraphPipelineResourceInfoARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
          .pNext = &b->res_desc[i],
          .descriptorSet = out ? 1 : 0,
          .binding = out ? i - io.n_in : i,
      };
      b->res_count++;
   }
   add_graph_constants(c, b);
   b->info = (struct dg_decode_info){
       .code = b->words,
       .code_words = b->word_count,
       .entry_point = "main",
       .resource_infos = b->res,
       .resource_info_count = b->res_count,
       .constants = b->consts,
       .constant_count = b->const_count,
       .specialization = c->spec,
       .specialization_enabled = true,
       .tosa_features = c->features,
       .max_constant_bytes = 1u << 20,
   };
   mutate(c, b);
   return true;
}

void
h_free(struct built *b)
{
   for (uint32_t i = 0; i < b->const_count && i < H_MAX_CONST; i++) {
      /* M_GC_DUP copies the first entry: free each buffer once. */
      bool dup = false;
      for (uint32_t j = 0; j < i; j++)
         dup |= b->const_data[j] == b->const_data[i];
      if (!dup)
         free(b->const_data[i]);
   }
   free(b->words);
   free(b->text);
}

/* ---- allocator ------------------------------------------------------------------------- */

static void *VKAPI_PTR
h_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct h_counter *c = user;
   (void)align;
   (void)scope;
   if (++c->calls == c->fail_at)
      return NULL;
   void *p = malloc(size);
   c->live += p != NULL;
   return p;
}

static void *VKAPI_PTR
h_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
   struct h_counter *c = user;
   if (!p)
      return h_alloc(user, size, align, scope);
   if (++c->calls == c->fail_at)
      return NULL;
   return realloc(p, size);
}

static void VKAPI_PTR
h_free_cb(void *user, void *p)
{
   struct h_counter *c = user;
   c->live -= p != NULL;
   free(p);
}

void
h_counting_alloc(struct h_counter *counter, VkAllocationCallbacks *alloc)
{
   *alloc = (VkAllocationCallbacks){
       .pUserData = counter,
       .pfnAllocation = h_alloc,
       .pfnReallocation = h_realloc,
       .pfnFree = h_free_cb,
   };
}

/* ---- running ---------------------------------------------------------------------------- */

void
h_run(const struct dcase *c)
{
   struct built b;
   test_set_context(c->name);
   if (!h_build(c, &b)) {
      test_set_context(NULL);
      return;
   }
   struct h_counter counter = {0};
   VkAllocationCallbacks alloc;
   h_counting_alloc(&counter, &alloc);
   struct dg_graph *g = (struct dg_graph *)1;
   struct dg_diag diag;
   VkResult result = dg_graph_decode(&b.info, &alloc, &g, &diag);
   if (c->code == DG_OK) {
      ok(result == VK_SUCCESS && g, "decoding fails: %s (%s)", diag.message,
         dg_error_name(diag.code));
   } else {
      ok(result == dg_error_result(c->code), "result %d, expected %d (%s: %s)", result,
         dg_error_result(c->code), dg_error_name(diag.code), diag.message);
      ok(diag.code == c->code, "code %s, expected %s: %s", dg_error_name(diag.code),
         dg_error_name(c->code), diag.message);
      ok(!c->msg || strstr(diag.message, c->msg), "message \"%s\" lacks \"%s\"", diag.message,
         c->msg);
      ok(g == NULL, "no graph on failure");
      if (b.marked_offset)
         ok(diag.offset == b.marked_offset, "offset %u, expected %u (%s)", diag.offset,
            b.marked_offset, diag.message);
   }
   dg_graph_destroy(result == VK_SUCCESS ? g : NULL);
   ok(counter.live == 0, "%ld allocations leaked", counter.live);
   if (getenv("VMEL_TEST_VERBOSE"))
      printf("%-40s %s\n", c->name, c->code == DG_OK ? "ok" : diag.message);
   h_free(&b);
   test_set_context(NULL);
}

void
h_run_all(const struct dcase *cases, size_t count)
{
   for (size_t i = 0; i < count; i++)
      h_run(&cases[i]);
}

struct dg_graph *
h_decode(const struct dcase *c, struct built *b)
{
   struct dg_graph *g = NULL;
   struct dg_diag diag;
   if (!h_build(c, b))
      return NULL;
   VkResult result = dg_graph_decode(&b->info, NULL, &g, &diag);
   ok(result == VK_SUCCESS, "%s: decoding fails: %s", c->name, diag.message);
   return g;
}

char *
h_read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *data = NULL;
   if (fseek(f, 0, SEEK_END) == 0) {
      long n = ftell(f);
      if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1))) {
         if (fread(data, 1, (size_t)n, f) == (size_t)n) {
            data[n] = '\0';
            *size = (size_t)n;
         } else {
            free(data);
            data = NULL;
         }
      }
   }
   fclose(f);
   return data;
}
