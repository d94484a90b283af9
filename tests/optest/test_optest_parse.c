/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The .optest parser without Vulkan: a good file parses to what it says (tests, tensors,
 * generators, literal values as bits, strides, expectations, tolerances, requirements, the
 * prelude), its [graph] becomes a module that assembles and that the graph-level reference
 * evaluates, generated data is deterministic; malformed files fail with a message naming the
 * line; every committed data file parses.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"
#include "ref_graph.h"
#include "spirv_text.h"
#include "test.h"

TEST_MAIN_STATE;

static const char good[] = "# A comment\n"
                           "[prelude]\n"
                           "%two = OpConstant %i32 2\n"
                           "\n"
                           "[test add.first]\n"
                           "require: PRO-INT shaderInt16\n"
                           "seed: 7\n"
                           "input 0: i32 2x3 uniform -5 5 strides 16 4\n"
                           "input 1: i32 1x3 values 1 -2 0x10\n"
                           "constant 0: u8 4 seq 250 2\n"
                           "output 0: i32 2x3 strides 32 4\n"
                           "expect: reference\n"
                           "tolerance: exact\n"
                           "[graph]\n"
                           "%out0 = OpExtInst %t_i32_2x3 %tosa ADD %in0 %in1\n"
                           "\n"
                           "[test fp.literal]\n"
                           "input 0: fp16 4 values 1.5 -inf nan 0x3c00\n"
                           "input 1: bf16 2 specials 2\n"
                           "input 2: fp32 3 uniform -1 3\n"
                           "output 0: fp16 4\n"
                           "output 1: fp16 4\n"
                           "expect 0: values 1 2 3 max\n"
                           "expect 1: values -0 min 0.5 -max\n"
                           "tolerance: ulp 0.5\n"
                           "[module]\n"
                           "; anything\n"
                           "[test inv]\n"
                           "input 0: bool 3 bits\n"
                           "output 0: bool 3\n"
                           "expect: invalid\n"
                           "[graph]\n"
                           "%out0 = OpExtInst %t_bool_3 %tosa 66 %i32_0 %in0\n";

