/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * test_graph_kernels' check of the graph kernels' float conversions
 * (shaders/common/dg_float.glsl): one invocation per input word w, writing
 * DG_CONVERT_RESULTS words at out[DG_CONVERT_RESULTS * i]:
 *   0 fp16(w as fp32)            1 bf16(w as fp32)
 *   2 fp8e4m3(w), non-saturating 3 fp8e4m3(w), saturating
 *   4 fp8e5m2(w), non-saturating 5 fp8e5m2(w), saturating
 *   6 fp32 bits of fp16 pattern (w & 0xffff)
 *   7 fp32 bits of bf16 pattern (w & 0xffff)
 *   8 fp32 bits of fp8e4m3 pattern (w & 0xff)
 *   9 fp32 bits of fp8e5m2 pattern (w & 0xff)
 * Plain storage buffers at set 0 (binding 0: input words, binding 1: output);
 * the input word count is push constant `count`.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_float.glsl"

#define DG_CONVERT_RESULTS 10

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer in_buffer {
   uint in_words[];
};

layout(set = 0, binding = 1, std430) writeonly buffer out_buffer {
   uint out_words[];
};

layout(push_constant, std430) uniform convert_push {
   uint count;
} pc;

void
main()
{
   uint i = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
   if (i >= pc.count)
      return;
   uint w = in_words[i];
   float f = uintBitsToFloat(w);
   uint o = DG_CONVERT_RESULTS * i;
   out_words[o + 0u] = dg_float_to_fp16(f);
   out_words[o + 1u] = dg_float_to_bf16(f);
   out_words[o + 2u] = dg_float_to_fp8e4m3(f, false);
   out_words[o + 3u] = dg_float_to_fp8e4m3(f, true);
   out_words[o + 4u] = dg_float_to_fp8e5m2(f, false);
   out_words[o + 5u] = dg_float_to_fp8e5m2(f, true);
   out_words[o + 6u] = floatBitsToUint(dg_fp16_to_float(w & 0xffffu));
   out_words[o + 7u] = floatBitsToUint(dg_bf16_to_float(w & 0xffffu));
   out_words[o + 8u] = floatBitsToUint(dg_fp8e4m3_to_float(w & 0xffu));
   out_words[o + 9u] = floatBitsToUint(dg_fp8e5m2_to_float(w & 0xffu));
}
