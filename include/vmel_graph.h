/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What VK_LAYER_ML_Graph_Emulation offers beyond VK_ARM_data_graph, for
 * applications and tools: the data-graph pipeline property that returns the
 * per-stage GPU profile (docs/architecture.md, "Profiling"). The value lies
 * in a range no Khronos enum uses (0x564D4C00 + n, "VML"); the property is
 * listed by vkGetDataGraphPipelineAvailablePropertiesARM only when the layer
 * profiles (VMEL_GRAPH_PROFILING=1 when the device was created).
 */
#ifndef VMEL_GRAPH_H
#define VMEL_GRAPH_H

#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

/** Text (JSON) property: {"timestamp_period_ns", "dispatches", "samples": [{"dispatch",
 *  "session", "ns", "stages": [{"stage", "op", "result_id", "kernel", "ns"}]}],
 *  "by_operator": {"<op>": {"stages", "ns"}}}. */
#define VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON                                            \
   ((VkDataGraphPipelinePropertyARM)0x564D4C01)

#endif /* VMEL_GRAPH_H */
