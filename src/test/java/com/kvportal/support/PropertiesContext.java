package com.kvportal.support;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;

/**
 * A context that binds and validates typed settings ({@code @ConfigurationProperties}) as a start does, and holds
 * nothing else: for the tests of what a setting accepts, defaults to and refuses.
 */
public final class PropertiesContext {

    private PropertiesContext() {}

    /** A runner of {@code configuration} (a class that names the settings in its {@code @EnableConfigurationProperties}). */
    public static ApplicationContextRunner of(Class<?> configuration) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
                .withUserConfiguration(configuration);
    }
}
