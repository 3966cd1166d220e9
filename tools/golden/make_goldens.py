#!/usr/bin/python3
"""Golden cases for aclnn4j's operators, computed by PyTorch.

Run with Debian's interpreter (it has python3-torch 1.13 and numpy):

    /usr/bin/python3 tools/golden/make_goldens.py

It rewrites src/test/resources/golden/ from scratch, deterministically: every case draws its
numbers from a generator seeded by the case name, so adding a case leaves the others unchanged.

Every tensor is a flat storage buffer plus a view: shape, strides and offset in elements. A case's
buffers are the .npy arrays of one .npz archive (numpy's zip of .npy files; one archive per case
keeps the file count low): an input NAME is array NAME, an output NAME has NAME.init (the buffer
before the call), NAME.expect (after it) and NAME.tol (the tolerance per element, float32).
Inputs are generated in float64, rounded to their dtype, and the expected outputs are computed
by torch in float64 on those rounded values, then rounded (nearest-even) to the output dtype.
FLOAT16 and BF16 buffers hold the uint16 bit patterns. Output buffers start filled with
SENTINEL; the expected buffer keeps the sentinel wherever the view does not reach (and
everywhere, for an output that must not be touched). Gaps in input buffers hold NaN (or an
out-of-range class for targets), so an implementation that reads outside the view gets caught.

Each output also has a tolerance buffer: TOL_FP32_ULPS fp32 ulps of the magnitude of the terms
that feed the element (their rounding errors survive cancellation), plus one ulp of the output
dtype where the exact value lies so close to a rounding midpoint that fp32 arithmetic may round
it either way. Elsewhere the rounding to FLOAT16/BF16 must be nearest-even exactly. Results that
are a single fp32 operation (PReLU gradInput, NLL none/sum) must be the correctly rounded value.
Every element also gets SUBNORMAL_SLACK, a few ulps of the fp32 subnormal range (exp(-100) must
be about 3.7e-44, not flushed to 0). Outside the views the tolerance is 0: the buffer must keep its bits.

Where torch and SPEC.md differ, SPEC wins (see the notes at each operator): the PReLU and
GroupNorm gradients of empty inputs are zeros; NLL always gets a weight; GroupNorm's mean and
rstd are taken as given, not recomputed; BCE-with-logits is evaluated with SPEC's log1p form
(torch's function loses losses below 1e-16, and is only used as a cross-check).

manifest.txt, one record per case, one item per line, fields separated by single spaces:

    case NAME                      starts a case; NAME is op/dtype/variant/reduction
    op OP                          bce_backward | prelu_backward | bce_with_logits |
                                   group_norm_backward | nll_loss_backward | prelu | bce |
                                   bce_logits_backward | nll_loss | group_norm
    data FILE                      the case's .npz, relative to the manifest
    attr KEY VALUE                 reduction, ignoreIndex, N, C, HxW, group, outputMask (e.g. 1,0,1)
    in NAME DTYPE SHAPE STRIDES OFFSET
    out NAME DTYPE SHAPE STRIDES OFFSET
    null NAME                      an optional tensor passed as null
    end

SHAPE and STRIDES are comma-separated lists in brackets ("[]" for a 0-d tensor); DTYPE is the
aclDataType name without ACL_ (FLOAT, FLOAT16, BF16, INT32, INT64, UINT8). Storage dims are the
buffer's length.
"""

import pathlib
import shutil
import zlib

import numpy as np
import torch
import torch.nn.functional as F

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "src" / "test" / "resources" / "golden"

FLOAT, FLOAT16, BF16 = "FLOAT", "FLOAT16", "BF16"
FLOAT_TYPES = (FLOAT, FLOAT16, BF16)
INT_NPY = {"INT32": "<i4", "INT64": "<i8", "UINT8": "|u1"}
# precision (significand bits including the hidden one), minimum normal exponent, maximum exponent
FORMATS = {FLOAT: (24, -126, 127), FLOAT16: (11, -14, 15), BF16: (8, -126, 127)}

SENTINEL = -1232.0          # exact in all three float dtypes, never a result of these cases
TARGET_GAP = 127            # a class no case has: reading a target gap is a run-time error
TOL_FP32_ULPS = 32
SUBNORMAL_SLACK = 8 * 2.0 ** -149  # a few subnormal ulps: fp32 results near 0 stay honest
REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}
LAYOUTS = ("contiguous", "transposed", "offset", "stepped", "broadcast", "outstrided")


# ---------------------------------------------------------------- rounding and encoding

def round_to(x, dtype):
    """float64 values rounded to nearest-even in dtype, as float64 (directly, no double rounding)."""
    x = np.asarray(x, dtype=np.float64)
    p, emin, emax = FORMATS[dtype]
    max_finite = (2.0 - 2.0 ** (1 - p)) * 2.0 ** emax
    with np.errstate(all="ignore"):
        _, e = np.frexp(x)
        quantum = np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))
        r = np.round(x / quantum) * quantum
        r = np.where(np.abs(r) > max_finite, np.copysign(np.inf, x), r)
        return np.where(np.isfinite(x), r, x)


def ulp(x, dtype):
    """The spacing of dtype at |x| (the smallest subnormal at 0)."""
    p, emin, _ = FORMATS[dtype]
    _, e = np.frexp(np.where(np.isfinite(x), x, 0.0))
    return np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))


def rounding_in_doubt(exact, dtype, error):
    """Where exact lies within error of a rounding midpoint of dtype: there an fp32 result may
    legitimately round to either neighbour."""
    p, emin, _ = FORMATS[dtype]
    with np.errstate(all="ignore"):
        _, e = np.frexp(exact)
        quantum = np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))
        midpoint = (np.floor(exact / quantum) + 0.5) * quantum
        return np.abs(exact - midpoint) < error


def encode(values, dtype):
    """Storage array for a flat float64 (already representable) or integer buffer."""
    if dtype in INT_NPY:
        return np.asarray(values).astype(INT_NPY[dtype])
    values = np.asarray(values, dtype=np.float64)
    if dtype == FLOAT:
        return values.astype("<f4")
    if dtype == FLOAT16:
        return values.astype(np.float16).view("<u2")
    bits = (values.astype(np.float32).view(np.uint32) >> 16).astype("<u2")
    return np.where(np.isnan(values), np.uint16(0x7FC0), bits).astype("<u2")


