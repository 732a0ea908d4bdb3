package com.kvportal.account;

import java.util.Optional;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

/**
 * The one place where a password is checked against the customer's hash (at login and whenever a signed-in customer
 * confirms a change with it). For an unknown address it checks against a hash of the same kind that no password
 * matches: the answer takes as long either way, so that its timing does not tell which addresses have an account. A
 * right password whose hash is of an older kind (bcrypt, or weaker Argon2 parameters) is stored anew as the encoder
 * hashes today.
 */
@Component
public class PasswordCheck {

    private final PasswordEncoder passwords;
    private final Customers customers;
    private final String unknownCustomerHash;

    PasswordCheck(PasswordEncoder passwords, Customers customers) {
        this.passwords = passwords;
        this.customers = customers;
        this.unknownCustomerHash = passwords.encode("a password that nobody has, to equalize timing");
    }

    /** Whether the password is the customer's; false for an unknown customer, after the same work. */
    public boolean matches(String password, Optional<Customers.Credentials> customer) {
        boolean matches = passwords.matches(
                password, customer.map(Customers.Credentials::passwordHash).orElse(unknownCustomerHash));
        if (!matches || customer.isEmpty()) {
            return false;
        }
        String hash = customer.get().passwordHash();
        if (passwords.upgradeEncoding(hash)) {
            customers.replacePasswordHash(customer.get().id(), hash, passwords.encode(password));
        }
        return true;
    }
}
