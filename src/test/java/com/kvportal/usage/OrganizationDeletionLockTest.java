package com.kvportal.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deleting an organization takes its row's lock, then (to end its subscription) the billing account's; the
 * provider's webhook takes the billing account's, then writes rows that refer to the organization. The deletion's
 * lock must not stop those references (a foreign key's check), or the two deadlock and one of them fails.
 */
class OrganizationDeletionLockTest extends IntegrationTest {

    @Autowired
    TransactionTemplate transactions;

    @Test
    void shouldDeleteWhileAWebhookHoldingTheBillingAccountWritesARowOfTheOrganization() throws Exception {
        Api owner = api();
        Api.Account account = owner.signup();
        Subscribe.pro(owner, api());
        UUID organization = account.organizationId();
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch deletionWaits = new CountDownLatch(1);

        // as the webhook's handler does: the billing account first, then a row that refers to the organization
        CompletableFuture<Void> webhook = CompletableFuture.runAsync(() -> transactions.executeWithoutResult(tx -> {
            jdbc.sql("select organization_id from billing_accounts where organization_id = ? for update")
                    .param(organization)
                    .query(UUID.class)
                    .single();
            locked.countDown();
            try {
                assertThat(deletionWaits.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            jdbc.sql("insert into projects (id, organization_id, name) values (?, ?, 'written by the webhook')")
                    .params(UUID.randomUUID(), organization)
                    .update();
        }));
        assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Api.Response> deletion = CompletableFuture.supplyAsync(owner::deleteOrganization);
        await("the deletion waiting for the billing account")
                .atMost(Duration.ofSeconds(30))
                .until(() -> count("select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                                + " and query like '%billing_accounts%' and pid <> pg_backend_pid()")
                        > 0);
        deletionWaits.countDown();

        webhook.get(30, TimeUnit.SECONDS);
        Api.Response deleted = deletion.get(30, TimeUnit.SECONDS);
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(202);
        assertThat(count("select count(*) from organizations where id = ? and deleted_at is not null", organization))
                .isEqualTo(1);
    }
}
