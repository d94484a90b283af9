/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The text assembler (syntax in spirv_text.h). Two passes over the text:
 * the first collects every %id in order of first appearance and the header
 * directives, then gives named ids the lowest numbers numeric ids leave free;
 * the second encodes one instruction per line against the grammar
 * (spirv_grammar.c) and checks definitions. Errors are "line N: message" and
 * stop the assembly. Semantic validation is spirv-val's or the layers' job.
 */
#include "spirv_text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv/spirv_arm_ml.h"
#include "spirv_text_private.h"

#define OP_SWITCH 251
#define HEADER_WORDS 5

enum tok_type { TOK_WORD, TOK_ID, TOK_STRING, TOK_EQ };

struct tok {
   enum tok_type type;
   uint32_t len;
   const char *s; /* TOK_ID without the '%'; TOK_STRING unescaped */
};

struct id_entry {
   const char *name;
   uint32_t len;
   uint32_t id;
   uint32_t first_line;
   uint32_t def_line; /* 0 until defined */
   bool numeric;
};

struct assembler {
   const char *text;
   size_t len;
   size_t pos;
   uint32_t line;

   struct tok *toks;
   uint32_t ntok, tok_cap;
   char *strbuf; /* unescaped strings of the current line */
   size_t strbuf_used;

   struct id_entry *ids; /* in order of first appearance */
   uint32_t nid, id_cap;
   uint32_t *hash; /* 1 + index into ids, 0 when empty */
   uint32_t hash_cap;
   uint32_t max_id;

   uint32_t version, generator, bound, schema;
   bool seen_inst;

   struct word_buf out;
   struct text_ids facts;

   char *err;
   size_t err_len;
   bool failed;
};

/* State of the instruction being encoded. */
struct inst {
   struct assembler *a;
   const struct tok *toks;
   uint32_t ntok, pos;
   const struct spirv_inst_desc *desc;
   const struct tok *result;
   bool result_done;
   uint32_t result_type;
   uint32_t first_ref; /* first <id> operand: the OpSwitch selector */
   uint32_t last_ref;  /* latest <id> operand: the OpExtInst set */
};

static bool __attribute__((format(printf, 3, 4)))
fail(struct assembler *a, uint32_t line, const char *fmt, ...)
{
   if (a->failed)
      return false;
   a->failed = true;
   if (a->err && a->err_len) {
      int n = snprintf(a->err, a->err_len, "line %u: ", line);
      if (n >= 0 && (size_t)n < a->err_len) {
         va_list ap;
         va_start(ap, fmt);
         vsnprintf(a->err + n, a->err_len - (size_t)n, fmt, ap);
         va_end(ap);
      }
   }
   return false;
}

static bool
oom(struct assembler *a)
{
   return fail(a, a->line, "out of memory");
}

/* ---- lexer --------------------------------------------------------------------- */

static bool
push_tok(struct assembler *a, enum tok_type type, const char *s, size_t len)
{
   if (a->ntok == a->tok_cap) {
      uint32_t cap = a->tok_cap ? a->tok_cap * 2 : 64;
      struct tok *t = realloc(a->toks, cap * sizeof(*t));
      if (!t)
         return oom(a);
      a->toks = t;
      a->tok_cap = cap;
   }
   a->toks[a->ntok++] = (struct tok){type, (uint32_t)len, s};
   return true;
}

static bool
is_word_char(char c)
{
   return !isspace((unsigned char)c) && c != ';' && c != '"' && c != '=';
}

