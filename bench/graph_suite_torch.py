#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch's numbers for bench_graph's issue-14 suite (bench/bench_graph_suite.c) on CUDA.

Same shapes, types and MAC counts as the suite; cuDNN/cuBLAS with torch.backends defaults,
except that fp32 stays fp32 (TF32 off for matmul and cuDNN), timed with CUDA events (median
of --reps after --warmup), NHWC (channels_last) activations like the suite's tensors:
  resnet_fp32_b{1,8}     two basic blocks: conv3x3 64->64, ReLU, conv3x3, + x, ReLU (x2)
  resnet_int8_b{1,8}     n/a: PyTorch's CUDA backend has no int8 convolution (printed as such)
  mobilenet_fp32_b{1,8}  conv1x1 24->144, ReLU6, depthwise 3x3, ReLU6, conv1x1 144->24, + x
  matmul{512,4096}_fp32  torch.mm fp32
  matmul{512,4096}_fp16  torch.mm fp16 with an fp32 result (out_dtype=float32 where this
                         PyTorch has it, else the fp16 result of cuBLAS's fp32-accumulating
                         GEMM; the line says which)
  matmul{512,4096}_bf16  the same in bf16
  matmul{512,4096}_i8    torch._int_mm int8 x int8 -> int32 (cuBLASLt)
  branch4_fp32           four conv1x1 64->64 + ReLU6 on one input, summed
Columns as bench_graph's suite table: ms, GFLOP/s (2 x MACs / ms) and % of the device's
published peak (the same table as bench_graph.c, or --peak-gflops T=G).

usage: python3 bench/graph_suite_torch.py [--reps N] [--warmup N] [--graph NAME]...
                                          [--out FILE] [--peak-gflops T=G]...
