package com.kvportal.webhooks;

import com.kvportal.common.web.ProblemException;

/** The ways a webhook endpoint operation fails, each with its {@link WebhookProblem} code. */
final class WebhookProblems {

    private WebhookProblems() {}

    static final class EndpointNotFound extends ProblemException {
        EndpointNotFound() {
            super(WebhookProblem.WEBHOOK_ENDPOINT_NOT_FOUND);
        }
    }

    static final class DeliveryNotFound extends ProblemException {
        DeliveryNotFound() {
            super(WebhookProblem.WEBHOOK_DELIVERY_NOT_FOUND);
        }
    }

    static final class EndpointLimitReached extends ProblemException {
        EndpointLimitReached(int limit) {
            super(
                    WebhookProblem.ENDPOINT_LIMIT_REACHED,
                    "The organization already has " + limit + " webhook endpoints; delete one first.");
        }
    }
}
