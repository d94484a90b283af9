/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Which build function turns each decoded operator into kernel dispatches
 * (one file per op family in this folder). An operator without one is
 * rejected at pipeline creation.
 */
#include "dg_runtime.h"

#include "dg_op.h"

dg_op_build_fn
dg_op_builder(uint32_t op)
{
   (void)op;
   return NULL;
}

VkResult
dg_build_output_copy(struct dg_build *b, const struct dg_graph_io *io)
{
   (void)b;
   return lyr_error(VK_ERROR_UNKNOWN, "graph output %u (set %u binding %u) is not written by any "
                    "operator; copying inputs or constants to outputs is not supported yet",
                    io->index, io->set, io->binding);
}
