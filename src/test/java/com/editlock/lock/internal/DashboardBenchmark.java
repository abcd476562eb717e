package com.editlock.lock.internal;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.lock.LockKey;
import com.editlock.lock.LockMode;
import com.editlock.lock.LockOwner;
import com.editlock.lock.LockQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The admin dashboard's queries with {@value #LOCKS} live locks (100 users, all three kinds, ages
 * up to two hours): each filter, each sort and a deep page, {@value #REPEAT} times each, on the
 * embedded PostgreSQL (test settings). Run with {@code mvn -Pbench
 * -Dbench.main=com.editlock.lock.internal.DashboardBenchmark}; it prints a table.
 */
public final class DashboardBenchmark {

    private static final int LOCKS = Integer.getInteger("bench.locks", 5_000);
    private static final int REPEAT = 20;

    public static void main(String[] args) throws Exception {
        try (EmbeddedDatabase db = EmbeddedDatabase.throwAway()) {
            LockStore store = LockStore.on(db);
            JdbcLockManager locks = store.manager(Duration.ofHours(1));
            JdbcLockAdministration admin = store.administration();
            List<LockOwner> users = new ArrayList<>();
            for (int u = 0; u < 100; u++) {
                users.add(new LockOwner(UUID.randomUUID().toString(), "user" + u, "User " + u));
            }
            for (int i = 0; i < LOCKS; i++) {
                long aggregate = 1 + i / 10;
                LockKey key =
                        switch (i % 10) {
                            case 0 -> LockKey.variables(aggregate);
                            default -> LockKey.itemFilters(aggregate * 100 + i % 10);
                        };
                LockOwner owner = users.get(i % users.size());
                store.inTransaction(() -> locks.acquire(key, LockMode.WRITE, owner, null));
            }
            store.execute(
                    "update app_lock set acquired_at = acquired_at - (id % 120) * interval '1 minute'");
            Map<String, LockQuery> queries = new LinkedHashMap<>();
            queries.put(
                    "first page, by age",
                    new LockQuery(null, null, null, LockQuery.Sort.ACQUIRED, false, 0, 50));
            queries.put(
                    "last page (offset 4,950)",
                    new LockQuery(
                            null, null, null, LockQuery.Sort.ACQUIRED, false, LOCKS - 50, 50));
            for (LockQuery.Sort sort : LockQuery.Sort.values()) {
                queries.put(
                        "sorted by " + sort.name().toLowerCase() + ", descending",
                        new LockQuery(null, null, null, sort, true, 0, 50));
            }
            queries.put("one user", new LockQuery("user42", null, null, null, false, 0, 50));
            queries.put(
                    "name contains \"ser 4\"",
                    new LockQuery("ser 4", null, null, null, false, 0, 50));
            queries.put(
                    "variables only",
                    new LockQuery(
                            null, LockKey.Kind.CONFIGURATOR_VARIABLES, null, null, false, 0, 50));
            queries.put(
                    "held 90 min or more", new LockQuery(null, null, 90 * 60, null, false, 0, 50));
            System.out.printf(
                    "%nDashboard queries with %,d live locks, %d runs each (count + page), PostgreSQL with the"
                            + " test settings, %d cores%n%n| query | rows matching | median ms | max ms |%n|---|---:|---:|---:|%n",
                    LOCKS, REPEAT, Runtime.getRuntime().availableProcessors());
            for (var entry : queries.entrySet()) {
                List<Double> millis = new ArrayList<>();
                long total = 0;
                for (int r = 0; r < REPEAT; r++) {
                    long start = System.nanoTime();
                    total = store.inTransaction(() -> admin.find(entry.getValue())).total();
                    millis.add((System.nanoTime() - start) / 1e6);
                }
                Collections.sort(millis);
                System.out.printf(
                        "| %s | %,d | %.1f | %.1f |%n",
                        entry.getKey(), total, millis.get(REPEAT / 2), millis.get(REPEAT - 1));
            }
            long start = System.nanoTime();
            store.inTransaction(admin::summary);
            System.out.printf("%nSummary figures: %.1f ms%n", (System.nanoTime() - start) / 1e6);
        }
    }
}
