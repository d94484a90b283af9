/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * An application's compute shader for test_tensor_copy: a descriptor set and
 * push constants that a tensor copy recorded between two dispatches must not
 * disturb. One invocation per word: out[base + i] = value + i for i < count.
 */
#version 460

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer out_buffer {
   uint words[];
};

layout(push_constant, std430) uniform app_push {
   uint base;
   uint value;
   uint count;
} pc;

void
main()
{
   uint i = gl_GlobalInvocationID.x;
   if (i < pc.count)
      words[pc.base + i] = pc.value + i;
}
