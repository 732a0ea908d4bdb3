package com.kvportal.verifier;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * A storage backend's process as {@link VerifierClusterIT} runs it (a JVM of its own, the library on its class
 * path): it connects a {@link KeyVerifier} and verifies the keys it is told to watch in a loop, each on a thread of
 * its own, until told to stop; then it reports how many verifies started after a given moment and still accepted
 * the key. Moments are {@link System#nanoTime()}, which on Linux is CLOCK_MONOTONIC, one clock for every process of
 * the machine.
 *
 * <p>Commands on standard input, one a line; answers on standard output, one a line:
 *
 * <pre>
 * watch TRIAL RAW_KEY CLIENT_IP|- PERMISSION|-    starts verifying; accepted = valid (and permits PERMISSION)
 *                                                 → watching TRIAL VALID   (its first answer, from the service)
 * stop TRIAL AFTER_NANOS                          → stopped TRIAL VERIFIES STARTED_AFTER ACCEPTED_AFTER FROM_MEMORY
 * </pre>
 */
public final class VerifierHolder {

    private static final PrintStream OUT = System.out;

    /** One watched key: its loop and what it saw. */
    private static final class Watch {
        final String rawKey;
        final String clientIp;
        final String permission;
        final Thread thread;
        volatile boolean stopped;
        final long[] startedAt = new long[1 << 17];
        final boolean[] accepted = new boolean[1 << 17];
        int count;
        /** Verifies answered in under 50 µs: from memory (a call to the service takes far longer). */
        int fromMemory;

        Watch(KeyVerifier verifier, String rawKey, String clientIp, String permission) {
            this.rawKey = rawKey;
            this.clientIp = clientIp;
            this.permission = permission;
            this.thread = new Thread(() -> loop(verifier), "watch");
        }

        boolean accepts(Verification verification) {
            return verification.valid() && (permission == null || verification.permits(permission));
        }

        private void loop(KeyVerifier verifier) {
            while (!stopped && count < startedAt.length) {
                long started = System.nanoTime();
                boolean ok;
                try {
                    ok = accepts(verifier.verify(rawKey, clientIp));
                } catch (KeyVerifierException unreachable) {
                    ok = false; // no answer: not an acceptance
                }
                if (System.nanoTime() - started < 50_000) {
                    fromMemory++;
                }
                startedAt[count] = started;
                accepted[count] = ok;
                count++;
                LockSupport.parkNanos(200_000); // 5,000 verifies a second at most: the machine is shared
            }
        }
    }

    public static void main(String[] args) throws Exception {
        KeyVerifier verifier = KeyVerifier.connect(URI.create(args[0]), args[1]);
        Map<String, Watch> watches = new ConcurrentHashMap<>();
        OUT.println("ready");
        OUT.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "watch" -> {
                    String clientIp = words[3].equals("-") ? null : words[3];
                    String permission = words[4].equals("-") ? null : words[4];
                    Watch watch = new Watch(verifier, words[2], clientIp, permission);
                    boolean first = watch.accepts(verifier.verify(words[2], clientIp));
                    watches.put(words[1], watch);
                    watch.thread.start();
                    OUT.println("watching " + words[1] + " " + first);
                }
                case "stop" -> {
                    Watch watch = watches.remove(words[1]);
                    long after = Long.parseLong(words[2]);
                    watch.stopped = true;
                    watch.thread.join();
                    int startedAfter = 0;
                    int acceptedAfter = 0;
                    for (int i = 0; i < watch.count; i++) {
                        if (watch.startedAt[i] - after > 0) {
                            startedAfter++;
                            if (watch.accepted[i]) {
                                acceptedAfter++;
                            }
                        }
                    }
                    OUT.println("stopped " + words[1] + " " + watch.count + " " + startedAfter + " " + acceptedAfter
                            + " " + watch.fromMemory);
                }
                default -> OUT.println("unknown " + line);
            }
            OUT.flush();
        }
        verifier.close();
    }
}
