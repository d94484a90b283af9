/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-optest-rows FILE...: every type-support row the operator declarations
 * (graph/ops/tosa_ops.def) give an operator must be run by a valid test of the .optest files.
 * Each valid test's module is decoded with the graph layer's own decoder (dg_core, no Vulkan),
 * which says which declared row each node matched; a row no test matched, or an operator with
 * no test at all, fails the check. So a row added to a declaration without test data, or an
 * operator declared without any, fails CTest (unit.optest_rows) before it reaches a user.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dg_decode.h"
#include "dg_op.h"
#include "optest.h"
#include "ref_format.h"
#include "spirv_text.h"

struct coverage {
   bool *row;  /* [dg_op_row_count()] */
   bool op[DG_OP_COUNT];
   unsigned tests, problems;
};

/* Decodes one valid test's module and marks the rows its nodes matched. */
static void
cover_test(const struct opt_file *f, const struct opt_test *t, struct coverage *cov)
{
   char err[512];
   size_t lines = 0;
   char *text = opt_module_text(f, t, NULL, &lines, err, sizeof(err));
   uint32_t *words = NULL;
   size_t count = 0;
   if (!text || !spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err))) {
      printf("%s: %s: %s\n", f->path, t->name, err);
      cov->problems++;
      free(text);
      return;
   }
   VkDataGraphPipelineResourceInfoARM res[2 * OPT_MAX_TENSORS];
   VkTensorDescriptionARM descs[2 * OPT_MAX_TENSORS + OPT_MAX_TENSORS];
   VkDataGraphPipelineConstantARM consts[OPT_MAX_TENSORS];
   struct ref_tensor *data[OPT_MAX_TENSORS] = {0};
   uint32_t n = t->input_count + t->output_count;
   for (uint32_t i = 0; i < n; i++) {
      const struct opt_tensor *d = i < t->input_count ? &t->inputs[i]
                                                      : &t->outputs[i - t->input_count];
      descs[i] = (VkTensorDescriptionARM){
          .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
          .tiling = VK_TENSOR_TILING_LINEAR_ARM,
          .format = ref_dtype_format(d->dtype, d->is_unsigned),
          .dimensionCount = d->rank,
          .pDimensions = d->shape,
          .pStrides = d->strided ? d->strides : NULL,
          .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM,
      };
      res[i] = (VkDataGraphPipelineResourceInfoARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
          .pNext = &descs[i],
          .descriptorSet = 0,
          .binding = i,
      };
   }
   bool made = true;
   for (uint32_t i = 0; i < t->constant_count; i++) {
      const struct opt_tensor *c = &t->constants[i];
      data[i] = opt_make_tensor(c, t->seed, OPT_MAX_TENSORS + i);
      made = made && data[i];
      descs[n + i] = (VkTensorDescriptionARM){
          .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
          .tiling = VK_TENSOR_TILING_LINEAR_ARM,
          .format = ref_dtype_format(c->dtype, c->is_unsigned),
          .dimensionCount = c->rank,
          .pDimensions = c->shape,
          .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM,
      };
      consts[i] = (VkDataGraphPipelineConstantARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
          .pNext = &descs[n + i],
          .id = i,
          .pConstantData = data[i] ? data[i]->data : NULL,
      };
   }
   struct dg_decode_info info = {
       .code = words,
       .code_words = count,
       .entry_point = "main",
       .resource_infos = res,
       .resource_info_count = n,
       .constants = consts,
       .constant_count = t->constant_count,
   };
   struct dg_graph *g = NULL;
   struct dg_diag diag = {0};
   if (!made) {
      printf("%s: %s: out of memory\n", f->path, t->name);
      cov->problems++;
   } else if (dg_graph_decode(&info, NULL, &g, &diag) != VK_SUCCESS) {
      printf("%s: %s: a valid test the decoder rejects: %s\n", f->path, t->name, diag.message);
      cov->problems++;
   } else {
      for (uint32_t k = 0; k < g->node_count; k++) {
         cov->row[g->nodes[k].row] = true;
         cov->op[g->nodes[k].op] = true;
      }
      cov->tests++;
   }
   dg_graph_destroy(g);
   for (uint32_t i = 0; i < t->constant_count; i++)
      ref_tensor_destroy(data[i]);
   free(words);
   free(text);
}

int
main(int argc, char **argv)
{
   struct coverage cov = {.row = calloc(dg_op_row_count() + 1, sizeof(bool))};
   if (!cov.row)
      return 2;
   for (int a = 1; a < argc; a++) {
      struct opt_file f;
      char err[512];
      if (!opt_parse_file(argv[a], &f, err, sizeof(err))) {
         printf("%s\n", err);
         cov.problems++;
         continue;
      }
      for (size_t i = 0; i < f.count; i++) {
         if (f.tests[i].expect != OPT_EXPECT_INVALID)
            cover_test(&f, &f.tests[i], &cov);
      }
      opt_file_finish(&f);
   }
   unsigned uncovered = 0;
   for (uint32_t o = 0; o < DG_OP_COUNT; o++) {
      const struct dg_op_info *op = dg_op_get((enum dg_op)o);
      if (!cov.op[o]) {
         printf("%s: no valid .optest test\n", op->name);
         uncovered++;
         continue;
      }
      for (uint32_t r = 0; r < op->row_count; r++) {
         if (cov.row[op->first_row + r])
            continue;
         printf("%s: declared row %u has no valid .optest test:", op->name, r);
         for (uint32_t c = 0; c < op->col_count; c++) {
            uint8_t v = op->rows[r].col[c];
            if (v & 0x80u)
               printf(" %s=acc%u", op->col_names[c], v & 0x7fu);
            else
               printf(" %s=%s", op->col_names[c], dg_type_name((enum dg_type)v));
         }
         printf("\n");
         uncovered++;
      }
   }
   printf("optest rows: %u valid tests decoded, %u declared rows, %u uncovered, %u problems\n",
          cov.tests, dg_op_row_count(), uncovered, cov.problems);
   free(cov.row);
   return uncovered || cov.problems ? 1 : 0;
}
