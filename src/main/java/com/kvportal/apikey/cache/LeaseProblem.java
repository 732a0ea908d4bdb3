package com.kvportal.apikey.cache;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.common.web.ProblemException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/** The problem codes of the verify leases of holders outside the service (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum LeaseProblem implements ProblemCode {
    LEASE_EXPIRED(define(
            HttpStatus.NOT_FOUND,
            "lease_expired",
            "The verify lease is unknown, expired, or stopped (it left an event unacknowledged for more than a third"
                    + " of its time): empty the cache and take a new lease.",
            LeaseExpired.DETAIL));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        LeaseProblem[] value();
    }

    /** 404 {@code lease_expired}: the holder stops answering from its cache. */
    public static final class LeaseExpired extends ProblemException {

        static final String DETAIL = "This verify lease is unknown, expired, or was stopped because it left an event"
                + " unacknowledged for more than a third of its time: empty your cache of verify answers, then take a"
                + " new lease with POST /api/v1/verify-leases.";

        LeaseExpired() {
            super(LEASE_EXPIRED, DETAIL);
        }
    }
}