static void
parse_directive(struct assembler *a, const char *s, size_t len)
{
   static const char *const names[] = {"Version:", "Generator:", "Bound:", "Schema:"};
   while (len && isspace((unsigned char)*s)) {
      s++;
      len--;
   }
   for (unsigned i = 0; i < 4; i++) {
      size_t n = strlen(names[i]);
      if (len < n || strncmp(s, names[i], n) != 0)
         continue;
      const char *v = s + n;
      size_t vlen = len - n;
      while (vlen && isspace((unsigned char)*v)) {
         v++;
         vlen--;
      }
      while (vlen && isspace((unsigned char)v[vlen - 1]))
         vlen--;
      uint32_t value;
      const char *dot = memchr(v, '.', vlen);
      if (i == 0 && dot) {
         uint32_t major, minor;
         if (parse_u32_literal(v, (size_t)(dot - v), &major) &&
             parse_u32_literal(dot + 1, vlen - (size_t)(dot - v) - 1, &minor) && major < 256 &&
             minor < 256)
            a->version = major << 16 | minor << 8;
         return;
      }
      if (!parse_u32_literal(v, vlen, &value))
         return; /* prose, e.g. spirv-dis's "Khronos SPIR-V Tools Assembler; 0" */
      if (i == 0)
         a->version = value;
      else if (i == 1)
         a->generator = value;
      else if (i == 2)
         a->bound = value;
      else
         a->schema = value;
      return;
   }
}

/* Splits the next line into tokens. Returns false at the end of the text or
 * on an error (a->failed tells which). */
static bool
lex_line(struct assembler *a, bool directives)
{
   if (a->pos >= a->len)
      return false;
   a->line++;
   a->ntok = 0;
   a->strbuf_used = 0;
   while (a->pos < a->len) {
      char c = a->text[a->pos];
      if (c == '\n') {
         a->pos++;
         break;
      }
      if (isspace((unsigned char)c)) {
         a->pos++;
      } else if (c == ';') {
         size_t start = ++a->pos;
         while (a->pos < a->len && a->text[a->pos] != '\n')
            a->pos++;
         if (directives && !a->seen_inst && a->ntok == 0)
            parse_directive(a, a->text + start, a->pos - start);
      } else if (c == '=') {
         if (!push_tok(a, TOK_EQ, a->text + a->pos, 1))
            return false;
         a->pos++;
      } else if (c == '"') {
         char *out = a->strbuf + a->strbuf_used;
         size_t n = 0;
         a->pos++;
         for (;;) {
            if (a->pos >= a->len || a->text[a->pos] == '\n')
               return fail(a, a->line, "unterminated string");
            char s = a->text[a->pos++];
            if (s == '"')
               break;
            if (s == '\\') {
               if (a->pos >= a->len || a->text[a->pos] == '\n')
                  return fail(a, a->line, "unterminated string");
               s = a->text[a->pos++];
            }
            if (s == '\0')
               return fail(a, a->line, "NUL character in a string");
            out[n++] = s;
         }
         a->strbuf_used += n;
         if (!push_tok(a, TOK_STRING, out, n))
            return false;
      } else {
         size_t start = a->pos;
         bool id = c == '%';
         if (id)
            start = ++a->pos;
         while (a->pos < a->len && is_word_char(a->text[a->pos]))
            a->pos++;
         if (id && a->pos == start)
            return fail(a, a->line, "'%%' without a name");
         if (!push_tok(a, id ? TOK_ID : TOK_WORD, a->text + start, a->pos - start))
            return false;
      }
   }
   if (a->ntok)
      a->seen_inst = true;
   return true;
}

/* ---- ids --------------------------------------------------------------------------- */

static uint32_t
hash_name(const char *s, uint32_t len)
{
   uint32_t h = 2166136261u;
   for (uint32_t i = 0; i < len; i++)
      h = (h ^ (uint8_t)s[i]) * 16777619u;
   return h;
}

static struct id_entry *
find_id(struct assembler *a, const char *s, uint32_t len)
{
   if (!a->hash_cap)
      return NULL;
   for (uint32_t h = hash_name(s, len) & (a->hash_cap - 1);; h = (h + 1) & (a->hash_cap - 1)) {
      if (!a->hash[h])
         return NULL;
      struct id_entry *e = &a->ids[a->hash[h] - 1];
      if (e->len == len && memcmp(e->name, s, len) == 0)
         return e;
   }
}

