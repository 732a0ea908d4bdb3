package com.kvportal.security;

import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;

/** 403 {@code insufficient_role}: the caller's role in the current organization may not make the call. */
public final class InsufficientRole extends ProblemException {

    public InsufficientRole() {
        this("Your role in this organization may not do this.");
    }

    public InsufficientRole(String detail) {
        super(CommonProblem.INSUFFICIENT_ROLE, detail);
    }
}
