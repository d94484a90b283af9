/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The optical-flow algorithm of VK_ARM_data_graph_optical_flow as a CPU
 * reference (D48, docs/optical-flow.md): a coarse-to-fine pyramid, integer
 * SAD block matching per level, Lucas-Kanade sub-pixel refinement, a 3x3
 * vector median, bilinear upsampling to the requested output grid, an
 * optional hint input and cost output. Every step works on fixed windows and
 * per block, as the GPU kernels will. No Vulkan.
 *
 * Flow convention: flow(p) is the displacement from pixel p of the INPUT
 * frame to the same scene point in the REFERENCE frame, in pixels:
 * input(p) ~ reference(p + flow(p)).
 */
#ifndef VMEL_OPTICAL_FLOW_H
#define VMEL_OPTICAL_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#define OF_MAX_LEVELS 7

/* VkDataGraphOpticalFlowPerformanceLevelARM values (UNKNOWN reads as MEDIUM). */
enum of_perf { OF_PERF_SLOW = 1, OF_PERF_MEDIUM = 2, OF_PERF_FAST = 3 };

/* VkDataGraphOpticalFlowExecuteFlagBitsARM values the pyramid cache reads. */
#define OF_EXEC_INPUT_UNCHANGED 0x2u
#define OF_EXEC_REFERENCE_UNCHANGED 0x4u
#define OF_EXEC_INPUT_IS_PREVIOUS_REFERENCE 0x8u
#define OF_EXEC_REFERENCE_IS_PREVIOUS_INPUT 0x10u

/* One luma frame: 8-bit (R8_UNORM) or 16-bit (R16_UNORM) samples, row stride in samples. */
struct of_image {
   const void *data;
   uint32_t width, height, stride;
   uint32_t bits; /* 8 or 16 */
};

/* A Gaussian-like pyramid of 8-bit levels; level 0 is the frame (16-bit frames keep their top 8
 * bits). */
struct of_pyramid {
   uint32_t levels;
   uint32_t w[OF_MAX_LEVELS], h[OF_MAX_LEVELS];
   uint8_t *img[OF_MAX_LEVELS];
};

/* Two pyramid slots: what a session's OPTICAL_FLOW_CACHE memory holds between dispatches. */
struct of_cache {
   struct of_pyramid slot[2];
   int input_slot, reference_slot; /* -1: none yet */
};

struct of_params {
   uint32_t width, height;
   uint32_t grid;      /* output grid: 1, 2, 4 or 8 pixels per vector */
   enum of_perf perf;  /* SLOW, MEDIUM or FAST */
   const float *hint;  /* optional: (x, y) per hint vector, pixels, hint_grid pixels per vector */
   uint32_t hint_grid; /* 1, 2, 4 or 8 when hint is set */
};

/* Levels the pyramid of a W x H frame has for a performance level. */
uint32_t of_levels(uint32_t width, uint32_t height, enum of_perf perf);

/* Builds (or rebuilds) a pyramid in place; false on a bad image or allocation failure. */
bool of_pyramid_build(struct of_pyramid *p, const struct of_image *img, uint32_t levels);
void of_pyramid_free(struct of_pyramid *p);

void of_cache_init(struct of_cache *c);
void of_cache_free(struct of_cache *c);
/*
 * Makes the cache hold the pyramids of this dispatch's input and reference,
 * honouring the execute flags: an UNCHANGED frame keeps its pyramid, a
 * PREVIOUS frame takes the other pyramid of the last dispatch; anything else
 * is built. *built (optional) is the number of pyramids built (0..2). False
 * when a flag names a pyramid the cache does not have (the first dispatch) or
 * on allocation failure.
 */
bool of_cache_update(struct of_cache *c, const struct of_image *input,
                     const struct of_image *reference, uint32_t levels, uint32_t exec_flags,
                     unsigned *built);

/* Vectors of the output grid: ceil(W / grid) x ceil(H / grid). */
uint32_t of_grid_w(uint32_t width, uint32_t grid);
uint32_t of_grid_h(uint32_t height, uint32_t grid);

/*
 * The flow of input -> reference. flow: 2 floats (x, y) per output vector,
 * row-major (R16G16_SFLOAT after of_half_from_float); cost (optional): one
 * R16_UINT per vector, the block SAD at the final vector (lower = more
 * reliable). False on bad parameters or allocation failure.
 */
bool of_compute(const struct of_params *prm, const struct of_pyramid *input,
                const struct of_pyramid *reference, float *flow, uint16_t *cost);

/* R16G16_SFLOAT storage: IEEE half, round to nearest even. */
uint16_t of_half_from_float(float f);
float of_half_to_float(uint16_t h);

#endif
