package com.editlock.live;

import com.editlock.lock.LockKey;

/** Someone started or stopped looking at {@code key}: the CDI event the live screens observe. */
public record PresenceChange(LockKey key) {}
