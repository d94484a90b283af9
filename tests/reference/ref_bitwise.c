/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Bit-level operators of the reference: BITWISE_AND, BITWISE_OR, BITWISE_XOR, LOGICAL_AND,
 * LOGICAL_OR, LOGICAL_XOR, LOGICAL_LEFT_SHIFT, LOGICAL_RIGHT_SHIFT, ARITHMETIC_RIGHT_SHIFT
 * (TOSA 1.0.1 chapters/ewise_binary.adoc) and BITWISE_NOT, LOGICAL_NOT, CLZ (ewise_unary.adoc),
 * from pseudocode/operators/<OP>.tosac and the helpers apply_logical_rshift, apply_arith_rshift
 * and count_leading_zeros of arithmetic_helpers.tosac. Values are the signless W-bit integers
 * read sign-extended into int64_t; results are exact.
 */
#include "ref_internal.h"

enum bit_op {
   BIT_AND,
   BIT_OR,
   BIT_XOR,
   LOGIC_AND,
   LOGIC_OR,
   LOGIC_XOR,
   SHIFT_LEFT,
   SHIFT_RIGHT_LOGICAL,
   SHIFT_RIGHT_ARITH,
};

static const char *const bit_names[] = {
    "BITWISE_AND",        "BITWISE_OR",          "BITWISE_XOR",
    "LOGICAL_AND",        "LOGICAL_OR",          "LOGICAL_XOR",
    "LOGICAL_LEFT_SHIFT", "LOGICAL_RIGHT_SHIFT", "ARITHMETIC_RIGHT_SHIFT",
};

static bool
is_logical(enum bit_op op)
{
   return op == LOGIC_AND || op == LOGIC_OR || op == LOGIC_XOR;
}

/* The rows: bool for the logical operators, i8, i16, i32 for the others; one type throughout. */
static int
check_rows(const char *name, bool logical, const struct ref_tensor *in1,
           const struct ref_tensor *in2, const struct ref_tensor *out)
{
   enum ref_dtype t = in1->dtype;
   bool row = logical ? t == REF_DTYPE_BOOL
                      : t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_I32;
   if (!row || (in2 && in2->dtype != t) || out->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s%s%s -> %s", name,
                        ref_dtype_name(t), in2 ? " x " : "", in2 ? ref_dtype_name(in2->dtype) : "",
                        ref_dtype_name(out->dtype));
   return TOSA_REF_OK;
}

/*
 * One shift of the W-bit value a by b. REQUIRE(0 <= b <= W - 1); when it fails, *require_ok
 * becomes false and the result is the documented one (tosa_ref.h): every bit shifted out.
 */
static int64_t
shift(enum bit_op op, bool round, int64_t a, int64_t b, unsigned bits, bool *require_ok)
{
   if (b < 0 || b >= (int64_t)bits) {
      *require_ok = false;
      if (op == SHIFT_RIGHT_ARITH)
         return round || a >= 0 ? 0 : -1;
      return 0;
   }
   uint64_t mask = (UINT64_C(1) << bits) - 1;
   switch (op) {
   case SHIFT_LEFT:
      /* value1 << value2 in in_out_t: the low W bits (on the unsigned pattern: no C overflow). */
      return ref_wrap_signed((int64_t)(((uint64_t)a & mask) << b), bits);
   case SHIFT_RIGHT_LOGICAL:
      /* apply_logical_rshift: zero_extend<uint32_t>(a) >> b, then static_cast<in_t>. */
      return ref_wrap_signed((int64_t)(((uint64_t)a & mask) >> b), bits);
   default: {
      /* apply_arith_rshift, then with round and b > 0: + ((a >> (b - 1)) & 1). a >> b with b > 0
       * is at most half the maximum, so the + 1 stays in range. */
      int64_t r = ref_asr(a, (unsigned)b);
      if (round && b > 0 && (ref_asr(a, (unsigned)(b - 1)) & 1) != 0)
         r += 1;
      return r;
   }
   }
}

