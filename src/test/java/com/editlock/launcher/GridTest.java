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
                        "3000");
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
                                                "-Dlocks.grid.name=second",
                                                "-Dlocks.grid.address=10.0.0.7"))
                                .orElseThrow())
                .as("a later -D wins")
                .isEqualTo(new Grid("127.0.0.1:6900,127.0.0.1:6901", 6900, "10.0.0.7", "second"));
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
}
