/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The builds of MATMUL and CONV2D (BUILD CUSTOM in graph/ops/tosa_ops.def):
 * their cooperative-matrix variants (dg_gemm_coop.glsl; D51) where the device
 * lists their fragment shape, else for i8 their INT_DOT variants (dg_gemm_dot.glsl;
 * D51) on a GPU with integer dot products, else (CONV2D, on a CPU device with subgroups of 8) the
 * SUBGROUP variant (conv2d_subgroup.comp; D55), else their TILED variants (dg_gemm.glsl,
 * kernel_abi/gemm_args.h; D44) where they apply, else the row's
 * one-output-per-invocation kernel (dg_build_default()).
 *
 * MATMUL: one workgroup per output tile of each batch, A and B read through
 * their records' strides. CONV2D: an implicit GEMM of M = N*OH*OW rows,
 * OC columns and K = KH*KW*IC, whose B is the weight arranged at pipeline
 * creation into a new constant [KH,KW,IC,OC] (element (k, oc) at k*OC + oc:
 * a tile row of B is contiguous); so only constant weights take it, and only
 * finite float weights (a padding tap then adds 0 * w = 0, as the reference
 * skips it: an infinite weight would make it NaN). 1x1 convolutions take the
 * same kernel, whose patch gather then folds to a plain matrix read (its
 * shapes and attributes are specialization constants).
 * Both fuse the elementwise chain after them into their kernel's epilogue where the plan
 * allows (dg_fuse.c, D52): the _EPI variants of the tiled and integer-dot kernels (D57).
 */
#include "dg_build.h"

#include <string.h>

#include "gemm_split.h"

#include "dg_op.h"
#include "kernel_abi/gemm_args.h"
#include "lyr_alloc.h"
#include "vmel_kernels_graph.h"

/* A tile of kernel_abi/gemm_args.h. */
struct gemm_tile {
   enum dg_variant_kind kind, epi_kind; /* the kernel, and the one with a fused epilogue */
   uint32_t bm, bn, bk;
};

static const struct gemm_tile narrow_tile = {DG_VARIANT_TILED, DG_VARIANT_TILED_EPI,
                                             DG_GEMM_NARROW_BM, DG_GEMM_NARROW_BN,
                                             DG_GEMM_NARROW_BK};
static const struct gemm_tile wide_tile = {DG_VARIANT_TILED_WIDE, DG_VARIANT_TILED_WIDE_EPI,
                                           DG_GEMM_WIDE_BM, DG_GEMM_WIDE_BN, DG_GEMM_WIDE_BK};
static const struct gemm_tile small_tile = {DG_VARIANT_TILED_SMALL, DG_VARIANT_TILED_SMALL_EPI,
                                            DG_GEMM_SMALL_BM, DG_GEMM_SMALL_BN,
                                            DG_GEMM_SMALL_BK};

/* Outputs narrower than this keep the reference kernel: a tile would compute mostly columns
 * that do not exist (lavapipe: 3x CONV2D 3x3 16 -> 16 channels 1.5x slower tiled). */
#define MIN_TILED_COLS 32

/* The SUBGROUP CONV2D from this many output channels (D62): its 64 columns per lane beat the
 * reference kernel on lavapipe however many of them exist (3x CONV2D 3x3 C -> C channels on
 * 64x64, fp32: C = 16 7.5 ms against 119, C = 4 4.3 against 15.6, C = 2 2.7 against 5.1, C = 1
 * 2.1 against 1.9). */
#define SG_MIN_COLS 2

static uint64_t
tiles_of(const struct gemm_tile *t, uint64_t batch, uint64_t rows, uint64_t cols)
{
   return batch * ((rows + t->bm - 1) / t->bm) * ((cols + t->bn - 1) / t->bn);
}

/* The tile for a [batch, rows, cols] output: the wide one above the narrow one's width (fewer
 * loads from shared memory per multiply-add, no more columns computed in vain), then the next
 * smaller one while the dispatch would have fewer than dg_gemm_min_workgroups() (a CPU
 * device's thread count, D61: there the larger block is faster while no thread idles). */
