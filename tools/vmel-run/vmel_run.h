/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What vmel-run's parts share: the device the run uses, the options that
 * apply to every graph (dispatch count, profiling), the timing and profile
 * printers, and the built-in example networks (examples.c) with their
 * embedded SPIR-V text (generated from tools/vmel-run/examples/ at build time).
 */
#ifndef VMEL_RUN_H
#define VMEL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph_run.h"

struct vmel_run_ctx {
   struct graph_device gd;
   uint32_t dispatches; /* per graph; >= 1 */
   bool profile;        /* --profile: print the layer's per-operator profile */
   const char *profile_json; /* --profile-json: where to write the profile property */
};

/** Fills run's dispatch count and profiling hook from the context. */
void vmel_run_prepare(const struct vmel_run_ctx *ctx, struct graph_run *run);

/** Prints the creation, set-up and dispatch times of a finished run, indented. */
void vmel_run_print_timing(const struct graph_run *run, const char *indent);

/**
 * Runs every built-in example network on ctx's device and checks it against
 * the CPU reference (tests/reference).
 * @return the number of networks that failed
 */
int vmel_run_examples(const struct vmel_run_ctx *ctx);

/* The example modules' text (examples/<name>.spvasm), NUL-terminated. */
extern const char vmel_run_example_int8[];
extern const size_t vmel_run_example_int8_len;
extern const char vmel_run_example_fp32[];
extern const size_t vmel_run_example_fp32_len;
extern const char vmel_run_example_elementwise[];
extern const size_t vmel_run_example_elementwise_len;

#endif /* VMEL_RUN_H */