--out FILE writes "graph ms" lines for bench_graph --torch FILE.
"""
import argparse
import statistics

import torch
import torch.nn.functional as F

# bench_graph.c's device_peaks: GFLOP/s (GOP/s for int8), dense, first substring match wins.
DEVICE_PEAKS = [
    ("H200 NVL", {"fp32": 60000, "fp16": 835500, "bf16": 835500, "int8": 1670500}),
    ("H200", {"fp32": 66900, "fp16": 989400, "bf16": 989400, "int8": 1978900}),
]


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


def nhwc(t):
    return t.contiguous(memory_format=torch.channels_last)


def resnet(n, dev):
    x = nhwc(torch.rand((n, 64, 56, 56), device=dev) * 2 - 1)
    ws = [nhwc((torch.rand((64, 64, 3, 3), device=dev) - 0.5) / 8) for _ in range(4)]
    bs = [torch.rand(64, device=dev) - 0.5 for _ in range(4)]

    def run():
        y = x
        for blk in range(2):
            h = F.relu(F.conv2d(y, ws[2 * blk], bs[2 * blk], padding=1))
            y = F.relu(F.conv2d(h, ws[2 * blk + 1], bs[2 * blk + 1], padding=1) + y)
        return y

    return run, 4.0 * n * 56 * 56 * 64 * 9 * 64, "fp32", ""


def mobilenet(n, dev):
    x = nhwc(torch.rand((n, 24, 56, 56), device=dev) * 2 - 1)
    we = nhwc(torch.rand((144, 24, 1, 1), device=dev) - 0.5)
    wd = nhwc(torch.rand((144, 1, 3, 3), device=dev) - 0.5)
    wp = nhwc((torch.rand((24, 144, 1, 1), device=dev) - 0.5) / 8)
    be, bd, bp = (torch.rand(c, device=dev) - 0.5 for c in (144, 144, 24))

    def run():
        h = F.relu6(F.conv2d(x, we, be))
        h = F.relu6(F.conv2d(h, wd, bd, padding=1, groups=144))
        return F.conv2d(h, wp, bp) + x

    return run, float(n) * 56 * 56 * (24 * 144 + 9 * 144 + 144 * 24), "fp32", ""


def branch4(dev):
    x = nhwc(torch.rand((1, 64, 56, 56), device=dev) * 2 - 1)
    ws = [nhwc(torch.rand((64, 64, 1, 1), device=dev) - 0.5) for _ in range(4)]
    bs = [torch.rand(64, device=dev) - 0.5 for _ in range(4)]

    def run():
        r = [F.relu6(F.conv2d(x, ws[k], bs[k])) for k in range(4)]
        return (r[0] + r[1]) + (r[2] + r[3])

    return run, 4.0 * 56 * 56 * 64 * 64, "fp32", ""


def matmul(m, kind, dev):
    if kind == "i8":
        a = torch.randint(-128, 128, (m, m), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 128, (m, m), device=dev, dtype=torch.int8)
        return (lambda: torch._int_mm(a, b)), float(m) ** 3, "int8", "torch._int_mm -> int32"
    dtype = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[kind]
    a = (torch.rand((m, m), device=dev) * 2 - 1).to(dtype)
    b = (torch.rand((m, m), device=dev) * 2 - 1).to(dtype)
    note = ""
    fn = lambda: torch.mm(a, b)
    if kind != "fp32":
        try:
            torch.mm(a, b, out_dtype=torch.float32)
            fn = lambda: torch.mm(a, b, out_dtype=torch.float32)
            note = "out_dtype=float32"
        except (TypeError, RuntimeError):
            note = f"{kind} result (no out_dtype in this PyTorch)"
    return fn, float(m) ** 3, kind, note


def suite(dev):
    """(name, builder) in bench_graph's order; a builder returns (fn, macs, peak type, note)."""
    out = []
    for n in (1, 8):
        out.append((f"resnet_fp32_b{n}", lambda n=n: resnet(n, dev)))
    for n in (1, 8):
        out.append((f"resnet_int8_b{n}", None))
    for n in (1, 8):
        out.append((f"mobilenet_fp32_b{n}", lambda n=n: mobilenet(n, dev)))
    for m in (512, 4096):
        for kind in ("fp32", "fp16", "bf16", "i8"):
            out.append((f"matmul{m}_{kind}", lambda m=m, kind=kind: matmul(m, kind, dev)))
    out.append(("branch4_fp32", lambda: branch4(dev)))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--graph", action="append", default=[])
    p.add_argument("--out")
    p.add_argument("--peak-gflops", action="append", default=[])
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(dev)
    peaks, source = {}, "unknown (--peak-gflops)"
    for key, table in DEVICE_PEAKS:
        if key in name:
            peaks, source = dict(table), f"published peaks for {key} (docs/benchmarks.md)"
            break
    for item in args.peak_gflops:
        t, _, v = item.partition("=")
        peaks[t] = float(v)
        source = "--peak-gflops"
    print(f"suite on {name}, PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"TF32 off; peaks: {source}")
    print(f"{'graph':18s} {'ms':>10s} {'GFLOP/s':>10s} {'%peak':>7s}  note")
    lines = []
    with torch.no_grad():
        for gname, build in suite(dev):
            if args.graph and gname not in args.graph:
                continue
            if build is None:
                print(f"{gname:18s} {'-':>10s} {'-':>10s} {'-':>7s}  n/a: no int8 convolution "
                      "in PyTorch's CUDA backend")
                continue
            fn, macs, ptype, note = build()
            ms = time_ms(fn, args.reps, args.warmup)
            gflops = 2.0 * macs / ms * 1e-6
            pct = f"{100.0 * gflops / peaks[ptype]:.2f}" if peaks.get(ptype) else "-"
            print(f"{gname:18s} {ms:10.3f} {gflops:10.1f} {pct:>7s}  {note}")
            lines.append(f"{gname} {ms:.6f}\n")
            torch.cuda.empty_cache()
    if args.out:
        with open(args.out, "w") as f:
            f.write(f"# graph_suite_torch.py on {name}, PyTorch {torch.__version__}: graph ms\n")
            f.writelines(lines)


if __name__ == "__main__":
    main()
