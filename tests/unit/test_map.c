/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The dispatch-key map: insert, lookup, replace, remove with probe chains
 * kept intact, growth, iteration, and concurrent use from several threads:
 * writers against writers, and lock-free lookups (D42) against writers that
 * grow the table and shift entries: a key present the whole time is always
 * found with its value, a key replaced is found with its old or new value.
 */
#include <pthread.h>
#include <stdatomic.h>

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

/* ---- lock-free lookups against writers ----------------------------------------------------
 * The stable keys stay in the map the whole time; writers insert and remove churn keys and
 * flip one key's value. In the "colliding" run every key has the same home slot in tables of
 * up to 1024 slots (picked with a copy of lyr_map.c's hash: if that hash changes, the run
 * still checks the same things, less hard): one cluster of hundreds of entries, which every
 * removal shifts back while readers walk it, the case a lookup without the sequence check
 * gets wrong. In the "growing" run keys are spread and the writers grow the table. */
/* ThreadSanitizer makes every atomic access a call: fewer rounds there (its stage checks
 * for races; the normal build checks the answers harder). */
#ifdef __SANITIZE_THREAD__
#define MAP_TEST_ROUNDS(n) ((n) / 10)
#else
#define MAP_TEST_ROUNDS(n) (n)
#endif
enum { WRITERS = 2, READERS = 2, ROUNDS = MAP_TEST_ROUNDS(40) };

struct churn {
   struct lyr_map map;
   const void **stable, **churn; /* churn: WRITERS runs of churn_count */
   uint32_t stable_count, churn_count;
   atomic_uint writers_left;
   atomic_ulong lookups;
};

#define FLIP_KEY ((const void *)(uintptr_t)0x8)

/* lyr_map.c's hash_ptr(). */
static uint32_t
map_hash(uintptr_t p)
{
   uint64_t x = p;
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdull;
   x ^= x >> 33;
   return (uint32_t)x;
}

struct churn_arg {
   struct churn *c;
   uintptr_t index;
};

static void *
churn_writer(void *arg)
{
   struct churn_arg *a = arg;
   struct churn *c = a->c;
   const void **keys = c->churn + a->index * c->churn_count;
   uintptr_t failed = 0;
   for (unsigned r = 0; r < ROUNDS; r++) {
      for (uint32_t i = 0; i < c->churn_count; i++)
         failed += !lyr_map_insert(&c->map, keys[i], (void *)(uintptr_t)(i + 1));
      lyr_map_insert(&c->map, FLIP_KEY, (void *)(uintptr_t)(r & 1 ? 0x100 : 0x200));
      /* Oldest first: the entries behind each removed one shift back. */
      for (uint32_t i = 0; i < c->churn_count; i++)
         failed += lyr_map_remove(&c->map, keys[i]) != (void *)(uintptr_t)(i + 1);
   }
   atomic_fetch_sub(&c->writers_left, 1);
   return (void *)failed;
}

static void *
churn_reader(void *arg)
{
   struct churn_arg *a = arg;
   struct churn *c = a->c;
   uintptr_t wrong = 0;
   unsigned long n = 0;
   do {
      for (uint32_t i = (uint32_t)a->index; i < c->stable_count; i += READERS, n++)
         wrong += lyr_map_lookup(&c->map, c->stable[i]) != (void *)(uintptr_t)(i + 1);
      void *flip = lyr_map_lookup(&c->map, FLIP_KEY);
      wrong += flip != (void *)0x100 && flip != (void *)0x200;
      n++;
   } while (atomic_load(&c->writers_left));
   atomic_fetch_add(&c->lookups, n);
   return (void *)wrong;
}

/* Fills keys[0..count) with 16-byte aligned keys after *next, each whose hash & mask is 0
 * (mask 0: any key). */
static void
pick_keys(const void **keys, uint32_t count, uintptr_t *next, uint32_t mask)
{
   for (uint32_t i = 0; i < count; *next += 16) {
      if ((map_hash(*next) & mask) == 0)
         keys[i++] = (const void *)*next;
   }
}

