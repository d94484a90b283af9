/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the SPIR-V text assembler and disassembler (tools/asm): exact
 * words for small instructions, ARM opcodes and operands, TOSA / Motion Engine
 * / Graph DebugInfo / GLSL OpExtInst, literals of every supported type, id
 * numbering and header directives, error messages with line numbers, the
 * example modules of tests/data/spirv through the reader (layers/spirv) and
 * through disassemble/assemble round trips, the disassembler's losslessness
 * on corrupted modules, the generated grammar against the reader's opcode
 * table, and, where the system tools exist, identical output to spirv-as.
 */
#include <unistd.h>

#include "test.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "spirv_grammar.h"
#include "spirv_text.h"

enum {
   OP_EXT_INST_IMPORT = 11,
   OP_EXT_INST = 12,
   OP_CAPABILITY = 17,
   OP_CONSTANT = 43,
   OP_SPEC_CONSTANT_OP = 52,
   OP_VARIABLE = 59,
   OP_SWITCH = 251,
};

/* ---- helpers --------------------------------------------------------------------- */

static uint32_t *
assemble(const char *text, size_t *count)
{
   uint32_t *words = NULL;
   char err[256];
   if (!spirv_text_assemble(text, strlen(text), &words, count, err, sizeof(err))) {
      ok(0, "assembly failed: %s\n--- text:\n%s", err, text);
      return NULL;
   }
   return words;
}

/* Expects assembly to fail with a message containing `expect`. */
static void
assemble_fails(const char *text, const char *expect)
{
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256] = "";
   bool res = spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err));
   ok(!res, "assembly of \"%s\" should fail", text);
   ok(strstr(err, expect) != NULL, "error \"%s\" should contain \"%s\"", err, expect);
   ok(words == NULL && count == 0, "no output on failure");
   free(words);
}

/* Offset of the n-th (0-based) instruction with this opcode, or 0. */
static size_t
find_inst(const uint32_t *w, size_t count, uint32_t opcode, unsigned n)
{
   for (size_t off = 5; off < count && (w[off] >> 16); off += w[off] >> 16) {
      if ((w[off] & 0xffffu) == opcode && n-- == 0)
         return off;
   }
   return 0;
}

/* Checks that the instruction at `off` is exactly `expect[0..n)`. */
static void
check_inst(const uint32_t *w, size_t count, size_t off, const uint32_t *expect, unsigned n,
           const char *what)
{
   test_set_context(what);
   ok(off != 0 && off + n <= count, "instruction present");
   if (off && off + n <= count) {
      for (unsigned i = 0; i < n; i++)
         ok(w[off + i] == expect[i], "word %u: 0x%08x, expected 0x%08x", i, w[off + i], expect[i]);
   }
   test_set_context(NULL);
}

static char *
read_text_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *data = NULL;
   if (fseek(f, 0, SEEK_END) == 0) {
      long n = ftell(f);
      if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
         data = malloc((size_t)n + 1);
         if (data && fread(data, 1, (size_t)n, f) == (size_t)n) {
            data[n] = '\0';
            *size = (size_t)n;
         } else {
            free(data);
            data = NULL;
         }
      }
   }
   fclose(f);
   return data;
}

/* tests/data/spirv/<name>, found from this file's path. */
static char *
read_example(const char *name, size_t *size)
{
   char path[1024];
   const char *file = __FILE__;
   const char *slash = strrchr(file, '/');
   size_t dir = slash ? (size_t)(slash - file) : 0;
   snprintf(path, sizeof(path), "%.*s%s../data/spirv/%s", (int)dir, file, dir ? "/" : "", name);
   char *text = read_text_file(path, size);
   ok(text != NULL, "example %s readable", path);
   return text;
}

/* ---- exact words ----------------------------------------------------------------- */

static void
test_exact_words(void)
{
   size_t n;
   uint32_t *w = assemble("OpCapability TensorsARM\n", &n);
   static const uint32_t expect[] = {0x07230203, 0x00010600, 0, 1, 0, 0x00020011, 4174};
   ok(w && n == 7, "7 words");
   if (w && n == 7)
      ok(memcmp(w, expect, sizeof(expect)) == 0, "OpCapability TensorsARM words");
   free(w);

   /* The raw form of the same instruction. */
   w = assemble("!0x00020011 4174\n", &n);
   ok(w && n == 7 && memcmp(w, expect, sizeof(expect)) == 0, "raw instruction");
   free(w);
   w = assemble("!0x00020011 !0x104e ; comment\n", &n);
   ok(w && n == 7 && memcmp(w, expect, sizeof(expect)) == 0, "raw words");
   free(w);

   /* Capabilities and opcodes the system grammar lacks. */
   static const char *const caps[] = {"GraphARM", "StorageTensorArrayDynamicIndexingARM",
                                      "BFloat16TypeKHR", "Float8EXT", "ReplicatedCompositesEXT"};
   static const uint32_t cap_values[] = {4191, 4175, 5116, 4212, 6024};
   for (unsigned i = 0; i < 5; i++) {
      char text[128];
      snprintf(text, sizeof(text), "OpCapability %s", caps[i]);
      w = assemble(text, &n);
      ok(w && n == 7 && w[6] == cap_values[i], "%s = %u", caps[i], cap_values[i]);
      free(w);
   }

   const char *text = "%f = OpTypeFloat 16 BFloat16KHR\n"
                      "%g = OpTypeFloat 8 Float8E4M3EXT\n"
                      "%h = OpTypeFloat 8 Float8E5M2EXT\n"
                      "%i = OpTypeFloat 32\n"
                      "%u = OpTypeInt 32 0\n"
                      "%one = OpConstant %u 1\n"
                      "%t = OpTypeTensorARM %i %one\n"
                      "%t2 = OpTypeTensorARM %i\n"
                      "%gt = OpTypeGraphARM 1 %t %t\n"
                      "%gc = OpGraphConstantARM %t 7\n"
                      "OpGraphEntryPointARM %g1 \"main\" %v1 %v2\n"
                      "%g1 = OpGraphARM %gt\n"
                      "%in = OpGraphInputARM %t %one\n"
                      "%in2 = OpGraphInputARM %t %one %one\n"
                      "OpGraphSetOutputARM %in %one\n"
                      "OpGraphEndARM\n"
                      "%p = OpTypePointer UniformConstant %t\n"
                      "%v1 = OpVariable %p UniformConstant\n"
                      "%v2 = OpVariable %p UniformConstant\n"
                      "%rep = OpConstantCompositeReplicateEXT %t %one\n";
   w = assemble(text, &n);
   if (w) {
      /* ids: f=1 g=2 h=3 i=4 u=5 one=6 t=7 t2=8 gt=9 gc=10 g1=11 v1=12 v2=13 in=14 in2=15 */
      check_inst(w, n, find_inst(w, n, 22, 0), (uint32_t[]){0x00040016, 1, 16, 0}, 4,
                 "OpTypeFloat 16 BFloat16KHR");
      check_inst(w, n, find_inst(w, n, 22, 1), (uint32_t[]){0x00040016, 2, 8, 4214}, 4,
                 "OpTypeFloat 8 Float8E4M3EXT");
      check_inst(w, n, find_inst(w, n, 22, 2), (uint32_t[]){0x00040016, 3, 8, 4215}, 4,
                 "OpTypeFloat 8 Float8E5M2EXT");
      check_inst(w, n, find_inst(w, n, 22, 3), (uint32_t[]){0x00030016, 4, 32}, 3,
                 "OpTypeFloat 32");
      check_inst(w, n, find_inst(w, n, 4163, 0), (uint32_t[]){4u << 16 | 4163, 7, 4, 6}, 4,
                 "OpTypeTensorARM ranked");
      check_inst(w, n, find_inst(w, n, 4163, 1), (uint32_t[]){3u << 16 | 4163, 8, 4}, 3,
                 "OpTypeTensorARM unranked");
      check_inst(w, n, find_inst(w, n, 4190, 0), (uint32_t[]){5u << 16 | 4190, 9, 1, 7, 7}, 5,
                 "OpTypeGraphARM");
      check_inst(w, n, find_inst(w, n, 4181, 0), (uint32_t[]){4u << 16 | 4181, 7, 10, 7}, 4,
                 "OpGraphConstantARM");
      check_inst(w, n, find_inst(w, n, 4182, 0),
                 (uint32_t[]){6u << 16 | 4182, 11, 0x6e69616d, 0, 12, 13}, 6,
                 "OpGraphEntryPointARM");
      check_inst(w, n, find_inst(w, n, 4183, 0), (uint32_t[]){3u << 16 | 4183, 9, 11}, 3,
                 "OpGraphARM");
      check_inst(w, n, find_inst(w, n, 4184, 0), (uint32_t[]){4u << 16 | 4184, 7, 14, 6}, 4,
                 "OpGraphInputARM");
      check_inst(w, n, find_inst(w, n, 4184, 1), (uint32_t[]){5u << 16 | 4184, 7, 15, 6, 6}, 5,
                 "OpGraphInputARM with an element index");
      check_inst(w, n, find_inst(w, n, 4185, 0), (uint32_t[]){3u << 16 | 4185, 14, 6}, 3,
                 "OpGraphSetOutputARM");
      check_inst(w, n, find_inst(w, n, 4186, 0), (uint32_t[]){1u << 16 | 4186}, 1, "OpGraphEndARM");
      check_inst(w, n, find_inst(w, n, 4461, 0), (uint32_t[]){4u << 16 | 4461, 7, 17, 6}, 4,
                 "OpConstantCompositeReplicateEXT");
   }
   free(w);
}

