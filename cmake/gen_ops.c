/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The operator-declaration generator (docs/adding-an-op.md), run by CMake at
 * configure time (cmake/OpDeclarations.cmake). It compiles the declarations
 * of graph/ops/tosa_ops.def and me_ops.def (or DG_OPS_DEF) in, checks them, and writes into
 * <out-dir>:
 *  - dg_kernels.cmake: one vmel_kernel() line per declared kernel variant,
 *    the list shaders/CMakeLists.txt compiles;
 *  - dg_op_abi.h: the kernel ABI shared by C and GLSL: per operator its
 *    operand indices, its kernel tensor bindings, and its attributes as a C
 *    struct and as GLSL specialization constants.
 * A declaration that is not consistent fails here, with a message naming the
 * line's operator: a row naming a kernel that no DG_KERNEL declares (a type
 * row without a compiled variant), a row with the wrong number of columns, an
 * attribute whose source is no operand, a kernel template that does not
 * exist, a kernel no row uses. The C compiler then fails too wherever a
 * consumer names an undeclared kernel (DG_KERNEL_<NAME> of the registry).
 *
 * usage: gen_ops <source-dir> <out-dir>
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef DG_OPS_DEF
#define DG_OPS_NAME DG_OPS_DEF
#else
#define DG_OPS_NAME "tosa_ops.def, me_ops.def"
#endif

struct g_op {
   const char *set, *NAME, *name, *shape, *validate, *build;
};
struct g_operand {
   const char *op, *kind, *name;
   unsigned flags;
   int arg;
};
struct g_result {
   const char *op;
   int rank;
};
struct g_attr {
   const char *op, *type, *member, *source;
   int index;
   const char *deflt;
};
struct g_row {
   const char *op, *kernel;
   unsigned ncols;
};
struct g_kernel {
   const char *NAME, *tmpl;
   unsigned features;
   const char *defines;
};
struct g_fast {
   const char *base, *fast;
};

