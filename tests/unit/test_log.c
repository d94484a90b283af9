/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Log levels from VMEL_*_SEVERITY: defaults, per-domain overrides, the common
 * variable as the default of the others, unknown values ignored, and
 * lyr_error() returning its result code.
 */
#include <stdlib.h>

#include "lyr.h"
#include "test.h"

TEST_MAIN_STATE;

int
main(void)
{
   unsetenv("VMEL_COMMON_SEVERITY");
   unsetenv("VMEL_TENSOR_SEVERITY");
   unsetenv("VMEL_GRAPH_SEVERITY");
   lyr_log_reset();
   ok(lyr_log_enabled(LYR_LOG_TENSOR, LYR_LOG_WARNING), "warning on by default");
   ok(!lyr_log_enabled(LYR_LOG_TENSOR, LYR_LOG_INFO), "info off by default");

   setenv("VMEL_COMMON_SEVERITY", "debug", 1);
   setenv("VMEL_GRAPH_SEVERITY", "error", 1);
   lyr_log_reset();
   ok(lyr_log_enabled(LYR_LOG_TENSOR, LYR_LOG_DEBUG), "common level is the tensor default");
   ok(lyr_log_enabled(LYR_LOG_COMMON, LYR_LOG_DEBUG), "common debug");
   ok(!lyr_log_enabled(LYR_LOG_GRAPH, LYR_LOG_WARNING), "graph overridden to error");
   ok(lyr_log_enabled(LYR_LOG_GRAPH, LYR_LOG_ERROR), "graph errors");

   setenv("VMEL_TENSOR_SEVERITY", "Info", 1);
   setenv("VMEL_GRAPH_SEVERITY", "loud", 1);
   lyr_log_reset();
   ok(lyr_log_enabled(LYR_LOG_TENSOR, LYR_LOG_INFO), "case-insensitive info");
   ok(!lyr_log_enabled(LYR_LOG_TENSOR, LYR_LOG_DEBUG), "info excludes debug");
   ok(lyr_log_enabled(LYR_LOG_GRAPH, LYR_LOG_DEBUG), "unknown value falls back to common");

   ok(lyr_error(VK_ERROR_FEATURE_NOT_PRESENT, "test %d", 1) == VK_ERROR_FEATURE_NOT_PRESENT,
      "lyr_error returns its code");
   ok(strcmp(lyr_result_name(VK_ERROR_UNKNOWN), "VK_ERROR_UNKNOWN") == 0, "result names");
   return test_done();
}