static const struct gemm_tile *
tile_for(const struct dg_build *b, uint64_t batch, uint64_t rows, uint64_t cols)
{
   const struct gemm_tile *t = cols > DG_GEMM_NARROW_BN ? &wide_tile : &narrow_tile;
   uint64_t target = dg_gemm_min_workgroups(b);
   if (t == &wide_tile && tiles_of(t, batch, rows, cols) < target)
      t = &narrow_tile;
   if (tiles_of(t, batch, rows, cols) < target)
      t = &small_tile;
   return t;
}

/* The tiled kernel for node n with tile t, or DG_PLAN_NONE where it does not apply: no
 * variant, the reference mode, a device below the tile's workgroup, more work items than a
 * dispatch counts. */
static uint32_t
tiled_kernel(struct dg_build *b, const struct dg_node *n, const struct gemm_tile *t,
             uint64_t tiles)
{
   uint32_t kernel = dg_build_variant(b, n, t->kind);
   if (kernel == DG_PLAN_NONE)
      return DG_PLAN_NONE;
   if (dg_kernel_local_size(kernel) != DG_GEMM_LOCAL) {
      lyr_logw("TOSA %s %%%u: the tiled kernel's declared workgroup is %u, not %u; using the "
               "reference kernel",
               n->name, n->result_id, dg_kernel_local_size(kernel), DG_GEMM_LOCAL);
      return DG_PLAN_NONE;
   }
   uint32_t shared = DG_GEMM_SHARED_BYTES(t->bm, t->bn, t->bk);
   if (!dg_build_fits_workgroup(b, DG_GEMM_LOCAL, shared)) {
      lyr_logi("TOSA %s %%%u: the device's workgroup limits are below the tiled kernel's (%u "
               "invocations, %u bytes of shared memory); using the reference kernel",
               n->name, n->result_id, DG_GEMM_LOCAL, shared);
      return DG_PLAN_NONE;
   }
   if (tiles == 0 || tiles > UINT32_MAX / DG_GEMM_LOCAL)
      return DG_PLAN_NONE;
   return kernel;
}

/* ---- cooperative matrices (D51) ------------------------------------------------------------- */

/* A cooperative-matrix kind: its variant and the one with a fused epilogue (DG_VARIANT_NONE:
 * none), the DG_COOP_* shapes of its fp16, i8 and bf16 kernels (0: none) and the mode that
 * forces its extension (coop-khr-square forces the square kind alone). KHR before NV: the
 * cross-vendor extension where the device has both (the H200). */
struct coop_kind {
   enum dg_variant_kind kind, epi_kind;
   uint32_t f16, i8, bf16;
   enum dg_kernel_mode forced;
};

static const struct coop_kind coop_kinds[] = {
   {DG_VARIANT_COOP_KHR, DG_VARIANT_COOP_KHR_EPI, DG_COOP_KHR_F16, DG_COOP_KHR_I8, 0,
    DG_KERNELS_COOP_KHR},
   {DG_VARIANT_COOP_KHR_SQUARE, DG_VARIANT_NONE, DG_COOP_KHR_SQUARE_F16, DG_COOP_KHR_SQUARE_I8,
    DG_COOP_KHR_SQUARE_BF16, DG_KERNELS_COOP_KHR},
   {DG_VARIANT_COOP_NV, DG_VARIANT_COOP_NV_EPI, DG_COOP_NV_F16, DG_COOP_NV_I8, 0,
    DG_KERNELS_COOP_NV},
};

/* Whether kernel mode `mode` lets kind k be taken: any kind unless a coop mode forces one. */
static bool
coop_kind_allowed(const struct coop_kind *k, enum dg_kernel_mode mode)
{
   if (mode == DG_KERNELS_COOP_KHR_SQUARE)
      return k->kind == DG_VARIANT_COOP_KHR_SQUARE;
   if (mode == DG_KERNELS_COOP_NV || mode == DG_KERNELS_COOP_KHR)
      return k->forced == mode;
   return true;
}

