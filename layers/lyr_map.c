/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The pointer-keyed hash map that ties dispatch keys and handles to layer
 * state (instance, device, command-buffer maps...). Open addressing with
 * linear probing and backward-shift deletion.
 *
 * Concurrency (docs/decisions.md D42): every hooked vkCmd* looks a map up,
 * from any number of threads, so lookups take no lock. Writers (insert,
 * remove) serialise on the map's mutex and bracket each change with the
 * sequence count (odd while they change slots); a lookup reads the sequence,
 * probes with atomic loads and reads the sequence again: unchanged and even,
 * its answer is one the map held. Otherwise it tries again, and after a few
 * tries takes the mutex (a writer preempted in the middle cannot make readers
 * spin). Slots move within a table (backward shift) but a table is never
 * freed while the map lives: growing publishes a new table and keeps the old
 * one on the retired list, so a lookup that loaded the old table pointer
 * reads memory that is still there (the sequence check then sends it to the
 * new one). Retired tables halve in size down the list: together they are
 * smaller than the current one.
 *
 * Every access to the sequence and the slots is a sequentially consistent
 * atomic: a lookup that read a slot a writer stored sees the odd sequence
 * that writer stored before it, with no fence (plain loads on x86, and no
 * fence ThreadSanitizer cannot follow); the state a value points to, written
 * before its insertion, is visible to whoever finds it.
 * It allocates with libc: maps live as long as the layer library or the
 * device that holds them.
 */
#include "lyr.h"

#include <stdatomic.h>
#include <stdlib.h>

struct lyr_map_slot {
   _Atomic(const void *) key; /* NULL = empty */
   _Atomic(void *) value;
};

struct lyr_map_table {
   uint32_t capacity; /* power of two */
   struct lyr_map_table *retired_next;
   struct lyr_map_slot slots[];
};

/* Lock-free attempts before a lookup takes the mutex. */
#define LYR_MAP_READ_TRIES 4

static uint32_t
hash_ptr(const void *p)
{
   uint64_t x = (uint64_t)(uintptr_t)p;
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdull;
   x ^= x >> 33;
   return (uint32_t)x;
}

static inline const void *
key_at(const struct lyr_map_table *t, uint32_t i)
{
   return atomic_load(&((struct lyr_map_table *)t)->slots[i].key);
}

static inline void *
value_at(const struct lyr_map_table *t, uint32_t i)
{
   return atomic_load(&((struct lyr_map_table *)t)->slots[i].value);
}

/* Value first: a reader that sees the key sees the value stored before it. */
static inline void
slot_store(struct lyr_map_table *t, uint32_t i, const void *key, void *value)
{
   atomic_store(&t->slots[i].value, value);
   atomic_store(&t->slots[i].key, key);
}

void
lyr_map_init(struct lyr_map *map)
{
   pthread_mutex_init(&map->lock, NULL);
   atomic_init(&map->table, NULL);
   atomic_init(&map->seq, 0);
   map->count = 0;
   map->retired = NULL;
}

void
lyr_map_finish(struct lyr_map *map)
{
   free(atomic_load_explicit(&map->table, memory_order_relaxed));
   for (struct lyr_map_table *t = map->retired, *next; t; t = next) {
      next = t->retired_next;
      free(t);
   }
   atomic_store_explicit(&map->table, NULL, memory_order_relaxed);
   map->retired = NULL;
   map->count = 0;
   pthread_mutex_destroy(&map->lock);
}

/* The slot of key, or the empty slot that ends its probe sequence; UINT32_MAX
 * when a whole table was probed without either (only a lookup racing writers
 * can see that: its answer is then discarded). */
static uint32_t
find_slot(const struct lyr_map_table *t, const void *key)
{
   uint32_t mask = t->capacity - 1;
   uint32_t i = hash_ptr(key) & mask;
   for (uint32_t n = 0; n < t->capacity; n++, i = (i + 1) & mask) {
      const void *k = key_at(t, i);
      if (k == key || k == NULL)
         return i;
   }
   return UINT32_MAX;
}

/* Writers: the sequence count is odd from write_begin to write_end. */
static void
write_begin(struct lyr_map *map)
{
   atomic_store(&map->seq, atomic_load_explicit(&map->seq, memory_order_relaxed) + 1);
}

static void
write_end(struct lyr_map *map)
{
   atomic_store(&map->seq, atomic_load_explicit(&map->seq, memory_order_relaxed) + 1);
}

