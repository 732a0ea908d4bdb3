package com.kvportal.common;

import java.time.Clock;
import org.springframework.boot.validation.autoconfigure.ValidationConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** The one clock of the service: inject {@link Clock} instead of reading the system time, so tests can move it. */
@Configuration(proxyBeanMethods = false)
class TimeConfiguration {

    @Bean
    @Primary
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Bean Validation's time ({@code @Future}, custom constraints) is the same clock. */
    @Bean
    ValidationConfigurationCustomizer validationClock(Clock clock) {
        return configuration -> configuration.clockProvider(() -> clock);
    }
}
