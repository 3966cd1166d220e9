package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Npy}: every dtype written and read back with its bits (through bytes, streams and files),
 * views written as their row-major copies, the header exactly as NumPy lays it out, the files
 * NumPy wrote in {@code src/test/resources/npy/} (made by {@code tools/golden/npy_fixtures.py}:
 * every dtype, big-endian, Fortran order, 0-d, empty, versions 2.0 and 3.0, bfloat16 as ml_dtypes
 * saves it) read as NumPy reads them, and malformed files refused with a message, never read as
 * something else.
 */
class NpyTest extends SharedDevice {
    @TempDir
    Path tmp;

    // ---- helpers written from the format's description, independently of Npy

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private static String descr(DType dtype) {
        return switch (dtype) {
            case FLOAT -> "<f4";
            case FLOAT16 -> "<f2";
            case BFLOAT16 -> "<V2";
            case DOUBLE -> "<f8";
            case INT64 -> "<i8";
            case INT32 -> "<i4";
            case UINT8 -> "|u1";
            case BOOL -> "|b1";
        };
    }

    private static String tuple(long[] shape) {
        if (shape.length == 1) {
            return "(" + shape[0] + ",)";
        }
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            b.append(i > 0 ? ", " : "").append(shape[i]);
        }
        return b.append(")").toString();
    }

    /** A version 1.0 file with {@code headerText} padded with spaces and a newline to a multiple of 64. */
    private static byte[] file(String headerText, byte[] data) {
        int length = headerText.length() + 1;
        length += (64 - (10 + length) % 64) % 64;
        return file(1, length, (headerText + " ".repeat(length - headerText.length() - 1) + "\n")
                .getBytes(StandardCharsets.ISO_8859_1), data);
    }

    /** Magic, version {@code major}.0, the header length field {@code length} and the header as given. */
    private static byte[] file(int major, long length, byte[] header, byte[] data) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(MAGIC);
        b.write(major);
        b.write(0);
        for (int i = 0; i < (major == 1 ? 2 : 4); i++) {
            b.write((int) (length >>> (8 * i)));
        }
        b.writeBytes(header);
        b.writeBytes(data);
        return b.toByteArray();
    }

    private static String dict(String descr, boolean fortran, long[] shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': "
                + tuple(shape) + ", }";
    }

    /** Little-endian bytes of {@code size}-byte elements in this machine's order (a no-op on little-endian machines). */
    private static byte[] toNative(byte[] littleEndian, int size) {
        byte[] b = littleEndian.clone();
        if (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN) {
            for (int at = 0; at < b.length; at += size) {
                for (int i = 0, j = size - 1; i < j; i++, j--) {
                    byte t = b[at + i];
                    b[at + i] = b[at + j];
                    b[at + j] = t;
                }
            }
        }
        return b;
    }

    private static long count(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** Random element bytes for {@code dtype}: any bits (NaN payloads included), BOOL 0 or 1. */
    private static byte[] randomBytes(Random r, DType dtype, long[] shape) {
        byte[] b = new byte[(int) (count(shape) * dtype.byteSize())];
        r.nextBytes(b);
        if (dtype == DType.BOOL) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (b[i] & 1);
            }
        }
        return b;
    }

    // ---- round trips

    static Stream<Arguments> roundTrips() {
        List<Arguments> cases = new ArrayList<>();
        long[][] fixed = {{}, {0}, {1}, {7}, {2, 3}, {3, 0, 2}, {2, 3, 4}, {1, 1, 1, 1, 5}};
        Random r = new Random(0x5EED_0001L);
        for (DType dtype : DType.values()) {
            for (long[] shape : fixed) {
                cases.add(Arguments.of(dtype, shape, r.nextLong()));
            }
            for (int i = 0; i < 6; i++) {
                long[] shape = new long[r.nextInt(6)];
                for (int d = 0; d < shape.length; d++) {
                    shape[d] = r.nextInt(5);
                }
                cases.add(Arguments.of(dtype, shape, r.nextLong()));
            }
        }
        return cases.stream();
    }

    /** Written (bytes, stream, file) and read back: same dtype, shape and bits; the file is the one expected. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("roundTrips")
    void roundTripKeepsEveryBit(DType dtype, long[] shape, long seed) throws IOException {
        byte[] bytes = randomBytes(new Random(seed), dtype, shape);
        Tensor t = keep(device.fromBytes(dtype, bytes, shape));

        byte[] npy = Npy.toBytes(t);
        byte[] header = file(dict(descr(dtype), false, shape), new byte[0]);
        assertArrayEquals(header, Arrays.copyOf(npy, header.length), "the header NumPy would write");
        assertEquals(0, header.length % 64, "the data starts at a multiple of 64");
        assertArrayEquals(toNative(bytes, dtype.byteSize()), Arrays.copyOfRange(npy, header.length, npy.length),
                "the data, little-endian");

        // an independent reader (the tests' own, for the golden cases)
        io.github.aclnn4j.testing.Npy other = io.github.aclnn4j.testing.Npy.read(new ByteArrayInputStream(npy));
        assertEquals(descr(dtype), other.descr());
        assertArrayEquals(shape, other.shape());

        assertSame(dtype, shape, bytes, keep(Npy.fromBytes(device, npy)));

        Path path = tmp.resolve("t.npy");
        Npy.write(t, path);
        assertArrayEquals(npy, Files.readAllBytes(path));
        assertSame(dtype, shape, bytes, keep(Npy.read(device, path)));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(t, out);
        assertArrayEquals(npy, out.toByteArray());
        assertSame(dtype, shape, bytes, keep(Npy.read(device, new ByteArrayInputStream(out.toByteArray()))));
    }

    private static void assertSame(DType dtype, long[] shape, byte[] bytes, Tensor t) {
        assertEquals(dtype, t.dtype());
        assertArrayEquals(shape, t.shape());
        assertArrayEquals(io.github.aclnn4j.tensor.Shapes.contiguousStrides(shape), t.strides());
        assertArrayEquals(bytes, t.toBytes());
    }

    /**
     * A view: what it is made by, and its layout over the base's row-major storage worked out by
     * hand (shape, element strides, offset), from which the expected row-major copy is gathered.
     */
    private record View(String name, long[] baseShape, java.util.function.UnaryOperator<Tensor> make, long[] shape,
            long[] strides, long offset) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> views() {
        List<View> views = List.of(
                new View("transpose(0,2)", new long[] {3, 4, 5}, t -> t.transpose(0, 2), new long[] {5, 4, 3},
                        new long[] {1, 5, 20}, 0),
                new View("permute(2,0,1)", new long[] {3, 4, 5}, t -> t.permute(2, 0, 1), new long[] {5, 3, 4},
                        new long[] {1, 20, 5}, 0),
                new View("slice(1,1,4,2)", new long[] {3, 4, 5}, t -> t.slice(1, 1, 4, 2), new long[] {3, 2, 5},
                        new long[] {20, 10, 1}, 5),
                new View("slice(2,-3,5,1).transpose(0,1)", new long[] {3, 4, 5},
                        t -> t.slice(2, -3, 5, 1).transpose(0, 1), new long[] {4, 3, 3}, new long[] {5, 20, 1}, 2),
                new View("expand(3,4,2)", new long[] {1, 4, 1}, t -> t.expand(3, 4, 2), new long[] {3, 4, 2},
                        new long[] {0, 1, 0}, 0),
                new View("slice(0,2,2,1) (empty)", new long[] {3, 4, 5}, t -> t.slice(0, 2, 2, 1),
                        new long[] {0, 4, 5}, new long[] {20, 5, 1}, 0),
                new View("transpose(0,1) of a matrix", new long[] {2, 7}, t -> t.transpose(0, 1),
                        new long[] {7, 2}, new long[] {1, 7}, 0));
        List<Arguments> cases = new ArrayList<>();
        Random r = new Random(0x5EED_0002L);
        for (DType dtype : DType.values()) {
            for (View v : views) {
                cases.add(Arguments.of(dtype, v, r.nextLong()));
            }
        }
        return cases.stream();
    }

    /** A view is written as the row-major copy of what it shows, and reads back as a contiguous tensor. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("views")
    void viewIsWrittenAsItsRowMajorCopy(DType dtype, View v, long seed) throws IOException {
        byte[] base = randomBytes(new Random(seed), dtype, v.baseShape());
        Tensor view = keep(v.make().apply(keep(device.fromBytes(dtype, base, v.baseShape()))));
        assertArrayEquals(v.shape(), view.shape(), "the view's shape");

        int size = dtype.byteSize();
        byte[] expected = new byte[(int) count(v.shape()) * size];
        long[] index = new long[v.shape().length];
        for (int i = 0; i < count(v.shape()); i++) {
            long at = v.offset();
            long rest = i;
            for (int d = v.shape().length - 1; d >= 0; d--) {
                index[d] = rest % v.shape()[d];
                rest /= v.shape()[d];
                at += index[d] * v.strides()[d];
            }
            System.arraycopy(base, (int) at * size, expected, i * size, size);
        }

        byte[] npy = Npy.toBytes(view);
        byte[] header = file(dict(descr(dtype), false, v.shape()), new byte[0]);
        assertArrayEquals(header, Arrays.copyOf(npy, header.length));
        assertArrayEquals(toNative(expected, size), Arrays.copyOfRange(npy, header.length, npy.length));
        assertSame(dtype, v.shape(), expected, keep(Npy.fromBytes(device, npy)));
    }

    // ---- files NumPy wrote

    private static Path fixtures() {
        try {
            return Path.of(NpyTest.class.getResource("/npy/manifest.txt").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> numpyFiles() throws IOException {
        return Files.readAllLines(fixtures().resolve("manifest.txt")).stream().filter(l -> !l.isBlank())
                .map(l -> l.split(" ")).map(f -> Arguments.of(f[0], f[1], f[2], f[3]));
    }

    /** Each file reads as the dtype, shape and row-major elements NumPy says it holds. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("numpyFiles")
    void readsWhatNumPyWrote(String name, String dtypeName, String shapeText, String hex) throws IOException {
        DType dtype = DType.valueOf(dtypeName);
        String dims = shapeText.substring(1, shapeText.length() - 1);
        long[] shape = dims.isEmpty() ? new long[0] : Arrays.stream(dims.split(",")).mapToLong(Long::parseLong).toArray();
        byte[] expected = hex.equals("-") ? new byte[0] : HexFormat.of().parseHex(hex);
        assertSame(dtype, shape, toNative(expected, dtype.byteSize()), keep(Npy.read(device, fixtures().resolve(name))));
    }

    /** The fixtures NumPy saved as Npy writes: version 1.0, C order, little-endian, the descrs of {@link #descr}. */
    static Stream<Arguments> numpyFilesLaidOutAsNpyWrites() throws IOException {
        return numpyFiles().filter(a -> {
            try {
                byte[] numpy = Files.readAllBytes(fixtures().resolve((String) a.get()[0]));
                String text = new String(numpy, 0, Math.min(numpy.length, 128), StandardCharsets.ISO_8859_1);
                return numpy[6] == 1 && text.contains("'fortran_order': False")
                        && text.contains("'descr': '" + descr(DType.valueOf((String) a.get()[1])) + "'");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /**
     * What NumPy saved in Npy's layout, Npy writes back byte for byte, header and all (the bfloat16
     * file being byte for byte what ml_dtypes and np.save write).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("numpyFilesLaidOutAsNpyWrites")
    void writesWhatNumPyWrites(String name, String dtypeName, String shapeText, String hex) throws IOException {
        byte[] numpy = Files.readAllBytes(fixtures().resolve(name));
        assertArrayEquals(numpy, Npy.toBytes(keep(Npy.read(device, fixtures().resolve(name)))), name);
    }

    @Test
    void fixturesCoverEveryDtypeAndLayout() throws IOException {
        List<String> lines = Files.readAllLines(fixtures().resolve("manifest.txt"));
        for (DType dtype : DType.values()) {
            assertTrue(lines.stream().anyMatch(l -> l.split(" ")[1].equals(dtype.name())), dtype.name());
        }
        for (String name : List.of("be_f4.npy", "fortran_f4.npy", "fortran_be_i4.npy", "scalar_f8.npy",
                "empty_f4.npy", "v2_f4.npy", "v3_i4.npy", "bf16.npy", "void_bf16.npy")) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(name + " ")), name);
        }
        List<String> sameLayout = numpyFilesLaidOutAsNpyWrites().map(a -> (String) a.get()[1]).toList();
        for (DType dtype : DType.values()) {
            assertTrue(sameLayout.contains(dtype.name()), dtype + ": a file NumPy wrote as Npy writes it");
        }
        String bf16 = new String(Files.readAllBytes(fixtures().resolve("bf16.npy")), StandardCharsets.ISO_8859_1);
        assertTrue(bf16.contains("'descr': '<V2'"), "the bfloat16 descr np.save writes for ml_dtypes.bfloat16");
    }

    @Test
    void bfloat16IsWrittenAsMlDtypesSavesIt() {
        Tensor t = keep(device.tensor(DType.BFLOAT16, new float[] {1f, -2.5f, 3.140625f}, 3));
        byte[] npy = Npy.toBytes(t);
        byte[] expected = file("{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }",
                HexFormat.of().parseHex("803f20c04940"));
        assertArrayEquals(expected, npy);
        assertEquals("<V2", Npy.descr(DType.BFLOAT16));
    }

    @Test
    void headerVariantsNumPyReads() {
        long[] shape = {2, 3};
        byte[] data = new byte[24];
        new Random(3).nextBytes(data);
        for (String header : List.of(
                "{\"shape\": (2, 3), \"fortran_order\": False, \"descr\": \"<f4\"}", // other order, double quotes
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }", // Python 2's longs
                "{'descr':'<f4','fortran_order':False,'shape':(2,3)}",
                "\t{ 'descr' : '=f4' ,\n'fortran_order' : False , 'shape' : ( 2 , 3 , ) }")) {
            assertSame(DType.FLOAT, shape, data, keep(Npy.fromBytes(device, file(header, data))));
        }
        // 'bfloat16', written by hand from str(array.dtype)
        assertSame(DType.BFLOAT16, new long[] {3}, Arrays.copyOf(data, 6),
                keep(Npy.fromBytes(device, file(dict("bfloat16", false, new long[] {3}), Arrays.copyOf(data, 6)))));
        // one-byte types with a byte order
        assertSame(DType.UINT8, new long[] {2}, new byte[] {7, (byte) 200},
                keep(Npy.fromBytes(device, file(dict("<u1", false, new long[] {2}), new byte[] {7, (byte) 200}))));
    }

    /** NumPy reads any non-zero byte of a bool array as True; so does Npy, as 1. */
    @Test
    void boolBytesOtherThanZeroAndOneReadAsOne() {
        byte[] npy = file(dict("|b1", false, new long[] {4}), new byte[] {0, 1, 2, (byte) 0xFF});
        Tensor t = keep(Npy.fromBytes(device, npy));
        assertArrayEquals(new byte[] {0, 1, 1, 1}, t.toBytes());
        assertArrayEquals(new long[] {0, 1, 1, 1}, t.toLongArray());
    }

    /** Fortran order and big-endian data together, written here by hand: the transposition and the swap. */
    @Test
    void fortranOrderBigEndianByHand() {
        // shape (2, 3): column-major 0 3 1 4 2 5 holds row-major 0 1 2 3 4 5
        byte[] data = new byte[24];
        int[] columnMajor = {0, 3, 1, 4, 2, 5};
        for (int i = 0; i < 6; i++) {
            data[i * 4 + 3] = (byte) columnMajor[i];
        }
        Tensor t = keep(Npy.fromBytes(device, file(dict(">i4", true, new long[] {2, 3}), data)));
        assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5}, t.toLongArray());
    }

    /** Arrays saved one after another into a stream are read one after another. */
    @Test
    void streamHoldsArraysOneAfterAnother() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(keep(device.tensor(new float[] {1, 2, 3}, 3)), out);
        Npy.write(keep(device.tensor(new long[] {4, 5}, 2, 1)), out);
        InputStream in = new ByteArrayInputStream(out.toByteArray());
        assertArrayEquals(new float[] {1, 2, 3}, keep(Npy.read(device, in)).toFloatArray());
        Tensor second = keep(Npy.read(device, in));
        assertArrayEquals(new long[] {2, 1}, second.shape());
        assertArrayEquals(new long[] {4, 5}, second.toLongArray());
        assertEquals(-1, in.read());
        assertThrows(EOFException.class, () -> Npy.read(device, in));
        // a whole file must be one array
        Path path = tmp.resolve("two.npy");
        Files.write(path, out.toByteArray());
        IOException e = assertThrows(IOException.class, () -> Npy.read(device, path));
        assertTrue(e.getMessage().contains("bytes follow the array's data"), e.getMessage());
    }

    /** A header longer than version 1.0's 65535 bytes makes a version 2.0 file. */
    @Test
    void longHeaderIsVersion2() {
        long[] shape = new long[22_000];
        Arrays.fill(shape, 1);
        shape[0] = 2;
        Tensor t = keep(device.tensor(new float[] {1.5f, -2f}, shape));
        byte[] npy = Npy.toBytes(t);
        assertEquals(2, npy[6]);
        long length = (npy[8] & 0xFF) | (npy[9] & 0xFF) << 8 | (npy[10] & 0xFF) << 16 | (long) (npy[11] & 0xFF) << 24;
        assertEquals(npy.length - 8, 12 + length, "the header length field");
        assertEquals(0, (12 + length) % 64);
        Tensor back = keep(Npy.fromBytes(device, npy));
        assertArrayEquals(shape, back.shape());
        assertArrayEquals(new float[] {1.5f, -2f}, back.toFloatArray());
        // and a short one is version 1.0
        assertEquals(1, Npy.toBytes(keep(device.tensor(new float[] {1f}, 1)))[6]);
    }

    @Test
    void closedTensorIsNotWritten() {
        Tensor t = device.tensor(new float[] {1, 2}, 2);
        t.close();
        Path path = tmp.resolve("closed.npy");
        assertThrows(AclnnException.class, () -> Npy.write(t, path));
        assertFalse(Files.exists(path), "no file for a tensor that could not be read");
    }

    // ---- malformed files

    private record Bad(String name, byte[] bytes, Class<? extends IOException> type, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Bad> malformed() {
        byte[] f4 = new byte[24];
        String ok = dict("<f4", false, new long[] {2, 3});
        byte[] good = file(ok, f4);
        List<Bad> bad = new ArrayList<>();
        bad.add(new Bad("empty file", new byte[0], EOFException.class, "truncated in the magic string"));
        bad.add(new Bad("bad magic", "PK\u0003\u0004 not numpy".getBytes(StandardCharsets.ISO_8859_1), IOException.class,
                "does not start with the magic string"));
        byte[] magic = good.clone();
        magic[5] = 'Z';
        bad.add(new Bad("NUMPZ", magic, IOException.class, "magic string"));
        byte[] v4 = good.clone();
        v4[6] = 4;
        bad.add(new Bad("version 4.0", v4, IOException.class, "format version 4.0"));
        byte[] v11 = good.clone();
        v11[7] = 1;
        bad.add(new Bad("version 1.1", v11, IOException.class, "format version 1.1"));
        bad.add(new Bad("header cut short", Arrays.copyOf(good, 40), EOFException.class, "truncated in the"));
        bad.add(new Bad("no header length", Arrays.copyOf(good, 9), EOFException.class, "header length"));
        bad.add(new Bad("huge header length", file(2, 1L << 30, new byte[0], new byte[0]), IOException.class,
                "header of 1073741824 bytes"));
        bad.add(new Bad("data cut short", Arrays.copyOf(good, good.length - 4), EOFException.class,
                "needs 24 bytes of data, only 20"));
        bad.add(new Bad("data too long", Arrays.copyOf(good, good.length + 4), IOException.class,
                "4 bytes follow the array's data"));
        bad.add(new Bad("not a dict", file("[1, 2]", f4), IOException.class, "not a dict"));
        bad.add(new Bad("missing key", file("{'descr': '<f4', 'shape': (2, 3)}", f4), IOException.class,
                "not exactly 'descr', 'fortran_order' and 'shape'"));
        bad.add(new Bad("extra key", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", f4),
                IOException.class, "not exactly"));
        bad.add(new Bad("key twice", file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}",
                f4), IOException.class, "appears twice"));
        bad.add(new Bad("int16", file(dict("<i2", false, new long[] {2, 3}), new byte[12]), IOException.class,
                "unsupported descr '<i2'"));
        bad.add(new Bad("object", file(dict("|O", false, new long[] {2, 3}), new byte[48]), IOException.class,
                "unsupported descr '|O'"));
        bad.add(new Bad("complex", file(dict("<c8", false, new long[] {3}), new byte[24]), IOException.class,
                "unsupported descr '<c8'"));
        bad.add(new Bad("void of 4", file(dict("|V4", false, new long[] {6}), f4), IOException.class,
                "unsupported descr '|V4'"));
        bad.add(new Bad("structured", file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", f4),
                IOException.class, "unsupported descr [('a', '<f4')]"));
        bad.add(new Bad("dtype name", file(dict("float32", false, new long[] {2, 3}), f4), IOException.class,
                "unsupported descr 'float32'"));
        bad.add(new Bad("fortran_order a string", file("{'descr': '<f4', 'fortran_order': 'no', 'shape': (2, 3)}", f4),
                IOException.class, "'fortran_order' is 'no'"));
        bad.add(new Bad("shape a list", file("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", f4),
                IOException.class, "'shape' is [2, 3], not a tuple"));
        bad.add(new Bad("shape (6) is 6", file("{'descr': '<f4', 'fortran_order': False, 'shape': (6)}", f4),
                IOException.class, "'shape' is 6, not a tuple"));
        bad.add(new Bad("negative dimension", file(dict("<f4", false, new long[] {-2, -3}), f4), IOException.class,
                "not a tuple of non-negative integers"));
        bad.add(new Bad("float dimension", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}", f4),
                IOException.class, "only integers"));
        bad.add(new Bad("dimension too large for a long",
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", f4),
                IOException.class, "out of range"));
        bad.add(new Bad("too many elements", file(dict("<f4", false, new long[] {1L << 40, 1L << 40}), f4),
                IOException.class, "too many for one Java array"));
        bad.add(new Bad("just too large", file(dict("<f4", false, new long[] {1L << 29}), f4), IOException.class,
                "too many for one Java array"));
        bad.add(new Bad("unclosed string", file("{'descr': '<f4, 'fortran_order': False, 'shape': (2, 3)}", f4),
                IOException.class, "is not a Python literal"));
        bad.add(new Bad("unclosed dict", file("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", f4),
                IOException.class, "is not a Python literal"));
        bad.add(new Bad("code", file("__import__('os').system('true')", f4), IOException.class,
                "is not a Python literal"));
        bad.add(new Bad("text after the dict", file(ok + " x", f4), IOException.class, "after the header's value"));
        bad.add(new Bad("deep nesting", file("(".repeat(500) + ")".repeat(500), f4), IOException.class,
                "nests deeper"));
        return bad.stream();
    }

    /** Each malformed file is refused with its problem named: an IOException from a file, an IllegalArgumentException from bytes. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedFileIsRefused(Bad bad) throws IOException {
        Path path = tmp.resolve("bad.npy");
        Files.write(path, bad.bytes());
        long before = device.bytesInUse();
        IOException e = assertThrows(IOException.class, () -> Npy.read(device, path));
        assertInstanceOf(bad.type(), e);
        assertTrue(e.getMessage().startsWith(path.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(bad.message()), () -> "expected \"" + bad.message() + "\" in: " + e.getMessage());
        IllegalArgumentException fromBytes = assertThrows(IllegalArgumentException.class,
                () -> Npy.fromBytes(device, bad.bytes()));
        assertTrue(fromBytes.getMessage().contains(bad.message()), fromBytes.getMessage());
        assertEquals(before, device.bytesInUse(), "nothing allocated on the device");
    }

    static Stream<Arguments> corruptions() {
        Random r = new Random(0x5EED_0003L);
        return IntStream.range(0, 300).mapToObj(i -> Arguments.of(i, r.nextLong()));
    }

    /**
     * A valid file cut at any length, or with bytes changed anywhere, either reads as an array whose
     * data is the file's (when the change left a valid file) or is refused with an
     * IllegalArgumentException: nothing else escapes.
     */
    @ParameterizedTest(name = "case {0}")
    @MethodSource("corruptions")
    void corruptedFileIsReadOrRefusedNeverElse(int index, long seed) {
        Random r = new Random(seed);
        DType dtype = DType.values()[r.nextInt(DType.values().length)];
        long[] shape = new long[r.nextInt(4)];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = r.nextInt(4);
        }
        byte[] npy = Npy.toBytes(keep(device.fromBytes(dtype, randomBytes(r, dtype, shape), shape)));
        byte[] bad;
        if (r.nextBoolean()) {
            bad = Arrays.copyOf(npy, r.nextInt(npy.length));
        } else {
            bad = npy.clone();
            int changes = 1 + r.nextInt(4);
            for (int c = 0; c < changes; c++) {
                int at = r.nextInt(Math.min(bad.length, 80));
                bad[at] = r.nextInt(3) == 0 ? (byte) r.nextInt(256) : (byte) "{}()[]',: 0123456789-LTrueFalse".charAt(
                        r.nextInt(31));
            }
        }
        try {
            Tensor t = keep(Npy.fromBytes(device, bad));
            assertEquals(t.numel() * t.dtype().byteSize(), t.toBytes().length);
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage() != null && e.getMessage().startsWith("the .npy bytes"), e.getMessage());
            assertInstanceOf(IOException.class, e.getCause());
        } catch (RuntimeException e) {
            fail("case " + index + ": " + HexFormat.of().formatHex(bad), e);
        }
    }
}
