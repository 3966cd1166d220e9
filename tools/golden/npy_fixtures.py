#!/usr/bin/python3
"""The .npy files NpyTest reads: arrays saved by NumPy itself, of every dtype aclnn4j maps.

Run with Debian's interpreter (numpy is all it needs):

    /usr/bin/python3 tools/golden/npy_fixtures.py

It rewrites src/test/resources/npy/ from scratch, deterministically. Each file is written by
np.save (or np.lib.format.write_array for versions 2.0 and 3.0), except the bfloat16 ones:
NumPy has no bfloat16, and ml_dtypes is not a Debian package, so those headers are written with
np.lib.format's own header writer, holding the descr that np.save gives an ml_dtypes.bfloat16
array: '<V2' (ml_dtypes registers bfloat16 as a legacy dtype of kind 'V', byte order '=', and
np.save writes dtype.str), followed by the bfloat16 bit patterns. '|V2' is what np.save writes
for such a file loaded without ml_dtypes (a plain 2-byte void array).

manifest.txt has one line per file: NAME DTYPE SHAPE HEX, where DTYPE is aclnn4j's DType the
file must read as, SHAPE is [d0,d1,...] ([] for 0-d), and HEX the elements NumPy says the file
holds, in row-major order, little-endian (bfloat16: the bit patterns; '-' when there are none).
"""

import io
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "src", "test", "resources", "npy")


def bf16_bits(values):
    """float32 values rounded to bfloat16 (nearest even; NaN as 0x7FC0), as uint16 bit patterns."""
    f = np.asarray(values, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(f), np.uint16(0x7FC0), rounded)


def header(descr, fortran, shape):
    """The version 1.0 preamble and header np.save writes for an array of this descr, order and shape."""
    b = io.BytesIO()
    np.lib.format.write_array_header_1_0(b, {"descr": descr, "fortran_order": fortran, "shape": shape})
    return b.getvalue()


def read_header(data):
    b = io.BytesIO(data)
    version = np.lib.format.read_magic(b)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(b)
    else:
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(b)
    return version, shape, fortran, dtype


def saved(array, version=None):
    b = io.BytesIO()
    if version is None:
        np.save(b, array)
    else:
        np.lib.format.write_array(b, array, version=version)
    return b.getvalue()


def little_endian_c_order(array):
    a = np.ascontiguousarray(array)
    return a.astype(a.dtype.newbyteorder("<")).tobytes()


