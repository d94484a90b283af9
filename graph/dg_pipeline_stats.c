/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Measured kernel limits (D59): with VMEL_GRAPH_PIPELINE_STATS=1 the graph layer enables
 * VK_KHR_pipeline_executable_properties (extension and pipelineExecutableInfo feature) on the
 * device it creates where the device below offers it, creates its kernels' compute pipelines
 * with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR and logs, at info level, what the driver's
 * compiler reports for each (registers, shared and local memory, spills, instruction counts:
 * whatever the driver lists). The application's own pipelines are not touched.
 */
#include "dg_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dg_pipeline_stats.h"

#define EXT_NAME VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME
#define FEATURES_STYPE VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR
#define MAX_EXECUTABLES 8
/* Statistics per log line before it continues on the next (the log's lines are 1 KiB). */
#define LINE_MAX_CHARS 700

static bool
wanted(void)
{
   const char *v = getenv("VMEL_GRAPH_PIPELINE_STATS");
   return v && *v && strcmp(v, "0") != 0;
}

/* Whether the device below offers the extension with its pipelineExecutableInfo feature. */
static bool
offered(struct lyr_instance *instance, VkPhysicalDevice pd)
{
   if (!instance->next.GetPhysicalDeviceFeatures2 ||
       !lyr_device_extension_below(instance->next.EnumerateDeviceExtensionProperties, pd, EXT_NAME,
                                   &instance->alloc))
      return false;
   VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR f = {.sType = FEATURES_STYPE};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f};
   instance->next.GetPhysicalDeviceFeatures2(pd, &f2);
   return f.pipelineExecutableInfo == VK_TRUE;
}

void
dg_pipeline_stats_rewrite(struct lyr_instance *instance, VkPhysicalDevice pd,
                          VkDeviceCreateInfo *info, struct dg_pipeline_stats_rewrite *rw)
{
   memset(rw, 0, sizeof(*rw));
   if (!wanted())
      return;
   bool listed =
      lyr_name_in_list(EXT_NAME, info->ppEnabledExtensionNames, info->enabledExtensionCount);
   const VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *app =
      lyr_find_struct(info->pNext, FEATURES_STYPE);
   if (app) {
      /* the application's own request (its struct, which the layer does not change) */
      rw->enabled = listed && app->pipelineExecutableInfo;
      if (!rw->enabled)
         lyr_logw("VMEL_GRAPH_PIPELINE_STATS: the application chains "
                  "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR without enabling "
                  "%s and pipelineExecutableInfo: no pipeline statistics",
                  EXT_NAME);
      return;
   }
   if (!offered(instance, pd)) {
      lyr_logw("VMEL_GRAPH_PIPELINE_STATS: the device below offers no %s with "
               "pipelineExecutableInfo: no pipeline statistics",
               EXT_NAME);
      return;
   }
   rw->features = (VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR){
      .sType = FEATURES_STYPE, .pipelineExecutableInfo = VK_TRUE};
   lyr_chain_append(info, &rw->features);
   rw->add_name = !listed;
   rw->enabled = true;
}

uint32_t
dg_pipeline_stats_extra_names(const struct dg_pipeline_stats_rewrite *rw, const char **names,
                              uint32_t n)
{
   if (rw->add_name && names)
      names[n] = EXT_NAME;
   return n + rw->add_name;
}

bool
dg_pipeline_stats_init(struct dg_device *device, const struct dg_pipeline_stats_rewrite *rw)
{
   if (!rw->enabled)
      return false;
   const struct lyr_device_next *next = &device->base.next;
   if (!next->GetPipelineExecutablePropertiesKHR || !next->GetPipelineExecutableStatisticsKHR) {
      lyr_logw("VMEL_GRAPH_PIPELINE_STATS: %s enabled, but the layers below return no "
               "vkGetPipelineExecutableStatisticsKHR: no pipeline statistics",
               EXT_NAME);
      return false;
   }
   if (!lyr_log_enabled(LYR_LOG_GRAPH, LYR_LOG_INFO))
      lyr_logw("VMEL_GRAPH_PIPELINE_STATS: the statistics are logged at info level "
               "(VMEL_GRAPH_SEVERITY=info)");
   else
      lyr_logi("VMEL_GRAPH_PIPELINE_STATS: the graph kernels' pipelines capture statistics (D59)");
   return true;
}

VkPipelineCreateFlags
dg_pipeline_stats_flags(const struct dg_device *device)
{
   return device->pipeline_stats ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
}

/* A log line being built: its head, then " name=value" items; a full line is logged and the
 * next continues with the same head. */
struct line {
   char text[LINE_MAX_CHARS + 160];
   size_t head, len;
};

static void
line_flush(struct line *l)
{
   if (l->len > l->head)
      lyr_logi("%s", l->text);
   l->len = l->head;
   l->text[l->len] = 0;
}

