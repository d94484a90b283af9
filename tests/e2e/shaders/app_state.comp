/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * An application's compute shader for test_graph_state: two descriptor sets
 * and push constants that a data-graph dispatch recorded between the
 * application's binds and its dispatch must not disturb.
 * out[i] = in[i] * mul + add for i < count.
 */
#version 460

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer out_buffer {
   uint out_words[];
};

layout(set = 1, binding = 0, std430) readonly buffer in_buffer {
   uint in_words[];
};

layout(push_constant, std430) uniform app_push {
   uint mul;
   uint add;
   uint count;
} pc;

void
main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < pc.count)
      out_words[i] = in_words[i] * pc.mul + pc.add;
}
