/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The pointer-keyed hash map that ties dispatch keys to layer state
 * (instance and device maps). Open addressing with linear probing and
 * backward-shift deletion; every operation takes the map's mutex.
 * It allocates with libc: maps live as long as the layer library.
 */
#include "lyr.h"

#include <stdlib.h>

struct lyr_map_slot {
   const void *key; /* NULL = empty */
   void *value;
};

static uint32_t
hash_ptr(const void *p)
{
   uint64_t x = (uint64_t)(uintptr_t)p;
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdull;
   x ^= x >> 33;
   return (uint32_t)x;
}

void
lyr_map_init(struct lyr_map *map)
{
   pthread_mutex_init(&map->lock, NULL);
   map->slots = NULL;
   map->capacity = 0;
   map->count = 0;
}

void
lyr_map_finish(struct lyr_map *map)
{
   free(map->slots);
   map->slots = NULL;
   map->capacity = map->count = 0;
   pthread_mutex_destroy(&map->lock);
}

static struct lyr_map_slot *
find_slot_locked(const struct lyr_map *map, const void *key)
{
   uint32_t mask = map->capacity - 1;
   for (uint32_t i = hash_ptr(key) & mask;; i = (i + 1) & mask) {
      struct lyr_map_slot *s = &map->slots[i];
      if (s->key == key || s->key == NULL)
         return s;
   }
}

static bool
grow_locked(struct lyr_map *map)
{
   uint32_t capacity = map->capacity ? map->capacity * 2 : 16;
   struct lyr_map_slot *slots = calloc(capacity, sizeof(*slots));
   if (!slots)
      return false;
   struct lyr_map old = *map;
   map->slots = slots;
   map->capacity = capacity;
   for (uint32_t i = 0; i < old.capacity; i++) {
      if (old.slots[i].key)
         *find_slot_locked(map, old.slots[i].key) = old.slots[i];
   }
   free(old.slots);
   return true;
}

bool
lyr_map_insert(struct lyr_map *map, const void *key, void *value)
{
   bool ok = true;
   pthread_mutex_lock(&map->lock);
   if ((map->count + 1) * 4 > map->capacity * 3)
      ok = grow_locked(map);
   if (ok) {
      struct lyr_map_slot *s = find_slot_locked(map, key);
      if (!s->key)
         map->count++;
      s->key = key;
      s->value = value;
   }
   pthread_mutex_unlock(&map->lock);
   return ok;
}

void *
lyr_map_lookup(struct lyr_map *map, const void *key)
{
   void *value = NULL;
   pthread_mutex_lock(&map->lock);
   if (map->capacity)
      value = find_slot_locked(map, key)->value;
   pthread_mutex_unlock(&map->lock);
   return value;
}

void *
lyr_map_remove(struct lyr_map *map, const void *key)
{
   void *value = NULL;
   pthread_mutex_lock(&map->lock);
   if (map->capacity) {
      uint32_t mask = map->capacity - 1;
      struct lyr_map_slot *s = find_slot_locked(map, key);
      if (s->key) {
         value = s->value;
         map->count--;
         /* Backward-shift deletion keeps probe sequences unbroken. */
         uint32_t hole = (uint32_t)(s - map->slots);
         for (uint32_t i = (hole + 1) & mask; map->slots[i].key; i = (i + 1) & mask) {
            uint32_t home = hash_ptr(map->slots[i].key) & mask;
            /* Move the entry at i into the hole if its home is not in (hole, i]. */
            bool in_range = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!in_range) {
               map->slots[hole] = map->slots[i];
               hole = i;
            }
         }
         map->slots[hole].key = NULL;
         map->slots[hole].value = NULL;
      }
   }
   pthread_mutex_unlock(&map->lock);
   return value;
}

void
lyr_map_foreach(struct lyr_map *map, void (*fn)(const void *key, void *value, void *user),
                void *user)
{
   pthread_mutex_lock(&map->lock);
   for (uint32_t i = 0; i < map->capacity; i++) {
      if (map->slots[i].key)
         fn(map->slots[i].key, map->slots[i].value, user);
   }
   pthread_mutex_unlock(&map->lock);
}
