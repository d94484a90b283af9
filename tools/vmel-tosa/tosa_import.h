/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A TOSA 1.0 flatbuffer (.tosa) made into a SPIR-V graph module (SPV_ARM_graph,
 * TOSA.001000.1), as SPIR-V text in the vmel-as syntax (tools/asm/spirv_text.h):
 * parse bounded and validate (tosa_model.h), then lower (tosa_lower.c). Binding rule: the
 * block's inputs are set 0, bindings 0..N-1 in declared order, its outputs bindings
 * N..N+M-1; CONST and CONST_SHAPE tensors become constants in the module. Anything the graph
 * layer cannot run is refused with a message naming the operator and why (docs/tosa-import.md).
 */
#ifndef VMEL_TOSA_IMPORT_H
#define VMEL_TOSA_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Largest number of constant elements a file may hold (they become composite constants). */
#define TOSA_MAX_CONSTANT_ELEMENTS (UINT64_C(1) << 22)

/**
 * Converts a .tosa file's bytes to SPIR-V text.
 * @param text  receives the NUL-terminated text, allocated with malloc(); free() it
 * @param len   receives strlen(*text); may be NULL
 * @param err   receives why the file is refused
 */
bool tosa_import_text(const void *data, size_t size, char **text, size_t *len, char *err,
                      size_t err_len);

/** The same, assembled into SPIR-V words (malloc()ed). */
bool tosa_import_words(const void *data, size_t size, uint32_t **words, size_t *count,
                       char *err, size_t err_len);

#endif /* VMEL_TOSA_IMPORT_H */