static void
test_good(void)
{
   struct opt_file f;
   char err[512];
   bool parsed = opt_parse("good.optest", good, strlen(good), &f, err, sizeof(err));
   if (!ok(parsed, "good file: %s", err))
      return;
   ok(f.count == 3, "3 tests, got %zu", f.count);
   ok(f.prelude && strstr(f.prelude, "%two = OpConstant %i32 2"), "prelude kept");
   ok(f.prelude_line == 3, "prelude from line 3, got %u", f.prelude_line);

   const struct opt_test *t = &f.tests[0];
   ok(strcmp(t->name, "add.first") == 0 && t->line == 5, "name and line");
   ok(t->require_count == 2 && strcmp(t->requires[0], "PRO-INT") == 0 &&
          strcmp(t->requires[1], "shaderInt16") == 0,
      "requires");
   ok(t->seed == 7, "seed");
   ok(t->input_count == 2 && t->constant_count == 1 && t->output_count == 1, "counts");
   const struct opt_tensor *in0 = &t->inputs[0];
   ok(in0->dtype == REF_DTYPE_I32 && in0->rank == 2 && in0->shape[0] == 2 && in0->shape[1] == 3 &&
          in0->count == 6,
      "input 0 type and shape");
   ok(in0->gen == OPT_GEN_UNIFORM && in0->has_range && in0->lo == -5 && in0->hi == 5,
      "input 0 uniform -5 5");
   ok(in0->strided && in0->strides[0] == 16 && in0->strides[1] == 4, "input 0 strides");
   const struct opt_tensor *in1 = &t->inputs[1];
   ok(in1->gen == OPT_GEN_VALUES && in1->bits[0] == 1 && in1->bits[1] == 0xfffffffeu &&
          in1->bits[2] == 16,
      "input 1 values as i32 bits");
   const struct opt_tensor *c0 = &t->constants[0];
   ok(c0->dtype == REF_DTYPE_I8 && c0->is_unsigned && c0->gen == OPT_GEN_SEQ, "u8 seq");
   ok(t->outputs[0].strided && t->outputs[0].strides[0] == 32, "output strides");
   ok(t->expect == OPT_EXPECT_REFERENCE && t->tol == OPT_TOL_EXACT, "expect and tolerance");
   ok(!t->full_module && t->text && strstr(t->text, "ADD %in0 %in1") && t->text_line == 15,
      "graph text from line 15 (%u)", t->text_line);

   t = &f.tests[1];
   const struct opt_tensor *v = &t->inputs[0];
   ok(v->dtype == REF_DTYPE_FP16 && v->bits[0] == 0x3e00 && v->bits[1] == 0xfc00 &&
          (v->bits[2] & 0x7c00) == 0x7c00 && (v->bits[2] & 0x3ff) && v->bits[3] == 0x3c00,
      "fp16 values: 1.5 -inf nan and a bit pattern");
   ok(t->inputs[1].gen == OPT_GEN_SPECIALS && t->inputs[1].lo == -2 && t->inputs[1].hi == 2,
      "specials 2 is [-2, 2]");
   ok(t->inputs[2].lo == -1 && t->inputs[2].hi == 3, "float uniform lo hi");
   ok(t->expect == OPT_EXPECT_VALUES && t->expected[0].present && t->expected[1].present,
      "literal values per output");
   ok(t->expected[0].values[3] == 65504.0 && t->expected[1].bits[0] == 0x8000 &&
          t->expected[1].values[1] == ldexp(1.0, -14) && t->expected[1].values[3] == -65504.0,
      "max, -0, min, -max");
   ok(t->tol == OPT_TOL_ULP && t->ulp == 0.5, "ulp 0.5");
   ok(t->full_module, "[module]");

   t = &f.tests[2];
   ok(t->expect == OPT_EXPECT_INVALID && t->inputs[0].gen == OPT_GEN_BITS, "invalid, bits");

   /* The module of the first test: declarations written, it assembles, the reference runs. */
   unsigned *map = NULL;
   size_t lines = 0;
   char *text = opt_module_text(&f, &f.tests[0], &map, &lines, err, sizeof(err));
   if (ok(text != NULL, "module text: %s", err)) {
      ok(strstr(text, "%t_i32_2x3 = OpTypeTensorARM %i32 %i32_2 %sh_2x3") != NULL,
         "tensor type declared");
      ok(strstr(text, "%const0 = OpGraphConstantARM %t_i8_4 0") != NULL, "graph constant");
      ok(strstr(text, "OpDecorate %var_out0 Binding 2") != NULL, "output binding after inputs");
      bool found = false;
      for (size_t i = 0; i < lines; i++)
         found |= map[i] == 15;
      ok(found, "a module line maps to file line 15");
      uint32_t *words = NULL;
      size_t count = 0;
      if (ok(spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err)),
             "assembles: %s", err)) {
         struct ref_tensor *a = opt_make_tensor(&f.tests[0].inputs[0], 7, 0);
         struct ref_tensor *b = opt_make_tensor(&f.tests[0].inputs[1], 7, 1);
         struct ref_tensor *c = opt_make_tensor(&f.tests[0].constants[0], 7, 8);
         const struct ref_tensor *ins[2] = {a, b};
         struct ref_graph_constant k = {0, c};
         struct ref_graph_result res;
         int st = ref_graph_eval(words, count, "main", ins, 2, &k, 1, &res);
         ok(st == TOSA_REF_OK, "reference: %s", res.message);
         if (st == TOSA_REF_OK) {
            bool sums = true;
            for (int64_t i = 0; i < 6; i++)
               sums &= ref_tensor_get_int(res.outputs[0].value, i) ==
                       ref_tensor_get_int(a, i) + ref_tensor_get_int(b, i % 3);
            ok(sums, "ADD with broadcasting");
            ok(res.outputs[0].tol.kind == TOSA_REF_TOL_EXACT, "exact for i32 ADD");
         }
         ok(ref_tensor_get_bits(c, 0) == 250 && ref_tensor_get_bits(c, 3) == 0, "u8 seq wraps");
         ref_graph_result_finish(&res);
         ref_tensor_destroy(a);
         ref_tensor_destroy(b);
         ref_tensor_destroy(c);
      }
      free(words);
   }
   free(text);
   free(map);

   /* The third test's instruction 66, one past TOSA.001000.1's last: the reference has none,
    * and says so (every instruction of the set has a reference). */
   text = opt_module_text(&f, &f.tests[2], NULL, NULL, err, sizeof(err));
   uint32_t *words = NULL;
   size_t count = 0;
   if (ok(text && spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err)),
          "instruction 66 module: %s", err)) {
      struct ref_tensor *a = opt_make_tensor(&f.tests[2].inputs[0], 1, 0);
      const struct ref_tensor *ins[1] = {a};
      struct ref_graph_result res;
      int st = ref_graph_eval(words, count, NULL, ins, 1, NULL, 0, &res);
      ok(st == TOSA_REF_UNSUPPORTED && strstr(res.message, "has no instruction 66"),
         "unknown operator: %s", res.message);
      ref_graph_result_finish(&res);
      ref_tensor_destroy(a);
   }
   free(words);
   free(text);
   opt_file_finish(&f);
}

