/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vkCmdCopyTensorARM's compute path (tensor/tsr_copy.c): copies an
 * n-dimensional array of units between two device addresses with byte
 * strides. One invocation per unit; the host splits large copies into several
 * dispatches (base, count) within maxComputeWorkGroupCount, using x and y.
 *
 * VMEL_COPY_UNIT is the unit size in bytes: 1 (needs storageBuffer8BitAccess),
 * 2 (storageBuffer16BitAccess), 4, 8 or 16 (no feature: uint, uvec2, uvec4).
 * Push constants: struct vmel_copy_args (kernel_abi/tensor_copy.h).
 * No descriptor sets.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#ifndef VMEL_COPY_UNIT
#define VMEL_COPY_UNIT 4
#endif

#if VMEL_COPY_UNIT == 1
#extension GL_EXT_shader_8bit_storage : require
#define VMEL_UNIT_T uint8_t
#elif VMEL_COPY_UNIT == 2
#extension GL_EXT_shader_16bit_storage : require
#define VMEL_UNIT_T uint16_t
#elif VMEL_COPY_UNIT == 4
#define VMEL_UNIT_T uint
#elif VMEL_COPY_UNIT == 8
#define VMEL_UNIT_T uvec2
#elif VMEL_COPY_UNIT == 16
#define VMEL_UNIT_T uvec4
#else
#error "VMEL_COPY_UNIT must be 1, 2, 4, 8 or 16"
#endif

#include "kernel_abi/tensor_copy.h"
#include "vmel_address.glsl"

layout(local_size_x = VMEL_COPY_LOCAL_SIZE) in;

layout(buffer_reference, buffer_reference_align = VMEL_COPY_UNIT, std430) buffer vmel_unit_ref {
   VMEL_UNIT_T value;
};

layout(push_constant, std430) uniform vmel_copy_push {
   vmel_copy_args args;
};

void
main()
{
   uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   uint linear = group * VMEL_COPY_LOCAL_SIZE + gl_LocalInvocationIndex;
   if (linear >= args.count)
      return;

   uint index = args.base + linear;
   uint src_offset = 0;
   uint dst_offset = 0;
   for (int d = int(args.rank) - 1; d >= 0; d--) {
      uint extent = args.extent[d];
      uint c = index % extent;
      index /= extent;
      src_offset += c * args.src_stride[d];
      dst_offset += c * args.dst_stride[d];
   }
   vmel_unit_ref(vmel_address_add(args.dst, dst_offset)).value =
      vmel_unit_ref(vmel_address_add(args.src, src_offset)).value;
}
