package com.kvportal.webhooks.delivery;

import com.kvportal.webhooks.WebhookProperties;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Where deliveries may go (no SSRF): {@code https://} only, and never an address that is loopback, private,
 * link-local, multicast, unspecified ({@code 0.0.0.0}, {@code ::}) or otherwise not on the public internet. An IPv6
 * form of an IPv4 address (mapped {@code ::ffff:a.b.c.d}, compatible {@code ::a.b.c.d}, NAT64 {@code
 * 64:ff9b::a.b.c.d}) and a tunnel address (6to4 {@code 2002::/16}, Teredo {@code 2001::/32}) count as the IPv4
 * addresses they carry. The check is made when the URL is saved and again at send time on
 * the address actually connected to ({@link WebhookClient}). {@code allow-private-targets} also allows {@code http://}
 * and every address (local testing only).
 */
@Component
public class TargetPolicy {

    public static final int MAX_URL_LENGTH = 2048;

    private final boolean allowPrivate;

    TargetPolicy(WebhookProperties properties) {
        this.allowPrivate = properties.allowPrivateTargets();
    }

    /** Why the URL is refused when it is saved, or empty: its form, and the addresses its host resolves to now. */
    public Optional<String> refusal(String url) {
        if (url.length() > MAX_URL_LENGTH) {
            return Optional.of("must be at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("is not a URL");
        }
        Optional<String> form = formRefusal(uri);
        if (form.isPresent()) {
            return form;
        }
        String host = host(uri);
        if (!allowPrivate && (host.equals("localhost") || host.endsWith(".localhost"))) {
            return Optional.of("must not point at a loopback, private, link-local or multicast address");
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!allowed(address)) {
                    return Optional.of("must not point at a loopback, private, link-local or multicast address");
                }
            }
        } catch (UnknownHostException e) {
            // not resolvable now (DNS may come later): every attempt checks again what it resolves to
        }
        return Optional.empty();
    }

    /** The scheme, host, port and no credentials: checked again at send time (the URL may predate a setting). */
    Optional<String> formRefusal(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean schemeAllowed = scheme.equals("https") || (allowPrivate && scheme.equals("http"));
        if (!schemeAllowed) {
            return Optional.of(allowPrivate ? "must be an https:// or http:// URL" : "must be an https:// URL");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty() || uri.getRawAuthority() == null) {
            return Optional.of("must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("must not carry a user or password");
        }
        if (uri.getRawFragment() != null) {
            return Optional.of("must not carry a fragment");
        }
        return Optional.empty();
    }

    /** Whether a delivery may connect to this address. */
    boolean allowed(InetAddress address) {
        return allowPrivate || isPublic(address);
    }

    static String host(URI uri) {
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    static boolean isPublic(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            List<byte[]> carried = carriedIpv4(bytes);
            if (!carried.isEmpty()) {
                return carried.stream().allMatch(TargetPolicy::isPublicIpv4);
            }
            return isPublicIpv6(address, bytes);
        }
        return address instanceof Inet4Address && isPublicIpv4(bytes);
    }

    /**
     * The IPv4 addresses an IPv6 address stands for or carries, or none: mapped {@code ::ffff:a.b.c.d}, compatible
     * {@code ::a.b.c.d}, NAT64 {@code 64:ff9b::a.b.c.d}, 6to4 {@code 2002:AABB:CCDD::/48} (bits 16-47), and Teredo
     * {@code 2001:0::/32}, which carries two: its server's (bits 32-63) and its client's (the last 32 bits, inverted).
     * Each tunnel reaches what it carries, so every address carried must be public.
     */
    private static List<byte[]> carriedIpv4(byte[] v6) {
        byte[] prefix = Arrays.copyOf(v6, 12);
        byte[] tail = Arrays.copyOfRange(v6, 12, 16);
        byte[] mapped = new byte[12];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        byte[] nat64 = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
        if (Arrays.equals(prefix, mapped) || Arrays.equals(prefix, nat64)) {
            return List.of(tail);
        }
        // compatible ::a.b.c.d (deprecated), but not :: and ::1, which are IPv6's own
        if (Arrays.equals(prefix, new byte[12]) && !(tail[0] == 0 && tail[1] == 0 && tail[2] == 0)) {
            return List.of(tail);
        }
        if (v6[0] == 0x20 && v6[1] == 0x02) { // 6to4
            return List.of(Arrays.copyOfRange(v6, 2, 6));
        }
        if (v6[0] == 0x20 && v6[1] == 0x01 && v6[2] == 0 && v6[3] == 0) { // Teredo
            byte[] client = new byte[4];
            for (int i = 0; i < 4; i++) {
                client[i] = (byte) ~tail[i];
            }
            return List.of(Arrays.copyOfRange(v6, 4, 8), client);
        }
        return List.of();
    }

    private static boolean isPublicIpv4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        return !(a0 == 0 // "this network", 0.0.0.0
                || a0 == 10
                || a0 == 127
                || (a0 == 100 && a1 >= 64 && a1 <= 127) // carrier-grade NAT
                || (a0 == 169 && a1 == 254) // link-local (cloud metadata)
                || (a0 == 172 && a1 >= 16 && a1 <= 31)
                || (a0 == 192 && a1 == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments
                || (a0 == 192 && a1 == 168)
                || (a0 == 198 && (a1 == 18 || a1 == 19)) // benchmarking
                || a0 >= 224); // multicast, reserved, broadcast
    }

    private static boolean isPublicIpv6(InetAddress address, byte[] b) {
        int first = b[0] & 0xff;
        return !(address.isAnyLocalAddress()
                || address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()
                || (first & 0xfe) == 0xfc // unique local fc00::/7
                || (first == 0x20 && (b[1] & 0xff) == 0x01 && b[2] == 0x0d && (b[3] & 0xff) == 0xb8) // documentation
                || first == 0); // the rest of ::/8 (reserved)
    }
}
