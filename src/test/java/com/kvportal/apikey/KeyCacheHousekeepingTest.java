package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = {"kvportal.key-cache.purge-interval=1s", "kvportal.key-cache.log-retention=0s"})
class KeyCacheHousekeepingTest extends IntegrationTest {

    @Test
    void shouldPurgeAppliedInvalidationsAndLeasesDeadForAMinute() {
        UUID dead = UUID.randomUUID();
        UUID recentlyDead = UUID.randomUUID();
        jdbc.sql("insert into key_cache_leases (instance_id, applied_seq, expires_at) values"
                        + " (?, 0, now() - interval '2 minutes'), (?, 0, now() - interval '5 seconds')")
                .params(dead, recentlyDead)
                .update();
        Api session = signedUp();
        session.createKey("purged");
        String id = session.keys().get(0).get("id").asString();
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);
        long seq = jdbc.sql("select seq from key_invalidation_sequence")
                .query(Long.class)
                .single();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(count("select count(*) from key_cache_leases where instance_id = ?", dead))
                    .as("a lease dead for two minutes")
                    .isZero();
            assertThat(count("select count(*) from key_invalidations where seq <= ?", seq))
                    .as("invalidations every lease applied")
                    .isZero();
            assertThat(single(Long.class, "select purged_through from key_invalidation_sequence"))
                    .isGreaterThanOrEqualTo(seq);
        });
        assertThat(count("select count(*) from key_cache_leases where instance_id = ?", recentlyDead))
                .as("a lease dead for seconds stays for a minute (it holds nothing back)")
                .isOne();
    }
}
