/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build-time generator: reads the system SPIRV-Headers grammar
 * (spirv.core.grammar.json and extinst.glsl.std.450.grammar.json) and writes
 * the C tables of the text assembler: every operand kind with its category
 * and enumerants (values, parameters), every core instruction with its operand
 * kinds and quantifiers, and the GLSL.std.450 instructions. Aliases in newer
 * grammars become extra entries after the canonical one. The types of the
 * tables are in spirv_grammar.h; the ARM additions are hand-written in
 * spirv_grammar.c. A host tool, so errors just exit(1).
 *
 * usage: gen_spirv_grammar <core.json> <glsl.json> <out.c> <out.h>
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small JSON DOM ---------------------------------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jnode {
   enum jtype type;
   char *text; /* J_STR: unescaped; J_NUM and J_BOOL: as written */
   char *key;  /* the member name when the parent is an object */
   struct jnode *child, *last, *next;
};

struct jparser {
   const char *path;
   const char *s;
   size_t pos, len;
};

static void __attribute__((noreturn, format(printf, 2, 3)))
die(const struct jparser *p, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "gen_spirv_grammar: ");
   if (p) {
      unsigned line = 1;
      for (size_t i = 0; i < p->pos && i < p->len; i++)
         line += p->s[i] == '\n';
      fprintf(stderr, "%s:%u: ", p->path, line);
   }
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   exit(1);
}

static void *
xcalloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size);
   if (!p)
      die(NULL, "out of memory");
   return p;
}

static void
skip_ws(struct jparser *p)
{
   while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
      p->pos++;
}

static char
peek(struct jparser *p)
{
   skip_ws(p);
   return p->pos < p->len ? p->s[p->pos] : '\0';
}

static void
expect(struct jparser *p, char c)
{
   if (peek(p) != c)
      die(p, "expected '%c'", c);
   p->pos++;
}

static void
put_utf8(char *out, size_t *n, unsigned cp)
{
   if (cp < 0x80) {
      out[(*n)++] = (char)cp;
   } else if (cp < 0x800) {
      out[(*n)++] = (char)(0xc0 | cp >> 6);
      out[(*n)++] = (char)(0x80 | (cp & 0x3f));
   } else {
      out[(*n)++] = (char)(0xe0 | cp >> 12);
      out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      out[(*n)++] = (char)(0x80 | (cp & 0x3f));
   }
}

static char *
parse_string(struct jparser *p)
{
   expect(p, '"');
   char *out = xcalloc(p->len - p->pos + 1, 1);
   size_t n = 0;
   while (p->pos < p->len && p->s[p->pos] != '"') {
      char c = p->s[p->pos++];
      if (c != '\\') {
         out[n++] = c;
         continue;
      }
      if (p->pos >= p->len)
         die(p, "unterminated escape");
      c = p->s[p->pos++];
      switch (c) {
      case 'n': out[n++] = '\n'; break;
      case 't': out[n++] = '\t'; break;
      case 'r': out[n++] = '\r'; break;
      case 'b': out[n++] = '\b'; break;
      case 'f': out[n++] = '\f'; break;
      case 'u': {
         if (p->len - p->pos < 4)
            die(p, "short \\u escape");
         char hex[5] = { 0 };
         memcpy(hex, p->s + p->pos, 4);
         p->pos += 4;
         put_utf8(out, &n, (unsigned)strtoul(hex, NULL, 16));
         break;
      }
      default: out[n++] = c; break;
      }
   }
   if (p->pos >= p->len)
      die(p, "unterminated string");
   p->pos++;
   return out;
}

static struct jnode *parse_value(struct jparser *p);

static void
append_child(struct jnode *parent, struct jnode *child)
{
   if (parent->last)
      parent->last->next = child;
   else
      parent->child = child;
   parent->last = child;
}