static void
line_add(struct line *l, const char *item)
{
   size_t n = strlen(item);
   if (l->len + n > LINE_MAX_CHARS)
      line_flush(l);
   if (l->len + n >= sizeof(l->text))
      n = sizeof(l->text) - l->len - 1;
   memcpy(l->text + l->len, item, n);
   l->len += n;
   l->text[l->len] = 0;
}

/* " name=value": the driver's name with blanks and '=' as '_', so that a line splits on blanks. */
static void
format_statistic(const VkPipelineExecutableStatisticKHR *s, char *out, size_t size)
{
   char name[VK_MAX_DESCRIPTION_SIZE];
   size_t i = 0;
   for (; i + 1 < sizeof(name) && s->name[i]; i++) {
      char c = s->name[i];
      name[i] = c == ' ' || c == '\t' || c == '=' ? '_' : c;
   }
   name[i] = 0;
   switch (s->format) {
   case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      snprintf(out, size, " %s=%s", name, s->value.b32 ? "true" : "false");
      break;
   case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      snprintf(out, size, " %s=%" PRId64, name, s->value.i64);
      break;
   case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      snprintf(out, size, " %s=%" PRIu64, name, s->value.u64);
      break;
   case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
      snprintf(out, size, " %s=%.6g", name, s->value.f64);
      break;
   default:
      snprintf(out, size, " %s=?(format %d)", name, (int)s->format);
      break;
   }
}

static void
log_executable(struct dg_device *device, VkPipeline pipeline, uint32_t index, uint32_t count,
               const VkPipelineExecutablePropertiesKHR *props, const char *kernel,
               const char *what)
{
   const struct lyr_device_next *next = &device->base.next;
   VkDevice dev = device->base.handle;
   VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                                     .pipeline = pipeline,
                                     .executableIndex = index};
   uint32_t n = 0;
   VkResult result = next->GetPipelineExecutableStatisticsKHR(dev, &ei, &n, NULL);
   VkPipelineExecutableStatisticKHR *stats = NULL;
   if (result == VK_SUCCESS && n) {
      stats = lyr_alloc(&device->base.alloc, n * sizeof(*stats), 8,
                        VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!stats)
         result = VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (stats) {
      for (uint32_t i = 0; i < n; i++)
         stats[i] = (VkPipelineExecutableStatisticKHR){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
      result = next->GetPipelineExecutableStatisticsKHR(dev, &ei, &n, stats);
      if (result == VK_INCOMPLETE)
         result = VK_SUCCESS; /* (a driver listing more the second time: these are logged) */
   }
   if (result != VK_SUCCESS) {
      lyr_logw("pipeline statistics of kernel %s (%s), executable %u: "
               "vkGetPipelineExecutableStatisticsKHR failed (%s)",
               kernel, what, index, lyr_result_name(result));
      lyr_free(&device->base.alloc, stats);
      return;
   }
   struct line l;
   int head = snprintf(l.text, sizeof(l.text),
                       "pipeline statistics: kernel %s (%s) executable %u/%u \"%.64s\" "
                       "subgroup %u:",
                       kernel, what, index, count, props->name, props->subgroupSize);
   l.head = l.len = head < 0 ? 0 : (size_t)head < LINE_MAX_CHARS ? (size_t)head : LINE_MAX_CHARS;
   l.text[l.len] = 0;
   for (uint32_t i = 0; i < n; i++) {
      char item[VK_MAX_DESCRIPTION_SIZE + 48];
      format_statistic(&stats[i], item, sizeof(item));
      line_add(&l, item);
   }
   if (n == 0)
      line_add(&l, " (the driver lists no statistics)");
   line_flush(&l);
   lyr_free(&device->base.alloc, stats);
}

void
dg_pipeline_stats_log(struct dg_device *device, VkPipeline pipeline, const char *kernel,
                      const char *what)
{
   if (!device->pipeline_stats || pipeline == VK_NULL_HANDLE ||
       !lyr_log_enabled(LYR_LOG_GRAPH, LYR_LOG_INFO))
      return;
   const struct lyr_device_next *next = &device->base.next;
   VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipeline};
   VkPipelineExecutablePropertiesKHR props[MAX_EXECUTABLES];
   for (uint32_t i = 0; i < MAX_EXECUTABLES; i++)
      props[i] = (VkPipelineExecutablePropertiesKHR){
         .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
   uint32_t count = MAX_EXECUTABLES;
   VkResult result =
      next->GetPipelineExecutablePropertiesKHR(device->base.handle, &pi, &count, props);
   if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
      lyr_logw("pipeline statistics of kernel %s (%s): vkGetPipelineExecutablePropertiesKHR "
               "failed (%s)",
               kernel, what, lyr_result_name(result));
      return;
   }
   if (count == 0)
      lyr_logw("pipeline statistics of kernel %s (%s): the driver lists no executables", kernel,
               what);
   for (uint32_t i = 0; i < count; i++)
      log_executable(device, pipeline, i, count, &props[i], kernel, what);
}