/* A table twice the size (16 at first) with every entry, published; the old
 * one is retired. Readers still in the old table find what they look for
 * there: it is not changed any more. */
static bool
grow_locked(struct lyr_map *map)
{
   struct lyr_map_table *old = atomic_load_explicit(&map->table, memory_order_relaxed);
   uint32_t capacity = old ? old->capacity * 2 : 16;
   struct lyr_map_table *t =
      calloc(1, sizeof(*t) + (size_t)capacity * sizeof(struct lyr_map_slot));
   if (!t)
      return false;
   t->capacity = capacity;
   for (uint32_t i = 0; old && i < old->capacity; i++) {
      const void *key = key_at(old, i);
      if (key)
         slot_store(t, find_slot(t, key), key, value_at(old, i));
   }
   atomic_store(&map->table, t);
   if (old) {
      old->retired_next = map->retired;
      map->retired = old;
   }
   return true;
}

bool
lyr_map_insert(struct lyr_map *map, const void *key, void *value)
{
   bool ok = true;
   pthread_mutex_lock(&map->lock);
   struct lyr_map_table *t = atomic_load_explicit(&map->table, memory_order_relaxed);
   if (!t || (map->count + 1) * 4 > t->capacity * 3) {
      ok = grow_locked(map);
      t = atomic_load_explicit(&map->table, memory_order_relaxed);
   }
   if (ok) {
      uint32_t i = find_slot(t, key);
      write_begin(map);
      if (!key_at(t, i))
         map->count++;
      slot_store(t, i, key, value);
      write_end(map);
   }
   pthread_mutex_unlock(&map->lock);
   return ok;
}

static void *
lookup_in(const struct lyr_map_table *t, const void *key)
{
   if (!t)
      return NULL;
   uint32_t i = find_slot(t, key);
   return i != UINT32_MAX && key_at(t, i) == key ? value_at(t, i) : NULL;
}

void *
lyr_map_lookup(struct lyr_map *map, const void *key)
{
   for (int attempt = 0; attempt < LYR_MAP_READ_TRIES; attempt++) {
      uint32_t s = atomic_load(&map->seq);
      if (s & 1)
         continue;
      void *value = lookup_in(atomic_load(&map->table), key);
      if (atomic_load(&map->seq) == s)
         return value;
   }
   /* Writers keep changing the map: wait for them. */
   pthread_mutex_lock(&map->lock);
   void *value = lookup_in(atomic_load_explicit(&map->table, memory_order_relaxed), key);
   pthread_mutex_unlock(&map->lock);
   return value;
}

void *
lyr_map_remove(struct lyr_map *map, const void *key)
{
   void *value = NULL;
   pthread_mutex_lock(&map->lock);
   struct lyr_map_table *t = atomic_load_explicit(&map->table, memory_order_relaxed);
   uint32_t s = t ? find_slot(t, key) : UINT32_MAX;
   if (s != UINT32_MAX && key_at(t, s)) {
      uint32_t mask = t->capacity - 1;
      value = value_at(t, s);
      map->count--;
      write_begin(map);
      /* Backward-shift deletion keeps probe sequences unbroken. */
      uint32_t hole = s;
      for (uint32_t i = (hole + 1) & mask; key_at(t, i); i = (i + 1) & mask) {
         const void *k = key_at(t, i);
         uint32_t home = hash_ptr(k) & mask;
         /* Move the entry at i into the hole if its home is not in (hole, i]. */
         bool in_range = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
         if (!in_range) {
            slot_store(t, hole, k, value_at(t, i));
            hole = i;
         }
      }
      atomic_store(&t->slots[hole].key, NULL);
      atomic_store(&t->slots[hole].value, NULL);
      write_end(map);
   }
   pthread_mutex_unlock(&map->lock);
   return value;
}

void
lyr_map_foreach(struct lyr_map *map, void (*fn)(const void *key, void *value, void *user),
                void *user)
{
   pthread_mutex_lock(&map->lock);
   struct lyr_map_table *t = atomic_load_explicit(&map->table, memory_order_relaxed);
   for (uint32_t i = 0; t && i < t->capacity; i++) {
      const void *key = key_at(t, i);
      if (key)
         fn(key, value_at(t, i), user);
   }
   pthread_mutex_unlock(&map->lock);
}
