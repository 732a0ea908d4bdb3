package com.kvportal.common.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The background loops the features share (usage alerts, the storage standing's refresh): a failed run does not end
 * the loop, and their threads are daemons that never keep the JVM up.
 */
class FixedDelayLifecycleTest {

    @Test
    void shouldRunAgainAfterARunThatFailedOnANamedDaemonThread() throws InterruptedException {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Thread> thread = new AtomicReference<>();
        CountDownLatch thirdRun = new CountDownLatch(3);
        FixedDelayLifecycle loop = new FixedDelayLifecycle() {
            @Override
            protected Schedule schedule() {
                return new Schedule("test-loop", Duration.ofMillis(10), () -> {
                    thread.set(Thread.currentThread());
                    runs.incrementAndGet();
                    thirdRun.countDown();
                    throw new IllegalStateException("the database is away");
                });
            }
        };

        loop.start();
        try {
            assertThat(thirdRun.await(10, TimeUnit.SECONDS))
                    .as("runs after failed ones: %s", runs)
                    .isTrue();
            assertThat(loop.isRunning()).isTrue();
            assertThat(thread.get().isDaemon()).isTrue();
            assertThat(thread.get().getName()).isEqualTo("test-loop");
        } finally {
            loop.stop();
        }
        assertThat(loop.isRunning()).isFalse();
    }

    @Test
    void shouldMakeOnlyDaemonThreads() throws InterruptedException {
        assertThat(BackgroundThreads.named("one").newThread(() -> {}).isDaemon())
                .isTrue();
        Thread numbered = BackgroundThreads.numbered("pool").newThread(() -> {});
        assertThat(numbered.isDaemon()).isTrue();
        assertThat(numbered.getName()).isEqualTo("pool-1");
        Thread started = BackgroundThreads.start("started", () -> {});
        assertThat(started.isDaemon()).isTrue();
        started.join(10_000);
    }
}
