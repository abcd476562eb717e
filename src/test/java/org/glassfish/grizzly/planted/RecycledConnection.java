package org.glassfish.grizzly.planted;

/**
 * Test fixture: stands for a class of the container's internals, for the architecture test's
 * planted import.
 */
public class RecycledConnection {
    public void close() {}
}
