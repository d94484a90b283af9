#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's numbers for bench_graph's DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and CONV3D graphs
(bench/bench_graph_conv.c), on CUDA, the same shapes and MAC counts:
  dwconv_fp16  conv2d groups=C, fp16 [1,96,112,112] (channels_last), 3x3, pad 1: GB/s of
               input + output bytes, and GMAC/s
  tconv_fp32   conv_transpose2d fp32 [1,64,64,64] -> [1,32,128,128], 4x4, stride 2, padding 1
               (TOSA out_pad -1): GMAC/s counting the contributing taps (KH*KW*IC/4 per output)
  conv3d_fp16  conv3d fp16 [1,32,8,56,56] (channels_last_3d), 3x3x3, pad 1, 32 channels
timed with CUDA events (median of --reps after --warmup). TF32 is off (fp32 stays fp32).

usage: python3 bench/conv_family_torch.py [--reps N] [--warmup N]
"""
import argparse

import torch
import torch.nn.functional as F

from elementwise_torch import time_ms


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args()
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    with torch.no_grad():
        x = torch.rand((1, 96, 112, 112), device=dev, dtype=torch.float16)
        x = x.to(memory_format=torch.channels_last)
        w = torch.rand((96, 1, 3, 3), device=dev, dtype=torch.float16)
        ms = time_ms(lambda: F.conv2d(x, w, padding=1, groups=96), args.reps, args.warmup)
        nbytes = 2 * x.numel() * x.element_size()
        macs = 9 * x.numel()
        print(f"dwconv_fp16  {ms:8.3f} ms {nbytes / ms / 1e6:8.1f} GB/s {macs / ms / 1e6:8.1f} GMAC/s")

        x = torch.rand((1, 64, 64, 64), device=dev).to(memory_format=torch.channels_last)
        w = torch.rand((64, 32, 4, 4), device=dev)
        ms = time_ms(lambda: F.conv_transpose2d(x, w, stride=2, padding=1), args.reps, args.warmup)
        macs = 128 * 128 * 32 * 4 * 64
        print(f"tconv_fp32   {ms:8.3f} ms {macs / ms / 1e6:8.1f} GMAC/s")

        x = torch.rand((1, 32, 8, 56, 56), device=dev, dtype=torch.float16)
        x = x.to(memory_format=torch.channels_last_3d)
        w = torch.rand((32, 32, 3, 3, 3), device=dev, dtype=torch.float16)
        ms = time_ms(lambda: F.conv3d(x, w, padding=1), args.reps, args.warmup)
        macs = 8 * 56 * 56 * 32 * 27 * 32
        print(f"conv3d_fp16  {ms:8.3f} ms {macs / ms / 1e6:8.1f} GMAC/s")


if __name__ == "__main__":
    main()
