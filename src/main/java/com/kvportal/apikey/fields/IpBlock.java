package com.kvportal.apikey.fields;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a key's allowed addresses: an IPv4 or IPv6 address, or a CIDR block of either. Parsed from literals
 * only (never a host name, so never a DNS lookup), and answered in one canonical form: IPv6 as RFC 5952 writes it
 * (lower case, the longest run of zero groups as {@code ::}), an IPv4-mapped IPv6 address as the IPv4 address it
 * maps, a single address without {@code /32} or {@code /128}. A block whose address has bits set beyond its prefix
 * ({@code 10.0.0.1/8}) is refused, as PostgreSQL's {@code cidr} refuses it: the sender meant either the address or
 * the network, and nobody can tell which.
 */
public record IpBlock(byte[] network, int prefix) {

    private static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    /** What is wrong with an entry, for a person: empty when it is a valid address or block. */
    static Optional<String> refusal(String text) {
        Parsed parsed = parse(text);
        return parsed.block() == null ? Optional.of(parsed.refusal()) : Optional.empty();
    }

    /** A valid entry (see {@link #refusal}). */
    static IpBlock of(String text) {
        Parsed parsed = parse(text);
        if (parsed.block() == null) {
            throw new IllegalArgumentException(parsed.refusal());
        }
        return parsed.block();
    }

    /** An address as a client presents it (no prefix), or empty when it is not an IPv4 or IPv6 address. */
    public static Optional<byte[]> address(String text) {
        return Optional.ofNullable(literal(text));
    }

    /** {@code client_ip} of a verify: an IPv4 or IPv6 address (no prefix, no host name). */
    static Optional<String> clientRefusal(String text) {
        return address(text).isPresent()
                ? Optional.empty()
                : Optional.of("must be an IPv4 or IPv6 address, e.g. 203.0.113.7 or 2001:db8::7");
    }

    private record Parsed(IpBlock block, String refusal) {}

    private static Parsed parse(String text) {
        int slash = text.indexOf('/');
        String host = slash < 0 ? text : text.substring(0, slash);
        byte[] address = literal(host);
        if (address == null) {
            return new Parsed(
                    null,
                    "'" + text + "' is not an IPv4 or IPv6 address or CIDR block (e.g. 203.0.113.7,"
                            + " 203.0.113.0/24, 2001:db8::/32)");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String digits = text.substring(slash + 1);
            if (!digits.matches("0|[1-9][0-9]{0,2}") || Integer.parseInt(digits) > bits) {
                return new Parsed(null, "'" + text + "' has a prefix length that is not 0-" + bits);
            }
            prefix = Integer.parseInt(digits);
        }
        IpBlock block = new IpBlock(masked(address, prefix), prefix);
        if (!java.util.Arrays.equals(block.network, address)) {
            return new Parsed(
                    null,
                    "'" + text + "' has bits set beyond its /" + prefix + " prefix: send the network "
                            + block.canonical() + ", or the single address without a prefix");
        }
        return new Parsed(block, null);
    }

    /** The bytes of an IPv4 or IPv6 literal (4 for IPv4 and IPv4-mapped IPv6), or null. */
    private static byte[] literal(String text) {
        boolean v4 = IPV4.matcher(text).matches();
        if (!v4 && !(text.indexOf(':') >= 0 && IPV6.matcher(text).matches())) {
            return null; // never a host name: InetAddress would look it up
        }
        if (v4) {
            for (String part : text.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        }
        try {
            InetAddress parsed = InetAddress.getByName(text);
            if (v4 != (parsed instanceof Inet4Address) && !text.regionMatches(true, 0, "::ffff:", 0, 7)) {
                return null;
            }
            return parsed.getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static byte[] masked(byte[] address, int prefix) {
        byte[] network = address.clone();
        for (int i = 0; i < network.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            network[i] = (byte) (network[i] & (0xff << (8 - keep)));
        }
        return network;
    }

    /** Whether the address (4 or 16 bytes) lies in this block; IPv4 never lies in an IPv6 block, nor the reverse. */
    boolean contains(byte[] address) {
        return address.length == network.length && java.util.Arrays.equals(masked(address, prefix), network);
    }

    /** The entry as the API answers it. */
    String canonical() {
        String host = network.length == 4 ? ipv4(network) : ipv6(network);
        return prefix == network.length * 8 ? host : host + "/" + prefix;
    }

    private static String ipv4(byte[] b) {
        return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
    }

    /** RFC 5952: lower-case hex without leading zeros, the first longest run of two or more zero groups as ::. */
    private static String ipv6(byte[] b) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpBlock block
                && prefix == block.prefix
                && java.util.Arrays.equals(network, block.network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        return canonical();
    }
}