static bool
grow_hash(struct assembler *a)
{
   uint32_t cap = a->hash_cap ? a->hash_cap * 2 : 256;
   uint32_t *hash = calloc(cap, sizeof(*hash));
   if (!hash)
      return oom(a);
   for (uint32_t i = 0; i < a->nid; i++) {
      uint32_t h = hash_name(a->ids[i].name, a->ids[i].len) & (cap - 1);
      while (hash[h])
         h = (h + 1) & (cap - 1);
      hash[h] = i + 1;
   }
   free(a->hash);
   a->hash = hash;
   a->hash_cap = cap;
   return true;
}

static bool
intern_id(struct assembler *a, const struct tok *t)
{
   if (find_id(a, t->s, t->len))
      return true;
   if ((a->nid + 1) * 2 > a->hash_cap && !grow_hash(a))
      return false;
   if (a->nid == a->id_cap) {
      uint32_t cap = a->id_cap ? a->id_cap * 2 : 256;
      struct id_entry *ids = realloc(a->ids, cap * sizeof(*ids));
      if (!ids)
         return oom(a);
      a->ids = ids;
      a->id_cap = cap;
   }
   /* Numeric ids are plain decimal; "%007" is a name, so no two spellings
    * can denote the same number. */
   struct id_entry e = {t->s, t->len, 0, a->line, 0, t->len == 1 || t->s[0] != '0'};
   for (uint32_t i = 0; i < t->len; i++)
      e.numeric = e.numeric && isdigit((unsigned char)t->s[i]);
   if (e.numeric) {
      uint64_t v = 0;
      for (uint32_t i = 0; i < t->len && v < SPIRV_TEXT_MAX_ID; i++)
         v = v * 10 + (uint64_t)(t->s[i] - '0');
      if (v == 0 || v >= SPIRV_TEXT_MAX_ID)
         return fail(a, a->line, "id %%%.*s is not in 1..%u", (int)t->len, t->s,
                     SPIRV_TEXT_MAX_ID - 1);
      e.id = (uint32_t)v;
      if (e.id > a->max_id)
         a->max_id = e.id;
   }
   uint32_t h = hash_name(t->s, t->len) & (a->hash_cap - 1);
   while (a->hash[h])
      h = (h + 1) & (a->hash_cap - 1);
   a->ids[a->nid] = e;
   a->hash[h] = ++a->nid;
   return true;
}

/* Named ids take the lowest numbers numeric ids do not use, in order. */
static bool
assign_ids(struct assembler *a)
{
   uint32_t numeric_max = a->max_id;
   uint8_t *used = calloc((size_t)numeric_max / 8 + 1, 1);
   if (!used)
      return oom(a);
   for (uint32_t i = 0; i < a->nid; i++) {
      if (a->ids[i].numeric)
         used[a->ids[i].id / 8] |= (uint8_t)(1u << (a->ids[i].id % 8));
   }
   uint32_t next = 1;
   for (uint32_t i = 0; i < a->nid; i++) {
      struct id_entry *e = &a->ids[i];
      if (e->numeric)
         continue;
      while (next <= numeric_max && (used[next / 8] >> (next % 8)) & 1)
         next++;
      if (next >= SPIRV_TEXT_MAX_ID) {
         free(used);
         return fail(a, e->first_line, "too many ids");
      }
      e->id = next++;
      if (e->id > a->max_id)
         a->max_id = e->id;
   }
   free(used);
   return true;
}

/* ---- operands ------------------------------------------------------------------------ */

static void
emit(struct inst *in, uint32_t word)
{
   word_buf_push(&in->a->out, word);
}

static const char *
kind_name(uint32_t kind)
{
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   return k ? k->name : "operand";
}

static const struct tok *
next_tok(struct inst *in, uint32_t kind)
{
   if (in->pos >= in->ntok) {
      fail(in->a, in->a->line, "%s: missing %s operand", in->desc->name, kind_name(kind));
      return NULL;
   }
   return &in->toks[in->pos++];
}

static bool
bad_token(struct inst *in, const struct tok *t, const char *expected)
{
   const char *prefix = t->type == TOK_ID ? "%" : t->type == TOK_STRING ? "\"" : "";
   const char *suffix = t->type == TOK_STRING ? "\"" : "";
   return fail(in->a, in->a->line, "%s: expected %s, got '%s%.*s%s'", in->desc->name, expected,
               prefix, (int)t->len, t->s, suffix);
}

