#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's numbers for bench_graph's reduction, GATHER, RESIZE and FFT graphs, on CUDA, the
same shapes and byte counts (bench/bench_graph_{reduce,move,resize,fft}.c):
  reduce_sum_axis0/1/2  x.sum(dim=a, keepdim=True), fp32 [64, 512, 512]: GB/s of input + output
  gather_fp16           values[0][idx] (index_select), fp16 [1, 65536, 512] by 65536 random rows
  resize_bilinear_fp16  F.interpolate(scale 2, bilinear, half-pixel), fp16 [1, 64, 256, 256]
                        channels_last: GB/s of input + output
  fft2d_8x256x256       torch.fft.fft2 of complex64 [8, 256, 256]: ms
  fft2d_1x1024x1024     torch.fft.fft2 of complex64 [1, 1024, 1024]: ms
next to a copy of as many bytes; timed with CUDA events (median of --reps after --warmup).

usage: python3 bench/data_ops_torch.py [--reps N] [--warmup N]
"""
import argparse

import torch
import torch.nn.functional as F

from elementwise_torch import time_ms


def report(name, ms, nbytes, copy_gbs):
    gbs = nbytes / ms / 1e6
    print(f"{name:22} {ms:8.3f} ms {gbs:8.1f} GB/s  {gbs / copy_gbs:.2f} x copy")


def copy_gbs(nbytes, reps, warmup):
    src = torch.empty(nbytes // 4, device="cuda")
    dst = torch.empty_like(src)
    ms = time_ms(lambda: dst.copy_(src), reps, warmup)
    return 2 * src.numel() * 4 / ms / 1e6


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args()
    dev = torch.device("cuda")
    r, w = args.reps, args.warmup
    with torch.no_grad():
        x = torch.rand((64, 512, 512), device=dev)
        cg = copy_gbs(x.numel() * 4, r, w)
        print(f"copy (64M fp32)        {cg:8.1f} GB/s")
        for a in range(3):
            out = x.sum(dim=a, keepdim=True)
            nbytes = (x.numel() + out.numel()) * 4
            report(f"reduce_sum_axis{a}", time_ms(lambda: x.sum(dim=a, keepdim=True), r, w),
                   nbytes, cg)

        values = torch.rand((65536, 512), device=dev, dtype=torch.float16)
        idx = torch.randint(0, 65536, (65536,), device=dev)
        nbytes = 2 * 65536 * 512 * 2 + 65536 * 4
        report("gather_fp16", time_ms(lambda: torch.index_select(values, 0, idx), r, w),
               nbytes, cg)

        img = torch.rand((1, 64, 256, 256), device=dev, dtype=torch.float16)
        img = img.to(memory_format=torch.channels_last)
        nbytes = (img.numel() + 4 * img.numel()) * 2
        report("resize_bilinear_fp16",
               time_ms(lambda: F.interpolate(img, scale_factor=2, mode="bilinear",
                                             align_corners=False), r, w), nbytes, cg)

        for name, shape in (("fft2d_8x256x256", (8, 256, 256)),
                            ("fft2d_1x1024x1024", (1, 1024, 1024))):
            z = torch.randn(shape, device=dev, dtype=torch.complex64)
            ms = time_ms(lambda: torch.fft.fft2(z), r, w)
            print(f"{name:22} {ms:8.3f} ms")


if __name__ == "__main__":
    main()
