package com.kvportal.security.web;

import com.kvportal.security.Caller;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

/** An authenticated {@link Caller}, from a session or an API key. */
final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    CallerAuthentication(Caller caller) {
        super(AuthorityUtils.createAuthorityList(
                caller.permissions().stream().map(p -> "PERMISSION_" + p).toList()));
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }
}
