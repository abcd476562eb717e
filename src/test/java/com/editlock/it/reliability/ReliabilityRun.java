package com.editlock.it.reliability;

import com.editlock.it.node.Cluster;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code mvn -Preliability}: every fault against two Payara Micro nodes on one PostgreSQL, with the
 * figures the README keeps. {@code -Dreliability.operations} (100,000) and {@code
 * -Dreliability.clients} (16) size the torture, {@code -Dreliability.outage.seconds} (30) the
 * outage, {@code -Dreliability.maxMinutes} (180) bounds the torture in time; {@code
 * -Dreliability.tortureOnly=true} runs only the torture, {@code -Dreliability.churnOnly=true} only
 * the tab churn, tabs ending by every route while changes are told ({@code
 * -Dreliability.churn.seconds}, 120). Exits with 1 when anything is violated or left behind.
 */
public final class ReliabilityRun {

    private ReliabilityRun() {}

    public static void main(String[] args) throws Exception {
        System.exit(run() ? 0 : 1);
    }

    /**
     * Runs what the properties ask for; true when nothing was violated, corrupted or left behind.
     */
    private static boolean run() throws Exception {
        long operations = Long.getLong("reliability.operations", 100_000);
        int clients = Integer.getInteger("reliability.clients", 16);
        int outageSeconds = Integer.getInteger("reliability.outage.seconds", 30);
        long seed = Long.getLong("reliability.seed", System.currentTimeMillis());
        String stamp = com.editlock.bench.RunStamp.now();
        System.out.println("Reliability run of " + stamp);
        System.out.printf(
                Locale.ROOT,
                "Starting PostgreSQL and two Payara Micro nodes (lease %d s, sweep %d s) …%n",
                Cluster.LEASE_SECONDS,
                Cluster.SWEEP_SECONDS);
        try (Cluster cluster = Cluster.startBehindProxy(2, "reliability", java.util.List.of())) {
            List<String> tortureKeys = cluster.addConfigurators(25);
            List<String> killKeys = cluster.addConfigurators(125);
            List<String> otherKeys = cluster.addConfigurators(2);
            List<String> shutdownKeys = cluster.addConfigurators(5);

            if (Boolean.getBoolean("reliability.churnOnly")) { // tabs ending by every route, alone
                Reliability.Churn w =
                        Reliability.tabChurn(
                                cluster,
                                otherKeys.get(4),
                                Duration.ofSeconds(
                                        Integer.getInteger("reliability.churn.seconds", 120)));
                System.out.println("Tab churn (" + stamp + "): " + w.summary());
                w.corrupted().stream()
                        .limit(5)
                        .forEach(x -> System.out.println("CORRUPTED (churn) " + x));
                w.containerFailures().stream()
                        .limit(10)
                        .forEach(x -> System.out.println("CONTAINER (churn) " + x));
                return w.clean();
            }
            System.out.printf(
                    Locale.ROOT,
                    "Torture: %,d operations, %d clients, seed %d …%n",
                    operations,
                    clients,
                    seed);
            long[] logsFrom = {
                java.nio.file.Files.size(cluster.log(0)), java.nio.file.Files.size(cluster.log(1))
            };
            ClusterTorture.Result t =
                    new ClusterTorture(
                                    cluster,
                                    tortureKeys,
                                    new ClusterTorture.Plan(
                                            clients,
                                            operations,
                                            Duration.ofMinutes(
                                                    Long.getLong("reliability.maxMinutes", 180)),
                                            seed,
                                            false))
                            .run();
            List<String> failedInContainer =
                    new java.util.ArrayList<>(
                            Reliability.containerFailures(cluster.log(0), logsFrom[0]));
            failedInContainer.addAll(Reliability.containerFailures(cluster.log(1), logsFrom[1]));
            if (Boolean.getBoolean("reliability.tortureOnly")) {
                long left = Reliability.count(cluster, tortureKeys);
                System.out.println(
                        t.counts()
                                + " "
                                + t.operations()
                                + " ops in "
                                + t.took().toMillis()
                                + " ms; "
                                + t.violations().size()
                                + " violations, "
                                + t.unexpected()
                                + " unexpected; "
                                + t.report()
                                + "; worst release delays "
                                + t.releaseDelays()
                                + "; locks left: "
                                + left
                                + "; requests failed inside the container (node logs): "
                                + failedInContainer.size());
                failedInContainer.stream()
                        .limit(10)
                        .forEach(x -> System.out.println("CONTAINER (log) " + x));
                t.violations().stream().limit(10).forEach(System.out::println);
                t.samples().forEach(System.out::println);
                System.out.printf(
                        Locale.ROOT,
                        "Torture ("
                                + stamp
                                + "): %,d calls judged; %,d of %,d history rows matched"
                                + " to a call%n",
                        t.report().callsJudged(),
                        t.report().rowsMatched(),
                        t.report().events());
                return t.violations().isEmpty()
                        && t.unexpected() == 0
                        && left == 0
                        && failedInContainer.isEmpty()
                        && t.report().rowsMatched() == t.report().events();
            }
            System.out.println("Node kill …");
            Reliability.NodeKill k = Reliability.nodeKill(cluster, killKeys, otherKeys, () -> {});
            System.out.println("Database outage …");
            Reliability.Outage o =
                    Reliability.outage(
                            cluster,
                            tortureKeys,
                            Duration.ofSeconds(outageSeconds),
                            Math.max(4, clients / 2),
                            seed + 1,
                            () -> {});
            System.out.println("Ctrl-C …");
            Reliability.Shutdown c = Reliability.ctrlC(cluster, shutdownKeys);
            System.out.println("Tab churn …");
            Reliability.Churn w =
                    Reliability.tabChurn(
                            cluster,
                            otherKeys.get(4),
                            Duration.ofSeconds(
                                    Integer.getInteger("reliability.churn.seconds", 120)));

            long violations = t.violations().size() + o.load().violations().size();
            long unexpected = t.unexpected() + o.load().unexpected() + k.survivorFailures();
            long leftBehind =
                    Reliability.count(cluster, tortureKeys)
                            + Reliability.count(cluster, killKeys)
                            + Reliability.count(cluster, shutdownKeys);
            System.out.println();
            System.out.println("| figure | value |");
            System.out.println("|---|---|");
            row("run", stamp + ", seed " + seed);
            row(
                    "torture: operations over two nodes",
                    String.format(
                            Locale.ROOT,
                            "%,d in %d s (%,.0f/s), %d clients",
                            t.operations(),
                            t.took().toSeconds(),
                            t.operations() / Math.max(1.0, t.took().toMillis() / 1000.0),
                            clients));
            row(
                    "torture: grants / saves / history rows checked",
                    String.format(
                            Locale.ROOT,
                            "%,d / %,d / %,d",
                            t.report().tokens(),
                            t.report().saves(),
                            t.report().events()));
            row(
                    "torture: calls judged / history rows matched to a call",
                    String.format(
                            Locale.ROOT,
                            "%,d / %,d of %,d",
                            t.report().callsJudged(),
                            t.report().rowsMatched(),
                            t.report().events()));
            row("torture: what the clients did", t.counts().toString());
            row("violations (torture + outage)", String.valueOf(violations));
            row("unexpected answers", String.valueOf(unexpected));
            row("locks left behind", String.valueOf(leftBehind));
            row(
                    "torture: requests failed inside the container (lines in the node logs)",
                    String.valueOf(failedInContainer.size()));
            t.releaseDelays()
                    .forEach(
                            (layer, worst) ->
                                    row(
                                            "worst release delay, " + layer,
                                            Reliability.millis(worst)
                                                    + (layer.startsWith("lease")
                                                            ? " after the lease ran out ("
                                                                    + t.report().expired()
                                                                    + " expiries)"
                                                            : "")));
            row(
                    "node kill: " + k.locks() + " locks of the killed node free after",
                    Reliability.millis(k.allFreed())
                            + " (bound: lease "
                            + Cluster.LEASE_SECONDS
                            + " s + sweep "
                            + Cluster.SWEEP_SECONDS
                            + " s + 1 s, as enforced)");
            row(
                    "node kill: the other node's answers",
                    k.survivorRequests() + " requests, " + k.survivorFailures() + " failed");
            row(
                    "outage: " + outageSeconds + " s; readiness DOWN after",
                    Reliability.millis(o.healthDown()));
            row(
                    "outage: slowest 503 answer",
                    o.slowest503Millis()
                            + " ms ("
                            + o.load().counts().getOrDefault("503 while the store was down", 0L)
                            + " answered 503)");
            row(
                    "outage: both nodes UP again after the database returned",
                    Reliability.millis(o.healthUp()));
            row("outage: both nodes grant again after", Reliability.millis(o.firstGrants()));
            row(
                    "outage: leases that ran out meanwhile removed after",
                    Reliability.millis(o.lapsedSwept()));
            row(
                    "Ctrl-C with " + c.locks() + " locks: released at shutdown / left",
                    c.releasedAtShutdown() + " / " + c.leftAfterShutdown());
            row("Ctrl-C: the node served again after", Reliability.millis(c.restart()));
            row(
                    "tab churn ("
                            + Integer.getInteger("reliability.churn.seconds", 120)
                            + " s): tabs by route / "
                            + "streams refused",
                    w.tabs() + " " + w.routes() + " / " + w.streamsRefused());
            row(
                    "tab churn: slowest lock news after the change",
                    Reliability.millis(w.slowestPush()));
            row(
                    "tab churn: other sessions' answers checked / wrong / container failures in the node logs",
                    w.answersChecked()
                            + " / "
                            + w.corrupted().size()
                            + " / "
                            + w.containerFailures().size());
            failedInContainer.stream()
                    .limit(10)
                    .forEach(x -> System.out.println("CONTAINER (log) " + x));
            w.containerFailures().stream()
                    .limit(5)
                    .forEach(x -> System.out.println("CONTAINER (churn) " + x));
            w.corrupted().stream()
                    .limit(5)
                    .forEach(x -> System.out.println("CORRUPTED (churn) " + x));
            t.violations().stream().limit(20).forEach(v -> System.out.println("VIOLATION " + v));
            o.load().violations().stream()
                    .limit(20)
                    .forEach(v -> System.out.println("VIOLATION " + v));
            t.samples().forEach(s -> System.out.println("UNEXPECTED " + s));
            o.load().samples().forEach(s -> System.out.println("UNEXPECTED (outage) " + s));
            List<String> missed = new java.util.ArrayList<>(); // the same bounds as ReliabilityIT's
            Duration killBound =
                    Duration.ofSeconds(Cluster.LEASE_SECONDS + Cluster.SWEEP_SECONDS + 1);
            within(missed, "node kill: locks free", k.allFreed(), killBound);
            if (k.survivorFailures() > 0 || k.survivorRequests() == 0) {
                missed.add(
                        "node kill: the other node answered "
                                + k.survivorRequests()
                                + " requests, "
                                + k.survivorFailures()
                                + " failed");
            }
            within(missed, "outage: readiness DOWN", o.healthDown(), Duration.ofSeconds(2));
            if (o.slowest503Millis() > 2_000) {
                missed.add("outage: slowest 503 " + o.slowest503Millis() + " ms (bound 2 s)");
            }
            within(missed, "outage: both nodes UP again", o.healthUp(), Duration.ofSeconds(15));
            within(
                    missed,
                    "outage: both nodes grant again",
                    o.firstGrants(),
                    Duration.ofSeconds(15));
            within(
                    missed,
                    "outage: lapsed leases removed",
                    o.lapsedSwept(),
                    Duration.ofSeconds(15));
            if (c.releasedAtShutdown() != c.locks() || c.leftAfterShutdown() != 0) {
                missed.add(
                        "Ctrl-C: "
                                + c.releasedAtShutdown()
                                + " of "
                                + c.locks()
                                + " released by the shutdown, "
                                + c.leftAfterShutdown()
                                + " left");
            }
            if (t.report().rowsMatched() != t.report().events()) {
                missed.add(
                        "torture: "
                                + t.report().rowsMatched()
                                + " of "
                                + t.report().events()
                                + " history rows matched to a call");
            }
            missed.forEach(m -> System.out.println("BOUND MISSED " + m));
            return violations == 0
                    && unexpected == 0
                    && leftBehind == 0
                    && failedInContainer.isEmpty()
                    && w.clean()
                    && missed.isEmpty();
        }
    }

    private static void within(List<String> missed, String what, Duration took, Duration bound) {
        if (took == null || took.compareTo(bound) > 0) {
            missed.add(
                    what
                            + " after "
                            + (took == null ? "never" : Reliability.millis(took))
                            + " (bound "
                            + Reliability.millis(bound)
                            + ")");
        }
    }

    private static void row(String figure, String value) {
        System.out.println("| " + figure + " | " + value + " |");
    }
}
