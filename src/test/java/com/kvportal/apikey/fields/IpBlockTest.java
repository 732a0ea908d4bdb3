package com.kvportal.apikey.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IpBlockTest {

    @Test
    void entriesAreAnsweredInCanonicalForm() {
        assertThat(IpBlock.of("203.0.113.7").canonical()).isEqualTo("203.0.113.7");
        assertThat(IpBlock.of("203.0.113.7/32").canonical()).isEqualTo("203.0.113.7");
        assertThat(IpBlock.of("203.0.113.0/24").canonical()).isEqualTo("203.0.113.0/24");
        assertThat(IpBlock.of("2001:0DB8:0000:0000:0000:0000:0000:0001").canonical())
                .isEqualTo("2001:db8::1");
        assertThat(IpBlock.of("2001:db8:0:0:1:0:0:1/128").canonical()).isEqualTo("2001:db8::1:0:0:1");
        assertThat(IpBlock.of("2001:db8::/32").canonical()).isEqualTo("2001:db8::/32");
        assertThat(IpBlock.of("::").canonical()).isEqualTo("::");
        assertThat(IpBlock.of("::/0").canonical()).isEqualTo("::/0");
        assertThat(IpBlock.of("::ffff:192.0.2.1").canonical()).isEqualTo("192.0.2.1");
        assertThat(IpBlock.of("0.0.0.0/0").canonical()).isEqualTo("0.0.0.0/0");
    }

    @Test
    void hostBitsBeyondThePrefixAreRefusedWithTheNetworkToSend() {
        assertThat(IpBlock.refusal("2001:db8::1/32"))
                .hasValueSatisfying(why -> assertThat(why).contains("send the network 2001:db8::/32"));
        assertThat(IpBlock.refusal("192.0.2.0/24")).isEmpty();
    }

    @Test
    void nothingButLiteralsIsAnAddress() {
        for (String bad :
                List.of("localhost", "example.com", "1.2.3.4.5", "1.2.3.4/", "fe80::1%eth0", "", " 1.2.3.4")) {
            assertThat(IpBlock.refusal(bad)).as(bad).isPresent();
        }
        assertThat(IpBlock.address("1.2.3.4/32")).isEmpty();
    }

    @Test
    void aBlockHoldsTheAddressesOfItsPrefixOnly() {
        AllowedIps allowed = AllowedIps.of(List.of("192.0.2.0/24", "2001:db8::/32", "198.51.100.7", "198.51.100.7"));
        assertThat(allowed.canonical()).containsExactly("192.0.2.0/24", "2001:db8::/32", "198.51.100.7");
        assertThat(allowed.allows("192.0.2.255")).isTrue();
        assertThat(allowed.allows("192.0.3.0")).isFalse();
        assertThat(allowed.allows("2001:db8:ffff::1")).isTrue();
        assertThat(allowed.allows("2001:db9::1")).isFalse();
        assertThat(allowed.allows("198.51.100.7")).isTrue();
        assertThat(allowed.allows("198.51.100.8")).isFalse();
        assertThat(allowed.allows("::ffff:192.0.2.9"))
                .as("an IPv4-mapped address is its IPv4 address")
                .isTrue();
        assertThat(allowed.allows("not an address")).isFalse();
    }

    @Test
    void aNarrowerSetIsToldFromAWiderOne() {
        AllowedIps wide = AllowedIps.of(List.of("10.0.0.0/8"));
        AllowedIps narrow = AllowedIps.of(List.of("10.1.0.0/16", "10.2.3.4"));
        assertThat(wide.covers(narrow)).isTrue();
        assertThat(narrow.covers(wide)).isFalse();
        KeyShape anywhere = KeyShape.DEFAULT;
        KeyShape limited = new KeyShape(java.util.Map.of(), null, true, narrow);
        assertThat(anywhere.narrowedBy(limited)).isTrue();
        assertThat(limited.narrowedBy(anywhere)).isFalse();
        assertThat(limited.narrowedBy(new KeyShape(java.util.Map.of(), null, true, wide)))
                .isFalse();
        assertThat(anywhere.narrowedBy(new KeyShape(java.util.Map.of(), null, false, null)))
                .isTrue();
    }
}
