package com.kvportal.apikey.analytics;

import com.kvportal.apikey.analytics.VerificationCounter.Counted;
import com.kvportal.common.database.DatabaseFailures;
import com.kvportal.common.scheduling.BackgroundLifecycle;
import com.kvportal.common.scheduling.PeriodicJob;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Writes what {@link VerificationCounter} holds every {@code kvportal.analytics.flush-interval} (10 s): one
 * transaction per instance and interval, none when nothing was counted. A flush that fails keeps its counts for the
 * next one. On a graceful stop, after the web server has stopped taking requests (this lifecycle's phase is below
 * the web server's), a last flush writes the rest: a stop loses nothing, a kill -9 at most one interval.
 */
@Component
class VerificationFlush extends BackgroundLifecycle implements PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(VerificationFlush.class);

    private final VerificationCounter counter;
    private final VerificationWriter writer;
    private final AnalyticsProperties properties;

    VerificationFlush(VerificationCounter counter, VerificationWriter writer, AnalyticsProperties properties) {
        this.counter = counter;
        this.writer = writer;
        this.properties = properties;
    }

    @Override
    public Schedule schedule() {
        return Schedule.every("verification-flush", properties.flushInterval(), this::flush);
    }

    /** Writes every count held now; public to the package's tests, which flush rather than wait. */
    synchronized void flush() {
        List<Counted> counted = counter.drain();
        if (counted.isEmpty()) {
            return;
        }
        try {
            writer.write(counted);
        } catch (RuntimeException e) {
            counter.restore(counted);
            if (DatabaseFailures.isUnavailable(e)) {
                log.warn(
                        "Could not write the verification counts of {} keys and minutes, the database is"
                                + " unavailable; retrying on the next flush",
                        counted.size());
            } else {
                log.warn(
                        "Could not write the verification counts of {} keys and minutes; retrying on the next"
                                + " flush",
                        counted.size(),
                        e);
            }
        }
    }

    @Override
    public void stop() {
        super.stop();
        flush();
    }

    /** Stops after the web server (its phase is higher): no verify is answered after the last flush. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 8192;
    }
}
