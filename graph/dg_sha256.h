/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * SHA-256 (FIPS 180-4), incremental: the pipeline-cache keys, entry checksums
 * and the layer's build identity (dg_cache.c, dg_cache_format.c).
 */
#ifndef DG_SHA256_H
#define DG_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define DG_SHA256_SIZE 32

struct dg_sha256 {
   uint32_t h[8];
   uint64_t length; /* bytes hashed so far */
   uint8_t block[64];
   uint32_t fill; /* bytes in block */
};

void dg_sha256_init(struct dg_sha256 *s);
void dg_sha256_update(struct dg_sha256 *s, const void *data, size_t size);
void dg_sha256_final(struct dg_sha256 *s, uint8_t out[DG_SHA256_SIZE]);

/** Hashes a 32-bit value, little-endian whatever the host (keys are stable across runs). */
void dg_sha256_u32(struct dg_sha256 *s, uint32_t v);
void dg_sha256_u64(struct dg_sha256 *s, uint64_t v);

/** One call: SHA-256 of size bytes. */
void dg_sha256(const void *data, size_t size, uint8_t out[DG_SHA256_SIZE]);

#endif /* DG_SHA256_H */
