package io.github.aclnn4j.testing;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A numpy array read from the {@code .npy} format, or from a {@code .npz} archive of them: the
 * dtype descriptor (e.g. {@code <f4}), the shape and the raw little-endian bytes in C order.
 * Only what numpy writes for plain numeric arrays is accepted.
 */
public record Npy(String descr, long[] shape, byte[] data) {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order':\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(([^)]*)\\)");

    /** The arrays of a {@code .npz} archive by name (without the {@code .npy} suffix). */
    public static Map<String, Npy> readArchive(InputStream in) throws IOException {
        Map<String, Npy> arrays = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                String name = entry.getName();
                if (!name.endsWith(".npy")) {
                    throw new IOException("not an .npy entry: " + name);
                }
                arrays.put(name.substring(0, name.length() - 4), read(new ByteArrayInputStream(zip.readAllBytes())));
            }
        }
        return arrays;
    }

    public static Npy read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        byte[] magic = new byte[MAGIC.length];
        data.readFully(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IOException("not an .npy stream");
        }
        int major = data.readUnsignedByte();
        data.readUnsignedByte();
        byte[] lengthBytes = new byte[major == 1 ? 2 : 4];
        data.readFully(lengthBytes);
        long headerLength = 0;
        for (int i = lengthBytes.length - 1; i >= 0; i--) {
            headerLength = headerLength << 8 | (lengthBytes[i] & 0xFF);
        }
        byte[] headerBytes = new byte[Math.toIntExact(headerLength)];
        data.readFully(headerBytes);
        String header = new String(headerBytes, major >= 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);

        String descr = group(DESCR, header);
        if ("True".equals(group(FORTRAN, header))) {
            throw new IOException("Fortran-order arrays are not supported");
        }
        if (descr.startsWith(">")) {
            throw new IOException("big-endian arrays are not supported: " + descr);
        }
        long[] shape = Arrays.stream(group(SHAPE, header).split(","))
                .map(String::strip).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
        long count = Arrays.stream(shape).reduce(1, Math::multiplyExact);
        int itemSize = Integer.parseInt(descr.substring(2));
        byte[] bytes = new byte[Math.toIntExact(count * itemSize)];
        data.readFully(bytes);
        return new Npy(descr, shape, bytes);
    }

    private static String group(Pattern pattern, String header) throws IOException {
        Matcher m = pattern.matcher(header);
        if (!m.find()) {
            throw new IOException("malformed .npy header: " + header);
        }
        return m.group(1);
    }

    /** Number of elements. */
    public int length() {
        return data.length / Integer.parseInt(descr.substring(2));
    }

    /** The data as float32 values (descr {@code <f4}). */
    public float[] floats() {
        require("<f4");
        float[] values = new float[length()];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
        return values;
    }

    /** The data as 16-bit values (descr {@code <u2} or {@code <i2}), e.g. FLOAT16/BFLOAT16 bits. */
    public short[] shorts() {
        if (!descr.equals("<u2") && !descr.equals("<i2")) {
            throw new IllegalStateException("not a 16-bit array: " + descr);
        }
        short[] values = new short[length()];
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(values);
        return values;
    }

    private void require(String wanted) {
        if (!descr.equals(wanted)) {
            throw new IllegalStateException("expected " + wanted + ", the array is " + descr);
        }
    }
}