static void
test_generators(void)
{
   struct opt_tensor d = {.present = true,
                          .dtype = REF_DTYPE_FP32,
                          .rank = 1,
                          .shape = {64},
                          .count = 64,
                          .gen = OPT_GEN_SPECIALS,
                          .has_range = true,
                          .lo = -3,
                          .hi = 3};
   struct ref_tensor *a = opt_make_tensor(&d, 5, 0), *b = opt_make_tensor(&d, 5, 0);
   struct ref_tensor *c = opt_make_tensor(&d, 5, 1);
   if (!ok(a && b && c, "tensors"))
      goto done;
   ok(memcmp(a->data, b->data, 64 * 4) == 0, "same seed and slot, same data");
   ok(memcmp(a->data, c->data, 64 * 4) != 0, "another slot, other data");
   bool nan = false, inf = false, negzero = false, sub = false, in_range = true;
   for (int64_t i = 0; i < 64; i++) {
      double v = ref_tensor_get_fp(a, i);
      nan |= isnan(v);
      inf |= isinf(v);
      negzero |= v == 0 && signbit(v);
      sub |= v != 0 && fabs(v) < ref_dtype_normal_min(REF_DTYPE_FP32);
      in_range &=
          isnan(v) || isinf(v) || fabs(v) <= 3 || fabs(v) == ref_dtype_normal_max(REF_DTYPE_FP32);
   }
   ok(nan && inf && negzero && sub, "specials: NaN, inf, -0, subnormals");
   ok(in_range, "the rest within [-3, 3]");
done:
   ref_tensor_destroy(a);
   ref_tensor_destroy(b);
   ref_tensor_destroy(c);
}

/* allbits: element i is bit pattern i, wrapping at the type's width. */
static void
test_allbits(void)
{
   struct opt_tensor d = {.present = true,
                          .dtype = REF_DTYPE_FP8E4M3,
                          .rank = 1,
                          .shape = {300},
                          .count = 300,
                          .gen = OPT_GEN_ALLBITS};
   struct ref_tensor *a = opt_make_tensor(&d, 3, 0);
   if (!ok(a != NULL, "allbits tensor"))
      return;
   bool in_order = true;
   for (int64_t i = 0; i < 300; i++)
      in_order &= ref_tensor_get_bits(a, i) == (uint64_t)(i & 0xff);
   ok(in_order, "allbits: every fp8 pattern in order, wrapping after 255");
   ref_tensor_destroy(a);
}

