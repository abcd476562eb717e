package com.editlock.platform;

import com.hazelcast.core.HazelcastInstance;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.OptionalInt;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Payara's data grid, seen from the application: whether this node's HTTP sessions live in it, and
 * how many members it has. With the grid on (a node started with {@code --clustermode tcpip:…}
 * rather than {@code --nohazelcast}) a session outlives the node that served it: another member
 * holds its copy, so a node that stops must leave its sessions' locks alone unless it is the last
 * member (see {@code docs/operations.md}, "Sessions in the data grid").
 */
@ApplicationScoped
public class DataGrid {

    private static final Logger LOG = Logger.getLogger(DataGrid.class.getName());

    /** Where Payara binds its Hazelcast instance. */
    static final String JNDI_NAME = "payara/Hazelcast";

    /**
     * The members this node sees in the grid, itself included; empty when the grid is off or cannot
     * be asked.
     */
    public OptionalInt members() {
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            if (found instanceof HazelcastInstance grid && grid.getLifecycleService().isRunning()) {
                return OptionalInt.of(grid.getCluster().getMembers().size());
            }
            return OptionalInt.empty();
        } catch (NamingException | RuntimeException e) {
            LOG.fine(() -> "No data grid to ask: " + e);
            return OptionalInt.empty();
        }
    }

    /**
     * Whether this node is the grid's only member: nobody else holds a copy of its sessions, so
     * they end with it. False when the grid cannot be asked (off, or already gone): then nothing
     * can say that no other member serves the sessions on.
     */
    public boolean lastMember() {
        OptionalInt members = members();
        return members.isPresent() && members.getAsInt() <= 1;
    }
}
