package com.editlock.it.node;

import com.editlock.it.browser.Browser;
import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The WAR as built (target/editlock.war), plus what in-container tests need. */
public final class Deployments {

    private Deployments() {}

    public static WebArchive editlock(Class<?>... testClasses) {
        return ShrinkWrap.createFromZipFile(
                        WebArchive.class, new File(System.getProperty("editlock.war")))
                .addClasses(testClasses)
                .addClasses(Browser.class, BrowserCookies.class, TestSettings.class)
                // Arquillian's test runner servlet must be reachable without logging in.
                .addAsLibrary(
                        ShrinkWrap.create(JavaArchive.class, "arquillian-runner-access.jar")
                                .addAsManifestResource(
                                        "arquillian/web-fragment.xml", "web-fragment.xml"))
                .addAsLibraries(
                        jarOf(org.assertj.core.api.Assertions.class),
                        jarOf(org.awaitility.Awaitility.class),
                        jarOf(org.hamcrest.Matcher.class));
    }

    private static File jarOf(Class<?> type) {
        try {
            return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