static void
expect_error(const char *text, const char *where, const char *what)
{
   struct opt_file f;
   char err[512];
   bool parsed = opt_parse("bad.optest", text, strlen(text), &f, err, sizeof(err));
   if (!ok(!parsed, "'%s' must not parse", what)) {
      opt_file_finish(&f);
      return;
   }
   ok(strncmp(err, where, strlen(where)) == 0, "%s: message '%s' should start with '%s'", what, err,
      where);
   ok(strstr(err, what) != NULL, "message '%s' should say '%s'", err, what);
   ok(f.count == 0 && f.tests == NULL, "nothing left to free");
}

#define HEAD "[test t]\ninput 0: i32 2 uniform -1 1\noutput 0: i32 2\n"
#define GRAPH "[graph]\n%out0 = OpExtInst %t_i32_2 %tosa ADD %in0 %in0\n"

static void
test_errors(void)
{
   expect_error(HEAD GRAPH "[tset x]\n", "bad.optest:6:", "unknown section [tset]");
   expect_error("[test t]\ninput 0: i31 2 uniform -1 1\n",
                "bad.optest:2:", "unknown element type 'i31'");
   expect_error("[test t]\ninput 0: i32 3 values 1 2\n",
                "bad.optest:2:", "2 values for 3 elements");
   expect_error(HEAD "expect: values 1 2 3\n" GRAPH, "bad.optest:4:", "3 values for 2 elements");
   expect_error("[test t]\ninput 0: i8 2 values 1 300\n",
                "bad.optest:2:", "300 is outside the range of i8");
   expect_error(HEAD "colour: red\n" GRAPH, "bad.optest:4:", "unknown directive 'colour'");
   expect_error("[test t]\ninput 0: fp32 2 gaussian 1\n",
                "bad.optest:2:", "unknown generator 'gaussian'");
   expect_error("[test t]\ninput 0: i32 2x0 bits\n", "bad.optest:2:", "bad shape '2x0'");
   expect_error("[test t]\ninput 0: i32 2x3 bits strides 12\n",
                "bad.optest:2:", "1 strides for rank 2");
   expect_error(HEAD, "bad.optest:1:", "has no [graph] or [module]");
   expect_error(HEAD "require: shaderFloat17\n" GRAPH,
                "bad.optest:4:", "unknown feature 'shaderFloat17'");
   expect_error(HEAD GRAPH HEAD GRAPH, "bad.optest:6:", "test 't' defined twice");
   expect_error("[test t]\ninput 1: i32 2 bits\noutput 0: i32 2\n" GRAPH,
                "bad.optest:1:", "input 0 is missing");
   expect_error("input 0: i32 2 bits\n", "bad.optest:1:", "before the first [test NAME]");
   expect_error(HEAD "tolerance: ulp\n" GRAPH, "bad.optest:4:", "ulp takes one number");
   expect_error(HEAD "expect: values 1 2\ntolerance: dot_product\n" GRAPH,
                "bad.optest:1:", "dot_product and rescale_range need 'expect: reference'");
   expect_error("[test t]\ninput 0: fp16 1 values 0x10000\n",
                "bad.optest:2:", "bit pattern 0x10000 does not fit fp16");
   expect_error("", "bad.optest:1:", "no [test NAME]");
}

/* Every committed data file parses and every [graph] assembles. */
static void
test_data_files(void)
{
   DIR *dir = opendir(VMEL_OPTEST_DATA_DIR);
   if (!ok(dir != NULL, "open %s", VMEL_OPTEST_DATA_DIR))
      return;
   unsigned files = 0;
   for (struct dirent *e; (e = readdir(dir)) != NULL;) {
      size_t len = strlen(e->d_name);
      if (len < 8 || strcmp(e->d_name + len - 7, ".optest") != 0)
         continue;
      char path[1024], err[768];
      snprintf(path, sizeof(path), "%s/%s", VMEL_OPTEST_DATA_DIR, e->d_name);
      struct opt_file f;
      files++;
      if (!ok(opt_parse_file(path, &f, err, sizeof(err)), "%s", err))
         continue;
      for (size_t i = 0; i < f.count; i++) {
         char *text = opt_module_text(&f, &f.tests[i], NULL, NULL, err, sizeof(err));
         uint32_t *words = NULL;
         size_t count = 0;
         ok(text && spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err)),
            "%s: %s: %s", path, f.tests[i].name, err);
         free(words);
         free(text);
      }
      opt_file_finish(&f);
   }
   closedir(dir);
   ok(files >= 10, "%u data files", files);
}

