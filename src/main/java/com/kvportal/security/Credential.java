package com.kvportal.security;

import com.kvportal.common.web.CommonProblem;
import java.util.List;

/** The credentials an operation accepts, each a security scheme of the document. */
public enum Credential {

    /**
     * A portal call: the session cookie (with {@code X-XSRF-TOKEN} when the call changes state) or an API key with
     * {@code admin}. Implies 401 {@code unauthenticated}, 403 {@code insufficient_permissions}, 429
     * {@code too_many_requests} (a key unknown to memory from an address that spent its budget of lookups that miss),
     * for a call that changes state, 403 {@code csrf_failed}, and for a key switched off or used from outside its
     * allowed addresses 401 {@code api_key_disabled} and 403 {@code ip_not_allowed}.
     */
    PORTAL(List.of(
            CommonProblem.UNAUTHENTICATED,
            CommonProblem.INSUFFICIENT_PERMISSIONS,
            CommonProblem.TOO_MANY_REQUESTS,
            CommonProblem.API_KEY_DISABLED,
            CommonProblem.IP_NOT_ALLOWED)),

    /**
     * An API key presented as {@code Authorization: Bearer kv_…}, with any permission (verify). Implies 429
     * {@code too_many_requests} (a key unknown to memory from an address that spent its budget of lookups that miss).
     */
    API_KEY(List.of(CommonProblem.TOO_MANY_REQUESTS)),

    /** The storage backend's {@code Authorization: Bearer <USAGE_API_TOKEN>}. Implies 401 {@code unauthenticated}. */
    USAGE_TOKEN(List.of(CommonProblem.UNAUTHENTICATED)),

    /** The payment provider's {@code Stripe-Signature} over the raw body. Implies 400 {@code signature_invalid}. */
    STRIPE_SIGNATURE(List.of(CommonProblem.SIGNATURE_INVALID)),

    /**
     * GitHub secret scanning's ECDSA signature ({@code Github-Public-Key-Signature}, {@code
     * Github-Public-Key-Identifier}). Implies 400 {@code signature_invalid}.
     */
    GITHUB_SIGNATURE(List.of(CommonProblem.SIGNATURE_INVALID));

    private final List<CommonProblem> impliedProblems;

    Credential(List<CommonProblem> impliedProblems) {
        this.impliedProblems = impliedProblems;
    }

    /** The problems that accepting this credential implies, beyond those the operation names. */
    public List<CommonProblem> impliedProblems() {
        return impliedProblems;
    }
}
