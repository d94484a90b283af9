/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The SPIR-V grammar tables of the text assembler and disassembler: the core
 * and GLSL.std.450 grammars generated at build time from the system
 * SPIRV-Headers JSON (gen_spirv_grammar.c), with the instructions, operand
 * kinds and enumerants of spirv_arm_ml.h layered on top (spirv_grammar.c).
 * Lookups always consult the ARM layer first, so it can also amend core
 * entries (OpTypeFloat gains its optional FPEncoding operand).
 */
#ifndef SPIRV_GRAMMAR_H
#define SPIRV_GRAMMAR_H

#include <stddef.h>
#include <stdint.h>

enum spirv_quant {
   SPIRV_Q_ONE, /* exactly one */
   SPIRV_Q_OPT, /* "?": zero or one, at the end */
   SPIRV_Q_ANY, /* "*": zero or more, at the end */
};

enum spirv_category {
   SPIRV_CAT_BIT_ENUM,
   SPIRV_CAT_VALUE_ENUM,
   SPIRV_CAT_ID,
   SPIRV_CAT_LITERAL,
   SPIRV_CAT_COMPOSITE,
};

struct spirv_operand_desc {
   uint16_t kind; /* enum spirv_core_kind or enum spirv_arm_kind */
   uint8_t quant; /* enum spirv_quant */
};

struct spirv_inst_desc {
   const char *name;
   uint32_t opcode;
   const struct spirv_operand_desc *operands;
   uint32_t operand_count;
};

struct spirv_enumerant_desc {
   const char *name;
   uint32_t value;
   const struct spirv_operand_desc *params; /* operands that follow it */
   uint32_t param_count;
};

struct spirv_kind_desc {
   const char *name;
   uint32_t category; /* enum spirv_category */
   const struct spirv_enumerant_desc *enumerants;
   uint32_t enumerant_count;
   uint16_t bases[2]; /* SPIRV_CAT_COMPOSITE: the kinds of the pair */
};

#include "spirv_grammar_gen.h"

/** Operand kinds the ARM layer adds after the core ones. */
enum spirv_arm_kind {
   SPIRV_KIND_ARM_TensorOperands = SPIRV_CORE_KIND_COUNT,
   SPIRV_KIND_ARM_FPEncoding,
   SPIRV_KIND_TOTAL,
};

/* Generated tables. */
extern const struct spirv_operand_desc spirv_grammar_operand_pool[];
extern const struct spirv_kind_desc spirv_core_kinds[SPIRV_CORE_KIND_COUNT];
extern const struct spirv_inst_desc spirv_core_insts[];
extern const uint32_t spirv_core_insts_count;
extern const struct spirv_inst_desc spirv_glsl_insts[];
extern const uint32_t spirv_glsl_insts_count;

/** The instruction with this opcode (ARM layer first, then core), or NULL. */
const struct spirv_inst_desc *spirv_grammar_inst(uint32_t opcode);

/** The instruction named name[0..len) ("OpTypeInt"), or NULL. */
const struct spirv_inst_desc *spirv_grammar_inst_by_name(const char *name, size_t len);

/** The core-grammar instruction with this opcode, ignoring the ARM layer. */
const struct spirv_inst_desc *spirv_grammar_core_inst(uint32_t opcode);

/** The ARM-layer instructions (for tests). */
const struct spirv_inst_desc *spirv_grammar_arm_insts(uint32_t *count);

/** Operand kind `kind` (< SPIRV_KIND_TOTAL), or NULL. */
const struct spirv_kind_desc *spirv_grammar_kind(uint32_t kind);

/** The first enumerant of `kind` with this value, or NULL. */
const struct spirv_enumerant_desc *spirv_grammar_enum(uint32_t kind, uint32_t value);

/** The enumerant of `kind` named name[0..len), or NULL. */
const struct spirv_enumerant_desc *spirv_grammar_enum_by_name(uint32_t kind, const char *name,
                                                              size_t len);

/** GLSL.std.450 instruction `number`, or NULL. */
const struct spirv_inst_desc *spirv_grammar_glsl_inst(uint32_t number);

/** GLSL.std.450 instruction named name[0..len), or NULL. */
const struct spirv_inst_desc *spirv_grammar_glsl_inst_by_name(const char *name, size_t len);

#endif /* SPIRV_GRAMMAR_H */
