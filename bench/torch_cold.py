#!/usr/bin/env python3
"""PyTorch 1.13's cold start for one call line of bench/usage.txt (beside bench ColdStart.java).

In a fresh process, from just after `import torch`: the line's tensors made, then the call made
again and again; prints the milliseconds since the import ended after 1, 10, 100 and 1000 calls,
as `ms1 ms10 ms100 ms1000` (one line), or `n/a REASON`.

Usage: /usr/bin/python3 bench/torch_cold.py [--threads 2] 'LINE OF bench/usage.txt'
"""
import argparse
import sys
import time

import torch

START = time.perf_counter()

import torch_usage  # noqa: E402  (bench/, next to this script: the same tensors as the usage bench)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("line")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    times = []
    try:
        with torch.no_grad():
            fn = torch_usage.build(args.line)
            for calls in range(1, 1001):
                fn()
                if calls in (1, 10, 100, 1000):
                    times.append("%.3f" % ((time.perf_counter() - START) * 1e3))
    except torch_usage.NotExpressible as exc:
        print("n/a " + torch_usage.reason_of(exc))
        return
    except (RuntimeError, TypeError, ValueError, NotImplementedError) as exc:
        print("n/a torch: " + torch_usage.reason_of(exc))
        return
    print(" ".join(times))


if __name__ == "__main__":
    sys.exit(main())
