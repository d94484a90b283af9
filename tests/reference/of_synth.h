/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Synthetic frame pairs with known dense flow for the optical-flow reference
 * (D48, docs/optical-flow.md), and the quality measures: end-point error,
 * outlier rate, and how well the cost output ranks the errors.
 */
#ifndef VMEL_OF_SYNTH_H
#define VMEL_OF_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

enum of_synth_kind {
   OF_SYNTH_TRANSLATE,   /* one translation (integer or sub-pixel) of the whole frame */
   OF_SYNTH_ROTATE_ZOOM, /* rotation and zoom about the frame's centre */
   OF_SYNTH_TWO_MOTIONS, /* a disc and a square moving independently over a moving background */
};

struct of_synth_desc {
   enum of_synth_kind kind;
   float dx, dy;          /* TRANSLATE: the flow; TWO_MOTIONS: the background's flow */
   float angle_deg, zoom; /* ROTATE_ZOOM */
   float ax, ay, bx, by;  /* TWO_MOTIONS: the disc's and the square's flow */
};

/*
 * A frame pair: input(p) = reference(p + gt(p)) for every valid pixel (the
 * flow convention of optical_flow.h). Both frames sample one continuous
 * texture, so sub-pixel motion is exact, not resampled.
 */
struct of_synth {
   uint32_t w, h;
   uint8_t *input, *reference; /* w*h luma each */
   float *gt;                  /* (x, y) per pixel */
   uint8_t *valid;             /* 1: p + gt(p) is inside the reference and shows the same surface */
};

/* Textured luma value in 0..255 (four octaves of cubic value noise, periods 32..4 px). */
float of_synth_texture(uint64_t seed, double x, double y);

bool of_synth_make(struct of_synth *s, const struct of_synth_desc *d, uint32_t w, uint32_t h,
                   uint64_t seed);
void of_synth_free(struct of_synth *s);

struct of_quality {
   double epe;           /* mean end-point error over valid pixels, px */
   double outliers;      /* fraction of valid pixels with error > 3 px */
   uint64_t pixels;      /* valid pixels */
   double spearman;      /* rank correlation of cost and per-vector EPE (NAN without cost) */
   double epe_best_half; /* mean EPE over the valid pixels of the half of the vectors with the
                            lowest cost */
   uint32_t vectors;     /* vectors with a valid pixel */
};

/*
 * Each pixel takes the vector of its grid cell (grid 1, 2, 4 or 8, flow as
 * of_compute writes it). cost may be NULL. False on allocation failure.
 */
bool of_measure(const struct of_synth *s, const float *flow, const uint16_t *cost, uint32_t grid,
                struct of_quality *q);

#endif
