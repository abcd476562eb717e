package com.editlock.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The keeper's pauses: a node that crashes again and again is not started in a tight loop. */
class NodeKeeperTest {

    @Test
    void aNodeThatLastedStartsAgainAfterOneSecond() {
        assertThat(NodeKeeper.pause(1)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void eachStartThatDidNotLastDoublesThePauseUpToAMinute() {
        assertThat(NodeKeeper.pause(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(NodeKeeper.pause(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(NodeKeeper.pause(6)).isEqualTo(Duration.ofSeconds(32));
        assertThat(NodeKeeper.pause(7)).isEqualTo(Duration.ofSeconds(60));
        assertThat(NodeKeeper.pause(500)).isEqualTo(Duration.ofSeconds(60));
    }
}
