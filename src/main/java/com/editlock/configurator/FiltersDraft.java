package com.editlock.configurator;

import java.io.Serializable;
import java.util.List;

/** The ordered filter rules of one item: the item's filters sub-page. */
public record FiltersDraft(
        long itemId,
        String itemName,
        long configuratorId,
        String configuratorName,
        List<String> rules)
        implements Serializable {

    public FiltersDraft {
        rules = List.copyOf(rules);
    }
}
