#!/usr/bin/env python3
"""PyTorch 1.13's time for the operator calls listed in bench/usage.txt (the aclnn4j usage bench).

Every call line of usage.txt (see its header for the fields) is run with PyTorch on tensors of the
same shapes, dtypes, layouts and value ranges as the Java side uses, and timed call by call.

Usage (Debian's python3, which has torch 1.13 and numpy):
  /usr/bin/python3 bench/torch_usage.py [--threads 2] [--seconds 0.3] [--only TEXT[|TEXT...]] [usage.txt]

Prints on stdout, one line per call line, in file order:
  <N> <median_ms>           N = 1-based line number in usage.txt, median with 3 decimals
  <N> n/a <reason>          when PyTorch cannot run that call
Diagnostics go to stderr.
"""
import argparse
import gc
import os
import statistics
import sys
import time

import torch

aten = torch.ops.aten

DTYPES = {"FLOAT": torch.float32, "BF16": torch.bfloat16, "FLOAT16": torch.float16}
TARGET_DTYPES = {"int64": torch.int64, "int32": torch.int32, "uint8": torch.uint8}
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
REDUCTION_NAMES = {0: "none", 1: "mean", 2: "sum"}
LAYOUTS = ("contiguous", "transposed", "channels_last", "stepped", "outstrided")


class NotExpressible(Exception):
    """The call cannot be run (faithfully) with PyTorch; the message is the reason."""


# ---------------------------------------------------------------------------------------------
# Tensor construction


def uniform(shape, lo, hi, dtype):
    """Values drawn in float32 from [lo, hi], then converted to dtype (contiguous)."""
    return (torch.rand(tuple(shape), dtype=torch.float32) * (hi - lo) + lo).to(dtype)


def laid_out(shape, lo, hi, dtype, layout):
    """A tensor of view shape `shape` with values in [lo, hi], laid out as `layout` says.

    The values are drawn into the underlying buffer, which is then viewed, so the view's strides
    are exactly those of the layout (a .to(dtype) of a non-dense view would make it contiguous).
    """
    shape = list(shape)
    if layout in ("contiguous", "outstrided"):
        return uniform(shape, lo, hi, dtype)
    if layout == "transposed":
        if len(shape) < 2:
            raise NotExpressible("layout transposed needs a rank >= 2 input")
        buf = uniform(shape[:-2] + [shape[-1], shape[-2]], lo, hi, dtype)
        return buf.transpose(-1, -2)
    if layout == "channels_last":
        if len(shape) != 4:
            raise NotExpressible("layout channels_last needs a 4-d input")
        n, c, h, w = shape
        return uniform([n, h, w, c], lo, hi, dtype).permute(0, 3, 1, 2)
    if layout == "stepped":
        if len(shape) < 1:
            raise NotExpressible("layout stepped needs a rank >= 1 input")
        buf = uniform(shape[:-1] + [2 * shape[-1]], lo, hi, dtype)
        return buf[..., ::2]
    raise NotExpressible("unknown layout " + layout)


def strided_out(shape, dtype):
    """The view out[..., ::2] of a buffer whose last dim is twice as long."""
    shape = list(shape)
    if len(shape) < 1:
        raise NotExpressible("layout outstrided needs a rank >= 1 output")
    return torch.empty(shape[:-1] + [2 * shape[-1]], dtype=dtype)[..., ::2]


def main_out(f, shape, dtype, layout):
    """The tensor the call's main output must be written to, or None where PyTorch's own allocation
    is what the call asks for. A transposed or channels-last call with a contiguous out (the
    default) asks for a contiguous result, where PyTorch would lay its result out like the inputs:
    PyTorch then writes into a contiguous tensor, as the aclnn4j call does."""
    if layout == "outstrided":
        return strided_out(shape, dtype)
    if layout in ("transposed", "channels_last") and f.get("out", "contiguous") == "contiguous":
        return torch.empty(tuple(shape), dtype=dtype)
    return None


def row(shape, lo, hi, dtype):
    """A vector over the last dim with values in [lo, hi], expanded (stride 0) to shape."""
    return uniform([shape[-1]], lo, hi, dtype).expand(tuple(shape))


