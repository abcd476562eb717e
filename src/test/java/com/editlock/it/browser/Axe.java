package com.editlock.it.browser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * axe-core (from the npm registry, unpacked onto the test class path by the build) run inside the
 * page a browser shows: the WCAG 2.1 A and AA rules, over the whole document as it is now (the
 * state a test brought it to). The page's Content-Security-Policy does not apply to a script the
 * driver runs.
 */
public final class Axe {

    private static final String SCRIPT = load();

    /** The rules of WCAG 2.0 and 2.1, levels A and AA. */
    private static final String RUN =
            "const done = arguments[arguments.length - 1];"
                    + " axe.run(document, {runOnly: {type: 'tag', values:"
                    + " ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations']})"
                    + " .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact,"
                    + " help: v.help, nodes: v.nodes.map(n => n.target.join(' '))}))))"
                    + " .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e),"
                    + " nodes: []}]));";

    private Axe() {}

    /**
     * The WCAG 2.1 AA violations on the page {@code browser} shows, one line each with the elements
     * concerned; empty when there are none.
     */
    public static List<String> violations(WebDriver browser) {
        JavascriptExecutor js = (JavascriptExecutor) browser;
        if (!Boolean.TRUE.equals(js.executeScript("return typeof window.axe === 'object'"))) {
            js.executeScript(SCRIPT);
        }
        Object result = js.executeAsyncScript(RUN);
        List<String> lines = new ArrayList<>();
        for (Object o : (List<?>) result) {
            Map<?, ?> v = (Map<?, ?>) o;
            lines.add(
                    v.get("id")
                            + " ("
                            + v.get("impact")
                            + "): "
                            + v.get("help")
                            + ": "
                            + String.join(", ", asStrings(v.get("nodes"))));
        }
        return lines;
    }

    private static List<String> asStrings(Object list) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) list) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    private static String load() {
        try (InputStream in = Axe.class.getResourceAsStream("/axe/axe.min.js")) {
            if (in == null) {
                throw new IllegalStateException(
                        "axe/axe.min.js is not on the test class path: the build downloads it in"
                                + " generate-test-resources (mvn verify does; skipped with"
                                + " -DskipTests)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
