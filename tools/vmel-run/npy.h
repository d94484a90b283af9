/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A small, strict reader and writer of NumPy .npy files (format versions 1.0
 * and 2.0), for vmel-run's inputs, outputs and graph constants. Only what a
 * tensor needs is accepted: C order, little-endian (or byte-order-free) plain
 * dtypes |b1 |i1 |u1 <i2 <u2 <i4 <u4 <i8 <f2 <f4 <f8, and data that fills the
 * rest of the file exactly. Anything else (Fortran order, big-endian,
 * structured or object dtypes, version 3.0, a truncated file, trailing bytes,
 * a header that is not the dict NumPy writes) is rejected with a message
 * saying what and where. bf16 and fp8 data travel as raw |u2 / |u1 arrays;
 * what they mean is the caller's business.
 *
 * The header is read as the Python literal NumPy writes:
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * keys in any order, single or double quotes, optional trailing commas,
 * whitespace anywhere between tokens. The writer emits version 1.0 (2.0 only
 * for a header longer than 65535 bytes) padded to a multiple of 64 bytes and
 * ending in '\n', as numpy.save does.
 */
#ifndef VMEL_NPY_H
#define VMEL_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** NumPy allows 64 dimensions; a tensor has at most 6, so 16 is plenty. */
#define NPY_MAX_RANK 16

enum npy_dtype {
   NPY_BOOL, /* |b1, each byte 0 or 1 */
   NPY_I8,   /* |i1 */
   NPY_U8,   /* |u1 */
   NPY_I16,  /* <i2 */
   NPY_U16,  /* <u2 */
   NPY_I32,  /* <i4 */
   NPY_U32,  /* <u4 */
   NPY_I64,  /* <i8 */
   NPY_F16,  /* <f2 */
   NPY_F32,  /* <f4 */
   NPY_F64,  /* <f8 */
   NPY_DTYPE_COUNT
};

/** An array: shape in C order (last dimension fastest), data little-endian. */
struct npy_array {
   enum npy_dtype dtype;
   uint32_t rank; /* 0 for a scalar (one element) */
   int64_t shape[NPY_MAX_RANK];
   void *data;  /* npy_array_bytes() bytes; malloc()ed by the reader */
   size_t size; /* bytes of data */
};

/** Bytes per element. */
size_t npy_dtype_size(enum npy_dtype dtype);

/** The descr string NumPy writes: "|b1", "<f4", ... */
const char *npy_dtype_descr(enum npy_dtype dtype);

/** Parses a descr ("<i4", "|u1"; "<i1" and "<u1" and "<b1" are accepted too). */
bool npy_dtype_from_descr(const char *descr, enum npy_dtype *dtype);

/** Number of elements (1 for rank 0); 0 if a dimension is 0. */
uint64_t npy_array_elements(const struct npy_array *a);

/**
 * Parses the bytes of a .npy file.
 * @param out  filled on success; out->data is a malloc()ed copy of the data
 *             (free it with npy_array_finish()); untouched on failure
 * @param err  receives why the file is rejected; may be NULL
 * @return true on success
 */
bool npy_parse(const void *bytes, size_t len, struct npy_array *out, char *err, size_t err_len);

/** npy_parse() of a whole file; the message names the file. */
bool npy_read_file(const char *path, struct npy_array *out, char *err, size_t err_len);

/** Reads a whole file into a malloc'ed buffer with a NUL after its len bytes. */
bool npy_slurp(const char *path, char **data, size_t *len, char *err, size_t err_len);

/**
 * Serializes an array (its rank, shape, dtype and size must agree).
 * @param bytes  receives a malloc()ed buffer; free() it
 * @return true on success; false on a bad argument or when out of memory
 */
bool npy_serialize(const struct npy_array *a, void **bytes, size_t *len, char *err,
                   size_t err_len);

/** npy_serialize() into a file (created or truncated). */
bool npy_write_file(const char *path, const struct npy_array *a, char *err, size_t err_len);

/** Frees what the reader allocated and zeroes the struct. */
void npy_array_finish(struct npy_array *a);

#endif /* VMEL_NPY_H */
