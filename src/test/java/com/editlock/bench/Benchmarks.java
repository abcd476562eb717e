package com.editlock.bench;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.internal.CpuProfile;
import com.editlock.lock.internal.LockOperationsBenchmark;
import com.editlock.lock.internal.LockStore;
import com.editlock.lock.internal.SweepBenchmark;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code mvn -Pbench}: every benchmark, each against its baselines in the same run, written to
 * {@code BENCHMARKS.md} with charts under {@code docs/benchmarks/}. One throw-away embedded
 * PostgreSQL (the test settings: no fsync) and one Redis on loopback serve the lock benchmarks; the
 * page benchmarks start Payara Micro nodes of their own.
 *
 * <p>System properties: {@code bench.quick=true} (one fork, short iterations: to try the command,
 * not to quote), {@code bench.parts=locks,release-all,sweep,pages,push,tokens,liveness,capacity} (a
 * subset), {@code bench.out} (where to write the report; default {@code BENCHMARKS.md}).
 */
public final class Benchmarks {

    static final boolean QUICK = Boolean.getBoolean("bench.quick");
    static final boolean DURABLE = Boolean.getBoolean("bench.durable");
    static final int[] THREADS =
            java.util.Arrays.stream(System.getProperty("bench.threads", "1,4,16,64").split(","))
                    .mapToInt(Integer::parseInt)
                    .toArray();

    private Benchmarks() {}

