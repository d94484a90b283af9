/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Running one conformance case through the layers (run.c): its module written and assembled,
 * its inputs, graph constants and output bound through tools/graphrun on the Vulkan device
 * (both layers, VK_LAYER_KHRONOS_validation below them), and the verdict: the result against
 * the reference within the case's tolerance, or the rejection an invalid graph must get.
 */
#ifndef VMEL_CONFORMANCE_RUN_H
#define VMEL_CONFORMANCE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "conformance.h"
#include "graph_run.h"
#include "vkutil.h"

/* Attached to one vmel-conformance run. */
struct conf_runner {
   struct vku vk;
   struct graph_device device;       /* the default device */
   struct graph_device split_device; /* VMEL_GRAPH_MAX_GROUPS=CONF_SPLIT_MAX_GROUPS */
   bool split_tried, split_ready;
   uint64_t seed;
   bool verbose; /* print the module of every failing case */
};

enum conf_status {
   CONF_PASS,
   CONF_FAIL,
   CONF_SKIP,
};

struct conf_result {
   enum conf_status status;
   char detail[1024]; /* one line: the tolerance met, the rejection, or why it failed */
   char *report;      /* more lines for a failure (mismatching elements, layer log); malloc() */
   double ms;
};

/** Creates the instance (graph and tensor layers above validation) and the default device.
 *  Returns false with a message on stderr when no device with the layers is available. */
bool conf_runner_init(struct conf_runner *r, uint64_t seed, bool verbose);

void conf_runner_finish(struct conf_runner *r);

/** Runs one case; res->report must be freed by the caller. */
void conf_run_case(struct conf_runner *r, const struct conf_case *c, struct conf_result *res);

const char *conf_status_name(enum conf_status status);

#endif /* VMEL_CONFORMANCE_RUN_H */
