package com.kvportal.common.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * "At most N within any window", counted exactly in PostgreSQL: parallel requests cannot slip past it together, a
 * refused request or one rolled back counts nothing, and a request counts again once it left the window.
 */
class WindowLimitsTest extends IntegrationTest {

    @Autowired
    WindowLimits limits;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void shouldTakeExactlyTheLimitFromParallelRequests() throws Exception {
        String key = "test:" + UUID.randomUUID();

        List<Boolean> taken = Concurrently.run(8, () -> take(key, 3, Duration.ofMinutes(1)));

        assertThat(taken).filteredOn(Boolean::booleanValue).hasSize(3);
    }

    @Test
    void shouldSayWhenTheNextFitsAndCountNothingRefusedOrRolledBack() throws Exception {
        String key = "test:" + UUID.randomUUID();
        Duration window = Duration.ofSeconds(3);
        transactions.executeWithoutResult(status -> {
            limits.take(key, 2, window, "things");
            status.setRollbackOnly();
        });
        assertThat(take(key, 2, window)).isTrue();
        assertThat(take(key, 2, window)).isTrue();

        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> limits.take(key, 2, window, "things")))
                .isInstanceOfSatisfying(TooManyRequests.class, refused -> {
                    assertThat(refused.getBody().getDetail()).startsWith("At most 2 things within 3 s. Try again in");
                    assertThat(refused.getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                            .isIn("1", "2", "3");
                });
        assertThat(count("select count(*) from window_limits where key = ?", key))
                .isEqualTo(2);

        Thread.sleep(window.toMillis() + 100);
        assertThat(take(key, 2, window)).isTrue();
    }

    private boolean take(String key, int requests, Duration window) {
        try {
            transactions.executeWithoutResult(status -> limits.take(key, requests, window, "things"));
            return true;
        } catch (TooManyRequests refused) {
            return false;
        }
    }
}
