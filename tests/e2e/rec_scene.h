/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The recording the recording tests (test_record_errors, test_warm_alloc) and
 * the failure table's recording row (test_create_oom) make, command by command,
 * each under its phase (rec_alloc.h notes the phase of a failed allocation):
 * the application's compute state (push constants, a descriptor set at the
 * compute bind point), a data-graph dispatch of DGU_CLAMP_ADD_SUB_TEXT (in ->
 * out), tensor barriers (a VkTensorDependencyInfoARM with `barriers` barriers
 * on one tensor: many barriers take the layers' heap paths), tensor copies
 * ordered by tensor barriers and by an event (out -> mid -> copy), and a final
 * barrier to the host.
 */
#ifndef VMEL_REC_SCENE_H
#define VMEL_REC_SCENE_H

#include "dgutil.h"
#include "rec_alloc.h"

#define REC_N 64

enum rec_phase {
   PH_NONE,
   PH_PUSH,           /* vkCmdPushConstants, compute */
   PH_BIND_COMPUTE,   /* vkCmdBindDescriptorSets, compute bind point */
   PH_BARRIER_HOST,   /* vkCmdPipelineBarrier2, host -> data graph (memory barrier) */
   PH_BIND_GRAPH,     /* vkCmdBindPipeline, data-graph bind point */
   PH_BIND_SETS,      /* vkCmdBindDescriptorSets, data-graph bind point */
   PH_DISPATCH,       /* vkCmdDispatchDataGraphARM */
   PH_BARRIER_TENSOR, /* vkCmdPipelineBarrier2 with tensor barriers, data graph -> transfer */
   PH_COPY1,          /* vkCmdCopyTensorARM out -> mid */
   PH_SET_EVENT,      /* vkCmdSetEvent2 with tensor barriers, transfer -> transfer */
   PH_WAIT_EVENT,     /* vkCmdWaitEvents2, the same dependency */
   PH_COPY2,          /* vkCmdCopyTensorARM mid -> copy */
   PH_BARRIER_V1,     /* vkCmdPipelineBarrier (version 1), transfer -> host */
   PH_COUNT,
};

extern const char *const rec_phase_names[PH_COUNT];

struct rec_scene {
   struct dgu_graph g;
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out, mid, copy;
   VkPipelineLayout app_layout; /* the graph's set 0 and a push-constant range */
   VkEvent event;
   uint32_t barriers;           /* tensor barriers per dependency */
};

/** Graph, session, sets, tensors (with transfer usage), layout and event. */
bool rec_scene_init(struct dgu *u, struct rec_scene *s, uint32_t barriers);
void rec_scene_finish(struct dgu *u, struct rec_scene *s);

/** Fills the input (seed varies it) and clears the outputs. */
void rec_scene_fill(struct rec_scene *s, float seed);
/** Records everything into cmd (begun), phase by phase (a->phase). */
void rec_scene_record(struct dgu *u, struct rec_scene *s, VkCommandBuffer cmd, struct rec_alloc *a);
/** True when out, mid and copy hold the result for the input (counted). */
bool rec_scene_check(const char *what, struct rec_scene *s);
/** Submits cmd (already ended) and waits; false on failure (counted). */
bool rec_scene_submit(struct dgu *u, VkCommandBuffer cmd);

#endif /* VMEL_REC_SCENE_H */
