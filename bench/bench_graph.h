/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's graphs (bench_graph_nets.c: SPIR-V text, data, CPU reference,
 * output checks) and what bench_graph.c (Vulkan, timing, reporting) records
 * about each.
 */
#ifndef BENCH_GRAPH_H
#define BENCH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "graph_run.h"
#include "tosa_ref.h"

#define BENCH_MAX_SAMPLES 1000
#define BENCH_MAX_CONSTANTS 12
#define BENCH_MAX_OWNED 48
#define BENCH_GRAPH_COUNT 3

struct bench_samples {
   double v[BENCH_MAX_SAMPLES];
   int n;
};

/* A growing string (the SPIR-V text). */
struct bench_text {
   char *s;
   size_t len, cap;
   bool failed;
};

enum bench_check {
   BENCH_CHECK_EXACT,    /* bit-exact */
   BENCH_CHECK_RELATIVE, /* |out - want| <= BENCH_CONV_FP32_RTOL * bound */
   BENCH_CHECK_DOT,      /* tosa_ref_check_dot_product() */
};

/* The tolerance of conv_fp32, relative to the last CONV2D's dot-product bound. */
#define BENCH_CONV_FP32_RTOL 1e-5

struct bench_graph {
   const char *name;
   const char *what;
   struct bench_text text;
   struct ref_tensor *owned[BENCH_MAX_OWNED]; /* destroyed by bench_graph_finish() */
   uint32_t owned_count;
   struct ref_tensor *input;  /* set 0, binding 0 */
   struct ref_tensor *output; /* set 0, binding 1: what the device wrote */
   struct ref_tensor *want;   /* the reference: the output's dtype, or FP64 */
   struct ref_tensor *bound;  /* FP64 dot-product bound (RELATIVE, DOT) */
   struct graph_constant constants[BENCH_MAX_CONSTANTS];
   uint32_t constant_count;
   enum bench_check check;
   struct tosa_ref_dot_check dot; /* BENCH_CHECK_DOT */
   double macs;                   /* multiply-accumulates per dispatch */
   bool failed;
   char why[256]; /* the first failure */

   /* filled by bench_graph.c */
   double reference_ms; /* set-up: data and CPU reference */
   struct bench_samples create, session, dispatch;
   bool checked;
   char check_text[256];
};

struct bench_graph_def {
   const char *name;
   /** Fills g: text, tensors, constants and the reference; g->failed says whether it worked. */
   void (*setup)(struct bench_graph *g);
};

/** The graphs, in the order they run. */
extern const struct bench_graph_def bench_graph_defs[BENCH_GRAPH_COUNT];

/** Records the first failure of g. */
void bench_graph_fail(struct bench_graph *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Checks g->output against the reference; says how in g->check_text. */
bool bench_graph_check(struct bench_graph *g);

/** Frees what setup allocated. */
void bench_graph_finish(struct bench_graph *g);

/** The tensor format of an I8, I32 or FP32 reference dtype. */
VkFormat bench_ref_format(enum ref_dtype dtype);

#endif /* BENCH_GRAPH_H */
