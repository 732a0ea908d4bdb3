package com.kvportal.apikey.analytics;

import static com.kvportal.common.web.ProblemCode.define;

import com.kvportal.common.web.ProblemCode;
import com.kvportal.common.web.ProblemCodes;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import lombok.Getter;
import lombok.RequiredArgsConstructor;
import org.springframework.http.HttpStatus;

/** The problem codes of the verification reads beyond the key's own (see {@link ProblemCode}). */
@Getter
@RequiredArgsConstructor
public enum VerificationProblem implements ProblemCode {
    PROJECT_NOT_FOUND(define(
            HttpStatus.NOT_FOUND,
            "project_not_found",
            "No project with this id in the current organization (also a project of another organization).",
            "No project with this id in the current organization."));

    private final Definition definition;

    /** Names the codes of this enum that an operation answers, on the method next to its {@code @ApiContract}. */
    @Retention(RetentionPolicy.RUNTIME)
    @ProblemCodes
    public @interface Codes {
        VerificationProblem[] value();
    }
}