/* ref_graph_eval() on what it cannot evaluate: a clear message, never a crash. */
static void
test_reference_errors(void)
{
   static const uint32_t junk[] = {0x12345678, 0, 0, 4, 0};
   struct ref_graph_result res;
   int st = ref_graph_eval(junk, 5, NULL, NULL, 0, NULL, 0, &res);
   ok(st == TOSA_REF_BAD_ARGUMENT && strstr(res.message, "not a SPIR-V module"), "junk: %s",
      res.message);
   ref_graph_result_finish(&res);

   static const char text[] = "[test t]\n"
                              "input 0: i8 4 uniform\n"
                              "constant 0: i8 4 uniform\n"
                              "output 0: i32 4\n"
                              "[graph]\n"
                              "%s = OpConstantComposite %t_i8_1 %i8_0\n"
                              "%m = OpExtInst %t_i32_4 %tosa MUL %in0 %const0 %s\n"
                              "%out0 = OpExtInst %t_i32_4 %tosa ADD %m %m\n";
   struct opt_file f;
   char err[512];
   if (!ok(opt_parse("chain.optest", text, strlen(text), &f, err, sizeof(err)), "%s", err))
      return;
   char *module = opt_module_text(&f, &f.tests[0], NULL, NULL, err, sizeof(err));
   uint32_t *words = NULL;
   size_t count = 0;
   if (ok(module && spirv_text_assemble(module, strlen(module), &words, &count, err, sizeof(err)),
          "chain module: %s", err)) {
      struct ref_tensor *a = opt_make_tensor(&f.tests[0].inputs[0], 1, 0);
      struct ref_tensor *c = opt_make_tensor(&f.tests[0].constants[0], 1, 8);
      const struct ref_tensor *ins[1] = {a};
      struct ref_graph_constant k = {0, c};
      st = ref_graph_eval(words, count, "main", ins, 1, NULL, 0, &res);
      ok(st == TOSA_REF_BAD_ARGUMENT && strstr(res.message, "graph constant 0: no data"),
         "missing constant: %s", res.message);
      ref_graph_result_finish(&res);
      st = ref_graph_eval(words, count, "main", ins, 0, &k, 1, &res);
      ok(st == TOSA_REF_BAD_ARGUMENT && strstr(res.message, "graph input 0: no data"),
         "missing input: %s", res.message);
      ref_graph_result_finish(&res);
      st = ref_graph_eval(words, count, "other", ins, 1, &k, 1, &res);
      ok(st == TOSA_REF_BAD_ARGUMENT && strstr(res.message, "no graph for entry point other"),
         "unknown entry point: %s", res.message);
      ref_graph_result_finish(&res);
      st = ref_graph_eval(words, count, "main", ins, 1, &k, 1, &res);
      ok(st == TOSA_REF_OK && res.operator_count == 2, "two operators: %s", res.message);
      bool chain = st == TOSA_REF_OK;
      for (int64_t i = 0; chain && i < 4; i++)
         chain = ref_tensor_get_int(res.outputs[0].value, i) ==
                 2 * ref_tensor_get_int(a, i) * ref_tensor_get_int(c, i);
      ok(chain, "MUL then ADD");
      ref_graph_result_finish(&res);
      ref_tensor_destroy(a);
      ref_tensor_destroy(c);
   }
   free(words);
   free(module);
   opt_file_finish(&f);
}

int
main(void)
{
   test_reference_errors();
   test_good();
   test_generators();
   test_allbits();
   test_errors();
   test_data_files();
   return test_done();
}
