package com.editlock.it.node;

import java.util.List;

/**
 * The two nodes behind HAProxy that the two-node suites share ({@code ReliabilityIT}, {@code
 * ProxyIT}): started by the first suite that asks, stopped when the test run ends ({@link
 * TestDatabase}). Sharing saves a start of two nodes, a database and the proxy; each suite adds
 * records of its own and leaves both nodes and the database running, so the suites do not depend on
 * each other or their order.
 */
public final class TwoNodes {

    private static Cluster cluster;

    private TwoNodes() {}

    public static synchronized Cluster behindProxy() throws Exception {
        if (cluster == null) {
            cluster = Cluster.startBehindProxy(2, "it", List.of());
        }
        return cluster;
    }

    static synchronized void stop() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }
}
