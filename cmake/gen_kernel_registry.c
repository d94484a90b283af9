/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build-time host tool of cmake/EmbedKernels.cmake: turns the compiled
 * variants of one kernel library (.spv files written by glslangValidator) into
 * a C source holding one const uint32_t array per variant plus the registry
 * table (include/vmel_kernel.h), and a header with the variant enum. The
 * workgroup size of each variant is read from its module: the WorkgroupSize
 * built-in constant when there is one, else the LocalSizeId or LocalSize
 * execution mode. It does not compile anything and knows no kernel by name.
 *
 * Usage: vmel_gen_kernel_registry <prefix> <list> <output.c> <output.h>
 *   <prefix>  C prefix, e.g. tsr_kernel: enum tsr_kernel_id, TSR_KERNEL_<NAME>,
 *             TSR_KERNEL_COUNT and the array tsr_kernels[]
 *   <list>    one variant per line: name TAB spv-path TAB template-path TAB defines
 *             (defines: space-separated, or "-"; used in comments only)
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPIRV_MAGIC 0x07230203u
#define OP_EXECUTION_MODE 16
#define OP_CONSTANT 43
#define OP_CONSTANT_COMPOSITE 44
#define OP_SPEC_CONSTANT 50
#define OP_SPEC_CONSTANT_COMPOSITE 51
#define OP_DECORATE 71
#define OP_EXECUTION_MODE_ID 331
#define MODE_LOCAL_SIZE 17
#define MODE_LOCAL_SIZE_ID 38
#define DECORATION_BUILT_IN 11
#define BUILT_IN_WORKGROUP_SIZE 25

struct variant {
   char *name;
   char *spv_path;
   char *source;
   char *defines;
   uint32_t *words;
   size_t word_count;
   uint32_t local_size[3];
};

