package com.kvportal.webhooks;

import com.kvportal.common.web.ProblemException;
import org.springframework.http.HttpStatus;

/** The ways a webhook endpoint operation fails, each with its stable problem code. */
final class WebhookProblems {

    private WebhookProblems() {}

    static final class EndpointNotFound extends ProblemException {
        EndpointNotFound() {
            super(
                    HttpStatus.NOT_FOUND,
                    "webhook_endpoint_not_found",
                    "No webhook endpoint with this id in the current organization.");
        }
    }

    static final class DeliveryNotFound extends ProblemException {
        DeliveryNotFound() {
            super(HttpStatus.NOT_FOUND, "webhook_delivery_not_found", "No delivery with this id at this endpoint.");
        }
    }

    static final class EndpointLimitReached extends ProblemException {
        EndpointLimitReached(int limit) {
            super(
                    HttpStatus.CONFLICT,
                    "endpoint_limit_reached",
                    "The organization already has " + limit + " webhook endpoints; delete one first.");
        }
    }
}