static struct jnode *
parse_value(struct jparser *p)
{
   struct jnode *n = xcalloc(1, sizeof(*n));
   char c = peek(p);
   if (c == '{') {
      n->type = J_OBJ;
      p->pos++;
      if (peek(p) == '}') {
         p->pos++;
         return n;
      }
      for (;;) {
         char *key = parse_string(p);
         expect(p, ':');
         struct jnode *v = parse_value(p);
         v->key = key;
         append_child(n, v);
         if (peek(p) == ',') {
            p->pos++;
            continue;
         }
         expect(p, '}');
         return n;
      }
   }
   if (c == '[') {
      n->type = J_ARR;
      p->pos++;
      if (peek(p) == ']') {
         p->pos++;
         return n;
      }
      for (;;) {
         append_child(n, parse_value(p));
         if (peek(p) == ',') {
            p->pos++;
            continue;
         }
         expect(p, ']');
         return n;
      }
   }
   if (c == '"') {
      n->type = J_STR;
      n->text = parse_string(p);
      return n;
   }
   size_t start = p->pos;
   while (p->pos < p->len && (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '-' ||
                              p->s[p->pos] == '+' || p->s[p->pos] == '.'))
      p->pos++;
   if (p->pos == start)
      die(p, "unexpected character '%c'", c);
   n->text = xcalloc(p->pos - start + 1, 1);
   memcpy(n->text, p->s + start, p->pos - start);
   if (strcmp(n->text, "null") == 0)
      n->type = J_NULL;
   else if (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0)
      n->type = J_BOOL;
   else
      n->type = J_NUM;
   return n;
}

static struct jnode *
parse_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      die(NULL, "cannot open %s", path);
   fseek(f, 0, SEEK_END);
   long size = ftell(f);
   fseek(f, 0, SEEK_SET);
   if (size < 0)
      die(NULL, "cannot read %s", path);
   char *buf = xcalloc((size_t)size + 1, 1);
   if (fread(buf, 1, (size_t)size, f) != (size_t)size)
      die(NULL, "cannot read %s", path);
   fclose(f);
   struct jparser p = { path, buf, 0, (size_t)size };
   struct jnode *root = parse_value(&p);
   if (peek(&p) != '\0')
      die(&p, "trailing data");
   return root;
}

static struct jnode *
member(const struct jnode *obj, const char *key)
{
   if (!obj || obj->type != J_OBJ)
      return NULL;
   for (struct jnode *c = obj->child; c; c = c->next) {
      if (strcmp(c->key, key) == 0)
         return c;
   }
   return NULL;
}

static const char *
member_str(const struct jnode *obj, const char *key)
{
   struct jnode *m = member(obj, key);
   return m && m->type == J_STR ? m->text : NULL;
}

/* A number written as a JSON number or as a "0x..." string. */
static uint32_t
member_u32(const struct jnode *obj, const char *key)
{
   struct jnode *m = member(obj, key);
   if (!m || (m->type != J_NUM && m->type != J_STR))
      die(NULL, "missing number \"%s\"", key);
   return (uint32_t)strtoul(m->text, NULL, 0);
}

/* ---- the tables ---------------------------------------------------------- */

struct kind {
   const char *name;
   const char *category;
   struct jnode *node;
};

static struct kind *kinds;
static unsigned kind_count;

static unsigned
kind_index(const char *name)
{
   for (unsigned i = 0; i < kind_count; i++) {
      if (strcmp(kinds[i].name, name) == 0)
         return i;
   }
   die(NULL, "unknown operand kind %s", name);
}

static const char *
category_enum(const char *category)
{
   if (strcmp(category, "BitEnum") == 0)
      return "SPIRV_CAT_BIT_ENUM";
   if (strcmp(category, "ValueEnum") == 0)
      return "SPIRV_CAT_VALUE_ENUM";
   if (strcmp(category, "Id") == 0)
      return "SPIRV_CAT_ID";
   if (strcmp(category, "Literal") == 0)
      return "SPIRV_CAT_LITERAL";
   if (strcmp(category, "Composite") == 0)
      return "SPIRV_CAT_COMPOSITE";
   die(NULL, "unknown operand kind category %s", category);
}

static const char *
quant_enum(const char *q)
{
   if (!q)
      return "SPIRV_Q_ONE";
   if (strcmp(q, "?") == 0)
      return "SPIRV_Q_OPT";
   if (strcmp(q, "*") == 0)
      return "SPIRV_Q_ANY";
   die(NULL, "unknown quantifier %s", q);
}

static unsigned
count_children(const struct jnode *n)
{
   unsigned c = 0;
   for (struct jnode *i = n ? n->child : NULL; i; i = i->next)
      c++;
   return c;
}

/* The operand pool: operand lists of instructions and enumerant parameters. */
static unsigned pool_count;

