/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bounds-checked SPIR-V reader shared by the tensor and graph layers, in
 * the shape of SPIRV-Reflect: the header is validated, the instruction stream
 * is walked twice (count, then fill an array of struct spirv_inst), and an
 * id -> instruction table sized from the header's bound is built from the
 * result ids. Every operand read goes through a checked accessor that returns
 * a VkResult plus a diagnostic (word offset, code, message) and never reads
 * outside the module. Unknown opcodes are walked by their word count.
 *
 * Also here: the cheap capability scan used to pass modules without
 * TensorsARM through untouched, and per-opcode result type/result id facts.
 */
#ifndef LYR_SPIRV_H
#define LYR_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define SPIRV_MAGIC 0x07230203u
#define SPIRV_MAGIC_SWAPPED 0x03022307u
#define SPIRV_HEADER_WORDS 5u
/** SPIR-V 2.17 "Universal Limits": the largest Result <id> bound. */
#define SPIRV_MAX_BOUND 4194303u
/** Value of spirv_reader::defs[id] for an id no instruction defines. */
#define SPIRV_NO_INST UINT32_MAX

/**
 * Diagnostic codes of the reader. The range 1000..1099 belongs to the reader
 * and the numbers are stable (other decoders use other ranges).
 */
enum spirv_error {
   SPIRV_OK = 0,
   SPIRV_ERR_HEADER_TRUNCATED = 1000, /* fewer than 5 words */
   SPIRV_ERR_MAGIC = 1001,            /* word 0 is not the SPIR-V magic number */
   SPIRV_ERR_BYTE_SWAPPED = 1002,     /* the magic number in the other byte order */
   SPIRV_ERR_VERSION = 1003,          /* word 1 is not a SPIR-V 1.0..1.6 version */
   SPIRV_ERR_BOUND = 1004,            /* word 3 is 0 or above SPIRV_MAX_BOUND */
   SPIRV_ERR_TOO_LARGE = 1005,        /* more than UINT32_MAX words */
   SPIRV_ERR_WORD_COUNT_ZERO = 1006,  /* an instruction with word count 0 */
   SPIRV_ERR_INST_TRUNCATED = 1007,   /* an instruction runs past the end of the module */
   SPIRV_ERR_OPERAND_MISSING = 1008,  /* an operand past the end of its instruction */
   SPIRV_ERR_ID_RANGE = 1009,         /* an id that is 0 or not below the bound */
   SPIRV_ERR_ID_DUPLICATE = 1010,     /* a result id defined twice */
   SPIRV_ERR_ID_UNDEFINED = 1011,     /* an id no instruction defines */
   SPIRV_ERR_STRING = 1012,           /* a literal string without its NUL terminator */
   SPIRV_ERR_OUT_OF_MEMORY = 1013,
};

/** Where and why reading failed. */
struct spirv_diag {
   enum spirv_error code;
   /** Offset in words from the start of the module of the word at fault: the
    *  instruction's first word for word-count errors, the operand for operand
    *  errors, the header word for header errors. */
   uint32_t offset;
   char message[160];
};

/** One instruction of a module. */
struct spirv_inst {
   uint16_t opcode;
   uint16_t word_count; /* >= 1, including the opcode word */
   uint32_t offset;     /* word offset of the opcode word in the module */
};

/** A parsed module. Fields are read-only for users; the words are not copied,
 *  so they must outlive the reader. */
struct spirv_reader {
   const uint32_t *words;
   uint32_t word_count;
   uint32_t version; /* header word 1: 0x00MMmm00 */
   uint32_t generator;
   uint32_t bound;
   struct spirv_inst *insts; /* struct spirv_inst[inst_count], in module order */
   uint32_t inst_count;
   uint32_t *defs; /* uint32_t[bound]: index in insts defining each id, or SPIRV_NO_INST */
   const VkAllocationCallbacks *alloc;
};

/**
 * Validates the 5-word header: length, magic (a byte-swapped module is
 * rejected, not swapped), version 1.0..1.6, bound 1..SPIRV_MAX_BOUND.
 * @param diag receives the failure; may be NULL
 * @return VK_SUCCESS or VK_ERROR_INITIALIZATION_FAILED
 */
VkResult spirv_check_header(const uint32_t *words, size_t word_count, struct spirv_diag *diag);

/**
 * Parses a module: header, instruction array, id table.
 * @param r      the reader to fill; zeroed first, so spirv_reader_finish() is
 *               safe after a failure
 * @param words  the module; must stay alive and unchanged while r is used
 * @param alloc  allocator for the arrays; NULL means lyr_default_alloc
 * @param diag   receives the first problem found; may be NULL
 * @return VK_SUCCESS, VK_ERROR_INITIALIZATION_FAILED for a malformed module
 *         (zero word count, truncated instruction, result id 0 or >= bound,
 *         duplicate result id, bad header), or VK_ERROR_OUT_OF_HOST_MEMORY
 */
