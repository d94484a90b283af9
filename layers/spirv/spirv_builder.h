/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The SPIR-V builder shared by the layers, in the shape of vkd3d-shader's:
 * one word stream per logical-layout section, memoized types and constants,
 * id allocation with the header's bound patched when the module is written.
 *
 * A builder can start empty or as a copy of a parsed module (every
 * instruction copied into its section, existing types and constants entered
 * in the memo tables, so that spirv_get_type_int() returns the module's own
 * id). Rewriting passes walk one section with spirv_builder_rewrite() and may
 * emit into any section while they walk; new types land at the end of the
 * global section, and spirv_builder_write() re-sorts that section by
 * dependency, so a pass never has to care where a type it needs is defined.
 *
 * Types can be replaced (spirv_builder_replace_type): at write time every
 * reference to the old id in a type position (declarations, constants,
 * result types, function types) becomes the new id, the old definition and
 * its names/decorations disappear, and non-aggregate types that became
 * duplicates are merged, as SPIR-V requires.
 *
 * Errors are sticky: emitters return 0 ids after a failure and
 * spirv_builder_result() reports the first one (out of memory, id bound).
 */
#ifndef LYR_SPIRV_BUILDER_H
#define LYR_SPIRV_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "spirv/spirv.h"

/** The sections of a module's logical layout (SPIR-V 2.4), in order. */
enum spirv_section {
   SPIRV_SECTION_CAPABILITY,
   SPIRV_SECTION_EXTENSION,
   SPIRV_SECTION_EXT_IMPORT,
   SPIRV_SECTION_MEMORY_MODEL,
   SPIRV_SECTION_ENTRY_POINT,
   SPIRV_SECTION_EXECUTION_MODE,
   SPIRV_SECTION_DEBUG,      /* OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed */
   SPIRV_SECTION_ANNOTATION, /* decorations */
   SPIRV_SECTION_GLOBAL,     /* types, constants, global variables, OpUndef, OpLine */
   SPIRV_SECTION_FUNCTION,   /* function declarations and definitions */
   SPIRV_SECTION_COUNT,
};

/** A growable array of words holding whole instructions. */
struct spirv_stream {
   uint32_t *words;
   size_t count;
   size_t capacity;
};

struct spirv_memo_entry;

/** A hash table from key words (an opcode and operands, no result id) to an id. */
struct spirv_memo {
   struct spirv_memo_entry *entries; /* open addressing, capacity entries */
   uint32_t capacity;
   uint32_t count;
   struct spirv_stream keys; /* the key words of every entry, back to back */
};

struct spirv_builder {
   const VkAllocationCallbacks *alloc;
   uint32_t version;   /* header word 1 */
   uint32_t generator; /* header word 2 */
   uint32_t next_id;   /* the bound once written */
   struct spirv_stream sections[SPIRV_SECTION_COUNT];

   struct spirv_memo memo; /* types and constants */

   /* Type replacements: uint32_t[replace_capacity], 0 = kept. */
   uint32_t *replace;
   uint32_t replace_capacity;

   struct spirv_stream scratch; /* temporary key words */

   uint32_t glsl_std450; /* OpExtInstImport "GLSL.std.450", 0 until asked for */
   VkResult result;      /* first failure, sticky */
   const char *failure;  /* what failed, for logs */
};

/* ---- streams and memo tables (also usable on their own) -------------------- */

/** Appends count words; false when out of memory. */
bool spirv_stream_append(struct spirv_stream *s, const VkAllocationCallbacks *alloc,
                         const uint32_t *words, size_t count);
void spirv_stream_finish(struct spirv_stream *s, const VkAllocationCallbacks *alloc);

/** The id stored under key[0..len), or 0. */
uint32_t spirv_memo_lookup(const struct spirv_memo *m, const uint32_t *key, uint32_t len);
/** Stores id under key[0..len) (replacing nothing: the first entry wins); false when out
 *  of memory. */
bool spirv_memo_insert(struct spirv_memo *m, const VkAllocationCallbacks *alloc,
                       const uint32_t *key, uint32_t len, uint32_t id);
void spirv_memo_finish(struct spirv_memo *m, const VkAllocationCallbacks *alloc);