static void
test_readers_against_writers(const char *name, uint32_t stable_count, uint32_t churn_count,
                             uint32_t mask)
{
   struct churn c = {.stable_count = stable_count, .churn_count = churn_count};
   c.stable = calloc(stable_count, sizeof(*c.stable));
   c.churn = calloc((size_t)churn_count * WRITERS, sizeof(*c.churn));
   if (!ok(c.stable && c.churn, "%s: memory", name))
      return;
   uintptr_t next = 0x1000;
   pick_keys(c.stable, stable_count, &next, mask);
   pick_keys(c.churn, churn_count * WRITERS, &next, mask);
   lyr_map_init(&c.map);
   /* Half the churn first, so that stable keys sit behind churn keys in the cluster. */
   for (uint32_t i = 0; i < stable_count; i++)
      lyr_map_insert(&c.map, c.stable[i], (void *)(uintptr_t)(i + 1));
   lyr_map_insert(&c.map, FLIP_KEY, (void *)0x200);
   atomic_store(&c.writers_left, WRITERS);
   atomic_store(&c.lookups, 0);
   pthread_t writers[WRITERS], readers[READERS];
   struct churn_arg wa[WRITERS], ra[READERS];
   for (uintptr_t t = 0; t < READERS; t++) {
      ra[t] = (struct churn_arg){&c, t};
      pthread_create(&readers[t], NULL, churn_reader, &ra[t]);
   }
   for (uintptr_t t = 0; t < WRITERS; t++) {
      wa[t] = (struct churn_arg){&c, t};
      pthread_create(&writers[t], NULL, churn_writer, &wa[t]);
   }
   uintptr_t write_failures = 0, wrong = 0;
   for (int t = 0; t < WRITERS; t++) {
      void *r;
      pthread_join(writers[t], &r);
      write_failures += (uintptr_t)r;
   }
   for (int t = 0; t < READERS; t++) {
      void *r;
      pthread_join(readers[t], &r);
      wrong += (uintptr_t)r;
   }
   ok(write_failures == 0, "%s: %zu inserts or removes failed", name, (size_t)write_failures);
   ok(wrong == 0, "%s: %zu of %lu lock-free lookups wrong while writers ran", name,
      (size_t)wrong, atomic_load(&c.lookups));
   check_eq_u64(c.map.count, stable_count + 1);
   unsigned missing = 0;
   for (uint32_t i = 0; i < stable_count; i++)
      missing += lyr_map_lookup(&c.map, c.stable[i]) != (void *)(uintptr_t)(i + 1);
   ok(missing == 0, "%s: %u stable keys missing afterwards", name, missing);
   lyr_map_finish(&c.map);
   free(c.stable);
   free(c.churn);
}

/* Lookups of keys that removals are shifting: one cluster of SHIFT_KEYS colliding keys; the
 * writer inserts them all, then removes them oldest first (each removal shifts every later
 * key back one slot) and publishes its progress; readers look up keys a little behind the
 * one being removed, which are present for the whole lookup when the progress says so. */
enum { SHIFT_KEYS = 400, SHIFT_ROUNDS = MAP_TEST_ROUNDS(300) };
static const void *shift_keys[SHIFT_KEYS];
static struct lyr_map shift_map;
/* round << 32 | removing << 31 | keys removed this round; UINT64_MAX: done. */
static atomic_ullong shift_state;

static void *
shift_writer(void *arg)
{
   (void)arg;
   uintptr_t failed = 0;
   for (uint64_t r = 0; r < SHIFT_ROUNDS; r++) {
      atomic_store(&shift_state, r << 32);
      for (uintptr_t i = 0; i < SHIFT_KEYS; i++)
         failed += !lyr_map_insert(&shift_map, shift_keys[i], (void *)(i + 1));
      for (uintptr_t i = 0; i < SHIFT_KEYS; i++) {
         atomic_store(&shift_state, r << 32 | 1ull << 31 | i);
         failed += lyr_map_remove(&shift_map, shift_keys[i]) != (void *)(i + 1);
      }
   }
   atomic_store(&shift_state, UINT64_MAX);
   return (void *)failed;
}

static void *
shift_reader(void *arg)
{
   uintptr_t checked = 0, wrong = 0, x = (uintptr_t)arg;
   for (;;) {
      uint64_t before = atomic_load(&shift_state);
      if (before == UINT64_MAX)
         break;
      if (!(before & 1ull << 31))
         continue;
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      uint32_t i = (uint32_t)(before & 0x7fffffff) + 1 + (uint32_t)(x >> 60);
      if (i >= SHIFT_KEYS)
         continue;
      void *got = lyr_map_lookup(&shift_map, shift_keys[i]);
      uint64_t after = atomic_load(&shift_state);
      /* Same round, still removing, key i not yet reached: it was there all along. */
      if (after >> 32 == before >> 32 && (after & 1ull << 31) && (after & 0x7fffffff) < i) {
         checked++;
         wrong += got != (void *)(uintptr_t)(i + 1);
      }
   }
   return (void *)(wrong << 32 | (checked & 0xffffffff));
}

static void
test_shifting_lookups(void)
{
   uintptr_t next = 0x100000;
   pick_keys(shift_keys, SHIFT_KEYS, &next, 1023);
   lyr_map_init(&shift_map);
   atomic_store(&shift_state, 0);
   pthread_t writer, readers[READERS];
   for (uintptr_t t = 0; t < READERS; t++)
      pthread_create(&readers[t], NULL, shift_reader, (void *)(t + 1));
   pthread_create(&writer, NULL, shift_writer, NULL);
   void *r;
   pthread_join(writer, &r);
   ok((uintptr_t)r == 0, "shifting: %zu inserts or removes failed", (size_t)(uintptr_t)r);
   uint64_t checked = 0, wrong = 0;
   for (int t = 0; t < READERS; t++) {
      pthread_join(readers[t], &r);
      checked += (uintptr_t)r & 0xffffffff;
      wrong += (uintptr_t)r >> 32;
   }
   printf("shifting: %" PRIu64 " lookups of keys being shifted checked\n", checked);
   ok(wrong == 0, "shifting: %" PRIu64 " of %" PRIu64 " lookups of shifted keys wrong", wrong,
      checked);
   check_eq_u64(shift_map.count, 0);
   lyr_map_finish(&shift_map);
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

   /* 64 + 2 x 250 keys: a table of 1024 slots, one cluster. */
   test_readers_against_writers("colliding", 64, 250, 1023);
   test_shifting_lookups();
   /* 3000 + 2 x 1500 keys, spread: the table grows while readers read. */
   test_readers_against_writers("growing", 3000, 1500, 0);
   return test_done();
}
