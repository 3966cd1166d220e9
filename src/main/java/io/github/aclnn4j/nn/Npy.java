package io.github.aclnn4j.nn;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Tensors to and from NumPy's {@code .npy} files, the format CANN operator developers keep golden
 * data in ({@code np.save} / {@code np.load}).
 *
 * <p><b>Dtypes.</b> Each {@link DType} is written as the descr {@code np.save} gives its NumPy
 * counterpart on a little-endian machine:
 * <table>
 * <caption>descr per dtype</caption>
 * <tr><th>DType</th><th>descr</th></tr>
 * <tr><td>FLOAT</td><td>{@code <f4}</td></tr>
 * <tr><td>FLOAT16</td><td>{@code <f2}</td></tr>
 * <tr><td>BFLOAT16</td><td>{@code <V2}</td></tr>
 * <tr><td>DOUBLE</td><td>{@code <f8}</td></tr>
 * <tr><td>INT64</td><td>{@code <i8}</td></tr>
 * <tr><td>INT32</td><td>{@code <i4}</td></tr>
 * <tr><td>UINT8</td><td>{@code |u1}</td></tr>
 * <tr><td>BOOL</td><td>{@code |b1}</td></tr>
 * </table>
 * NumPy has no bfloat16 of its own. The {@code ml_dtypes.bfloat16} type (the one JAX and
 * TensorFlow use) registers with NumPy as a legacy user dtype of kind {@code 'V'} and byte order
 * {@code '='}, so {@code np.save} writes its {@code dtype.str}, {@code '<V2'}, followed by the
 * little-endian bfloat16 bit patterns (checked with ml_dtypes 0.5.4 on NumPy 1.24 and 0.6.0 on
 * NumPy 2.4). {@code np.load} gives such a file back as a 2-byte void array, to be
 * {@code .view(ml_dtypes.bfloat16)}'ed. Reading takes {@code <V2} and {@code >V2} as BFLOAT16 in
 * that byte order, {@code |V2} (what {@code np.save} writes for such a void array loaded without
 * ml_dtypes) and {@code bfloat16} (what headers written by hand from {@code str(array.dtype)}
 * hold) as BFLOAT16 in this machine's order.
 *
 * <p><b>Reading</b> takes format versions 1.0, 2.0 and 3.0; descrs in either byte order
 * ({@code <}, {@code >}, and {@code =} or {@code |} for this machine's order, as NumPy reads them),
 * converted to the device's order; {@code fortran_order: True}, copied into row-major order; 0-d
 * and empty arrays. BOOL bytes other than 0 and 1 read as 1 (true), as NumPy reads them. A file
 * whose bytes do not make exactly one such array (bad magic, an unknown version, a header that is
 * not the three-key dict NumPy writes, an unsupported descr, too few or too many data bytes) is
 * refused with a message saying what is wrong; nothing is allocated on the device then.
 *
 * <p><b>Writing</b> produces version 1.0 (2.0 when the header does not fit 1.0's 64 KiB), C order,
 * little-endian, the header padded so that the data starts at a multiple of 64 bytes, as NumPy
 * does. A view (transposed, sliced, expanded) is written as its row-major copy.
 *
 * <p>An array is held in one Java array on the way, so its data is limited to 2<sup>31</sup> − 9
 * bytes.
 */
public final class Npy {
    private Npy() {}

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** NumPy pads the header so that the data starts at a multiple of this. */
    private static final int ALIGN = 64;
    /** The longest header read (NumPy's own default limit for np.load is 10,000 characters). */
    private static final int MAX_HEADER = 1 << 20;
    /** The longest data held in one byte[]. */
    private static final long MAX_DATA = Integer.MAX_VALUE - 8;
    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    // ---- reading

    /**
     * The array of an {@code .npy} file, as a new row-major tensor on {@code device}.
     *
     * @throws IOException when the file cannot be read, or does not hold exactly one array of a
     *     supported dtype (the message names the file and the problem; an {@link EOFException} for
     *     a file cut short)
     * @throws AclnnException when the device cannot take the tensor (closed, out of memory)
     */
    public static Tensor read(Device device, Path file) throws IOException {
        Objects.requireNonNull(device, "device");
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            return read(device, in, file.toString(), true);
        }
    }

    /**
     * The next array of a stream in the {@code .npy} format, as a new row-major tensor on
     * {@code device}. Exactly the array's bytes are consumed, so arrays saved one after another
     * into one stream are read by calling this again; the stream is not closed.
     *
     * @throws IOException when the stream fails, or its next bytes are not a supported array (an
     *     {@link EOFException} for a stream that ends too early)
     * @throws AclnnException when the device cannot take the tensor
     */
    public static Tensor read(Device device, InputStream in) throws IOException {
        Objects.requireNonNull(device, "device");
        return read(device, in, "the .npy stream", false);
    }

    /**
     * The array of the {@code .npy} bytes {@code npy} (a whole file's content), as a new row-major
     * tensor on {@code device}.
     *
     * @throws IllegalArgumentException when the bytes are not exactly one supported array (the
     *     message says what is wrong)
     * @throws AclnnException when the device cannot take the tensor
     */
    public static Tensor fromBytes(Device device, byte[] npy) {
        Objects.requireNonNull(device, "device");
        try {
            return read(device, new ByteArrayInputStream(npy), "the .npy bytes", true);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    // ---- writing

    /**
     * Writes {@code tensor} to {@code file} (created or replaced) in the {@code .npy} format. The
     * tensor is read first (waiting for the device's work), so a failed read leaves the file as it was.
     *
     * @throws IOException when the file cannot be written
     * @throws IllegalArgumentException for a tensor of more than 2<sup>31</sup> − 9 bytes, with its header
     * @throws AclnnException for a closed tensor, or an operator that failed while computing it
     */
    public static void write(Tensor tensor, Path file) throws IOException {
        Files.write(file, toBytes(tensor));
    }

    /**
     * Writes {@code tensor} to {@code out} in the {@code .npy} format; the stream is not closed.
     *
     * @throws IOException when the stream fails
     * @throws IllegalArgumentException for a tensor of more than 2<sup>31</sup> − 9 bytes, with its header
     * @throws AclnnException for a closed tensor, or an operator that failed while computing it
     */
    public static void write(Tensor tensor, OutputStream out) throws IOException {
        byte[] header = header(tensor.dtype(), tensor.shape());
        byte[] data = littleEndianData(tensor, header);
        out.write(header);
        out.write(data);
    }

    /**
     * The whole {@code .npy} file of {@code tensor}.
     *
     * @throws IllegalArgumentException for a tensor of more than 2<sup>31</sup> − 9 bytes, with its header
     * @throws AclnnException for a closed tensor, or an operator that failed while computing it
     */
    public static byte[] toBytes(Tensor tensor) {
        byte[] header = header(tensor.dtype(), tensor.shape());
        byte[] data = littleEndianData(tensor, header);
        byte[] file = Arrays.copyOf(header, header.length + data.length);
        System.arraycopy(data, 0, file, header.length, data.length);
        return file;
    }

    /** The descr this class writes for {@code dtype}, e.g. {@code "<f4"} for FLOAT and {@code "<V2"} for BFLOAT16. */
    public static String descr(DType dtype) {
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

    // ---- the format

    /** A parsed header: the dtype, the byte order of the data, the storage order and the shape. */
    private record Header(String descr, DType dtype, ByteOrder order, boolean fortran, long[] shape, long bytes) {}

    private static Tensor read(Device device, InputStream in, String source, boolean whole) throws IOException {
        Header h = readHeader(in, source);
        byte[] data = in.readNBytes((int) h.bytes);
        if (data.length < h.bytes) {
            throw new EOFException(source + ": truncated: the header's shape " + pyTuple(h.shape) + " of '" + h.descr
                    + "' needs " + h.bytes + " bytes of data, only " + data.length + " follow the header");
        }
        if (whole && in.read() != -1) {
            long more = 1 + in.transferTo(OutputStream.nullOutputStream());
            throw malformed(source, more + " bytes follow the array's data (the header's shape " + pyTuple(h.shape)
                    + " of '" + h.descr + "' accounts for " + h.bytes + "): not one array, or a wrong header");
        }
        int size = h.dtype.byteSize();
        if (size > 1 && h.order != ByteOrder.nativeOrder()) {
            swap(data, size);
        }
        if (h.fortran && h.shape.length > 1) {
            data = fortranToRowMajor(data, h.shape, size);
        }
        if (h.dtype == DType.BOOL) {
            for (int i = 0; i < data.length; i++) {
                if (data[i] != 0) {
                    data[i] = 1;
                }
            }
        }
        return device.fromBytes(h.dtype, data, h.shape);
    }

    private static Header readHeader(InputStream in, String source) throws IOException {
        byte[] magic = readFully(in, MAGIC.length + 2, source, "the magic string and version");
        if (!Arrays.equals(magic, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw malformed(source, "it does not start with the magic string \\x93NUMPY (it starts with "
                    + printable(magic, MAGIC.length) + ")");
        }
        int major = magic[6] & 0xFF;
        int minor = magic[7] & 0xFF;
        if (major < 1 || major > 3 || minor != 0) {
            throw malformed(source, "format version " + major + "." + minor
                    + " is not one of 1.0, 2.0, 3.0");
        }
        byte[] len = readFully(in, major == 1 ? 2 : 4, source, "the header length");
        long headerLength = 0;
        for (int i = len.length - 1; i >= 0; i--) {
            headerLength = headerLength << 8 | (len[i] & 0xFF);
        }
        if (headerLength > MAX_HEADER) {
            throw malformed(source, "a header of " + headerLength + " bytes (more than " + MAX_HEADER
                    + " is not an array header aclnn4j reads)");
        }
        byte[] raw = readFully(in, (int) headerLength, source, "the " + headerLength + "-byte header");
        String text = new String(raw, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        Object parsed = new Literal(text, source).parse();
        if (!(parsed instanceof Map<?, ?> dict)) {
            throw malformed(source, "the header is not a dict: " + quote(text));
        }
        if (!dict.keySet().equals(KEYS)) {
            throw malformed(source, "the header's keys are " + dict.keySet()
                    + ", not exactly 'descr', 'fortran_order' and 'shape'");
        }
        if (!(dict.get("descr") instanceof String descr)) {
            throw new IOException(source + ": unsupported descr " + Literal.repr(dict.get("descr"))
                    + " (structured and sub-array dtypes are not tensors); " + SUPPORTED);
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw malformed(source, "'fortran_order' is " + Literal.repr(dict.get("fortran_order"))
                    + ", not True or False");
        }
        if (!(dict.get("shape") instanceof Literal.Tuple tuple)) {
            throw malformed(source, "'shape' is " + Literal.repr(dict.get("shape")) + ", not a tuple of integers");
        }
        long[] shape = new long[tuple.items().size()];
        long count = 1;
        for (int i = 0; i < shape.length; i++) {
            if (!(tuple.items().get(i) instanceof Long d) || d < 0) {
                throw malformed(source, "'shape' is " + Literal.repr(tuple)
                        + ", not a tuple of non-negative integers");
            }
            shape[i] = d;
            count = count == 0 || d == 0 ? 0 : count > MAX_DATA / d ? MAX_DATA + 1 : count * d;
        }
        DType dtype = dtypeOf(descr);
        if (dtype == null) {
            throw new IOException(source + ": unsupported descr '" + descr + "'; " + SUPPORTED);
        }
        if (count > MAX_DATA / dtype.byteSize()) {
            throw new IOException(source + ": the shape " + pyTuple(shape) + " of '" + descr + "' holds more than "
                    + MAX_DATA + " bytes, too many for one Java array");
        }
        return new Header(descr, dtype, orderOf(descr), fortran, shape, count * dtype.byteSize());
    }

    private static final String SUPPORTED = "aclnn4j reads f4 (FLOAT), f2 (FLOAT16), V2 or 'bfloat16' (BFLOAT16), "
            + "f8 (DOUBLE), i8 (INT64), i4 (INT32), u1 (UINT8) and b1 (BOOL), each in either byte order";

    /** The dtype of a descr this class reads, or null. */
    private static DType dtypeOf(String descr) {
        if (descr.equals("bfloat16")) {
            return DType.BFLOAT16;
        }
        if (descr.length() != 3 || "<>|=".indexOf(descr.charAt(0)) < 0) {
            return null;
        }
        return switch (descr.substring(1)) {
            case "f4" -> DType.FLOAT;
            case "f2" -> DType.FLOAT16;
            case "V2" -> DType.BFLOAT16;
            case "f8" -> DType.DOUBLE;
            case "i8" -> DType.INT64;
            case "i4" -> DType.INT32;
            case "u1" -> DType.UINT8;
            case "b1" -> DType.BOOL;
            default -> null;
        };
    }

    private static ByteOrder orderOf(String descr) {
        return switch (descr.charAt(0)) {
            case '<' -> ByteOrder.LITTLE_ENDIAN;
            case '>' -> ByteOrder.BIG_ENDIAN;
            default -> ByteOrder.nativeOrder(); // '=', '|' and "bfloat16" (ml_dtypes' dtype, byte order '=')
        };
    }

    /** Magic, version, header length and the padded header of an array of {@code dtype} and {@code shape}. */
    static byte[] header(DType dtype, long[] shape) {
        String dict = "{'descr': '" + descr(dtype) + "', 'fortran_order': False, 'shape': " + pyTuple(shape) + ", }";
        int major = 1;
        int prefix = MAGIC.length + 2 + 2;
        long total = roundUp(prefix + dict.length() + 1L);
        if (total - prefix > 0xFFFF) {
            major = 2;
            prefix = MAGIC.length + 2 + 4;
            total = roundUp(prefix + dict.length() + 1L);
        }
        byte[] out = new byte[Math.toIntExact(total)];
        System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
        out[6] = (byte) major;
        out[7] = 0;
        long length = total - prefix;
        for (int i = 0; i < prefix - 8; i++) {
            out[8 + i] = (byte) (length >>> (8 * i));
        }
        byte[] text = dict.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, out, prefix, text.length);
        Arrays.fill(out, prefix + text.length, out.length - 1, (byte) ' ');
        out[out.length - 1] = '\n';
        return out;
    }

    private static long roundUp(long n) {
        return (n + ALIGN - 1) / ALIGN * ALIGN;
    }

    /** The tensor's elements in row-major order, little-endian, after a check that they fit one file with {@code header}. */
    private static byte[] littleEndianData(Tensor tensor, byte[] header) {
        long bytes = tensor.numel() * tensor.dtype().byteSize();
        if (bytes > MAX_DATA - header.length) {
            throw new IllegalArgumentException(tensor + " holds " + bytes + " bytes: a file of more than " + MAX_DATA
                    + " bytes does not fit one Java array");
        }
        byte[] data = tensor.toBytes();
        int size = tensor.dtype().byteSize();
        if (size > 1 && ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            swap(data, size);
        }
        return data;
    }

    /** Python's repr of a tuple of ints: {@code ()}, {@code (3,)}, {@code (2, 3)}. */
    private static String pyTuple(long[] shape) {
        if (shape.length == 1) {
            return "(" + shape[0] + ",)";
        }
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            b.append(i == 0 ? "" : ", ").append(shape[i]);
        }
        return b.append(')').toString();
    }

    private static void swap(byte[] data, int size) {
        for (int at = 0; at < data.length; at += size) {
            for (int i = 0, j = size - 1; i < j; i++, j--) {
                byte t = data[at + i];
                data[at + i] = data[at + j];
                data[at + j] = t;
            }
        }
    }

    /** Column-major elements (the first index fastest) copied into row-major order (the last fastest). */
    private static byte[] fortranToRowMajor(byte[] data, long[] shape, int size) {
        int rank = shape.length;
        long n = data.length / size;
        long[] fortranStrides = new long[rank];
        long s = 1;
        for (int d = 0; d < rank; d++) {
            fortranStrides[d] = s;
            s *= shape[d];
        }
        byte[] out = new byte[data.length];
        long[] index = new long[rank];
        long from = 0;
        for (long i = 0; i < n; i++) {
            System.arraycopy(data, (int) (from * size), out, (int) (i * size), size);
            for (int d = rank - 1; d >= 0; d--) {
                if (++index[d] < shape[d]) {
                    from += fortranStrides[d];
                    break;
                }
                from -= (index[d] - 1) * fortranStrides[d];
                index[d] = 0;
            }
        }
        return out;
    }

    private static byte[] readFully(InputStream in, int n, String source, String what) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new EOFException(source + ": truncated in " + what + " (" + b.length + " of " + n + " bytes)");
        }
        return b;
    }

    private static IOException malformed(String source, String what) {
        return new IOException(source + " is not a valid .npy file: " + what);
    }

    private static String printable(byte[] b, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            int c = b[i] & 0xFF;
            s.append(c >= 0x20 && c < 0x7F && c != '\\' ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return s.toString();
    }

    private static String quote(String text) {
        String t = text.strip();
        return t.length() > 120 ? t.substring(0, 120) + "..." : t;
    }

    /**
     * The Python literals an {@code .npy} header is made of (NumPy evaluates it with
     * {@code ast.literal_eval}): dicts, tuples, lists, strings, integers, True, False and None.
     */
    private static final class Literal {
        record Tuple(List<Object> items) {}

        record PyList(List<Object> items) {}

        /** Python's None. */
        enum None { NONE }

        private static final int MAX_DEPTH = 64;

        private final String text;
        private final String source;
        private int at;
        private int depth;

        Literal(String text, String source) {
            this.text = text;
            this.source = source;
        }

        /** The one literal the text holds, surrounded by nothing but whitespace. */
        Object parse() throws IOException {
            Object v = value();
            skipSpace();
            if (at != text.length()) {
                throw error("unexpected " + describe() + " after the header's value");
            }
            return v;
        }

        private Object value() throws IOException {
            skipSpace();
            if (at >= text.length()) {
                throw error("the header ends where a value should be");
            }
            if (++depth > MAX_DEPTH) {
                throw error("the header nests deeper than " + MAX_DEPTH);
            }
            try {
                char c = text.charAt(at);
                if (c == '{') {
                    return dict();
                }
                if (c == '(' || c == '[') {
                    return sequence(c);
                }
                if (c == '\'' || c == '"') {
                    return string(c);
                }
                if (c == '-' || c == '+' || Character.isDigit(c)) {
                    return integer();
                }
                if (Character.isLetter(c) || c == '_') {
                    int start = at;
                    while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
                        at++;
                    }
                    return switch (text.substring(start, at)) {
                        case "True" -> Boolean.TRUE;
                        case "False" -> Boolean.FALSE;
                        case "None" -> None.NONE;
                        default -> {
                            at = start;
                            throw error("unexpected " + describe());
                        }
                    };
                }
                throw error("unexpected " + describe());
            } finally {
                depth--;
            }
        }

        private Map<String, Object> dict() throws IOException {
            at++; // {
            Map<String, Object> map = new LinkedHashMap<>();
            while (true) {
                skipSpace();
                if (peek('}')) {
                    at++;
                    return map;
                }
                Object key = value();
                if (!(key instanceof String k)) {
                    throw error("a header key is " + repr(key) + ", not a string");
                }
                skipSpace();
                expect(':');
                Object v = value();
                if (map.put(k, v) != null) {
                    throw error("the key '" + k + "' appears twice");
                }
                skipSpace();
                if (peek(',')) {
                    at++;
                } else if (!peek('}')) {
                    throw error("expected ',' or '}' in the dict, found " + describe());
                }
            }
        }

        private Object sequence(char open) throws IOException {
            char close = open == '(' ? ')' : ']';
            at++;
            List<Object> items = new ArrayList<>();
            boolean comma = false;
            while (true) {
                skipSpace();
                if (peek(close)) {
                    at++;
                    break;
                }
                items.add(value());
                skipSpace();
                if (peek(',')) {
                    at++;
                    comma = true;
                } else if (!peek(close)) {
                    throw error("expected ',' or '" + close + "', found " + describe());
                }
            }
            if (open == '[') {
                return new PyList(items);
            }
            // (x) is x in Python; (x,) and () are tuples
            return items.size() == 1 && !comma ? items.get(0) : new Tuple(items);
        }

        private String string(char quote) throws IOException {
            int start = at++;
            StringBuilder b = new StringBuilder();
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == quote) {
                    return b.toString();
                }
                if (c == '\\' && at < text.length()) {
                    char e = text.charAt(at++);
                    switch (e) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case '\\', '\'', '"' -> b.append(e);
                        default -> b.append('\\').append(e);
                    }
                } else if (c == '\n') {
                    break;
                } else {
                    b.append(c);
                }
            }
            at = start;
            throw error("a string is not closed");
        }

        private Long integer() throws IOException {
            int start = at;
            if (peek('-') || peek('+')) {
                at++;
            }
            int digits = at;
            while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
                at++;
            }
            if (at == digits) {
                at = start;
                throw error("unexpected " + describe());
            }
            String number = text.substring(start, at);
            if (peek('L') || peek('l')) {
                at++; // Python 2's long suffix, in headers old NumPy wrote
            }
            if (at < text.length() && (text.charAt(at) == '.' || Character.isLetterOrDigit(text.charAt(at)))) {
                at = start;
                throw error("unexpected " + describe() + " (only integers are read)");
            }
            try {
                return Long.parseLong(number.startsWith("+") ? number.substring(1) : number);
            } catch (NumberFormatException e) {
                at = start;
                throw error("the integer " + number + " is out of range");
            }
        }

        private void expect(char c) throws IOException {
            if (!peek(c)) {
                throw error("expected '" + c + "', found " + describe());
            }
            at++;
        }

        private boolean peek(char c) {
            return at < text.length() && text.charAt(at) == c;
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private String describe() {
            if (at >= text.length()) {
                return "the end of the header";
            }
            int end = Math.min(text.length(), at + 20);
            return "'" + text.substring(at, end).replace("\n", "\\n") + "' at character " + at;
        }

        private IOException error(String what) {
            return malformed(source, "the header " + quote(text) + " is not a Python literal NumPy writes: " + what);
        }

        static String repr(Object v) {
            if (v instanceof String s) {
                return "'" + s + "'";
            }
            if (v instanceof Boolean b) {
                return b ? "True" : "False";
            }
            if (v instanceof Tuple t) {
                return t.items().size() == 1 ? "(" + repr(t.items().get(0)) + ",)"
                        : "(" + String.join(", ", t.items().stream().map(Literal::repr).toList()) + ")";
            }
            if (v instanceof PyList l) {
                return "[" + String.join(", ", l.items().stream().map(Literal::repr).toList()) + "]";
            }
            if (v instanceof Map<?, ?> m) {
                List<String> entries = new ArrayList<>();
                m.forEach((k, x) -> entries.add(repr(k) + ": " + repr(x)));
                return "{" + String.join(", ", entries) + "}";
            }
            if (v instanceof None) {
                return "None";
            }
            return String.valueOf(v);
        }
    }
}