def field(fields, name, choices=None, default=None):
    value = fields.get(name, default)
    if value is None:
        raise NotExpressible("missing field " + name)
    if choices is not None and value not in choices:
        raise NotExpressible("unknown %s=%s" % (name, value))
    return value


# ---------------------------------------------------------------------------------------------
# One builder per operator: returns a zero-argument callable that makes the call once.


def build_bce_backward(f, shape, dtype, layout):
    reduction = REDUCTIONS[field(f, "reduction", REDUCTIONS)]
    grad_kind = field(f, "grad", ("0d", "dense", "row"))
    weight_kind = field(f, "weight", ("none", "dense", "row"))
    x = laid_out(shape, 0.02, 0.98, dtype, layout)
    y = laid_out(shape, 0.0, 1.0, dtype, layout)
    if grad_kind == "0d":
        grad = torch.tensor(0.5, dtype=dtype)
    elif grad_kind == "dense":
        grad = laid_out(shape, -1.0, 1.0, dtype, layout)
    else:
        grad = row(shape, -1.0, 1.0, dtype)
    weight = optional_weight(weight_kind, shape, dtype, layout)
    out = main_out(f, shape, dtype, layout)
    if out is not None:
        op = aten.binary_cross_entropy_backward.grad_input
        return lambda: op(grad, x, y, weight, reduction, grad_input=out)
    op = aten.binary_cross_entropy_backward
    return lambda: op(grad, x, y, weight, reduction)


def optional_weight(kind, shape, dtype, layout):
    """A weight in [0, 2]: none, dense (in the inputs' layout) or a row over the last dim, broadcast."""
    if kind == "none":
        return None
    if kind == "dense":
        return laid_out(shape, 0.0, 2.0, dtype, layout)
    return row(shape, 0.0, 2.0, dtype)


def build_bce_logits(f, shape, dtype, layout):
    reduction = REDUCTIONS[field(f, "reduction", REDUCTIONS)]
    weight_kind = field(f, "weight", ("none", "dense", "row"))
    pos_kind = field(f, "posweight", ("none", "row"))
    x = laid_out(shape, -8.0, 8.0, dtype, layout)
    y = laid_out(shape, 0.0, 1.0, dtype, layout)
    weight = optional_weight(weight_kind, shape, dtype, layout)
    pos_weight = None if pos_kind == "none" else uniform([shape[-1]], 0.5, 3.0, dtype)
    if layout == "outstrided" and reduction != 0:
        raise NotExpressible("layout outstrided needs reduction none (else the loss is 0-d)")
    out = main_out(f, shape, dtype, layout) if reduction == 0 else None
    if out is not None:
        op = aten.binary_cross_entropy_with_logits.out
        return lambda: op(x, y, weight, pos_weight, reduction, out=out)
    name = REDUCTION_NAMES[reduction]
    fn = torch.nn.functional.binary_cross_entropy_with_logits
    return lambda: fn(x, y, weight=weight, pos_weight=pos_weight, reduction=name)


def build_prelu_backward(f, shape, dtype, layout):
    weight_kind = field(f, "weight", ("channels", "single"))
    if len(shape) < 2:
        raise NotExpressible("prelu_backward needs a rank >= 2 input")
    grad = laid_out(shape, -1.0, 1.0, dtype, layout)
    x = laid_out(shape, -1.0, 1.0, dtype, layout)
    w = uniform([shape[1]], 0.0, 0.5, dtype) if weight_kind == "channels" \
        else uniform([1], 0.0, 0.5, dtype)
    if hasattr(aten, "_prelu_kernel_backward"):
        # Newer PyTorch: the kernel takes a weight that broadcasts against the input.
        wb = w.reshape([1, -1] + [1] * (len(shape) - 2)) if weight_kind == "channels" else w
        op = aten._prelu_kernel_backward
        out = main_out(f, shape, dtype, layout)
        if out is not None:
            return lambda: out.copy_(op(grad, x, wb)[0])
        return lambda: op(grad, x, wb)
    # PyTorch 1.13: prelu_backward takes the [C] or [1] weight as is and returns (gradInput,
    # gradWeight of the weight's shape).
    out = main_out(f, shape, dtype, layout)
    if out is not None:
        gw = torch.empty(w.shape, dtype=dtype)
        op = aten.prelu_backward.out
        return lambda: op(grad, x, w, out0=out, out1=gw)
    op = aten.prelu_backward
    return lambda: op(grad, x, w)


