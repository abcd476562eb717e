package com.editlock.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A package named in a string escapes {@link LayeringTest}, which reads imports, not text: a class
 * of a lower layer could name a screen's class, or the persistence provider's, and no rule would
 * see it. A class naming something of its own package (the platform its text bundle) is no such
 * coupling. Every such string in the main code outside the fenced {@code container} package is
 * listed in {@link #DOCUMENTED} with its reason; a new one fails this test until it moves behind
 * the fence or is named there, and an entry whose string is gone fails too.
 *
 * <p>One coupling is of another kind and stays documented here rather than found: {@code
 * errors/TypedValues} leaves the editor form's command buttons out of what it shows back by their
 * ids ({@code save}, {@code done}, …), because a browser posts the pressed button as a field like
 * any other and nothing in the post tells a button from an input.
 */
class StringCouplingsTest {

    /** A string literal that starts with the name of a package of ours or of a provider's. */
    static final Pattern PACKAGE_IN_A_STRING =
            Pattern.compile(
                    "\"((?:com\\.editlock|org\\.eclipse|fish\\.payara|org\\.glassfish|com\\.sun|org\\.apache)\\.[A-Za-z0-9_.$-]*)");

    static final Map<String, String> DOCUMENTED =
            Map.of(
                    "com/editlock/lock/LockStoreException.java",
                    "EclipseLink reports a failed statement with exceptions of its own package, which"
                            + " the lock API may not import; the name is matched as text to tell a"
                            + " database failure from a bug",
                    "com/editlock/platform/Database.java",
                    "Payara's pool settings are properties of the portable @DataSourceDefinition,"
                            + " written as the container names them",
                    "com/editlock/platform/NodeStop.java",
                    "Payara Micro publishes its --shutdowngrace only as the system property"
                            + " fish.payara.shutdowngrace; a stopping node reads it to hand its"
                            + " tabs on before the undeploy");

    private static final Path MAIN = Path.of("src/main/java");

    @Test
    void everyPackageNamedInAStringIsDocumented() throws IOException {
        Map<String, List<String>> found = couplings(MAIN);
        assertThat(undocumented(found)).isEmpty();
        assertThat(found.keySet())
                .as("a documented coupling that is gone is struck from the list")
                .containsAll(DOCUMENTED.keySet());
    }

    @Test
    void thePlatformNamingAScreensBundleIsCaughtAndItsOwnIsNot(@TempDir Path root)
            throws IOException {
        Path file = root.resolve("com/editlock/platform/Languages.java");
        Files.createDirectories(file.getParent());
        Files.writeString(
                file,
                "class Languages { String own = \"com.editlock.platform.Text\";"
                        + " String screens = \"com.editlock.web.Text\"; }");
        assertThat(undocumented(couplings(root)))
                .containsExactly("com/editlock/platform/Languages.java: com.editlock.web.Text");
    }

    @Test
    void onlyTheFencedContainerPackageMayNameTheContainer(@TempDir Path root) throws IOException {
        for (String room : List.of("container", "web")) {
            Path file = root.resolve("com/editlock/" + room + "/Grizzly.java");
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, "class Grizzly { String c = \"org.glassfish.grizzly.Connection\"; }");
        }
        assertThat(couplings(root))
                .containsExactly(
                        Map.entry(
                                "com/editlock/web/Grizzly.java",
                                List.of("org.glassfish.grizzly.Connection")));
    }

    /** File (relative to {@code root}) to the package names its strings start with. */
    static Map<String, List<String>> couplings(Path root) throws IOException {
        Map<String, List<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = root.relativize(file).toString().replace('\\', '/');
                if (name.startsWith("com/editlock/container/")) {
                    continue; // the fence: naming the container is its job
                }
                String own = name.substring(0, name.lastIndexOf('/') + 1).replace('/', '.');
                List<String> names =
                        couplingsIn(read(file)).stream().filter(n -> !n.startsWith(own)).toList();
                if (!names.isEmpty()) {
                    found.put(name, names);
                }
            }
        }
        return found;
    }

    static List<String> couplingsIn(String source) {
        List<String> names = new ArrayList<>();
        Matcher m = PACKAGE_IN_A_STRING.matcher(source);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    static List<String> undocumented(Map<String, List<String>> found) {
        List<String> problems = new ArrayList<>();
        found.forEach(
                (file, names) -> {
                    if (!DOCUMENTED.containsKey(file)) {
                        names.forEach(n -> problems.add(file + ": " + n));
                    }
                });
        return problems;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
