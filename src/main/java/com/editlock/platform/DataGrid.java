package com.editlock.platform;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
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

    /** The grid's map of {@link Activity}. */
    static final String ACTIVITY_MAP = "editlock-session-activity";

    /**
     * Each session's last request by its user, as the whole grid saw it. A node holds a copy of
     * every session it served; once the session's user goes on at another node, this node's copy no
     * longer sees their requests, and judging idleness by it would end a session in use elsewhere
     * (seen in {@code GridIT} before this existed). So each user request is noted here too, and a
     * node asks here before it ends a session, and claims the end so that one node alone ends it.
     */
    public interface Activity {

        /** What {@link #latest} says of a session that a node has ended. */
        long ENDED = -1;

        /** The session's user made a request at {@code millis}. */
        void touched(String sessionId, long millis);

        /** The session's last user request anywhere ({@link #ENDED} once ended), if known. */
        OptionalLong latest(String sessionId);

        /**
         * Claims the end of a session whose last request anywhere is {@code seen}: true for one
         * caller only, and false when a request came meanwhile.
         */
        boolean claimEnd(String sessionId, OptionalLong seen);

        /** The session ended (a logout, a timeout): the other nodes drop their copies. */
        void ended(String sessionId);
    }

    /**
     * The grid's {@link Activity}, whose entries are kept for {@code keep} after their last note;
     * empty when the grid is off or cannot be asked.
     */
    public Optional<Activity> activity(Duration keep) {
        return instance().map(grid -> new GridActivity(grid.getMap(ACTIVITY_MAP), keep));
    }

    private record GridActivity(IMap<String, Long> map, Duration keep) implements Activity {

        @Override
        public void touched(String sessionId, long millis) {
            map.setAsync(sessionId, millis, keep.toSeconds(), TimeUnit.SECONDS);
        }

        @Override
        public OptionalLong latest(String sessionId) {
            Long found = map.get(sessionId);
            return found == null ? OptionalLong.empty() : OptionalLong.of(found);
        }

        @Override
        public boolean claimEnd(String sessionId, OptionalLong seen) {
            if (seen.isEmpty()) {
                return map.putIfAbsent(sessionId, ENDED, keep.toSeconds(), TimeUnit.SECONDS)
                        == null;
            }
            return map.replace(sessionId, seen.getAsLong(), ENDED);
        }

        @Override
        public void ended(String sessionId) {
            map.set(sessionId, ENDED, keep.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static Optional<HazelcastInstance> instance() {
        try {
            Object found = new InitialContext().lookup(JNDI_NAME);
            return found instanceof HazelcastInstance grid && grid.getLifecycleService().isRunning()
                    ? Optional.of(grid)
                    : Optional.empty();
        } catch (NamingException | RuntimeException e) {
            LOG.fine(() -> "No data grid to ask: " + e);
            return Optional.empty();
        }
    }

    /**
     * The members this node sees in the grid, itself included; empty when the grid is off or cannot
     * be asked.
     */
    public OptionalInt members() {
        try {
            return instance()
                    .map(grid -> OptionalInt.of(grid.getCluster().getMembers().size()))
                    .orElse(OptionalInt.empty());
        } catch (RuntimeException e) {
            LOG.fine(() -> "No data grid to ask: " + e);
            return OptionalInt.empty();
        }
    }

    /**
     * Whether every partition of the grid has its copies in place and none is moving (Hazelcast's
     * cluster safety): a node that just joined holds no copy until then. False when the grid cannot
     * be asked.
     */
    public boolean copiesPlaced() {
        try {
            return instance().map(grid -> grid.getPartitionService().isClusterSafe()).orElse(false);
        } catch (RuntimeException e) {
            LOG.fine(() -> "No data grid to ask: " + e);
            return false;
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