def build_bce(f, shape, dtype, layout):
    reduction = field(f, "reduction", REDUCTIONS)
    weight_kind = field(f, "weight", ("none", "dense", "row"))
    x = laid_out(shape, 0.02, 0.98, dtype, layout)
    y = laid_out(shape, 0.0, 1.0, dtype, layout)
    weight = optional_weight(weight_kind, shape, dtype, layout)
    fn = torch.nn.functional.binary_cross_entropy
    if layout == "outstrided":
        if reduction != "none":
            raise NotExpressible("layout outstrided needs reduction none (else the loss is 0-d)")
        out = strided_out(shape, dtype)
        return lambda: out.copy_(fn(x, y, weight=weight, reduction=reduction))
    out = main_out(f, shape, dtype, layout) if reduction == "none" else None
    if out is not None:
        op = aten.binary_cross_entropy.out
        return lambda: op(x, y, weight, REDUCTIONS[reduction], out=out)
    return lambda: fn(x, y, weight=weight, reduction=reduction)


def build_bce_logits_backward(f, shape, dtype, layout):
    """The gradient of binary_cross_entropy_with_logits with respect to its input: PyTorch 1.13 has
    no aten op for it, so the call is autograd's backward of the loss (its forward excluded: the
    loss is computed once, the graph kept)."""
    reduction = field(f, "reduction", REDUCTIONS)
    weight_kind = field(f, "weight", ("none", "dense", "row"))
    pos_kind = field(f, "posweight", ("none", "row"))
    if layout == "outstrided":
        raise NotExpressible("autograd writes its own gradient tensor")
    x = laid_out(shape, -8.0, 8.0, dtype, layout).requires_grad_()
    y = laid_out(shape, 0.0, 1.0, dtype, layout)
    weight = optional_weight(weight_kind, shape, dtype, layout)
    pos_weight = None if pos_kind == "none" else uniform([shape[-1]], 0.5, 3.0, dtype)
    with torch.enable_grad():  # the harness builds and times calls under no_grad
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x, y, weight=weight, pos_weight=pos_weight,
                                                                    reduction=reduction)
    grad = torch.ones_like(loss)
    out = main_out(f, shape, dtype, layout)  # autograd lays its gradient out like x: copied if asked

    def call():
        with torch.enable_grad():
            gx = torch.autograd.grad(loss, x, grad_outputs=grad, retain_graph=True)
        return gx if out is None else out.copy_(gx[0])
    return call


def build_prelu(f, shape, dtype, layout):
    weight_kind = field(f, "weight", ("channels", "single"))
    if len(shape) < 2:
        raise NotExpressible("prelu needs a rank >= 2 input")
    x = laid_out(shape, -1.0, 1.0, dtype, layout)
    w = uniform([shape[1]], 0.0, 0.5, dtype) if weight_kind == "channels" \
        else uniform([1], 0.0, 0.5, dtype)
    if layout == "outstrided":
        out = strided_out(shape, dtype)
        return lambda: out.copy_(torch.prelu(x, w))
    out = main_out(f, shape, dtype, layout)
    if out is not None:
        return lambda: aten.prelu.out(x, w, out=out)
    return lambda: torch.prelu(x, w)


def build_group_norm(f, shape, dtype, layout):
    if len(shape) != 4:
        raise NotExpressible("group_norm expects shape N,C,H,W")
    n, c, h, w = shape
    groups = int(field(f, "groups"))
    x = laid_out(shape, -2.0, 2.0, dtype, layout)
    gamma = uniform([c], 0.5, 1.5, dtype) if field(f, "gamma", ("yes", "no")) == "yes" else None
    beta = uniform([c], -0.5, 0.5, dtype) if gamma is not None else None
    out = main_out(f, shape, dtype, layout)
    if out is not None:
        mean = torch.empty(n, groups, dtype=dtype)
        rstd = torch.empty(n, groups, dtype=dtype)
        op = aten.native_group_norm.out
        return lambda: op(x, gamma, beta, n, c, h * w, groups, 1e-5, out0=out, out1=mean, out2=rstd)
    return lambda: aten.native_group_norm(x, gamma, beta, n, c, h * w, groups, 1e-5)


