package com.kvportal.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Optional;

/** Keeps the signed-in {@link Caller} in the HTTP session (a JDBC-backed session shared by every instance). */
public final class SessionCaller {

    private static final String ATTRIBUTE = "kvportal.caller";

    private SessionCaller() {}

    /** Starts a new session for the caller; any earlier session of this browser is dropped (no fixation). */
    public static void signIn(HttpServletRequest request, Caller caller) {
        HttpSession old = request.getSession(false);
        if (old != null) {
            old.invalidate();
        }
        request.getSession(true).setAttribute(ATTRIBUTE, caller);
    }

    /** Replaces the caller of the current session, e.g. after a change of the active project. */
    public static void update(HttpServletRequest request, Caller caller) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.setAttribute(ATTRIBUTE, caller);
        }
    }

    public static Optional<Caller> of(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session == null) {
            return Optional.empty();
        }
        return session.getAttribute(ATTRIBUTE) instanceof Caller caller ? Optional.of(caller) : Optional.empty();
    }

    public static void signOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }
}
