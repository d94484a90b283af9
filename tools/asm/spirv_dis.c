/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The disassembler: spirv-dis style text with numeric ids and a header of
 * directive comments, written so that spirv_text_assemble() gives back the
 * same words. Each instruction is decoded against the same grammar and the
 * same per-id facts as the assembler uses; anything that would not re-encode
 * identically (an unknown opcode or enumerant, an id of 0 or beyond the bound,
 * a string with control characters or dirty padding, a literal in a
 * non-canonical form, operands the grammar does not expect) is written as a
 * raw instruction instead, with the opcode's name in a comment.
 */
#include "spirv_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv/spirv_arm_ml.h"
#include "spirv_text_private.h"

#define OP_SWITCH 251

struct dis {
   uint32_t id_limit; /* printable ids are 1..id_limit-1 */
   struct text_ids facts;
   uint8_t *defined; /* ids already printed as a result, which the assembler rejects twice */
   struct char_buf out;
   struct char_buf ops; /* operands of the instruction being decoded */
};

struct dinst {
   struct dis *d;
   const uint32_t *w;
   uint32_t wc, idx;
   const struct spirv_inst_desc *desc;
   uint32_t result; /* 0: none */
   uint32_t result_type;
   uint32_t first_ref, last_ref;
};

static bool
take(struct dinst *di, uint32_t *word)
{
   if (di->idx >= di->wc)
      return false;
   *word = di->w[di->idx++];
   return true;
}

static bool
print_id(struct dinst *di, uint32_t *value)
{
   uint32_t id;
   if (!take(di, &id) || id == 0 || id >= di->d->id_limit)
      return false;
   char_buf_printf(&di->d->ops, " %%%u", id);
   if (value)
      *value = id;
   if (!di->first_ref)
      di->first_ref = id;
   di->last_ref = id;
   return true;
}

static bool
print_string(struct dinst *di)
{
   if (di->idx >= di->wc)
      return false;
   const char *s = (const char *)(di->w + di->idx);
   size_t max = (size_t)(di->wc - di->idx) * 4;
   const char *nul = memchr(s, '\0', max);
   if (!nul)
      return false;
   size_t len = (size_t)(nul - s), words = len / 4 + 1;
   for (size_t i = len; i < words * 4; i++) {
      if (s[i] != '\0')
         return false; /* padding the assembler would not reproduce */
   }
   for (size_t i = 0; i < len; i++) {
      unsigned char c = (unsigned char)s[i];
      if (c < 0x20 || c == 0x7f)
         return false;
   }
   char_buf_append(&di->d->ops, " \"", 2);
   for (size_t i = 0; i < len; i++) {
      if (s[i] == '"' || s[i] == '\\')
         char_buf_append(&di->d->ops, "\\", 1);
      char_buf_append(&di->d->ops, &s[i], 1);
   }
   char_buf_append(&di->d->ops, "\"", 1);
   di->idx += (uint32_t)words;
   return true;
}

static bool
print_number(struct dinst *di, uint32_t type_id)
{
   const struct num_type *type = text_ids_num_type(&di->d->facts, type_id);
   if (!type)
      return false;
   uint32_t n = num_type_words(type);
   if (n == 0 || di->wc - di->idx < n)
      return false;
   char buf[96];
   if (!num_format(type, di->w + di->idx, buf, sizeof(buf)))
      return false;
   di->idx += n;
   char_buf_printf(&di->d->ops, " %s", buf);
   return true;
}

static bool dis_operands(struct dinst *di, const struct spirv_operand_desc *ops, uint32_t count);

static bool
print_enum(struct dinst *di, uint32_t kind)
{
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   uint32_t value;
   if (!take(di, &value))
      return false;

   if (k->category == SPIRV_CAT_VALUE_ENUM) {
      const struct spirv_enumerant_desc *e = spirv_grammar_enum(kind, value);
      if (!e)
         return false;
      char_buf_printf(&di->d->ops, " %s", e->name);
      return dis_operands(di, e->params, e->param_count);
   }

   if (value == 0) {
      const struct spirv_enumerant_desc *e = spirv_grammar_enum(kind, 0);
      char_buf_printf(&di->d->ops, " %s", e ? e->name : "0");
      return true;
   }
   const char *sep = " ";
   for (uint32_t bit = 0; bit < 32; bit++) {
      if (!(value >> bit & 1))
         continue;
      const struct spirv_enumerant_desc *e = spirv_grammar_enum(kind, 1u << bit);
      if (!e)
         return false;
      char_buf_printf(&di->d->ops, "%s%s", sep, e->name);
      sep = "|";
   }
   for (uint32_t bit = 0; bit < 32; bit++) {
      if (!(value >> bit & 1))
         continue;
      const struct spirv_enumerant_desc *e = spirv_grammar_enum(kind, 1u << bit);
      if (!dis_operands(di, e->params, e->param_count))
         return false;
   }
   return true;
}

