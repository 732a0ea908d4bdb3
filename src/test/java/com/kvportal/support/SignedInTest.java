package com.kvportal.support;

import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the tests that act as one signed-in customer: before each test a fresh signup, so each test is a tenant of
 * its own ({@link #session} carries the session, {@link #account} what the signup answered).
 */
public abstract class SignedInTest extends IntegrationTest {

    protected Api session;
    protected Api.Account account;

    @BeforeEach
    void signUp() {
        session = api();
        account = session.signup();
    }
}
