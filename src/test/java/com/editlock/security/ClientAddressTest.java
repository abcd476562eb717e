package com.editlock.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.editlock.platform.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressTest {

    private static final List<AddressRange> PROXY =
            List.of(
                    AddressRange.parse("127.0.0.1").orElseThrow(),
                    AddressRange.parse("10.0.0.0/8").orElseThrow());

    @Test
    void withoutTrustedProxiesThePeerIsTheClientWhateverTheHeaderSays() {
        assertThat(ClientAddress.of("127.0.0.1", List.of("203.0.113.7"), List.of()))
                .isEqualTo("127.0.0.1");
    }

    @Test
    void anUntrustedPeerCannotChooseItsAddress() {
        assertThat(ClientAddress.of("198.51.100.9", List.of("203.0.113.7"), PROXY))
                .isEqualTo("198.51.100.9");
    }

    @Test
    void behindTheTrustedProxyTheClientIsTheLastUntrustedHop() {
        assertThat(ClientAddress.of("127.0.0.1", List.of("203.0.113.7"), PROXY))
                .isEqualTo("203.0.113.7");
        // A client that writes its own header before the proxy appends the real address.
        assertThat(ClientAddress.of("127.0.0.1", List.of("1.2.3.4, 203.0.113.7"), PROXY))
                .isEqualTo("203.0.113.7");
        assertThat(ClientAddress.of("127.0.0.1", List.of("1.2.3.4", "203.0.113.7"), PROXY))
                .as("the proxy adds a header line of its own")
                .isEqualTo("203.0.113.7");
        // Two trusted proxies in a row (10.1.2.3 forwarded to 127.0.0.1).
        assertThat(ClientAddress.of("127.0.0.1", List.of("1.2.3.4, 203.0.113.7, 10.1.2.3"), PROXY))
                .isEqualTo("203.0.113.7");
    }

    @Test
    void aHopThatIsNoAddressEndsTheWalkAtTheLastTrustedHop() {
        assertThat(ClientAddress.of("127.0.0.1", List.of("evil, 10.1.2.3"), PROXY))
                .isEqualTo("10.1.2.3");
        assertThat(ClientAddress.of("127.0.0.1", List.of("localhost"), PROXY))
                .isEqualTo("127.0.0.1");
        assertThat(ClientAddress.of("127.0.0.1", List.of(), PROXY)).isEqualTo("127.0.0.1");
    }

    @Test
    void ipv6HopsAndRangesAreRead() {
        List<AddressRange> v6 = List.of(AddressRange.parse("fd00::/8").orElseThrow());
        assertThat(ClientAddress.of("fd12::1", List.of("[2001:db8::5]"), v6))
                .isEqualTo("2001:db8:0:0:0:0:0:5");
        assertThat(ClientAddress.of("2001:db8::1", List.of("203.0.113.7"), v6))
                .isEqualTo("2001:db8::1");
    }

    @Test
    void rangesAcceptAddressesAndNetworksAndNothingElse() {
        assertThat(AddressRange.parse("10.0.0.0/8").orElseThrow().contains(addr("10.200.1.1")))
                .isTrue();
        assertThat(AddressRange.parse("10.0.0.0/8").orElseThrow().contains(addr("11.0.0.1")))
                .isFalse();
        assertThat(
                        AddressRange.parse("192.168.1.128/25")
                                .orElseThrow()
                                .contains(addr("192.168.1.200")))
                .isTrue();
        assertThat(
                        AddressRange.parse("192.168.1.128/25")
                                .orElseThrow()
                                .contains(addr("192.168.1.100")))
                .isFalse();
        assertThat(AddressRange.parse("127.0.0.1").orElseThrow().contains(addr("::1"))).isFalse();
        assertThat(AddressRange.parse("proxy.example.com")).isEmpty();
        assertThat(AddressRange.parse("10.0.0.0/33")).isEmpty();
        assertThat(AddressRange.parse("10.0.0.0/")).isEmpty();
        assertThat(AddressRange.parse("999.1.1.1")).isEmpty();
    }

    private static java.net.InetAddress addr(String literal) {
        return AddressRange.literal(literal).orElseThrow();
    }
}
