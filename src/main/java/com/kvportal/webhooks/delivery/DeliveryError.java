package com.kvportal.webhooks.delivery;

import java.util.Locale;

/**
 * Why an attempt got no answer, in a fixed vocabulary: what the deliveries list shows ({@code last_error}) and the
 * dashboard words for people. An exception's own text never leaves the log (it may name internal addresses).
 */
public enum DeliveryError {
    /** No answer within the timeout (connecting, or waiting for the answer). */
    TIMEOUT,
    /** The host refused the connection: nothing listens on that port. */
    CONNECTION_REFUSED,
    /** The connection was closed or reset before an answer came. */
    CONNECTION_CLOSED,
    /** No route to the host or its network. */
    UNREACHABLE,
    /** The host name did not resolve. */
    DNS,
    /** The TLS handshake failed (a certificate not valid for the host, an untrusted one, no common version). */
    TLS,
    /** The URL may not be delivered to: its host resolves to an address that is not public, or its form is refused. */
    TARGET_REFUSED,
    /** What came back was not an HTTP/1.x answer (or its head was too long). */
    INVALID_RESPONSE,
    /** Any other network failure. */
    NETWORK;

    /** The code, as the API and the database spell it. */
    String code() {
        return name().toLowerCase(Locale.ROOT);
    }
}
