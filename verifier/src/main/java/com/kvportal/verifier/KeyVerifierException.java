package com.kvportal.verifier;

/**
 * The service gave no answer to a verify the cache could not answer (it is unreachable, or did not answer within 5
 * seconds). The key is neither valid nor refused: the caller decides, for instance answering its own client 503.
 */
public final class KeyVerifierException extends RuntimeException {

    KeyVerifierException(String message, Throwable cause) {
        super(message, cause);
    }
}
