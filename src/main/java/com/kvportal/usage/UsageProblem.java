package com.kvportal.usage;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/** The problem codes of usage and its limits (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum UsageProblem implements ProblemCode {
    NOT_ON_THIS_PLAN(define(
            HttpStatus.BAD_REQUEST,
            "not_on_this_plan",
            "The setting needs a plan the organization is not on (an overage cap on a plan without overage).",
            "The current plan has no overage, so an overage cap does not apply: send overage_cap_cents null,"
                    + " or use storage_cap_bytes to stop writes at a size."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        UsageProblem[] value();
    }
}
