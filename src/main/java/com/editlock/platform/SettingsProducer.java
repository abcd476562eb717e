package com.editlock.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Makes the validated {@link Settings} injectable; read once per application.
 *
 * <p>The producer is {@code @Dependent} (handing out the one instance it read) rather than
 * {@code @Singleton}: the container accepts a dependent, serializable value in a view-scoped bean,
 * which a page's state must be to move between nodes in the data grid, but never a pseudo-scoped
 * singleton.
 */
@ApplicationScoped
public class SettingsProducer {

    private volatile Settings settings;

    @Produces
    @Dependent
    Settings settings() {
        Settings read = settings;
        if (read == null) {
            var config = ConfigProvider.getConfig();
            read = Settings.from(key -> config.getOptionalValue(key, String.class));
            settings = read; // the same values, whichever caller reads them first
        }
        return read;
    }
}