/**
 * Starts an empty module.
 * @param version header version word (0x00010600 for SPIR-V 1.6)
 * @param alloc   allocator; NULL means lyr_default_alloc
 */
void spirv_builder_init(struct spirv_builder *b, uint32_t version,
                        const VkAllocationCallbacks *alloc);

/**
 * Starts from a parsed module: every instruction is copied into its section
 * (by opcode before the first OpFunction, FUNCTION from there on), ids keep
 * their numbers, types and constants are memoized, and new ids start at the
 * module's bound.
 * @return VK_SUCCESS or VK_ERROR_OUT_OF_HOST_MEMORY
 */
VkResult spirv_builder_init_from_reader(struct spirv_builder *b, const struct spirv_reader *r);

/** Frees everything the builder holds. */
void spirv_builder_finish(struct spirv_builder *b);

/** VK_SUCCESS, or the first failure of any builder call. */
static inline VkResult
spirv_builder_result(const struct spirv_builder *b)
{
   return b->result;
}

/** A fresh result id (0 once the SPIR-V id limit is reached; the builder then fails). */
uint32_t spirv_builder_alloc_id(struct spirv_builder *b);

/** The section an instruction with this opcode belongs to when it appears before
 *  the first OpFunction. */
enum spirv_section spirv_section_of_opcode(uint32_t opcode);

/* ---- raw emission --------------------------------------------------------- */

/** Appends words[0..count) (whole instructions) to a section. */
void spirv_builder_append(struct spirv_builder *b, enum spirv_section s, const uint32_t *words,
                          size_t count);

/** Inserts whole instructions at word `offset` of a section. */
void spirv_builder_insert(struct spirv_builder *b, enum spirv_section s, size_t offset,
                          const uint32_t *words, size_t count);

/** Number of words in a section now (an offset for spirv_builder_insert). */
static inline size_t
spirv_builder_size(const struct spirv_builder *b, enum spirv_section s)
{
   return b->sections[s].count;
}

/** Emits `opcode operands...` (no result). */
void spirv_build_op(struct spirv_builder *b, enum spirv_section s, uint32_t opcode,
                    const uint32_t *operands, uint32_t count);

/**
 * Emits `%result = opcode type operands...`; `type` 0 means the opcode has no
 * result type.
 * @param result the result id, or 0 for a fresh one
 * @return the result id (0 after a failure)
 */
uint32_t spirv_build_op_tr(struct spirv_builder *b, enum spirv_section s, uint32_t opcode,
                           uint32_t type, uint32_t result, const uint32_t *operands,
                           uint32_t count);

/** OpDecorate target decoration literals... */
void spirv_build_decorate(struct spirv_builder *b, uint32_t target, uint32_t decoration,
                          const uint32_t *literals, uint32_t count);

/** OpMemberDecorate type member decoration literals... */
void spirv_build_member_decorate(struct spirv_builder *b, uint32_t type, uint32_t member,
                                 uint32_t decoration, const uint32_t *literals, uint32_t count);

/* ---- memoized types (vkd3d style) ------------------------------------------ */

uint32_t spirv_get_type_void(struct spirv_builder *b);
uint32_t spirv_get_type_bool(struct spirv_builder *b);
uint32_t spirv_get_type_int(struct spirv_builder *b, uint32_t width, bool is_signed);
uint32_t spirv_get_type_float(struct spirv_builder *b, uint32_t width);
uint32_t spirv_get_type_vector(struct spirv_builder *b, uint32_t component, uint32_t count);
uint32_t spirv_get_type_pointer(struct spirv_builder *b, uint32_t storage_class, uint32_t type);
uint32_t spirv_get_type_function(struct spirv_builder *b, uint32_t return_type,
                                 const uint32_t *params, uint32_t count);
/** OpTypeArray with an ArrayStride decoration when stride != 0; memoized per stride. */
uint32_t spirv_get_type_array(struct spirv_builder *b, uint32_t element, uint32_t length_id,
                              uint32_t stride);
/** OpTypeRuntimeArray, likewise. */
uint32_t spirv_get_type_runtime_array(struct spirv_builder *b, uint32_t element, uint32_t stride);

/**
 * A new OpTypeStruct (structs are never shared: decorations make them distinct).
 * @param offsets member Offset decorations, or NULL for none
 */
