package com.kvportal.security.web;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;

/**
 * 403 {@code email_unverified}: the operation needs a verified email address (see {@link
 * com.kvportal.security.ApiContract#verifiedEmail()}), and the customer (a key: the key's creator) has not
 * opened the verification link yet.
 */
public final class EmailUnverified extends ProblemException {

    public EmailUnverified() {
        super(
                CommonProblem.EMAIL_UNVERIFIED,
                "Verify your email address first: open the link we mailed you, or ask for a new one with POST"
                        + " /api/v1/account/verification-email. Until then you may look around, but not create keys,"
                        + " invite, add webhook endpoints, create organizations, turn on two-step login or upgrade.");
    }
}
