package com.editlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Editlock runs on the container's public APIs only: no class imports the web container's or the
 * WebSocket runtime's internals, and no source names them in a string (the way reflection reaches
 * them). Such code worked around container faults and would have switched itself off silently at
 * the next container upgrade.
 */
class NoContainerInternalsTest {

    static final String[] INTERNALS = {
        "org.apache.catalina..", "org.glassfish.grizzly..", "org.glassfish.tyrus.."
    };
    private static final Pattern NAMED =
            Pattern.compile("\"[^\"]*org\\.(apache\\.catalina|glassfish\\.(grizzly|tyrus))");

    static final ArchRule NO_INTERNALS =
            noClasses()
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(INTERNALS)
                    .because(
                            "the container's internals change without notice; use the Servlet, Faces and CDI APIs");

    @Test
    void noMainClassImportsTheContainersInternals() {
        NO_INTERNALS.check(
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("com.editlock"));
    }

    @Test
    void aPlantedImportOfTheContainersInternalsIsCaught() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedContainerImport.class);
        assertThatThrownBy(() -> NO_INTERNALS.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedContainerImport")
                .hasMessageContaining("org.glassfish.grizzly");
    }

    @Test
    void noMainSourceNamesTheContainersInternalsInAString() throws IOException {
        assertThat(namingInternals(Path.of("src/main/java"))).isEmpty();
    }

    @Test
    void aPlantedReflectiveLookUpIsCaught(@TempDir Path sources) throws IOException {
        Files.writeString(
                sources.resolve("Planted.java"),
                """
                class Planted {
                    Object scope() throws Exception {
                        return Class.forName("org.apache.catalina.connector.Request");
                    }
                }
                """);
        assertThat(namingInternals(sources)).containsExactly("Planted.java:3");
    }

    /**
     * Where sources under {@code root} name a container-internal class in a string literal ({@code
     * file:line}).
     */
    static List<String> namingInternals(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .flatMap(
                            f -> {
                                try {
                                    List<String> lines = Files.readAllLines(f);
                                    return java.util.stream.IntStream.range(0, lines.size())
                                            .filter(i -> NAMED.matcher(lines.get(i)).find())
                                            .mapToObj(i -> root.relativize(f) + ":" + (i + 1));
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            })
                    .toList();
        }
    }
}
