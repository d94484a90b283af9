/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The contract between every graph kernel (the .comp files of shaders/graph/tosa/) and the
 * graph layer's stage builder (graph/dg_stage.c). Valid C and GLSL.
 *
 * Tensors. A kernel reads and writes tensors through tensor records
 * (kernel_abi/tensor_record.h) bound as read-only storage buffers. Kernel
 * tensor k (inputs first, in TOSA order, then outputs; each op's header
 * comment lists them) is declared at set 0, binding k, as an array of records
 * whose length is specialization constant VMEL_SC_TENSOR_COUNT(k) and which is
 * indexed by VMEL_SC_TENSOR_INDEX(k). The stage builder rewrites the
 * DescriptorSet/Binding decorations of each tensor variable in the compiled
 * SPIR-V to the set and binding the tensor really lives at (the
 * application's descriptor sets for graph inputs and outputs, the layer's
 * internal set for intermediates and constants), and sets the two constants
 * from the descriptor count and array element. No push constants: the
 * kernels' pipeline layouts must stay compatible with the application's.
 *
 * Work. Kernels are dispatched as a 2D grid of 1D workgroups of
 * VMEL_SC_LOCAL_SIZE_X invocations (VMEL_GRAPH_LOCAL_SIZE unless the variant's
 * declaration says otherwise; more than maxComputeWorkGroupCount[0]
 * workgroups fit); invocation vmel_work_index() handles work item i when
 * i < VMEL_SC_WORK_COUNT. What a work item is (one output element, one output
 * row...) is the op's choice, stated in its header comment.
 *
 * Attributes. Op attributes are specialization constants with ids from
 * VMEL_SC_ATTR(0) upward; each op's struct of attributes below lists them in
 * id order (all 32-bit), so the host fills VkSpecializationInfo from the struct.
 */
#ifndef VMEL_GRAPH_KERNEL_H
#define VMEL_GRAPH_KERNEL_H

#define VMEL_GRAPH_LOCAL_SIZE 64
#define VMEL_GRAPH_MAX_TENSORS 8 /* per kernel; CONCAT with more inputs runs in steps */

/* Specialization-constant ids. */
#define VMEL_SC_WORK_COUNT 0
#define VMEL_SC_LOCAL_SIZE_X 1 /* the variant's workgroup size (its declaration) */
#define VMEL_SC_TENSOR_COUNT(k) (16 + (k))
#define VMEL_SC_TENSOR_INDEX(k) (32 + (k))
#define VMEL_SC_ATTR(i) (48 + (i))
/*
 * Kernel tensor k's shape, known when the graph pipeline is created: field i
 * of VMEL_SC_SHAPE(k, i) is VMEL_SHAPE_KNOWN (bit VMEL_SHAPE_DIMS: rank and
 * dims below replace the record's; bit VMEL_SHAPE_STRIDES: strides below
 * replace the record's), VMEL_SHAPE_RANK, VMEL_SHAPE_DIM(d) and
 * VMEL_SHAPE_STRIDE(d) (bytes). Unset, a kernel reads the record. The graph
 * layer sets dims for every tensor and strides for the tensors it owns
 * (intermediates, constants: packed); an application's tensor is read for
 * its address and strides only.
 */
#define VMEL_SC_SHAPE(k, i) (64 + 16 * (k) + (i))
#define VMEL_SHAPE_KNOWN 0
#define VMEL_SHAPE_RANK 1
#define VMEL_SHAPE_DIM(d) (2 + (d))
#define VMEL_SHAPE_STRIDE(d) (8 + (d))
#define VMEL_SHAPE_DIMS 1u
#define VMEL_SHAPE_STRIDES 2u

#endif /* VMEL_GRAPH_KERNEL_H */
