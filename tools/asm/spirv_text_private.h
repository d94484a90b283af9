/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the assembler and the disassembler share: the per-id facts both track
 * in module order (scalar types for context-dependent literals, result types
 * for OpSwitch selectors, imported instruction sets), literal encoding and
 * formatting (spirv_text_literal.c), and small growable buffers. Both sides
 * update the facts from the same instruction words with spirv_text_track(),
 * so a literal the disassembler prints is always one the assembler can read.
 */
#ifndef SPIRV_TEXT_PRIVATE_H
#define SPIRV_TEXT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_grammar.h"

#define SPIRV_TEXT_MAX_ID 4194303u /* SPIR-V universal limit on the id bound */

/* The instruction sets an OpExtInstImport can name, as the text tools see them. */
enum text_set {
   TEXT_SET_NONE,        /* not an OpExtInstImport result */
   TEXT_SET_GLSL,        /* GLSL.std.450 */
   TEXT_SET_TOSA,        /* TOSA.001000.1 */
   TEXT_SET_ME,          /* Arm.MotionEngine.100 */
   TEXT_SET_DEBUG,       /* NonSemantic.Graph.DebugInfo.1 */
   TEXT_SET_NONSEMANTIC, /* another NonSemantic.* set: all operands are ids */
   TEXT_SET_OTHER,       /* anything else: instruction numbers only */
};

enum num_class { NUM_NONE, NUM_INT, NUM_FLOAT };

/* A scalar numeric type (OpTypeInt / OpTypeFloat). */
struct num_type {
   uint8_t cls; /* enum num_class */
   uint8_t is_signed;
   uint8_t has_encoding;
   uint32_t width;
   uint32_t encoding; /* FPEncoding when has_encoding */
};

/* Facts about ids, indexed by id; ids >= cap are not tracked. */
struct text_ids {
   uint32_t cap;
   uint8_t *set;           /* enum text_set */
   struct num_type *types; /* for type ids */
   uint32_t *value_type;   /* result type of value ids */
};

bool text_ids_init(struct text_ids *t, uint32_t cap);
void text_ids_finish(struct text_ids *t);

/** Records what instruction `w` (w[0] is its opcode word) defines. */
void text_ids_track(struct text_ids *t, const uint32_t *w);

/** The scalar type of value `id` (through its result type), or NULL. */
const struct num_type *text_ids_value_num_type(const struct text_ids *t, uint32_t id);

/** The scalar type with type id `type`, or NULL. */
const struct num_type *text_ids_num_type(const struct text_ids *t, uint32_t type);

/** The set of an OpExtInstImport name. */
enum text_set text_set_from_name(const char *name);

/* ---- literals (spirv_text_literal.c) -------------------------------------- */

/** Words a context-dependent literal of this type takes (1 or 2), or 0 when
 *  the type cannot hold literals (unsupported width or float encoding). */
uint32_t num_type_words(const struct num_type *type);

/**
 * Encodes token tok[0..len) as a literal of `type` into out[0..num_type_words).
 * @return NULL on success, else a static message ("out of range for ...")
 */
const char *num_encode(const struct num_type *type, const char *tok, size_t len, uint32_t *out);

/**
 * Formats words w[0..num_type_words) of `type` into buf, in a form num_encode()
 * turns back into the same words. Returns false when the words are not in
 * canonical form (non-zero or wrong sign-extension high bits).
 */
bool num_format(const struct num_type *type, const uint32_t *w, char *buf, size_t size);

/**
 * Parses a 32-bit integer literal: decimal (an optional sign) or 0x hex;
 * negative values are stored in two's complement.
 */
bool parse_u32_literal(const char *tok, size_t len, uint32_t *value);

/* ---- buffers --------------------------------------------------------------- */

struct word_buf {
   uint32_t *data;
   size_t count, capacity;
   bool oom;
};

void word_buf_push(struct word_buf *b, uint32_t word);

struct char_buf {
   char *data;
   size_t len, capacity;
   bool oom;
};

void char_buf_printf(struct char_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void char_buf_append(struct char_buf *b, const char *s, size_t len);

#endif /* SPIRV_TEXT_PRIVATE_H */
