/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * SPIR-V text assembler and disassembler for tests and users, because
 * Debian's spirv-as cannot assemble tensor, graph or TOSA instructions.
 *
 * Syntax: that of spirv-as / spirv-dis, one instruction per line.
 *   %name = OpTypeInt 32 1          result ids on the left
 *   OpDecorate %x DescriptorSet 0   enum operands by name, masks as A|B
 *   OpName %x "a \"quoted\" name"   literal strings; \c stands for c
 *   %r = OpExtInst %t %tosa CLAMP %lo %hi %nan %in
 *   %c = OpConstant %float -1.5     context-dependent literals follow the type
 *   !0x00020011 4174                a raw instruction: every operand is one
 *                                   word (!N or N), an %id or a "string"
 *   ; comment
 * Ids: %12 keeps the number 12 (plain decimal: %012 is a name); named ids
 * (%foo) take the lowest numbers numeric ids leave free, in order of first
 * appearance. Named ids must be defined somewhere in the module; numeric ones
 * need not be (a raw instruction may define them).
 * OpExtInst instruction names come from the imported set: GLSL.std.450,
 * TOSA.001000.1 (CONV2D ...), Arm.MotionEngine.100 (MIN_SAD ...),
 * NonSemantic.Graph.DebugInfo.1 (DebugGraph ...); other sets take numbers.
 * The assembler checks syntax and the grammar, not semantics (operand counts
 * of extended instructions are left to the graph decoder, so negative tests
 * can be written as text).
 * Header: comment lines before the first instruction may set header words:
 * "; Version: 1.5", "; Generator: 0x00080001", "; Bound: 42", "; Schema: 0"
 * (the disassembler writes them). Defaults: version 1.6, generator 0, bound
 * one past the largest id.
 *
 * Round trip: disassemble() prints numeric ids only, and falls back to a raw
 * instruction for anything it cannot print in a form that re-assembles to
 * the same words, so assemble(disassemble(words)) == words for any module
 * whose header and word counts are sane.
 */
#ifndef SPIRV_TEXT_H
#define SPIRV_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Assembles SPIR-V text.
 * @param text   the source, len bytes (need not be NUL-terminated)
 * @param words  receives the module, allocated with malloc(); free() it
 * @param count  receives the number of words
 * @param err    receives "line N: message" on failure; may be NULL
 * @return true on success
 */
bool spirv_text_assemble(const char *text, size_t len, uint32_t **words, size_t *count, char *err,
                         size_t err_len);

/**
 * Disassembles a module into spirv-dis style text.
 * @param text   receives the NUL-terminated text, allocated with malloc(); free() it
 * @param len    receives strlen(*text); may be NULL
 * @param err    receives a message (with a word offset) on failure; may be NULL
 * @return true on success; false for a module without a valid magic number,
 *         with a zero word count or a truncated instruction, or out of memory
 */
bool spirv_text_disassemble(const uint32_t *words, size_t count, char **text, size_t *len,
                            char *err, size_t err_len);

#endif /* SPIRV_TEXT_H */
