/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A build-time SPIR-V rewrite: a kernel written against SPV_NV_cooperative_matrix (which
 * glslang 12 compiles) into its SPV_KHR_cooperative_matrix form (which it does not), so that
 * the KHR variants of the cooperative-matrix kernels (D51) come from the same GLSL.
 *
 *   vmel_spirv_rewrite coop_khr IN.spv OUT.spv   (cmake/spirv_rewrite.c)
 *
 * Opcodes and operands as SPIRV-Headers' spirv.core.grammar.json gives them:
 *   Capability CooperativeMatrixNV 5357            -> CooperativeMatrixKHR 6022
 *   OpExtension "SPV_NV_cooperative_matrix"        -> "SPV_KHR_cooperative_matrix"
 *   OpTypeCooperativeMatrixNV 5358 (Result, Component Type, Execution, Rows, Columns)
 *     -> OpTypeCooperativeMatrixKHR 4456 (..., Scope, Rows, Columns, Use): Use, an id of a
 *        32-bit integer constant (MatrixAKHR 0, MatrixBKHR 1, MatrixAccumulatorKHR 2), is how
 *        the type's values are used by OpCooperativeMatrixMulAddNV;
 *   OpCooperativeMatrixLoadNV 5359 (Result Type, Result, Pointer, Stride, Column Major,
 *     [MemoryAccess]) -> OpCooperativeMatrixLoadKHR 4457 (Result Type, Result, Pointer,
 *     MemoryLayout, Stride, [MemoryAccess]): MemoryLayout an id of a constant, RowMajorKHR 0
 *     or ColumnMajorKHR 1, from the constant boolean Column Major;
 *   OpCooperativeMatrixStoreNV 5360 (Pointer, Object, Stride, Column Major, [MemoryAccess])
 *     -> OpCooperativeMatrixStoreKHR 4458 (Pointer, Object, MemoryLayout, Stride, [...]);
 *   OpCooperativeMatrixMulAddNV 5361 (Result Type, Result, A, B, C) ->
 *     OpCooperativeMatrixMulAddKHR 4459 (..., A, B, C, [Cooperative Matrix Operands]): the
 *     operands name the signed integer matrices (MatrixASigned 0x1, B 0x2, C 0x4, Result 0x8),
 *     which NV took from the component types' signedness;
 *   OpCooperativeMatrixLengthNV 5362 -> OpCooperativeMatrixLengthKHR 4460 (same operands).
 *
 * One NV type can be used in two roles (16x16x16 fp16: A and B are both 16x16 fp16 matrices)
 * where KHR needs two types. Values and Function variables of a matrix type are put in
 * classes (a load and its pointer, a store's pointer and object, an instruction's result and
 * its matrix operands are one class); each class takes its role from the MulAdds; a type
 * whose classes have several roles gets a new type (and new Function pointer types) per
 * further role, and those classes' instructions are retyped. A class that would need a new
 * type but holds a value of another type (an array of matrices, say) is refused: write the
 * kernel with a plain variable for that role (dg_gemm_coop.glsl's B fragment).
 *
 * The output is then checked structurally (no NV instruction or capability left, every
 * MulAdd's operands of the roles their types declare, ids below the bound): SPIRV-Tools
 * 2023.1's spirv-val does not know the KHR extension. A failure prints a message and exits 1,
 * which fails the build.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_rewrite.h"

enum {
   OP_NAME = 5,
   OP_MEMBER_NAME = 6,
   OP_EXTENSION = 10,
   OP_CAPABILITY = 17,
   OP_TYPE_BOOL = 20,
   OP_TYPE_INT = 21,
   OP_TYPE_FLOAT = 22,
   OP_TYPE_POINTER = 32,
   OP_CONSTANT_TRUE = 41,
   OP_CONSTANT_FALSE = 42,
   OP_CONSTANT = 43,
   OP_FUNCTION = 54,
   OP_VARIABLE = 59,
   OP_LOAD = 61,
   OP_STORE = 62,
   OP_DECORATE = 71,
   OP_MEMBER_DECORATE = 72,
   OP_DECORATE_ID = 332,
   CAP_COOP_NV = 5357,
   CAP_COOP_KHR = 6022,
   OP_TYPE_COOP_NV = 5358,
   OP_LOAD_NV = 5359,
   OP_STORE_NV = 5360,
   OP_MULADD_NV = 5361,
   OP_LENGTH_NV = 5362,
   OP_TYPE_COOP_KHR = 4456,
   OP_LOAD_KHR = 4457,
   OP_STORE_KHR = 4458,
   OP_MULADD_KHR = 4459,
   OP_LENGTH_KHR = 4460,
};

enum { USE_A = 0, USE_B = 1, USE_ACC = 2, USE_COUNT = 3, USE_NONE = 3 };

static const char nv_ext[] = "SPV_NV_cooperative_matrix";
static const char khr_ext[] = "SPV_KHR_cooperative_matrix";

struct mod {
   uint32_t *w;
   size_t n;
   uint32_t bound;
   /* per id */
   uint32_t *def;      /* word offset of the defining instruction, 0: none */
   uint32_t *type;     /* result type, 0: none */
   uint32_t *parent;   /* union-find */
   uint8_t *use;       /* per class root: USE_* */
   /* per NV type id: the id of its type in each role (0: not needed), the primary role */
   uint32_t *role_type;   /* [id * USE_COUNT + use] */
   uint8_t *primary;
   uint32_t *ptr_role;    /* pointer type id -> [use]: its clone for that role */
};

static uint32_t
op_of(const struct mod *m, size_t at)
{
   return m->w[at] & 0xffffu;
}

static uint32_t
len_of(const struct mod *m, size_t at)
{
   return m->w[at] >> 16;
}

static uint32_t
find(struct mod *m, uint32_t id)
{
   while (m->parent[id] != id) {
      m->parent[id] = m->parent[m->parent[id]];
      id = m->parent[id];
   }
   return id;
}

static void
unite(struct mod *m, uint32_t a, uint32_t b)
{
   a = find(m, a);
   b = find(m, b);
   if (a != b)
      m->parent[a] = b;
}

/* Whether opcode `op` is a type declaration (its result is word 1, no result type). */
static bool
is_type_op(uint32_t op)
{
   return (op >= 19 && op <= 38) || op == 322 || op == 327 || op == OP_TYPE_COOP_NV ||
          op == OP_TYPE_COOP_KHR || op == 4472 || op == 5341;
}

/* Whether the instruction has a result type and result (words 1 and 2). */
static bool
has_result_type(uint32_t op, uint32_t len)
{
   if (len < 3 || is_type_op(op))
      return false;
   switch (op) {
   case OP_NAME:
   case OP_MEMBER_NAME:
   case OP_EXTENSION:
   case OP_CAPABILITY:
   case 3: /* OpSource */
   case 4: /* OpSourceExtension */
   case 8: /* OpLine */
   case 11: /* OpExtInstImport */
   case 14: /* OpMemoryModel */
   case 15: /* OpEntryPoint */
   case 16: /* OpExecutionMode */
   case 331: /* OpExecutionModeId */
   case OP_STORE:
   case 63: /* OpCopyMemory */
   case OP_DECORATE:
   case OP_MEMBER_DECORATE:
   case OP_DECORATE_ID:
   case 73: case 74: case 75: /* decoration groups */
   case 246: /* OpLoopMerge */
   case 247: /* OpSelectionMerge */
   case 248: /* OpLabel */
   case 249: case 250: case 251: /* branches */
   case 224: case 225: /* barriers */
   case OP_STORE_NV:
   case OP_STORE_KHR:
   case 5632: case 5633: /* OpDecorateString, OpMemberDecorateString */
   case 39: /* OpTypeForwardPointer: its pointer type is defined later */
   case 2: case 7: case 64: case 99: case 228: case 256: case 257: case 330:
      /* OpSourceContinued, OpString, OpCopyMemorySized, OpImageWrite, OpAtomicStore,
       * OpLifetimeStart/Stop, OpModuleProcessed */
      return false;
   default:
      return true;
   }
}

/* The NV matrix type a value or pointer id carries: its type, or the pointee of its pointer
 * type; 0 for others. */
static uint32_t
matrix_of(const struct mod *m, uint32_t id)
{
   uint32_t t = id < m->bound ? m->type[id] : 0;
   if (!t || !m->def[t])
      return 0;
   if (op_of(m, m->def[t]) == OP_TYPE_COOP_NV)
      return t;
   if (op_of(m, m->def[t]) == OP_TYPE_POINTER) {
      uint32_t p = m->w[m->def[t] + 3];
      if (m->def[p] && op_of(m, m->def[p]) == OP_TYPE_COOP_NV)
         return p;
   }
   return 0;
}

static int
set_use(struct mod *m, uint32_t id, uint8_t use)
{
   uint32_t r = find(m, id);
   if (m->use[r] != USE_NONE && m->use[r] != use)
      return spirv_fail("a matrix value is used in two roles of OpCooperativeMatrixMulAddNV", id);
   m->use[r] = use;
   return 0;
}

/* Pass 1: definitions, types and the classes. */
static int
analyse(struct mod *m)
{
   for (size_t at = 5; at < m->n; at += len_of(m, at)) {
      uint32_t op = op_of(m, at), len = len_of(m, at);
      if (len == 0 || at + len > m->n)
         return spirv_fail("a malformed instruction", (uint32_t)at);
      uint32_t result = 0;
      if (is_type_op(op) && len >= 2)
         result = m->w[at + 1];
      else if (has_result_type(op, len)) {
         result = m->w[at + 2];
         if (result < m->bound)
            m->type[result] = m->w[at + 1];
      }
      if (result >= m->bound)
         return spirv_fail("an id at or above the bound", result);
      if (result)
         m->def[result] = (uint32_t)at;
   }
   for (size_t at = 5; at < m->n; at += len_of(m, at)) {
      uint32_t op = op_of(m, at), len = len_of(m, at);
      if (op == OP_STORE && matrix_of(m, m->w[at + 2]))
         unite(m, m->w[at + 1], m->w[at + 2]);
      if (op == OP_MULADD_NV) {
         if (len != 6)
            return spirv_fail("OpCooperativeMatrixMulAddNV of an unexpected length", m->w[at + 2]);
         unite(m, m->w[at + 2], m->w[at + 5]);
         if (set_use(m, m->w[at + 3], USE_A) || set_use(m, m->w[at + 4], USE_B) ||
             set_use(m, m->w[at + 5], USE_ACC))
            return 1;
         continue;
      }
      if (!has_result_type(op, len) || op == OP_LOAD_NV || op == OP_LENGTH_NV ||
          op == OP_VARIABLE)
         continue;
      uint32_t result = m->w[at + 2];
      if (!matrix_of(m, result))
         continue;
      /* a matrix result: one class with its matrix operands (a load's pointer, an access
       * chain's base, a composite's parts, a phi's values...) */
      for (uint32_t i = 3; i < len; i++) {
         uint32_t id = m->w[at + i];
         if (id < m->bound && matrix_of(m, id))
            unite(m, result, id);
      }
   }
   /* the roles each NV type needs; a role held in an array keeps the type's id (arrays are
    * not cloned), else the first one found */
   for (size_t at = 5; at < m->n; at += len_of(m, at)) {
      if ((op_of(m, at) != 65 && op_of(m, at) != 66) || len_of(m, at) < 4)
         continue;
      uint32_t r = m->w[at + 2], t = matrix_of(m, r);
      if (t && m->primary[t] == USE_NONE)
         m->primary[t] = m->use[find(m, r)];
   }
   for (uint32_t id = 1; id < m->bound; id++) {
      uint32_t t = matrix_of(m, id);
      if (!t)
         continue;
      uint8_t use = m->use[find(m, id)];
      if (use == USE_NONE)
         continue;
      if (m->primary[t] == USE_NONE)
         m->primary[t] = use;
      if (!m->role_type[t * USE_COUNT + use])
         m->role_type[t * USE_COUNT + use] = use == m->primary[t] ? t : m->bound++;
   }
   /* a class held in an array (reached through an access chain) keeps its type */
   for (size_t at = 5; at < m->n; at += len_of(m, at)) {
      if ((op_of(m, at) != 65 && op_of(m, at) != 66) || len_of(m, at) < 4)
         continue;
      uint32_t r = m->w[at + 2], t = matrix_of(m, r);
      uint8_t use = t ? m->use[find(m, r)] : USE_NONE;
      if (t && use != USE_NONE && m->role_type[t * USE_COUNT + use] != t)
         return spirv_fail("a matrix in a second role of its type is held in an array; give that "
                     "role a plain variable",
                     r);
   }
   return 0;
}

/* The role of a matrix id (its class's, else its type's primary one). */
static uint8_t
role_of(struct mod *m, uint32_t id, uint32_t t)
{
   uint8_t use = m->use[find(m, id)];
   if (use == USE_NONE)
      use = m->primary[t] == USE_NONE ? USE_ACC : m->primary[t];
   return use;
}

/* Whether integer type `t` is signed (0 for floats). */
static uint32_t
signed_int(const struct mod *m, uint32_t coop_type)
{
   uint32_t comp = m->w[m->def[coop_type] + 2];
   return m->def[comp] && op_of(m, m->def[comp]) == OP_TYPE_INT && m->w[m->def[comp] + 3] == 1;
}

static int
rewrite(struct mod *m, struct spirv_out *o)
{
   uint32_t use_const[USE_COUNT] = {0}; /* constant ids 0, 1, 2 (roles and layouts) */
   bool consts_done = false;
   /* pointer types to clone: pointer id -> [use] clone ids */
   for (size_t at = 5; at < m->n; at += len_of(m, at)) {
      uint32_t op = op_of(m, at), len = len_of(m, at);
      uint32_t *in = m->w + at;
      if (op == OP_CAPABILITY && len == 2 && in[1] == CAP_COOP_NV) {
         uint32_t cap[2] = {in[0], CAP_COOP_KHR};
         if (spirv_emit(o, cap, 2))
            return 1;
         continue;
      }
      if (spirv_is_extension(m->w + at, nv_ext)) {
         if (spirv_emit_string_op(o, OP_EXTENSION, khr_ext))
            return 1;
         continue;
      }
      if (op == OP_TYPE_COOP_NV) {
         if (len != 6)
            return spirv_fail("OpTypeCooperativeMatrixNV of an unexpected length", in[1]);
         if (!consts_done) {
            /* the constants 0, 1, 2 of the scope's integer type, before the first matrix */
            uint32_t scope = in[3];
            if (!m->def[scope] || op_of(m, m->def[scope]) != OP_CONSTANT)
               return spirv_fail("the matrix scope is not an OpConstant", scope);
            uint32_t int_type = m->type[scope];
            for (uint32_t u = 0; u < USE_COUNT; u++) {
               use_const[u] = m->bound++;
               uint32_t c[4] = {(4u << 16) | OP_CONSTANT, int_type, use_const[u], u};
               if (spirv_emit(o, c, 4))
                  return 1;
            }
            consts_done = true;
         }
         uint32_t t = in[1];
         uint8_t primary = m->primary[t] == USE_NONE ? USE_ACC : m->primary[t];
         for (uint32_t u = 0; u < USE_COUNT; u++) {
            uint32_t id = u == primary ? t : m->role_type[t * USE_COUNT + u];
            if (!id)
               continue;
            uint32_t ty[7] = {(7u << 16) | OP_TYPE_COOP_KHR, id, in[2], in[3], in[4], in[5],
                              use_const[u]};
            if (spirv_emit(o, ty, 7))
               return 1;
         }
         continue;
      }
      if (op == OP_TYPE_POINTER && len == 4 && m->def[in[3]] &&
          op_of(m, m->def[in[3]]) == OP_TYPE_COOP_NV) {
         if (spirv_emit(o, in, len))
            return 1;
         uint32_t t = in[3];
         for (uint32_t u = 0; u < USE_COUNT; u++) {
            uint32_t role = m->role_type[t * USE_COUNT + u];
            if (!role || role == t)
               continue;
            m->ptr_role[in[1] * USE_COUNT + u] = m->bound++;
            uint32_t p[4] = {(4u << 16) | OP_TYPE_POINTER, m->ptr_role[in[1] * USE_COUNT + u],
                             in[2], role};
            if (spirv_emit(o, p, 4))
               return 1;
         }
         continue;
      }
      /* the result type of a matrix value or pointer in a cloned role */
      uint32_t result_type = has_result_type(op, len) ? in[1] : 0;
      uint32_t t = has_result_type(op, len) ? matrix_of(m, in[2]) : 0;
      if (t) {
         uint8_t use = role_of(m, in[2], t);
         uint32_t role = m->role_type[t * USE_COUNT + use];
         if (role && role != t) {
            if (result_type == t)
               result_type = role;
            else if (m->ptr_role[result_type * USE_COUNT + use])
               result_type = m->ptr_role[result_type * USE_COUNT + use];
            else
               return spirv_fail("a matrix in a second role is held in an array or another type; "
                           "give that role a plain variable",
                           in[2]);
         }
      }
      if (op == OP_LOAD_NV || op == OP_STORE_NV) {
         /* NV: [rt, r,] pointer, (object,) stride, column major, memory access...
          * KHR: [rt, r,] pointer, (object,) layout, stride, memory access... */
         uint32_t head = op == OP_LOAD_NV ? 4 : 3; /* words up to the stride */
         if (len < head + 2)
            return spirv_fail("a cooperative-matrix load or store of an unexpected length", 0);
         uint32_t major = in[head + 1];
         uint32_t major_op = m->def[major] ? op_of(m, m->def[major]) : 0;
         if (major_op != OP_CONSTANT_TRUE && major_op != OP_CONSTANT_FALSE)
            return spirv_fail("Column Major is not a constant boolean", major);
         uint32_t words[32];
         if (len > 32)
            return spirv_fail("a cooperative-matrix load or store too long", 0);
         memcpy(words, in, len * sizeof(*in));
         words[0] = (len << 16) | (op == OP_LOAD_NV ? OP_LOAD_KHR : OP_STORE_KHR);
         if (op == OP_LOAD_NV)
            words[1] = result_type;
         words[head] = use_const[major_op == OP_CONSTANT_TRUE ? 1 : 0];
         words[head + 1] = in[head];
         if (spirv_emit(o, words, len))
            return 1;
         continue;
      }
      if (op == OP_MULADD_NV) {
         uint32_t mask = 0;
         for (uint32_t i = 0; i < 3; i++)
            mask |= signed_int(m, matrix_of(m, in[3 + i])) << i;
         mask |= signed_int(m, matrix_of(m, in[2])) << 3;
         uint32_t words[7] = {((mask ? 7u : 6u) << 16) | OP_MULADD_KHR, result_type, in[2],
                              in[3], in[4], in[5], mask};
         if (spirv_emit(o, words, mask ? 7 : 6))
            return 1;
         continue;
      }
      uint32_t copy[64];
      const uint32_t *words = in;
      if (op == OP_LENGTH_NV || result_type != (has_result_type(op, len) ? in[1] : 0)) {
         if (len > 64)
            return spirv_fail("an instruction too long to retype", in[2]);
         memcpy(copy, in, len * sizeof(*in));
         if (op == OP_LENGTH_NV)
            copy[0] = (len << 16) | OP_LENGTH_KHR;
         copy[1] = result_type;
         words = copy;
      }
      if (spirv_emit(o, words, len))
         return 1;
   }
   return 0;
}

/* The structural checks of the KHR module. */
static int
check(uint32_t *w, size_t n)
{
   struct mod m = {.w = w, .n = n, .bound = w[3]};
   m.def = calloc(m.bound, sizeof(*m.def));
   m.type = calloc(m.bound, sizeof(*m.type));
   if (!m.def || !m.type)
      return spirv_fail("out of memory", 0);
   int bad = 0;
   bool cap = false, ext = false;
   for (size_t at = 5; at < n && !bad; at += len_of(&m, at)) {
      uint32_t op = op_of(&m, at), len = len_of(&m, at);
      if (len == 0 || at + len > n)
         bad = spirv_fail("check: a malformed instruction", (uint32_t)at);
      else if (op >= OP_TYPE_COOP_NV && op <= OP_LENGTH_NV)
         bad = spirv_fail("check: an NV cooperative-matrix instruction is left", op);
      else if (op == OP_CAPABILITY && w[at + 1] == CAP_COOP_NV)
         bad = spirv_fail("check: the NV capability is left", 0);
      else if (spirv_is_extension(m.w + at, nv_ext))
         bad = spirv_fail("check: the NV extension is left", 0);
      cap |= op == OP_CAPABILITY && w[at + 1] == CAP_COOP_KHR;
      ext |= spirv_is_extension(m.w + at, khr_ext);
      uint32_t result = is_type_op(op) ? w[at + 1] : has_result_type(op, len) ? w[at + 2] : 0;
      if (result >= m.bound)
         bad = spirv_fail("check: an id at or above the bound", result);
      else if (result) {
         if (m.def[result])
            bad = spirv_fail("check: an id defined twice", result);
         m.def[result] = (uint32_t)at;
         if (!is_type_op(op))
            m.type[result] = w[at + 1];
      }
      /* a load or store of a matrix: the pointer's pointee is the value's type */
      uint32_t ptr = op == OP_LOAD && len >= 4 ? w[at + 3] : op == OP_STORE ? w[at + 1] : 0;
      uint32_t value_type = op == OP_LOAD ? w[at + 1] : op == OP_STORE ? m.type[w[at + 2]] : 0;
      if (!bad && ptr && value_type && m.def[value_type] &&
          op_of(&m, m.def[value_type]) == OP_TYPE_COOP_KHR) {
         uint32_t pt = m.type[ptr];
         if (!pt || !m.def[pt] || w[m.def[pt] + 3] != value_type)
            bad = spirv_fail("check: a matrix loaded or stored through another type's pointer",
                             ptr);
      }
      if (op == OP_MULADD_KHR) {
         for (uint32_t i = 0; i < 3 && !bad; i++) {
            uint32_t t = m.type[w[at + 3 + i]];
            uint32_t d = t ? m.def[t] : 0;
            uint32_t use = d && op_of(&m, d) == OP_TYPE_COOP_KHR ? m.def[w[d + 6]] : 0;
            if (!use || op_of(&m, use) != OP_CONSTANT || w[use + 3] != i)
               bad = spirv_fail("check: a MulAdd operand's type is not of its role", w[at + 3 + i]);
         }
      }
   }
   if (!bad && (!cap || !ext))
      bad = spirv_fail("check: the KHR capability or extension is missing", 0);
   free(m.def);
   free(m.type);
   return bad;
}

int
spirv_coop_khr(uint32_t *w, size_t n, struct spirv_out *o)
{
   struct mod m = {.w = w, .n = n, .bound = w[3]};
   /* room for the new ids: 3 constants, and per type and pointer type two more roles */
   size_t room = (size_t)m.bound * 3 + 8;
   m.def = calloc(room, sizeof(*m.def));
   m.type = calloc(room, sizeof(*m.type));
   m.parent = calloc(room, sizeof(*m.parent));
   m.use = calloc(room, 1);
   m.primary = calloc(room, 1);
   m.role_type = calloc(room * USE_COUNT, sizeof(*m.role_type));
   m.ptr_role = calloc(room * USE_COUNT, sizeof(*m.ptr_role));
   int bad = !m.def || !m.type || !m.parent || !m.use || !m.primary || !m.role_type ||
             !m.ptr_role;
   if (bad)
      spirv_fail("out of memory", 0);
   for (size_t i = 0; i < room && !bad; i++) {
      m.parent[i] = (uint32_t)i;
      m.use[i] = USE_NONE;
      m.primary[i] = USE_NONE;
   }
   bad = bad || analyse(&m) || spirv_emit(o, m.w, 5) || rewrite(&m, o);
   if (!bad) {
      o->w[3] = m.bound;
      bad = check(o->w, o->n);
   }
   free(m.def);
   free(m.type);
   free(m.parent);
   free(m.use);
   free(m.primary);
   free(m.role_type);
   free(m.ptr_role);
   return bad;
}