uint32_t spirv_build_type_struct(struct spirv_builder *b, const uint32_t *members, uint32_t count,
                                 const uint32_t *offsets);

/* ---- memoized constants ---------------------------------------------------- */

/** OpConstant `type` with literal words (1 word up to 32 bits, 2 for 64). */
uint32_t spirv_get_const(struct spirv_builder *b, uint32_t type, const uint32_t *words,
                         uint32_t count);
/** OpConstant of OpTypeInt `width` unsigned (8..64). */
uint32_t spirv_get_const_uint(struct spirv_builder *b, uint32_t width, uint64_t value);
/** OpConstant of a 32-bit unsigned int. */
uint32_t spirv_get_const_u32(struct spirv_builder *b, uint32_t value);
/** OpConstant of a 32-bit float, from its bits. */
uint32_t spirv_get_const_f32_bits(struct spirv_builder *b, uint32_t bits);
uint32_t spirv_get_const_bool(struct spirv_builder *b, bool value);
uint32_t spirv_get_const_null(struct spirv_builder *b, uint32_t type);
uint32_t spirv_get_const_composite(struct spirv_builder *b, uint32_t type, const uint32_t *ids,
                                   uint32_t count);

/** The id of OpExtInstImport `name`, added if missing. */
uint32_t spirv_get_ext_import(struct spirv_builder *b, const char *name);

/* ---- capabilities, extensions, memoization of existing definitions --------- */

bool spirv_builder_has_capability(const struct spirv_builder *b, uint32_t cap);
void spirv_builder_add_capability(struct spirv_builder *b, uint32_t cap);
/** Removes every OpCapability cap; returns whether one was there. */
bool spirv_builder_remove_capability(struct spirv_builder *b, uint32_t cap);
bool spirv_builder_has_extension(const struct spirv_builder *b, const char *name);
void spirv_builder_add_extension(struct spirv_builder *b, const char *name);
bool spirv_builder_remove_extension(struct spirv_builder *b, const char *name);

/**
 * Enters an existing type or constant instruction (whole words, result id
 * included) in the memo tables, unless an equal one is there already. Arrays,
 * structs, spec constants and anything else are ignored.
 */
void spirv_builder_memoize(struct spirv_builder *b, const uint32_t *inst);

/* ---- walking and rewriting ------------------------------------------------- */

/**
 * Called for each instruction of the walked section. `inst` stays valid for
 * the call; the callback may emit anything anywhere, and sets *keep to false
 * to drop `inst` (it starts true). Emissions into the walked section land
 * before `inst` when it is kept.
 */
typedef VkResult (*spirv_rewrite_fn)(struct spirv_builder *b, const uint32_t *inst, void *data,
                                     bool *keep);

/** Rewrites section `s` through `fn`; stops at the first failure. */
VkResult spirv_builder_rewrite(struct spirv_builder *b, enum spirv_section s, spirv_rewrite_fn fn,
                               void *data);

/* ---- type replacement and output ------------------------------------------ */

/** At write time, `old_type` is replaced by `new_type` everywhere a type may appear. */
void spirv_builder_replace_type(struct spirv_builder *b, uint32_t old_type, uint32_t new_type);

/**
 * Word indices of the <id> operands (result type included, result id not) of
 * an instruction that can appear in the global section; unknown opcodes
 * report every operand word after the result id.
 * @return the number of indices written to idx (at most max)
 */
uint32_t spirv_global_inst_ids(const uint32_t *inst, uint32_t *idx, uint32_t max);

/**
 * Finishes the module: applies type replacements, merges duplicate
 * non-aggregate types, sorts the global section so that every id is defined
 * before use, and writes header + sections into one allocation.
 * @param words receives the module (allocated with the builder's allocator;
 *              free with lyr_free(b->alloc, ...))
 * @return VK_SUCCESS, VK_ERROR_OUT_OF_HOST_MEMORY, or VK_ERROR_INITIALIZATION_FAILED
 *         when the global section has a dependency cycle
 */
VkResult spirv_builder_write(struct spirv_builder *b, uint32_t **words, size_t *count);

#endif /* LYR_SPIRV_BUILDER_H */
