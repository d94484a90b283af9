/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Fuzz target: the graph layer's pipeline-cache data (graph/dg_cache_format.c), which
 * an application hands back in VkPipelineCacheCreateInfo::pInitialData and which may
 * come from disk. Each input is read three ways:
 *  - as cache data (header, this layer's section, entries, the driver's part), for the
 *    device of fuzz_cache_device;
 *  - as one entry's payload given straight to the plan reader, as if its checksum had
 *    matched (no checksum hides a malformed plan from the fuzzer);
 *  - as that payload inside well-formed cache data with a correct checksum.
 * Every plan the reader accepts is used as the layer uses one (fuzz_plan_use()) and
 * must survive a write/read round trip. Refusals must carry a reason; the parser must
 * never point outside the data.
 */
#include "fuzz.h"
#include "fuzz_plan.h"

#include "lyr_alloc.h"

static void
read_payload(const uint8_t *data, size_t size)
{
   struct dg_stage_plan *p = NULL;
   struct dg_cache_stage_meta *st = NULL;
   struct dg_cache_meta meta;
   const char *why = NULL;
   VkResult res = dg_cache_plan_read(data, size, &lyr_default_alloc, &p, &meta, &st, &why);
   if (res != VK_SUCCESS) {
      if (res != VK_ERROR_INITIALIZATION_FAILED && res != VK_ERROR_OUT_OF_HOST_MEMORY)
         fuzz_fail("the plan reader returns %d", res);
      if (res == VK_ERROR_INITIALIZATION_FAILED && !why)
         fuzz_fail("a payload refused without a reason");
      if (p || st)
         fuzz_fail("a refused payload leaves a plan behind");
      return;
   }
   (void)fuzz_plan_use(p, st);
   fuzz_plan_round_trip(p, &meta, st);
   lyr_free(&lyr_default_alloc, st);
   dg_stage_plan_destroy(p);
}

struct bounds {
   const uint8_t *begin, *end;
   uint32_t entries;
   bool read; /* read the payloads (false: the payload was read directly already) */
};

static bool
on_entry(const struct dg_cache_blob_entry *e, void *user)
{
   struct bounds *b = user;
   if (e->key < b->begin || e->key + DG_CACHE_KEY_SIZE > b->end || e->payload < b->begin ||
       e->size > (uint64_t)(b->end - e->payload))
      fuzz_fail("an entry outside the data");
   b->entries++;
   if (b->read)
      read_payload(e->payload, (size_t)e->size);
   return true;
}

static uint32_t
parse(const uint8_t *data, size_t size, bool read)
{
   struct bounds b = {data, data + size, 0, read};
   struct dg_cache_parsed parsed;
   memset(&parsed, 0, sizeof(parsed));
   if (!dg_cache_parse(data, size, &fuzz_cache_device, on_entry, &b, &parsed))
      fuzz_fail("the parser fails although every entry callback succeeded");
   if (parsed.entry_count != b.entries)
      fuzz_fail("%u entries counted, %u given", parsed.entry_count, b.entries);
   if (parsed.driver &&
       (parsed.driver < data || parsed.driver_size > (size_t)(data + size - parsed.driver)))
      fuzz_fail("the driver's part is outside the data");
   return b.entries;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   parse(data, size, true);
   read_payload(data, size);
   /* The input as the payload of the one entry of well-formed cache data. */
   uint64_t section = DG_CACHE_SECTION_HEADER_SIZE + dg_cache_entry_bytes(size);
   size_t total = DG_CACHE_HEADER_SIZE + (size_t)section;
   uint8_t *d = calloc(1, total);
   if (!d)
      return 0;
   dg_cache_write_header(d, &fuzz_cache_device);
   dg_cache_write_section_header(d + DG_CACHE_HEADER_SIZE, &fuzz_cache_device, section, 1);
   static const uint8_t key[DG_CACHE_KEY_SIZE] = {0x6b, 0x65, 0x79};
   dg_cache_write_entry(d + DG_CACHE_HEADER_SIZE + DG_CACHE_SECTION_HEADER_SIZE, key, data, size);
   if (parse(d, total, false) != 1)
      fuzz_fail("well-formed cache data: its entry is not found");
   free(d);
   return 0;
}