VkResult spirv_reader_init(struct spirv_reader *r, const uint32_t *words, size_t word_count,
                           const VkAllocationCallbacks *alloc, struct spirv_diag *diag);

/** Frees what spirv_reader_init() allocated. */
void spirv_reader_finish(struct spirv_reader *r);

/** The instruction defining `id`, or NULL when id is out of range or undefined. */
const struct spirv_inst *spirv_reader_def(const struct spirv_reader *r, uint32_t id);

/** Index of `inst` in r->insts. */
static inline uint32_t
spirv_reader_inst_index(const struct spirv_reader *r, const struct spirv_inst *inst)
{
   return (uint32_t)(inst - r->insts);
}

/** The words of `inst`: inst->word_count of them are valid. Prefer the checked
 *  accessors below for operands. */
static inline const uint32_t *
spirv_reader_inst_words(const struct spirv_reader *r, const struct spirv_inst *inst)
{
   return r->words + inst->offset;
}

/** The result id of `inst`, or 0 if its opcode has none (or is unknown). */
uint32_t spirv_reader_result_id(const struct spirv_reader *r, const struct spirv_inst *inst);

/** The result type id of `inst`, or 0 if its opcode has none (or is unknown). */
uint32_t spirv_reader_result_type(const struct spirv_reader *r, const struct spirv_inst *inst);

/**
 * Word `index` of `inst` (0 is the opcode/word-count word, 1 the first operand).
 * @return VK_SUCCESS, or VK_ERROR_INITIALIZATION_FAILED (SPIRV_ERR_OPERAND_MISSING)
 *         when index >= inst->word_count
 */
VkResult spirv_reader_word(const struct spirv_reader *r, const struct spirv_inst *inst,
                           uint32_t index, uint32_t *value, struct spirv_diag *diag);

/** A 64-bit literal in words index (low-order) and index + 1 (high-order). */
VkResult spirv_reader_u64(const struct spirv_reader *r, const struct spirv_inst *inst,
                          uint32_t index, uint64_t *value, struct spirv_diag *diag);

/** Word `index` as an <id>: fails unless 0 < id < bound (SPIRV_ERR_ID_RANGE). */
VkResult spirv_reader_id(const struct spirv_reader *r, const struct spirv_inst *inst,
                         uint32_t index, uint32_t *id, struct spirv_diag *diag);

/** Word `index` as an <id> and the instruction defining it; fails with
 *  SPIRV_ERR_ID_UNDEFINED when no instruction defines it. */
VkResult spirv_reader_id_def(const struct spirv_reader *r, const struct spirv_inst *inst,
                             uint32_t index, const struct spirv_inst **def,
                             struct spirv_diag *diag);

/**
 * A literal string starting at word `index`: UTF-8, NUL-terminated, padded to
 * a word boundary, entirely inside the instruction (else SPIRV_ERR_STRING).
 * @param str        receives a pointer into the module's words
 * @param len        receives strlen(*str); may be NULL
 * @param next_index receives the index of the word after the string; may be NULL
 */
VkResult spirv_reader_string(const struct spirv_reader *r, const struct spirv_inst *inst,
                             uint32_t index, const char **str, size_t *len, uint32_t *next_index,
                             struct spirv_diag *diag);

/**
 * Records a diagnostic (if diag is not NULL) and returns the VkResult for the
 * code: VK_ERROR_OUT_OF_HOST_MEMORY for SPIRV_ERR_OUT_OF_MEMORY, else
 * VK_ERROR_INITIALIZATION_FAILED. Used as `return spirv_diag_error(...)`.
 */
VkResult spirv_diag_error(struct spirv_diag *diag, enum spirv_error code, uint32_t offset,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** Stable name of a code ("SPIRV_ERR_ID_RANGE"), for logs and tests. */
const char *spirv_error_name(enum spirv_error code);

/**
 * True if the module declares capability `cap`, explicitly or implicitly
 * through StorageTensorArray{Dynamic,NonUniform}IndexingARM (which declare
 * TensorsARM). A cheap scan, not a parse: it checks the magic number, reads
 * OpCapability/OpExtension and stops at the first other instruction (all
 * OpCapability instructions come first in a valid module) or at anything
 * malformed.
 */
bool spirv_declares_capability(const uint32_t *words, size_t word_count, uint32_t cap);

/**
 * Whether instructions with this opcode have a result type and a result id:
 * every opcode of the system SPIRV-Headers grammar plus the SPV_ARM_tensors,
 * SPV_ARM_graph and SPV_EXT_replicated_composites ones. Unknown opcodes have
 * neither.
 */
void spirv_opcode_result_info(uint32_t opcode, bool *has_result_type, bool *has_result);

#endif /* LYR_SPIRV_H */