/* Whether `mode` forces a cooperative-matrix kind (which is then taken on any shape). */
static bool
coop_forced(enum dg_kernel_mode mode)
{
   return mode == DG_KERNELS_COOP_NV || mode == DG_KERNELS_COOP_KHR ||
          mode == DG_KERNELS_COOP_KHR_SQUARE;
}

/* The cooperative-matrix kernel for node n over `tiles` DG_COOP_BM x DG_COOP_BN tiles, or
 * DG_PLAN_NONE: no variant for the row (fp32, i16), zero points other than 0 on an i8
 * row (the staged elements are the i8 values), no listed shape, the workgroup limits, or
 * another kind forced by VMEL_GRAPH_KERNELS=coop-nv / coop-khr / coop-khr-square. *epi is the
 * kind of its _EPI variant. */
static uint32_t
coop_kernel(struct dg_build *b, const struct dg_node *n, bool integer, bool zero_points,
            uint64_t tiles, enum dg_variant_kind *epi)
{
   enum dg_kernel_mode mode = dg_build_kernel_mode(b);
   uint32_t caps = dg_build_coop(b);
   if (!caps || (integer && !zero_points) || tiles == 0 || tiles > UINT32_MAX / DG_GEMM_LOCAL)
      return DG_PLAN_NONE;
   /* Taken wherever the device lists the shape (H200, D58: with 16-byte staging, MATMUL fp16
    * 4096^3 1.21 ms against TILED's 5.54, 512^3 0.020 against 0.027; i8 4096^3 0.60 ms, 512^3
    * 0.078 against INT_DOT's 0.104). A forcing mode picks the extension. */
   /* bf16 inputs: the KHR square kind's bf16 fragments (D60); others are fp16 or i8 shapes */
   bool bf16 = dg_node_input(dg_build_graph(b), n, 0)->ty.type == DG_TYPE_BF16;
   for (uint32_t i = 0; i < sizeof(coop_kinds) / sizeof(coop_kinds[0]); i++) {
      const struct coop_kind *k = &coop_kinds[i];
      if (!coop_kind_allowed(k, mode))
         continue;
      if (!(caps & (integer ? k->i8 : bf16 ? k->bf16 : k->f16)))
         continue;
      uint32_t kernel = dg_build_variant(b, n, k->kind);
      if (kernel == DG_PLAN_NONE || dg_kernel_local_size(kernel) != DG_GEMM_LOCAL ||
          !dg_build_fits_workgroup(b, DG_GEMM_LOCAL, DG_COOP_SHARED_BYTES(integer ? 1 : 2)))
         continue;
      *epi = k->epi_kind;
      return kernel;
   }
   return DG_PLAN_NONE;
}

/* The columns below which the cooperative-matrix and integer-dot kernels are not taken: the
 * tiled kernels' (a mode that forces one takes it on any shape, for tests). */
static int64_t
coop_min_cols(const struct dg_build *b)
{
   enum dg_kernel_mode mode = dg_build_kernel_mode(b);
   return coop_forced(mode) || mode == DG_KERNELS_INT_DOT ? 1
             : MIN_TILED_COLS;
}

static uint64_t
coop_tiles(uint64_t batch, uint64_t rows, uint64_t cols)
{
   return batch * ((rows + DG_COOP_BM - 1) / DG_COOP_BM) * ((cols + DG_COOP_BN - 1) / DG_COOP_BN);
}

/* ---- integer dot products (D51) ------------------------------------------------------------- */

/* The INT_DOT kernel for an i8 node n whose output is [batch, rows, cols] as a GEMM, with its
 * tile count in *tiles, or DG_PLAN_NONE: no shaderIntegerDotProduct, a CPU device unless
 * VMEL_GRAPH_KERNELS=int-dot (lavapipe's tests), fewer than MIN_TILED_COLS columns unless
 * forced, the workgroup limits. Zero points are any (dg_gemm_dot.glsl's algebra). */
