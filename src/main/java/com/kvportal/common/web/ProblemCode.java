package com.kvportal.common.web;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * A problem code of the API at one status: implemented by one enum per feature ({@code ApiKeyProblem},
 * {@code BillingProblem}, ...; the shared codes in {@link CommonProblem}). A constant is written once and used
 * everywhere: a {@link ProblemException} takes its code and status from it, an operation names it in its feature's
 * {@code @...Problem.Codes} (see {@code com.kvportal.openapi}), and the OpenAPI document describes it with its
 * meaning and example. A code answered with two statuses is two constants.
 */
public interface ProblemCode {

    /** What the constant stands for (Lombok's {@code @Getter} on the enum writes it). */
    Definition getDefinition();

    default String code() {
        return getDefinition().code();
    }

    default HttpStatus status() {
        return getDefinition().status();
    }

    /** This code's problem with its example detail, to throw where that says all there is to say. */
    default ProblemException exception() {
        return new ProblemException(this);
    }

    /**
     * A code with its status, what it means, an example detail, the headers that go with it (examples) and the
     * members its problem document carries beyond the standard ones (name and description).
     */
    record Definition(
            HttpStatus status,
            String code,
            String meaning,
            String exampleDetail,
            Map<String, String> exampleHeaders,
            Map<String, String> members) {

        /** A header the answer carries, with an example value, as the OpenAPI document shows it. */
        public Definition withHeader(String name, String example) {
            Map<String, String> headers = new LinkedHashMap<>(exampleHeaders);
            headers.put(name, example);
            return new Definition(status, code, meaning, exampleDetail, Collections.unmodifiableMap(headers), members);
        }

        /** A member the problem document carries besides type, title, status, detail and code. */
        public Definition withMember(String name, String description) {
            Map<String, String> more = new LinkedHashMap<>(members);
            more.put(name, description);
            return new Definition(
                    status, code, meaning, exampleDetail, exampleHeaders, Collections.unmodifiableMap(more));
        }
    }

    static Definition define(HttpStatus status, String code, String meaning, String exampleDetail) {
        return new Definition(status, code, meaning, exampleDetail, Map.of(), Map.of());
    }
}