static uint32_t
swap32(uint32_t v)
{
   return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static bool
read_spirv(struct variant *v)
{
   FILE *f = fopen(v->spv_path, "rb");
   if (!f) {
      perror(v->spv_path);
      return false;
   }
   bool ok = false;
   long size = -1;
   if (fseek(f, 0, SEEK_END) == 0)
      size = ftell(f);
   if (size < 20 || size % 4 != 0 || fseek(f, 0, SEEK_SET) != 0) {
      fprintf(stderr, "%s: not a SPIR-V module (%ld bytes)\n", v->spv_path, size);
      goto out;
   }
   v->word_count = (size_t)size / 4;
   v->words = malloc((size_t)size);
   if (!v->words) {
      fprintf(stderr, "out of memory\n");
      goto out;
   }
   if (fread(v->words, 4, v->word_count, f) != v->word_count) {
      fprintf(stderr, "%s: short read\n", v->spv_path);
      goto out;
   }
   if (v->words[0] == swap32(SPIRV_MAGIC)) {
      for (size_t i = 0; i < v->word_count; i++)
         v->words[i] = swap32(v->words[i]);
   }
   if (v->words[0] != SPIRV_MAGIC) {
      fprintf(stderr, "%s: bad SPIR-V magic 0x%08x\n", v->spv_path, v->words[0]);
      goto out;
   }
   ok = true;
out:
   fclose(f);
   return ok;
}

/* Reads the workgroup size. Constants are looked up by id in a table sized
 * from the header's bound. */
static bool
find_local_size(struct variant *v)
{
   const uint32_t *w = v->words;
   uint32_t bound = w[3];
   uint32_t *values = calloc(bound ? bound : 1, sizeof(*values));
   bool *known = calloc(bound ? bound : 1, sizeof(*known));
   if (!values || !known) {
      free(values);
      free(known);
      fprintf(stderr, "out of memory\n");
      return false;
   }
   uint32_t mode_size[3] = {0, 0, 0}, mode_ids[3] = {0, 0, 0}, builtin_id = 0;
   const uint32_t *builtin_composite = NULL;
   bool have_mode = false, have_mode_ids = false, ok = true;

   for (size_t i = 5; i < v->word_count;) {
      uint32_t op = w[i] & 0xffffu, count = w[i] >> 16;
      if (count == 0 || i + count > v->word_count) {
         fprintf(stderr, "%s: truncated instruction at word %zu\n", v->spv_path, i);
         ok = false;
         break;
      }
      const uint32_t *o = &w[i + 1];
      if (op == OP_EXECUTION_MODE && count >= 6 && o[1] == MODE_LOCAL_SIZE) {
         memcpy(mode_size, &o[2], sizeof(mode_size));
         have_mode = true;
      } else if (op == OP_EXECUTION_MODE_ID && count >= 6 && o[1] == MODE_LOCAL_SIZE_ID) {
         memcpy(mode_ids, &o[2], sizeof(mode_ids));
         have_mode_ids = true;
      } else if (op == OP_DECORATE && count >= 4 && o[1] == DECORATION_BUILT_IN &&
                 o[2] == BUILT_IN_WORKGROUP_SIZE) {
         builtin_id = o[0];
      } else if ((op == OP_CONSTANT || op == OP_SPEC_CONSTANT) && count >= 4 && o[1] < bound) {
         values[o[1]] = o[2];
         known[o[1]] = true;
      } else if ((op == OP_CONSTANT_COMPOSITE || op == OP_SPEC_CONSTANT_COMPOSITE) && count >= 6 &&
                 builtin_id && o[1] == builtin_id) {
         builtin_composite = &o[2];
      }
      i += count;
   }

   const uint32_t *ids = builtin_composite ? builtin_composite : have_mode_ids ? mode_ids : NULL;
   if (ok && ids) {
      for (int d = 0; d < 3; d++) {
         if (ids[d] >= bound || !known[ids[d]]) {
            fprintf(stderr, "%s: workgroup size component %d is not a constant\n", v->spv_path, d);
            ok = false;
            break;
         }
         v->local_size[d] = values[ids[d]];
      }
   } else if (ok && have_mode) {
      memcpy(v->local_size, mode_size, sizeof(mode_size));
   } else if (ok) {
      fprintf(stderr, "%s: no workgroup size (is it a compute shader?)\n", v->spv_path);
      ok = false;
   }
   free(values);
   free(known);
   return ok;
}

static bool
valid_name(const char *s)
{
   if (!*s || isdigit((unsigned char)*s))
      return false;
   for (; *s; s++) {
      if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
         return false;
   }
   return true;
}

static void
put_upper(FILE *f, const char *s)
{
   for (; *s; s++)
      fputc(toupper((unsigned char)*s), f);
}

static char *
dup_string(const char *s)
{
   size_t n = strlen(s) + 1;
   char *d = malloc(n);
   if (d)
      memcpy(d, s, n);
   return d;
}

/* Parses "name\tspv\tsource\tdefines" lines. */
static bool
read_list(const char *path, struct variant **out, size_t *out_count)
{
   FILE *f = fopen(path, "r");
   if (!f) {
      perror(path);
      return false;
   }
   struct variant *items = NULL;
   size_t count = 0, capacity = 0;
   char line[4096];
   bool ok = true;
   unsigned lineno = 0;
   while (ok && fgets(line, sizeof(line), f)) {
      lineno++;
      line[strcspn(line, "\r\n")] = 0;
      if (!line[0])
         continue;
      char *name = line, *spv = strchr(name, '\t'), *source = spv ? strchr(spv + 1, '\t') : NULL;
      char *defines = source ? strchr(source + 1, '\t') : NULL;
      if (!defines) {
         fprintf(stderr, "%s:%u: expected name<TAB>spv<TAB>source<TAB>defines\n", path, lineno);
         ok = false;
         break;
      }
      *spv++ = 0;
      *source++ = 0;
      *defines++ = 0;
      if (!valid_name(name)) {
         fprintf(stderr, "%s:%u: kernel name \"%s\" must be [a-z_][a-z0-9_]*\n", path, lineno,
                 name);
         ok = false;
         break;
      }
      for (size_t i = 0; i < count; i++) {
         if (strcmp(items[i].name, name) == 0) {
            fprintf(stderr, "%s:%u: kernel \"%s\" listed twice\n", path, lineno, name);
            ok = false;
         }
      }
      if (!ok)
         break;
      if (count == capacity) {
         capacity = capacity ? capacity * 2 : 16;
         struct variant *grown = realloc(items, capacity * sizeof(*items));
         if (!grown) {
            fprintf(stderr, "out of memory\n");
            ok = false;
            break;
         }
         items = grown;
      }
      struct variant *v = &items[count++];
      memset(v, 0, sizeof(*v));
      v->name = dup_string(name);
      v->spv_path = dup_string(spv);
      v->source = dup_string(source);
      v->defines = dup_string(strcmp(defines, "-") ? defines : "");
      if (!v->name || !v->spv_path || !v->source || !v->defines) {
         fprintf(stderr, "out of memory\n");
         ok = false;
      }
   }
   fclose(f);
   *out = items;
   *out_count = count;
   return ok;
}

static const char *
base_name(const char *path)
{
   const char *slash = strrchr(path, '/');
   return slash ? slash + 1 : path;
}

static bool
write_header(const char *path, const char *prefix, const char *list, const struct variant *v,
             size_t count)
{
   FILE *f = fopen(path, "w");
   if (!f) {
      perror(path);
      return false;
   }
   fprintf(f, "/* Generated by vmel_gen_kernel_registry from %s; do not edit. */\n",
           base_name(list));
   fputs("#ifndef ", f);
   for (const char *s = base_name(path); *s; s++)
      fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s) : '_', f);
   fputs("\n#define ", f);
   for (const char *s = base_name(path); *s; s++)
      fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s) : '_', f);
   fprintf(f, "\n\n#include \"vmel_kernel.h\"\n\nenum %s_id {\n", prefix);
   for (size_t i = 0; i < count; i++) {
      fputs("   ", f);
      put_upper(f, prefix);
      fputc('_', f);
      put_upper(f, v[i].name);
      fprintf(f, ", /* %s%s%s */\n", v[i].source, *v[i].defines ? " " : "", v[i].defines);
   }
   fputs("   ", f);
   put_upper(f, prefix);
   fputs("_COUNT\n};\n\n", f);
   fprintf(f, "extern const struct vmel_kernel %ss[", prefix);
   put_upper(f, prefix);
   fputs("_COUNT];\n\n#endif\n", f);
   return fclose(f) == 0;
}

