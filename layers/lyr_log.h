/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Logging to stderr. Each layer has a domain; the level of a domain is read
 * once from its environment variable (VMEL_TENSOR_SEVERITY, VMEL_GRAPH_SEVERITY;
 * VMEL_COMMON_SEVERITY for shared code and as the default of the others),
 * one of error|warning|info|debug. The default is warning.
 */
#ifndef LYR_LOG_H
#define LYR_LOG_H

#include <vulkan/vulkan.h>

enum lyr_log_domain {
   LYR_LOG_COMMON,
   LYR_LOG_TENSOR,
   LYR_LOG_GRAPH,
   LYR_LOG_DOMAIN_COUNT,
};

enum lyr_log_level {
   LYR_LOG_ERROR,
   LYR_LOG_WARNING,
   LYR_LOG_INFO,
   LYR_LOG_DEBUG,
};

/** The domain of the code being compiled; each layer defines it for its files. */
#ifndef LYR_LOG_THIS_DOMAIN
#define LYR_LOG_THIS_DOMAIN LYR_LOG_COMMON
#endif

/** True when messages of this level are printed for the domain. */
int lyr_log_enabled(enum lyr_log_domain domain, enum lyr_log_level level);

void lyr_log(enum lyr_log_domain domain, enum lyr_log_level level, const char *file, int line,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/** Re-read the environment (for tests that change the variables). */
void lyr_log_reset(void);

#define lyr_loge(...) lyr_log(LYR_LOG_THIS_DOMAIN, LYR_LOG_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define lyr_logw(...) lyr_log(LYR_LOG_THIS_DOMAIN, LYR_LOG_WARNING, __FILE__, __LINE__, __VA_ARGS__)
#define lyr_logi(...) lyr_log(LYR_LOG_THIS_DOMAIN, LYR_LOG_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define lyr_logd(...) lyr_log(LYR_LOG_THIS_DOMAIN, LYR_LOG_DEBUG, __FILE__, __LINE__, __VA_ARGS__)

/** Logs an error naming what was rejected and returns result (Mesa vk_errorf). */
VkResult lyr_error_(enum lyr_log_domain domain, VkResult result, const char *file, int line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define lyr_error(result, ...)                                                                     \
   lyr_error_(LYR_LOG_THIS_DOMAIN, (result), __FILE__, __LINE__, __VA_ARGS__)

/** Name of a VkResult, for log lines. */
const char *lyr_result_name(VkResult result);

#endif /* LYR_LOG_H */