static uint32_t
int_dot_kernel(struct dg_build *b, const struct dg_node *n, uint64_t batch, uint64_t rows,
               uint64_t cols, uint64_t *tiles)
{
   bool forced = dg_build_kernel_mode(b) == DG_KERNELS_INT_DOT;
   if (!dg_build_int_dot(b) || (!forced && (dg_build_cpu_device(b) || cols < MIN_TILED_COLS)))
      return DG_PLAN_NONE;
   *tiles = batch * ((rows + DG_DOT_BM - 1) / DG_DOT_BM) * ((cols + DG_DOT_BN - 1) / DG_DOT_BN);
   uint32_t kernel = dg_build_variant(b, n, DG_VARIANT_INT_DOT);
   if (kernel == DG_PLAN_NONE || dg_kernel_local_size(kernel) != DG_GEMM_LOCAL ||
       !dg_build_fits_workgroup(b, DG_GEMM_LOCAL, DG_DOT_SHARED_BYTES) || *tiles == 0 ||
       *tiles > UINT32_MAX / DG_GEMM_LOCAL)
      return DG_PLAN_NONE;
   return kernel;
}

/* One dispatch of `kernel` over `tiles` tiles: the node's inputs (input `replace` by tensor
 * reference `with`, unless DG_PLAN_NONE) then its output; with the fused chain `chain` when
 * the kernel's _EPI variant (kind `epi_kind`; DG_VARIANT_NONE: none) exists and the chain has
 * nodes (D52): that kernel, the chain's last tensor as the output, then the chain's extra
 * tensors (the first input in the unused ones). */
static VkResult
add_tiled_stage(struct dg_build *b, const struct dg_node *n, uint32_t kernel,
                enum dg_variant_kind epi_kind, uint64_t tiles, uint32_t replace, uint32_t with)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_op_info *op = dg_op_get((enum dg_op)n->op);
   uint32_t tensors[VMEL_GRAPH_MAX_TENSORS], count = 0;
   if (n->input_count + 1 + DG_EPI_TENSORS > VMEL_GRAPH_MAX_TENSORS || n->output_count == 0)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %u inputs exceed a kernel's tensors",
                       n->name, n->result_id, n->input_count);
   for (uint32_t i = 0; i < n->input_count; i++)
      tensors[count++] = i == replace ? with : dg_node_input_index(g, n, i);
   uint32_t out = count++;
   return dg_fuse_add_gemm_stage(b, n, kernel, epi_kind, tensors, count, out, 4 * op->attr_count,
                                 tiles * dg_kernel_local_size(kernel));
}

static uint32_t subgroup_kernel(struct dg_build *b, const struct dg_node *n, uint64_t batch,
                                uint64_t rows, uint64_t cols, uint64_t *tiles);

/* MATMUL n's stages with `kernel` over `tiles` tiles: K split through the kernels of
 * `split_kind` where dg_gemm_split_k() chooses it (DG_VARIANT_NONE: never), else one stage. */
static VkResult
add_matmul_stages(struct dg_build *b, const struct dg_node *n, uint32_t kernel,
                  enum dg_variant_kind epi_kind, uint64_t tiles, enum dg_variant_kind split_kind)
{
   if (split_kind != DG_VARIANT_NONE) {
      const struct dg_graph *g = dg_build_graph(b);
      const int64_t *d = dg_node_output(g, n, 0)->ty.shape.dim;
      struct dg_gemm_dims dims = {(uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2],
                                  (uint64_t)dg_node_input(g, n, 0)->ty.shape.dim[2]};
      bool split;
      VkResult result =
         dg_gemm_split_k(b, n, &dims, split_kind, DG_PLAN_NONE, DG_PLAN_NONE, &split);
      if (result != VK_SUCCESS || split)
         return result;
   }
   return add_tiled_stage(b, n, kernel, epi_kind, tiles, DG_PLAN_NONE, DG_PLAN_NONE);
}

