package com.kvportal.sandbox;

import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@SandboxMode
class SandboxConfiguration {

    /** Stripe's objects carry unix seconds of this clock. */
    @Bean
    Clock sandboxClock() {
        return Clock.systemUTC();
    }
}
