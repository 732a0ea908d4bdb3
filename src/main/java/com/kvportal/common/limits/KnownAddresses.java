package com.kvportal.common.limits;

import com.kvportal.common.scheduling.PeriodicJob;
import java.time.Duration;
import lombok.RequiredArgsConstructor;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Client addresses from which someone signed up or logged in within {@code kvportal.limits.known-address-ttl}: the
 * overall login circuit leaves them alone, so that a flood from fresh addresses cannot lock customers out of their own
 * address. Kept in the database, so that every instance knows them.
 */
@Component
@RequiredArgsConstructor
class KnownAddresses implements PeriodicJob {

    private final JdbcClient jdbc;
    private final LimitProperties settings;

    boolean isKnown(String client) {
        return jdbc.sql(
                        "select exists (select 1 from known_addresses where address = ? and seen_at > now() - ? * interval '1 second')")
                .param(client)
                .param(settings.knownAddressTtl().toSeconds())
                .query(Boolean.class)
                .single();
    }

    void remember(String client) {
        jdbc.sql(
                        """
                insert into known_addresses (address, seen_at) values (?, now())
                on conflict (address) do update set seen_at = now()""")
                .param(client)
                .update();
    }

    /** Every 10 minutes, from a minute after start-up. */
    @Override
    public Schedule schedule() {
        return new Schedule("known-addresses-cleanup", Duration.ofMinutes(1), Duration.ofMinutes(10), this::forgetOld);
    }

    void forgetOld() {
        jdbc.sql("delete from known_addresses where seen_at <= now() - ? * interval '1 second'")
                .param(settings.knownAddressTtl().toSeconds())
                .update();
    }
}
