package com.editlock.it.node;

import com.editlock.launcher.EmbeddedDatabase;
import com.editlock.launcher.PayaraNode;
import com.editlock.launcher.Proxy;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Editlock as it runs in production, small: Payara Micro nodes (Hazelcast off, loopback) as
 * separate processes on one PostgreSQL that can be stopped and started again at the same address.
 * The nodes run the WAR as built, with short leases so that faults play out in seconds.
 */
public final class Cluster implements AutoCloseable {

    /**
     * Each task a thread of its own: the tasks wait on each other, and on Java 25 (unlike 17) an
     * async task without an executor goes to the common pool, which has one worker on two cores.
     */
    private static final java.util.concurrent.ExecutorService ASYNC =
            java.util.concurrent.Executors.newCachedThreadPool(
                    Thread.ofPlatform().daemon().name("async-", 0).factory());

    public static final int LEASE_SECONDS = 5;
    public static final int SWEEP_SECONDS = 1;

    /** The product's default: the nodes run with it (a tab whose stream moves must keep it). */
    public static final long TAB_GRACE_MILLIS =
            com.editlock.platform.Settings.DEFAULT_TAB_GRACE_MILLIS;

    private final Path dataDirectory;
    private final int databasePort;
    private final List<String> jvm;
    private final List<PayaraNode> nodes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private EmbeddedDatabase database;
    private Proxy proxy;

    private final String name;

    /** Each grid cluster's members' grid ports, by cluster name (set before its nodes start). */
    private static final java.util.Map<String, List<Integer>> GRID_PORTS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** The WAR every node runs: the one built, or a test's copy of it. */
    private Path war = Path.of(System.getProperty("editlock.war"));

    private Cluster(String name, Path dataDirectory, int databasePort, List<String> jvm) {
        this.name = name;
        this.dataDirectory = dataDirectory;
        this.databasePort = databasePort;
        this.jvm = jvm;
    }

    /** Starts the database and {@code count} nodes (at once), and waits until each serves. */
    public static Cluster start(int count, String name) throws Exception {
        return start(count, name, List.of());
    }

    /**
     * The same, with system properties that replace the short test settings (the product's
     * defaults, say).
     */
    public static Cluster start(int count, String name, List<String> settings) throws Exception {
        return start(count, name, settings, Path.of(System.getProperty("editlock.war")));
    }

    /**
     * The production topology: {@code count} nodes on loopback ports of their own behind HAProxy
     * (the run command's configuration), which users reach at {@link #proxyUri()} and, with TLS and
     * HTTP/2, at {@link #proxyHttpsUri()}. The nodes believe the proxy's {@code X-Forwarded-For};
     * each drains while {@link #drainFile(int)} exists.
     */
    public static Cluster startBehindProxy(int count, String name, List<String> settings)
            throws Exception {
        return startBehindProxy(count, name, settings, false);
    }

