/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Per-stage GPU profiling of data-graph dispatches (VMEL_GRAPH_PROFILING=1,
 * design.md §6). Each session owns a timestamp query pool of
 * DG_PROFILE_SLOTS slots, a slot being one recorded dispatch: stage_count + 1
 * timestamps (one before the first stage, one after each). Recording a
 * dispatch takes the session's next slot (a ring), resets its queries and
 * writes the timestamps: nothing is allocated. A slot counts once a command
 * buffer holding it was submitted (dg_dispatch.c marks it); when the
 * application waits on a fence, a queue or the device, every submitted slot
 * whose timestamps are all available and new (a first timestamp not seen
 * before: a command buffer may be submitted again) becomes a sample of the
 * pipeline's profile, in the order the dispatches started. A pipeline keeps its last DG_PROFILE_SAMPLES dispatches
 * and totals per operator since creation, returned as JSON by the property
 * VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON (include/vmel_graph.h).
 * Queue families whose timestampValidBits is 0 record nothing.
 */
#include "dg_runtime.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* A recorded dispatch's place in its session's query pool. */
enum dg_slot_state {
   DG_SLOT_FREE,
   DG_SLOT_RECORDED,  /* in a command buffer not submitted yet */
   DG_SLOT_SUBMITTED, /* its command buffer was submitted: results may come */
};

struct dg_profile_slot {
   enum dg_slot_state state;
   uint32_t family;     /* queue family of the command buffer */
   uint64_t last_start; /* first timestamp of the last collected sample */
   bool collected;      /* last_start is valid */
   bool ready;          /* new results, found by the collection under way */
   uint64_t ready_start;
};

struct dg_session_profile {
   VkQueryPool pool;
   uint32_t queries_per_slot; /* stage_count + 1 */
   uint32_t next_slot;
   struct dg_profile_slot slots[DG_PROFILE_SLOTS];
   uint64_t *results; /* scratch: 2 * queries_per_slot (value, availability) */
   struct dg_session *prev, *next; /* dg_device::profiled_sessions */
};

/* One collected dispatch. */
struct dg_profile_sample {
   uint64_t dispatch; /* its number among the pipeline's collected dispatches */
   uint64_t session;  /* the session handle */
   uint64_t *ns;      /* [stage_count] */
};

struct dg_profile {
   pthread_mutex_t lock;
   uint64_t dispatches; /* collected since creation */
   uint32_t sample_count, sample_next;
   struct dg_profile_sample samples[DG_PROFILE_SAMPLES];
   uint64_t *sample_ns; /* [DG_PROFILE_SAMPLES][stage_count] */
   uint32_t op_count;
   const char **op_names; /* [op_count], distinct stage op names */
   uint32_t *stage_op;    /* [stage_count] */
   uint64_t *op_ns;       /* [op_count] */
   uint64_t *op_stages;   /* [op_count]: stage executions */
};

/* ---- pipelines ----------------------------------------------------------- */

VkResult
dg_profile_pipeline_init(struct dg_device *device, struct dg_pipeline *p)
{
   if (!device->profiling)
      return VK_SUCCESS;
   uint32_t n = p->stage_count;
   size_t size = sizeof(struct dg_profile) + (size_t)DG_PROFILE_SAMPLES * n * sizeof(uint64_t) +
                 n * (sizeof(const char *) + sizeof(uint32_t) + 2 * sizeof(uint64_t));
   struct dg_profile *prof = lyr_zalloc(&p->alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!prof)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   char *q = (char *)(prof + 1);
   prof->sample_ns = (uint64_t *)q;
   q += (size_t)DG_PROFILE_SAMPLES * n * sizeof(uint64_t);
   prof->op_ns = (uint64_t *)q;
   q += n * sizeof(uint64_t);
   prof->op_stages = (uint64_t *)q;
   q += n * sizeof(uint64_t);
   prof->op_names = (const char **)q;
   q += n * sizeof(const char *);
   prof->stage_op = (uint32_t *)q;
   for (uint32_t i = 0; i < DG_PROFILE_SAMPLES; i++)
      prof->samples[i].ns = prof->sample_ns + (size_t)i * n;
   for (uint32_t s = 0; s < n; s++) {
      uint32_t o = 0;
      while (o < prof->op_count && strcmp(prof->op_names[o], p->stages[s].op_name) != 0)
         o++;
      if (o == prof->op_count)
         prof->op_names[prof->op_count++] = p->stages[s].op_name;
      prof->stage_op[s] = o;
   }
   pthread_mutex_init(&prof->lock, NULL);
   p->profile = prof;
   return VK_SUCCESS;
}

