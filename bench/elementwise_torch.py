#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's numbers for bench_graph's elementwise graphs (docs/benchmarks.md), on CUDA.

Times, on N elements (default 64M), each op and a device-to-device copy of as many bytes,
with CUDA events around each call (median of --reps after --warmup), and prints the
bandwidth as bench_graph does: (input bytes + output bytes) / time, the copy's the same,
and their ratio.
  add_fp32        torch.add(a, b, out=c)            fp32 + fp32 -> fp32
  mul_fp16        torch.mul(a, b, out=c)            fp16 x fp16 -> fp16
  table_i8        torch.take(table, index, out=c)   256-entry int8 table; torch needs int64
                  indices, so `index` (x + 128 as int64) is made beforehand and the op reads
                  8 bytes per element: its GB/s is still counted with bench_graph's bytes
                  (1 in + 1 out), and `moved` says what it really read and wrote
  cast_fp32_fp16  c.copy_(a), c fp16, a fp32
  copy            dst.copy_(src) of uint8 buffers, (input + output bytes) / 2 each

usage: python3 bench/elementwise_torch.py [--elements N] [--reps N] [--warmup N]
"""
import argparse
import statistics

import torch


def time_ms(fn, reps, warmup):
    """Median of reps timings (ms) of fn() between CUDA events, after warmup calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--elements", type=int, default=64 << 20)
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    args = p.parse_args()
    n, dev = args.elements, torch.device("cuda")
    g = torch.Generator(device=dev).manual_seed(1)

    def rand(dtype):
        return torch.rand(n, device=dev, generator=g).mul_(2).sub_(1).to(dtype)

    a32, b32, c32 = rand(torch.float32), rand(torch.float32), torch.empty(n, device=dev)
    a16, b16 = rand(torch.float16), rand(torch.float16)
    c16 = torch.empty(n, dtype=torch.float16, device=dev)
    x8 = torch.randint(-128, 128, (n,), dtype=torch.int8, device=dev, generator=g)
    table = torch.randint(-128, 128, (256,), dtype=torch.int8, device=dev, generator=g)
    index = x8.to(torch.int64) + 128
    c8 = torch.empty(n, dtype=torch.int8, device=dev)
    assert torch.equal(torch.take(table, index), table[x8.to(torch.int64) + 128])

    # name, call, bytes read + written as bench_graph counts them, bytes torch moves
    ops = [
        ("add_fp32", lambda: torch.add(a32, b32, out=c32), 12 * n, 12 * n),
        ("mul_fp16", lambda: torch.mul(a16, b16, out=c16), 6 * n, 6 * n),
        ("table_i8", lambda: torch.take(table, index, out=c8), 2 * n + 256, 9 * n + 256),
        ("cast_fp32_fp16", lambda: c16.copy_(a32), 6 * n, 6 * n),
    ]
    print(f"device: {torch.cuda.get_device_name(dev)}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}; {n} elements; median of {args.reps} after "
          f"{args.warmup} warm-up, CUDA events; ms")
    for name, fn, nbytes, moved in ops:
        ms = time_ms(fn, args.reps, args.warmup)
        half = (nbytes // 2 + 15) // 16 * 16
        src = torch.empty(half, dtype=torch.uint8, device=dev)
        dst = torch.empty_like(src)
        copy_ms = time_ms(lambda: dst.copy_(src), args.reps, args.warmup)
        gbps, copy_gbps = nbytes / ms * 1e-6, 2 * half / copy_ms * 1e-6
        print(f"{name:14s} {ms:9.3f}  bandwidth {gbps:.2f} GB/s ({nbytes * 1e-6:.1f} MB read + "
              f"written{'' if moved == nbytes else f'; moved {moved * 1e-6:.1f} MB'}); copy "
              f"{copy_gbps:.2f} GB/s ({2 * half * 1e-6:.1f} MB, {copy_ms:.3f} ms); "
              f"ratio {gbps / copy_gbps:.3f}")
        del src, dst


if __name__ == "__main__":
    main()
