package com.editlock.configurator;

import java.io.Serializable;

/** The header fields of a configurator as an editor typed them; kept on the screen if a save is refused. */
public record ConfiguratorDraft(String name, String description, ConfiguratorStatus status) implements Serializable {
}