static bool
write_source(const char *path, const char *prefix, const char *header, const char *list,
             const struct variant *v, size_t count)
{
   FILE *f = fopen(path, "w");
   if (!f) {
      perror(path);
      return false;
   }
   fprintf(f, "/* Generated by vmel_gen_kernel_registry from %s; do not edit. */\n",
           base_name(list));
   fprintf(f, "#include \"%s\"\n", base_name(header));
   for (size_t i = 0; i < count; i++) {
      fprintf(f, "\n/* %s: %s%s%s */\nstatic const uint32_t %s_code[%zu] = {", v[i].name,
              v[i].source, *v[i].defines ? " " : "", v[i].defines, v[i].name, v[i].word_count);
      for (size_t w = 0; w < v[i].word_count; w++)
         fprintf(f, "%s0x%08x,", w % 8 ? " " : "\n   ", v[i].words[w]);
      fputs("\n};\n", f);
   }
   fprintf(f, "\nconst struct vmel_kernel %ss[", prefix);
   put_upper(f, prefix);
   fputs("_COUNT] = {\n", f);
   for (size_t i = 0; i < count; i++) {
      fputs("   [", f);
      put_upper(f, prefix);
      fputc('_', f);
      put_upper(f, v[i].name);
      fprintf(f, "] = {\"%s\", \"%s\", %s_code, %zu, {%u, %u, %u}},\n", v[i].name, v[i].source,
              v[i].name, v[i].word_count, v[i].local_size[0], v[i].local_size[1],
              v[i].local_size[2]);
   }
   fputs("};\n", f);
   return fclose(f) == 0;
}

int
main(int argc, char **argv)
{
   if (argc != 5) {
      fprintf(stderr, "usage: %s <prefix> <list> <output.c> <output.h>\n", argv[0]);
      return 2;
   }
   const char *prefix = argv[1], *list = argv[2], *out_c = argv[3], *out_h = argv[4];
   if (!valid_name(prefix)) {
      fprintf(stderr, "prefix \"%s\" must be [a-z_][a-z0-9_]*\n", prefix);
      return 2;
   }
   struct variant *v = NULL;
   size_t count = 0;
   bool ok = read_list(list, &v, &count);
   if (ok && count == 0) {
      fprintf(stderr, "%s: no kernels listed\n", list);
      ok = false;
   }
   for (size_t i = 0; ok && i < count; i++)
      ok = read_spirv(&v[i]) && find_local_size(&v[i]);
   if (ok)
      ok = write_header(out_h, prefix, list, v, count) &&
           write_source(out_c, prefix, out_h, list, v, count);
   if (!ok) {
      remove(out_c);
      remove(out_h);
   }
   for (size_t i = 0; i < count; i++) {
      free(v[i].name);
      free(v[i].spv_path);
      free(v[i].source);
      free(v[i].defines);
      free(v[i].words);
   }
   free(v);
   return ok ? 0 : 1;
}