    /**
     * The same; with {@code grid} the nodes keep their HTTP sessions in one data grid (Hazelcast
     * over TCP/IP on loopback ports of their own, as the run command's {@code LOCKS_GRID=true}).
     */
    public static Cluster startBehindProxy(
            int count, String name, List<String> settings, boolean grid) throws Exception {
        List<String> all = new ArrayList<>(List.of("-Dlocks.trusted.proxies=127.0.0.1,::1"));
        if (grid) {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ports.add(freePort());
            }
            all.add(
                    "-Dlocks.grid.members="
                            + String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList()));
            all.add("-Dlocks.grid.name=" + name + "-grid");
            GRID_PORTS.put(name, List.copyOf(ports));
        }
        all.addAll(settings);
        Cluster cluster = start(count, name, all, Path.of(System.getProperty("editlock.war")));
        try {
            Path certificate =
                    Proxy.selfSignedCertificate(
                            cluster.dataDirectory.resolve("tls").resolve("proxy.pem"));
            cluster.proxy =
                    Proxy.start(
                            Path.of(System.getProperty("editlock.serverConfig"))
                                    .resolve("haproxy.cfg"),
                            cluster.dataDirectory.resolve("proxy"),
                            new Proxy.Plan(
                                    "127.0.0.1",
                                    freePort(),
                                    freePort(),
                                    certificate,
                                    262_144,
                                    List.copyOf(cluster.ports),
                                    grid),
                            cluster.log(0).resolveSibling(name + "-haproxy.log"),
                            Duration.ofSeconds(30));
            return cluster;
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Where a user of node {@code n} goes: the proxy, when there is one (with {@link
     * #nodeCookie(int)} the proxy sends them to node {@code n}, as it would after their first
     * request there), else the node itself.
     */
    public URI userUri(int n) {
        return proxy == null ? uri(n) : proxy.url();
    }

    /**
     * The proxy's stickiness cookie for node {@code n} ({@code EDITLOCK_NODE=node1}), or empty
     * without a proxy.
     */
    public java.util.Optional<java.net.HttpCookie> nodeCookie(int n) {
        if (proxy == null) {
            return java.util.Optional.empty();
        }
        java.net.HttpCookie c = new java.net.HttpCookie("EDITLOCK_NODE", "node" + (n + 1));
        c.setPath("/");
        c.setVersion(0);
        return java.util.Optional.of(c);
    }

    /** An API client of a user of node {@code n} (through the proxy when there is one). */
    public ApiClient api(int n, Duration timeout) {
        ApiClient client = new ApiClient(userUri(n), timeout);
        nodeCookie(n).ifPresent(client::cookie);
        return client;
    }

    /** An HTTP browser of a user of node {@code n} (through the proxy when there is one). */
    public com.editlock.it.browser.Browser browser(int n) {
        com.editlock.it.browser.Browser browser = new com.editlock.it.browser.Browser(userUri(n));
        nodeCookie(n).ifPresent(browser::cookie);
        return browser;
    }

    /**
     * Opens the login page of node {@code n} in a real browser (through the proxy, with its node
     * cookie, when there is one).
     */
    public void openLogin(org.openqa.selenium.WebDriver driver, int n) {
        driver.get(userUri(n) + "login.xhtml");
        nodeCookie(n)
                .ifPresent(
                        c -> {
                            driver.manage()
                                    .addCookie(
                                            new org.openqa.selenium.Cookie(
                                                    c.getName(), c.getValue(), "/"));
                            driver.get(userUri(n) + "login.xhtml");
                        });
    }

    /** Logs {@code user} in (demo password) on node {@code n}, through the proxy if any. */
    public void logIn(org.openqa.selenium.WebDriver driver, int n, String user) {
        openLogin(driver, n);
        com.editlock.it.browser.Pages.submitLogin(driver, user, "demo");
    }

    /**
     * Restarts the proxy as a restart that takes {@code down} would: every connection through it
     * cut at once, its ports closed for {@code down}, then the same proxy again, at the same
     * addresses; returns once it has reached every node, with how long its port was closed.
     */
    public Duration restartProxy(Duration down) throws IOException, InterruptedException {
        proxy = proxy.restartAfter(down, Duration.ofSeconds(30));
        return proxy.outage();
    }

    /** The address users are given behind the proxy (plain HTTP/1.1). */
    public URI proxyUri() {
        return proxy.url();
    }

    /** The proxy's TLS address (HTTP/2 by ALPN). */
    public URI proxyHttpsUri() {
        return proxy.httpsUrl();
    }

    /** The proxy's log: one line per request, naming the client and the node that answered. */
    public Path proxyLog() {
        return proxy.log();
    }

    /** The proxy's certificate (self-signed, PEM). */
    public Path proxyCertificate() {
        return dataDirectory.resolve("tls").resolve("proxy.pem");
    }

    /** While this file exists, node {@code n} says it is not ready. */
    public Path drainFile(int n) {
        return dataDirectory.resolve("drain").resolve("node-" + (n + 1));
    }

    /** The same, every node running {@code war} (a test's copy of the WAR). */
    public static Cluster start(int count, String name, List<String> settings, Path war)
            throws Exception {
        Path data = Files.createTempDirectory("editlock-" + name + "-db-");
        int dbPort = freePort();
        Cluster cluster = new Cluster(name, data, dbPort, new ArrayList<>());
        cluster.war = war;
        cluster.database = EmbeddedDatabase.restartable(data.resolve("pg"), dbPort);
        EmbeddedDatabase db = cluster.database;
        cluster.jvm.addAll(
                List.of(
                        "-Xmx384m",
                        "-Dlocks.db.url=" + db.jdbcUrl(),
                        "-Dlocks.db.user=" + db.user(),
                        "-Dlocks.db.password=" + db.password(),
                        "-Dlocks.demo.data=true",
                        "-Dlocks.lease.seconds=" + LEASE_SECONDS,
                        "-Dlocks.sweep.seconds=" + SWEEP_SECONDS,
                        "-Dlocks.session.timeout.seconds=600",
                        "-Dlocks.max.locks.per.session=20000",
                        "-Dlocks.login.failures.per.address=100000"));
        cluster.jvm.addAll(settings); // a later -D wins
        // Options for an experiment on every node, last so that they win (a shorter tab grace, say:
        // -Deditlock.it.nodeOptions=-Dlocks.tab.grace.seconds=0.9).
        String experiment = System.getProperty("editlock.it.nodeOptions", "").trim();
        if (!experiment.isEmpty()) {
            cluster.jvm.addAll(List.of(experiment.split("\\s+")));
        }
        try {
            for (int i = 0; i < count; i++) {
                cluster.ports.add(freePort());
                cluster.nodes.add(null);
            }
            List<CompletableFuture<Void>> starting = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int n = i;
                starting.add(CompletableFuture.runAsync(() -> cluster.startNode(n), ASYNC));
            }
            for (CompletableFuture<Void> s : starting) {
                s.join();
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The server log of node {@code n} (appended to across starts). */
    public Path log(int n) {
        return Path.of(System.getProperty("editlock.war"))
                .resolveSibling(name + "-node-" + (n + 1) + ".log");
    }

    /**
     * Starts node {@code n} (again, after a kill or a stop) on its port and waits until it serves.
     */
    public void startNode(int n) {
        try {
            Files.createDirectories(drainFile(n).getParent());
            List<String> nodeJvm = new ArrayList<>(jvm);
            nodeJvm.add("-Dlocks.drain.file=" + drainFile(n).toAbsolutePath());
            List<Integer> grid = GRID_PORTS.get(name);
            if (grid != null) {
                nodeJvm.add("-Dlocks.grid.port=" + grid.get(n));
            }
            PayaraNode node =
                    PayaraNode.startServing(
                            Path.of(System.getProperty("payara.microJar")),
                            war,
                            Path.of(System.getProperty("editlock.serverConfig")),
                            ports.get(n),
                            nodeJvm,
                            war.resolveSibling(name + "-node-" + (n + 1) + ".log"),
                            Duration.ofMinutes(2));
            nodes.set(n, node);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts one more node, outside the cluster's list (the caller stops it), that runs the WAR
     * unpacked into {@code exploded}: Payara Micro redeploys such an application, without a
     * restart, when {@code .reload} in its root is touched.
     */
    public PayaraNode startExploded(Path exploded) throws IOException, InterruptedException {
        Path war = Path.of(System.getProperty("editlock.war"));
        try (var zip = new java.util.zip.ZipFile(war.toFile())) {
            for (var entry : java.util.Collections.list(zip.entries())) {
                Path to = exploded.resolve(entry.getName()).normalize();
                if (!to.startsWith(exploded)) {
                    throw new IOException("A WAR entry outside its root: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    try (var in = zip.getInputStream(entry)) {
                        Files.copy(in, to);
                    }
                }
            }
        }
        PayaraNode node =
                PayaraNode.start(
                        Path.of(System.getProperty("payara.microJar")),
                        exploded,
                        Path.of(System.getProperty("editlock.serverConfig")),
                        freePort(),
                        jvm,
                        war.resolveSibling(name + "-exploded-node.log"));
        try {
            node.awaitServing(Duration.ofMinutes(4));
        } catch (IOException | RuntimeException e) {
            node.stop();
            throw e;
        }
        return node;
    }

    /** Node {@code n}'s port in the data grid (a cluster started with the grid). */
    public int gridPort(int n) {
        return GRID_PORTS.get(name).get(n);
    }

    public URI uri(int n) {
        return URI.create(nodes.get(n).url());
    }

    public PayaraNode node(int n) {
        return nodes.get(n);
    }

    public int size() {
        return nodes.size();
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(
                database.jdbcUrl(), database.user(), database.password());
    }

    /** Stops PostgreSQL (a fast shutdown: open connections are cut). */
    public void stopDatabase() throws IOException {
        database.close();
    }

    /** Starts PostgreSQL again at the same address with the same data. */
    public void startDatabase() throws IOException {
        database = EmbeddedDatabase.restartable(dataDirectory.resolve("pg"), databasePort);
    }

    /** The history's end rows of {@code key} (how each of its locks ended), oldest first. */
    /** The fencing token of the live lock on {@code key}, if one is held. */
    public java.util.OptionalLong fencingToken(String key) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select fencing_token from app_lock where resource_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? java.util.OptionalLong.of(rs.getLong(1))
                        : java.util.OptionalLong.empty();
            }
        }
    }

    public List<String> ends(String key) throws SQLException {
        List<String> types = new ArrayList<>();
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select event_type from lock_event where resource_key = ? and"
                                        + " event_type in ('RELEASED', 'VIEW_CLOSED',"
                                        + " 'SESSION_ENDED', 'EXPIRED', 'FORCE_RELEASED',"
                                        + " 'TAKEN_OVER', 'HANDED_OVER') order by id")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.add(rs.getString(1));
                }
            }
        }
        return types;
    }

    /**
     * Every row of the lock history for {@code key}, oldest first, as {@code time type user}: what
     * a failed assertion prints so that the end it found can be traced in the nodes' logs.
     */
    public List<String> history(String key) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement(
                                "select occurred_at, event_type, user_login, fencing_token from"
                                        + " lock_event where resource_key = ? order by id")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(
                            rs.getTimestamp(1).toInstant()
                                    + " "
                                    + rs.getString(2)
                                    + " "
                                    + rs.getString(3)
                                    + " #"
                                    + rs.getLong(4));
                }
            }
        }
        return rows;
    }

    /**
     * Adds {@code count} configurators of two items each and returns their resource keys: per
     * configurator the whole one, its variables and its two items' filters.
     */
    public List<String> addConfigurators(int count) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Connection c = connect()) {
            try (PreparedStatement ps =
                    c.prepareStatement(
                            """
                    with v as (insert into aggregate_version (modified_by) select 'reliability'
                               from generate_series(1, ?) returning id),
                    c as (insert into configurator (version_id, name, description, status)
                          select id, 'Reliability ' || id, '', 'DRAFT' from v returning id, version_id)
                    insert into configurator_item (configurator_id, version_id, position, name, price)
                    select c.id, c.version_id, p, 'Item ' || p, 1 from c, generate_series(1, 2) p
                    returning configurator_id, id""")) {
                ps.setInt(1, count);
                try (ResultSet rs = ps.executeQuery()) {
                    // Each configurator's items by its id (a hundred thousand of them, for the
                    // capacity ladder, in one pass).
                    java.util.SortedMap<Long, List<Long>> items = new java.util.TreeMap<>();
                    while (rs.next()) {
                        items.computeIfAbsent(rs.getLong(1), id -> new ArrayList<>())
                                .add(rs.getLong(2));
                    }
                    items.forEach(
                            (id, its) -> {
                                keys.add("configurator:" + id);
                                keys.add("configurator:" + id + ":variables");
                                its.stream()
                                        .sorted()
                                        .forEach(i -> keys.add("item:" + i + ":filters"));
                            });
                }
            }
        }
        return keys;
    }

    @Override
    public void close() {
        if (proxy != null) {
            proxy.close();
        }
        nodes.stream().filter(java.util.Objects::nonNull).forEach(PayaraNode::stop);
        try {
            if (database != null) {
                database.close();
            }
        } catch (IOException e) {
            System.err.println("Could not stop the reliability database: " + e);
        }
        try (var files = Files.walk(dataDirectory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory; the system cleans it eventually
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
