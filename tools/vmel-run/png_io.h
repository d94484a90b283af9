/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * PNG files for vmel-run's optical flow, through Debian's libpng: any PNG
 * (grey, grey+alpha, RGB, RGBA, palette; 1 to 16 bits) read as 8-bit luma,
 * and 8-bit grey or RGB written. Luma is Rec. 601 on the stored 8-bit values
 * (no gamma decoding): Y = (77 R + 150 G + 29 B + 128) >> 8, the weights
 * 0.299, 0.587, 0.114 in 1/256ths (they sum to 256, so grey stays grey).
 * 16-bit samples keep their top 8 bits; alpha is ignored.
 */
#ifndef VMEL_PNG_IO_H
#define VMEL_PNG_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Rec. 601 luma of an 8-bit RGB triple, as png_read_luma computes it. */
static inline uint8_t
png_luma(uint8_t r, uint8_t g, uint8_t b)
{
   return (uint8_t)((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

/**
 * Reads a PNG file as width*height 8-bit luma values (row-major, malloc()ed
 * into *luma). False with a message in err on any failure (not a PNG,
 * truncated, too large: at most 16384 x 16384).
 */
bool png_read_luma(const char *path, uint32_t *width, uint32_t *height, uint8_t **luma, char *err,
                   size_t err_len);

/** Writes width*height pixels of channels (1: grey, 3: RGB) 8-bit samples, row-major. */
bool png_write(const char *path, uint32_t width, uint32_t height, unsigned channels,
               const uint8_t *pixels, char *err, size_t err_len);

#endif /* VMEL_PNG_IO_H */
