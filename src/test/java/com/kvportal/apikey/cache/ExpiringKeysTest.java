package com.kvportal.apikey.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A key that comes within a minute of its expiry is announced to verify-lease holders ({@code key.changed}), so that
 * they drop it and ask the service, which answers it as not cacheable and refuses it at its expiry.
 */
class ExpiringKeysTest extends IntegrationTest {

    @Autowired
    InvalidationLog log;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    Clock clock;

    @Test
    void shouldAnnounceAKeyThatEntersTheMinuteBeforeItsExpiryOnce() {
        Api customer = signedUp();
        String nearing = customer.newKeyId("nearing");
        String far = customer.newKeyId("far");
        ExpiringKeys scan = new ExpiringKeys(jdbc, log, transactions, clock);
        scan.scan();
        long before = single(Long.class, "select seq from key_invalidation_sequence");
        // time passes: the key is now 30 s from its expiry (moved in the database, as the clock would move it)
        jdbc.sql("update api_keys set expires_at = now() + interval '30 seconds' where id = ?::uuid")
                .param(nearing)
                .update();
        ExpiringKeys fresh = new ExpiringKeys(jdbc, log, transactions, clock);

        fresh.scan();

        assertThat(count("select count(*) from key_invalidations where key_id = ?::uuid and seq > ?", nearing, before))
                .isEqualTo(1);
        assertThat(count("select count(*) from key_invalidations where key_id = ?::uuid and seq > ?", far, before))
                .isZero();

        fresh.scan();

        assertThat(count("select count(*) from key_invalidations where key_id = ?::uuid and seq > ?", nearing, before))
                .as("announced once: the next scan starts where this one ended")
                .isEqualTo(1);
    }
}
