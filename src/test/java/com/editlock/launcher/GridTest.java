package com.editlock.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GridTest {

    private static final String MEMBERS = "-Dlocks.grid.members=127.0.0.1:6900,127.0.0.1:6901";

    @Test
    void noMembersMeansNoGrid() {
        assertThat(Grid.of(List.of("-Dlocks.grid.port=6900"))).isEmpty();
        assertThat(Grid.of(List.of("-Dlocks.grid.members= "))).isEmpty();
    }

    @Test
    void aMemberJoinsByTcpOnItsOwnAddressAndPortUnderTheGridsName() {
        Grid grid = Grid.of(List.of(MEMBERS, "-Dlocks.grid.port=6901")).orElseThrow();
        assertThat(grid.microOptions())
                .containsExactly(
                        "--clustermode",
                        "tcpip:127.0.0.1:6900,127.0.0.1:6901",
                        "--interfaces",
                        "127.0.0.1",
                        "--hzpublicaddress",
                        "127.0.0.1",
                        "--startport",
                        "6901",
                        "--clustername",
                        "editlock",
                        "--shutdowngrace",
                        "5300");
        assertThat(grid.jvmOptions())
                .contains(
                        "-Dhazelcast.socket.bind.any=false",
                        "-Dhazelcast.shutdownhook.enabled=false");
        assertThat(
                        Grid.of(
                                        List.of(
                                                MEMBERS,
                                                "-Dlocks.grid.port=6900",
                                                "-Dlocks.grid.name=first",
                                                "-Dlocks.grid.name=second-6f1c2a9e4b7d",
                                                "-Dlocks.grid.address=10.0.0.7"))
                                .orElseThrow())
                .as("a later -D wins")
                .isEqualTo(
                        new Grid(
                                "127.0.0.1:6900,127.0.0.1:6901",
                                6900,
                                "10.0.0.7",
                                "second-6f1c2a9e4b7d",
                                1_300));
    }

    /**
     * A stopping node serves on for the tab grace + 4 s, so that a tab closed in its first seconds
     * is released by it on time before it hands its streams to the others ({@code LivePages}).
     */
    @Test
    void aStoppingNodeServesOnForTheTabGraceAndFourSeconds() {
        Grid grid =
                Grid.of(List.of(MEMBERS, "-Dlocks.grid.port=6901", "-Dlocks.tab.grace.seconds=5"))
                        .orElseThrow();
        assertThat(grid.microOptions()).containsSequence("--shutdowngrace", "9000");
        assertThat(
                        Grid.of(
                                        List.of(
                                                MEMBERS,
                                                "-Dlocks.grid.port=6901",
                                                "-Dlocks.tab.grace.seconds=1.75"))
                                .orElseThrow()
                                .microOptions())
                .as("a grace to the millisecond")
                .containsSequence("--shutdowngrace", "5750");
    }

    @Test
    void aBadValueStopsTheStartNamingItsKey() {
        assertThatThrownBy(() -> Grid.of(List.of("-Dlocks.grid.members=node-a:6900"))) // a name
                .hasMessageContaining("LOCKS_GRID_MEMBERS");
        assertThatThrownBy(() -> Grid.of(List.of("-Dlocks.grid.members=239.1.1.1"))) // no port
                .hasMessageContaining("LOCKS_GRID_MEMBERS");
        assertThatThrownBy(() -> Grid.of(List.of(MEMBERS))).hasMessageContaining("LOCKS_GRID_PORT");
        assertThatThrownBy(() -> Grid.of(List.of(MEMBERS, "-Dlocks.grid.port=70000")))
                .hasMessageContaining("LOCKS_GRID_PORT");
        assertThatThrownBy(
                        () ->
                                Grid.of(
                                        List.of(
                                                MEMBERS,
                                                "-Dlocks.grid.port=6900",
                                                "-Dlocks.grid.address=0.0.0.0")))
                .hasMessageContaining("LOCKS_GRID_ADDRESS")
                .hasMessageContaining("never 0.0.0.0");
        assertThatThrownBy(
                        () ->
                                Grid.of(
                                        List.of(
                                                MEMBERS,
                                                "-Dlocks.grid.port=6900",
                                                "-Dlocks.grid.name=two words")))
                .hasMessageContaining("LOCKS_GRID_NAME");
    }

    @Test
    void aNodeServesOnlyOnceTheGridHasPlacedItsCopiesWhateverElseItsHealthSays() {
        String joining =
                "{\"status\":\"DOWN\",\"checks\":[{\"name\":\"node-drain\",\"status\":\"UP\","
                        + "\"data\":{\"requestsServed\":3}},{\"name\":\"data-grid\",\"status\":"
                        + "\"DOWN\",\"data\":{\"members\":2,\"copiesPlaced\":false}}]}";
        assertThat(PayaraNode.gridReady(joining)).isFalse();
        assertThat(
                        PayaraNode.gridReady(
                                joining.replace(
                                        "\"DOWN\",\"data\":{\"members",
                                        "\"UP\",\"data\":{\"members")))
                .isTrue();
        String drained =
                "{\"status\":\"DOWN\",\"checks\":[{\"data\":{\"grid\":\"off\"},"
                        + "\"name\":\"data-grid\",\"status\":\"UP\"},{\"name\":\"node-drain\","
                        + "\"status\":\"DOWN\",\"data\":{\"draining\":\"x\"}}]}";
        assertThat(PayaraNode.gridReady(drained))
                .as("a drain is the operator's, not this wait's")
                .isTrue();
        assertThat(PayaraNode.gridReady("<html>Not Found</html>")).isFalse();
    }

    @Test
    void offLoopbackTheGridsNameMustBeASecretOfItsOwn() {
        List<String> privateInterface =
                List.of(MEMBERS, "-Dlocks.grid.port=6900", "-Dlocks.grid.address=10.0.0.7");
        assertThatThrownBy(() -> Grid.of(privateInterface))
                .as("the default name on a private interface")
                .hasMessageContaining("LOCKS_GRID_NAME")
                .hasMessageContaining("only gate");
        List<String> shortName = new java.util.ArrayList<>(privateInterface);
        shortName.add("-Dlocks.grid.name=insurer");
        assertThatThrownBy(() -> Grid.of(shortName)).hasMessageContaining("at least 16");
        List<String> secret = new java.util.ArrayList<>(privateInterface);
        secret.add("-Dlocks.grid.name=3f9a0c2d7e41b8a6");
        assertThat(Grid.of(secret)).isPresent();
        assertThat(Grid.of(List.of(MEMBERS, "-Dlocks.grid.port=6900")))
                .as("the default name is fine on loopback")
                .isPresent();
    }
}
