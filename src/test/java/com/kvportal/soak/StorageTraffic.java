package com.kvportal.soak;

import static com.kvportal.soak.ExpectedOverage.GIB;

import com.kvportal.soak.ExpectedOverage.Sample;
import com.kvportal.soak.ExpectedOverage.Terms;
import com.kvportal.support.Api;
import com.kvportal.support.StorageSamples;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * One period's storage reports, as the storage backend sends them: every project's new storage (its final value
 * near a boundary of the overage units: exactly on it, a byte either side, or anywhere), values in between,
 * late samples (hours to weeks old), duplicates (the same id again, in the same batch or a later one, often with
 * other bytes: the first one wins), samples of unknown projects and out of range, all shuffled into batches of
 * random sizes; and first malformed batches that carry some of the same samples with other bytes, which must be
 * refused whole and change nothing (so the same ids are accepted, not duplicates, when they come properly later).
 */
final class StorageTraffic {

    private static final Duration OLDEST = Duration.ofDays(34);

    /** What the service is to make of one sample of a batch. */
    enum Kind {
        VALID,
        UNKNOWN_PROJECT,
        OUT_OF_RANGE
    }

    /** One sample as sent; {@code org} is null for a project nobody has. */
    record Entry(Organization org, Kind kind, String id, UUID project, long bytes, Instant at) {

        Map<String, Object> json() {
            return StorageSamples.sample(id, project, bytes, at);
        }

        Sample sample() {
            return new Sample(id, project, bytes, at.getEpochSecond());
        }

        Entry withBytes(long other) {
            return new Entry(org, kind, id, project, other, at);
        }
    }

    /** A body the service must refuse whole, with this status and problem code. */
    record Refused(String what, String token, String rawJson, int status, String code) {}

    private final Random random;
    private final Instant now;
    private final List<Entry> sequence = new ArrayList<>();
    private final List<Refused> refused = new ArrayList<>();
    private final List<List<Entry>> batches = new ArrayList<>();
    private int counter;

    /** Plans the reports of this period for every organization, sent from {@code now} on. */
    StorageTraffic(Random random, List<Organization> organizations, Instant now) {
        this.random = random;
        this.now = now;
        List<Entry> fresh = new ArrayList<>();
        for (Organization org : organizations) {
            fresh.addAll(reportsOf(org));
        }
        Collections.shuffle(fresh, random);
        sequence.addAll(fresh);
        duplicates(fresh, organizations);
        strays(organizations);
        batch();
        malformed(fresh);
    }

    List<Refused> refused() {
        return refused;
    }

    List<List<Entry>> batches() {
        return batches;
    }

    int samples() {
        return sequence.size();
    }

    /** The organization's storage of this period: a target total split over its projects, and what led there. */
    private List<Entry> reportsOf(Organization org) {
        List<Entry> entries = new ArrayList<>();
        long total = target(org);
        long left = total;
        for (int p = 0; p < org.projects.size(); p++) {
            UUID project = org.projects.get(p);
            boolean lastProject = p == org.projects.size() - 1;
            long share = lastProject ? left : (long) (left * random.nextDouble());
            left -= share;
            // the final value of the period, shortly ahead (the service takes up to 5 minutes ahead): it holds on
            entries.add(valid(org, project, share, now.plusSeconds(30 + random.nextInt(200))));
            // values before it, within the last ten minutes (in the first period, around its start)
            for (int i = random.nextInt(4); i > 0; i--) {
                long bytes = (long) (Math.max(share, GIB) * 2 * random.nextDouble());
                entries.add(valid(org, project, bytes, now.minusSeconds(random.nextInt(600))));
            }
            // a late one: hours to weeks old
            if (random.nextInt(3) == 0) {
                long age = 3600 + (long) (random.nextDouble() * (OLDEST.toSeconds() - 3600));
                entries.add(valid(org, project, (long) (200 * GIB * random.nextDouble()), now.minusSeconds(age)));
            }
        }
        return entries;
    }

    /**
     * A total on a unit boundary of the organization's plan now, a byte either side of it, or anywhere; free
     * organizations anywhere to 300 GiB.
     */
    private long target(Organization org) {
        if (!org.story.paid()) {
            return (long) (300 * GIB * random.nextDouble());
        }
        Terms terms = org.terms;
        long boundary = terms.allowanceBytes + (random.nextInt(17) - 4) * terms.unitBytes;
        long delta =
                switch (random.nextInt(5)) {
                    case 0 -> 0;
                    case 1 -> 1;
                    case 2 -> -1;
                    default -> (long) (terms.unitBytes * random.nextDouble());
                };
        return Math.max(0, boundary + delta);
    }

    private Entry valid(Organization org, UUID project, long bytes, Instant around) {
        long second = org.claimSecond(project, around.getEpochSecond());
        Instant at = Instant.ofEpochSecond(second, random.nextInt(1000) * 1_000_000L);
        return new Entry(org, Kind.VALID, id(), project, bytes, at);
    }

