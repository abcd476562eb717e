package com.editlock.configurator;

import java.io.Serializable;
import java.util.List;

/**
 * A whole aggregate as the editor shows it: the configurator's fields, its items in order and its
 * variables, with the shared version it was loaded at. A refused save keeps it, so nothing the user
 * typed is lost.
 */
public record ConfiguratorDraft(
        long id,
        String name,
        String description,
        ConfiguratorStatus status,
        List<ItemDraft> items,
        List<VariableDraft> variables,
        long version)
        implements Serializable {

    public ConfiguratorDraft {
        items = List.copyOf(items);
        variables = List.copyOf(variables);
    }
}
