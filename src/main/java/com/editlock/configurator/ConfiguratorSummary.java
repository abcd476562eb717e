package com.editlock.configurator;

/**
 * A configurator as the list shows it (boxed types: EclipseLink's constructor query looks for
 * exactly these).
 */
public record ConfiguratorSummary(
        Long id, String name, ConfiguratorStatus status, Integer itemCount) {}