static bool
print_ext_inst(struct dinst *di)
{
   struct dis *d = di->d;
   uint32_t set_id = di->last_ref, number;
   enum text_set set = set_id < d->facts.cap ? (enum text_set)d->facts.set[set_id] : TEXT_SET_NONE;
   if (!take(di, &number))
      return false;

   if (set == TEXT_SET_GLSL) {
      const struct spirv_inst_desc *glsl = spirv_grammar_glsl_inst(number);
      if (!glsl)
         return false;
      char_buf_printf(&d->ops, " %s", glsl->name);
      return dis_operands(di, glsl->operands, glsl->operand_count);
   }

   const struct spirv_ext_inst_desc *desc = NULL;
   if (set == TEXT_SET_TOSA)
      desc = spirv_ext_inst_desc(SPIRV_EXT_INST_SET_TOSA_001000_1, number);
   else if (set == TEXT_SET_ME)
      desc = spirv_ext_inst_desc(SPIRV_EXT_INST_SET_MOTION_ENGINE_100, number);
   else if (set == TEXT_SET_DEBUG)
      desc = spirv_ext_inst_desc(SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1, number);
   if (desc)
      char_buf_printf(&d->ops, " %s", desc->name);
   else
      char_buf_printf(&d->ops, " %u", number);

   bool generic = set == TEXT_SET_OTHER || set == TEXT_SET_NONE;
   while (di->idx < di->wc) {
      uint32_t w = di->w[di->idx];
      if (generic && (w == 0 || w >= d->id_limit)) {
         char_buf_printf(&d->ops, " %u", w);
         di->idx++;
      } else if (!print_id(di, NULL)) {
         return false;
      }
   }
   return true;
}

static bool
print_spec_constant_op(struct dinst *di)
{
   uint32_t opcode;
   if (!take(di, &opcode))
      return false;
   const struct spirv_inst_desc *desc = spirv_grammar_inst(opcode);
   if (!desc || strncmp(desc->name, "Op", 2) != 0)
      return false;
   char_buf_printf(&di->d->ops, " %s", desc->name + 2);
   uint32_t skip = 0;
   while (skip < desc->operand_count && (desc->operands[skip].kind == SPIRV_KIND_IdResultType ||
                                         desc->operands[skip].kind == SPIRV_KIND_IdResult))
      skip++;
   return dis_operands(di, desc->operands + skip, desc->operand_count - skip);
}

static bool
dis_operand(struct dinst *di, uint32_t kind)
{
   struct dis *d = di->d;
   uint32_t word;
   switch (kind) {
   case SPIRV_KIND_IdResult:
      if (!take(di, &word) || word == 0 || word >= d->id_limit || di->result)
         return false;
      di->result = word;
      return true;
   case SPIRV_KIND_IdResultType:
      return print_id(di, &di->result_type);
   case SPIRV_KIND_LiteralString:
      return print_string(di);
   case SPIRV_KIND_LiteralInteger:
      if (!take(di, &word))
         return false;
      char_buf_printf(&d->ops, " %u", word);
      return true;
   case SPIRV_KIND_LiteralContextDependentNumber:
      return print_number(di, di->result_type);
   case SPIRV_KIND_LiteralExtInstInteger:
      return print_ext_inst(di);
   case SPIRV_KIND_LiteralSpecConstantOpInteger:
      return print_spec_constant_op(di);
   default:
      break;
   }

   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   switch (k ? k->category : SPIRV_CAT_LITERAL) {
   case SPIRV_CAT_ID:
      return print_id(di, NULL);
   case SPIRV_CAT_VALUE_ENUM:
   case SPIRV_CAT_BIT_ENUM:
      return print_enum(di, kind);
   case SPIRV_CAT_COMPOSITE:
      for (unsigned i = 0; i < 2; i++) {
         uint32_t base = k->bases[i];
         if (di->desc->opcode == OP_SWITCH && base == SPIRV_KIND_LiteralInteger) {
            if (!di->first_ref || di->first_ref >= d->facts.cap ||
                !print_number(di, d->facts.value_type[di->first_ref]))
               return false;
         } else if (!dis_operand(di, base)) {
            return false;
         }
      }
      return true;
   default:
      if (!take(di, &word))
         return false;
      char_buf_printf(&d->ops, " %u", word);
      return true;
   }
}

