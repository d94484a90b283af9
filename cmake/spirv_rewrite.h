/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build-time SPIR-V rewrites of compiled kernels (vmel_spirv_rewrite, spirv_rewrite.c; D51):
 * what glslang 12 cannot emit, produced from what it can.
 */
#ifndef VMEL_SPIRV_REWRITE_H
#define VMEL_SPIRV_REWRITE_H

#include <stddef.h>
#include <stdint.h>

/* The words of the module being written. */
struct spirv_out {
   uint32_t *w;
   size_t n, cap;
};

/* Prints the message (with an id, 0: none) and returns 1. */
int spirv_fail(const char *msg, uint32_t id);
/* Appends words; 1 when out of memory. */
int spirv_emit(struct spirv_out *o, const uint32_t *words, size_t count);
/* Appends an instruction whose only operand is the string s (OpExtension). */
int spirv_emit_string_op(struct spirv_out *o, uint32_t op, const char *s);
/* Whether the instruction at inst (its words to its length) is OpExtension with string s. */
int spirv_is_extension(const uint32_t *inst, const char *s);

/* The rewrites: module words w[n] (header included, little-endian, checked) into o, whole;
 * 0 on success, 1 after a message. */
int spirv_coop_khr(uint32_t *w, size_t n, struct spirv_out *o); /* spirv_coop_khr.c */
int spirv_int_dot(uint32_t *w, size_t n, struct spirv_out *o);  /* spirv_int_dot.c */
/* coop_khr_bf16's second step, on spirv_coop_khr()'s output (spirv_bf16.c) */
int spirv_bf16(uint32_t *w, size_t n, struct spirv_out *o);

#endif /* VMEL_SPIRV_REWRITE_H */
