package com.editlock.configurator;

/** Where a configurator is in its life. */
public enum ConfiguratorStatus {
    DRAFT,
    ACTIVE,
    RETIRED
}
