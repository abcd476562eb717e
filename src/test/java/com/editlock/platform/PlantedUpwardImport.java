package com.editlock.platform;

import com.editlock.security.PasswordHashes;

/**
 * Planted for {@code LayeringTest}: the platform reaching up into security, the import that once
 * made {@code platform → security → lock → platform} one cycle. Never part of the application.
 */
class PlantedUpwardImport {

    PasswordHashes hashes;
}
