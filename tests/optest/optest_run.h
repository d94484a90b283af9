/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Running parsed .optest tests through the layers (optest_run.c): a device with both layers and
 * VK_LAYER_KHRONOS_validation below them (tests/e2e/dgutil), each test's tensors at the strides
 * it gives, its pipeline, a session and one dispatch, and the verdict against the CPU
 * reference (ref_graph.h) or the file's literal values.
 */
#ifndef VMEL_OPTEST_RUN_H
#define VMEL_OPTEST_RUN_H

#include <stdbool.h>

#include "dgutil.h"
#include "optest.h"

#define OPT_MAX_TOSA_NAMES 32

/* Attached to one vmel-optest run. */
struct opt_runner {
   struct dgu u;
   char tosa_names[OPT_MAX_TOSA_NAMES][VK_MAX_EXTENSION_NAME_SIZE]; /* profiles, extensions */
   uint32_t tosa_name_count;
   bool features[16]; /* by index of opt_device_features[] */
   bool verbose;      /* print the module of a failing test, the margins of passing ones */
   unsigned passed, failed, skipped;
};

/** Device and queries; exits 77 without a Vulkan device (dgu_init). */
bool opt_runner_init(struct opt_runner *r, bool verbose);

void opt_runner_finish(struct opt_runner *r);

/** Runs one test, prints its line and counts it. */
void opt_run_test(struct opt_runner *r, const struct opt_file *file, const struct opt_test *t);

#endif /* VMEL_OPTEST_RUN_H */
