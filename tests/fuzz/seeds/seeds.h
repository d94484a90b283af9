/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The seed dumpers of the fuzz corpora (seed_dump.c, seed_optest.c).
 */
#ifndef VMEL_FUZZ_SEEDS_H
#define VMEL_FUZZ_SEEDS_H

#include <stddef.h>

/** Writes data to $VMEL_FUZZ_SEEDS/<target>/<hash> once per distinct input (nothing when
 *  the variable is not set). */
void seed_dump(const char *target, const void *data, size_t size);

#endif /* VMEL_FUZZ_SEEDS_H */