    /** Copies of samples sent before (this period, after the first copy; or earlier periods), often with other bytes. */
    private void duplicates(List<Entry> fresh, List<Organization> organizations) {
        int count = Math.max(2, fresh.size() / 8);
        for (int i = 0; i < count; i++) {
            int position = random.nextInt(sequence.size());
            Entry original = sequence.get(position);
            if (original.kind() != Kind.VALID) {
                continue;
            }
            Entry copy = random.nextBoolean()
                    ? original
                    : original.withBytes(original.bytes() + 1 + random.nextInt(1 << 20));
            // at the same position (so in the same batch, often) or anywhere after it
            int after = position + 1 + random.nextInt(Math.min(8, sequence.size() - position));
            sequence.add(random.nextBoolean() ? position + 1 : after, copy);
        }
        for (Organization org : organizations) {
            List<Sample> known = org.acceptedSoFar();
            if (!known.isEmpty() && random.nextInt(3) == 0) {
                Sample old = known.get(random.nextInt(known.size()));
                Instant at = Instant.ofEpochSecond(old.second());
                long bytes = random.nextBoolean() ? old.bytes() : old.bytes() + 4096;
                sequence.add(
                        random.nextInt(sequence.size() + 1),
                        new Entry(org, Kind.VALID, old.id(), old.project(), bytes, at));
            }
        }
    }

    /** Samples of projects nobody has, and samples too old or too far ahead: rejected one by one. */
    private void strays(List<Organization> organizations) {
        int count = 2 + sequence.size() / 50;
        for (int i = 0; i < count; i++) {
            Organization org = organizations.get(random.nextInt(organizations.size()));
            UUID project = org.projects.get(random.nextInt(org.projects.size()));
            Entry stray =
                    switch (random.nextInt(3)) {
                        case 0 -> new Entry(null, Kind.UNKNOWN_PROJECT, id(), UUID.randomUUID(), 1, now);
                        case 1 ->
                            new Entry(
                                    org, Kind.OUT_OF_RANGE, id(), project, 500 * GIB, now.plus(Duration.ofMinutes(10)));
                        default ->
                            new Entry(org, Kind.OUT_OF_RANGE, id(), project, 500 * GIB, now.minus(Duration.ofDays(36)));
                    };
            sequence.add(random.nextInt(sequence.size() + 1), stray);
        }
    }

    /** Cuts the sequence into batches of 1 to 60 samples. */
    private void batch() {
        int from = 0;
        while (from < sequence.size()) {
            int size = 1 + random.nextInt(60);
            int to = Math.min(sequence.size(), from + size);
            batches.add(List.copyOf(sequence.subList(from, to)));
            from = to;
        }
    }

    /**
     * Malformed bodies, each carrying a few of this period's samples with other bytes (10 TiB): if any of them were
     * stored, the same ids would be duplicates when they come properly, and the bill would show it.
     */
    private void malformed(List<Entry> fresh) {
        List<Entry> valid = fresh.stream().filter(e -> e.kind() == Kind.VALID).toList();
        Set<Entry> used = new HashSet<>();
        String token = com.kvportal.support.IntegrationTest.USAGE_TOKEN;
        refused.add(new Refused(
                "negative bytes", token, body(probes(valid, used), Map.of("bytes", -1L)), 400, "validation_failed"));
        refused.add(new Refused(
                "bytes as a string",
                token,
                body(probes(valid, used), Map.of("bytes", "12")),
                400,
                "validation_failed"));
        refused.add(new Refused(
                "at not a timestamp",
                token,
                body(probes(valid, used), Map.of("at", "yesterday")),
                400,
                "validation_failed"));
        refused.add(new Refused(
                "an unknown field", token, body(probes(valid, used), Map.of("size", 1)), 400, "validation_failed"));
        refused.add(new Refused(
                "no project_id", token, body(probes(valid, used), Map.of("project_id", "")), 400, "validation_failed"));
        String truncated = body(probes(valid, used), Map.of());
        refused.add(new Refused(
                "truncated JSON", token, truncated.substring(0, truncated.length() - 3), 400, "malformed_json"));
        refused.add(new Refused(
                "the wrong token", token + "-not", body(probes(valid, used), Map.of()), 401, "unauthenticated"));
        List<Map<String, Object>> tooMany = new ArrayList<>(probes(valid, used));
        while (tooMany.size() < 1001) {
            Entry filler = valid.get(random.nextInt(valid.size()));
            tooMany.add(StorageSamples.sample(id(), filler.project(), 10_000 * GIB, filler.at()));
        }
        refused.add(new Refused(
                "1,001 samples",
                token,
                Api.JSON.writeValueAsString(Map.of("samples", tooMany)),
                400,
                "validation_failed"));
    }

    /** Up to three samples of this period not used by another malformed body yet, with other bytes. */
    private List<Map<String, Object>> probes(List<Entry> valid, Set<Entry> used) {
        List<Map<String, Object>> probes = new ArrayList<>();
        for (int tries = 0; tries < 10 && probes.size() < 3 && !valid.isEmpty(); tries++) {
            Entry entry = valid.get(random.nextInt(valid.size()));
            if (used.add(entry)) {
                probes.add(entry.withBytes(10_000 * GIB).json());
            }
        }
        return probes;
    }

