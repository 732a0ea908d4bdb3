package com.kvportal.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Calls made from several threads released at the same moment, to provoke races. */
public final class Concurrently {

    private Concurrently() {}

    /** Makes {@code call} on {@code threads} threads at once and answers every result, in thread order. */
    public static <T> List<T> run(int threads, Callable<T> call) throws Exception {
        return each(Collections.nCopies(threads, call));
    }

    /** Makes every call on a thread of its own, all at once, and answers their results in the calls' order. */
    public static <T> List<T> each(List<? extends Callable<T>> calls) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(calls.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(2, TimeUnit.MINUTES));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