def main():
    rng = np.random.default_rng(20240611)
    files = []  # (name, bytes, dtype name, shape, expected little-endian row-major bytes)

    def numpy_file(name, dtype_name, array, version=None, fortran=False, descr=None):
        data = saved(array, version)
        got_version, shape, got_fortran, got_dtype = read_header(data)
        assert got_version == (version or (1, 0)), (name, got_version)
        assert got_fortran == fortran, (name, got_fortran)
        if descr is not None:
            assert got_dtype.str == descr, (name, got_dtype.str)
        back = np.load(io.BytesIO(data))
        assert back.shape == array.shape and back.tobytes() == array.tobytes(), name
        files.append((name, data, dtype_name, array.shape, little_endian_c_order(array)))

    specials32 = np.array([0.0, -0.0, 1.5, np.nan, np.inf, 1e-40], dtype=np.float32).reshape(2, 3)
    numpy_file("f4.npy", "FLOAT", specials32, descr="<f4")
    numpy_file("f2.npy", "FLOAT16", np.array([65504, -0.0, 6e-8, np.nan, -np.inf], dtype=np.float16), descr="<f2")
    numpy_file("f8.npy", "DOUBLE", rng.standard_normal((2, 2)), descr="<f8")
    numpy_file("i8.npy", "INT64", np.array([np.iinfo(np.int64).min, -1, np.iinfo(np.int64).max], dtype=np.int64),
               descr="<i8")
    numpy_file("i4.npy", "INT32", np.array([[np.iinfo(np.int32).min, 7], [-7, np.iinfo(np.int32).max]], dtype=np.int32),
               descr="<i4")
    numpy_file("u1.npy", "UINT8", np.array([0, 1, 128, 255], dtype=np.uint8), descr="|u1")
    numpy_file("b1.npy", "BOOL", np.array([[True, False, True], [False, False, True]]), descr="|b1")

    # big-endian descrs, as np.save writes arrays of a byte-swapped dtype
    numpy_file("be_f4.npy", "FLOAT", specials32.astype(">f4"), descr=">f4")
    numpy_file("be_f2.npy", "FLOAT16", rng.standard_normal(4).astype(">f2"), descr=">f2")
    numpy_file("be_f8.npy", "DOUBLE", rng.standard_normal((3, 1)).astype(">f8"), descr=">f8")
    numpy_file("be_i8.npy", "INT64", rng.integers(-2**62, 2**62, size=(2, 2)).astype(">i8"), descr=">i8")
    numpy_file("be_i4.npy", "INT32", rng.integers(-2**31, 2**31, size=5).astype(">i4"), descr=">i4")

    # Fortran order: np.save writes an F-contiguous (not C-contiguous) array as it is, with fortran_order True
    numpy_file("fortran_f4.npy", "FLOAT", np.asfortranarray(rng.standard_normal((2, 3, 4)).astype(np.float32)),
               fortran=True, descr="<f4")
    numpy_file("fortran_be_i4.npy", "INT32", np.asfortranarray(np.arange(6, dtype=">i4").reshape(3, 2)),
               fortran=True, descr=">i4")
    numpy_file("fortran_b1.npy", "BOOL", np.asfortranarray(rng.integers(0, 2, size=(2, 3)).astype(bool)),
               fortran=True, descr="|b1")

    # 0-d and empty arrays
    numpy_file("scalar_f8.npy", "DOUBLE", np.array(2.5), descr="<f8")
    numpy_file("scalar_i8.npy", "INT64", np.array(-3, dtype=np.int64), descr="<i8")
    numpy_file("empty_f4.npy", "FLOAT", np.zeros((0, 3), dtype=np.float32), descr="<f4")
    numpy_file("empty_i8.npy", "INT64", np.zeros((0,), dtype=np.int64), descr="<i8")

    # format versions 2.0 and 3.0
    numpy_file("v2_f4.npy", "FLOAT", rng.standard_normal((2, 2)).astype(np.float32), version=(2, 0), descr="<f4")
    numpy_file("v3_i4.npy", "INT32", np.arange(3, dtype=np.int32), version=(3, 0), descr="<i4")

    # bfloat16, as ml_dtypes + np.save write it ('<V2'), big-endian ('>V2'), and re-saved without ml_dtypes ('|V2')
    bits = bf16_bits([1.0, -2.5, 3.14159, np.nan, -0.0, 1e-39]).reshape(2, 3)
    files.append(("bf16.npy", header("<V2", False, bits.shape) + bits.astype("<u2").tobytes(), "BFLOAT16",
                  bits.shape, bits.astype("<u2").tobytes()))
    be_bits = bf16_bits(rng.standard_normal(4))
    files.append(("be_bf16.npy", header(">V2", False, be_bits.shape) + be_bits.astype(">u2").tobytes(), "BFLOAT16",
                  be_bits.shape, be_bits.astype("<u2").tobytes()))
    fortran_bits = np.asfortranarray(bf16_bits(rng.standard_normal((2, 3))))
    files.append(("fortran_bf16.npy",
                  header("<V2", True, fortran_bits.shape) + fortran_bits.astype("<u2").tobytes(order="F"),
                  "BFLOAT16", fortran_bits.shape, little_endian_c_order(fortran_bits)))
    void = bf16_bits([0.5, -1.0, 100.0]).astype("<u2").view("V2")
    numpy_file("void_bf16.npy", "BFLOAT16", void, descr="|V2")

    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    lines = []
    for name, data, dtype_name, shape, expected in files:
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        shape_text = "[" + ",".join(str(d) for d in shape) + "]"
        lines.append(f"{name} {dtype_name} {shape_text} {expected.hex() or '-'}")
    with open(os.path.join(OUT, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(files)} files to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
