package com.kvportal.common.scheduling;

import org.springframework.context.SmartLifecycle;

/**
 * Background work that runs from the context's start to its stop: {@link #isRunning()} is what its loops ask, and a
 * subclass that does more on start or stop calls {@code super.start()} or {@code super.stop()} where the flag must
 * change. Each subclass says in {@link #getPhase()} when it stops relative to the web server, and why.
 */
public abstract class BackgroundLifecycle implements SmartLifecycle {

    private volatile boolean running;

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public abstract int getPhase();
}