static void
test_tensor_operands(void)
{
   const char *text = "%f = OpTypeFloat 32\n"
                      "%u = OpTypeInt 32 0\n"
                      "%one = OpConstant %u 1\n"
                      "%zero = OpConstant %f 0\n"
                      "%t = OpTypeTensorARM %f %one\n"
                      "%tv = OpUndef %t\n"
                      "%c = OpUndef %u\n"
                      "%r1 = OpTensorReadARM %f %tv %c\n"
                      "%r2 = OpTensorReadARM %f %tv %c OutOfBoundsValueARM %zero\n"
                      "%r3 = OpTensorReadARM %f %tv %c NontemporalARM|OutOfBoundsValueARM %zero\n"
                      "%r4 = OpTensorReadARM %f %tv %c "
                      "OutOfBoundsValueARM|MakeElementVisibleARM|NonPrivateElementARM %zero %one\n"
                      "OpTensorWriteARM %tv %c %zero\n"
                      "OpTensorWriteARM %tv %c %zero MakeElementAvailableARM|NonPrivateElementARM "
                      "%one\n"
                      "OpTensorWriteARM %tv %c %zero NoneARM\n"
                      "%s = OpTensorQuerySizeARM %u %tv %one\n";
   size_t n;
   uint32_t *w = assemble(text, &n);
   if (!w)
      return;
   /* ids: f=1 u=2 one=3 zero=4 t=5 tv=6 c=7 r1=8 r2=9 r3=10 r4=11 s=12 */
   check_inst(w, n, find_inst(w, n, 4164, 0), (uint32_t[]){5u << 16 | 4164, 1, 8, 6, 7}, 5,
              "read without operands");
   check_inst(w, n, find_inst(w, n, 4164, 1), (uint32_t[]){7u << 16 | 4164, 1, 9, 6, 7, 2, 4}, 7,
              "read OutOfBoundsValueARM");
   check_inst(w, n, find_inst(w, n, 4164, 2), (uint32_t[]){7u << 16 | 4164, 1, 10, 6, 7, 3, 4}, 7,
              "read Nontemporal|OutOfBoundsValue");
   check_inst(w, n, find_inst(w, n, 4164, 3),
              (uint32_t[]){8u << 16 | 4164, 1, 11, 6, 7, 0x1a, 4, 3}, 8,
              "read with two parameters in bit order");
   check_inst(w, n, find_inst(w, n, 4165, 0), (uint32_t[]){4u << 16 | 4165, 6, 7, 4}, 4, "write");
   check_inst(w, n, find_inst(w, n, 4165, 1), (uint32_t[]){6u << 16 | 4165, 6, 7, 4, 0x14, 3}, 6,
              "write MakeElementAvailable|NonPrivateElement");
   check_inst(w, n, find_inst(w, n, 4165, 2), (uint32_t[]){5u << 16 | 4165, 6, 7, 4, 0}, 5,
              "write NoneARM");
   check_inst(w, n, find_inst(w, n, 4166, 0), (uint32_t[]){5u << 16 | 4166, 2, 12, 6, 3}, 5,
              "query size");
   free(w);
}

