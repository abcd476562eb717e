package com.editlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.it.node.Cluster;
import com.editlock.it.node.PlantedStatementsDataSource;
import com.editlock.it.reliability.ClusterTorture;
import com.editlock.lock.internal.PlantedBug;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bugs planted in the end paths the screens use, on two nodes: the two-node torture's call-by-call
 * checker must report each on its own, as {@code PlantedBugsTest} requires in process. The nodes
 * run a test copy of the WAR whose data source rewrites one statement of the lock store ({@link
 * PlantedStatementsDataSource}); which bug is planted is switched between runs, so one cluster
 * serves them all. A run with nothing planted must be clean, so what the planted runs report comes
 * from their bug and not from the copy.
 */
class PlantedBugsOverTwoNodesIT {

    private static Cluster cluster;
    private static Path plantedFile;
    private static long generation;

    @BeforeAll
    static void cluster() throws Exception {
        Path built = Path.of(System.getProperty("editlock.war"));
        plantedFile = built.resolveSibling("planted-statements.properties");
        Files.deleteIfExists(plantedFile);
        cluster =
                Cluster.start(
                        2,
                        "planted",
                        List.of(
                                "-D"
                                        + PlantedStatementsDataSource.FILE
                                        + "="
                                        + plantedFile.toAbsolutePath()),
                        plantedWar(built));
    }

    @AfterAll
    static void stop() throws IOException {
        if (cluster != null) {
            cluster.close();
        }
        Files.deleteIfExists(plantedFile);
    }

    /**
     * The WAR as built, plus the planting data source named in its {@code web.xml} in place of the
     * application's own: a {@code data-source} of the same name in the descriptor overrides the
     * annotation's class and keeps the rest of its settings.
     */
    private static Path plantedWar(Path built) throws IOException {
        WebArchive war = ShrinkWrap.createFromZipFile(WebArchive.class, built.toFile());
        String webXml;
        try (var in = war.get("WEB-INF/web.xml").getAsset().openStream()) {
            webXml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String dataSource =
                "    <data-source>\n"
                        + "        <name>java:app/jdbc/editlock</name>\n"
                        + "        <class-name>"
                        + PlantedStatementsDataSource.class.getName()
                        + "</class-name>\n"
                        + "    </data-source>\n</web-app>";
        assertThat(webXml).contains("</web-app>").doesNotContain("<data-source>");
        war.delete("WEB-INF/web.xml");
        war.setWebXML(new StringAsset(webXml.replace("</web-app>", dataSource)));
        war.addClass(PlantedStatementsDataSource.class);
        Path out = built.resolveSibling("editlock-planted.war");
        war.as(ZipExporter.class).exportTo(out.toFile(), true);
        return out;
    }

    /** Plants {@code bug} (or nothing) on both nodes: they read the file again as it changes. */
    private static void plant(PlantedBug bug) throws IOException {
        Properties spec = bug == null ? new Properties() : bug.spec();
        try (Writer w = Files.newBufferedWriter(plantedFile)) {
            spec.store(w, bug == null ? "nothing planted" : bug.description());
        }
        // A time of its own, so that a node sees each change even within one clock tick.
        Files.setLastModifiedTime(
                plantedFile, FileTime.fromMillis(1_000_000_000_000L + ++generation * 1_000));
    }

    /** A short two-node torture on fresh records. */
    private static ClusterTorture.Result torture(long seed) throws Exception {
        return new ClusterTorture(
                        cluster,
                        cluster.addConfigurators(40),
                        new ClusterTorture.Plan(
                                8, 2_000, Duration.ofSeconds(60), seed, false, 0.25))
                .run();
    }

    /**
     * A short two-node torture where records change hands: a dozen fresh records, whole ones only
     * (so that nothing but the lock asked for stands between two sessions), the admin taking one
     * over or releasing it by force in every fourth step, an editor asking for one in every tenth.
     */
    private static ClusterTorture.Result passingOn(long seed) throws Exception {
        List<String> whole =
                cluster.addConfigurators(12).stream()
                        .filter(k -> k.matches("configurator:\\d+"))
                        .toList();
        return new ClusterTorture(
                        cluster,
                        whole,
                        new ClusterTorture.Plan(
                                8, 2_000, Duration.ofSeconds(60), seed, false, 0.25, 0.1))
                .run();
    }

    @Test
    void theCopyWithNothingPlantedIsClean() throws Exception {
        plant(null);
        ClusterTorture.Result r = torture(20261203);
        System.out.printf("Nothing planted on two nodes: %s%n", r.report());
        assertThat(r.violations()).isEmpty();
        assertThat(r.samples()).as("every answer one the API and the screens promise").isEmpty();
        assertThat(r.counts())
                .as("every end path of this test was taken")
                .containsKeys(
                        "force-released",
                        "tab cut off",
                        "tab left",
                        "session ended",
                        "screen session ended");
    }

    /**
     * The screens' tab close and a logout (API and screens): each bug reported by the checker on
     * its own.
     */
    @ParameterizedTest
    @EnumSource(names = {"TAB_RELEASE_FREES_NOTHING", "SESSION_END_KEEPS_WRITE_LOCKS"})
    void eachPlantedBugIsReportedByTheCheckerOverTwoNodes(PlantedBug bug) throws Exception {
        plant(bug);
        try {
            ClusterTorture.Result r = torture(20261203L + bug.ordinal());
            System.out.printf(
                    "%s on two nodes: %d violations, %s%n", bug, r.violations().size(), r.counts());
            assertThat(r.violations())
                    .as(bug + " (" + bug.description() + ")")
                    .anySatisfy(v -> assertThat(v).contains(bug.caughtBy()));
        } finally {
            plant(null);
        }
    }

    /**
     * The admin's force release and take-over and a hand-over an editor agreed to, on records that
     * change hands often: each bug reported by the checker on its own. The same plan with nothing
     * planted must be clean and take every one of these paths. The force release is here rather
     * than in the plan above: over the keys of 40 records most of the admin's force releases find
     * nothing held (one or two end a lock a run), too few to be sure a bug that frees nothing is
     * seen.
     */
    @ParameterizedTest
    @EnumSource(
            names = {
                "FORCE_RELEASE_FREES_NOTHING",
                "TAKE_OVER_LEAVES_THE_HOLDER",
                "HAND_OVER_FREES_NOTHING"
            })
    void passingOnBugsAreReportedByTheCheckerOverTwoNodes(PlantedBug bug) throws Exception {
        plant(bug);
        try {
            ClusterTorture.Result r = passingOn(20261204L + bug.ordinal());
            System.out.printf(
                    "%s on two nodes: %d violations, %s%n", bug, r.violations().size(), r.counts());
            assertThat(r.violations())
                    .as(bug + " (" + bug.description() + ")")
                    .anySatisfy(v -> assertThat(v).contains(bug.caughtBy()));
        } finally {
            plant(null);
        }
    }

    @Test
    void recordsChangingHandsWithNothingPlantedAreClean() throws Exception {
        plant(null);
        ClusterTorture.Result r = passingOn(20261204);
        System.out.printf("Records changing hands, nothing planted: %s%n", r.report());
        assertThat(r.violations()).isEmpty();
        assertThat(r.samples()).as("every answer one the API and the screens promise").isEmpty();
        assertThat(r.counts())
                .as("records were released by force, taken over from their holders and handed over")
                .containsKeys(
                        "history FORCE_RELEASED", "history TAKEN_OVER", "history HANDED_OVER");
    }
}