static bool
dis_operands(struct dinst *di, const struct spirv_operand_desc *ops, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      switch (ops[i].quant) {
      case SPIRV_Q_ONE:
         if (!dis_operand(di, ops[i].kind))
            return false;
         break;
      case SPIRV_Q_OPT:
         if (di->idx < di->wc && !dis_operand(di, ops[i].kind))
            return false;
         break;
      default:
         while (di->idx < di->wc) {
            if (!dis_operand(di, ops[i].kind))
               return false;
         }
         break;
      }
   }
   return true;
}

static void
print_raw(struct dis *d, const uint32_t *w, uint32_t wc)
{
   char_buf_printf(&d->out, "%15s!0x%08x", "", w[0]);
   for (uint32_t i = 1; i < wc; i++)
      char_buf_printf(&d->out, " %u", w[i]);
   const struct spirv_inst_desc *desc = spirv_grammar_inst(w[0] & 0xffffu);
   if (desc)
      char_buf_printf(&d->out, " ; %s", desc->name);
   char_buf_append(&d->out, "\n", 1);
}

static void
dis_inst(struct dis *d, const uint32_t *w, uint32_t wc)
{
   struct dinst di = {.d = d, .w = w, .wc = wc, .idx = 1};
   di.desc = spirv_grammar_inst(w[0] & 0xffffu);
   d->ops.len = 0;
   if (d->ops.data)
      d->ops.data[0] = '\0';
   if (!di.desc || !dis_operands(&di, di.desc->operands, di.desc->operand_count) || di.idx != wc ||
       d->ops.oom || (di.result && d->defined[di.result])) {
      print_raw(d, w, wc);
      return;
   }
   if (di.result) {
      d->defined[di.result] = 1;
      char lhs[16];
      snprintf(lhs, sizeof(lhs), "%%%u", di.result);
      char_buf_printf(&d->out, "%12s = %s", lhs, di.desc->name);
   } else {
      char_buf_printf(&d->out, "%15s%s", "", di.desc->name);
   }
   if (d->ops.len)
      char_buf_append(&d->out, d->ops.data, d->ops.len);
   char_buf_append(&d->out, "\n", 1);
   text_ids_track(&d->facts, w);
}

static bool __attribute__((format(printf, 3, 4)))
dis_fail(char *err, size_t err_len, const char *fmt, ...)
{
   if (err && err_len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(err, err_len, fmt, ap);
      va_end(ap);
   }
   return false;
}

bool
spirv_text_disassemble(const uint32_t *words, size_t count, char **text, size_t *len, char *err,
                       size_t err_len)
{
   *text = NULL;
   if (len)
      *len = 0;
   if (err && err_len)
      err[0] = '\0';
   if (!words || count < 5)
      return dis_fail(err, err_len, "module of %zu words is shorter than the 5-word header",
                      words ? count : 0);
   if (words[0] == 0x03022307u)
      return dis_fail(err, err_len, "module is byte-swapped (magic 0x%08x)", words[0]);
   if (words[0] != 0x07230203u)
      return dis_fail(err, err_len, "bad magic number 0x%08x", words[0]);

   /* Check that the instructions tile the module before printing anything. */
   for (size_t off = 5; off < count;) {
      uint32_t wc = words[off] >> 16;
      if (wc == 0)
         return dis_fail(err, err_len, "word %zu: instruction with word count 0", off);
      if (wc > count - off)
         return dis_fail(err, err_len, "word %zu: instruction of %u words runs past the end", off,
                         wc);
      off += wc;
   }

   struct dis d = {0};
   uint32_t bound = words[3];
   d.id_limit = bound < SPIRV_TEXT_MAX_ID ? bound : SPIRV_TEXT_MAX_ID;
   d.defined = calloc(d.id_limit ? d.id_limit : 1, 1);
   if (!d.defined || !text_ids_init(&d.facts, d.id_limit)) {
      free(d.defined);
      return dis_fail(err, err_len, "out of memory");
   }

   uint32_t version = words[1];
   char_buf_printf(&d.out, "; SPIR-V\n");
   if ((version & 0xff0000ffu) == 0)
      char_buf_printf(&d.out, "; Version: %u.%u\n", version >> 16 & 0xffu, version >> 8 & 0xffu);
   else
      char_buf_printf(&d.out, "; Version: 0x%08x\n", version);
   char_buf_printf(&d.out, "; Generator: 0x%08x\n; Bound: %u\n; Schema: %u\n", words[2], bound,
                   words[4]);

   for (size_t off = 5; off < count;) {
      uint32_t wc = words[off] >> 16;
      dis_inst(&d, words + off, wc);
      off += wc;
   }

   bool ok = !d.out.oom && !d.ops.oom;
   free(d.ops.data);
   free(d.defined);
   text_ids_finish(&d.facts);
   if (!ok) {
      free(d.out.data);
      return dis_fail(err, err_len, "out of memory");
   }
   *text = d.out.data;
   if (len)
      *len = d.out.len;
   return true;
}
