package com.editlock.configurator;

/** What a variable holds. */
public enum VariableType {
    TEXT,
    NUMBER,
    BOOLEAN
}
