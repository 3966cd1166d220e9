#!/usr/bin/env python3
"""PyTorch's time for the workloads of aclnn4j's bench (bench/.../Workload.java), same sizes.

Prints one line per workload and dtype: KIND DTYPE MEDIAN_MS, or KIND DTYPE n/a REASON.
Run with Debian's python3-torch: /usr/bin/python3 bench/torch_bench.py [threads] [repeats]
"""
import sys
import time

import torch

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
torch.set_num_threads(THREADS)
aten = torch.ops.aten
N = 1 << 24


def uniform(shape, lo, hi, dtype):
    return (torch.rand(shape, dtype=torch.float32) * (hi - lo) + lo).to(dtype)


def prelu_backward(grad, x, w):
    if hasattr(aten, "_prelu_kernel_backward"):
        return aten._prelu_kernel_backward(grad, x, w.reshape(1, -1, 1, 1))
    return aten.prelu_backward(grad, x, w)


def workload(kind, dtype):
    if kind in ("BCE_BACKWARD_MEAN", "BCE_BACKWARD_2X2"):
        shape = (2, 2) if kind == "BCE_BACKWARD_2X2" else (N,)
        grad = torch.tensor(0.5, dtype=dtype)
        x, y = uniform(shape, 0.01, 0.99, dtype), uniform(shape, 0, 1, dtype)
        reduction = 0 if kind == "BCE_BACKWARD_2X2" else 1
        return lambda: aten.binary_cross_entropy_backward(grad, x, y, None, reduction)
    if kind in ("BCE_LOGITS_NONE", "BCE_LOGITS_MEAN"):
        x, y = uniform((N,), -8, 8, dtype), uniform((N,), 0, 1, dtype)
        reduction = "none" if kind == "BCE_LOGITS_NONE" else "mean"
        return lambda: torch.nn.functional.binary_cross_entropy_with_logits(x, y, reduction=reduction)
    if kind == "PRELU_BACKWARD":
        shape = (64, 256, 32, 32)
        grad, x, w = uniform(shape, -1, 1, dtype), uniform(shape, -1, 1, dtype), uniform((256,), 0, 0.5, dtype)
        return lambda: prelu_backward(grad, x, w)
    if kind == "GROUP_NORM_BACKWARD":
        shape = (32, 256, 32, 32)
        dy, x = uniform(shape, -1, 1, dtype), uniform(shape, -2, 2, dtype)
        mean, rstd = uniform((32, 32), -0.1, 0.1, dtype), uniform((32, 32), 0.5, 1.5, dtype)
        gamma = uniform((256,), 0.5, 1.5, dtype)
        return lambda: aten.native_group_norm_backward(dy, x, mean, rstd, gamma, 32, 256, 1024, 32,
                                                       [True, True, True])
    if kind == "NLL_BACKWARD_MEAN":
        rows, classes = 65536, 256
        grad = torch.tensor(1.0, dtype=dtype)
        x = uniform((rows, classes), -1, 0, dtype)
        target = torch.randint(0, classes, (rows,), dtype=torch.int64)
        weight = torch.ones(classes, dtype=dtype)
        total = torch.tensor(float(rows), dtype=dtype)
        return lambda: aten.nll_loss_backward(grad, x, target, weight, 1, -100, total)
    raise ValueError(kind)


KINDS = ["BCE_BACKWARD_MEAN", "BCE_LOGITS_NONE", "BCE_LOGITS_MEAN", "PRELU_BACKWARD", "GROUP_NORM_BACKWARD",
         "NLL_BACKWARD_MEAN", "BCE_BACKWARD_2X2"]
DTYPES = {"FLOAT": torch.float32, "BFLOAT16": torch.bfloat16, "FLOAT16": torch.float16}


def median_ms(fn, repeats):
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1e3


def main():
    print(f"# torch {torch.__version__} threads {torch.get_num_threads()}", flush=True)
    for kind in KINDS:
        for name, dtype in DTYPES.items():
            if kind == "BCE_BACKWARD_2X2" and name != "FLOAT":
                continue
            try:
                fn = workload(kind, dtype)
                repeats = 20000 if kind == "BCE_BACKWARD_2X2" else REPEATS
                print(f"{kind} {name} {median_ms(fn, repeats):.6f}", flush=True)
            except Exception as e:  # e.g. no FLOAT16 kernel on CPU
                reason = str(e).splitlines()[0][:80].replace(" ", "_")
                print(f"{kind} {name} n/a {reason}", flush=True)


if __name__ == "__main__":
    main()