def build_group_norm_backward(f, shape, dtype, layout):
    if len(shape) != 4:
        raise NotExpressible("group_norm_backward expects shape N,C,H,W")
    n, c, h, w = shape
    groups = int(field(f, "groups"))
    if groups <= 0 or c % groups != 0:
        raise NotExpressible("groups must divide C")
    gamma_kind = field(f, "gamma", ("yes", "no"))
    mask_text = field(f, "mask")
    if len(mask_text) != 3 or any(ch not in "01" for ch in mask_text):
        raise NotExpressible("unknown mask=" + mask_text)
    mask = [ch == "1" for ch in mask_text]
    dy = laid_out(shape, -1.0, 1.0, dtype, layout)
    x = laid_out(shape, -2.0, 2.0, dtype, layout)
    mean = uniform([n, groups], -0.1, 0.1, dtype)
    rstd = uniform([n, groups], 0.5, 1.5, dtype)
    if gamma_kind == "yes":
        gamma = uniform([c], 0.5, 1.5, dtype)
    elif mask[1] or mask[2]:
        # torch 1.13's CPU kernel cannot make gradGamma/gradBeta without a gamma (it allocates them
        # like gamma: "tensor does not have a device"). A gamma of ones gives the same three
        # outputs (gradGamma and gradBeta do not depend on gamma) for the same work.
        gamma = torch.ones(c, dtype=dtype)
    else:
        gamma = None
    op = aten.native_group_norm_backward
    if layout == "outstrided":
        if not mask[0]:
            raise NotExpressible("layout outstrided needs gradInput in the mask")
        out = strided_out(shape, dtype)
        return lambda: out.copy_(op(dy, x, mean, rstd, gamma, n, c, h * w, groups, mask)[0])
    out = main_out(f, shape, dtype, layout) if mask[0] else None
    if out is not None:
        grad_gamma = torch.empty(c, dtype=dtype)
        grad_beta = torch.empty(c, dtype=dtype)
        op_out = aten.native_group_norm_backward.out
        return lambda: op_out(dy, x, mean, rstd, gamma, n, c, h * w, groups, mask, out0=out, out1=grad_gamma,
                              out2=grad_beta)
    return lambda: op(dy, x, mean, rstd, gamma, n, c, h * w, groups, mask)


def build_nll_loss(f, shape, dtype, layout):
    if len(shape) != 2 or layout != "contiguous":
        raise NotExpressible("nll_loss expects shape N,C, contiguous")
    n, c = shape
    reduction = REDUCTIONS[field(f, "reduction", REDUCTIONS)]
    target_dtype = TARGET_DTYPES[field(f, "target", TARGET_DTYPES)]
    if target_dtype != torch.int64:
        raise NotExpressible("torch's nll_loss takes int64 targets")
    x = uniform(shape, -1.0, 0.0, dtype)
    target = torch.randint(0, c, (n,), dtype=torch.int64)
    weight = torch.ones(c, dtype=dtype)
    return lambda: aten.nll_loss_forward(x, target, weight, reduction, -100)


