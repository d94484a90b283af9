/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The hand-written baseline of bench_lowering: c[i] = a[i] + b[i] over plain
 * storage buffers, one invocation per element, the same work as the tensor
 * shader of bench_lowering.c without records or per-access bounds checks.
 */
#version 460

layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer a_buffer {
   float a[];
};
layout(set = 0, binding = 1, std430) readonly buffer b_buffer {
   float b[];
};
layout(set = 0, binding = 2, std430) writeonly buffer c_buffer {
   float c[];
};

layout(push_constant, std430) uniform args {
   uint count;
};

void
main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < count)
      c[i] = a[i] + b[i];
}