static bool
emit_id(struct inst *in, const struct tok *t, uint32_t *value)
{
   if (t->type != TOK_ID)
      return bad_token(in, t, "an <id> (%name)");
   struct id_entry *e = find_id(in->a, t->s, t->len);
   if (!e)
      return fail(in->a, in->a->line, "internal error: id %%%.*s not interned", (int)t->len, t->s);
   emit(in, e->id);
   if (value)
      *value = e->id;
   if (!in->first_ref)
      in->first_ref = e->id;
   in->last_ref = e->id;
   return true;
}

static void
emit_string(struct inst *in, const char *s, size_t len)
{
   for (size_t i = 0; i < len + 1; i += 4) {
      uint32_t w = 0;
      for (size_t b = 0; b < 4 && i + b < len; b++)
         w |= (uint32_t)(uint8_t)s[i + b] << (8 * b);
      emit(in, w);
   }
}

static bool
emit_literal(struct inst *in, const struct tok *t)
{
   uint32_t v;
   if (t->type != TOK_WORD || !parse_u32_literal(t->s, t->len, &v))
      return bad_token(in, t, "a 32-bit integer literal");
   emit(in, v);
   return true;
}

static bool
emit_number(struct inst *in, const struct tok *t, uint32_t type_id)
{
   const struct num_type *type = text_ids_num_type(&in->a->facts, type_id);
   if (!type || !num_type_words(type))
      return fail(in->a, in->a->line,
                  "%s: cannot encode literal '%.*s': its type is not a scalar integer or "
                  "float type declared earlier",
                  in->desc->name, (int)t->len, t->s);
   if (t->type != TOK_WORD)
      return bad_token(in, t, "a numeric literal");
   uint32_t w[2];
   const char *msg = num_encode(type, t->s, t->len, w);
   if (msg)
      return fail(in->a, in->a->line, "%s: literal '%.*s': %s", in->desc->name, (int)t->len, t->s,
                  msg);
   for (uint32_t i = 0; i < num_type_words(type); i++)
      emit(in, w[i]);
   return true;
}

/* An operand of an unknown extended instruction: an id, a string or a word. */
static bool
emit_generic(struct inst *in, const struct tok *t)
{
   if (t->type == TOK_ID)
      return emit_id(in, t, NULL);
   if (t->type == TOK_STRING) {
      emit_string(in, t->s, t->len);
      return true;
   }
   return emit_literal(in, t);
}

static bool parse_operands(struct inst *in, const struct spirv_operand_desc *ops, uint32_t count);

static bool
parse_enum(struct inst *in, uint32_t kind, const struct tok *t)
{
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   if (t->type != TOK_WORD)
      return bad_token(in, t, k->name);

   if (k->category == SPIRV_CAT_VALUE_ENUM) {
      const struct spirv_enumerant_desc *e = spirv_grammar_enum_by_name(kind, t->s, t->len);
      uint32_t value;
      if (e)
         value = e->value;
      else if (parse_u32_literal(t->s, t->len, &value))
         e = spirv_grammar_enum(kind, value);
      else
         return fail(in->a, in->a->line, "%s: unknown %s '%.*s'", in->desc->name, k->name,
                     (int)t->len, t->s);
      emit(in, value);
      return !e || parse_operands(in, e->params, e->param_count);
   }

   /* Bit enum: names and numbers joined by '|'. */
   uint32_t mask = 0;
   const char *s = t->s, *end = t->s + t->len;
   while (s < end) {
      const char *bar = memchr(s, '|', (size_t)(end - s));
      size_t n = (size_t)((bar ? bar : end) - s);
      const struct spirv_enumerant_desc *e = spirv_grammar_enum_by_name(kind, s, n);
      uint32_t value;
      if (e)
         value = e->value;
      else if (!parse_u32_literal(s, n, &value))
         return fail(in->a, in->a->line, "%s: unknown %s '%.*s'", in->desc->name, k->name, (int)n,
                     s);
      mask |= value;
      s += n + (bar ? 1 : 0);
   }
   emit(in, mask);
   for (uint32_t bit = 0; bit < 32; bit++) {
      if (!(mask >> bit & 1))
         continue;
      const struct spirv_enumerant_desc *e = spirv_grammar_enum(kind, 1u << bit);
      if (e && !parse_operands(in, e->params, e->param_count))
         return false;
   }
   return true;
}

