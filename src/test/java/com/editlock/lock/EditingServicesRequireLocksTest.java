package com.editlock.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The implicit-lock safety net: every public method of every {@link EditingService} in the
 * application says whether it needs a lock, and every method whose name says it writes is
 * {@code @RequiresLock(WRITE)}. Adding a save method and forgetting the lock fails this test.
 */
class EditingServicesRequireLocksTest {

    private static final Pattern WRITES =
            Pattern.compile(
                    "^(save|add|remove|delete|update|create|insert|move|reorder|rename|replace|clear|set|put|apply|write)"
                            + "([A-Z].*)?$");

    @Test
    void everyPublicMethodOfAnEditingServiceDeclaresItsLock() throws Exception {
        List<Class<?>> services = editingServices();
        assertThat(services)
                .as("editing services found in the application")
                .isNotEmpty()
                .extracting(Class::getSimpleName)
                .contains("ConfiguratorService");

        List<String> problems = new ArrayList<>();
        for (Class<?> service : services) {
            for (Method m : service.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic()) {
                    continue;
                }
                String name = service.getSimpleName() + "." + m.getName();
                RequiresLock lock = m.getAnnotation(RequiresLock.class);
                boolean readsOnly = m.isAnnotationPresent(ReadsOnly.class);
                if ((lock == null) == !readsOnly) {
                    problems.add(name + " must carry exactly one of @RequiresLock and @ReadsOnly");
                    continue;
                }
                if (WRITES.matcher(m.getName()).matches()
                        && (lock == null || lock.value() != RequiresLock.Access.WRITE)) {
                    problems.add(name + " writes, so it must be @RequiresLock(WRITE)");
                }
                if (lock != null) {
                    Class<?> target =
                            lock.value() == RequiresLock.Access.WRITE
                                    ? Lock.class
                                    : LockRequest.class;
                    long count =
                            Arrays.stream(m.getParameterTypes()).filter(target::equals).count();
                    if (count != 1) {
                        problems.add(
                                name
                                        + " is @RequiresLock("
                                        + lock.value()
                                        + ") and needs exactly one "
                                        + target.getSimpleName()
                                        + " parameter, not "
                                        + count);
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    private static List<Class<?>> editingServices()
            throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes =
                Path.of(
                        LockManager.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                                .toURI());
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name =
                        classes.relativize(file)
                                .toString()
                                .replace('/', '.')
                                .replaceAll("\\.class$", "");
                Class<?> type =
                        Class.forName(
                                name,
                                false,
                                EditingServicesRequireLocksTest.class.getClassLoader());
                if (type.isAnnotationPresent(EditingService.class)) {
                    found.add(type);
                }
            }
        }
        return found;
    }
}
