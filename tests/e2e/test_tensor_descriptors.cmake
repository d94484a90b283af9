# SPDX-License-Identifier: MIT
# e2e.test_tensor_descriptors and its kernel (a plain compute shader reading the
# tensor ABI records), embedded with cmake/EmbedKernels.cmake in its own group.
vmel_kernel(test_descriptors tensor_descriptors tensor_descriptors.comp)
vmel_kernel_library(vmel_kernels_test_descriptors GROUP test_descriptors
                    PREFIX test_descriptors_kernel)
vmel_add_e2e_test(test_tensor_descriptors SOURCES test_tensor_descriptors.c
                  LIBS vmel_kernels_test_descriptors)