static bool
parse_ext_inst(struct inst *in, const struct tok *t)
{
   struct assembler *a = in->a;
   uint32_t set_id = in->last_ref;
   enum text_set set = set_id < a->facts.cap ? (enum text_set)a->facts.set[set_id] : TEXT_SET_NONE;
   if (t->type != TOK_WORD)
      return bad_token(in, t, "an extended instruction name or number");

   uint32_t number;
   const struct spirv_inst_desc *glsl = NULL;
   bool named = false;
   if (parse_u32_literal(t->s, t->len, &number)) {
      if (set == TEXT_SET_GLSL)
         glsl = spirv_grammar_glsl_inst(number);
   } else if (set == TEXT_SET_GLSL) {
      glsl = spirv_grammar_glsl_inst_by_name(t->s, t->len);
      named = glsl != NULL;
      if (glsl)
         number = glsl->opcode;
   } else if (set == TEXT_SET_TOSA || set == TEXT_SET_ME || set == TEXT_SET_DEBUG) {
      static const enum spirv_ext_inst_set sets[] = {
          [TEXT_SET_TOSA] = SPIRV_EXT_INST_SET_TOSA_001000_1,
          [TEXT_SET_ME] = SPIRV_EXT_INST_SET_MOTION_ENGINE_100,
          [TEXT_SET_DEBUG] = SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1,
      };
      char name[64];
      if (t->len < sizeof(name)) {
         memcpy(name, t->s, t->len);
         name[t->len] = '\0';
         named = spirv_ext_inst_from_name(sets[set], name, &number);
      }
   } else if (set == TEXT_SET_NONE) {
      return fail(a, a->line,
                  "OpExtInst: the set operand is not an OpExtInstImport declared earlier, so "
                  "'%.*s' must be a number",
                  (int)t->len, t->s);
   } else {
      return fail(a, a->line,
                  "OpExtInst: instruction names of this set are unknown; write '%.*s' as a "
                  "number",
                  (int)t->len, t->s);
   }
   if (!named && !parse_u32_literal(t->s, t->len, &number))
      return fail(a, a->line, "OpExtInst: unknown instruction '%.*s' of the imported set",
                  (int)t->len, t->s);
   emit(in, number);

   if (glsl)
      return parse_operands(in, glsl->operands, glsl->operand_count);
   while (in->pos < in->ntok) {
      const struct tok *o = &in->toks[in->pos++];
      bool generic = set == TEXT_SET_OTHER || set == TEXT_SET_NONE;
      bool ok = generic ? emit_generic(in, o) : emit_id(in, o, NULL);
      if (!ok)
         return false;
   }
   return true;
}

static bool
parse_spec_constant_op(struct inst *in, const struct tok *t)
{
   const struct spirv_inst_desc *desc = NULL;
   uint32_t number;
   if (t->type == TOK_WORD && parse_u32_literal(t->s, t->len, &number)) {
      desc = spirv_grammar_inst(number);
   } else if (t->type == TOK_WORD) {
      char name[80] = "Op";
      if (t->len + 3 <= sizeof(name)) {
         memcpy(name + 2, t->s, t->len);
         name[t->len + 2] = '\0';
         desc = spirv_grammar_inst_by_name(name, t->len + 2);
      }
   }
   if (!desc)
      return bad_token(in, t, "an opcode name without 'Op' (IAdd, ...)");
   emit(in, desc->opcode);
   uint32_t skip = 0;
   while (skip < desc->operand_count && (desc->operands[skip].kind == SPIRV_KIND_IdResultType ||
                                         desc->operands[skip].kind == SPIRV_KIND_IdResult))
      skip++;
   return parse_operands(in, desc->operands + skip, desc->operand_count - skip);
}

