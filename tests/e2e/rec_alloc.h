/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A device allocator for the recording tests (test_record_errors,
 * test_warm_alloc) and the failure table (test_create_oom) that tells the
 * layers' allocations from the driver's and can fail them. Whose an allocation
 * is: the shared object that called the callback (dladdr of the return
 * address), libVkLayer_Graph.so or libVkLayer_Tensor.so for ours; the layers
 * allocate through the callbacks inline (layers/lyr_alloc.h), so the caller is
 * always in the layer's code. While armed, it counts allocations by owner and
 * fails the ones the test asks for, noting the phase (the command being
 * recorded) and the layer of each.
 */
#ifndef VMEL_REC_ALLOC_H
#define VMEL_REC_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <vulkan/vulkan.h>

enum rec_owner { REC_GRAPH, REC_TENSOR, REC_OTHER, REC_OWNERS };

#define REC_MAX_FAILED 64

struct rec_alloc {
   bool armed;
   long fail_at;    /* index among the layers' allocations while armed; -1: none */
   bool fail_after; /* fail fail_at and every later one of the layers' */
   long ours;       /* the layers' allocations while armed */
   long counts[REC_OWNERS];
   int phase;       /* set by the test before each command */
   int fail_phase;  /* while armed and phase is this, fail the next fail_phase_left
                     * allocations of anyone's, the driver's included; -1: none */
   long fail_phase_left;
   unsigned failed; /* allocations failed */
   struct {
      int phase;
      enum rec_owner owner;
   } failures[REC_MAX_FAILED];
   long live[REC_OWNERS]; /* blocks allocated and not freed, armed or not (atomic) */
};

VkAllocationCallbacks rec_alloc_callbacks(struct rec_alloc *a);

/** Starts counting (and failing from index fail_at, -1 for none). */
void rec_alloc_arm(struct rec_alloc *a, long fail_at, bool fail_after);
void rec_alloc_disarm(struct rec_alloc *a);
/** Starts counting and fails the first `count` allocations (anyone's) made in `phase`. */
void rec_alloc_arm_phase(struct rec_alloc *a, int phase, long count);

#endif /* VMEL_REC_ALLOC_H */