void
dg_profile_pipeline_finish(struct dg_pipeline *p)
{
   if (!p->profile)
      return;
   pthread_mutex_destroy(&p->profile->lock);
   lyr_free(&p->alloc, p->profile);
   p->profile = NULL;
}

/* ---- sessions ------------------------------------------------------------ */

VkResult
dg_profile_session_init(struct dg_device *device, struct dg_session *s,
                        const VkAllocationCallbacks *alloc)
{
   const struct dg_pipeline *p = s->pipeline;
   if (!device->profiling || !p->profile)
      return VK_SUCCESS;
   uint32_t per_slot = p->stage_count + 1;
   size_t size = sizeof(struct dg_session_profile) + 2 * per_slot * sizeof(uint64_t);
   struct dg_session_profile *sp = lyr_zalloc(alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!sp)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   sp->results = (uint64_t *)(sp + 1);
   sp->queries_per_slot = per_slot;
   VkQueryPoolCreateInfo qci = {
      .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
      .queryType = VK_QUERY_TYPE_TIMESTAMP,
      .queryCount = DG_PROFILE_SLOTS * per_slot,
   };
   VkResult result = device->base.next.CreateQueryPool(device->base.handle, &qci,
                                                      &device->base.alloc, &sp->pool);
   if (result != VK_SUCCESS) {
      lyr_free(alloc, sp);
      return lyr_error(result, "session profiling: the driver's vkCreateQueryPool failed");
   }
   s->profile = sp;
   pthread_mutex_lock(&device->profile_lock);
   sp->next = device->profiled_sessions;
   if (sp->next)
      sp->next->profile->prev = s;
   device->profiled_sessions = s;
   pthread_mutex_unlock(&device->profile_lock);
   return VK_SUCCESS;
}

void
dg_profile_session_finish(struct dg_device *device, struct dg_session *s,
                          const VkAllocationCallbacks *alloc)
{
   struct dg_session_profile *sp = s->profile;
   if (!sp)
      return;
   pthread_mutex_lock(&device->profile_lock);
   if (sp->prev)
      sp->prev->profile->next = sp->next;
   else
      device->profiled_sessions = sp->next;
   if (sp->next)
      sp->next->profile->prev = sp->prev;
   pthread_mutex_unlock(&device->profile_lock);
   device->base.next.DestroyQueryPool(device->base.handle, sp->pool, &device->base.alloc);
   lyr_free(alloc, sp);
   s->profile = NULL;
}

/* ---- recording ----------------------------------------------------------- */

uint32_t
dg_profile_begin(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                 uint32_t family)
{
   struct dg_session_profile *sp = s->profile;
   if (!sp || family >= 32 || device->timestamp_bits[family] == 0)
      return UINT32_MAX;
   pthread_mutex_lock(&device->profile_lock);
   uint32_t slot = sp->next_slot;
   sp->next_slot = (slot + 1) % DG_PROFILE_SLOTS;
   sp->slots[slot] = (struct dg_profile_slot){.state = DG_SLOT_RECORDED, .family = family};
   pthread_mutex_unlock(&device->profile_lock);
   const struct lyr_device_next *next = &device->base.next;
   uint32_t first = slot * sp->queries_per_slot;
   next->CmdResetQueryPool(cmd, sp->pool, first, sp->queries_per_slot);
   next->CmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, sp->pool, first);
   return slot;
}