static unsigned
emit_operands(FILE *out, const struct jnode *list)
{
   unsigned first = pool_count;
   for (struct jnode *o = list ? list->child : NULL; o; o = o->next) {
      const char *kind = member_str(o, "kind");
      if (!kind)
         die(NULL, "operand without kind");
      fprintf(out, "   { SPIRV_KIND_%s, %s }, /* %u */\n", kind,
              quant_enum(member_str(o, "quantifier")), pool_count);
      kind_index(kind);
      pool_count++;
   }
   return first;
}

/* Names of an instruction or enumerant: the canonical one, then any aliases. */
static unsigned
names_of(const struct jnode *n, const char *name_key, const char **names, unsigned max)
{
   unsigned count = 0;
   names[count++] = member_str(n, name_key);
   if (!names[0])
      die(NULL, "entry without \"%s\"", name_key);
   struct jnode *aliases = member(n, "aliases");
   for (struct jnode *a = aliases ? aliases->child : NULL; a && count < max; a = a->next) {
      if (a->type == J_STR)
         names[count++] = a->text;
   }
   return count;
}

static void
emit_insts(FILE *out, const char *array, const struct jnode *insts, unsigned *pool_first)
{
   unsigned count = 0;
   fprintf(out, "const struct spirv_inst_desc %s[] = {\n", array);
   unsigned i = 0;
   for (struct jnode *in = insts->child; in; in = in->next, i++) {
      const char *names[16];
      unsigned n = names_of(in, "opname", names, 16);
      struct jnode *ops = member(in, "operands");
      for (unsigned a = 0; a < n; a++) {
         fprintf(out, "   { \"%s\", %u, &spirv_grammar_operand_pool[%u], %u },\n", names[a],
                 member_u32(in, "opcode"), pool_first[i], count_children(ops));
         count++;
      }
   }
   fprintf(out, "};\nconst uint32_t %s_count = %u;\n\n", array, count);
}

