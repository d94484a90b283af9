/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TABLE ("Elementwise Binary Operators"; pseudocode/operators/TABLE.tosac and
 * apply_lookup_s of chapters/introduction.adoc), bit-exact:
 *   i8 -> i8:   out = table[in + 128]                      (table of 256 i8)
 *   i16 -> i32: index = (in + 32768) >> 7, frac = in & 0x7f (table of 513 i16)
 *               out = (table[index] << 7) + (table[index + 1] - table[index]) * frac
 * apply_lookup_s's REQUIRE that every slope table[i + 1] - table[i] fits i16 is checked on
 * the constant table at pipeline creation (graph/ops/convert.c), as is its length; no
 * data-dependent REQUIRE is left (the input is already in the i16 range).
 *
 * Tensors (binding order): 0 input1, 1 table (a compile-time constant: a constant tensor of
 * the layer, rank 1), 2 output. The walk over the output's elements is the elementwise
 * driver's (dg_elementwise.glsl; DG_TEMPLATE_GRID(table, 64, ELEMENTS8)); dg_ew_apply() also
 * reads the read-only table, which, like the specialization constants, is the same for every
 * element.
 * Variant defines: DG_IN_DTYPE (i8 or i16, also the table's type), DG_OUT_DTYPE (i8 or i32).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_I8
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif
#if !(DG_IN_DTYPE == DG_DTYPE_I8 && DG_OUT_DTYPE == DG_DTYPE_I8) && \
   !(DG_IN_DTYPE == DG_DTYPE_I16 && DG_OUT_DTYPE == DG_DTYPE_I32)
#error "TABLE is i8 -> i8 or i16 -> i32"
#endif

DG_TENSOR(DG_TABLE_INPUT1, input1);
DG_TENSOR(DG_TABLE_TABLE, table);
DG_TENSOR(DG_TABLE_OUTPUT, output);

#define DG_EW_ARITY 1
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#define DG_EW_OUT_DTYPE DG_OUT_DTYPE

/* table[i], sign-extended. */
int
dg_table_entry(uint i)
{
   vmel_tensor_record t = DG_RECORD(table);
   return dg_load(DG_IN_DTYPE, dg_address(t, i * t.strides[0]));
}

int
dg_ew_apply(int value)
{
#if DG_IN_DTYPE == DG_DTYPE_I8
   return dg_table_entry(uint(value + 128));
#else
   uint index = uint(value + 32768) >> 7;
   int fraction = value & 0x7f;
   int base = dg_table_entry(index);
   int next = dg_table_entry(index + 1u);
   return (base << 7) + (next - base) * fraction;
#endif
}

#include "dg_elementwise.glsl"
