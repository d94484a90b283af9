#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's numbers for bench_graph's TRANSPOSE graphs (docs/benchmarks.md), on CUDA.

x is fp32 [1, S, S, 64] with S*S*64 = --elements (default 64M: S = 1024); each case writes
x.permute(...) into a contiguous tensor of the permuted shape (dst.copy_(x.permute(...))),
timed with CUDA events (median of --reps after --warmup), and the bandwidth is counted as
bench_graph does: (input bytes + output bytes) / time, next to a copy of as many bytes.
  transpose_0213  perm (0, 2, 1, 3)
  transpose_0312  perm (0, 3, 1, 2)
  transpose_0312_edge  perm (0, 3, 1, 2) of [1, S - 9, S - 9, 60] (bench_graph's partial tiles)
  copy            dst.copy_(x) of the same tensor

usage: python3 bench/data_movement_torch.py [--elements N] [--reps N] [--warmup N]
"""
import argparse
import math

import torch

from elementwise_torch import time_ms


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--elements", type=int, default=64 << 20)
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args()
    s = math.isqrt(args.elements // 64)
    dev = torch.device("cuda")
    x = torch.rand((1, s, s, 64), device=dev)
    nbytes = 2 * x.numel() * x.element_size()
    copy_dst = torch.empty_like(x)
    copy_ms = time_ms(lambda: copy_dst.copy_(x), args.reps, args.warmup)
    print(f"copy            {copy_ms:8.3f} ms {nbytes / copy_ms / 1e6:8.1f} GB/s")
    for name, perm in (("transpose_0213", (0, 2, 1, 3)), ("transpose_0312", (0, 3, 1, 2))):
        view = x.permute(*perm)
        dst = torch.empty(view.shape, device=dev)
        ms = time_ms(lambda: dst.copy_(view), args.reps, args.warmup)
        gbs = nbytes / ms / 1e6
        print(f"{name:15} {ms:8.3f} ms {gbs:8.1f} GB/s  {gbs / (nbytes / copy_ms / 1e6):.2f} x copy")
    e = torch.rand((1, s - 9, s - 9, 60), device=dev)
    view = e.permute(0, 3, 1, 2)
    dst = torch.empty(view.shape, device=dev)
    ms = time_ms(lambda: dst.copy_(view), args.reps, args.warmup)
    gbs = 2 * e.numel() * e.element_size() / ms / 1e6
    print(f"transpose_0312_edge {ms:8.3f} ms {gbs:8.1f} GB/s  {gbs / (nbytes / copy_ms / 1e6):.2f} x copy")


if __name__ == "__main__":
    main()