VkResult
dg_op_matmul_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_tensor *out = dg_node_output(dg_build_graph(b), n, 0);
   const int64_t *d = out->ty.shape.dim;
   if (out->ty.shape.rank == 3 && d[2] >= coop_min_cols(b)) {
      uint64_t tiles = coop_tiles((uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2]);
      enum dg_variant_kind epi = DG_VARIANT_NONE; /* the kernel's _EPI kind */
      uint32_t kernel = coop_kernel(b, n, out->ty.type == DG_TYPE_I32,
                                    n->attrs.matmul.a_zp == 0 && n->attrs.matmul.b_zp == 0, tiles,
                                    &epi);
      enum dg_variant_kind split = DG_VARIANT_NONE; /* the coop kinds do not split K */
      if (kernel == DG_PLAN_NONE && out->ty.type == DG_TYPE_I32) {
         kernel = int_dot_kernel(b, n, (uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2], &tiles);
         epi = DG_VARIANT_INT_DOT_EPI;
         split = DG_VARIANT_INT_DOT_SPLITK; /* D65 */
      }
      if (kernel != DG_PLAN_NONE)
         return add_matmul_stages(b, n, kernel, epi, tiles, split);
   }
   /* CPU devices with 8-lane subgroups: the SUBGROUP kernel (D63: lavapipe MATMUL 512^3 fp32
    * 1.83x, i8 2.25x the tiled kernels), i8 and fp32 rows */
   if (out->ty.shape.rank == 3 && d[2] >= SG_MIN_COLS) {
      uint64_t tiles;
      uint32_t kernel =
         subgroup_kernel(b, n, (uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2], &tiles);
      if (kernel != DG_PLAN_NONE)
         return add_tiled_stage(b, n, kernel, DG_VARIANT_NONE, tiles, DG_PLAN_NONE, DG_PLAN_NONE);
   }
   if (out->ty.shape.rank != 3 || d[2] < MIN_TILED_COLS)
      return dg_build_default(b, n);
   const struct gemm_tile *t = tile_for(b, (uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2]);
   uint64_t tiles = tiles_of(t, (uint64_t)d[0], (uint64_t)d[1], (uint64_t)d[2]);
   uint32_t kernel = tiled_kernel(b, n, t, tiles);
   if (kernel == DG_PLAN_NONE)
      return dg_build_default(b, n);
   return add_matmul_stages(b, n, kernel, t->epi_kind, tiles, DG_VARIANT_SPLITK);
}

/* ---- CONV2D --------------------------------------------------------------------------------- */

/* A constant's bytes and the byte stride of each dimension (packed unless the application's
 * description gives strides); false for a tensor that is no constant. */
static bool
constant_layout(const struct dg_tensor *t, const uint8_t **data, int64_t strides[DG_MAX_RANK])
{
   uint32_t rank = t->ty.shape.rank, es = dg_type_size(t->ty.type);
   const VkTensorDescriptionARM *desc = NULL;
   if (t->kind == DG_TENSOR_GRAPH_CONSTANT) {
      *data = t->graph_constant.data;
      desc = t->graph_constant.desc;
   } else if (t->kind == DG_TENSOR_CONSTANT) {
      *data = t->constant.data;
      if (t->constant.size < dg_shape_elements(&t->ty.shape) * es)
         return false;
   } else {
      return false;
   }
   if (!*data || rank == 0 || rank > DG_MAX_RANK)
      return false;
   int64_t s = es;
   for (int d = (int)rank - 1; d >= 0; d--) {
      strides[d] = desc && desc->pStrides ? desc->pStrides[d] : s;
      s *= t->ty.shape.dim[d];
   }
   return true;
}

