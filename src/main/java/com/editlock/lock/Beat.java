package com.editlock.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * One heartbeat as the node that received it remembers it: whose ({@code ownerId}), which tab
 * ({@code view}; {@code null}: all the owner's tabs, as an API client beats) and how long ago. The
 * lease it earns runs from the beat, not from the moment the node passes it on, so renewing in bulk
 * a moment later never lengthens a lease.
 */
public record Beat(String ownerId, String view, Duration ago) {

    public Beat {
        Objects.requireNonNull(ownerId, "ownerId");
        Objects.requireNonNull(ago, "ago");
        if (ago.isNegative()) {
            throw new IllegalArgumentException("A beat cannot come from the future: " + ago);
        }
    }

    /** A beat that happens now. */
    public static Beat now(String ownerId, String view) {
        return new Beat(ownerId, view, Duration.ZERO);
    }
}
