package com.kvportal.account.credentials;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Used and expired link tokens, expired invitations and past reset requests are deleted; live ones stay. */
class LinkRetentionTest extends IntegrationTest {

    @Autowired
    LinkRetention retention;

    @Test
    void shouldDeleteUsedAndExpiredLinksAndPastResetRequestsAndKeepLiveOnes() {
        Api.Account account = api().signup();
        String tag = UUID.randomUUID().toString();
        token(account, tag + "-expired", "-1 minute", null);
        token(account, tag + "-used-and-expired", "-1 minute", "-2 hours");
        token(account, tag + "-live", "30 minutes", null);
        token(account, tag + "-used-not-yet-expired", "20 hours", "-1 minute");
        invitation(account, tag + "-expired", "-1 minute");
        invitation(account, tag + "-live", "6 days");
        resetRequest(tag + "-past", "61 minutes");
        resetRequest(tag + "-counting", "59 minutes");

        retention.purge();

        assertThat(jdbc.sql("select email from account_tokens where email like ? order by email")
                        .param(tag + "%")
                        .query(String.class)
                        .list())
                .containsExactly(tag + "-live", tag + "-used-not-yet-expired");
        assertThat(jdbc.sql("select email from invitations where email like ?")
                        .param(tag + "%")
                        .query(String.class)
                        .list())
                .containsExactly(tag + "-live");
        assertThat(jdbc.sql("select email from password_reset_requests where email like ?")
                        .param(tag + "%")
                        .query(String.class)
                        .list())
                .containsExactly(tag + "-counting");
        // the customer's own signup link (live for 24 h) is untouched
        assertThat(count(
                        "select count(*) from account_tokens where customer_id = ? and purpose = 'verify_email'",
                        account.customerId()))
                .isEqualTo(1);
    }

    private void token(Api.Account account, String email, String expiresIn, @Nullable String usedIn) {
        jdbc.sql(
                        """
                        insert into account_tokens (digest, customer_id, purpose, email, expires_at, used_at)
                        values (sha256(gen_random_uuid()::text::bytea), ?, 'reset_password', ?,
                                now() + cast(? as interval), now() + cast(? as interval))""")
                .params(account.customerId(), email, expiresIn, usedIn)
                .update();
    }

    private void invitation(Api.Account account, String email, String expiresIn) {
        jdbc.sql(
                        """
                        insert into invitations (id, organization_id, email, role, invited_by, digest, expires_at)
                        values (gen_random_uuid(), ?, ?, 'viewer', ?, sha256(gen_random_uuid()::text::bytea),
                                now() + cast(? as interval))""")
                .params(account.organizationId(), email, account.customerId(), expiresIn)
                .update();
    }

    private void resetRequest(String email, String ago) {
        jdbc.sql(
                        "insert into password_reset_requests (email, client, requested_at) values (?, '192.0.2.1', now() - cast(? as interval))")
                .params(email, ago)
                .update();
    }
}