static int
bit_binary(enum bit_op op, bool round, const struct ref_tensor *in1, const struct ref_tensor *in2,
           struct ref_tensor *out)
{
   const char *name = bit_names[op];
   if (!ref_tensor_valid(in1) || !ref_tensor_valid(in2) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", name);
   int st = check_rows(name, is_logical(op), in1, in2, out);
   if (st == TOSA_REF_OK)
      st = ref_check_broadcast(name, in1, in2, out);
   if (st != TOSA_REF_OK)
      return st;

   unsigned bits = ref_dtype_int_bits(in1->dtype);
   int64_t index[REF_MAX_RANK];
   int64_t require_at = -1;
   for (int64_t o = 0; o < out->count; o++) {
      ref_tensor_index(out, o, index);
      int64_t a = ref_tensor_get_int(in1, ref_broadcast_offset(out, in1, index));
      int64_t b = ref_tensor_get_int(in2, ref_broadcast_offset(out, in2, index));
      bool ok = true;
      int64_t r;
      switch (op) {
      case BIT_AND:
      case LOGIC_AND:
         r = a & b; /* bool: 0 or 1, so && is & */
         break;
      case BIT_OR:
      case LOGIC_OR:
         r = a | b;
         break;
      case BIT_XOR:
         r = a ^ b;
         break;
      case LOGIC_XOR:
         r = a != b;
         break;
      default:
         r = shift(op, round, a, b, bits, &ok);
         break;
      }
      if (!ok && require_at < 0)
         require_at = o;
      ref_tensor_set_int(out, o, r);
   }
   if (require_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "%s: REQUIRE(0 <= value2 <= %u) failed at output offset %lld", name,
                        bits - 1, (long long)require_at);
   return TOSA_REF_OK;
}

int
tosa_ref_bitwise_and(const struct ref_tensor *input1, const struct ref_tensor *input2,
                     struct ref_tensor *output)
{
   return bit_binary(BIT_AND, false, input1, input2, output);
}

int
tosa_ref_bitwise_or(const struct ref_tensor *input1, const struct ref_tensor *input2,
                    struct ref_tensor *output)
{
   return bit_binary(BIT_OR, false, input1, input2, output);
}

int
tosa_ref_bitwise_xor(const struct ref_tensor *input1, const struct ref_tensor *input2,
                     struct ref_tensor *output)
{
   return bit_binary(BIT_XOR, false, input1, input2, output);
}

int
tosa_ref_logical_and(const struct ref_tensor *input1, const struct ref_tensor *input2,
                     struct ref_tensor *output)
{
   return bit_binary(LOGIC_AND, false, input1, input2, output);
}

int
tosa_ref_logical_or(const struct ref_tensor *input1, const struct ref_tensor *input2,
                    struct ref_tensor *output)
{
   return bit_binary(LOGIC_OR, false, input1, input2, output);
}

int
tosa_ref_logical_xor(const struct ref_tensor *input1, const struct ref_tensor *input2,
                     struct ref_tensor *output)
{
   return bit_binary(LOGIC_XOR, false, input1, input2, output);
}

int
tosa_ref_logical_left_shift(const struct ref_tensor *input1, const struct ref_tensor *input2,
                            struct ref_tensor *output)
{
   return bit_binary(SHIFT_LEFT, false, input1, input2, output);
}

int
tosa_ref_logical_right_shift(const struct ref_tensor *input1, const struct ref_tensor *input2,
                             struct ref_tensor *output)
{
   return bit_binary(SHIFT_RIGHT_LOGICAL, false, input1, input2, output);
}

int
tosa_ref_arithmetic_right_shift(bool round, const struct ref_tensor *input1,
                                const struct ref_tensor *input2, struct ref_tensor *output)
{
   return bit_binary(SHIFT_RIGHT_ARITH, round, input1, input2, output);
}

/* ---------------------------------------------------------------------------------------------
 * BITWISE_NOT, LOGICAL_NOT, CLZ: one input, the output of its shape and type.
 */

enum bit_unary {
   UNARY_BITWISE_NOT,
   UNARY_LOGICAL_NOT,
   UNARY_CLZ,
};

/* count_leading_zeros(int32_t): 32 for 0, else the zero bits above the highest set bit. */
static int64_t
clz32(int64_t a)
{
   uint32_t v = (uint32_t)a;
   int64_t n = 0;
   if (v == 0)
      return 32;
   for (uint32_t mask = UINT32_C(1) << 31; (v & mask) == 0; mask >>= 1)
      n++;
   return n;
}

static int
bit_unary(enum bit_unary op, const struct ref_tensor *in, struct ref_tensor *out)
{
   static const char *const names[] = {"BITWISE_NOT", "LOGICAL_NOT", "CLZ"};
   const char *name = names[op];
   if (!ref_tensor_valid(in) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", name);
   if (op == UNARY_CLZ) {
      if (in->dtype != REF_DTYPE_I32 || out->dtype != REF_DTYPE_I32)
         return ref_status(TOSA_REF_UNSUPPORTED, "CLZ: no type-support row for %s -> %s",
                           ref_dtype_name(in->dtype), ref_dtype_name(out->dtype));
   } else {
      int st = check_rows(name, op == UNARY_LOGICAL_NOT, in, NULL, out);
      if (st != TOSA_REF_OK)
         return st;
   }
   if (!ref_same_shape(in, out))
      return ref_status(TOSA_REF_ERROR, "%s: the output shape must be the input shape", name);
   for (int64_t o = 0; o < in->count; o++) {
      int64_t a = ref_tensor_get_int(in, o);
      int64_t r = op == UNARY_BITWISE_NOT ? ~a : op == UNARY_LOGICAL_NOT ? !a : clz32(a);
      ref_tensor_set_int(out, o, r); /* ~a keeps the low W bits */
   }
   return TOSA_REF_OK;
}

int
tosa_ref_bitwise_not(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return bit_unary(UNARY_BITWISE_NOT, input1, output);
}

int
tosa_ref_logical_not(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return bit_unary(UNARY_LOGICAL_NOT, input1, output);
}

int
tosa_ref_clz(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return bit_unary(UNARY_CLZ, input1, output);
}