def tie_partners(rng, dtype, factor, count):
    """count values of dtype whose exact product with factor lies halfway between two dtype values
    (so only round-half-to-even gives the expected result); half round up to even, half down."""
    p, emin, _ = FORMATS[dtype]
    found = {0: [], 1: []}
    for _ in range(100):
        g = round_to(rng.normal(size=4096), dtype)
        product = g * factor  # exact in float64: at most 2 x 11 significant bits
        _, e = np.frexp(product)
        units = product / np.ldexp(1.0, np.maximum(e - 1, emin) - (p - 1))
        tie = units - np.floor(units) == 0.5
        for parity in (0, 1):
            found[parity].extend(g[tie & (np.floor(units) % 2 == parity)])
        if min(len(v) for v in found.values()) >= count:
            break
    else:
        raise ValueError(f"too few ties for {factor} in {dtype}")
    chosen = np.array(found[0][:(count + 1) // 2] + found[1][:count // 2])
    return chosen[rng.permutation(count)]


def tie_friendly(values):
    """values replaced by +-1.5 * 2^k of about the same size. The product of such a factor with a
    p-bit significand m is a tie exactly when 3m needs p + 1 bits, which about a sixth of all
    random values do; a factor with many significant bits would almost never give one."""
    _, e = np.frexp(values)
    return np.where(values == 0, 0.75, np.copysign(np.ldexp(0.75, e), values))


def gap_value(dtype):
    return TARGET_GAP if dtype in INT_NPY else np.nan


# ---------------------------------------------------------------- layouts

def contiguous_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return list(reversed(strides))


def place(value, perm=None, step=None, pad=None, lead=0, tail=0, expand=(), fill=np.nan):
    """Lay value (view-shaped) out in a flat buffer.

    The storage holds the view dimensions in the order perm, dimension d stepped by step[d] and
    followed by pad[d] unused slots; lead/tail unused elements surround the whole thing. Dimensions
    in expand are stored once and read with stride 0. Returns (buffer, strides, offset).
    """
    shape = value.shape
    rank = len(shape)
    if value.size == 0:
        return np.full(4, fill), contiguous_strides(shape), 0
    perm = list(perm) if perm is not None else list(range(rank))
    step = list(step) if step is not None else [1] * rank
    pad = list(pad) if pad is not None else [0] * rank
    extent = [1 if d in expand else (shape[d] - 1) * step[d] + 1 + pad[d] for d in range(rank)]
    storage_shape = [extent[d] for d in perm]
    storage_strides = contiguous_strides(storage_shape)
    strides = [0] * rank
    for i, d in enumerate(perm):
        strides[d] = 0 if d in expand else storage_strides[i] * step[d]
    storage = np.full(storage_shape, fill)
    index = tuple(slice(0, 1) if d in expand else slice(0, extent[d] - pad[d], step[d]) for d in perm)
    source = value[tuple(slice(0, 1) if d in expand else slice(None) for d in range(rank))]
    storage[index] = source.transpose(perm) if rank else source
    buffer = np.concatenate([np.full(lead, fill), storage.ravel(), np.full(tail, fill)])
    return buffer, strides, lead


def layout_args(layout, role, rank, expand=()):
    """The place() arguments of one tensor for a case layout.

    transposed and stepped change the inputs only, outstrided the outputs only, offset and
    channels_last both;
    broadcast reads the inputs that the case builder made constant along `expand` with stride 0.
    """
    reverse = list(reversed(range(rank)))
    if layout == "channels_last":  # NCHW views of NHWC memory, in and out
        return {"perm": [0] + list(range(2, rank)) + [1]} if rank >= 3 else {}
    if role == "in":
        if layout == "transposed":
            return {"perm": reverse}
        if layout == "stepped":
            return {"step": [2 if d in (0, rank - 1) else 1 for d in range(rank)],
                    "pad": [1] * rank, "lead": 1}
        if layout == "broadcast":
            return {"expand": expand}
    elif layout == "outstrided":
        return {"perm": reverse, "step": [2 if d == rank - 1 else 1 for d in range(rank)],
                "pad": [1] * rank, "lead": 5, "tail": 3}
    if layout == "offset":
        return {"lead": 3, "tail": 2}
    return {}


def constant_along(value, axes):
    """value made constant along axes (the values at index 0 repeated), for a stride-0 input."""
    for axis in axes:
        value = np.repeat(np.take(value, [0], axis=axis), value.shape[axis], axis=axis)
    return value


# ---------------------------------------------------------------- cases

def fmt(items):
    return "[" + ",".join(str(int(v)) for v in items) + "]"


class Case:
    """One golden case: its tensors are written as they are added."""

    counters = {}

    def __init__(self, op, name, layout="contiguous"):
        self.name = f"{op}/{name}"
        self.layout = layout
        number = Case.counters.get(op, 0)
        Case.counters[op] = number + 1
        self.prefix = f"{op}/{number:03d}"
        self.lines = [f"case {self.name}", f"op {op}", f"data {self.prefix}.npz"]
        self.arrays = {}
        self.rng = np.random.default_rng(zlib.crc32(self.name.encode()))

    def attr(self, key, value):
        self.lines.append(f"attr {key} {value}")

    def null(self, name):
        self.lines.append(f"null {name}")

    def input(self, name, dtype, value, expand=()):
        """value: view-shaped float64 (representable in dtype) or integers."""
        value = np.asarray(value)
        args = layout_args(self.layout, "in", value.ndim, expand)
        buffer, strides, offset = place(value.astype(np.float64), fill=gap_value(dtype), **args)
        self.arrays[name] = encode(buffer, dtype)
        self.lines.append(f"in {name} {dtype} {fmt(value.shape)} {fmt(strides)} {offset}")

    def output(self, name, dtype, shape, expected=None, scale=None):
        """expected: view-shaped exact (float64) result, or None for an output that must stay
        untouched; scale: magnitude of the terms behind each element (default |expected|)."""
        shape = tuple(shape)
        untouched = np.full(shape, SENTINEL)
        args = layout_args(self.layout, "out", len(shape))
        init, strides, offset = place(untouched, fill=SENTINEL, **args)
        if expected is None:
            final, tol = init, np.zeros_like(init)
        else:
            expected = np.asarray(expected, dtype=np.float64).reshape(shape)
            rounded = round_to(expected, dtype)
            scale = np.abs(expected) if scale is None else np.broadcast_to(scale, shape)
            fp32_error = TOL_FP32_ULPS * 2.0 ** -24 * np.nan_to_num(scale, posinf=0.0)
            step = np.where(rounding_in_doubt(expected, dtype, fp32_error),
                            np.maximum(ulp(expected, dtype), ulp(rounded, dtype)), 0.0)
            view_tol = step + fp32_error + SUBNORMAL_SLACK
            final, _, _ = place(rounded, fill=SENTINEL, **args)
            tol, _, _ = place(view_tol, fill=0.0, **args)
        self.arrays[name + ".init"] = encode(init, dtype)
        self.arrays[name + ".expect"] = encode(final, dtype)
        self.arrays[name + ".tol"] = tol.astype("<f4")
        self.lines.append(f"out {name} {dtype} {fmt(shape)} {fmt(strides)} {offset}")

    def finish(self, manifest):
        np.savez_compressed(GOLDEN / f"{self.prefix}.npz", **self.arrays)
        manifest.extend(self.lines)
        manifest.append("end")


def t64(a):
    return torch.from_numpy(np.array(a, dtype=np.float64))  # a copy; keeps 0-d arrays 0-d


def gen(case, dtype, shape, low=None, high=None):
    """Random values of shape rounded to dtype: uniform in [low, high) or standard normal."""
    raw = case.rng.normal(size=shape) if low is None else case.rng.uniform(low, high, size=shape)
    return round_to(raw, dtype)


def promote(*dtypes):
    present = {d for d in dtypes if d is not None}
    return present.pop() if len(present) == 1 else FLOAT


# ---------------------------------------------------------------- BinaryCrossEntropyBackward

def bce_backward(manifest, name, dtype, reduction, shape=(3, 4, 5), layout="contiguous", out_dtype=None,
                 grad_shape=None, weight_shape="same", self_values=None, dtypes=None):
    """weight_shape: "same" = self's shape, None = no weight, or a shape broadcasting to self."""
    case = Case("bce_backward", name, layout)
    dt = {"self": dtype, "target": dtype, "grad": dtype, "weight": dtype, **(dtypes or {})}
    out_dtype = out_dtype or dtype
    rank = len(shape)
    expand = (0,) if layout == "broadcast" and rank else ()
    if grad_shape is None:
        grad_shape = shape if reduction == 0 else ()
    x = gen(case, dt["self"], shape, 0.02, 0.98)
    if self_values is not None:
        flat = x.reshape(-1)
        flat[:len(self_values)] = self_values
    y = gen(case, dt["target"], shape, 0.0, 1.0)
    if self_values is not None:  # pair the edge self values with both hard and soft targets
        y.reshape(-1)[:len(self_values)] = round_to(np.resize([0.0, 1.0, 0.5, 0.3], len(self_values)), dt["target"])
    g = gen(case, dt["grad"], grad_shape)
    w = None if weight_shape is None else gen(case, dt["weight"], shape if weight_shape == "same" else weight_shape,
                                             0.5, 2.0)
    def full_shape(a):
        return a is not None and a.shape == tuple(shape)

    if expand:
        y = constant_along(y, expand)
        g = constant_along(g, expand) if full_shape(g) else g
        w = constant_along(w, expand) if full_shape(w) else w
    case.input("gradOutput", dt["grad"], g, expand if full_shape(g) else ())
    case.input("self", dt["self"], x)
    case.input("target", dt["target"], y, expand)
    if w is None:
        case.null("weight")
    else:
        case.input("weight", dt["weight"], w, expand if full_shape(w) else ())
    case.attr("reduction", reduction)
    expected = None
    if x.size:
        tw = None if w is None else t64(w).expand(shape)
        expected = torch.ops.aten.binary_cross_entropy_backward(
            t64(g).expand(shape), t64(x), t64(y), tw, reduction).numpy()
    # Computed in fp32 whatever the promoted type (SPEC 4): a FLOAT out of FLOAT16 inputs is rounded once,
    # to FLOAT, never through FLOAT16.
    case.output("out", out_dtype, shape, expected)
    case.finish(manifest)


def bce_backward_cases(manifest):
    for dtype in FLOAT_TYPES:
        for reduction, rname in REDUCTIONS.items():
            for layout in LAYOUTS:
                grad_shape = (1,) if reduction and layout != "contiguous" else None
                bce_backward(manifest, f"{dtype}/{layout}/{rname}", dtype, reduction, layout=layout,
                             grad_shape=grad_shape)
        # self exactly 0 and 1: the denominator is clamped to 1e-12 (inf in FLOAT16)
        for reduction in (0, 1):
            bce_backward(manifest, f"{dtype}/clamp/{REDUCTIONS[reduction]}", dtype, reduction, shape=(2, 6),
                         self_values=[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0])
        bce_backward(manifest, f"{dtype}/no_weight/none", dtype, 0, weight_shape=None)
        bce_backward(manifest, f"{dtype}/weight_last_dim/sum", dtype, 2, weight_shape=(5,))
        bce_backward(manifest, f"{dtype}/rank8/mean", dtype, 1, shape=(2, 1, 2, 3, 1, 2, 1, 2), layout="transposed")
        bce_backward(manifest, f"{dtype}/empty/none", dtype, 0, shape=(3, 0, 2))
        bce_backward(manifest, f"{dtype}/empty/mean", dtype, 1, shape=(0,))
    bce_backward(manifest, "FLOAT/rank0/none", FLOAT, 0, shape=())
    bce_backward(manifest, "FLOAT/grad_full_shape/mean", FLOAT, 1, grad_shape=(3, 4, 5))
    bce_backward(manifest, "FLOAT16/grad_rank1/sum", FLOAT16, 2, grad_shape=(1,), weight_shape=(4, 1))
    # type promotion: FLOAT16 or BF16 with FLOAT computes in FLOAT; the out dtype may differ
    bce_backward(manifest, "mixed/FLOAT16_self_FLOAT_rest/none", FLOAT, 0, dtypes={"self": FLOAT16})
    bce_backward(manifest, "mixed/BF16_target_out_FLOAT16/mean", FLOAT16, 1, dtypes={"target": BF16, "self": FLOAT})
    bce_backward(manifest, "mixed/FLOAT16_in_FLOAT_out/none", FLOAT16, 0, out_dtype=FLOAT)
    bce_backward(manifest, "mixed/BF16_in_FLOAT16_weight_BF16_out/sum", BF16, 2, dtypes={"weight": FLOAT16},
                 out_dtype=BF16)


# ---------------------------------------------------------------- PreluBackward

def prelu_backward(manifest, name, dtype, shape=(2, 3, 4, 5), layout="contiguous", weight_shape="channels",
                   grad_shape=None, zeros=0, ties=False):
    """weight_shape "channels" = [C]; zeros: how many self elements are exactly 0; ties: self < 0
    and every w*g exactly halfway between two dtype values (needs a single weight)."""
    case = Case("prelu_backward", name, layout)
    rank = len(shape)
    channels = shape[1] if rank >= 2 else 1
    weight_shape = (channels,) if weight_shape == "channels" else tuple(weight_shape)
    grad_shape = tuple(shape) if grad_shape is None else tuple(grad_shape)
    expand = (0,) if layout == "broadcast" and rank and grad_shape == tuple(shape) else ()
    x = gen(case, dtype, shape)
    if zeros:
        x.reshape(-1)[case.rng.choice(x.size, zeros, replace=False)] = 0.0
    weight_expand = (0,) if expand and len(weight_shape) == 1 and weight_shape[0] > 1 else ()  # all one value
    w = constant_along(gen(case, dtype, weight_shape, -0.5, 1.0), weight_expand)
    g = constant_along(gen(case, dtype, grad_shape), expand)
    if ties:
        x = -np.abs(x)
        w = tie_friendly(w)
        g = tie_partners(case.rng, dtype, w.item(), g.size).reshape(grad_shape)
    case.input("gradOutput", dtype, g, expand)
    case.input("self", dtype, x)
    case.input("weight", dtype, w, weight_expand)
    if x.size:
        gi, gw = torch.ops.aten.prelu_backward(t64(g).expand(shape), t64(x), t64(w).reshape(-1))
        gi, gw = gi.numpy(), gw.numpy().reshape(weight_shape)
        # gradWeight sums self*g over the channel (or all of self for a single weight)
        terms = np.where(x > 0, 0.0, np.abs(x * np.broadcast_to(g, shape)))
        terms = terms.reshape(shape[0], channels, -1) if w.size > 1 else terms.reshape(1, 1, -1)
        gw_scale = terms.sum(axis=(0, 2)).reshape(weight_shape)
    else:  # SPEC: the sum over nothing is zero (CANN leaves gradWeight unwritten)
        gi, gw, gw_scale = None, np.zeros(weight_shape), np.zeros(weight_shape)
    gw_shape = weight_shape if w.size == 1 else (channels,)
    # g or one product w*g: a single fp32 rounding, so the result must be the correctly rounded one
    case.output("gradInput", dtype, shape, gi, scale=0.0)
    case.output("gradWeight", dtype, gw_shape, gw, scale=gw_scale)
    case.finish(manifest)


def prelu_backward_cases(manifest):
    for dtype in FLOAT_TYPES:
        for layout in LAYOUTS:
            prelu_backward(manifest, f"{dtype}/{layout}", dtype, layout=layout, zeros=6)
        prelu_backward(manifest, f"{dtype}/weight1", dtype, weight_shape=(1,), zeros=4)
        prelu_backward(manifest, f"{dtype}/rank1_weight1", dtype, shape=(17,), weight_shape=(1,), zeros=3)
        prelu_backward(manifest, f"{dtype}/rank8", dtype, shape=(2, 3, 1, 2, 2, 1, 2, 2), layout="stepped")
        prelu_backward(manifest, f"{dtype}/empty", dtype, shape=(0, 3, 4))
        if dtype != FLOAT:
            prelu_backward(manifest, f"{dtype}/rounding_ties", dtype, shape=(4, 8), weight_shape=(1,), ties=True)
    prelu_backward(manifest, "FLOAT/weight0d", FLOAT, shape=(3, 4), weight_shape=(), zeros=2)
    prelu_backward(manifest, "FLOAT/weight1_rank1/offset", FLOAT, shape=(9,), weight_shape=(1,), layout="offset")
    prelu_backward(manifest, "FLOAT/rank2_NC/transposed", FLOAT, shape=(7, 5), layout="transposed", zeros=5)
    prelu_backward(manifest, "FLOAT/rank3_NCL/outstrided", FLOAT, shape=(2, 4, 6), layout="outstrided", zeros=3)
    prelu_backward(manifest, "FLOAT/rank0_weight1", FLOAT, shape=(), weight_shape=(1,))
    prelu_backward(manifest, "FLOAT/grad_broadcast_shape", FLOAT, shape=(2, 3, 4), grad_shape=(3, 1))
    prelu_backward(manifest, "FLOAT/empty_weight1", FLOAT, shape=(2, 0), weight_shape=(1,))
    prelu_backward(manifest, "BF16/all_zero_self", BF16, shape=(2, 3), zeros=6)


# ---------------------------------------------------------------- BinaryCrossEntropy

def bce(manifest, name, dtype, reduction, shape=(3, 4, 5), layout="contiguous", weight_shape=None,
        target_dtype=None, out_dtype=None, edges=True, out_shape=None):
    """weight_shape None: no weight; edges: some probabilities exactly 0 and 1 (the -100 clamp)
    and some below 1e-9 (log1p(-x), not log(1 - x): the expected loss is computed here with log1p,
    torch's only cross-checks it). The loss is computed in self's dtype and cast
    to out's, as CANN does; an empty self fills out (NaN for mean, 0 otherwise)."""
    case = Case("bce", name, layout)
    target_dtype = target_dtype or dtype
    out_dtype = out_dtype or dtype
    x = round_to(case.rng.uniform(0.0, 1.0, size=shape), dtype)
    if edges and x.size >= 6:
        flat = x.reshape(-1)
        at = case.rng.choice(x.size, 6, replace=False)
        flat[at] = round_to(np.array([0.0, 1.0, 0.0, 1.0, 3e-10, 1 - 2.0 ** -11]), dtype)
    y = round_to(np.where(case.rng.uniform(size=shape) < 0.3, np.round(case.rng.uniform(size=shape)),
                          case.rng.uniform(size=shape)), target_dtype)
    w = None if weight_shape is None else gen(case, dtype, weight_shape, 0.0, 2.0)
    case.input("self", dtype, x)
    case.input("target", target_dtype, y)
    if w is None:
        case.null("weight")
    else:
        case.input("weight", dtype, w)
    case.attr("reduction", reduction)
    wb = 1.0 if w is None else np.broadcast_to(w, shape)
    log_x = np.maximum(np.log(x, where=x > 0, out=np.full(x.shape, -np.inf)), -100.0)
    log_1mx = np.maximum(np.log1p(-x, where=x < 1, out=np.full(x.shape, -np.inf)), -100.0)
    terms = (np.abs(y * log_x) + np.abs((1 - y) * log_1mx)) * np.abs(wb)
    if x.size:
        loss = F.binary_cross_entropy(t64(x), t64(y), weight=None if w is None else t64(w).expand(shape),
                                      reduction=REDUCTIONS[reduction]).numpy()
        mine = -(y * log_x + (1 - y) * log_1mx) * wb
        mine = mine if reduction == 0 else (mine.mean() if reduction == 1 else mine.sum())
        # torch 1.13 takes log(1 - x), which loses x's digits below 1e-9: it only cross-checks
        assert np.allclose(loss, mine, rtol=1e-6, atol=1e-300), (name, loss, mine)
        loss = mine
        scale = terms if reduction == 0 else (terms.mean() if reduction == 1 else terms.sum())
        if dtype != FLOAT and out_dtype != dtype:  # CANN computes in self's dtype, then casts
            loss = round_to(np.asarray(loss), dtype)
    else:
        loss = np.full(out_shape, np.nan if reduction == 1 else 0.0)
        scale = 0.0
    shape_out = out_shape if out_shape is not None else (shape if reduction == 0 else (1,))
    case.output("out", out_dtype, shape_out, np.broadcast_to(loss, shape_out), scale=scale)
    case.finish(manifest)


def bce_cases(manifest):
    for dtype in FLOAT_TYPES:
        for reduction in REDUCTIONS:
            for layout in LAYOUTS:
                if layout == "broadcast":
                    continue  # self and target have no broadcasting; the weight's is below
                bce(manifest, f"{dtype}/{layout}/{REDUCTIONS[reduction]}", dtype, reduction, layout=layout,
                    weight_shape=(3, 4, 5) if layout != "outstrided" else None)
            bce(manifest, f"{dtype}/weight_row/{REDUCTIONS[reduction]}", dtype, reduction, weight_shape=(5,))
        bce(manifest, f"{dtype}/rank8/sum", dtype, 2, shape=(2, 1, 3, 1, 2, 1, 2, 2), weight_shape=(1,))
    bce(manifest, "FLOAT/weight0d/mean", FLOAT, 1, weight_shape=())
    bce(manifest, "FLOAT/rank0/none", FLOAT, 0, shape=(), edges=False)
    bce(manifest, "FLOAT/large/mean", FLOAT, 1, shape=(70, 130), weight_shape=(130,), layout="transposed")
    bce(manifest, "FLOAT/out_1x1/sum", FLOAT, 2, shape=(4, 6), out_shape=(1, 1))
    # without a weight the dtypes may mix: computed in self's dtype, cast to out's
    bce(manifest, "mixed/FLOAT16_self_FLOAT_target_BF16_out/none", FLOAT16, 0, target_dtype=FLOAT, out_dtype=BF16)
    bce(manifest, "mixed/BF16_self_FLOAT_out/mean", BF16, 1, out_dtype=FLOAT)
    bce(manifest, "mixed/FLOAT_self_FLOAT16_target/sum", FLOAT, 2, target_dtype=FLOAT16, layout="stepped")
    # an empty self fills out, whatever its shape
    for reduction in REDUCTIONS:
        bce(manifest, f"FLOAT/empty/{REDUCTIONS[reduction]}", FLOAT, reduction, shape=(0, 4), out_shape=(3,))


# ---------------------------------------------------------------- BinaryCrossEntropyWithLogitsBackward

def bce_logits_backward(manifest, name, dtype, reduction, shape=(3, 4, 5), layout="contiguous", grad_shape=None,
                        weight_shape=None, pos_weight_shape=None, dtypes=None):
    """The gradient of torch's binary_cross_entropy_with_logits with respect to self, by autograd
    in float64; gradOutput grad_shape (default: self's for none, 0-d otherwise), weight and
    posWeight absent (None) or of their shapes; dtypes overrides a tensor's dtype (they promote;
    out's is target's)."""
    case = Case("bce_logits_backward", name, layout)
    dtypes = dtypes or {}
    kind = {n: dtypes.get(n, dtype) for n in ("gradOutput", "self", "target", "weight", "posWeight")}
    grad_shape = tuple(grad_shape) if grad_shape is not None else (tuple(shape) if reduction == 0 else ())
    expand = (0,) if layout == "broadcast" and len(shape) and grad_shape == tuple(shape) else ()
    x = round_to(case.rng.uniform(-6, 6, size=shape), kind["self"])
    if x.size >= 4:
        x.reshape(-1)[:4] = round_to(np.array([30.0, -30.0, 0.0, 88.0]), kind["self"])
    y = round_to(np.where(case.rng.uniform(size=shape) < 0.3, np.round(case.rng.uniform(size=shape)),
                          case.rng.uniform(size=shape)), kind["target"])
    g = constant_along(gen(case, kind["gradOutput"], grad_shape, -2.0, 2.0), expand)
    w = None if weight_shape is None else gen(case, kind["weight"], weight_shape, 0.0, 2.0)
    pw = None if pos_weight_shape is None else gen(case, kind["posWeight"], pos_weight_shape, 0.0, 3.0)
    case.input("gradOutput", kind["gradOutput"], g, expand)
    case.input("self", kind["self"], x)
    case.input("target", kind["target"], y)
    for opt, v in (("weightOptional", w), ("posWeightOptional", pw)):
        if v is None:
            case.null(opt)
        else:
            case.input(opt, kind["weight" if opt == "weightOptional" else "posWeight"], v)
    case.attr("reduction", reduction)
    if x.size:
        xt = t64(x).requires_grad_()
        loss = F.binary_cross_entropy_with_logits(xt, t64(y), weight=None if w is None else t64(w),
                                                  pos_weight=None if pw is None else t64(pw),
                                                  reduction=REDUCTIONS[reduction])
        upstream = t64(g).reshape(()) if loss.dim() == 0 else t64(g).expand(loss.shape)
        (grad,) = torch.autograd.grad(loss, xt, grad_outputs=upstream)
        grad = grad.detach().numpy()
        wb = 1.0 if w is None else np.broadcast_to(w, shape)
        pwb = 1.0 if pw is None else np.broadcast_to(pw, shape)
        sig = 1 / (1 + np.exp(-x))
        n = x.size if reduction == 1 else 1
        scale = (np.abs((pwb * y + 1 - y) * sig) + np.abs(pwb * y) + np.abs(1 - y)) * np.abs(
            np.broadcast_to(g, shape) * wb) / n
    else:
        grad, scale = None, 0.0
    case.output("out", kind["target"], shape, grad, scale=scale)
    case.finish(manifest)


def bce_logits_backward_cases(manifest):
    for dtype in FLOAT_TYPES:
        for reduction in REDUCTIONS:
            for layout in LAYOUTS:
                bce_logits_backward(manifest, f"{dtype}/{layout}/{REDUCTIONS[reduction]}", dtype, reduction,
                                    layout=layout, weight_shape=(5,), pos_weight_shape=(4, 5))
        bce_logits_backward(manifest, f"{dtype}/no_weights/none", dtype, 0)
        bce_logits_backward(manifest, f"{dtype}/rank8/mean", dtype, 1, shape=(2, 1, 3, 1, 2, 1, 2, 2),
                            weight_shape=(1,), pos_weight_shape=(2, 2))
        bce_logits_backward(manifest, f"{dtype}/empty/none", dtype, 0, shape=(0, 3))
    bce_logits_backward(manifest, "FLOAT/grad_row/none", FLOAT, 0, grad_shape=(5,), weight_shape=(4, 1))
    bce_logits_backward(manifest, "FLOAT/grad_1/sum", FLOAT, 2, grad_shape=(1,), pos_weight_shape=())
    bce_logits_backward(manifest, "FLOAT/rank0/mean", FLOAT, 1, shape=())
    bce_logits_backward(manifest, "FLOAT/large/mean", FLOAT, 1, shape=(70, 130), weight_shape=(130,),
                        layout="transposed")
    # inputs of mixed dtypes promote; out's dtype is target's
    bce_logits_backward(manifest, "mixed/FLOAT16_self_FLOAT_target/none", FLOAT16, 0, weight_shape=(5,),
                        dtypes={"target": FLOAT})
    bce_logits_backward(manifest, "mixed/BF16_target_FLOAT_rest/mean", FLOAT, 1, pos_weight_shape=(5,),
                        dtypes={"target": BF16})
    bce_logits_backward(manifest, "mixed/FLOAT16_with_BF16_weight/sum", FLOAT16, 2, weight_shape=(4, 5),
                        dtypes={"weight": BF16})


# ---------------------------------------------------------------- GroupNorm

def group_norm(manifest, name, dtype, shape=(2, 6, 4, 5), group=3, layout="contiguous", affine=True, eps=1e-5,
               offset=0.0):
    """out, meanOut and rstdOut by torch's native_group_norm in float64 (biased variance; eps as
    the float32 CANN passes to its kernel); gamma and beta null when not affine."""
    case = Case("group_norm", name, layout)
    n, c = shape[0], shape[1]
    hxw = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    x = round_to(case.rng.normal(size=shape) + offset, dtype)
    gamma = gen(case, dtype, (c,), -2.0, 2.0) if affine else None
    beta = gen(case, dtype, (c,), -2.0, 2.0) if affine else None
    case.input("self", dtype, x)
    for opt, v in (("gamma", gamma), ("beta", beta)):
        if v is None:
            case.null(opt)
        else:
            case.input(opt, dtype, v)
    for key, value in (("N", n), ("C", c), ("HxW", hxw), ("group", group)):
        case.attr(key, value)
    case.attr("eps", repr(float(eps)))
    eps32 = float(np.float32(eps))
    if x.size:
        out, mean, rstd = torch.ops.aten.native_group_norm(
            t64(x), None if gamma is None else t64(gamma), None if beta is None else t64(beta), n, c, hxw, group,
            eps32)
        out, mean, rstd = out.numpy(), mean.numpy().reshape(n, group), rstd.numpy().reshape(n, group)
        g = np.ones(c) if gamma is None else gamma
        b = np.zeros(c) if beta is None else beta
        xg = x.reshape(n, group, -1)
        centred = np.abs(xg - mean[:, :, None]).reshape(shape)
        channel = (1,) + (c,) + (1,) * (len(shape) - 2)
        out_scale = (centred * np.broadcast_to(rstd.repeat(c // group, axis=1).reshape(
            (n, c) + (1,) * (len(shape) - 2)), shape) * np.abs(g).reshape(channel)
                     + np.abs(b).reshape(channel))
        mean_scale = np.abs(xg).mean(axis=2) + 1e-300
        rstd_scale = rstd
    else:
        out, out_scale = None, 0.0
        mean, rstd = np.zeros((n, group)), np.full((n, group), np.nan)
        mean_scale, rstd_scale = 0.0, 0.0
    case.output("out", dtype, shape, out, scale=out_scale)
    case.output("meanOut", dtype, (n, group), mean, scale=mean_scale)
    case.output("rstdOut", dtype, (n, group), rstd, scale=rstd_scale)
    case.finish(manifest)


def group_norm_cases(manifest):
    for dtype in FLOAT_TYPES:
        for layout in ("contiguous", "transposed", "offset", "stepped", "outstrided"):
            group_norm(manifest, f"{dtype}/{layout}", dtype, layout=layout)
        group_norm(manifest, f"{dtype}/no_affine", dtype, affine=False)
        group_norm(manifest, f"{dtype}/offset_values", dtype, offset=30.0)
        group_norm(manifest, f"{dtype}/rank2", dtype, shape=(4, 6), group=2)
        group_norm(manifest, f"{dtype}/empty_hxw", dtype, shape=(2, 6, 0), group=3)
    group_norm(manifest, "FLOAT/group1_rank3", FLOAT, shape=(2, 3, 4), group=1)
    group_norm(manifest, "FLOAT/group_per_channel", FLOAT, shape=(2, 4, 3, 3), group=4, eps=0.25)
    group_norm(manifest, "FLOAT/large", FLOAT, shape=(3, 32, 16, 16), group=8)


# ---------------------------------------------------------------- NLLLoss

def nll_loss(manifest, name, dtype, reduction, n=6, c=5, layout="contiguous", target_dtype="INT64", ignore_index=-100,
             ignored=2, targets=None, rank1=False, out_dtype=None):
    """The loss and totalWeightOut by torch's nll_loss_forward in float64; ignored: how many rows
    get target ignoreIndex. For an empty self, mean gives NaN and sum 0 (totalWeight 0), as CANN.
    A BFLOAT16 self is computed in BFLOAT16 by CANN: results are rounded to it before out's dtype."""
    case = Case("nll_loss", name, layout)
    out_dtype = out_dtype or dtype
    self_shape = (c,) if rank1 else (n, c)
    rows = 1 if rank1 else n
    if targets is None:
        targets = case.rng.integers(0, c, rows)
        targets[case.rng.choice(rows, min(ignored, rows), replace=False)] = ignore_index
    targets = np.asarray(targets, dtype=np.int64)
    w = gen(case, dtype, (c,), -0.25, 2.0)
    x = gen(case, dtype, self_shape, -3.0, 0.0)
    target_view = targets.reshape(()) if rank1 else targets
    case.input("self", dtype, x)
    case.input("target", target_dtype, target_view)
    case.input("weight", dtype, w)
    case.attr("reduction", reduction)
    case.attr("ignoreIndex", ignore_index)
    out_shape = (n,) if reduction == 0 and not rank1 else ()
    if x.size:
        x2 = t64(x).reshape(rows, c)
        loss, total = torch.ops.aten.nll_loss_forward(x2, torch.from_numpy(targets.copy()), t64(w), reduction,
                                                      ignore_index)
        loss, total = loss.numpy().reshape(out_shape), total.numpy()
        kept = targets[targets != ignore_index]
        if reduction == 1 and kept.size == 0:
            loss = np.full(out_shape, np.nan)  # CANN divides 0 by 0; torch 1.13 gives NaN or 0 by version
        terms = np.abs(np.where(targets != ignore_index, w[np.where(targets != ignore_index, targets, 0)]
                                * x2.numpy()[np.arange(rows), np.where(targets != ignore_index, targets, 0)], 0.0))
        total_scale = np.abs(w[kept]).sum()
        scale = terms.reshape(out_shape) if reduction == 0 else (
            terms.sum() / max(abs(total), 1e-300) if reduction == 1 else terms.sum())
        if reduction == 1:
            scale = scale + np.abs(loss) * total_scale / max(abs(total), 1e-300)
        if dtype == BF16 and out_dtype != BF16:
            loss = round_to(np.asarray(loss), BF16)
    else:
        loss, total, scale, total_scale = None, 0.0, 0.0, 0.0
        if reduction != 0:
            loss = np.full(out_shape, np.nan if reduction == 1 else 0.0)
    case.output("out", out_dtype, out_shape, loss, scale=scale)
    case.output("totalWeightOut", dtype, (1,), None if reduction == 0 else np.reshape(total, (1,)),
                scale=total_scale)
    case.finish(manifest)


def nll_loss_cases(manifest):
    for dtype in FLOAT_TYPES:
        for reduction, rname in REDUCTIONS.items():
            for layout in ("contiguous", "transposed", "offset", "stepped", "outstrided"):
                nll_loss(manifest, f"{dtype}/{layout}/{rname}", dtype, reduction, layout=layout)
            nll_loss(manifest, f"{dtype}/rank1/{rname}", dtype, reduction, rank1=True, ignored=0)
        nll_loss(manifest, f"{dtype}/all_ignored/mean", dtype, 1, ignored=6)
        nll_loss(manifest, f"{dtype}/empty/mean", dtype, 1, n=0)
        nll_loss(manifest, f"{dtype}/empty/sum", dtype, 2, n=0)
    for target_dtype in ("INT32", "UINT8"):
        for reduction, rname in REDUCTIONS.items():
            # ignoreIndex 3 is a real class: rows with target 3 are left out
            nll_loss(manifest, f"FLOAT/target_{target_dtype}/{rname}", FLOAT, reduction, target_dtype=target_dtype,
                     ignore_index=3, layout="stepped")
    nll_loss(manifest, "FLOAT/rank1_ignored/sum", FLOAT, 2, rank1=True, targets=[-100])
    nll_loss(manifest, "FLOAT/large/mean", FLOAT, 1, n=300, c=40, ignored=30, layout="transposed")
    nll_loss(manifest, "mixed/FLOAT_self_FLOAT16_out/sum", FLOAT, 2, out_dtype=FLOAT16)
    nll_loss(manifest, "mixed/BF16_self_FLOAT_out/none", BF16, 0, out_dtype=FLOAT)


# ---------------------------------------------------------------- Prelu

def prelu(manifest, name, dtype, shape=(2, 3, 4, 5), layout="contiguous", weight_shape="channels", weight_dtype=None,
          out_dtype=None, zeros=0):
    """weight_shape "channels" = [C]; self and weight promote (FLOAT unless both share a dtype) and
    the result is rounded to the promoted dtype before out's, as CANN casts; zeros: how many self
    elements are exactly 0 (half of them -0)."""
    case = Case("prelu", name, layout)
    weight_dtype = weight_dtype or dtype
    out_dtype = out_dtype or promote(dtype, weight_dtype)
    channels = shape[1] if len(shape) >= 2 else 1
    weight_shape = (channels,) if weight_shape == "channels" else tuple(weight_shape)
    x = gen(case, dtype, shape)
    if zeros:
        at = case.rng.choice(x.size, zeros, replace=False)
        x.reshape(-1)[at] = np.where(np.arange(zeros) % 2 == 0, 0.0, -0.0)
    w = gen(case, weight_dtype, weight_shape, -1.0, 1.0)
    case.input("self", dtype, x)
    case.input("weight", weight_dtype, w)
    if x.size:
        # torch's prelu takes a 1-D weight; every product of two floats is exact in float64
        result = F.prelu(t64(x), t64(w).reshape(-1)).numpy()
        per_channel = w.reshape(-1)[0] if w.size == 1 else w.reshape((1, channels) + (1,) * (len(shape) - 2))
        assert np.array_equal(result, np.where(x > 0, x, per_channel * x))
        expected = round_to(result, promote(dtype, weight_dtype))
    else:
        expected = None
    case.output("out", out_dtype, shape, expected, scale=0.0)
    case.finish(manifest)


def prelu_cases(manifest):
    for dtype in FLOAT_TYPES:
        for layout in LAYOUTS + ("channels_last",):
            prelu(manifest, f"{dtype}/{layout}", dtype, layout=layout, zeros=6)
        prelu(manifest, f"{dtype}/weight1", dtype, weight_shape=(1,), zeros=4)
        prelu(manifest, f"{dtype}/rank1_weight1", dtype, shape=(17,), weight_shape=(1,), zeros=3)
        prelu(manifest, f"{dtype}/rank8", dtype, shape=(2, 3, 1, 2, 2, 1, 2, 2), layout="stepped")
        prelu(manifest, f"{dtype}/long_rows", dtype, shape=(2, 3, 300), zeros=5)
        prelu(manifest, f"{dtype}/empty", dtype, shape=(0, 3, 4))
    prelu(manifest, "FLOAT/weight0d", FLOAT, shape=(3, 4), weight_shape=(), zeros=2)
    prelu(manifest, "FLOAT/weight_2x3_for_C6", FLOAT, shape=(2, 6), weight_shape=(2, 3))
    prelu(manifest, "FLOAT/rank0_weight1", FLOAT, shape=(), weight_shape=(1,))
    prelu(manifest, "FLOAT/rank2_NC/transposed", FLOAT, shape=(7, 5), layout="transposed", zeros=5)
    prelu(manifest, "FLOAT/channels_last_rank5", FLOAT, shape=(2, 5, 3, 2, 4), layout="channels_last")
    prelu(manifest, "FLOAT/empty_weight", FLOAT, shape=(2, 0), weight_shape=(0,))
    # type promotion: a mix computes in FLOAT, the result then cast to out's dtype
    prelu(manifest, "mixed/FLOAT16_self_FLOAT_weight", FLOAT16, weight_dtype=FLOAT, zeros=2)
    prelu(manifest, "mixed/BF16_self_FLOAT16_weight_out_BF16", BF16, weight_dtype=FLOAT16, out_dtype=BF16)
    prelu(manifest, "mixed/FLOAT_in_FLOAT16_out", FLOAT, out_dtype=FLOAT16, layout="outstrided")
    # computed in FLOAT16 (both inputs FLOAT16), then cast to BF16 and FLOAT: two roundings
    prelu(manifest, "mixed/FLOAT16_in_BF16_out", FLOAT16, out_dtype=BF16, shape=(4, 3, 40))
    prelu(manifest, "mixed/BF16_in_FLOAT_out", BF16, out_dtype=FLOAT, layout="channels_last")


# ---------------------------------------------------------------- BinaryCrossEntropyWithLogits

def bce_with_logits(manifest, name, dtype, reduction, shape=(3, 4, 5), layout="contiguous", weight=True,
                    pos_weight=True, logits=None, out_shape=(1,), dtypes=None):
    """logits: values written over the first elements of self (e.g. +-100)."""
    case = Case("bce_with_logits", name, layout)
    dt = {"self": dtype, "target": dtype, "weight": dtype, "posWeight": dtype, **(dtypes or {})}
    rank = len(shape)
    expand = (0,) if layout == "broadcast" and rank else ()
    x = round_to(case.rng.normal(size=shape) * 3.0, dt["self"])
    if logits is not None:
        x.reshape(-1)[:len(logits)] = round_to(logits, dt["self"])
    y = constant_along(gen(case, dt["target"], shape, 0.0, 1.0), expand)
    if logits is not None:  # each extreme logit against a 0, a 1 and a soft target
        y.reshape(-1)[:len(logits)] = round_to(np.resize([0.0, 1.0, 0.25], len(logits)), dt["target"])
    # weights are cast to the compute type: draw values exact in both their dtype and that type
    compute = promote(dt["self"], dt["target"])
    w = constant_along(round_to(gen(case, dt["weight"], shape, 0.25, 2.0), compute), expand) if weight else None
    pw = round_to(gen(case, dt["posWeight"], shape[-1:], 0.5, 3.0), compute) if pos_weight else None
    case.input("self", dt["self"], x)
    case.input("target", dt["target"], y, expand)
    if w is None:
        case.null("weight")
    else:
        case.input("weight", dt["weight"], w, expand)
    if pw is None:
        case.null("posWeight")
    else:
        case.input("posWeight", dt["posWeight"], pw)
    case.attr("reduction", reduction)
    # SPEC's formula with torch's stable log-sigmoid. torch's own function evaluates
    # log(1 + exp(-|x|)) and so returns 0 where the loss is below 1e-16 (e.g. 3.7e-44 at x = 100,
    # y = 1), which FLOAT can hold; elsewhere the two agree.
    xt, yt = t64(x), t64(y)
    pw_t = 1.0 if pw is None else t64(pw)
    losses = (1 - yt) * xt - (1 + (pw_t - 1) * yt) * F.logsigmoid(xt)
    if w is not None:
        losses = losses * t64(w)
    loss = (losses, losses.mean(), losses.sum())[reduction].numpy()
    torch_loss = F.binary_cross_entropy_with_logits(
        xt, yt, weight=None if w is None else t64(w), pos_weight=None if pw is None else t64(pw),
        reduction=REDUCTIONS[reduction]).numpy()
    assert np.allclose(torch_loss, loss, rtol=1e-12, atol=1e-14, equal_nan=True), case.name
    # the magnitudes of the terms, whose fp32 rounding errors survive cancellation
    log_sigmoid = F.logsigmoid(xt).numpy()
    terms = np.abs((1 - y) * x) + np.abs(1 + (np.asarray(pw_t) - 1) * y) * np.abs(log_sigmoid)
    terms = terms * (1.0 if w is None else np.abs(w))
    if reduction == 0:
        case.output("out", dt["target"], shape, loss if x.size else None, scale=terms)
    else:
        scale = terms.sum() / (terms.size if reduction == 1 else 1) if terms.size else 0.0
        case.output("out", dt["target"], out_shape, loss.reshape(out_shape), scale=scale)
    case.finish(manifest)


def bce_with_logits_cases(manifest):
    extremes = [100.0, 100.0, 100.0, -100.0, -100.0, -100.0]
    for dtype in FLOAT_TYPES:
        for reduction, rname in REDUCTIONS.items():
            for layout in LAYOUTS:
                bce_with_logits(manifest, f"{dtype}/{layout}/{rname}", dtype, reduction, layout=layout)
            bce_with_logits(manifest, f"{dtype}/empty/{rname}", dtype, reduction, shape=(2, 0, 3))
            bce_with_logits(manifest, f"{dtype}/logits100/{rname}", dtype, reduction, shape=(3, 4),
                            logits=extremes)
        bce_with_logits(manifest, f"{dtype}/rank8/none", dtype, 0, shape=(2, 1, 2, 2, 1, 3, 1, 2), layout="offset")
    # the four weight combinations with extreme logits, in every reduction
    for reduction, rname in REDUCTIONS.items():
        for weight in (False, True):
            for pos_weight in (False, True):
                tag = ("weight" if weight else "no_weight") + "_" + ("pos_weight" if pos_weight else "no_pos_weight")
                bce_with_logits(manifest, f"FLOAT/{tag}/logits100/{rname}", FLOAT, reduction, shape=(4, 3),
                                weight=weight, pos_weight=pos_weight, logits=extremes + [1e4, -1e4])
    bce_with_logits(manifest, "FLOAT/rank0_out/mean", FLOAT, 1, out_shape=())
    bce_with_logits(manifest, "FLOAT/rank0_out/sum", FLOAT, 2, shape=(7,), out_shape=(), layout="outstrided")
    bce_with_logits(manifest, "FLOAT/rank0_self/none", FLOAT, 0, shape=(), pos_weight=False)
    bce_with_logits(manifest, "FLOAT/empty_rank0_out/mean", FLOAT, 1, shape=(0,), out_shape=())
    bce_with_logits(manifest, "FLOAT/large/sum", FLOAT, 2, shape=(16, 64))
    # promotion: the compute type is promote(self, target); out has target's dtype
    bce_with_logits(manifest, "mixed/BF16_self_FLOAT_target/none", FLOAT, 0, dtypes={"self": BF16})
    bce_with_logits(manifest, "mixed/FLOAT16_self_FLOAT_target/mean", FLOAT, 1, dtypes={"self": FLOAT16})
    bce_with_logits(manifest, "mixed/FLOAT16_weights_BF16/sum", BF16, 2, dtypes={"weight": FLOAT16,
                                                                             "posWeight": FLOAT})


# ---------------------------------------------------------------- GroupNormBackward

def group_norm_backward(manifest, name, dtype, n=2, c=6, spatial=(2, 3), group=3, layout="contiguous", gamma=True,
                        mask=(True, True, True), null_masked=False, true_stats=True, view_shape=None,
                        stats_shape=None):
    """view_shape: the shape of gradOut/input (default [N, C, *spatial]); stats_shape: of mean/rstd."""
    case = Case("group_norm_backward", name, layout)
    hxw = int(np.prod(spatial))
    shape = tuple(view_shape) if view_shape is not None else (n, c, *spatial)
    stats_shape = tuple(stats_shape) if stats_shape is not None else (n, group)
    expand_x = (len(shape) - 1,) if layout == "broadcast" else ()
    expand_stats = (1,) if layout == "broadcast" and len(stats_shape) == 2 and not true_stats else ()
    dy = constant_along(gen(case, dtype, shape), expand_x)
    x = gen(case, dtype, shape, -2.0, 3.0)
    x3 = x.reshape(n, c, hxw)
    grouped = x3.reshape(n, group, c // group * hxw)
    if true_stats and grouped.size:
        mean = grouped.mean(axis=2)
        rstd = 1.0 / np.sqrt(grouped.var(axis=2) + 1e-5)
    else:  # mean and rstd are used as given, whatever the data
        mean = case.rng.uniform(-1.0, 1.0, (n, group))
        rstd = case.rng.uniform(0.5, 2.0, (n, group))
    mean = constant_along(round_to(mean, dtype).reshape(stats_shape), expand_stats)
    rstd = constant_along(round_to(rstd, dtype).reshape(stats_shape), expand_stats)
    gam = gen(case, dtype, (c,), 0.5, 1.5) if gamma else None
    if gamma and layout == "broadcast":
        gam = constant_along(gam, (0,))
    case.input("gradOut", dtype, dy, expand_x)
    case.input("input", dtype, x)
    case.input("mean", dtype, mean, expand_stats)
    case.input("rstd", dtype, rstd, expand_stats)
    if gamma:
        case.input("gamma", dtype, gam, (0,) if layout == "broadcast" else ())
    else:
        case.null("gamma")
    for key, value in (("N", n), ("C", c), ("HxW", hxw), ("group", group)):
        case.attr(key, value)
    case.attr("outputMask", ",".join("1" if m else "0" for m in mask))
    if dy.size:  # a null gamma means ones (torch 1.13 fails on a null weight with gradGamma requested)
        dx, dgamma, dbeta = torch.ops.aten.native_group_norm_backward(
            t64(dy).reshape(n, c, hxw), t64(x3), t64(mean).reshape(n, group), t64(rstd).reshape(n, group),
            t64(np.ones(c) if gam is None else gam), n, c, hxw, group, list(mask))
    else:  # SPEC: the gamma and beta gradients of an empty input are zeros
        dx, dgamma, dbeta = None, torch.zeros(c, dtype=torch.float64), torch.zeros(c, dtype=torch.float64)
    scales = group_norm_scales(dy.reshape(n, c, hxw), x3, mean.reshape(n, group), rstd.reshape(n, group),
                               np.ones(c) if gam is None else gam, group)
    outputs = (("gradInput", shape, dx), ("gradGammaOut", (c,), dgamma), ("gradBetaOut", (c,), dbeta))
    for (out_name, out_shape, value), wanted, scale in zip(outputs, mask, scales):
        if not wanted and null_masked:
            case.null(out_name)
            continue
        usable = wanted and value is not None
        case.output(out_name, dtype, out_shape, value.numpy() if usable else None, scale=scale.reshape(out_shape))
    case.finish(manifest)


def group_norm_scales(dy, x, mean, rstd, gamma, group):
    """Magnitudes of the terms behind dx, dgamma and dbeta (SPEC 5.4 with every term made positive)."""
    n, c, hxw = dy.shape
    d = c // group if group else 0
    m = d * hxw
    ady, adyx = np.abs(dy).sum(axis=2), np.abs(dy * x).sum(axis=2)
    mean_c, rstd_c = np.repeat(mean, d, axis=1), np.repeat(rstd, d, axis=1)
    dbeta = ady.sum(axis=0)
    dgamma = ((adyx + np.abs(mean_c) * ady) * rstd_c).sum(axis=0)
    if not dy.size:
        return np.zeros(dy.shape), dgamma, dbeta
    s1 = (np.abs(gamma) * ady).reshape(n, group, d).sum(axis=2)
    s2 = (np.abs(gamma) * adyx).reshape(n, group, d).sum(axis=2)
    b = (s1 * np.abs(mean) + s2) * rstd ** 3 / m
    c0 = b * np.abs(mean) + s1 * rstd / m
    b_c, c0_c = np.repeat(b, d, axis=1)[..., None], np.repeat(c0, d, axis=1)[..., None]
    dx = rstd_c[..., None] * np.abs(gamma)[None, :, None] * np.abs(dy) + b_c * np.abs(x) + c0_c
    return dx, dgamma, dbeta


def group_norm_backward_cases(manifest):
    for dtype in FLOAT_TYPES:
        for layout in LAYOUTS:
            group_norm_backward(manifest, f"{dtype}/{layout}", dtype, layout=layout)
        group_norm_backward(manifest, f"{dtype}/no_gamma", dtype, gamma=False)
        group_norm_backward(manifest, f"{dtype}/given_stats", dtype, true_stats=False, layout="broadcast")
        group_norm_backward(manifest, f"{dtype}/rank8", dtype, spatial=(1, 2, 1, 2, 1, 2), group=2)
        group_norm_backward(manifest, f"{dtype}/empty_N", dtype, n=0)
        for index, out_name in enumerate(("gradInput", "gradGammaOut", "gradBetaOut")):
            mask = tuple(i != index for i in range(3))
            group_norm_backward(manifest, f"{dtype}/masked_{out_name}", dtype, mask=mask, layout="outstrided")
    for group in (1, 2, 6):
        group_norm_backward(manifest, f"FLOAT/group{group}", FLOAT, group=group)
    group_norm_backward(manifest, "FLOAT/mask_none", FLOAT, mask=(False, False, False))
    group_norm_backward(manifest, "FLOAT/mask_only_gradInput_null_others", FLOAT, mask=(True, False, False),
                        null_masked=True, gamma=False)
    group_norm_backward(manifest, "FLOAT/mask_null_gradInput", FLOAT, mask=(False, True, True), null_masked=True)
    group_norm_backward(manifest, "FLOAT/empty_HxW", FLOAT, spatial=(0,), layout="outstrided")
    group_norm_backward(manifest, "FLOAT/empty_N_no_gamma", FLOAT, n=0, gamma=False)
    group_norm_backward(manifest, "FLOAT/HxW1", FLOAT, spatial=(), group=2)
    group_norm_backward(manifest, "FLOAT/flat_shapes", FLOAT, view_shape=(2, 36), stats_shape=(6,))
    group_norm_backward(manifest, "FLOAT/larger", FLOAT, n=3, c=8, spatial=(5, 7), group=4, layout="transposed")
    group_norm_backward(manifest, "BF16/given_stats_group1", BF16, true_stats=False, group=1)


# ---------------------------------------------------------------- NLLLossBackward

def nll_loss_backward(manifest, name, dtype, reduction, n=6, c=5, layout="contiguous", target_dtype="INT64",
                      ignore_index=-100, ignored=2, targets=None, weights=None, rank1=False, ties=False):
    """ignored: how many rows get target ignoreIndex; targets/weights: explicit values; ties: every
    w[t]*g exactly halfway between two dtype values (reduction none)."""
    case = Case("nll_loss_backward", name, layout)
    self_shape = (c,) if rank1 else (n, c)
    rows = 1 if rank1 else n
    broadcast = layout == "broadcast" and not rank1
    if targets is None:
        targets = case.rng.integers(0, c, rows)
        targets[case.rng.choice(rows, min(ignored, rows), replace=False)] = ignore_index
        if broadcast:
            targets[:] = targets[0]
    targets = np.asarray(targets, dtype=np.int64)
    w = round_to(np.asarray(weights, dtype=np.float64), dtype) if weights is not None else gen(case, dtype, (c,), 0.25, 2.0)
    if broadcast:
        w = constant_along(w, (0,))
    x = gen(case, dtype, self_shape, -3.0, 0.0)
    grad_shape = (n,) if reduction == 0 and not rank1 else (1,) if layout != "contiguous" else ()
    g = constant_along(gen(case, dtype, grad_shape), (0,) if broadcast and grad_shape == (n,) else ())
    if ties:
        w = tie_friendly(w)
        for row, t in enumerate(targets):
            if t != ignore_index:
                g[row] = tie_partners(case.rng, dtype, w[t], 2)[0]
    kept = targets[targets != ignore_index]
    total = round_to(w[kept].sum() if kept.size else 0.0, dtype).reshape(1 if layout != "contiguous" else ())
    target_view = targets.reshape(()) if rank1 else targets
    case.input("gradOutput", dtype, g, (0,) if broadcast and grad_shape == (n,) else ())
    case.input("self", dtype, x)
    case.input("target", target_dtype, target_view, (0,) if broadcast else ())
    case.input("weight", dtype, w, (0,) if broadcast else ())
    case.attr("reduction", reduction)
    case.attr("ignoreIndex", ignore_index)
    case.input("totalWeight", dtype, total)
    expected = None
    if x.size:
        expected = torch.ops.aten.nll_loss_backward(
            t64(g), t64(x), torch.from_numpy(target_view.copy()), t64(w), reduction, ignore_index,
            t64(total)).numpy()
    # none and sum: one product -w*g, a single rounding, so bit-exact; mean divides as well
    case.output("out", dtype, self_shape, expected, scale=None if reduction == 1 else 0.0)
    case.finish(manifest)


def nll_loss_backward_cases(manifest):
    for dtype in FLOAT_TYPES:
        for reduction, rname in REDUCTIONS.items():
            for layout in LAYOUTS:
                nll_loss_backward(manifest, f"{dtype}/{layout}/{rname}", dtype, reduction, layout=layout)
            nll_loss_backward(manifest, f"{dtype}/rank1/{rname}", dtype, reduction, rank1=True, ignored=0)
        nll_loss_backward(manifest, f"{dtype}/all_ignored/mean", dtype, 1, ignored=6)
        nll_loss_backward(manifest, f"{dtype}/empty/mean", dtype, 1, n=0)
        if dtype != FLOAT:
            nll_loss_backward(manifest, f"{dtype}/rounding_ties/none", dtype, 0, n=16, ignored=1, ties=True)
    for target_dtype in ("INT32", "UINT8"):
        for reduction, rname in REDUCTIONS.items():
            # ignoreIndex 3 is a real class: rows with target 3 must be skipped
            nll_loss_backward(manifest, f"FLOAT/target_{target_dtype}/{rname}", FLOAT, reduction,
                              target_dtype=target_dtype, ignore_index=3, layout="stepped")
        nll_loss_backward(manifest, f"FLOAT16/target_{target_dtype}/mean", FLOAT16, 1, target_dtype=target_dtype,
                          ignore_index=1)
    nll_loss_backward(manifest, "FLOAT/rank1_ignored/mean", FLOAT, 1, rank1=True, targets=[-100])
    nll_loss_backward(manifest, "FLOAT/rank1_ignored_uint8/sum", FLOAT, 2, rank1=True, targets=[4],
                      target_dtype="UINT8", ignore_index=4)
    nll_loss_backward(manifest, "FLOAT/rank1_all_ignored/mean_offset", FLOAT, 1, rank1=True, targets=[-100],
                      layout="offset")
    # totalWeight 0 with live targets: plain division gives -inf (weight 1) and NaN (weight 0)
    nll_loss_backward(manifest, "FLOAT/zero_total_weight/mean", FLOAT, 1, n=4, c=3, targets=[0, 1, 2, -100],
                      weights=[1.0, -1.0, 0.0])
    nll_loss_backward(manifest, "BF16/zero_total_weight/mean", BF16, 1, n=3, c=3, targets=[2, 2, 0],
                      weights=[0.0, 1.0, 0.0])
    nll_loss_backward(manifest, "FLOAT/ignore_index_0/sum", FLOAT, 2, ignore_index=0, ignored=3)
    nll_loss_backward(manifest, "FLOAT/empty_classes/none", FLOAT, 0, n=3, c=0, targets=[-100, -100, -100])
    nll_loss_backward(manifest, "FLOAT/large/mean", FLOAT, 1, n=40, c=30, ignored=7, layout="transposed")


# ---------------------------------------------------------------- main

def main():
    if GOLDEN.exists():
        shutil.rmtree(GOLDEN)
    manifest = ["# Generated by tools/golden/make_goldens.py; the format is described there. Do not edit."]
    builders = (("bce_backward", bce_backward_cases), ("prelu_backward", prelu_backward_cases),
                ("bce_with_logits", bce_with_logits_cases), ("group_norm_backward", group_norm_backward_cases),
                ("nll_loss_backward", nll_loss_backward_cases), ("prelu", prelu_cases),
                ("bce", bce_cases), ("bce_logits_backward", bce_logits_backward_cases),
                ("nll_loss", nll_loss_cases), ("group_norm", group_norm_cases))
    for op, build in builders:
        (GOLDEN / op).mkdir(parents=True)
        build(manifest)
    (GOLDEN / "manifest.txt").write_text("\n".join(manifest) + "\n")
    size = sum(f.stat().st_size for f in GOLDEN.rglob("*") if f.is_file())
    counts = ", ".join(f"{op} {n}" for op, n in Case.counters.items())
    print(f"{sum(Case.counters.values())} cases ({counts}), {size / 1024:.0f} KiB in {GOLDEN}")


if __name__ == "__main__":
    main()
