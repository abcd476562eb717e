package com.editlock.configurator;

/** A configurator as the list shows it. */
public record ConfiguratorSummary(long id, String name, ConfiguratorStatus status, long itemCount) {
}
