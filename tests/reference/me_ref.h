/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The CPU reference of the Arm.MotionEngine.100 instructions MIN_SAD,
 * MIN_SAD_COST and RAW_SAD, written from the semantics of decision D47
 * (docs/decisions.md), independent of the graph layer's kernel and checks.
 * Statuses as tosa_ref.h: TOSA_REF_ERROR for a graph D47 makes invalid,
 * TOSA_REF_UNSUPPORTED for element types no instruction has.
 */
#ifndef ME_REF_H
#define ME_REF_H

#include "tosa_ref.h"

enum me_ref_op {
   ME_REF_MIN_SAD = 0,
   ME_REF_MIN_SAD_COST = 1,
   ME_REF_RAW_SAD = 2,
};

/** The attributes, each [y, x] (pad: [top, left]) as the instruction's vectors give them. */
struct me_ref_args {
   uint32_t kernel[2], search[2], stride[2], wstride[2], offset[2], pad[2];
   uint32_t pattern; /* 0 RASTER, 1 SPIRAL; RAW_SAD: ignored (RASTER) */
};

/**
 * Evaluates one instruction. in0 (template) and in1 (search) are I8 [N,C,H,W], pixels read as
 * unsigned. MIN_SAD: out0 the I8 vectors [N,C,OH,2 OW], out1 NULL. MIN_SAD_COST: out0 the
 * vectors, out1 the I16 costs [N,C,OH,OW]. RAW_SAD: out0 the I16 costs [N,C*SH*SW,OH,OW], out1
 * NULL. Costs are stored as unsigned 16-bit patterns.
 */
int me_ref_eval(enum me_ref_op op, const struct me_ref_args *args, const struct ref_tensor *in0,
                const struct ref_tensor *in1, struct ref_tensor *out0, struct ref_tensor *out1);

#endif /* ME_REF_H */