static const struct g_op ops[] = {
#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD)                                            \
   {#SET, #NAME, #name, #SHAPE, #VALIDATE, #BUILD},
#include "dg_decl_expand.h"
};
static const struct g_operand operands[] = {
#define DG_OPERAND(NAME, KIND, name, FLAGS, ARG) {#NAME, #KIND, #name, FLAGS, ARG},
#include "dg_decl_expand.h"
    {NULL, NULL, NULL, 0, 0}};
static const struct g_result results[] = {
#define DG_RESULT(NAME, RANK) {#NAME, RANK},
#include "dg_decl_expand.h"
    {NULL, 0}};
static const struct g_attr attrs[] = {
#define DG_ATTR(NAME, TYPE, member, SOURCE, INDEX, DEFAULT)                                        \
   {#NAME, #TYPE, #member, #SOURCE, INDEX, #DEFAULT},
#include "dg_decl_expand.h"
    {NULL, NULL, NULL, NULL, 0, NULL}};
static const struct g_row rows[] = {
#define DG_ROW(NAME, ANY, ALL, KERNEL, ...)                                                        \
   {#NAME, #KERNEL, sizeof((const unsigned char[]){__VA_ARGS__})},
#include "dg_decl_expand.h"
    {NULL, NULL, 0}};
static const struct g_kernel kernels[] = {
#define DG_KERNEL(KERNEL, TEMPLATE, FEATURES, DEFINES) {#KERNEL, #TEMPLATE, FEATURES, DEFINES},
#include "dg_decl_expand.h"
    {NULL, NULL, 0, NULL}};
struct g_grid {
   const char *kernel;
   int local;
   const char *grid;
};
static const struct g_grid grids[] = {
#define DG_KERNEL_GRID(KERNEL, LOCAL_SIZE, GRID) {#KERNEL, LOCAL_SIZE, #GRID},
#include "dg_decl_expand.h"
    {NULL, 0, NULL}};
static const struct g_grid template_grids[] = {
#define DG_TEMPLATE_GRID(TEMPLATE, LOCAL_SIZE, GRID) {#TEMPLATE, LOCAL_SIZE, #GRID},
#include "dg_decl_expand.h"
    {NULL, 0, NULL}};
static const struct g_fast fasts[] = {
#define DG_FAST(KERNEL, FAST) {#KERNEL, #FAST},
#include "dg_decl_expand.h"
    {NULL, NULL}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define F16_ARITH_BIT 1u
#define COOP_KHR_BIT 4u /* built from the NV form by cmake/spirv_coop_khr.c (D51) */
#define INT_DOT_BIT 8u  /* OpSDot by cmake/spirv_int_dot.c (D51) */
#define INTERNAL_BIT 0x100u
#define BIND_BIT 2u
#define COL_BIT 1u
#define MAX_KERNEL_TENSORS 8

static int errors;

static void __attribute__((format(printf, 1, 2)))
fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   fprintf(stderr, "gen_ops: %s: ", DG_OPS_NAME);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
   errors++;
}

static const struct g_op *
find_op(const char *NAME)
{
   for (size_t i = 0; i < COUNT(ops); i++)
      if (strcmp(ops[i].NAME, NAME) == 0)
         return &ops[i];
   return NULL;
}

/* A DG_KERNEL_GRID or DG_TEMPLATE_GRID line's workgroup size and grid. */
static void
check_grid(const char *macro, const struct g_grid *d)
{
   if (d->local < 1 || d->local > 1024 || (d->local & (d->local - 1)))
      fail("%s(%s): workgroup size %d is not a power of two in 1..1024", macro, d->kernel,
           d->local);
   if (strcmp(d->grid, "ELEMENTS") && strcmp(d->grid, "ELEMENTS4") &&
       strcmp(d->grid, "ELEMENTS8") && strcmp(d->grid, "ELEMENTS16") && strcmp(d->grid, "ROWS"))
      fail("%s(%s): grid %s is not ELEMENTS, ELEMENTS4, ELEMENTS8, ELEMENTS16 or ROWS", macro,
           d->kernel, d->grid);
}

/* The folder of shaders/graph/ that holds a kernel's template: that of the instruction set of
 * the first operator whose rows name it (TOSA: tosa/, ME: motion_engine/), or for a kernel no
 * row names (INTERNAL, DG_FAST variants) that of a kernel of the same template a row names;
 * tosa/ otherwise. */
static const char *
kernel_dir(const char *NAME)
{
   const char *tmpl = NULL;
   for (size_t k = 0; kernels[k].NAME && !tmpl; k++)
      if (strcmp(kernels[k].NAME, NAME) == 0)
         tmpl = kernels[k].tmpl;
   for (int pass = 0; pass < 2; pass++) {
      for (size_t r = 0; rows[r].op; r++) {
         const char *kernel = rows[r].kernel;
         if (pass == 0 ? strcmp(kernel, NAME) != 0 : !tmpl)
            continue;
         if (pass == 1) {
            size_t k = 0;
            while (kernels[k].NAME && strcmp(kernels[k].NAME, kernel) != 0)
               k++;
            if (!kernels[k].NAME || strcmp(kernels[k].tmpl, tmpl) != 0)
               continue;
         }
         const struct g_op *o = find_op(rows[r].op);
         return o && strcmp(o->set, "ME") == 0 ? "motion_engine" : "tosa";
      }
   }
   return "tosa";
}

/* The elements per work item of a kernel whose grid (its DG_KERNEL_GRID, else its template's
 * DG_TEMPLATE_GRID) is ELEMENTS4, ELEMENTS8 or ELEMENTS16; 0 for any other grid. The
 * elementwise driver (shaders/common/dg_elementwise.glsl) gets it as DG_EW_ITEMS. */
static int
kernel_items(const char *NAME, const char *tmpl)
{
   const char *grid = NULL;
   for (size_t g = 0; grids[g].kernel && !grid; g++)
      if (strcmp(grids[g].kernel, NAME) == 0)
         grid = grids[g].grid;
   for (size_t g = 0; template_grids[g].kernel && !grid; g++)
      if (strcmp(template_grids[g].kernel, tmpl) == 0)
         grid = template_grids[g].grid;
   if (!grid || strncmp(grid, "ELEMENTS", 8) != 0 || !grid[8])
      return 0;
   return atoi(grid + 8);
}

static const struct g_kernel *
find_kernel(const char *NAME)
{
   for (size_t i = 0; kernels[i].NAME; i++)
      if (strcmp(kernels[i].NAME, NAME) == 0)
         return &kernels[i];
   return NULL;
}

static const struct g_operand *
find_operand(const char *op, const char *name)
{
   for (size_t i = 0; operands[i].op; i++)
      if (strcmp(operands[i].op, op) == 0 && strcmp(operands[i].name, name) == 0)
         return &operands[i];
   return NULL;
}

static void
upper(char *dst, const char *src, size_t size)
{
   size_t n = 0;
   for (; src[n] && n + 1 < size; n++)
      dst[n] = (char)toupper((unsigned char)src[n]);
   dst[n] = '\0';
}

static void
lower(char *dst, const char *src, size_t size)
{
   size_t n = 0;
   for (; src[n] && n + 1 < size; n++)
      dst[n] = (char)tolower((unsigned char)src[n]);
   dst[n] = '\0';
}

static const char *const kinds[] = {"TENSOR",   "TENSORS",  "U32", "BOOL", "NAN_MODE", "ACC_TYPE",
                                    "ROUNDING", "ELEM",     "LIST", "ZP",  "CONST"};

static int
known_kind(const char *kind)
{
   for (size_t i = 0; i < COUNT(kinds); i++)
      if (strcmp(kinds[i], kind) == 0)
         return 1;
   return 0;
}

/* Fails unless the lines of an array (each starting with its operator's name, ending with a
 * NULL name) come operator by operator, in the order of the DG_OP lines. */
static void
contiguous(const char *what, const void *lines, size_t stride)
{
   const char *prev = NULL;
   size_t opi = 0;
   for (const char *p = lines;; p += stride) {
      const char *op = *(const char *const *)(const void *)p;
      if (!op)
         return;
      if (prev && strcmp(prev, op) == 0)
         continue;
      while (opi < COUNT(ops) && strcmp(ops[opi].NAME, op) != 0)
         opi++;
      if (opi == COUNT(ops)) {
         fail("the %s lines of %s are not together, in the order of the DG_OP lines", what, op);
         return;
      }
      prev = op;
   }
}

static void
check(const char *srcdir)
{
   for (size_t i = 0; i < COUNT(ops); i++) {
      const struct g_op *o = &ops[i];
      if (strcmp(o->set, "TOSA") != 0 && strcmp(o->set, "ME") != 0)
         fail("%s: instruction set %s is not TOSA or ME", o->NAME, o->set);
      if (strcmp(o->shape, "BROADCAST") && strcmp(o->shape, "SAME") && strcmp(o->shape, "CUSTOM"))
         fail("%s: output-shape rule %s is not BROADCAST, SAME or CUSTOM", o->NAME, o->shape);
      if (strcmp(o->validate, "NONE") && strcmp(o->validate, "CUSTOM"))
         fail("%s: VALIDATE %s is not NONE or CUSTOM", o->NAME, o->validate);
      if (strcmp(o->build, "DEFAULT") && strcmp(o->build, "CUSTOM"))
         fail("%s: BUILD %s is not DEFAULT or CUSTOM", o->NAME, o->build);
      for (size_t j = 0; j < i; j++)
         if (strcmp(ops[j].NAME, o->NAME) == 0)
            fail("%s is declared twice", o->NAME);
      unsigned cols = 1, tensors = 1, nrows = 0;
      int variadic = 0;
      for (size_t k = 0; operands[k].op; k++) {
         const struct g_operand *p = &operands[k];
         if (strcmp(p->op, o->NAME) != 0)
            continue;
         if (variadic)
            fail("%s: operand %s follows TENSORS, which takes every remaining operand", o->NAME,
                 p->name);
         if (!known_kind(p->kind))
            fail("%s: operand %s has unknown kind %s", o->NAME, p->name, p->kind);
         if (p->flags & COL_BIT)
            cols++;
         if (strcmp(p->kind, "TENSOR") == 0 || (p->flags & BIND_BIT))
            tensors++;
         if ((p->flags & BIND_BIT) && strcmp(p->kind, "CONST") != 0)
            fail("%s: operand %s: BIND is for CONST operands", o->NAME, p->name);
         if (strcmp(p->kind, "TENSORS") == 0)
            variadic = 1;
         if (strcmp(p->kind, "LIST") == 0 && (p->arg < 1 || p->arg > 8))
            fail("%s: list operand %s has %d elements (1..8)", o->NAME, p->name, p->arg);
      }
      if (tensors > MAX_KERNEL_TENSORS)
         fail("%s binds %u kernel tensors, more than %d", o->NAME, tensors, MAX_KERNEL_TENSORS);
      for (size_t r = 0; rows[r].op; r++) {
         if (strcmp(rows[r].op, o->NAME) != 0)
            continue;
         nrows++;
         if (rows[r].ncols != cols)
            fail("%s: a row (kernel %s) has %u columns; the operands flagged COL and the "
                 "output make %u",
                 o->NAME, rows[r].kernel, rows[r].ncols, cols);
      }
      if (nrows == 0)
         fail("%s has no type-support row", o->NAME);
   }
   /* Each operator's operand, attribute and row lines are contiguous and in the order of
    * its DG_OP line (the consumers index them from the operator's first). */
   contiguous("DG_OPERAND", operands, sizeof(operands[0]));
   contiguous("DG_ATTR", attrs, sizeof(attrs[0]));
   contiguous("DG_ROW", rows, sizeof(rows[0]));
   for (size_t k = 0; operands[k].op; k++)
      if (!find_op(operands[k].op))
         fail("operand %s names operator %s, which no DG_OP declares", operands[k].name,
              operands[k].op);
   for (size_t k = 0; results[k].op; k++)
      if (!find_op(results[k].op))
         fail("DG_RESULT names operator %s, which no DG_OP declares", results[k].op);
   for (size_t a = 0; attrs[a].op; a++) {
      const struct g_attr *t = &attrs[a];
      if (!find_op(t->op))
         fail("attribute %s names operator %s, which no DG_OP declares", t->member, t->op);
      if (strcmp(t->type, "int") && strcmp(t->type, "uint"))
         fail("%s: attribute %s has type %s, not int or uint", t->op, t->member, t->type);
      const struct g_operand *p = find_operand(t->op, t->source);
      if (!p)
         fail("%s: attribute %s comes from operand %s, which %s does not declare", t->op,
              t->member, t->source, t->op);
      else if (strcmp(p->kind, "LIST") == 0 ? (t->index < 0 || t->index >= p->arg) : t->index != 0)
         fail("%s: attribute %s reads element %d of operand %s", t->op, t->member, t->index,
              t->source);
      else if (!strcmp(p->kind, "TENSOR") || !strcmp(p->kind, "TENSORS"))
         fail("%s: attribute %s: operand %s (%s) holds no attribute value", t->op, t->member,
              t->source, p->kind);
   }
   for (size_t r = 0; rows[r].op; r++) {
      if (!find_op(rows[r].op))
         fail("a row names operator %s, which no DG_OP declares", rows[r].op);
      const struct g_kernel *k = find_kernel(rows[r].kernel);
      if (!k)
         fail("%s: a type-support row names kernel %s, which no DG_KERNEL declares: the row "
              "would have no compiled variant",
              rows[r].op, rows[r].kernel);
      else if (k->features & ~INTERNAL_BIT)
         fail("%s: a row names kernel %s, which needs device features; name the variant "
              "every device runs and add the faster one with DG_FAST",
              rows[r].op, rows[r].kernel);
   }
   for (size_t f = 0; fasts[f].base; f++) {
      const struct g_kernel *b = find_kernel(fasts[f].base), *k = find_kernel(fasts[f].fast);
      if (!b || !k)
         fail("DG_FAST(%s, %s) names a kernel that no DG_KERNEL declares", fasts[f].base,
              fasts[f].fast);
      else if (!(k->features & ~INTERNAL_BIT))
         fail("DG_FAST(%s, %s): %s needs no feature, so it should replace %s in the rows",
              fasts[f].base, fasts[f].fast, fasts[f].fast, fasts[f].base);
   }
   for (size_t g = 0; grids[g].kernel; g++) {
      const struct g_grid *d = &grids[g];
      if (!find_kernel(d->kernel))
         fail("DG_KERNEL_GRID names kernel %s, which no DG_KERNEL declares", d->kernel);
      check_grid("DG_KERNEL_GRID", d);
      for (size_t h = 0; h < g; h++)
         if (strcmp(grids[h].kernel, d->kernel) == 0)
            fail("DG_KERNEL_GRID(%s) is given twice", d->kernel);
   }
   for (size_t g = 0; template_grids[g].kernel; g++) {
      const struct g_grid *d = &template_grids[g];
      int used = 0;
      for (size_t i = 0; kernels[i].NAME && !used; i++)
         used = strcmp(kernels[i].tmpl, d->kernel) == 0;
      if (!used)
         fail("DG_TEMPLATE_GRID names template %s, which no DG_KERNEL uses", d->kernel);
      check_grid("DG_TEMPLATE_GRID", d);
      for (size_t h = 0; h < g; h++)
         if (strcmp(template_grids[h].kernel, d->kernel) == 0)
            fail("DG_TEMPLATE_GRID(%s) is given twice", d->kernel);
   }
   for (size_t i = 0; kernels[i].NAME; i++) {
      const struct g_kernel *k = &kernels[i];
      for (size_t j = 0; j < i; j++)
         if (strcmp(kernels[j].NAME, k->NAME) == 0)
            fail("kernel %s is declared twice", k->NAME);
      int used = (k->features & INTERNAL_BIT) != 0;
      for (size_t r = 0; rows[r].op && !used; r++)
         used = strcmp(rows[r].kernel, k->NAME) == 0;
      for (size_t f = 0; fasts[f].base && !used; f++)
         used = strcmp(fasts[f].fast, k->NAME) == 0;
      if (!used)
         fail("kernel %s is declared but no row, DG_FAST or INTERNAL flag uses it", k->NAME);
      char path[4096];
      struct stat st;
      snprintf(path, sizeof(path), "%s/shaders/graph/%s/%s.comp", srcdir, kernel_dir(k->NAME),
               k->tmpl);
      if (stat(path, &st) != 0)
         fail("kernel %s: template %s does not exist", k->NAME, path);
   }
}

/* IN=i32 -> DG_IN_DTYPE=DG_DTYPE_I32; DTYPE=i8 -> DG_DTYPE=DG_DTYPE_I8; others as they are. */
static void
write_defines(FILE *f, const char *defines)
{
   static const char *const roles[] = {"IN", "W", "OUT", "ACC", "DTYPE"};
   const char *s = defines;
   while (*s) {
      while (*s == ' ')
         s++;
      const char *e = s;
      while (*e && *e != ' ')
         e++;
      if (e == s)
         break;
      char token[128], type[64];
      snprintf(token, sizeof(token), "%.*s", (int)(e - s), s);
      const char *eq = strchr(token, '=');
      int done = 0;
      for (size_t r = 0; eq && r < COUNT(roles) && !done; r++) {
         if (strlen(roles[r]) == (size_t)(eq - token) && strncmp(token, roles[r], eq - token) == 0) {
            upper(type, eq + 1, sizeof(type));
            if (strcmp(roles[r], "DTYPE") == 0)
               fprintf(f, " DG_DTYPE=DG_DTYPE_%s", type);
            else
               fprintf(f, " DG_%s_DTYPE=DG_DTYPE_%s", roles[r], type);
            done = 1;
         }
      }
      if (!done)
         fprintf(f, " %s", token);
      s = e;
   }
}

/* Whether the space-separated defines hold `token` (IN=bf16). */
static int
has_define(const char *defines, const char *token)
{
   size_t n = strlen(token);
   for (const char *s = defines; (s = strstr(s, token)) != NULL; s += n)
      if ((s == defines || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
         return 1;
   return 0;
}

static int
write_cmake(const char *path)
{
   FILE *f = fopen(path, "w");
   if (!f)
      return fail("cannot write %s: %s", path, strerror(errno)), 1;
   fprintf(f, "# Generated by cmake/gen_ops.c from graph/ops/tosa_ops.def: do not edit.\n");
   for (size_t i = 0; kernels[i].NAME; i++) {
      char name[128];
      lower(name, kernels[i].NAME, sizeof(name));
      fprintf(f, "vmel_kernel(graph %s graph/%s/%s.comp DEFINES", name,
              kernel_dir(kernels[i].NAME), kernels[i].tmpl);
      write_defines(f, kernels[i].defines);
      int items = kernel_items(kernels[i].NAME, kernels[i].tmpl);
      if (items)
         fprintf(f, " DG_EW_ITEMS=%d", items);
      if ((kernels[i].features & COOP_KHR_BIT) && has_define(kernels[i].defines, "IN=bf16"))
         fprintf(f, " SPIRV_REWRITE coop_khr_bf16"); /* fp16 fragments made bf16 (D60) */
      else if (kernels[i].features & COOP_KHR_BIT)
         fprintf(f, " SPIRV_REWRITE coop_khr");
      else if (kernels[i].features & INT_DOT_BIT)
         fprintf(f, " SPIRV_REWRITE int_dot");
      fprintf(f, ")\n");
   }
   return fclose(f) != 0;
}

static int
write_abi(const char *path)
{
   FILE *f = fopen(path, "w");
   if (!f)
      return fail("cannot write %s: %s", path, strerror(errno)), 1;
   fprintf(f, "/* Generated by cmake/gen_ops.c from graph/ops/tosa_ops.def: do not edit.\n"
              " * The operators' kernel ABI, valid C and GLSL (docs/adding-an-op.md):\n"
              " *   DG_OPND_<OP>_<operand>   the operand's index in TOSA.001000.1 order;\n"
              " *   DG_<OP>_<TENSOR>         kernel tensor bindings: tensor operands and\n"
              " *                            BIND constants in operand order, then OUTPUT;\n"
              " *   C: struct dg_attrs_<op>  the attributes, 32-bit words in\n"
              " *                            specialization-id order (VMEL_SC_ATTR(i));\n"
              " *   GLSL: DG_DECLARE_ATTRS_<OP> declares them as specialization constants. */\n"
              "#ifndef DG_OP_ABI_H\n#define DG_OP_ABI_H\n\n#ifndef VULKAN\n#include <stdint.h>\n#endif\n\n");
   unsigned max_words = 1, max_operands = 1, first_operand = 0, first_attr = 0, first_row = 0;
   for (size_t i = 0; i < COUNT(ops); i++) {
      const struct g_op *o = &ops[i];
      unsigned index = 0, tensor = 0, nrows = 0, ncols = 0;
      char up[128];
      fprintf(f, "/* %s */\n", o->NAME);
      fprintf(f, "#define DG_OPND_%s_FIRST %u\n#define DG_ATTR_%s_FIRST %u\n"
                 "#define DG_ROW_%s_FIRST %u\n",
              o->NAME, first_operand, o->NAME, first_attr, o->NAME, first_row);
      fprintf(f, "#define DG_%s_COLUMN_NAMES", o->NAME);
      for (size_t k = 0; operands[k].op; k++)
         if (strcmp(operands[k].op, o->NAME) == 0 && (operands[k].flags & COL_BIT)) {
            fprintf(f, " \"%s\",", operands[k].name);
            ncols++;
         }
      fprintf(f, " \"output\"\n#define DG_%s_COLUMNS %u\n", o->NAME, ncols + 1);
      int rank = 0;
      for (size_t k = 0; results[k].op; k++)
         if (strcmp(results[k].op, o->NAME) == 0)
            rank = results[k].rank;
      fprintf(f, "#define DG_%s_RESULT_RANK %d\n", o->NAME, rank);
      for (size_t r = 0; rows[r].op; r++)
         nrows += strcmp(rows[r].op, o->NAME) == 0;
      fprintf(f, "#define DG_ROW_%s_COUNT %u\n", o->NAME, nrows);
      first_row += nrows;
      for (size_t k = 0; operands[k].op; k++) {
         const struct g_operand *p = &operands[k];
         if (strcmp(p->op, o->NAME) != 0)
            continue;
         fprintf(f, "#define DG_OPND_%s_%s %u\n", o->NAME, p->name, index++);
         if (strcmp(p->kind, "TENSOR") == 0 || (p->flags & BIND_BIT)) {
            upper(up, p->name, sizeof(up));
            fprintf(f, "#define DG_%s_%s %u\n", o->NAME, up, tensor++);
         }
      }
      fprintf(f, "#define DG_OPND_%s_COUNT %u\n", o->NAME, index);
      first_operand += index;
      if (index > max_operands)
         max_operands = index;
      fprintf(f, "#define DG_%s_OUTPUT %u\n#define DG_%s_TENSORS %u\n", o->NAME, tensor, o->NAME,
              tensor + 1);
      unsigned words = 0;
      for (size_t a = 0; attrs[a].op; a++)
         if (strcmp(attrs[a].op, o->NAME) == 0)
            fprintf(f, "#define DG_ATTR_%s_%s %u\n", o->NAME, attrs[a].member, words++);
      fprintf(f, "#define DG_%s_ATTR_WORDS %u\n", o->NAME, words);
      first_attr += words;
      if (words > max_words)
         max_words = words;
      fprintf(f, "#ifdef VULKAN\n#define DG_DECLARE_ATTRS_%s", o->NAME);
      words = 0;
      for (size_t a = 0; attrs[a].op; a++)
         if (strcmp(attrs[a].op, o->NAME) == 0)
            fprintf(f, " \\\n   layout(constant_id = VMEL_SC_ATTR(%u)) const %s %s = %s;", words++,
                    attrs[a].type, attrs[a].member, attrs[a].deflt);
      fprintf(f, "\n#else\n");
      if (words) {
         fprintf(f, "struct dg_attrs_%s {\n", o->name);
         for (size_t a = 0; attrs[a].op; a++)
            if (strcmp(attrs[a].op, o->NAME) == 0)
               fprintf(f, "   %s %s;\n", strcmp(attrs[a].type, "int") == 0 ? "int32_t" : "uint32_t",
                       attrs[a].member);
         fprintf(f, "};\n_Static_assert(sizeof(struct dg_attrs_%s) == 4 * DG_%s_ATTR_WORDS, "
                    "\"32-bit words\");\n",
                 o->name, o->NAME);
      }
      fprintf(f, "#endif\n\n");
   }
   fprintf(f, "#define DG_MAX_ATTR_WORDS %u\n#define DG_MAX_DECLARED_OPERANDS %u\n\n", max_words,
           max_operands);
   fprintf(f, "#ifndef VULKAN\n/* The members of union dg_node_attrs "
              "(dg_ir.h): every operator with attributes. */\n#define DG_NODE_ATTRS_MEMBERS");
   for (size_t i = 0; i < COUNT(ops); i++) {
      int has = 0;
      for (size_t a = 0; attrs[a].op && !has; a++)
         has = strcmp(attrs[a].op, ops[i].NAME) == 0;
      if (has)
         fprintf(f, " \\\n   struct dg_attrs_%s %s;", ops[i].name, ops[i].name);
   }
   fprintf(f, "\n#endif\n\n#endif /* DG_OP_ABI_H */\n");
   return fclose(f) != 0;
}

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: gen_ops <source-dir> <out-dir>\n");
      return 2;
   }
   check(argv[1]);
   if (errors)
      return 1;
   char path[4096];
   snprintf(path, sizeof(path), "%s/dg_kernels.cmake", argv[2]);
   if (write_cmake(path))
      return 1;
   snprintf(path, sizeof(path), "%s/dg_op_abi.h", argv[2]);
   if (write_abi(path))
      return 1;
   return errors ? 1 : 0;
}