static bool
parse_operand(struct inst *in, uint32_t kind)
{
   struct assembler *a = in->a;
   if (kind == SPIRV_KIND_IdResult) {
      if (!in->result || in->result_done)
         return fail(a, a->line, "%s needs a result id: %%name = %s ...", in->desc->name,
                     in->desc->name);
      struct id_entry *e = find_id(a, in->result->s, in->result->len);
      if (e->def_line)
         return fail(a, a->line, "%%%.*s is defined twice (first on line %u)", (int)e->len, e->name,
                     e->def_line);
      e->def_line = a->line;
      in->result_done = true;
      emit(in, e->id);
      return true;
   }

   const struct tok *t = next_tok(in, kind);
   if (!t)
      return false;
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);

   switch (kind) {
   case SPIRV_KIND_IdResultType:
      return emit_id(in, t, &in->result_type);
   case SPIRV_KIND_LiteralString:
      if (t->type != TOK_STRING)
         return bad_token(in, t, "a \"string\"");
      emit_string(in, t->s, t->len);
      return true;
   case SPIRV_KIND_LiteralInteger:
      return emit_literal(in, t);
   case SPIRV_KIND_LiteralContextDependentNumber:
      return emit_number(in, t, in->result_type);
   case SPIRV_KIND_LiteralExtInstInteger:
      return parse_ext_inst(in, t);
   case SPIRV_KIND_LiteralSpecConstantOpInteger:
      return parse_spec_constant_op(in, t);
   default:
      break;
   }

   switch (k ? k->category : SPIRV_CAT_LITERAL) {
   case SPIRV_CAT_ID:
      return emit_id(in, t, NULL);
   case SPIRV_CAT_VALUE_ENUM:
   case SPIRV_CAT_BIT_ENUM:
      return parse_enum(in, kind, t);
   case SPIRV_CAT_COMPOSITE:
      in->pos--;
      for (unsigned i = 0; i < 2; i++) {
         uint32_t base = k->bases[i];
         if (in->desc->opcode == OP_SWITCH && base == SPIRV_KIND_LiteralInteger) {
            const struct tok *lit = next_tok(in, base);
            const struct num_type *sel = text_ids_value_num_type(&a->facts, in->first_ref);
            if (!lit)
               return false;
            if (!sel)
               return fail(a, a->line,
                           "OpSwitch: the selector's type is not a scalar "
                           "integer type declared earlier");
            if (!emit_number(in, lit, a->facts.value_type[in->first_ref]))
               return false;
         } else if (!parse_operand(in, base)) {
            return false;
         }
      }
      return true;
   default:
      return emit_literal(in, t);
   }
}

static bool
parse_operands(struct inst *in, const struct spirv_operand_desc *ops, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      switch (ops[i].quant) {
      case SPIRV_Q_ONE:
         if (!parse_operand(in, ops[i].kind))
            return false;
         break;
      case SPIRV_Q_OPT:
         if (in->pos < in->ntok && !parse_operand(in, ops[i].kind))
            return false;
         break;
      default:
         while (in->pos < in->ntok) {
            if (!parse_operand(in, ops[i].kind))
               return false;
         }
         break;
      }
   }
   return true;
}

/* ---- instructions ----------------------------------------------------------------------- */

static bool
encode_raw(struct assembler *a, const struct tok *toks, uint32_t ntok)
{
   struct inst in = {.a = a, .toks = toks, .ntok = ntok};
   static const struct spirv_inst_desc raw = {"raw instruction", 0, NULL, 0};
   in.desc = &raw;
   for (uint32_t i = 0; i < ntok; i++) {
      const struct tok *t = &toks[i];
      uint32_t v;
      if (t->type == TOK_WORD && t->len > 1 && t->s[0] == '!' &&
          parse_u32_literal(t->s + 1, t->len - 1, &v)) {
         emit(&in, v);
      } else if (i == 0) {
         return bad_token(&in, t, "!<word>");
      } else if (!emit_generic(&in, t)) {
         return false;
      }
   }
   return true;
}

