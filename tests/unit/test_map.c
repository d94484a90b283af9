/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The dispatch-key map: insert, lookup, replace, remove with probe chains
 * kept intact, growth, iteration, and concurrent use from several threads.
 */
#include <pthread.h>

#include "lyr.h"
#include "test.h"

TEST_MAIN_STATE;

static struct lyr_map shared_map;

static void *
worker(void *arg)
{
   uintptr_t base = (uintptr_t)arg * 100000;
   for (uintptr_t i = 1; i <= 2000; i++)
      lyr_map_insert(&shared_map, (void *)((base + i) * 16), (void *)(base + i));
   for (uintptr_t i = 1; i <= 2000; i += 2)
      lyr_map_remove(&shared_map, (void *)((base + i) * 16));
   return NULL;
}

static void
sum_entry(const void *key, void *value, void *user)
{
   uintptr_t *sum = user;
   sum[0] += (uintptr_t)key;
   sum[1] += (uintptr_t)value;
}

int
main(void)
{
   struct lyr_map map;
   lyr_map_init(&map);
   ok(lyr_map_lookup(&map, (void *)0x10) == NULL, "empty map");
   ok(lyr_map_remove(&map, (void *)0x10) == NULL, "remove from empty map");

   /* Keys that look like dispatch tables: 16-byte aligned, clustered. */
   enum { N = 5000 };
   for (uintptr_t i = 1; i <= N; i++)
      ok(lyr_map_insert(&map, (void *)(i * 16), (void *)(i + 7)), "insert %zu", (size_t)i);
   check_eq_u64(map.count, N);
   unsigned wrong = 0;
   for (uintptr_t i = 1; i <= N; i++)
      wrong += lyr_map_lookup(&map, (void *)(i * 16)) != (void *)(i + 7);
   check_eq_u64(wrong, 0);

   ok(lyr_map_insert(&map, (void *)16, (void *)99), "replace");
   ok(lyr_map_lookup(&map, (void *)16) == (void *)99, "replaced value");
   check_eq_u64(map.count, N);

   /* Remove every third key; the rest must stay reachable. */
   for (uintptr_t i = 3; i <= N; i += 3)
      ok(lyr_map_remove(&map, (void *)(i * 16)) == (void *)(i + 7), "remove %zu", (size_t)i);
   wrong = 0;
   for (uintptr_t i = 2; i <= N; i++) {
      void *want = i % 3 == 0 ? NULL : (void *)(i + 7);
      wrong += lyr_map_lookup(&map, (void *)(i * 16)) != want;
   }
   check_eq_u64(wrong, 0);
   check_eq_u64(map.count, N - N / 3);
   uintptr_t sum[2] = {0, 0};
   lyr_map_foreach(&map, sum_entry, sum);
   uintptr_t want_keys = 0, want_values = 0;
   for (uintptr_t i = 1; i <= N; i++) {
      if (i % 3 != 0 || i == 0) {
         want_keys += i * 16;
         want_values += i == 1 ? 99 : i + 7;
      }
   }
   check_eq_u64(sum[0], want_keys);
   check_eq_u64(sum[1], want_values);
   lyr_map_finish(&map);

   lyr_map_init(&shared_map);
   pthread_t threads[4];
   for (uintptr_t t = 0; t < 4; t++)
      pthread_create(&threads[t], NULL, worker, (void *)(t + 1));
   for (int t = 0; t < 4; t++)
      pthread_join(threads[t], NULL);
   check_eq_u64(shared_map.count, 4 * 1000);
   wrong = 0;
   for (uintptr_t t = 1; t <= 4; t++) {
      for (uintptr_t i = 1; i <= 2000; i++) {
         uintptr_t k = t * 100000 + i;
         void *want = i % 2 ? NULL : (void *)k;
         wrong += lyr_map_lookup(&shared_map, (void *)(k * 16)) != want;
      }
   }
   check_eq_u64(wrong, 0);
   lyr_map_finish(&shared_map);
   return test_done();
}
