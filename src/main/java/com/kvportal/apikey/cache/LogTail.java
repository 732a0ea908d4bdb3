package com.kvportal.apikey.cache;

import org.springframework.stereotype.Component;

/**
 * How far this instance has seen the invalidation log: {@link CacheCoherence} moves it on as it catches up (woken by
 * {@code NOTIFY}), and the event streams of holders outside the service wait on it instead of polling the database.
 */
@Component
class LogTail {

    private long seen;

    /** The log was read up to {@code seq}: wakes whoever waits for it. */
    synchronized void advanced(long seq) {
        if (seq > seen) {
            seen = seq;
            notifyAll();
        }
    }

    /**
     * Waits until the log was seen beyond {@code seq}, or {@code millis} passed.
     *
     * @return whether it was
     */
    synchronized boolean awaitBeyond(long seq, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (seen <= seq) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }
}