void
dg_profile_stage_end(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                     uint32_t slot, uint32_t stage)
{
   struct dg_session_profile *sp = s->profile;
   device->base.next.CmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, sp->pool,
                                        slot * sp->queries_per_slot + stage + 1);
}

void
dg_profile_submitted(struct dg_device *device, struct dg_session *s, uint32_t slot)
{
   if (!s->profile || slot >= DG_PROFILE_SLOTS)
      return;
   pthread_mutex_lock(&device->profile_lock);
   if (s->profile->slots[slot].state != DG_SLOT_FREE)
      s->profile->slots[slot].state = DG_SLOT_SUBMITTED;
   pthread_mutex_unlock(&device->profile_lock);
}

/* ---- collection ----------------------------------------------------------- */

static void
add_sample(struct dg_device *device, struct dg_session *s, struct dg_profile_slot *slot,
           const uint64_t *results)
{
   struct dg_pipeline *p = s->pipeline;
   struct dg_profile *prof = p->profile;
   uint32_t bits = device->timestamp_bits[slot->family];
   uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
   pthread_mutex_lock(&prof->lock);
   struct dg_profile_sample *sample = &prof->samples[prof->sample_next];
   sample->dispatch = prof->dispatches++;
   sample->session = (uint64_t)(uintptr_t)s;
   for (uint32_t i = 0; i < p->stage_count; i++) {
      uint64_t ticks = (results[2 * (i + 1)] - results[2 * i]) & mask;
      uint64_t ns = (uint64_t)((double)ticks * device->timestamp_period + 0.5);
      sample->ns[i] = ns;
      prof->op_ns[prof->stage_op[i]] += ns;
      prof->op_stages[prof->stage_op[i]]++;
   }
   prof->sample_next = (prof->sample_next + 1) % DG_PROFILE_SAMPLES;
   if (prof->sample_count < DG_PROFILE_SAMPLES)
      prof->sample_count++;
   pthread_mutex_unlock(&prof->lock);
}

/* Reads a slot's timestamps into its session's scratch; true when all are
 * available. */