/* Whether an element's bits are a finite value of float type `type` (integers: always). */
static bool
finite_bits(enum dg_type type, uint32_t bits)
{
   switch (type) {
   case DG_TYPE_FP32:
      return (bits & 0x7f800000u) != 0x7f800000u;
   case DG_TYPE_FP16:
      return (bits & 0x7c00u) != 0x7c00u;
   case DG_TYPE_BF16:
      return (bits & 0x7f80u) != 0x7f80u;
   case DG_TYPE_FP8E4M3:
      return (bits & 0x7fu) != 0x7fu; /* NaN only: no infinities */
   case DG_TYPE_FP8E5M2:
      return (bits & 0x7cu) != 0x7cu;
   default:
      return true;
   }
}

/*
 * The weight [OC,KH,KW,IC] of a CONV2D as a new build constant [KH,KW,IC,OC] in *ref.
 * Returns VK_SUCCESS with *ref DG_PLAN_NONE when the weight is not a constant the tiled
 * kernel can take (not constant, a non-finite float element, an element size other than 1,
 * 2 or 4 bytes).
 */
static VkResult
arrange_weight(struct dg_build *b, const struct dg_node *n, uint32_t *ref)
{
   *ref = DG_PLAN_NONE;
   const struct dg_tensor *w = dg_node_input(dg_build_graph(b), n, 1);
   const uint8_t *src;
   int64_t st[DG_MAX_RANK];
   uint32_t es = dg_type_size(w->ty.type);
   if (w->ty.shape.rank != 4 || (es != 1 && es != 2 && es != 4) || !constant_layout(w, &src, st))
      return VK_SUCCESS;
   const int64_t *d = w->ty.shape.dim;
   int64_t oc_count = d[0];
   uint64_t count = dg_shape_elements(&w->ty.shape);
   if (count == 0 || count > UINT32_MAX)
      return VK_SUCCESS;
   uint8_t *dst = lyr_alloc(dg_build_alloc(b), count * es, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!dst)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA %s %%%u: no memory to arrange its "
                       "%llu weights",
                       n->name, n->result_id, (unsigned long long)count);
   bool finite = true;
   for (int64_t oc = 0; oc < oc_count && finite; oc++) {
      for (int64_t ky = 0; ky < d[1]; ky++) {
         for (int64_t kx = 0; kx < d[2]; kx++) {
            for (int64_t ic = 0; ic < d[3]; ic++) {
               const uint8_t *from = src + oc * st[0] + ky * st[1] + kx * st[2] + ic * st[3];
               int64_t k = (ky * d[2] + kx) * d[3] + ic;
               uint32_t bits = 0;
               memcpy(&bits, from, es); /* little-endian host (design.md) */
               finite &= finite_bits(w->ty.type, bits);
               memcpy(dst + (uint64_t)(k * oc_count + oc) * es, from, es);
            }
         }
      }
   }
   VkResult result = VK_SUCCESS;
   if (finite) {
      struct dg_shape shape = {.rank = 4, .dim = {d[1], d[2], d[3], d[0]}};
      result = dg_build_add_constant(b, w->ty.type, &shape, dst, ref);
   } else {
      lyr_logi("TOSA %s %%%u: a weight is not finite; the reference kernel keeps padding taps "
               "out of the sum",
               n->name, n->result_id);
   }
   lyr_free(dg_build_alloc(b), dst);
   return result;
}

/* ---- subgroups of 8 (D55) ------------------------------------------------------------------- */

/* The SUBGROUP kernel for node n whose output is `batch` [rows, cols] GEMMs, with its tile
 * count in *tiles, or DG_PLAN_NONE: no variant for the row, not a CPU device (its choices were
 * measured on lavapipe only; a GPU keeps the tiled kernels), no subgroups of DG_SG_LANES with
 * ballot, fusion on (no _EPI form: the tiled kernels' fuse), VMEL_GRAPH_SPLIT_K forcing parts
 * (the tiled kernels split; lavapipe's split-K tests), the workgroup limits. */
