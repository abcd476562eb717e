package com.editlock.security;

import com.editlock.platform.AddressRange;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The address of the client a request comes from, behind the proxies named in {@code
 * LOCKS_TRUSTED_PROXIES}. From a peer that is not a trusted proxy, the peer is the client and
 * {@code X-Forwarded-For} is ignored (anybody can send it). From a trusted proxy, the hops the
 * header lists are read from the right (the nearest first): the first hop that is not itself a
 * trusted proxy is the client. A hop that is not a literal address ends the walk at the last
 * trusted hop, and a header with no untrusted hop names its leftmost one: whatever a client writes
 * into the header, it cannot pose as anybody but itself.
 */
public final class ClientAddress {

    /** Hops read at most (a longer header is cut from the left: the client's own part). */
    static final int MAX_HOPS = 20;

    private ClientAddress() {}

    /** The client's address for {@code request}. */
    public static String of(HttpServletRequest request, List<AddressRange> trusted) {
        return of(
                request.getRemoteAddr(),
                Collections.list(request.getHeaders("X-Forwarded-For")),
                trusted);
    }

    /**
     * The client's address, given the peer's address and every {@code X-Forwarded-For} header in
     * the order received.
     */
    static String of(String peer, List<String> forwardedFor, List<AddressRange> trusted) {
        if (trusted.isEmpty() || !isTrusted(peer, trusted) || forwardedFor.isEmpty()) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedFor) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.trim());
                }
            }
        }
        String client = peer;
        for (int i = hops.size() - 1, read = 0; i >= 0 && read < MAX_HOPS; i--, read++) {
            Optional<InetAddress> hop = AddressRange.literal(hops.get(i));
            if (hop.isEmpty()) {
                return client;
            }
            client = hop.get().getHostAddress();
            if (!isTrusted(hop.get(), trusted)) {
                return client;
            }
        }
        return client;
    }

    private static boolean isTrusted(String address, List<AddressRange> trusted) {
        return AddressRange.literal(address).map(a -> isTrusted(a, trusted)).orElse(false);
    }

    private static boolean isTrusted(InetAddress address, List<AddressRange> trusted) {
        return trusted.stream().anyMatch(r -> r.contains(address));
    }
}
