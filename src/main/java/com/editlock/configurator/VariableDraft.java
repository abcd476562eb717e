package com.editlock.configurator;

import java.io.Serializable;

/** A variable as an editor typed it; {@code id == null} for a new variable. */
public record VariableDraft(Long id, String name, VariableType type, String value)
        implements Serializable {}