int
main(int argc, char **argv)
{
   if (argc != 5)
      die(NULL, "usage: gen_spirv_grammar <core.json> <glsl.json> <out.c> <out.h>");
   struct jnode *core = parse_file(argv[1]);
   struct jnode *glsl = parse_file(argv[2]);
   struct jnode *core_insts = member(core, "instructions");
   struct jnode *core_kinds = member(core, "operand_kinds");
   struct jnode *glsl_insts = member(glsl, "instructions");
   if (!core_insts || !core_kinds || !glsl_insts)
      die(NULL, "grammar without instructions or operand_kinds");

   kind_count = count_children(core_kinds);
   kinds = xcalloc(kind_count, sizeof(*kinds));
   unsigned k = 0;
   for (struct jnode *n = core_kinds->child; n; n = n->next, k++) {
      kinds[k].name = member_str(n, "kind");
      kinds[k].category = member_str(n, "category");
      kinds[k].node = n;
      if (!kinds[k].name || !kinds[k].category)
         die(NULL, "operand kind without kind or category");
   }

   const char *banner = "/* Generated by gen_spirv_grammar from %s and %s; do not edit. */\n";

   FILE *h = fopen(argv[4], "w");
   if (!h)
      die(NULL, "cannot write %s", argv[4]);
   fprintf(h, banner, argv[1], argv[2]);
   fprintf(h, "#ifndef SPIRV_GRAMMAR_GEN_H\n#define SPIRV_GRAMMAR_GEN_H\n\n");
   fprintf(h, "/* Operand kinds of the core grammar, in grammar order. */\n");
   fprintf(h, "enum spirv_core_kind {\n");
   for (unsigned i = 0; i < kind_count; i++)
      fprintf(h, "   SPIRV_KIND_%s = %u,\n", kinds[i].name, i);
   fprintf(h, "   SPIRV_CORE_KIND_COUNT = %u,\n};\n\n", kind_count);
   fprintf(h, "#define SPIRV_GRAMMAR_CORE_VERSION_MAJOR %u\n", member_u32(core, "major_version"));
   fprintf(h, "#define SPIRV_GRAMMAR_CORE_VERSION_MINOR %u\n", member_u32(core, "minor_version"));
   fprintf(h, "#define SPIRV_GRAMMAR_CORE_REVISION %u\n", member_u32(core, "revision"));
   fprintf(h, "\n#endif /* SPIRV_GRAMMAR_GEN_H */\n");
   if (fclose(h) != 0)
      die(NULL, "cannot write %s", argv[4]);

   FILE *c = fopen(argv[3], "w");
   if (!c)
      die(NULL, "cannot write %s", argv[3]);
   fprintf(c, banner, argv[1], argv[2]);
   fprintf(c, "#include \"spirv_grammar.h\"\n\n");

   /* Operand pool: instruction operands, then enumerant parameters. */
   unsigned core_count = count_children(core_insts);
   unsigned glsl_count = count_children(glsl_insts);
   unsigned *core_first = xcalloc(core_count, sizeof(unsigned));
   unsigned *glsl_first = xcalloc(glsl_count, sizeof(unsigned));
   unsigned enum_total = 0;
   for (unsigned i = 0; i < kind_count; i++)
      enum_total += count_children(member(kinds[i].node, "enumerants"));
   unsigned *param_first = xcalloc(enum_total, sizeof(unsigned));

   fprintf(c, "const struct spirv_operand_desc spirv_grammar_operand_pool[] = {\n");
   fprintf(c, "   { SPIRV_KIND_IdRef, SPIRV_Q_ONE }, /* 0: keeps the pool non-empty */\n");
   pool_count = 1;
   unsigned i = 0;
   for (struct jnode *in = core_insts->child; in; in = in->next)
      core_first[i++] = emit_operands(c, member(in, "operands"));
   i = 0;
   for (struct jnode *in = glsl_insts->child; in; in = in->next)
      glsl_first[i++] = emit_operands(c, member(in, "operands"));
   unsigned e = 0;
   for (unsigned kk = 0; kk < kind_count; kk++) {
      struct jnode *list = member(kinds[kk].node, "enumerants");
      for (struct jnode *en = list ? list->child : NULL; en; en = en->next)
         param_first[e++] = emit_operands(c, member(en, "parameters"));
   }
   fprintf(c, "};\n\n");

   /* Enumerants of every kind, aliases included. */
   fprintf(c, "static const struct spirv_enumerant_desc enumerants[] = {\n");
   unsigned *kind_first = xcalloc(kind_count, sizeof(unsigned));
   unsigned *kind_enums = xcalloc(kind_count, sizeof(unsigned));
   unsigned emitted = 0;
   e = 0;
   for (unsigned kk = 0; kk < kind_count; kk++) {
      kind_first[kk] = emitted;
      struct jnode *list = member(kinds[kk].node, "enumerants");
      for (struct jnode *en = list ? list->child : NULL; en; en = en->next, e++) {
         const char *names[16];
         unsigned n = names_of(en, "enumerant", names, 16);
         for (unsigned a = 0; a < n; a++) {
            fprintf(c, "   { \"%s\", 0x%x, &spirv_grammar_operand_pool[%u], %u }, /* %s */\n",
                    names[a], member_u32(en, "value"), param_first[e],
                    count_children(member(en, "parameters")), kinds[kk].name);
            emitted++;
         }
      }
      kind_enums[kk] = emitted - kind_first[kk];
   }
   if (emitted == 0)
      fprintf(c, "   { \"\", 0, &spirv_grammar_operand_pool[0], 0 },\n");
   fprintf(c, "};\n\n");

   fprintf(c, "const struct spirv_kind_desc spirv_core_kinds[SPIRV_CORE_KIND_COUNT] = {\n");
   for (unsigned kk = 0; kk < kind_count; kk++) {
      unsigned bases[2] = { 0, 0 };
      struct jnode *b = member(kinds[kk].node, "bases");
      unsigned nb = 0;
      for (struct jnode *bn = b ? b->child : NULL; bn && nb < 2; bn = bn->next)
         bases[nb++] = kind_index(bn->text);
      fprintf(c, "   { \"%s\", %s, &enumerants[%u], %u, { %u, %u } },\n", kinds[kk].name,
              category_enum(kinds[kk].category), kind_first[kk], kind_enums[kk], bases[0],
              bases[1]);
   }
   fprintf(c, "};\n\n");

   emit_insts(c, "spirv_core_insts", core_insts, core_first);
   emit_insts(c, "spirv_glsl_insts", glsl_insts, glsl_first);
   if (fclose(c) != 0)
      die(NULL, "cannot write %s", argv[3]);
   return 0;
}
