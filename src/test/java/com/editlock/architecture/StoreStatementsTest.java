package com.editlock.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every statement of the lock store lives in {@code lock/internal/LockStatements}, where the rules
 * they keep together (a row blocks until deleted, rows locked in id order, the database's clock)
 * are written once and can be read side by side. A statement written anywhere else in the store (a
 * string literal or text block that reads as SQL) fails this test.
 */
class StoreStatementsTest {

    /**
     * A string literal or text block that begins like a statement (a statement split over
     * concatenated literals begins in the first).
     */
    static final Pattern STATEMENT =
            Pattern.compile(
                    "(?:\"\"\"\\s*|\")\\s*((?:select\\s+[\\w*('%]|insert\\s+into\\s|update\\s+\\w+\\s+set\\s"
                            + "|delete\\s+from\\s|with\\s+\\w+\\s+as\\s*\\())",
                    Pattern.CASE_INSENSITIVE);

    private static final Path STORE = Path.of("src/main/java/com/editlock/lock/internal");

    @Test
    void everyStoreStatementLivesInLockStatements() throws IOException {
        assertThat(Files.exists(STORE.resolve("LockStatements.java"))).isTrue();
        assertThat(statementsOutside(STORE)).isEmpty();
    }

    @Test
    void aStatementWrittenBesideTheStoreIsCaught(@TempDir Path root) throws IOException {
        Files.writeString(
                root.resolve("LockMetrics.java"),
                """
                class LockMetrics {
                    String sql = "select count(*) from app_lock";
                    String log = "Could not count the locks";
                    String split = "select case when mode = 'READ' then 1 end,"
                        + " count(*) from app_lock";
                    String block = \"""
                        delete from app_lock where owner_id = ?\""";
                }
                """);
        Files.writeString(
                root.resolve("LockStatements.java"),
                "class LockStatements { String s = \"select 1 from app_lock\"; }");
        assertThat(statementsOutside(root))
                .containsExactly(
                        "LockMetrics.java: select count(*) from app_lock",
                        "LockMetrics.java: select case when mode = 'READ' then 1 end,",
                        "LockMetrics.java: delete from app_lock where owner_id = ?");
    }

    static List<String> statementsOutside(Path store) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(store)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".java") || name.equals("LockStatements.java")) {
                    continue;
                }
                String source = Files.readString(file);
                Matcher m = STATEMENT.matcher(source);
                while (m.find()) {
                    String rest = source.substring(m.start(1));
                    found.add(name + ": " + rest.split("\"|\\R")[0].strip());
                }
            }
        }
        return found;
    }
}
