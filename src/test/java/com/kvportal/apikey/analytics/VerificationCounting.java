package com.kvportal.apikey.analytics;

import org.springframework.context.ApplicationContext;

/** For tests outside this package: writes the verify counts held in memory now, rather than in up to 10 s. */
public final class VerificationCounting {

    private VerificationCounting() {}

    public static void flush(ApplicationContext context) {
        context.getBean(VerificationFlush.class).flush();
    }
}
