package com.kvportal.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.api.AbstractStringAssert;

/** Assertions on redirects: the status, then where the answer sends the browser. */
public final class Redirects {

    private Redirects() {}

    /** The answer redirects with this status; the assertion goes on with its {@code Location}. */
    public static AbstractStringAssert<?> assertRedirect(Api.Response response, int status) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        return assertThat(response.header("Location")).as("Location of " + response);
    }
}
