package com.editlock.configurator;

import java.io.Serializable;
import java.util.List;

/** The variables sub-page of one configurator. */
public record VariablesDraft(
        long configuratorId, String configuratorName, List<VariableDraft> variables)
        implements Serializable {

    public VariablesDraft {
        variables = List.copyOf(variables);
    }
}
