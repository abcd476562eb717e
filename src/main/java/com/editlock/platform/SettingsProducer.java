package com.editlock.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

/** Makes the validated {@link Settings} injectable; read once per application. */
@ApplicationScoped
public class SettingsProducer {

    @Produces
    @Singleton
    Settings settings() {
        var config = ConfigProvider.getConfig();
        return Settings.from(key -> config.getOptionalValue(key, String.class));
    }
}
