package com.editlock.lock;

import java.time.Instant;

/**
 * The figures on top of the dashboard. {@code oldestSince} is {@code null} when nothing is held.
 */
public record LockSummary(
        long held, long deniedLastHour, long forcedLastHour, Instant oldestSince) {}
