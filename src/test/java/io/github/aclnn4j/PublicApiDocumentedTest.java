package io.github.aclnn4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public type, constructor, method, field and enum constant of the exported packages (layer 1
 * {@code acl}, layer 2 {@code nn}) has a Javadoc comment. The Javadoc build runs doclint without its
 * "missing" group (a mirror of a C API would otherwise need an {@code @param} per C argument); this
 * test is the part of "missing" the project keeps.
 */
class PublicApiDocumentedTest {
    private static final List<Path> EXPORTED = List.of(Path.of("src/main/java/io/github/aclnn4j/acl"),
            Path.of("src/main/java/io/github/aclnn4j/nn"));
    private static final Pattern PUBLIC = Pattern.compile("^\\s*public\\s.*");
    private static final Pattern ENUM_CONSTANT = Pattern.compile("^\\s+[A-Z][A-Z0-9_]*(\\(.*\\))?[,;]\\s*(//.*)?$");

    @Test
    void everyPublicMemberHasAComment() throws IOException {
        List<String> undocumented = new ArrayList<>();
        int checked = 0;
        for (Path dir : EXPORTED) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    if (file.getFileName().toString().equals("package-info.java")) {
                        assertTrue(Files.readString(file).contains("/**"), file + " has no package comment");
                        continue;
                    }
                    checked += check(file, undocumented);
                }
            }
        }
        assertTrue(checked > 100, "only " + checked + " public members found: is the scan still right?");
        assertEquals(List.of(), undocumented, "public members without a Javadoc comment");
    }

    /** The file's public members and enum constants, each checked for a comment just above it. */
    private static int check(Path file, List<String> undocumented) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int checked = 0;
        boolean inEnumConstants = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean member = PUBLIC.matcher(line).matches();
            boolean constant = inEnumConstants && ENUM_CONSTANT.matcher(line).matches();
            if (member && line.contains(" enum ")) {
                inEnumConstants = true;
            } else if (inEnumConstants && line.trim().endsWith(";")) {
                inEnumConstants = false;
            }
            if (!member && !constant) {
                continue;
            }
            checked++;
            if (!commented(lines, i)) {
                undocumented.add(file.getFileName() + ":" + (i + 1) + ": " + line.trim());
            }
        }
        return checked;
    }

    /**
     * Whether the lines above {@code at}, past annotations, end a {@code /** ... *}{@code /} comment;
     * an {@code @Override} inherits its comment.
     */
    private static boolean commented(List<String> lines, int at) {
        int j = at - 1;
        while (j >= 0 && lines.get(j).trim().startsWith("@")) {
            if (lines.get(j).trim().equals("@Override")) {
                return true;
            }
            j--;
        }
        if (j < 0 || !lines.get(j).trim().endsWith("*/")) {
            return false;
        }
        while (j >= 0 && !lines.get(j).contains("/*")) {
            j--;
        }
        return j >= 0 && lines.get(j).contains("/**");
    }
}