static bool
encode_line(struct assembler *a)
{
   const struct tok *toks = a->toks;
   uint32_t ntok = a->ntok, i = 0;
   const struct tok *result = NULL;
   if (ntok >= 2 && toks[0].type == TOK_ID && toks[1].type == TOK_EQ) {
      result = &toks[0];
      i = 2;
   }
   if (i >= ntok || toks[i].type != TOK_WORD)
      return fail(a, a->line, "expected an opcode%s", result ? " after '='" : "");

   const struct tok *op = &toks[i];
   if (op->s[0] == '!') {
      if (result)
         return fail(a, a->line, "a raw instruction cannot have a result name");
      return encode_raw(a, op, ntok - i);
   }
   const struct spirv_inst_desc *desc = spirv_grammar_inst_by_name(op->s, op->len);
   if (!desc)
      return fail(a, a->line, "unknown opcode '%.*s'", (int)op->len, op->s);

   struct inst in = {
       .a = a, .toks = toks, .ntok = ntok, .pos = i + 1, .desc = desc, .result = result};
   size_t start = a->out.count;
   emit(&in, 0);
   if (!parse_operands(&in, desc->operands, desc->operand_count))
      return false;
   if (in.pos < ntok) {
      const struct tok *t = &toks[in.pos];
      return fail(a, a->line, "%s: unexpected operand '%s%.*s'", desc->name,
                  t->type == TOK_ID ? "%" : "", (int)t->len, t->s);
   }
   if (result && !in.result_done)
      return fail(a, a->line, "%s has no result id, but %%%.*s = was given", desc->name,
                  (int)result->len, result->s);
   if (a->out.oom)
      return oom(a);
   size_t wc = a->out.count - start;
   if (wc > 0xffff)
      return fail(a, a->line, "%s: instruction of %zu words is too long", desc->name, wc);
   a->out.data[start] = (uint32_t)wc << 16 | desc->opcode;
   text_ids_track(&a->facts, &a->out.data[start]);
   return true;
}

static bool
first_pass(struct assembler *a)
{
   while (lex_line(a, true)) {
      for (uint32_t i = 0; i < a->ntok; i++) {
         if (a->toks[i].type == TOK_ID && !intern_id(a, &a->toks[i]))
            return false;
      }
   }
   return !a->failed && assign_ids(a);
}

static bool
second_pass(struct assembler *a)
{
   a->pos = 0;
   a->line = 0;
   for (unsigned i = 0; i < HEADER_WORDS; i++)
      word_buf_push(&a->out, 0);
   while (lex_line(a, false)) {
      if (a->ntok && !encode_line(a))
         return false;
   }
   if (a->failed)
      return false;
   for (uint32_t i = 0; i < a->nid; i++) {
      const struct id_entry *e = &a->ids[i];
      if (!e->numeric && !e->def_line)
         return fail(a, e->first_line, "undefined id %%%.*s", (int)e->len, e->name);
   }
   if (a->out.oom)
      return oom(a);
   uint32_t bound = a->max_id + 1;
   a->out.data[0] = 0x07230203u;
   a->out.data[1] = a->version;
   a->out.data[2] = a->generator;
   a->out.data[3] = a->bound > bound ? a->bound : bound;
   a->out.data[4] = a->schema;
   return true;
}

bool
spirv_text_assemble(const char *text, size_t len, uint32_t **words, size_t *count, char *err,
                    size_t err_len)
{
   struct assembler a = {
       .text = text, .len = len, .version = 0x00010600u, .err = err, .err_len = err_len};
   bool ok = false;
   *words = NULL;
   *count = 0;
   if (err && err_len)
      err[0] = '\0';

   a.strbuf = malloc(len + 1);
   if (!a.strbuf) {
      oom(&a);
      goto out;
   }
   if (!first_pass(&a))
      goto out;
   if (!text_ids_init(&a.facts, a.max_id + 1)) {
      oom(&a);
      goto out;
   }
   if (!second_pass(&a))
      goto out;
   *words = a.out.data;
   *count = a.out.count;
   a.out.data = NULL;
   ok = true;
out:
   free(a.out.data);
   text_ids_finish(&a.facts);
   free(a.strbuf);
   free(a.toks);
   free(a.ids);
   free(a.hash);
   return ok;
}