static bool
read_slot(struct dg_device *device, struct dg_session *s, uint32_t i)
{
   struct dg_session_profile *sp = s->profile;
   uint32_t n = sp->queries_per_slot;
   VkResult result = device->base.next.GetQueryPoolResults(
      device->base.handle, sp->pool, i * n, n, 2 * n * sizeof(uint64_t), sp->results,
      2 * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
   if (result != VK_SUCCESS && result != VK_NOT_READY)
      return false;
   for (uint32_t q = 0; q < n; q++) {
      if (!sp->results[2 * q + 1])
         return false;
   }
   return true;
}

void
dg_profile_collect(struct dg_device *device)
{
   if (!device->profiling)
      return;
   pthread_mutex_lock(&device->profile_lock);
   /* The submitted slots with new results... */
   for (struct dg_session *s = device->profiled_sessions; s; s = s->profile->next) {
      for (uint32_t i = 0; i < DG_PROFILE_SLOTS; i++) {
         struct dg_profile_slot *slot = &s->profile->slots[i];
         slot->ready = slot->state == DG_SLOT_SUBMITTED && read_slot(device, s, i) &&
                       !(slot->collected && slot->last_start == s->profile->results[0]);
         slot->ready_start = s->profile->results[0];
      }
   }
   /* ...become samples in the order they ran. */
   for (;;) {
      struct dg_session *first = NULL;
      uint32_t first_slot = 0;
      for (struct dg_session *s = device->profiled_sessions; s; s = s->profile->next) {
         for (uint32_t i = 0; i < DG_PROFILE_SLOTS; i++) {
            const struct dg_profile_slot *slot = &s->profile->slots[i];
            if (slot->ready &&
                (!first || slot->ready_start < first->profile->slots[first_slot].ready_start)) {
               first = s;
               first_slot = i;
            }
         }
      }
      if (!first)
         break;
      struct dg_profile_slot *slot = &first->profile->slots[first_slot];
      slot->ready = false;
      if (!read_slot(device, first, first_slot))
         continue;
      slot->collected = true;
      slot->last_start = first->profile->results[0];
      add_sample(device, first, slot, first->profile->results);
   }
   pthread_mutex_unlock(&device->profile_lock);
}

/* ---- the JSON property ------------------------------------------------------ */

struct json_out {
   char *buf;
   size_t size; /* of buf */
   size_t len;  /* written, or that would have been */
};

static void json_add(struct json_out *o, const char *fmt, ...)
   __attribute__((format(printf, 2, 3)));

static void
json_add(struct json_out *o, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *at = o->buf && o->len < o->size ? o->buf + o->len : NULL;
   size_t room = at ? o->size - o->len : 0;
   int n = vsnprintf(at, room, fmt, ap);
   va_end(ap);
   if (n > 0)
      o->len += (size_t)n;
}

/* Op and kernel names are identifiers ("CONV2D", "output copy", "tosa_add_fp32"):
 * nothing in them needs escaping. */
static void
write_json(const struct dg_device *device, struct dg_pipeline *p, struct json_out *o)
{
   struct dg_profile *prof = p->profile;
   json_add(o, "{\n  \"timestamp_period_ns\": %.6g,\n  \"dispatches\": %" PRIu64 ",\n",
            device->timestamp_period, prof->dispatches);
   json_add(o, "  \"samples\": [");
   uint32_t first = (prof->sample_next + DG_PROFILE_SAMPLES - prof->sample_count) %
                    DG_PROFILE_SAMPLES;
   for (uint32_t k = 0; k < prof->sample_count; k++) {
      const struct dg_profile_sample *sample = &prof->samples[(first + k) % DG_PROFILE_SAMPLES];
      uint64_t total = 0;
      for (uint32_t i = 0; i < p->stage_count; i++)
         total += sample->ns[i];
      json_add(o, "%s\n    {\"dispatch\": %" PRIu64 ", \"session\": \"0x%" PRIx64 "\", "
               "\"ns\": %" PRIu64 ", \"stages\": [",
               k ? "," : "", sample->dispatch, sample->session, total);
      for (uint32_t i = 0; i < p->stage_count; i++) {
         const struct dg_stage *st = &p->stages[i];
         json_add(o, "%s\n      {\"stage\": %u, \"op\": \"%s\", \"result_id\": %u, "
                  "\"kernel\": \"%s\", \"ns\": %" PRIu64 "}",
                  i ? "," : "", i, st->op_name, st->result_id, st->kernel, sample->ns[i]);
      }
      json_add(o, "]}");
   }
   json_add(o, "\n  ],\n  \"by_operator\": {");
   for (uint32_t i = 0; i < prof->op_count; i++)
      json_add(o, "%s\n    \"%s\": {\"stages\": %" PRIu64 ", \"ns\": %" PRIu64 "}", i ? "," : "",
               prof->op_names[i], prof->op_stages[i], prof->op_ns[i]);
   json_add(o, "\n  }\n}\n");
}

char *
dg_profile_json(struct dg_device *device, struct dg_pipeline *p, size_t *size)
{
   if (!p->profile)
      return NULL;
   pthread_mutex_lock(&p->profile->lock);
   struct json_out o = {0};
   write_json(device, p, &o);
   o.size = o.len + 1;
   o.buf = lyr_alloc(&p->alloc, o.size, 1, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (o.buf) {
      o.len = 0;
      write_json(device, p, &o);
      *size = o.len + 1;
   }
   pthread_mutex_unlock(&p->profile->lock);
   return o.buf;
}