static uint32_t
subgroup_kernel(struct dg_build *b, const struct dg_node *n, uint64_t batch, uint64_t rows,
                uint64_t cols, uint64_t *tiles)
{
   if (!dg_build_cpu_device(b) || !dg_build_subgroup8(b) || dg_build_fusion(b) ||
       dg_build_split_k(b) >= 2)
      return DG_PLAN_NONE;
   uint32_t kernel = dg_build_variant(b, n, DG_VARIANT_SUBGROUP);
   if (kernel == DG_PLAN_NONE || dg_kernel_local_size(kernel) != DG_SG_LOCAL ||
       !dg_build_fits_workgroup(b, DG_SG_LOCAL, 0))
      return DG_PLAN_NONE;
   *tiles = batch * ((rows + DG_SG_BM - 1) / DG_SG_BM) * ((cols + DG_SG_TN - 1) / DG_SG_TN);
   if (*tiles == 0 || *tiles > UINT32_MAX / DG_SG_LOCAL)
      return DG_PLAN_NONE;
   return kernel;
}

VkResult
dg_op_conv2d_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_tensor *out = dg_node_output(dg_build_graph(b), n, 0);
   const int64_t *d = out->ty.shape.dim;
   if (out->ty.shape.rank != 4 || n->input_count != 3 || d[3] < 1)
      return dg_build_default(b, n);
   uint64_t rows = (uint64_t)d[0] * (uint64_t)d[1] * (uint64_t)d[2];
   uint64_t tiles = coop_tiles(1, rows, (uint64_t)d[3]);
   const struct dg_attrs_conv2d *a = &n->attrs.conv2d;
   enum dg_variant_kind epi = DG_VARIANT_NONE; /* the kernel's _EPI kind */
   uint32_t kernel = DG_PLAN_NONE;
   bool int_dot = false; /* the INT_DOT kind, which splits K (D65) */
   if (d[3] >= coop_min_cols(b)) {
      kernel = coop_kernel(b, n, out->ty.type == DG_TYPE_I32,
                           a->input_zp == 0 && a->weight_zp == 0, tiles, &epi);
      if (kernel == DG_PLAN_NONE && out->ty.type == DG_TYPE_I32) {
         kernel = int_dot_kernel(b, n, 1, rows, (uint64_t)d[3], &tiles);
         epi = DG_VARIANT_INT_DOT_EPI;
         int_dot = kernel != DG_PLAN_NONE;
      }
   }
   const struct gemm_tile *t = NULL; /* the tiled kernel's tile (NULL: another kind) */
   if (kernel == DG_PLAN_NONE && d[3] >= SG_MIN_COLS)
      kernel = subgroup_kernel(b, n, 1, rows, (uint64_t)d[3], &tiles);
   if (kernel == DG_PLAN_NONE) {
      if (d[3] < MIN_TILED_COLS)
         return dg_build_default(b, n);
      t = tile_for(b, 1, rows, (uint64_t)d[3]);
      tiles = tiles_of(t, 1, rows, (uint64_t)d[3]);
      kernel = tiled_kernel(b, n, t, tiles);
      epi = t->epi_kind;
   }
   if (kernel == DG_PLAN_NONE)
      return dg_build_default(b, n);
   uint32_t weight;
   VkResult result = arrange_weight(b, n, &weight);
   if (result != VK_SUCCESS)
      return result;
   if (weight == DG_PLAN_NONE)
      return dg_build_default(b, n);
   if (t || int_dot) { /* the tiled and (D65) integer-dot kinds split K */
      const int64_t *w = dg_node_input(dg_build_graph(b), n, 1)->ty.shape.dim;
      struct dg_gemm_dims dims = {1, rows, (uint64_t)d[3], (uint64_t)(w[1] * w[2] * w[3])};
      bool split;
      result = dg_gemm_split_k(b, n, &dims, t ? DG_VARIANT_SPLITK : DG_VARIANT_INT_DOT_SPLITK, 1,
                               weight, &split);
      if (result != VK_SUCCESS || split)
         return result;
   }
   return add_tiled_stage(b, n, kernel, epi, tiles, 1, weight);
}
