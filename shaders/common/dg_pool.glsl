/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The window walk of the 2D pooling kernels (max_pool2d.comp, avg_pool2d.comp;
 * TOSA 1.0.1 MAX_POOL2D.tosac and AVG_POOL2D.tosac). One work item is
 * DG_POOL_ITEMS consecutive channels (n, oy, ox, c .. c + DG_POOL_ITEMS - 1) of
 * the NHWC output, row-major over (n, oy, ox, channel group): channels are
 * contiguous in NHWC, so a packed and aligned group of channels moves as one
 * vector of raw bits (dg_ew_vector.glsl), and a group at the end of C or in
 * a tensor whose channels are not packed moves element by element.
 * graph/build/pool_build.c dispatches N * OH * OW * ceil(C / DG_POOL_ITEMS)
 * work items.
 *
 * Include after dg_kernel.glsl with DG_DTYPE, DG_POOL_ITEMS (4) and the
 * operator's attributes declared (kernel_y, kernel_x, stride_y, stride_x,
 * pad_top, pad_left: MAX_POOL2D and AVG_POOL2D name them alike).
 *
 * The window of output (oy, ox) starts at (oy * stride_y - pad_top, ox *
 * stride_x - pad_left); only its taps inside the input take part (padding is
 * never read, never counted): rows y0 <= y < y1 and columns x0 <= x < x1
 * after clipping. TOSA's pad < kernel leaves every window at least one tap.
 */
#ifndef DG_POOL_GLSL
#define DG_POOL_GLSL

#ifndef DG_POOL_ITEMS
#define DG_POOL_ITEMS 4
#endif
#define DG_EW_ITEMS DG_POOL_ITEMS
#include "dg_ew_vector.glsl"

#define dg_pool_t dg_atype(DG_DTYPE)

struct dg_pool_window {
   uint n, oy, ox, c; /* output coordinates of the first channel of the group */
   uint channels;     /* channels in the group: DG_POOL_ITEMS, fewer at the end of C */
   int y0, y1, x0, x1; /* the in-bounds taps: y0 <= y < y1, x0 <= x < x1 */
};

/* The window of work item `index` (below vmel_work_count). */
dg_pool_window
dg_pool_window_of(uint index, vmel_tensor_record in_r, vmel_tensor_record out_r)
{
   dg_pool_window w;
   uint groups = (out_r.dims[3] + uint(DG_POOL_ITEMS) - 1u) / uint(DG_POOL_ITEMS);
   w.c = (index % groups) * uint(DG_POOL_ITEMS);
   w.channels = min(uint(DG_POOL_ITEMS), out_r.dims[3] - w.c);
   index /= groups;
   w.ox = index % out_r.dims[2];
   index /= out_r.dims[2];
   w.oy = index % out_r.dims[1];
   w.n = index / out_r.dims[1];
   int iy = int(w.oy) * stride_y - pad_top;
   int ix = int(w.ox) * stride_x - pad_left;
   w.y0 = max(iy, 0);
   w.y1 = min(iy + kernel_y, int(in_r.dims[1]));
   w.x0 = max(ix, 0);
   w.x1 = min(ix + kernel_x, int(in_r.dims[2]));
   return w;
}

/* The in-bounds taps of the window: the divisor of AVG_POOL2D. */
int
dg_pool_count(dg_pool_window w)
{
   return (w.y1 - w.y0) * (w.x1 - w.x0);
}

/* The group's channels at input position (y, x); v[k] for k < w.channels (0 above). */
void
dg_pool_load(vmel_tensor_record r, dg_pool_window w, int y, int x, out dg_pool_t v[DG_POOL_ITEMS])
{
   uint size = uint(DG_DTYPE_SIZE(DG_DTYPE));
   uint step = r.strides[3];
   uvec2 address = dg_address(r, dg_offset4(r, w.n, uint(y), uint(x), w.c));
   if (w.channels == uint(DG_POOL_ITEMS) && dg_ew_vector_at(size, step, address)) {
      uint words[DG_EW_ITEMS];
      dg_ew_read_words(address, size, words);
      [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++)
         v[k] = dg_from_bits(DG_DTYPE, dg_ew_bits(words, k, size));
   } else {
      [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++)
         v[k] = k < w.channels ? dg_load(DG_DTYPE, vmel_address_add(address, k * step))
                               : dg_pool_t(0);
   }
}

/* Stores the group's results (rounded to the type: dg_store / dg_to_bits round floats to
 * nearest even, integers keep their low bits). */
void
dg_pool_store(vmel_tensor_record r, dg_pool_window w, dg_pool_t v[DG_POOL_ITEMS])
{
   uint size = uint(DG_DTYPE_SIZE(DG_DTYPE));
   uint step = r.strides[3];
   uvec2 address = dg_address(r, dg_offset4(r, w.n, w.oy, w.ox, w.c));
   if (w.channels == uint(DG_POOL_ITEMS) && dg_ew_vector_at(size, step, address)) {
      uint words[DG_EW_ITEMS];
      [[unroll]] for (uint i = 0u; i < uint(DG_EW_ITEMS); i++)
         words[i] = 0u;
      uint bits = 8u * size;
      [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++) {
         uint b = dg_to_bits(DG_DTYPE, v[k]);
         if (size == 4u)
            words[k] = b;
         else
            words[k * size / 4u] |= (b & ((1u << bits) - 1u)) << ((k * bits) % 32u);
      }
      dg_ew_write_words(address, size, words);
   } else {
      [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++)
         if (k < w.channels)
            dg_store(DG_DTYPE, vmel_address_add(address, k * step), v[k]);
   }
}

#endif /* DG_POOL_GLSL */
