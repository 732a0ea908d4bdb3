package com.kvportal.account;

import java.util.Optional;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

/**
 * Checks a login's password against the customer's hash, and for an unknown address against a hash that no password
 * matches: the answer takes as long either way, so that its timing does not tell which addresses have an account.
 */
@Component
class PasswordCheck {

    private final PasswordEncoder passwords;
    private final String unknownCustomerHash;

    PasswordCheck(PasswordEncoder passwords) {
        this.passwords = passwords;
        this.unknownCustomerHash = passwords.encode("a password that nobody has, to equalize timing");
    }

    /** Whether the password is the customer's; false for an unknown customer, after the same work. */
    boolean matches(String password, Optional<Customers.Credentials> customer) {
        boolean matches = passwords.matches(
                password, customer.map(Customers.Credentials::passwordHash).orElse(unknownCustomerHash));
        return customer.isPresent() && matches;
    }
}
