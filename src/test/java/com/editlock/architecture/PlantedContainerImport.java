package com.editlock.architecture;

import org.glassfish.grizzly.planted.RecycledConnection;

/**
 * Test fixture: a class that reaches into the container, which {@link NoContainerInternalsTest}
 * must refuse.
 */
class PlantedContainerImport {
    void closeItMyself(RecycledConnection connection) {
        connection.close();
    }
}
