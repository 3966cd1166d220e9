"""What the loop generators of this folder share: wrapping a method's first line, the BFLOAT16
rounding and packing of two result vectors, and rewriting a class from its marker comment on."""
import sys

BF16_ROUND_AND_PACK = """            // round to nearest even (add 0x7FFF plus the kept bit), NaN as 0x7FC0, then pack
            r0 = r0.add(r0.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r0.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r1 = r1.add(r1.lanewise(VectorOperators.LSHR, 16).and(1)).add(0x7FFF)
                    .blend(0x7FC00000, r1.and(0x7FFFFFFF).compare(VectorOperators.GT, 0x7F800000));
            r0.lanewise(VectorOperators.LSHR, 16).or(r1.and(HIGH)).intoMemorySegment(out, outAt + o, ORDER);
"""


def signature(name, parameters):
    """A private static method's first line, wrapped at 120 columns as the rest of the source is."""
    pieces = parameters.split(", ")
    line = f"    private static void {name}("
    lines = []
    for i, p in enumerate(pieces):
        piece = p + (", " if i < len(pieces) - 1 else ") {")
        if len(line) + len(piece.rstrip()) > 120:
            lines.append(line.rstrip())
            line = " " * 12
        line += piece
    return "\n".join(lines + [line])


def rewrite(source, marker, header, body):
    """Replaces {@code source} from {@code marker} to its end with the header and the methods."""
    text = source.read_text()
    start = text.find(marker)
    if start < 0:
        sys.exit(f"{source}: marker not found: {marker!r}")
    source.write_text(text[:start] + header + body.lstrip("\n") + "}\n")
