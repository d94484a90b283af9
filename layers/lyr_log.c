/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Logging to stderr with per-domain levels read once from the environment:
 * VMEL_COMMON_SEVERITY, VMEL_TENSOR_SEVERITY, VMEL_GRAPH_SEVERITY
 * (error|warning|info|debug). Domain variables default to the common one,
 * which defaults to warning. Lines look like "[vmel-tensor] W: file.c:12: msg".
 */
#include "lyr_log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const domain_env[LYR_LOG_DOMAIN_COUNT] = {
   [LYR_LOG_COMMON] = "VMEL_COMMON_SEVERITY",
   [LYR_LOG_TENSOR] = "VMEL_TENSOR_SEVERITY",
   [LYR_LOG_GRAPH] = "VMEL_GRAPH_SEVERITY",
};

static const char *const domain_tag[LYR_LOG_DOMAIN_COUNT] = {
   [LYR_LOG_COMMON] = "vmel",
   [LYR_LOG_TENSOR] = "vmel-tensor",
   [LYR_LOG_GRAPH] = "vmel-graph",
};

static const char level_letter[] = {'E', 'W', 'I', 'D'};

static pthread_once_t levels_once = PTHREAD_ONCE_INIT;
static enum lyr_log_level levels[LYR_LOG_DOMAIN_COUNT];
static pthread_mutex_t output_lock = PTHREAD_MUTEX_INITIALIZER;

static bool
parse_level(const char *s, enum lyr_log_level *out)
{
   static const struct {
      const char *name;
      enum lyr_log_level level;
   } names[] = {
      {"error", LYR_LOG_ERROR}, {"warning", LYR_LOG_WARNING}, {"warn", LYR_LOG_WARNING},
      {"info", LYR_LOG_INFO},   {"debug", LYR_LOG_DEBUG},
   };
   if (!s || !*s)
      return false;
   for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (strcasecmp(s, names[i].name) == 0) {
         *out = names[i].level;
         return true;
      }
   }
   fprintf(stderr, "[vmel] W: ignoring unknown severity \"%s\" (use error|warning|info|debug)\n",
           s);
   return false;
}

static void
read_levels(void)
{
   enum lyr_log_level common = LYR_LOG_WARNING;
   parse_level(getenv(domain_env[LYR_LOG_COMMON]), &common);
   for (int d = 0; d < LYR_LOG_DOMAIN_COUNT; d++) {
      levels[d] = common;
      if (d != LYR_LOG_COMMON)
         parse_level(getenv(domain_env[d]), &levels[d]);
   }
}

void
lyr_log_reset(void)
{
   pthread_once(&levels_once, read_levels);
   read_levels();
}

int
lyr_log_enabled(enum lyr_log_domain domain, enum lyr_log_level level)
{
   pthread_once(&levels_once, read_levels);
   return level <= levels[domain];
}

static void log_va(enum lyr_log_domain domain, enum lyr_log_level level, const char *file,
                   int line, const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

static void
log_va(enum lyr_log_domain domain, enum lyr_log_level level, const char *file, int line,
       const char *fmt, va_list ap)
{
   const char *base = strrchr(file, '/');
   base = base ? base + 1 : file;
   char msg[1024];
   vsnprintf(msg, sizeof(msg), fmt, ap);
   pthread_mutex_lock(&output_lock);
   fprintf(stderr, "[%s] %c: %s:%d: %s\n", domain_tag[domain], level_letter[level], base, line,
           msg);
   pthread_mutex_unlock(&output_lock);
}

void
lyr_log(enum lyr_log_domain domain, enum lyr_log_level level, const char *file, int line,
        const char *fmt, ...)
{
   if (!lyr_log_enabled(domain, level))
      return;
   va_list ap;
   va_start(ap, fmt);
   log_va(domain, level, file, line, fmt, ap);
   va_end(ap);
}

VkResult
lyr_error_(enum lyr_log_domain domain, VkResult result, const char *file, int line,
           const char *fmt, ...)
{
   if (lyr_log_enabled(domain, LYR_LOG_ERROR)) {
      char msg[1024];
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(msg, sizeof(msg), fmt, ap);
      va_end(ap);
      lyr_log(domain, LYR_LOG_ERROR, file, line, "%s (%s)", msg, lyr_result_name(result));
   }
   return result;
}

const char *
lyr_result_name(VkResult result)
{
   switch (result) {
#define R(x)                                                                                       \
   case x:                                                                                         \
      return #x;
      R(VK_SUCCESS)
      R(VK_NOT_READY)
      R(VK_TIMEOUT)
      R(VK_INCOMPLETE)
      R(VK_ERROR_OUT_OF_HOST_MEMORY)
      R(VK_ERROR_OUT_OF_DEVICE_MEMORY)
      R(VK_ERROR_INITIALIZATION_FAILED)
      R(VK_ERROR_DEVICE_LOST)
      R(VK_ERROR_MEMORY_MAP_FAILED)
      R(VK_ERROR_LAYER_NOT_PRESENT)
      R(VK_ERROR_EXTENSION_NOT_PRESENT)
      R(VK_ERROR_FEATURE_NOT_PRESENT)
      R(VK_ERROR_INCOMPATIBLE_DRIVER)
      R(VK_ERROR_TOO_MANY_OBJECTS)
      R(VK_ERROR_FORMAT_NOT_SUPPORTED)
      R(VK_ERROR_FRAGMENTED_POOL)
      R(VK_ERROR_UNKNOWN)
      R(VK_ERROR_OUT_OF_POOL_MEMORY)
      R(VK_ERROR_INVALID_EXTERNAL_HANDLE)
      R(VK_ERROR_FRAGMENTATION)
      R(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
      R(VK_PIPELINE_COMPILE_REQUIRED)
      R(VK_ERROR_VALIDATION_FAILED_EXT)
#undef R
   default:
      return "VkResult(?)";
   }
}