def build_nll_loss_backward(f, shape, dtype, layout):
    if len(shape) != 2:
        raise NotExpressible("nll_loss_backward expects shape N,C")
    n, c = shape
    reduction = REDUCTIONS[field(f, "reduction", REDUCTIONS)]
    target_dtype = TARGET_DTYPES[field(f, "target", TARGET_DTYPES)]
    if target_dtype == torch.uint8 and c > 256:
        raise NotExpressible("uint8 targets cannot hold classes >= 256")
    if layout not in ("contiguous", "outstrided"):
        raise NotExpressible("only layouts contiguous and outstrided apply to nll_loss_backward")
    if target_dtype != torch.int64:
        # torch 1.13 takes int64 targets, and (it turns out) uint8 but not int32: ask it.
        try:
            probe_target = torch.zeros(2, dtype=target_dtype)
            aten.nll_loss_backward(torch.tensor(1.0), torch.zeros(2, 2), probe_target, None, 1, -100,
                                   torch.tensor(2.0))
        except RuntimeError as exc:
            raise NotExpressible("torch %s nll_loss_backward does not take %s targets (%s)"
                                 % (torch.__version__.split("a")[0], f["target"], reason_of(exc)))
    x = uniform(shape, -1.0, 0.0, dtype)
    target = torch.randint(0, c, (n,), dtype=torch.int64).to(target_dtype)
    weight = torch.ones(c, dtype=dtype)
    grad = uniform([n], 0.0, 1.0, dtype) if reduction == 0 else torch.tensor(1.0, dtype=dtype)
    total_weight = torch.tensor(float(n), dtype=dtype)
    if layout == "outstrided":
        out = strided_out(shape, dtype)
        op = aten.nll_loss_backward.grad_input
        return lambda: op(grad, x, target, weight, reduction, -100, total_weight, grad_input=out)
    op = aten.nll_loss_backward
    return lambda: op(grad, x, target, weight, reduction, -100, total_weight)


BUILDERS = {
    "bce_backward": build_bce_backward,
    "bce_logits": build_bce_logits,
    "prelu_backward": build_prelu_backward,
    "prelu": build_prelu,
    "bce": build_bce,
    "bce_logits_backward": build_bce_logits_backward,
    "nll_loss": build_nll_loss,
    "group_norm": build_group_norm,
    "group_norm_backward": build_group_norm_backward,
    "nll_loss_backward": build_nll_loss_backward,
}


def build(text):
    """The callable for one call line of usage.txt."""
    fields = {}
    for token in text.split():
        if token == "sweep":
            continue
        if "=" not in token:
            raise NotExpressible("cannot parse field " + token)
        key, value = token.split("=", 1)
        fields[key] = value
    op = field(fields, "op", BUILDERS)
    dtype = DTYPES[field(fields, "dtype", DTYPES)]
    try:
        shape = [int(s) for s in field(fields, "shape").split(",")]
    except ValueError:
        raise NotExpressible("cannot parse shape " + fields["shape"])
    layout = field(fields, "layout", LAYOUTS, default="contiguous")
    return BUILDERS[op](fields, shape, dtype, layout)


# ---------------------------------------------------------------------------------------------
# Timing


def time_call(fn, seconds):
    """Median of individually timed calls, in ms, after a warm-up."""
    start = time.perf_counter()
    warm = 0
    while warm < 3 or time.perf_counter() - start < 0.1:
        fn()
        warm += 1
    samples = []
    begin = time.perf_counter()
    while len(samples) < 5 or time.perf_counter() - begin < seconds:
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e3


def reason_of(exc):
    words = " ".join(str(exc).split())
    if not words:
        words = type(exc).__name__
    if len(words) > 120:
        words = words[:117] + "..."
    return words


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="PyTorch's time for the calls of usage.txt")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--only", default=None,
                        help="run only lines containing this text (or one of several, separated by |)")
    parser.add_argument("usage", nargs="?", default=os.path.join(here, "usage.txt"))
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    with open(args.usage) as fh:
        lines = fh.read().splitlines()
    print("torch %s, %d threads, %s" % (torch.__version__, torch.get_num_threads(), args.usage),
          file=sys.stderr)

    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        if args.only is not None and not any(part in raw for part in args.only.split("|")):
            continue
        fn = None
        try:
            with torch.no_grad():
                fn = build(text)
                ms = time_call(fn, args.seconds)
            result = "%d %.3f" % (number, ms)
        except NotExpressible as exc:
            result = "%d n/a %s" % (number, reason_of(exc))
        except (RuntimeError, TypeError, ValueError, NotImplementedError) as exc:
            result = "%d n/a torch %s: %s" % (number, torch.__version__.split("a")[0],
                                              reason_of(exc))
        fn = None
        gc.collect()
        print(result, flush=True)


if __name__ == "__main__":
    main()
