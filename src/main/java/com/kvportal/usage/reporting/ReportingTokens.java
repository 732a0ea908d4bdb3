package com.kvportal.usage.reporting;

import com.kvportal.common.LocalTokens;
import com.kvportal.common.web.BearerToken;
import com.kvportal.usage.UsageProperties;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The storage backend's bearer tokens ({@code USAGE_API_TOKEN}). A presented token is compared with every
 * configured one through their SHA-256 digests, in constant time and without stopping at the first match, so that
 * neither its content nor its length shows in the timing. Unset on a bare start, the token is a generated local one
 * ({@link LocalTokens}).
 */
@Component
public class ReportingTokens {

    private static final Logger log = LoggerFactory.getLogger(ReportingTokens.class);

    private final List<byte[]> digests;

    ReportingTokens(UsageProperties properties, LocalTokens local) {
        this.digests = Arrays.stream(local.orGenerated(LocalTokens.USAGE_API_TOKEN, properties.apiToken())
                        .split(","))
                .map(String::strip)
                .filter(token -> !token.isEmpty())
                .map(BearerToken::digest)
                .toList();
    }

    boolean enabled() {
        return !digests.isEmpty();
    }

    /** Whether the {@code Authorization} header carries one of the tokens; always false while reporting is off. */
    public boolean accepts(@Nullable String authorization) {
        return BearerToken.matchesAny(authorization, digests);
    }

    @EventListener(ApplicationReadyEvent.class)
    void tellHowToTurnItOn() {
        if (enabled()) {
            log.info(
                    "Usage reporting is on: POST /api/v1/usage/storage takes {} token(s) of USAGE_API_TOKEN",
                    digests.size());
        } else {
            log.info("Usage reporting is off: every POST /api/v1/usage/storage answers 401. To turn it on, set"
                    + " USAGE_API_TOKEN to the storage backend's bearer token (comma-separated to rotate tokens).");
        }
    }
}
