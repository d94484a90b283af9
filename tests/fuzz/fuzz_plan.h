/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Stage plans in the fuzz targets (fuzz_graph.c plans decoded graphs, fuzz_cache.c
 * reads plans from cache payloads): using a plan the way the graph layer does, and
 * the payload round trip a plan must survive.
 */
#ifndef VMEL_FUZZ_PLAN_H
#define VMEL_FUZZ_PLAN_H

#include "dg_cache.h"
#include "dg_stage_plan.h"

/** The device the cache data of the fuzz targets and their seeds belong to. */
extern const struct dg_cache_device_id fuzz_cache_device;

/** Reads every part of a plan the layer reads when it instantiates one (specialization,
 *  roots, dependencies, internal sets, memory intervals, constants' bytes and their
 *  packing), so an index no check caught shows up under AddressSanitizer. */
uint64_t fuzz_plan_use(const struct dg_stage_plan *p, const struct dg_cache_stage_meta *st);

/** Writes a plan as a cache payload, reads it back (it must be accepted) and writes that
 *  again (the same bytes). */
void fuzz_plan_round_trip(const struct dg_stage_plan *p, const struct dg_cache_meta *meta,
                          const struct dg_cache_stage_meta *st);

#endif /* VMEL_FUZZ_PLAN_H */
