package com.kvportal.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllowedAddressesTest {

    private final AllowedAddresses allowed =
            AllowedAddresses.of(List.of("203.0.113.0/24", "198.51.100.7", "2001:db8::/32", "10.0.0.0/9"));

    @Test
    void anAddressInsideABlockOrEqualToAnEntryIsAllowed() {
        assertThat(allowed.allow("203.0.113.0")).isTrue();
        assertThat(allowed.allow("203.0.113.255")).isTrue();
        assertThat(allowed.allow("198.51.100.7")).isTrue();
        assertThat(allowed.allow("2001:db8:ffff::1")).isTrue();
        assertThat(allowed.allow("2001:DB8::")).isTrue();
        assertThat(allowed.allow("10.127.255.255")).isTrue();
        assertThat(allowed.allow("::ffff:203.0.113.9"))
                .as("IPv4-mapped counts as IPv4")
                .isTrue();
    }

    @Test
    void anAddressOutsideEveryEntryIsRefused() {
        assertThat(allowed.allow("203.0.114.0")).isFalse();
        assertThat(allowed.allow("198.51.100.8")).isFalse();
        assertThat(allowed.allow("2001:db9::1")).isFalse();
        assertThat(allowed.allow("10.128.0.0"))
                .as("a /9 ends at 10.127.255.255")
                .isFalse();
    }

    @Test
    void whatIsNoAddressLiteralIsOutside() {
        for (String client : new String[] {
            null,
            "",
            "localhost",
            "203.0.113",
            "203.0.113.1.2",
            "203.0.113.256",
            "203.0.113.01",
            "2001:db8::1%eth0",
            "[2001:db8::1]",
            "2001:db8:::1",
            "example.com"
        }) {
            assertThat(allowed.allow(client)).as(String.valueOf(client)).isFalse();
        }
    }

    @Test
    void everyAddressMatchesTheZeroPrefixOfItsFamilyOnly() {
        AllowedAddresses anyIpv4 = AllowedAddresses.of(List.of("0.0.0.0/0"));
        assertThat(anyIpv4.allow("192.0.2.1")).isTrue();
        assertThat(anyIpv4.allow("2001:db8::1")).isFalse();
    }

    @Test
    void refusesAnEntryThatIsNoAddressOrBlock() {
        assertThatThrownBy(() -> AllowedAddresses.of(List.of("203.0.113.0/33"))).hasMessageContaining("prefix");
        assertThatThrownBy(() -> AllowedAddresses.of(List.of("host.example"))).hasMessageContaining("not an address");
    }
}
