package com.editlock.launcher;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A node's place in Payara's data grid (Hazelcast), read from its settings: the members to join by
 * TCP/IP ({@code locks.grid.members}, never multicast), this node's grid port ({@code
 * locks.grid.port}), the address the grid listens on ({@code locks.grid.address}, loopback unless a
 * private interface is named) and the grid's name ({@code locks.grid.name}: a member that names
 * another grid is not joined; off loopback it must be a secret, as Hazelcast's open edition lets in
 * any client that knows it). A bad value stops the start with a sentence naming the key.
 */
public record Grid(String members, int port, String address, String name, long tabGraceMillis) {

    /** The system property the pre-boot commands and the application read: grid on or off. */
    public static final String SWITCH = "locks.grid";

    private static final Pattern MEMBER =
            Pattern.compile("(?:[0-9]{1,3}\\.){3}[0-9]{1,3}:[0-9]{1,5}");
    private static final Pattern ADDRESS = Pattern.compile("(?:[0-9]{1,3}\\.){3}[0-9]{1,3}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** The grid's name when none is set: fine on loopback, refused on a private interface. */
    static final String DEFAULT_NAME = "editlock";

    /** The grid {@code jvm} asks for, or empty when it names no members (grid off). */
    public static Optional<Grid> of(List<String> jvm) {
        Optional<String> members = property(jvm, "locks.grid.members").filter(m -> !m.isBlank());
        if (members.isEmpty()) {
            return Optional.empty();
        }
        String list = members.get().trim();
        for (String member : list.split(",", -1)) {
            if (!MEMBER.matcher(member.trim()).matches()) {
                throw new Launcher.LaunchException(
                        "LOCKS_GRID_MEMBERS (locks.grid.members) is '"
                                + list
                                + "': it must list the members' address:port, comma-separated,"
                                + " such as 127.0.0.1:6900,127.0.0.1:6901.");
            }
        }
        String rawPort = property(jvm, "locks.grid.port").orElse("").trim();
        if (!rawPort.matches("[0-9]{4,5}") || Integer.parseInt(rawPort) > 65_535) {
            throw new Launcher.LaunchException(
                    "LOCKS_GRID_PORT (locks.grid.port) is '"
                            + rawPort
                            + "': a grid member needs a port of its own from 1024 to 65535.");
        }
        String address = property(jvm, "locks.grid.address").orElse("127.0.0.1").trim();
        if (!ADDRESS.matcher(address).matches() || address.startsWith("0.")) {
            throw new Launcher.LaunchException(
                    "LOCKS_GRID_ADDRESS (locks.grid.address) is '"
                            + address
                            + "': it must be one IPv4 address of this machine (loopback or a"
                            + " private interface), never 0.0.0.0.");
        }
        String name = property(jvm, "locks.grid.name").orElse(DEFAULT_NAME).trim();
        if (!NAME.matcher(name).matches()) {
            throw new Launcher.LaunchException(
                    "LOCKS_GRID_NAME (locks.grid.name) is '"
                            + name
                            + "': 1 to 64 letters, digits, dots, dashes or underscores.");
        }
        if (!address.startsWith("127.") && (name.equals(DEFAULT_NAME) || name.length() < 16)) {
            throw new Launcher.LaunchException(
                    "LOCKS_GRID_NAME (locks.grid.name) is '"
                            + name
                            + "' while the grid listens on "
                            + address
                            + ", off loopback: the name is the grid's only gate (a Hazelcast client"
                            + " that knows it reads every session), so there it must be a secret of"
                            + " this installation, at least 16 characters, the same on every node"
                            + " (openssl rand -hex 16).");
        }
        // The application's default unless set; the application refuses a value out of range
        // itself, and names a bad one when it starts.
        long tabGrace = com.editlock.platform.Settings.DEFAULT_TAB_GRACE_MILLIS;
        try {
            tabGrace =
                    property(jvm, "locks.tab.grace.seconds")
                            .map(v -> new java.math.BigDecimal(v.trim()).movePointRight(3))
                            .map(ms -> Math.max(0, ms.longValue()))
                            .orElse(tabGrace);
        } catch (NumberFormatException e) {
            // the default, as the application will say
        }
        return Optional.of(new Grid(list, Integer.parseInt(rawPort), address, name, tabGrace));
    }

    /**
     * How long a stopping node serves on with readiness DOWN: the tab grace + 4 s. The proxy takes
     * the node out within a second, a tab closed in the first 2 s is released by this node before
     * it undeploys, and then it hands its open streams to the others ({@code LivePages}).
     */
    java.time.Duration shutdownGrace() {
        return java.time.Duration.ofMillis(tabGraceMillis).plusSeconds(4);
    }

    /** Payara Micro's options for this member. */
    List<String> microOptions() {
        return List.of(
                "--clustermode",
                "tcpip:" + members,
                "--interfaces",
                address,
                "--hzpublicaddress",
                address,
                "--startport",
                String.valueOf(port),
                "--clustername",
                name,
                // Serve on for this long after SIGTERM while readiness says DOWN (NodeStop), so
                // that
                // the proxy moves the node's users to another before it undeploys.
                "--shutdowngrace",
                Long.toString(shutdownGrace().toMillis()));
    }

    /**
     * The JVM's options: the grid's socket on its own address only (Hazelcast binds every interface
     * otherwise, whatever the interfaces it was told to use), and no shutdown hook of Hazelcast's
     * own: Payara leaves the grid after the application has stopped, so the application can still
     * ask whether it is the last member (with the hook, a SIGTERM takes the grid down first).
     */
    List<String> jvmOptions() {
        return List.of(
                "-Dhazelcast.socket.bind.any=false", "-Dhazelcast.shutdownhook.enabled=false");
    }

    private static Optional<String> property(List<String> jvm, String key) {
        String prefix = "-D" + key + "=";
        Optional<String> found = Optional.empty();
        for (String option : jvm) {
            if (option.startsWith(prefix)) {
                found = Optional.of(option.substring(prefix.length())); // a later -D wins
            }
        }
        return found;
    }
}