    public static void main(String[] args) throws Exception {
        Set<String> parts =
                Set.of(
                        System.getProperty(
                                        "bench.parts",
                                        "locks,release-all,sweep,pages,push,tokens,liveness,capacity")
                                .split(","));
        Path root = Path.of("").toAbsolutePath();
        Report report = new Report(root);
        Environment env;
        Path durableData = Files.createTempDirectory("editlock-bench-db");
        try (EmbeddedDatabase db =
                        DURABLE
                                ? EmbeddedDatabase.durable(durableData)
                                : EmbeddedDatabase.throwAway();
                Redis redis = Redis.start()) {
            LockStore store = LockStore.on(db);
            env = Environment.of(store, redis);
            prepare(store);
            List<String> jvm =
                    new ArrayList<>(
                            List.of(
                                    "-Xmx512m",
                                    "-Dbench.db.url=" + db.jdbcUrl(),
                                    "-Dbench.db.user=" + db.user(),
                                    "-Dbench.db.password=" + db.password()));
            if (redis.available()) {
                jvm.add("-Dbench.redis.port=" + redis.port());
            }
            if (parts.contains("locks")) {
                lockOperations(report, jvm, redis, store);
            }
            if (parts.contains("release-all")) {
                releaseAll(report, jvm, redis);
            }
            if (parts.contains("sweep")) {
                sweep(report, store);
            }
        }
        try (var files = Files.walk(durableData)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        if (parts.contains("pages") || parts.contains("push")) {
            com.editlock.bench.PageBenchmarks.run(
                    report, parts.contains("pages"), parts.contains("push"), QUICK);
        }
        if (parts.contains("tokens")) {
            com.editlock.bench.TokenBenchmark.run(report, QUICK);
        }
        if (parts.contains("liveness")) {
            com.editlock.lock.internal.LivenessBenchmark.run(report, QUICK);
        }
        if (parts.contains("capacity")) {
            com.editlock.bench.CapacityBenchmark.run(report, QUICK);
        }
        // Only a run of every part replaces BENCHMARKS.md; a subset goes to target/ unless told
        // otherwise.
        String out0 = System.getProperty("bench.out", "");
        Path out =
                Path.of(
                        !out0.isBlank()
                                ? out0
                                : parts.size() == 8
                                        ? "BENCHMARKS.md"
                                        : "target/benchmarks-partial.md");
        Files.writeString(out, env.header(parts) + report.markdown(), StandardCharsets.UTF_8);
        System.out.println("\nWritten: " + out.toAbsolutePath());
    }

    /**
     * The baseline table, the scanning copy of the lock table, and the notify trigger (disabled).
     */
    private static void prepare(LockStore store) {
        store.execute(
                "create table bench_lock (resource_key varchar(200) primary key, owner_id varchar(64) not null)");
        store.execute(
                "create table bench_lock_scan (like app_lock including defaults including constraints)");
        store.execute("create unique index on bench_lock_scan (resource_key) where mode = 'WRITE'");
        store.execute("create index on bench_lock_scan (aggregate_key)");
        store.execute("create index on bench_lock_scan (expires_at)");
        store.execute(
                "create function bench_notify() returns trigger language plpgsql as $$ begin"
                        + " perform pg_notify('app_lock', json_build_object('op', lower(tg_op), 'resource',"
                        + " coalesce(new.resource_key, old.resource_key))::text); return null; end; $$");
        store.execute(
                "create trigger bench_notify after insert or delete on app_lock for each row"
                        + " execute function bench_notify()");
        store.execute("alter table app_lock disable trigger bench_notify");
        for (String table : List.of("app_lock", "bench_lock", "bench_lock_scan", "lock_event")) {
            store.execute("alter table " + table + " set (autovacuum_enabled = false)");
        }
        int connections = (int) store.number("select current_setting('max_connections')::int");
        if (connections < 80) {
            throw new IllegalStateException(
                    "64 threads need max_connections of 80 at least; it is " + connections);
        }
    }

    private static ChainedOptionsBuilder jmh(String methods, List<String> jvm) {
        ChainedOptionsBuilder options =
                new OptionsBuilder()
                        .include(LockOperationsBenchmark.class.getName() + "\\.(" + methods + ")$")
                        .jvmArgsAppend(jvm.toArray(String[]::new))
                        .shouldFailOnError(true)
                        .verbosity(VerboseMode.NORMAL);
        if (QUICK) {
            options.forks(1).warmupIterations(2).measurementIterations(2);
        }
        if (Integer.getInteger("bench.warmups") != null) {
            options.warmupIterations(Integer.getInteger("bench.warmups"));
        }
        return options;
    }

    /** JMH's figures for one benchmark at one thread count. */
    record Figures(
            String method,
            int threads,
            String param,
            double mean,
            double error,
            double p50,
            double p99,
            long samples) {

        static Figures of(RunResult r) {
            Result<?> primary = r.getPrimaryResult();
            var stats = primary.getStatistics();
            String method =
                    r.getParams()
                            .getBenchmark()
                            .substring(r.getParams().getBenchmark().lastIndexOf('.') + 1);
            String param =
                    r.getParams().getParamsKeys().isEmpty() ? "" : r.getParams().getParam("locks");
            double error = Double.isNaN(primary.getScoreError()) ? 0 : primary.getScoreError();
            return new Figures(
                    method,
                    r.getParams().getThreads(),
                    param,
                    primary.getScore(),
                    error,
                    stats.getPercentile(50),
                    stats.getPercentile(99),
                    stats.getN());
        }

        /**
         * Pairs per second that follow from the mean time of one pair (every thread always busy).
         */
        double throughput() {
            return threads * 1_000_000 / mean;
        }

        double throughputError() {
            return throughput() * error / mean;
        }
    }

    private static final Map<String, String> NAMES = new LinkedHashMap<>();

    static {
        NAMES.put("ceiling", "ceiling: bare table");
        NAMES.put("advisory", "advisory lock");
        NAMES.put("redis", "Redis SET NX + SADD");
        NAMES.put("editlock", "Editlock");
        NAMES.put("editlockFourAggregates", "Editlock, 4 shared aggregates");
        NAMES.put("editlockNotifying", "Editlock + pg_notify trigger");
    }

    private static void lockOperations(
            Report report, List<String> jvm, Redis redis, LockStore store) throws Exception {
        List<String> methods =
                new ArrayList<>(
                        List.of("ceiling", "advisory", "editlock", "editlockFourAggregates"));
        if (redis.available()) {
            methods.add(2, "redis");
        }
        List<String> profile = List.of("profileLockRow", "profileAudited");
        Map<String, Map<Integer, Figures>> by = new LinkedHashMap<>();
        methods.forEach(m -> by.put(m, new TreeMap<>()));
        profile.forEach(m -> by.put(m, new TreeMap<>()));
        for (int threads : THREADS) {
            String all = String.join("|", methods) + "|" + String.join("|", profile);
            for (RunResult r : new Runner(jmh(all, jvm).threads(threads).build()).run()) {
                Figures f = Figures.of(r);
                by.get(f.method()).put(threads, f);
            }
        }
        Figures plain = null;
        Figures withTrigger = null;
        for (RunResult r :
                new Runner(jmh("editlock|editlockNotifying", jvm).threads(16).build()).run()) {
            Figures f = Figures.of(r);
            if (f.method().equals("editlock")) {
                plain = f;
            } else {
                withTrigger = f;
            }
        }

        report.heading("1. Acquire + release");
        report.text(
                """
                One acquire and one release of a WRITE lock, back to back, by each of 1 / 4 / 16 / 64 threads, each
                thread on a key of its own (Editlock: in an aggregate of its own; the *4 shared aggregates* column
                puts the threads into four aggregates, so grants inside one aggregate wait for each other). JMH
                samples every pair's time; the throughput follows from the mean (threads / mean time). Editlock runs
                its real code (`JdbcLockManager`, outside a transaction, as the API calls it) without the application
                server around it. ± is JMH's 99.9 % confidence interval of the mean, as a share of it.""");
        report.text(
                """
                Round trips per pair: **ceiling** 2 (`INSERT … ON CONFLICT DO NOTHING`, `DELETE`, each
                autocommitted); **advisory** 2 (`pg_try_advisory_lock`, `pg_advisory_unlock`); **Redis** 3 (`SET NX
                PX`, then `SADD` into the owner's set, then one script that deletes the key if it is still the
                owner's and removes it from the set); **Editlock** 2 (the grant is one text of several statements
                that PostgreSQL runs as one implicit transaction: advisory lock on the aggregate, clean-up of its
                lapsed rows, grant + audit row; the release is one statement that deletes and audits). Before this
                benchmark existed Editlock made 4 (statement + commit, twice).""");
        List<String> header = new ArrayList<>(List.of("threads"));
        methods.forEach(m -> header.add(NAMES.get(m) + " pairs/s"));
        header.add("Editlock / ceiling");
        List<List<String>> rows = new ArrayList<>();
        for (int threads : THREADS) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(threads)));
            for (String m : methods) {
                Figures f = by.get(m).get(threads);
                row.add(
                        Report.number(f.throughput())
                                + " "
                                + Report.plusMinus(f.mean(), f.error()));
            }
            Figures ceiling = by.get("ceiling").get(threads);
            Figures editlock = by.get("editlock").get(threads);
            double ratio = ceiling.mean() / editlock.mean();
            double relative =
                    Math.hypot(
                            ceiling.error() / ceiling.mean(), editlock.error() / editlock.mean());
            row.add(String.format("**%.2f** ±%.2f", ratio, ratio * relative));
            rows.add(row);
            double target = threads == 16 ? 0.35 : 0.45;
            if (threads <= 16) {
                report.target(
                        "acquire + release, Editlock / ceiling, "
                                + threads
                                + " thread"
                                + (threads == 1 ? "" : "s"),
                        String.format("≥ %.2f", target),
                        String.format("%.2f ±%.2f", ratio, ratio * relative),
                        ratio >= target);
            }
        }
        report.table(header, rows);

        List<String> latencyHeader = new ArrayList<>(List.of("threads"));
        methods.forEach(m -> latencyHeader.add(NAMES.get(m) + " p50 / p99 µs"));
        List<List<String>> latency = new ArrayList<>();
        for (int threads : THREADS) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(threads)));
            for (String m : methods) {
                Figures f = by.get(m).get(threads);
                row.add(Report.number(f.p50()) + " / " + Report.number(f.p99()));
            }
            latency.add(row);
        }
        report.text("Time of one pair, percentiles over every sampled pair:");
        report.table(latencyHeader, latency);

        List<Charts.Series> throughput = new ArrayList<>();
        List<Charts.Series> p99 = new ArrayList<>();
        for (String m : methods) {
            Charts.Series t = new Charts.Series(NAMES.get(m));
            Charts.Series l = new Charts.Series(NAMES.get(m));
            by.get(m)
                    .forEach(
                            (threads, f) -> {
                                t.add(threads, f.throughput(), f.throughputError());
                                l.add(threads, f.p99() / 1000.0);
                            });
            throughput.add(t);
            p99.add(l);
        }
        report.chart(
                "acquire-release-throughput",
                "Acquire + release pairs per second",
                "threads",
                "pairs/s",
                false,
                throughput);
        report.chart(
                "acquire-release-p99",
                "Acquire + release, p99 time of a pair",
                "threads",
                "ms (log scale)",
                true,
                p99);

        report.text(
                """
                **Where the time goes.** The same pair, built up from the ceiling one cost at a time, in the same
                run: *lock row* is the ceiling's two statements on the real lock table (its row of eleven columns,
                its seven indexes, the fencing-token sequence, the row returned); *audited* adds the history line
                of each grant and release in the same statement (the history has four indexes); *Editlock* adds the
                aggregate's advisory lock, the clean-up of the aggregate's lapsed rows, the check of the aggregate's
                hierarchy, the session's cap and the maximum age. Each figure: pairs per second, and the share of
                the ceiling.""");
        List<List<String>> steps = new ArrayList<>();
        for (int threads : THREADS) {
            double ceiling = by.get("ceiling").get(threads).throughput();
            List<String> row =
                    new ArrayList<>(List.of(Integer.toString(threads), Report.number(ceiling)));
            for (String m : List.of("profileLockRow", "profileAudited", "editlock")) {
                double t = by.get(m).get(threads).throughput();
                row.add(String.format("%s (%.2f)", Report.number(t), t / ceiling));
            }
            steps.add(row);
        }
        report.table(
                List.of(
                        "threads",
                        "ceiling",
                        "+ lock row",
                        "+ audit lines",
                        "Editlock (+ serialize," + " clean-up, hierarchy, cap)"),
                steps);
        if (CpuProfile.available()) {
            List<List<String>> cpu = new ArrayList<>();
            Map<String, CpuProfile.Step> at16 = new LinkedHashMap<>();
            for (int threads : new int[] {1, 16}) {
                for (CpuProfile.Step step : CpuProfile.run(store, threads, QUICK ? 1_500 : 4_000)) {
                    if (threads == 16) {
                        at16.put(step.name(), step);
                    }
                    cpu.add(
                            List.of(
                                    Integer.toString(threads),
                                    step.name(),
                                    Report.number(step.pairsPerSecond()),
                                    Report.number(step.serverMicros()),
                                    Report.number(step.clientMicros()),
                                    Report.number(step.serverMicros() + step.clientMicros())));
                }
            }
            report.text(
                    String.format(
                            """
                    **CPU per pair.** The same steps run in this process (not under JMH: %s s per step after a
                    1.5 s warm-up), with the CPU time of every PostgreSQL process (from `/proc`) and of the client
                    threads, divided by the pairs done. When every core is busy, pairs per second can be at most
                    cores / CPU per pair: at 4 threads and more this machine's %d cores are the limit, so the ratio
                    to the ceiling there is close to the ratio of their CPU per pair.""",
                            QUICK ? "1.5" : "4", Runtime.getRuntime().availableProcessors()));
            report.table(
                    List.of(
                            "threads",
                            "step",
                            "pairs/s",
                            "database CPU µs / pair",
                            "client CPU µs / pair",
                            "total CPU µs / pair"),
                    cpu);
            whyTheRatioIsWhatItIs(report, at16);
        }

        report.text(
                String.format(
                        """
                **The cost of a `pg_notify` trigger** (the one Editlock had before its screens learnt of changes by
                reading the history): a transaction that has sent `NOTIFY` takes a database-wide lock at commit, so
                notifying transactions commit one at a time. At 16 threads: %s pairs/s without it, %s with it: the
                trigger costs **%.0f %%** of the throughput (p99 %s µs → %s µs); the two measured one after the
                other.""",
                        Report.number(plain.throughput()),
                        Report.number(withTrigger.throughput()),
                        100 * (1 - withTrigger.throughput() / plain.throughput()),
                        Report.number(plain.p99()),
                        Report.number(withTrigger.p99())));
        if (!redis.available()) {
            report.text("Redis: " + redis.why() + " The Redis column is left out of this run.");
        }
    }

    /**
     * The reading of the profile: what each step costs at 16 threads and which promise it pays for.
     */
    private static void whyTheRatioIsWhatItIs(Report report, Map<String, CpuProfile.Step> at16) {
        double ceiling = total(at16.get("ceiling"));
        double row = total(at16.get("lock row"));
        double audited = total(at16.get("audited"));
        double editlock = total(at16.get("Editlock"));
        report.text(
                String.format(
                        """
                **Why the ratio at 4 threads and more stays where it is.** With every core busy, the ratio is the
                ceiling's CPU per pair over Editlock's: here %s µs over %s µs, at most **%.2f**. Where the extra
                %s µs go, and what each part pays for:

                - **The lock row: +%s µs.** The ceiling's table has one index; `app_lock` has six, each a promise:
                  one writer per resource (a partial unique index: the database, not the application, refuses a
                  second writer), one row per owner and resource (re-acquiring moves the lock to the new tab and
                  keeps its token), the owner's locks (a session's end releases them in one indexed statement: part
                  2), the aggregate's locks (the hierarchy check and the clean-up), and expiry (the sweep: part 3);
                  plus the fencing-token sequence and the row returned to the caller.
                - **The audit line of every grant and release: +%s µs.** It is the history the dashboard shows and
                  the feed every node reads to tell its open pages (part 5): without it no screen on another node
                  would learn of a release, and no admin could say who had a record when.
                - **Serializing the aggregate, cleaning up its lapsed rows, checking its hierarchy, the session's
                  cap and the lock's maximum age: +%s µs.** These are what make the lock correct: an aggregate
                  lock and a lock on one of its parts are never granted together (no index can say that), a lapsed
                  row is deleted and audited by exactly one judge before a grant, and a session cannot hold more
                  than its cap. The statements go as one text and one round trip; what remains is PostgreSQL
                  executing them, and their cost per pair grows with concurrency (compare 1 and 16 threads above)
                  while the ceiling's does not. A `perf` profile of PostgreSQL under this load (taken by hand: it
                  needs root and is not part of the command) is flat: starting up the executor for three statements
                  per acquisition, locking a table and its indexes for each, index maintenance, snapshots; no single
                  hot spot that a change of SQL would remove.

                Dropping any of these would break a promise the product makes, so the ratio at 4 and 16 threads
                stays below the target; at 1 thread, where a pair's time is mostly round trips, Editlock makes as
                many as the ceiling (two) and meets it. What was cut: two round trips per pair (lock changes
                outside a transaction run autocommitted), and two indexes nothing read.""",
                        Report.number(ceiling),
                        Report.number(editlock),
                        ceiling / editlock,
                        Report.number(editlock - ceiling),
                        Report.number(row - ceiling),
                        Report.number(audited - row),
                        Report.number(editlock - audited)));
    }

    private static double total(CpuProfile.Step step) {
        return step.serverMicros() + step.clientMicros();
    }

    private static void releaseAll(Report report, List<String> jvm, Redis redis) throws Exception {
        String methods =
                "releaseAllIndexed|releaseAllScanning"
                        + (redis.available() ? "|releaseAllRedis" : "");
        ChainedOptionsBuilder options = jmh(methods, jvm).threads(1);
        if (QUICK) {
            options.warmupIterations(2).measurementIterations(5);
        }
        Map<String, Map<Integer, Figures>> by = new LinkedHashMap<>();
        for (RunResult r : new Runner(options.build()).run()) {
            Figures f = Figures.of(r);
            by.computeIfAbsent(f.method(), k -> new TreeMap<>())
                    .put(Integer.parseInt(f.param()), f);
        }
        report.heading("2. Releasing everything one session holds");
        report.text(
                """
                What a session's end does: release every lock of one owner, with 50,000 locks of 5,000 other owners
                in the table. **Indexed** is Editlock's statement (delete + audit in one statement, found through
                the owner index); **scanning** is the same statement on a copy of the table without that index;
                **Redis** is `SMEMBERS` of the owner's set, then one `DEL` of its keys and the set (two round trips,
                no audit). Each figure: one release timed at a time, JMH single-shot, 20 per fork after 5 warm-ups;
                median and the slowest sample (p99 of 40 samples is the slowest but one).""");
        List<String> header =
                new ArrayList<>(
                        List.of(
                                "locks held",
                                "indexed (Editlock) median / p99 ms",
                                "scanning median / p99 ms"));
        if (redis.available()) {
            header.add("Redis median / p99 ms");
        }
        header.add("scanning / indexed");
        List<List<String>> rows = new ArrayList<>();
        List<Charts.Series> lines = new ArrayList<>();
        for (String m : by.keySet()) {
            Charts.Series s =
                    new Charts.Series(
                            switch (m) {
                                case "releaseAllIndexed" -> "indexed (Editlock)";
                                case "releaseAllScanning" -> "scanning (no owner index)";
                                default -> "Redis SMEMBERS + DEL";
                            });
            by.get(m).forEach((n, f) -> s.add(n, f.p50() / 1000.0));
            lines.add(s);
        }
        for (int n : by.get("releaseAllIndexed").keySet()) {
            Figures indexed = by.get("releaseAllIndexed").get(n);
            Figures scanning = by.get("releaseAllScanning").get(n);
            List<String> row =
                    new ArrayList<>(List.of(String.format("%,d", n), ms(indexed), ms(scanning)));
            if (redis.available()) {
                row.add(ms(by.get("releaseAllRedis").get(n)));
            }
            row.add(String.format("%.1f×", scanning.p50() / indexed.p50()));
            rows.add(row);
            if (n == 1_000) {
                report.target(
                        "release everything of a session holding 1,000 locks, one statement",
                        "< 50 ms",
                        String.format(
                                "median %.1f ms, p99 %.1f ms",
                                indexed.p50() / 1000, indexed.p99() / 1000),
                        indexed.p99() / 1000 < 50);
            }
        }
        report.table(header, rows);
        report.chart(
                "release-all",
                "Release everything of one owner (median)",
                "locks held",
                "ms (log scale)",
                true,
                lines);
    }

    private static String ms(Figures f) {
        return String.format("%.2f / %.2f", f.p50() / 1000.0, f.p99() / 1000.0);
    }

    private static void sweep(Report report, LockStore store) throws Exception {
        report.heading("3. The sweep of a backlog of lapsed locks");
        report.text(
                String.format(
                        """
                A backlog of lapsed locks (as after a database outage, or a node that died with many users) swept by
                one sweep (batches of 500, each its own transaction, `FOR UPDATE SKIP LOCKED`) while %d threads keep
                acquiring and releasing locks of their own. Acquisition times while the sweep runs against the same
                threads just before it. %d rounds per size.""",
                        8, QUICK ? 1 : 3));
        List<List<String>> rows = new ArrayList<>();
        for (int lapsed : new int[] {10_000, 100_000}) {
            SweepBenchmark.Result r = SweepBenchmark.run(store, lapsed, QUICK ? 1 : 3, 2_000);
            List<Long> sorted = new ArrayList<>(r.sweepMillis());
            java.util.Collections.sort(sorted);
            rows.add(
                    List.of(
                            String.format("%,d", lapsed),
                            String.format(
                                    "%,d ms (%,d–%,d)",
                                    r.sweepMedianMillis(),
                                    sorted.get(0),
                                    sorted.get(sorted.size() - 1)),
                            String.format("%,.0f", lapsed * 1000.0 / r.sweepMedianMillis()),
                            String.format(
                                    "%s / %s",
                                    Report.number(r.quiet(0.5)), Report.number(r.quiet(0.99))),
                            String.format(
                                    "%s / %s",
                                    Report.number(r.sweeping(0.5)),
                                    Report.number(r.sweeping(0.99))),
                            String.format("%.1f×", r.sweeping(0.99) / r.quiet(0.99)),
                            String.format(
                                    "%,d / %,d",
                                    r.quietMicros().length, r.sweepingMicros().length)));
        }
        report.table(
                List.of(
                        "lapsed locks",
                        "sweep time, median (range)",
                        "locks swept per s",
                        "acquire p50 / p99 µs, no sweep",
                        "acquire p50 / p99 µs, during the sweep",
                        "p99 during / without",
                        "acquisitions timed (without / during)"),
                rows);
    }

    /** A Redis server of this run's own, on loopback, without persistence. */
    static final class Redis implements AutoCloseable {
        private final Process process;
        private final int port;
        private final String why;

        private Redis(Process process, int port, String why) {
            this.process = process;
            this.port = port;
            this.why = why;
        }

        static Redis start() throws Exception {
            Path server = findServer();
            if (server == null) {
                return new Redis(
                        null,
                        0,
                        "`redis-server` is not installed and could not be installed here (the"
                                + " command installs Debian's `redis-server` with apt-get when it runs as root).");
            }
            int port;
            try (ServerSocket s =
                    new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            Process p =
                    new ProcessBuilder(
                                    server.toString(),
                                    "--port",
                                    Integer.toString(port),
                                    "--bind",
                                    "127.0.0.1",
                                    "--save",
                                    "",
                                    "--appendonly",
                                    "no",
                                    "--protected-mode",
                                    "yes")
                            .redirectErrorStream(true)
                            .redirectOutput(Path.of("target", "bench-redis.log").toFile())
                            .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    return new Redis(p, port, null);
                } catch (IOException notYet) {
                    TimeUnit.MILLISECONDS.sleep(50);
                }
            }
            p.destroyForcibly();
            return new Redis(
                    null, 0, "`redis-server` did not start within 20 s (target/bench-redis.log).");
        }

        private static Path findServer() throws Exception {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
                Path candidate = Path.of(dir, "redis-server");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
            boolean root = "root".equals(System.getProperty("user.name"));
            if (root && Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
                System.out.println("redis-server is missing: installing Debian's redis-server …");
                ProcessBuilder update = new ProcessBuilder("apt-get", "update").inheritIO();
                ProcessBuilder install =
                        new ProcessBuilder("apt-get", "install", "-y", "redis-server").inheritIO();
                install.environment().put("DEBIAN_FRONTEND", "noninteractive");
                if (update.start().waitFor() == 0
                        && install.start().waitFor() == 0
                        && Files.isExecutable(Path.of("/usr/bin/redis-server"))) {
                    return Path.of("/usr/bin/redis-server");
                }
            }
            return null;
        }

        boolean available() {
            return process != null;
        }

        int port() {
            return port;
        }

        String why() {
            return why;
        }

        String version() throws Exception {
            if (!available()) {
                return "not installed";
            }
            try (var jedis = new redis.clients.jedis.Jedis("127.0.0.1", port)) {
                return jedis.info("server")
                        .lines()
                        .filter(l -> l.startsWith("redis_version:"))
                        .map(l -> l.substring("redis_version:".length()))
                        .findFirst()
                        .orElse("?");
            }
        }

        @Override
        public void close() {
            if (process != null) {
                process.destroy();
            }
        }
    }

    /** What the figures were measured on. */
    record Environment(
            String date, int cores, String java, String postgres, String redis, String os) {

        static Environment of(LockStore store, Redis redis) throws Exception {
            String pg = store.rows("show server_version").get(0).get(0).toString();
            return new Environment(
                    RunStamp.now(),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name")
                            + " "
                            + System.getProperty("java.runtime.version"),
                    pg,
                    redis.version(),
                    System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }

        String header(Set<String> parts) {
            return String.format(
                            """
                    # Editlock benchmarks

                    Written by `mvn -Pbench`%s on %s: %d cores, %s, PostgreSQL %s (embedded, loopback, %s),
                    Redis %s (loopback, no persistence), %s.
                    Every figure is a ratio to a baseline measured in the same run, on the same machine: absolute
                    numbers move from machine to machine and run to run, ratios much less. Performance is measured
                    here, never asserted by the test suite.
                    """,
                            (QUICK
                                            ? " -Dbench.quick=true (short: for trying the command, not for quoting)"
                                            : "")
                                    + (DURABLE ? " -Dbench.durable=true" : ""),
                            date,
                            cores,
                            java,
                            postgres,
                            DURABLE
                                    ? "durable commits: `fsync=on`, `synchronous_commit=on`, as the run command keeps its data"
                                    : "the test settings: `fsync=off`, `synchronous_commit=off`; `-Dbench.durable=true` for durable"
                                            + " commits",
                            redis,
                            os)
                    + (parts.size() < 8
                            ? "\nParts run: "
                                    + String.join(", ", new java.util.TreeSet<>(parts))
                                    + ".\n"
                            : "");
        }
    }
}
