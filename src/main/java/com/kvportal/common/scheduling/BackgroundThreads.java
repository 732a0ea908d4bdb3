package com.kvportal.common.scheduling;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Background threads are daemon threads (they never keep the JVM up) with a name that tells what they do. */
public final class BackgroundThreads {

    private BackgroundThreads() {}

    /** Threads named {@code name}, e.g. for a single-thread executor. */
    public static ThreadFactory named(String name) {
        return runnable -> daemon(runnable, name);
    }

    /** Threads named {@code prefix-1}, {@code prefix-2}, ..., for a pool. */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger number = new AtomicInteger();
        return runnable -> daemon(runnable, prefix + "-" + number.incrementAndGet());
    }

    /** Starts {@code task} on a thread of its own named {@code name}. */
    public static Thread start(String name, Runnable task) {
        Thread thread = daemon(task, name);
        thread.start();
        return thread;
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
