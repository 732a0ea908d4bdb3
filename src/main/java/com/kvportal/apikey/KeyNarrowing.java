package com.kvportal.apikey;

import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The one path of every change that narrows a key (CONTRACT 4 and 11): revoke, fewer permissions, an earlier
 * expiry, the end of a roll's grace, a leaked key's revocation. It is called inside the transaction that wrote the
 * narrower state, after the write. Today every instance reads a key from the database on each use, so the commit
 * is what makes the change hold everywhere; an instance that keeps keys in memory writes its invalidation here and
 * waits for the other instances' acknowledgements after the commit, before the request answers.
 */
@Component
class KeyNarrowing {

    /** The key {@code keyId} was narrowed in the current transaction. */
    void narrowed(UUID keyId) {
        // the database row is the only state; nothing is cached that could still act on the old one
    }
}