    /** The probes and one bad sample: a copy of a probe with these fields replaced ("" removes one). */
    private String body(List<Map<String, Object>> probes, Map<String, Object> change) {
        List<Map<String, Object>> samples = new ArrayList<>(probes);
        if (!change.isEmpty()) {
            Map<String, Object> bad = new LinkedHashMap<>(StorageSamples.sample(id(), UUID.randomUUID(), 1, now));
            if (!probes.isEmpty()) {
                bad = new LinkedHashMap<>(probes.get(0));
                bad.put("id", id());
            }
            for (Map.Entry<String, Object> field : change.entrySet()) {
                if ("".equals(field.getValue())) {
                    bad.remove(field.getKey());
                } else {
                    bad.put(field.getKey(), field.getValue());
                }
            }
            samples.add(random.nextInt(samples.size() + 1), bad);
        }
        return Api.JSON.writeValueAsString(Map.of("samples", samples));
    }

    private String id() {
        return "soak-" + Long.toHexString(random.nextLong()) + "-" + (++counter);
    }

    /** What a batch is to come to: the counts the service answers, and the samples it accepts. */
    record Outcome(int accepted, int duplicates, List<String> rejected, List<Entry> newlyAccepted) {}

    /** Predicts the batch's outcome from what the organizations accepted so far (first copy of an id wins). */
    static Outcome predict(List<Entry> batch) {
        int duplicates = 0;
        List<String> rejected = new ArrayList<>();
        List<Entry> accepted = new ArrayList<>();
        Set<String> inBatch = new HashSet<>();
        for (int i = 0; i < batch.size(); i++) {
            Entry entry = batch.get(i);
            switch (entry.kind()) {
                case OUT_OF_RANGE -> rejected.add(i + ":" + entry.id() + ":sample_out_of_range");
                case UNKNOWN_PROJECT -> rejected.add(i + ":" + entry.id() + ":project_not_found");
                case VALID -> {
                    if (entry.org().knows(entry.id()) || !inBatch.add(entry.id())) {
                        duplicates++;
                    } else {
                        accepted.add(entry);
                    }
                }
            }
        }
        return new Outcome(accepted.size(), duplicates, rejected, accepted);
    }

    /** The outcome the service answered. */
    static Outcome answered(JsonNode body) {
        List<String> rejected = new ArrayList<>();
        body.get("rejected")
                .forEach(r -> rejected.add(r.get("index").asInt() + ":"
                        + r.get("id").asString() + ":" + r.get("code").asString()));
        return new Outcome(body.get("accepted").asInt(), body.get("duplicates").asInt(), rejected, List.of());
    }

    /**
     * Sends every refused body, then every batch, each to either instance; reports what differs from docs/storage-backend.md.
     * Halfway, {@code crash} may name an instance about to be killed (null: none): the next batch goes to it.
     */
    void send(Cluster cluster, Consumer<String> failure, Supplier<String> crash) {
        for (Refused bad : refused) {
            Cluster.Answered<Api.Response> answered = cluster.onAny(random, base -> Api.withKey(base, bad.token())
                    .send("POST", StorageSamples.PATH, bad.rawJson(), "application/json"));
            Api.Response response = answered.answer();
            if (response.status() != bad.status() || !bad.code().equals(response.code())) {
                failure.accept("a report with " + bad.what() + " answered " + response + ", not " + bad.status() + " "
                        + bad.code());
            }
        }
        int half = batches.size() / 2;
        for (int b = 0; b < batches.size(); b++) {
            String victim = b == half ? crash.get() : null;
            List<Entry> batch = batches.get(b);
            Outcome expected = predict(batch);
            List<Map<String, Object>> samples = batch.stream().map(Entry::json).toList();
            Cluster.Answered<Api.Response> answered = cluster.onAny(
                    random, victim, base -> cluster.usage(base).post(StorageSamples.PATH, Map.of("samples", samples)));
            Api.Response response = answered.answer();
            if (response.status() != 200) {
                failure.accept("a batch of " + batch.size() + " answered " + response);
                continue;
            }
            Outcome got = answered(response.json());
            boolean same = answered.retried()
                    // sent again after its instance died: the first attempt may have stored it
                    ? got.accepted() + got.duplicates() == expected.accepted() + expected.duplicates()
                            && got.rejected().equals(expected.rejected())
                    : got.accepted() == expected.accepted()
                            && got.duplicates() == expected.duplicates()
                            && got.rejected().equals(expected.rejected());
            if (!same) {
                failure.accept("a batch of " + batch.size() + " answered accepted " + got.accepted() + ", duplicates "
                        + got.duplicates() + ", rejected " + got.rejected() + "; expected " + expected.accepted() + ", "
                        + expected.duplicates() + ", " + expected.rejected()
                        + (answered.retried() ? " (retried)" : ""));
            }
            for (Entry entry : expected.newlyAccepted()) {
                entry.org().accept(entry.sample());
            }
        }
    }
}
