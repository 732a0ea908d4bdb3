package com.kvportal.common.scheduling;

import java.time.Duration;

/**
 * A bean that does something every interval: {@link PeriodicJobs} runs it on a daemon thread of its own, on every
 * instance, from start to shutdown. A job states only when it runs (from its feature's settings) and what it does; a
 * run that fails is logged and left to the next one.
 */
public interface PeriodicJob {

    /** Asked once, at start. */
    Schedule schedule();

    /**
     * When a job runs: {@code initialDelay} after start, then {@code interval} after the end of each run.
     *
     * @param name the job's thread, and its name in the log, e.g. {@code "audit-retention"}
     */
    record Schedule(String name, Duration initialDelay, Duration interval, Runnable task) {

        public Schedule {
            if (initialDelay.isNegative()) {
                throw new IllegalArgumentException(
                        name + ": the initial delay must not be negative, was " + initialDelay);
            }
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException(name + ": the interval must be positive, was " + interval);
            }
        }

        /** Every {@code interval}, the first run one interval after start. */
        public static Schedule every(String name, Duration interval, Runnable task) {
            return new Schedule(name, interval, interval, task);
        }
    }
}
