/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Test kernel of test_tensor_descriptors: reads five tensor descriptors the
 * way kernels do after the tensor layer has lowered them (a read-only storage
 * buffer holding the view's record, include/kernel_abi/tensor_record.h) and
 * writes each record and the first elements it reaches through the record's
 * address and strides to the output buffer. No tensor opcodes.
 */
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_GOOGLE_include_directive : require

#include "kernel_abi/tensor_record.h"

layout(local_size_x = 1) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Word {
   uint v;
};

/* Binding numbers and the output layout match test_tensor_descriptors.c. */
layout(set = 0, binding = 0) readonly buffer TensorArray {
   vmel_tensor_record r;
} t_array[3];
layout(set = 0, binding = 1) readonly buffer TensorNext {
   vmel_tensor_record r;
} t_next;
layout(set = 0, binding = 2) writeonly buffer Out {
   uint o[];
} out_buf;
layout(set = 0, binding = 3) readonly buffer TensorCopy {
   vmel_tensor_record r;
} t_copy;

#define SLOT_WORDS 32
#define DATA_WORDS 16

void
dump(uint slot, vmel_tensor_record r)
{
   uint base = slot * SLOT_WORDS;
   out_buf.o[base + 0] = r.address.x;
   out_buf.o[base + 1] = r.address.y;
   out_buf.o[base + 2] = r.rank;
   out_buf.o[base + 3] = r.element_size;
   uint total = 1;
   for (uint i = 0; i < VMEL_TENSOR_MAX_RANK; i++) {
      out_buf.o[base + 4 + i] = r.dims[i];
      out_buf.o[base + 10 + i] = r.strides[i];
      total *= r.dims[i];
   }
   for (uint n = 0; n < DATA_WORDS; n++) {
      uint value = 0xdeadbeefu;
      if (n < total && r.rank >= 1 && r.rank <= VMEL_TENSOR_MAX_RANK) {
         /* Row-major coordinates of element n: address + sum(coord[i] * strides[i]). */
         uint rem = n;
         uint offset = 0;
         for (int i = int(r.rank) - 1; i >= 0; i--) {
            offset += (rem % r.dims[i]) * r.strides[i];
            rem /= r.dims[i];
         }
         uint carry;
         uvec2 address;
         address.x = uaddCarry(r.address.x, offset, carry);
         address.y = r.address.y + carry;
         value = Word(address).v;
      }
      out_buf.o[base + 16 + n] = value;
   }
}

void
main()
{
   dump(0, t_array[0].r);
   dump(1, t_array[1].r);
   dump(2, t_array[2].r);
   dump(3, t_next.r);
   dump(4, t_copy.r);
}