static void
test_ext_insts(void)
{
   const char *text = "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                      "%me = OpExtInstImport \"Arm.MotionEngine.100\"\n"
                      "%dbg = OpExtInstImport \"NonSemantic.Graph.DebugInfo.1\"\n"
                      "%glsl = OpExtInstImport \"GLSL.std.450\"\n"
                      "%other = OpExtInstImport \"Vendor.Something.2\"\n"
                      "%f = OpTypeFloat 32\n"
                      "%a = OpUndef %f\n"
                      "%clamp = OpExtInst %f %tosa CLAMP %a %a %a %a\n"
                      "%conv = OpExtInst %f %tosa CONV2D %a %a %a %a %a %a %a %a %a %a\n"
                      "%cat = OpExtInst %f %tosa CONCAT %a %a %a %a\n"
                      "%num = OpExtInst %f %tosa 65 %a\n"
                      "%sad = OpExtInst %f %me MIN_SAD_COST %a %a %a %a %a %a %a %a %a\n"
                      "%dg = OpExtInst %f %dbg DebugTensor %a %a\n"
                      "%sq = OpExtInst %f %glsl Sqrt %a\n"
                      "%o = OpExtInst %f %other 7 %a 12 \"s\"\n";
   size_t n;
   uint32_t *w = assemble(text, &n);
   if (!w)
      return;
   /* ids: tosa=1 me=2 dbg=3 glsl=4 other=5 f=6 a=7 clamp=8 conv=9 cat=10 num=11 sad=12 dg=13
    * sq=14 o=15 */
   size_t clamp = find_inst(w, n, OP_EXT_INST, 0);
   check_inst(w, n, clamp, (uint32_t[]){9u << 16 | 12, 6, 8, 1, TOSA_CLAMP, 7, 7, 7, 7}, 9,
              "TOSA CLAMP");
   ok(clamp && (w[clamp] >> 16) == spirv_tosa_inst_word_count(TOSA_CLAMP),
      "CLAMP word count matches the TOSA table");
   size_t conv = find_inst(w, n, OP_EXT_INST, 1);
   ok(conv && (w[conv] >> 16) == 15 && w[conv + 4] == TOSA_CONV2D, "TOSA CONV2D: 15 words");
   size_t cat = find_inst(w, n, OP_EXT_INST, 2);
   ok(cat && (w[cat] >> 16) == 9 && w[cat + 4] == TOSA_CONCAT, "variadic CONCAT");
   size_t num = find_inst(w, n, OP_EXT_INST, 3);
   ok(num && w[num + 4] == TOSA_RESCALE, "instruction by number");
   check_inst(w, n, find_inst(w, n, OP_EXT_INST, 4),
              (uint32_t[]){14u << 16 | 12, 6, 12, 2, SPV_ARM_ME_MIN_SAD_COST}, 5,
              "Motion Engine MIN_SAD_COST");
   check_inst(w, n, find_inst(w, n, OP_EXT_INST, 5),
              (uint32_t[]){7u << 16 | 12, 6, 13, 3, SPV_GRAPH_DEBUG_TENSOR, 7, 7}, 7,
              "DebugTensor");
   check_inst(w, n, find_inst(w, n, OP_EXT_INST, 6), (uint32_t[]){6u << 16 | 12, 6, 14, 4, 31, 7},
              6, "GLSL Sqrt");
   check_inst(w, n, find_inst(w, n, OP_EXT_INST, 7),
              (uint32_t[]){8u << 16 | 12, 6, 15, 5, 7, 7, 12, 's'}, 8,
              "unknown set: generic operands");

   /* Names come back in the disassembly. */
   char *dis = NULL;
   char err[256];
   ok(spirv_text_disassemble(w, n, &dis, NULL, err, sizeof(err)), "disassembles: %s", err);
   if (dis) {
      static const char *const expect[] = {
          "%8 = OpExtInst %6 %1 CLAMP %7 %7 %7 %7\n",
          " CONV2D ",
          " CONCAT ",
          " RESCALE %7",
          " MIN_SAD_COST ",
          " DebugTensor ",
          " Sqrt ",
          "%5 7 %7 %12 115\n",
      };
      for (unsigned i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
         ok(strstr(dis, expect[i]) != NULL, "disassembly contains \"%s\"", expect[i]);
   }
   free(dis);
   free(w);
}

/* ---- literals ------------------------------------------------------------------------- */

/* Assembles "<type>\n%c = OpConstant %t <literal>" and returns the literal words. */
static bool
const_words(const char *type, const char *literal, uint32_t *out, unsigned *nwords, char *err,
            size_t err_len)
{
   char text[256];
   snprintf(text, sizeof(text), "%%t = %s\n%%c = OpConstant %%t %s\n", type, literal);
   uint32_t *w;
   size_t n;
   if (!spirv_text_assemble(text, strlen(text), &w, &n, err, err_len))
      return false;
   size_t off = find_inst(w, n, OP_CONSTANT, 0);
   *nwords = off ? (w[off] >> 16) - 3 : 0;
   for (unsigned i = 0; i < *nwords && i < 2; i++)
      out[i] = w[off + 3 + i];
   free(w);
   return true;
}

struct literal_case {
   const char *type;
   const char *literal;
   unsigned nwords; /* 0: must fail */
   uint32_t w[2];
};

static void
test_literals(void)
{
   static const struct literal_case cases[] = {
       {"OpTypeFloat 32", "-1.5", 1, {0xbfc00000}},
       {"OpTypeFloat 32", "1", 1, {0x3f800000}},
       {"OpTypeFloat 32", "0x1.8p+128", 1, {0x7fc00000}},
       {"OpTypeFloat 32", "-0x1p+128", 1, {0xff800000}},
       {"OpTypeFloat 32", "0x1.000002p+128", 1, {0x7f800001}},
       {"OpTypeFloat 32", "0x1p-149", 1, {0x00000001}},
       {"OpTypeFloat 32", "1e40", 0, {0}},
       {"OpTypeFloat 32", "1.5x", 0, {0}},
       {"OpTypeFloat 16", "1", 1, {0x3c00}},
       {"OpTypeFloat 16", "-2.5", 1, {0xc100}},
       {"OpTypeFloat 16", "65504", 1, {0x7bff}},
       {"OpTypeFloat 16", "5.960464477539063e-08", 1, {0x0001}},
       {"OpTypeFloat 16", "0x1p+16", 1, {0x7c00}},
       {"OpTypeFloat 16", "-0x1.8p+16", 1, {0xfe00}},
       {"OpTypeFloat 16", "70000", 0, {0}},
       {"OpTypeFloat 16 BFloat16KHR", "1", 1, {0x3f80}},
       {"OpTypeFloat 16 BFloat16KHR", "-3", 1, {0xc040}},
       {"OpTypeFloat 16 BFloat16KHR", "3.14159265", 1, {0x4049}},
       {"OpTypeFloat 8 Float8E4M3EXT", "1", 1, {0x38}},
       {"OpTypeFloat 8 Float8E4M3EXT", "448", 1, {0x7e}},
       {"OpTypeFloat 8 Float8E4M3EXT", "-448", 1, {0xfe}},
       {"OpTypeFloat 8 Float8E4M3EXT", "0.001953125", 1, {0x01}},
       {"OpTypeFloat 8 Float8E4M3EXT", "nan", 1, {0x7f}},
       {"OpTypeFloat 8 Float8E4M3EXT", "500", 0, {0}},
       {"OpTypeFloat 8 Float8E4M3EXT", "inf", 0, {0}},
       {"OpTypeFloat 8 Float8E5M2EXT", "1", 1, {0x3c}},
       {"OpTypeFloat 8 Float8E5M2EXT", "57344", 1, {0x7b}},
       {"OpTypeFloat 8 Float8E5M2EXT", "0x1p+16", 1, {0x7c}},
       {"OpTypeFloat 8 Float8E5M2EXT", "1e6", 0, {0}},
       {"OpTypeFloat 64", "1", 2, {0, 0x3ff00000}},
       {"OpTypeFloat 64", "-0x1.8p+1024", 2, {0, 0xfff80000}},
       {"OpTypeFloat 64", "0.1", 2, {0x9999999a, 0x3fb99999}},
       {"OpTypeInt 8 1", "-1", 1, {0xffffffff}},
       {"OpTypeInt 8 1", "127", 1, {0x7f}},
       {"OpTypeInt 8 1", "-128", 1, {0xffffff80}},
       {"OpTypeInt 8 1", "0x80", 1, {0xffffff80}},
       {"OpTypeInt 8 1", "128", 0, {0}},
       {"OpTypeInt 8 0", "255", 1, {0xff}},
       {"OpTypeInt 8 0", "256", 0, {0}},
       {"OpTypeInt 8 0", "-1", 0, {0}},
       {"OpTypeInt 16 1", "-32768", 1, {0xffff8000}},
       {"OpTypeInt 32 0", "4294967295", 1, {0xffffffff}},
       {"OpTypeInt 32 0", "-1", 0, {0}},
       {"OpTypeInt 32 1", "-2147483648", 1, {0x80000000}},
       {"OpTypeInt 32 1", "1.5", 0, {0}},
       {"OpTypeInt 64 1", "-1", 2, {0xffffffff, 0xffffffff}},
       {"OpTypeInt 64 1", "9223372036854775807", 2, {0xffffffff, 0x7fffffff}},
       {"OpTypeInt 64 1", "9223372036854775808", 0, {0}},
       {"OpTypeInt 64 0", "18446744073709551615", 2, {0xffffffff, 0xffffffff}},
       {"OpTypeInt 64 0", "0x100000000", 2, {0, 1}},
       {"OpTypeInt 64 0", "18446744073709551616", 0, {0}},
       {"OpTypeBool", "1", 0, {0}},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct literal_case *c = &cases[i];
      uint32_t w[2] = {0, 0};
      unsigned nwords = 0;
      char err[256] = "";
      bool res = const_words(c->type, c->literal, w, &nwords, err, sizeof(err));
      if (!c->nwords) {
         ok(!res, "%s %s must fail", c->type, c->literal);
         ok(strstr(err, "line 2:") != NULL, "error on line 2: %s", err);
         continue;
      }
      ok(res, "%s %s: %s", c->type, c->literal, err);
      ok(nwords == c->nwords && w[0] == c->w[0] && (nwords < 2 || w[1] == c->w[1]),
         "%s %s: %u words 0x%08x 0x%08x, expected %u 0x%08x 0x%08x", c->type, c->literal, nwords,
         w[0], w[1], c->nwords, c->w[0], c->w[1]);
   }

   /* Every value above comes back through the disassembler unchanged. */
   const char *text = "%f32 = OpTypeFloat 32\n%f16 = OpTypeFloat 16\n"
                      "%bf16 = OpTypeFloat 16 BFloat16KHR\n%e4 = OpTypeFloat 8 Float8E4M3EXT\n"
                      "%e5 = OpTypeFloat 8 Float8E5M2EXT\n%f64 = OpTypeFloat 64\n"
                      "%i8 = OpTypeInt 8 1\n%u64 = OpTypeInt 64 0\n"
                      "%1 = OpConstant %f32 0x1.000002p+128\n%2 = OpConstant %f32 -0\n"
                      "%3 = OpConstant %f32 3.40282347e+38\n%4 = OpConstant %f16 0.1\n"
                      "%5 = OpConstant %bf16 -0x1.02p+128\n%6 = OpConstant %e4 nan\n"
                      "%7 = OpConstant %e4 -0.001953125\n%8 = OpConstant %e5 -0x1p+16\n"
                      "%9 = OpConstant %f64 2.2250738585072014e-308\n%10 = OpConstant %i8 -128\n"
                      "%11 = OpConstant %u64 18446744073709551615\n%12 = OpConstant %f64 "
                      "4.9406564584124654e-324\n";
   size_t n;
   uint32_t *w = assemble(text, &n);
   char *dis = NULL;
   char err[256];
   if (w && spirv_text_disassemble(w, n, &dis, NULL, err, sizeof(err))) {
      uint32_t *w2 = assemble(dis, &n);
      size_t n1;
      free(assemble(text, &n1));
      ok(w2 && n == n1 && memcmp(w, w2, n * 4) == 0, "literals round-trip:\n%s", dis);
      ok(strstr(dis, " 0x1.000002p+128\n") != NULL, "signalling NaN printed exactly");
      ok(strstr(dis, " 0.1\n") != NULL, "shortest form for fp16 0.1");
      free(w2);
   } else {
      ok(0, "disassembly failed: %s", err);
   }
   free(dis);
   free(w);
}

/* ---- ids, headers, core operand forms -------------------------------------------------- */

static void
test_ids_and_header(void)
{
   size_t n;
   uint32_t *w = assemble("%a = OpTypeVoid\n%1 = OpTypeBool\n%b = OpTypeInt 32 0\n"
                          "%4 = OpTypeFloat 32\n%c = OpTypeFloat 16\n",
                          &n);
   if (w) {
      /* Named ids take the lowest numbers numeric ones leave free, in order. */
      ok(w[6] == 2 && w[8] == 1 && w[10] == 3 && w[14] == 4 && w[17] == 5,
         "ids: a=%u 1=%u b=%u 4=%u c=%u", w[6], w[8], w[10], w[14], w[17]);
      check_eq_u64(w[3], 6);
   }
   free(w);

   w = assemble("%007 = OpTypeVoid\n%7 = OpTypeBool\n", &n);
   ok(w && w[6] == 1 && w[8] == 7, "%%007 is a name, %%7 a number");
   free(w);

   w = assemble("; SPIR-V\n; Version: 1.3\n; Generator: 0x00080001\n; Bound: 100\n; Schema: 0\n"
                "OpCapability Shader\n",
                &n);
   if (w) {
      check_eq_u64(w[1], 0x00010300);
      check_eq_u64(w[2], 0x00080001);
      check_eq_u64(w[3], 100);
      check_eq_u64(w[4], 0);
   }
   free(w);

   /* A Bound directive never lowers the bound; directives after the first
    * instruction and prose generators are ignored. */
   w = assemble("; Bound: 1\n; Generator: Khronos SPIR-V Tools Assembler; 0\n"
                "%x = OpTypeVoid\n%7 = OpTypeBool\n; Version: 1.0\n",
                &n);
   if (w) {
      check_eq_u64(w[3], 8);
      check_eq_u64(w[2], 0);
      check_eq_u64(w[1], 0x00010600);
   }
   free(w);

   /* Masks, enum parameters, OpSwitch with a 64-bit selector, OpSpecConstantOp. */
   const char *text = "%void = OpTypeVoid\n"
                      "%u64 = OpTypeInt 64 0\n"
                      "%u32 = OpTypeInt 32 0\n"
                      "%c = OpSpecConstant %u32 3\n"
                      "%sum = OpSpecConstantOp %u32 IAdd %c %c\n"
                      "%fn = OpTypeFunction %void\n"
                      "%f = OpFunction %void Inline|Const %fn\n"
                      "%l0 = OpLabel\n"
                      "%sel = OpUndef %u64\n"
                      "OpSelectionMerge %l3 Flatten\n"
                      "OpSwitch %sel %l3 0x100000000 %l1 5 %l2\n"
                      "%l1 = OpLabel\nOpBranch %l3\n%l2 = OpLabel\nOpBranch %l3\n"
                      "%l3 = OpLabel\nOpReturn\nOpFunctionEnd\n"
                      "OpDecorate %c SpecId 7\n"
                      "OpExecutionMode %f LocalSize 8 4 1\n";
   w = assemble(text, &n);
   if (w) {
      /* void=1 u64=2 u32=3 c=4 sum=5 fn=6 f=7 l0=8 sel=9 l3=10 l1=11 l2=12 */
      check_inst(w, n, find_inst(w, n, OP_SPEC_CONSTANT_OP, 0),
                 (uint32_t[]){6u << 16 | 52, 3, 5, 128, 4, 4}, 6, "OpSpecConstantOp IAdd");
      check_inst(w, n, find_inst(w, n, 54, 0), (uint32_t[]){5u << 16 | 54, 1, 7, 9, 6}, 5,
                 "OpFunction Inline|Const");
      check_inst(w, n, find_inst(w, n, OP_SWITCH, 0),
                 (uint32_t[]){9u << 16 | 251, 9, 10, 0, 1, 11, 5, 0, 12}, 9,
                 "OpSwitch with 64-bit literals");
      check_inst(w, n, find_inst(w, n, 71, 0), (uint32_t[]){4u << 16 | 71, 4, 1, 7}, 4,
                 "OpDecorate SpecId 7");
      check_inst(w, n, find_inst(w, n, 16, 0), (uint32_t[]){6u << 16 | 16, 7, 17, 8, 4, 1}, 6,
                 "OpExecutionMode LocalSize");
   }
   free(w);

   /* Strings: escapes, and padding when the length is a multiple of 4. */
   w = assemble("%x = OpString \"a\\\"b\\\\c\"\n%y = OpString \"abcd\"\n%z = OpString \"\"\n", &n);
   if (w) {
      check_inst(w, n, 5, (uint32_t[]){4u << 16 | 7, 1, 0x5c622261, 0x63}, 4, "escaped string");
      check_inst(w, n, 9, (uint32_t[]){4u << 16 | 7, 2, 0x64636261, 0}, 4, "4-character string");
      check_inst(w, n, 13, (uint32_t[]){3u << 16 | 7, 3, 0}, 3, "empty string");
   }
   free(w);
}

/* ---- errors ------------------------------------------------------------------------------ */

static void
test_errors(void)
{
   assemble_fails("OpCapability Shader\n  OpFoo %x\n", "line 2: unknown opcode 'OpFoo'");
   assemble_fails("OpCapability Shader\n\nOpDecorate %missing Binding 0\n",
                  "line 3: undefined id %missing");
   assemble_fails("%x = OpTypeVoid\nOpDecorate %x Bindin 0\n",
                  "line 2: OpDecorate: unknown Decoration 'Bindin'");
   assemble_fails("%x = OpTypeVoid\n%t = OpTypeInt 32 %x\n",
                  "line 2: OpTypeInt: expected a 32-bit integer literal, got '%x'");
   assemble_fails("OpCapability %x\n%x = OpTypeVoid\n",
                  "line 1: OpCapability: expected Capability");
   assemble_fails("%x = OpTypeVoid\nOpName %x 12\n", "line 2: OpName: expected a \"string\"");
   assemble_fails("%t = OpTypeInt 32\n", "line 1: OpTypeInt: missing LiteralInteger operand");
   assemble_fails("OpCapability Shader Int8\n", "line 1: OpCapability: unexpected operand 'Int8'");
   assemble_fails("%x = OpCapability Shader\n", "line 1: OpCapability has no result id");
   assemble_fails("OpTypeInt 32 0\n", "line 1: OpTypeInt needs a result id");
   assemble_fails("%t = OpTypeInt 32 0\n\n%t = OpTypeInt 16 0\n",
                  "line 3: %t is defined twice (first on line 1)");
   assemble_fails("%x = OpTypeVoid\nOpName %x \"abc\n", "line 2: unterminated string");
   assemble_fails("%u = OpTypeInt 8 0\n%c = OpConstant %u 256\n", "line 2: OpConstant: literal");
   assemble_fails("%c = OpConstant %t 1\n%t = OpTypeInt 32 0\n",
                  "line 1: OpConstant: cannot encode");
   assemble_fails("%tosa = OpExtInstImport \"TOSA.001000.1\"\n%f = OpTypeFloat 32\n"
                  "%r = OpExtInst %f %tosa FOO %f\n",
                  "line 3: OpExtInst: unknown instruction 'FOO'");
   assemble_fails("%f = OpTypeFloat 32\n%r = OpExtInst %f %f CLAMP %f\n",
                  "line 2: OpExtInst: the set operand is not an OpExtInstImport");
   assemble_fails("%s = OpExtInstImport \"Foo.1\"\n%f = OpTypeFloat 32\n"
                  "%r = OpExtInst %f %s BAR %f\n",
                  "line 3: OpExtInst: instruction names of this set are unknown");
   assemble_fails("%0 = OpTypeVoid\n", "line 1: id %0 is not in 1..");
   assemble_fails("%x =\n", "line 1: expected an opcode after '='");
   assemble_fails("%x = !0x00020011 1\n", "line 1: a raw instruction cannot have a result name");
   assemble_fails("%f = OpTypeFloat 32 Float8E4M3EXT Int8\n", "unexpected operand");
   assemble_fails("%f = OpTypeFloat 32\n%c = OpSpecConstantOp %f NotAnOp %f\n",
                  "line 2: OpSpecConstantOp: expected an opcode name");
   assemble_fails("OpMemoryModel Logical\n", "line 1: OpMemoryModel: missing MemoryModel operand");
   assemble_fails("% = OpTypeVoid\n", "line 1: '%' without a name");

   /* The error buffer may be small or absent. */
   uint32_t *w = NULL;
   size_t n = 0;
   char tiny[8];
   ok(!spirv_text_assemble("OpFoo\n", 6, &w, &n, tiny, sizeof(tiny)), "fails with a tiny buffer");
   ok(strlen(tiny) < sizeof(tiny), "message truncated");
   ok(!spirv_text_assemble("OpFoo\n", 6, &w, &n, NULL, 0), "fails without a buffer");

   /* Disassembler errors. */
   char *text = NULL;
   char err[256];
   static const uint32_t swapped[] = {0x03022307, 0x00060100, 0, 0x01000000, 0};
   ok(!spirv_text_disassemble(swapped, 5, &text, NULL, err, sizeof(err)) &&
          strstr(err, "byte-swapped"),
      "byte-swapped module: %s", err);
   static const uint32_t zero_wc[] = {0x07230203, 0x00010600, 0, 1, 0, 0x00000011};
   ok(!spirv_text_disassemble(zero_wc, 6, &text, NULL, err, sizeof(err)) && strstr(err, "word 5"),
      "word count 0: %s", err);
   static const uint32_t truncated[] = {0x07230203, 0x00010600, 0, 1, 0, 0x00030011, 1};
   ok(!spirv_text_disassemble(truncated, 7, &text, NULL, err, sizeof(err)) && strstr(err, "word 5"),
      "truncated: %s", err);
   ok(!spirv_text_disassemble(truncated, 3, &text, NULL, err, sizeof(err)), "short module");
   ok(text == NULL, "no text on failure");
}

/* ---- the grammar ---------------------------------------------------------------------------- */

static void
check_grammar_result(const struct spirv_inst_desc *d)
{
   bool type = d->operand_count > 0 && d->operands[0].kind == SPIRV_KIND_IdResultType;
   bool result =
       d->operand_count > (type ? 1u : 0u) && d->operands[type ? 1 : 0].kind == SPIRV_KIND_IdResult;
   bool t, r;
   spirv_opcode_result_info(d->opcode, &t, &r);
   ok(t == type && r == result, "%s (%u): reader says type %d result %d, grammar %d %d", d->name,
      d->opcode, t, r, type, result);
}

static void
test_grammar(void)
{
   ok(spirv_core_insts_count > 600, "%u core instructions", spirv_core_insts_count);
   ok(spirv_glsl_insts_count == 81, "%u GLSL.std.450 instructions", spirv_glsl_insts_count);
   for (uint32_t i = 0; i < spirv_core_insts_count; i++)
      check_grammar_result(&spirv_core_insts[i]);
   uint32_t count;
   const struct spirv_inst_desc *arm = spirv_grammar_arm_insts(&count);
   for (uint32_t i = 0; i < count; i++) {
      check_grammar_result(&arm[i]);
      /* Where the system grammar already knows an instruction, the numbers agree. */
      const struct spirv_inst_desc *core = NULL;
      for (uint32_t j = 0; j < spirv_core_insts_count; j++) {
         if (strcmp(spirv_core_insts[j].name, arm[i].name) == 0)
            core = &spirv_core_insts[j];
      }
      ok(!core || core->opcode == arm[i].opcode, "%s agrees with the system grammar", arm[i].name);
   }
   ok(spirv_grammar_inst(22)->operand_count == 3, "OpTypeFloat has the FPEncoding operand");
   ok(spirv_grammar_core_inst(22) != NULL, "core OpTypeFloat exists");
   const struct spirv_enumerant_desc *e =
       spirv_grammar_enum_by_name(SPIRV_KIND_Capability, "TensorsARM", 10);
   ok(e && e->value == SPV_ARM_CAP_TENSORS, "TensorsARM capability");
   e = spirv_grammar_enum(SPIRV_KIND_Capability, 1);
   ok(e && strcmp(e->name, "Shader") == 0, "Shader capability");
   e = spirv_grammar_enum(SPIRV_KIND_ARM_TensorOperands, 2);
   ok(e && e->param_count == 1, "OutOfBoundsValueARM takes an id");
}

/* ---- example modules ---------------------------------------------------------------------------
 */

/* The instruction defining the id in word `index` of `inst`, or NULL. */
static const struct spirv_inst *
def_of(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index)
{
   const struct spirv_inst *def = NULL;
   struct spirv_diag diag;
   if (spirv_reader_id_def(r, inst, index, &def, &diag) != VK_SUCCESS) {
      ok(0, "word %u of the instruction at %u: %s", index, inst->offset, diag.message);
      return NULL;
   }
   return def;
}

static uint32_t
word_of(const struct spirv_reader *r, const struct spirv_inst *inst, uint32_t index)
{
   uint32_t v = UINT32_MAX;
   (void)spirv_reader_word(r, inst, index, &v, NULL);
   return v;
}

/* Every instruction: the reader's result id agrees with the grammar's layout. */
static void
check_reader_results(const struct spirv_reader *r)
{
   for (uint32_t i = 0; i < r->inst_count; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      const struct spirv_inst_desc *d = spirv_grammar_inst(inst->opcode);
      ok(d != NULL, "opcode %u known", inst->opcode);
      if (!d)
         continue;
      uint32_t expect = 0;
      if (d->operand_count > 0 && d->operands[0].kind == SPIRV_KIND_IdResult)
         expect = word_of(r, inst, 1);
      else if (d->operand_count > 1 && d->operands[1].kind == SPIRV_KIND_IdResult)
         expect = word_of(r, inst, 2);
      ok(spirv_reader_result_id(r, inst) == expect, "%s at %u: result %u, expected %u", d->name,
         inst->offset, spirv_reader_result_id(r, inst), expect);
      if (expect)
         ok(spirv_reader_def(r, expect) == inst, "%%%u is defined by %s", expect, d->name);
   }
}

static void
check_graph_clamp(const struct spirv_reader *r)
{
   unsigned ext = 0, seen_end = 0;
   for (uint32_t i = 0; i < r->inst_count; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      if (inst->opcode == SPV_ARM_OP_GRAPH_ENTRY_POINT) {
         const char *name = NULL;
         uint32_t next = 0;
         ok(spirv_reader_string(r, inst, 2, &name, NULL, &next, NULL) == VK_SUCCESS &&
                strcmp(name, "main") == 0,
            "entry point \"main\"");
         ok(def_of(r, inst, 1) && def_of(r, inst, 1)->opcode == SPV_ARM_OP_GRAPH, "graph id");
         for (uint32_t w = next; w < inst->word_count; w++)
            ok(def_of(r, inst, w) && def_of(r, inst, w)->opcode == OP_VARIABLE,
               "interface %u is an OpVariable", w);
         check_eq_u64(inst->word_count - next, 2);
      } else if (inst->opcode == SPV_ARM_OP_GRAPH) {
         const struct spirv_inst *type = def_of(r, inst, 1);
         ok(type && type->opcode == SPV_ARM_OP_TYPE_GRAPH, "OpGraphARM has an OpTypeGraphARM");
         check_eq_u64(inst->word_count, 3);
      } else if (inst->opcode == OP_EXT_INST && ext == 0) {
         ext++;
         check_eq_u64(inst->word_count, spirv_tosa_inst_word_count(TOSA_CLAMP));
         check_eq_u64(word_of(r, inst, 4), TOSA_CLAMP);
         const struct spirv_inst *set = def_of(r, inst, 3);
         const char *name = NULL;
         ok(set && set->opcode == OP_EXT_INST_IMPORT &&
                spirv_reader_string(r, set, 2, &name, NULL, NULL, NULL) == VK_SUCCESS &&
                strcmp(name, "TOSA.001000.1") == 0,
            "the set is TOSA.001000.1");
         const struct spirv_inst *lo = def_of(r, inst, 5), *nan = def_of(r, inst, 7);
         ok(lo && lo->opcode == OP_CONSTANT && word_of(r, lo, 3) == 0xbf800000,
            "min_val is the constant -1.0f");
         ok(nan && nan->opcode == OP_CONSTANT && word_of(r, nan, 3) == TOSA_NAN_MODE_PROPAGATE,
            "nan_mode is PROPAGATE");
         const struct spirv_inst *in = def_of(r, inst, 8);
         ok(in && in->opcode == SPV_ARM_OP_GRAPH_INPUT, "input is an OpGraphInputARM");
         const struct spirv_inst *type = def_of(r, inst, 1);
         ok(type && type->opcode == SPV_ARM_OP_TYPE_TENSOR && type->word_count == 5,
            "result is a ranked, shaped tensor");
      } else if (inst->opcode == OP_EXT_INST && ext == 1) {
         ext++;
         check_eq_u64(word_of(r, inst, 4), TOSA_ADD);
         check_eq_u64(inst->word_count, spirv_tosa_inst_word_count(TOSA_ADD));
         const struct spirv_inst *bias = def_of(r, inst, 6);
         ok(bias && bias->opcode == SPV_ARM_OP_GRAPH_CONSTANT && word_of(r, bias, 3) == 0,
            "bias is graph constant 0");
         ok(def_of(r, inst, 5) == &r->insts[i - 1], "ADD consumes the CLAMP result");
      } else if (inst->opcode == SPV_ARM_OP_GRAPH_SET_OUTPUT) {
         ok(def_of(r, inst, 1) == &r->insts[i - 1], "the output is the ADD");
      } else if (inst->opcode == SPV_ARM_OP_GRAPH_END) {
         seen_end++;
         check_eq_u64(inst->word_count, 1);
         check_eq_u64(i, r->inst_count - 1);
      }
   }
   check_eq_u64(ext, 2);
   check_eq_u64(seen_end, 1);
}

static void
check_tensor_copy(const struct spirv_reader *r)
{
   unsigned reads = 0, writes = 0, queries = 0;
   for (uint32_t i = 0; i < r->inst_count; i++) {
      const struct spirv_inst *inst = &r->insts[i];
      if (inst->opcode == SPV_ARM_OP_TENSOR_READ) {
         check_eq_u64(inst->word_count, 7);
         check_eq_u64(word_of(r, inst, 5), reads == 0 ? 0x2 : 0x3);
         const struct spirv_inst *oob = def_of(r, inst, 6);
         ok(oob && oob->opcode == OP_CONSTANT, "out-of-bounds value is a constant");
         const struct spirv_inst *t = def_of(r, inst, 3);
         ok(t && t->opcode == 61 /* OpLoad */, "tensor operand is a load");
         reads++;
      } else if (inst->opcode == SPV_ARM_OP_TENSOR_WRITE) {
         check_eq_u64(inst->word_count, 5);
         check_eq_u64(word_of(r, inst, 4), SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL);
         writes++;
      } else if (inst->opcode == SPV_ARM_OP_TENSOR_QUERY_SIZE) {
         check_eq_u64(inst->word_count, 5);
         queries++;
      }
   }
   ok(reads == 2 && writes == 1 && queries == 1, "tensor instructions: %u %u %u", reads, writes,
      queries);
   ok(spirv_declares_capability(r->words, r->word_count, SPV_ARM_CAP_TENSORS),
      "declares TensorsARM");
}

/* Assembles an example, parses it with the reader, and round-trips it through
 * the disassembler. Returns the words. */
static uint32_t *
check_example(const char *name, size_t *count, void (*check)(const struct spirv_reader *),
              const char *const *expect_text)
{
   test_set_context(name);
   size_t size;
   char *text = read_example(name, &size);
   uint32_t *w = NULL;
   char err[256];
   if (!text || !spirv_text_assemble(text, size, &w, count, err, sizeof(err))) {
      ok(0, "assembles: %s", text ? err : "no file");
      free(text);
      test_set_context(NULL);
      return NULL;
   }
   free(text);

   struct spirv_reader r;
   struct spirv_diag diag = {0};
   ok(spirv_reader_init(&r, w, *count, NULL, &diag) == VK_SUCCESS, "reader: %s", diag.message);
   if (r.insts) {
      check_reader_results(&r);
      if (check)
         check(&r);
   }
   spirv_reader_finish(&r);

   char *dis = NULL;
   size_t dis_len = 0;
   ok(spirv_text_disassemble(w, *count, &dis, &dis_len, err, sizeof(err)), "disassembles: %s", err);
   if (dis) {
      ok(strlen(dis) == dis_len, "length");
      ok(strstr(dis, "!0x") == NULL, "no raw instructions in a valid module");
      for (unsigned i = 0; expect_text && expect_text[i]; i++)
         ok(strstr(dis, expect_text[i]) != NULL, "disassembly contains \"%s\"", expect_text[i]);
      size_t n2;
      uint32_t *w2 = NULL;
      ok(spirv_text_assemble(dis, dis_len, &w2, &n2, err, sizeof(err)), "reassembles: %s", err);
      ok(w2 && n2 == *count && memcmp(w, w2, n2 * 4) == 0, "identical words after a round trip");
      char *dis2 = NULL;
      if (w2 && spirv_text_disassemble(w2, n2, &dis2, NULL, err, sizeof(err)))
         ok(strcmp(dis, dis2) == 0, "the disassembly is a fixed point");
      free(dis2);
      free(w2);
   }
   free(dis);
   test_set_context(NULL);
   return w;
}

static uint32_t rng_state = 0x9e3779b9u;

static uint32_t
rng(void)
{
   rng_state ^= rng_state << 13;
   rng_state ^= rng_state >> 17;
   rng_state ^= rng_state << 5;
   return rng_state;
}

/* Corrupts operands (never word counts) and checks that whatever the
 * disassembler prints assembles back to the corrupted words. */
static void
check_lossless(const uint32_t *words, size_t count, const char *name)
{
   unsigned raw_lines = 0, failures = 0;
   uint32_t *copy = malloc(count * sizeof(uint32_t));
   if (!copy)
      return;
   for (int iter = 0; iter < 3000; iter++) {
      memcpy(copy, words, count * sizeof(uint32_t));
      int flips = 1 + (int)(rng() % 3);
      for (int f = 0; f < flips; f++) {
         uint32_t at = 1 + rng() % (uint32_t)(count - 1);
         bool opword = false;
         for (size_t off = 5; off < count; off += copy[off] >> 16)
            opword = opword || off == at;
         uint32_t v;
         switch (rng() % 5) {
         case 0:
            v = rng();
            break;
         case 1:
            v = copy[at] ^ 1u << (rng() % 32);
            break;
         case 2:
            v = rng() % 64;
            break;
         case 3:
            v = copy[at] + 1;
            break;
         default:
            v = 0x7fc00000u + rng() % 8;
            break;
         }
         if (opword) /* keep the word count, change the opcode */
            v = (copy[at] & 0xffff0000u) | (v & 0xffffu);
         if (at == 3 && v == 0)
            v = 1;
         copy[at] = v;
      }
      char *dis = NULL;
      char err[256];
      if (!spirv_text_disassemble(copy, count, &dis, NULL, err, sizeof(err))) {
         /* Only a bad magic number makes it give up. */
         if (copy[0] == 0x07230203u) {
            ok(0, "%s: disassembly failed: %s", name, err);
            failures++;
         }
         continue;
      }
      raw_lines += strstr(dis, "!0x") != NULL;
      uint32_t *back = NULL;
      size_t n = 0;
      if (!spirv_text_assemble(dis, strlen(dis), &back, &n, err, sizeof(err)) || n != count ||
          memcmp(back, copy, count * 4) != 0) {
         if (failures++ < 3)
            ok(0, "%s: corrupted module did not round-trip (%s):\n%s", name, err, dis);
      }
      free(back);
      free(dis);
   }
   free(copy);
   ok(failures == 0, "%s: %u round-trip failures, %u modules with raw lines", name, failures,
      raw_lines);
}

/* Differential test against the system spirv-as for a module without ARM opcodes. */
static void
check_against_spirv_as(const uint32_t *words, size_t count, const char *example)
{
   if (system("spirv-as --version >/dev/null 2>&1") != 0) {
      printf("# spirv-as not found; skipping the comparison\n");
      return;
   }
   char path[1024], out[256], cmd[1536];
   const char *file = __FILE__;
   const char *slash = strrchr(file, '/');
   snprintf(path, sizeof(path), "%.*s/../data/spirv/%s", (int)(slash ? slash - file : 1),
            slash ? file : ".", example);
   snprintf(out, sizeof(out), "/tmp/vmel_test_spirv_asm_%d.spv", (int)getpid());
   snprintf(cmd, sizeof(cmd), "spirv-as --target-env spv1.5 '%s' -o '%s'", path, out);
   ok(system(cmd) == 0, "spirv-as assembles %s", example);
   size_t size = 0;
   char *ref = read_text_file(out, &size);
   remove(out);
   ok(ref && size == count * 4, "spirv-as output has %zu bytes, ours %zu", size, count * 4);
   if (ref && size == count * 4) {
      uint32_t *rw = (uint32_t *)(void *)ref;
      for (size_t i = 0; i < count; i++) {
         if (i == 2)
            continue; /* the generator */
         if (rw[i] != words[i]) {
            ok(0, "word %zu: spirv-as 0x%08x, ours 0x%08x", i, rw[i], words[i]);
            break;
         }
      }
      ok(1, "identical to spirv-as but for the generator");
   }
   free(ref);
}

static void
test_examples(void)
{
   static const char *const compute_text[] = {
       "OpSwitch",
       " FMax ",
       " -0x1p+128",
       " IMul ",
       "Volatile|Aligned 4",
       "\"buf \\\"quoted\\\" \\\\ name\"",
       "Unroll|DependencyLength 2",
       " 18446744073709551615",
       NULL,
   };
   static const char *const tensor_text[] = {
       "OpTypeTensorARM",       "OpTensorQuerySizeARM",
       " OutOfBoundsValueARM ", " NontemporalARM|OutOfBoundsValueARM ",
       "OpTensorWriteARM",      NULL,
   };
   static const char *const clamp_text[] = {
       "OpGraphEntryPointARM",
       " = OpGraphARM ",
       "OpGraphInputARM",
       " CLAMP ",
       " ADD ",
       "OpGraphSetOutputARM",
       "OpGraphEndARM",
       "OpGraphConstantARM",
       "OpTypeGraphARM 1 ",
       "\"TOSA.001000.1\"",
       NULL,
   };
   static const char *const conv_text[] = {
       " CONV2D ",     " RESCALE ",        " CONCAT ",      "OpConstantCompositeReplicateEXT",
       " DebugGraph ", " DebugOperation ", " DebugTensor ", "OpCapability ReplicatedCompositesEXT",
       NULL,
   };

   size_t n;
   uint32_t *w = check_example("compute_basic.spvasm", &n, NULL, compute_text);
   if (w) {
      check_eq_u64(w[1], 0x00010500);
      ok(!spirv_declares_capability(w, n, SPV_ARM_CAP_TENSORS), "no TensorsARM");
      check_against_spirv_as(w, n, "compute_basic.spvasm");
      check_lossless(w, n, "compute_basic");
   }
   free(w);
   w = check_example("tensor_copy.spvasm", &n, check_tensor_copy, tensor_text);
   if (w)
      check_lossless(w, n, "tensor_copy");
   free(w);
   w = check_example("graph_clamp.spvasm", &n, check_graph_clamp, clamp_text);
   if (w) {
      ok(spirv_declares_capability(w, n, SPV_ARM_CAP_GRAPH), "declares GraphARM");
      check_lossless(w, n, "graph_clamp");
   }
   free(w);
   w = check_example("graph_conv2d.spvasm", &n, NULL, conv_text);
   if (w)
      check_lossless(w, n, "graph_conv2d");
   free(w);
}

static void
test_raw_disassembly(void)
{
   /* An unknown opcode, an unknown capability, a bad id and a malformed
    * OpTypeInt come out raw and go back in unchanged. */
   static const uint32_t words[] = {
       0x07230203, 0x00010600, 0,  10,          0, 0x00030fff, 1, 2, /* unknown opcode 4095 */
       0x00020011, 99999,                                            /* OpCapability 99999 */
       0x00030013, 0,          5,               /* OpTypeVoid with id 0 and an extra word */
       0x00030015, 3,          32,              /* OpTypeInt without signedness */
       0x00040015, 4,          32, 1,           /* a good OpTypeInt */
       0x0004002b, 4,          5,  0xffffff80u, /* OpConstant of the int: -128 */
   };
   size_t count = sizeof(words) / sizeof(words[0]);
   char *dis = NULL;
   char err[256];
   ok(spirv_text_disassemble(words, count, &dis, NULL, err, sizeof(err)), "disassembles: %s", err);
   if (!dis)
      return;
   ok(strstr(dis, "!0x00030fff 1 2\n") != NULL, "unknown opcode is raw");
   ok(strstr(dis, "!0x00020011 99999 ; OpCapability\n") != NULL, "unknown capability is raw");
   ok(strstr(dis, "!0x00030015 3 32 ; OpTypeInt\n") != NULL, "short OpTypeInt is raw");
   ok(strstr(dis, "%4 = OpTypeInt 32 1\n") != NULL, "good OpTypeInt");
   ok(strstr(dis, "%5 = OpConstant %4 -128\n") != NULL, "constant decoded");
   ok(strstr(dis, "; Bound: 10\n") != NULL, "bound directive");
   uint32_t *back = NULL;
   size_t n = 0;
   ok(spirv_text_assemble(dis, strlen(dis), &back, &n, err, sizeof(err)), "reassembles: %s", err);
   ok(back && n == count && memcmp(back, words, sizeof(words)) == 0, "identical words");
   free(back);
   free(dis);
}

TEST_MAIN_STATE;

int
main(void)
{
   test_exact_words();
   test_tensor_operands();
   test_ext_insts();
   test_literals();
   test_ids_and_header();
   test_errors();
   test_grammar();
   test_examples();
   test_raw_disassembly();
   return test_done();
}
