package com.kvportal.apikey.fields;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The addresses a key may be used from: 1-100 {@link IpBlock}s, each once, in the order given. A key without them
 * ({@code allowed_ips: null}) may be used from anywhere. {@code canonical}: the entries as the API answers them and as
 * they are stored.
 */
public record AllowedIps(List<IpBlock> blocks, List<String> canonical) {

    public static final int MAX_ENTRIES = 100;

    /** Valid entries (see {@link KeyFields#allowedIpsRefusal}), each once, in canonical form. */
    public static AllowedIps of(List<String> entries) {
        Set<IpBlock> unique = new LinkedHashSet<>();
        entries.forEach(entry -> unique.add(IpBlock.of(entry)));
        List<IpBlock> blocks = List.copyOf(unique);
        return new AllowedIps(blocks, blocks.stream().map(IpBlock::canonical).toList());
    }

    /** Whether a client at this address (a literal; anything else is outside) may use the key. */
    boolean allows(String clientIp) {
        return IpBlock.address(clientIp)
                .map(address -> blocks.stream().anyMatch(block -> block.contains(address)))
                .orElse(false);
    }

    /** Whether every address that {@code other} allows is allowed here too (else this set refuses some of them). */
    boolean covers(AllowedIps other) {
        return other.blocks.stream().allMatch(inner -> blocks.stream()
                .anyMatch(outer -> outer.prefix() <= inner.prefix() && outer.contains(inner.network())));
    }
}
