package com.kvportal.usage;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.http.HttpStatus;

/** The problem codes of usage and its limits (see {@link ProblemCode}). */
public enum UsageProblem implements ProblemCode {
    NOT_ON_THIS_PLAN(define(
            HttpStatus.BAD_REQUEST,
            "not_on_this_plan",
            "The setting needs a plan the organization is not on (an overage cap on a plan without overage).",
            "The current plan has no overage, so an overage cap does not apply: send overage_cap_cents null,"
                    + " or use storage_cap_bytes to stop writes at a size."));

    private final Definition definition;

    UsageProblem(Definition definition) {
        this.definition = definition;
    }

    @Override
    public Definition definition() {
        return definition;
    }

    /** The codes of this enum that an operation answers (next to its {@code @ApiContract}). */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @ProblemCodes
    public @interface Codes {
        UsageProblem[] value();
    }
}
