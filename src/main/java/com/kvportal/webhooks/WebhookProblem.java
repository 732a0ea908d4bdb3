package com.kvportal.webhooks;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import com.kvportal.common.web.ProblemException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/** The problem codes of webhook endpoints (see {@link ProblemCode}), and the exceptions that answer them. */
@Getter
@RequiredArgsConstructor
public enum WebhookProblem implements ProblemCode {
    ENDPOINT_LIMIT_REACHED(define(
            HttpStatus.CONFLICT,
            "endpoint_limit_reached",
            "The organization has 10 webhook endpoints already: delete one first.",
            "The organization already has 10 webhook endpoints; delete one first.")),
    WEBHOOK_DELIVERY_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "webhook_delivery_not_found",
            "No delivery with this id at this endpoint.",
            "No delivery with this id at this endpoint.")),
    WEBHOOK_ENDPOINT_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "webhook_endpoint_not_found",
            "No webhook endpoint with this id in the current organization (also another organization's).",
            "No webhook endpoint with this id in the current organization."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        WebhookProblem[] value();
    }

    static final class EndpointNotFound extends ProblemException {
        EndpointNotFound() {
            super(WEBHOOK_ENDPOINT_NOT_FOUND);
        }
    }

    static final class DeliveryNotFound extends ProblemException {
        DeliveryNotFound() {
            super(WEBHOOK_DELIVERY_NOT_FOUND);
        }
    }

    static final class EndpointLimitReached extends ProblemException {
        EndpointLimitReached(int limit) {
            super(
                    ENDPOINT_LIMIT_REACHED,
                    "The organization already has " + limit + " webhook endpoints; delete one first.");
        }
    }
}
