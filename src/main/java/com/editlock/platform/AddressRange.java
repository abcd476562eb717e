package com.editlock.platform;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * One IP address or network in CIDR form ({@code 127.0.0.1}, {@code 10.0.0.0/8}, {@code fd00::/8}),
 * as written in {@code LOCKS_TRUSTED_PROXIES}. Only literal addresses: a host name is never looked
 * up.
 */
public record AddressRange(byte[] network, int prefix) {

    /**
     * {@code text} as a range, or empty when it is not a literal address with an optional prefix.
     */
    public static Optional<AddressRange> parse(String text) {
        String raw = text.trim();
        int slash = raw.indexOf('/');
        String address = slash < 0 ? raw : raw.substring(0, slash);
        Optional<InetAddress> parsed = literal(address);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes = parsed.get().getAddress();
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String bits = raw.substring(slash + 1);
            if (!bits.matches("[0-9]{1,3}") || Integer.parseInt(bits) > max) {
                return Optional.empty();
            }
            prefix = Integer.parseInt(bits);
        }
        return Optional.of(new AddressRange(bytes, prefix));
    }

    /**
     * A literal IPv4 or IPv6 address (IPv6 possibly in brackets), never resolved as a name; empty
     * for anything else.
     */
    public static Optional<InetAddress> literal(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String raw = text.trim();
        if (raw.startsWith("[") && raw.endsWith("]")) {
            raw = raw.substring(1, raw.length() - 1);
        }
        boolean v4 = raw.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
        boolean v6 = raw.indexOf(':') >= 0 && raw.matches("[0-9a-fA-F:.]{2,45}");
        if (!v4 && !v6) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(raw)); // a literal: no lookup happens
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code address} lies in this range (an IPv4 address never in an IPv6 range). */
    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (bytes[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (bytes[full] & mask) == (network[full] & mask);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressRange r
                && r.prefix == prefix
                && java.util.Arrays.equals(r.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            return "?/" + prefix;
        }
    }
}
