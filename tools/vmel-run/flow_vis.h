/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A flow field as a colour picture (vmel-run --optical-flow --png): the hue
 * is the vector's direction, the saturation its length over the field's
 * longest finite vector, the value full. Directions in image coordinates
 * (x right, y down): right is red (hue 0), down chartreuse (90 degrees),
 * left cyan (180), up violet (270). A zero vector is white; a vector that
 * is not finite is black.
 */
#ifndef VMEL_FLOW_VIS_H
#define VMEL_FLOW_VIS_H

#include <stdint.h>

/** The colour of vector (dx, dy) when the field's longest vector is max_len (> 0). */
void flow_vis_color(float dx, float dy, float max_len, uint8_t rgb[3]);

/**
 * Colours a w*h field of (x, y) vectors into w*h*3 bytes of RGB; returns the
 * longest finite vector's length (0: every pixel white).
 */
float flow_vis_image(const float *flow, uint32_t w, uint32_t h, uint8_t *rgb);

#endif /* VMEL_FLOW_VIS_H */
