package com.kvportal.common;

import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Tells the person who started the service where to go. */
@Component
@RequiredArgsConstructor
class ReadyLog {

    private static final Logger log = LoggerFactory.getLogger(ReadyLog.class);

    private final AppBaseUrl baseUrl;

    @EventListener(ApplicationReadyEvent.class)
    void ready() {
        log.info(
                "kv-portal is ready. Dashboard: {}  API (OpenAPI): {}  API docs: {}",
                baseUrl.resolve("/dashboard"),
                baseUrl.resolve("/v3/api-docs"),
                baseUrl.resolve("/swagger-ui.html"));
    }
}
