package com.kvportal.verifier;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A key's {@code allowed_ips} as verify answers them (IPv4 and IPv6 addresses and CIDR blocks, in canonical form),
 * checked here against a client's address for a cached answer, as the service checks them: an address is taken
 * from a literal only (never a host name, so never a DNS lookup), an IPv4-mapped IPv6 address counts as the IPv4
 * address it maps, and IPv4 never lies in an IPv6 block nor the reverse.
 */
final class AllowedAddresses {

    private final byte[][] networks;
    private final int[] prefixes;

    private AllowedAddresses(byte[][] networks, int[] prefixes) {
        this.networks = networks;
        this.prefixes = prefixes;
    }

    /** The entries; {@link IllegalArgumentException} for one that is no address or block. */
    static AllowedAddresses of(List<String> entries) {
        byte[][] networks = new byte[entries.size()][];
        int[] prefixes = new int[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            int slash = entry.indexOf('/');
            byte[] network = address(slash < 0 ? entry : entry.substring(0, slash));
            if (network == null) {
                throw new IllegalArgumentException("not an address or CIDR block: " + entry);
            }
            int prefix = slash < 0 ? network.length * 8 : Integer.parseInt(entry.substring(slash + 1));
            if (prefix < 0 || prefix > network.length * 8) {
                throw new IllegalArgumentException("a prefix out of range: " + entry);
            }
            networks[i] = network;
            prefixes[i] = prefix;
        }
        return new AllowedAddresses(networks, prefixes);
    }

    /** Whether a client at this address (null or anything but an address literal: outside) may use the key. */
    boolean allow(String clientIp) {
        byte[] address = clientIp == null ? null : address(clientIp);
        if (address == null) {
            return false;
        }
        for (int i = 0; i < networks.length; i++) {
            if (within(address, networks[i], prefixes[i])) {
                return true;
            }
        }
        return false;
    }

    private static boolean within(byte[] address, byte[] network, int prefix) {
        if (address.length != network.length) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (address[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest);
        return (address[whole] & mask) == (network[whole] & mask);
    }

    /** The 4 (IPv4, IPv4-mapped IPv6) or 16 bytes of an address literal, or null. */
    static byte[] address(String text) {
        if (text.isEmpty() || text.length() > 45) {
            return null;
        }
        if (text.indexOf(':') < 0) {
            return ipv4(text);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean allowed = c == ':' || c == '.' || Character.digit(c, 16) >= 0;
            if (!allowed) {
                return null; // a zone id, brackets or a name: never resolved
            }
        }
        try {
            return InetAddress.getByName(text).getAddress(); // a literal with ':' is parsed, never looked up
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** Four decimal parts of 0-255 without leading zeros (as the service accepts them), or null. */
    private static byte[] ipv4(String text) {
        byte[] out = new byte[4];
        int part = 0;
        int value = -1;
        int digits = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i == text.length() ? '.' : text.charAt(i);
            if (c == '.') {
                if (value < 0 || part == 4) {
                    return null;
                }
                out[part++] = (byte) value;
                value = -1;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                if (digits > 0 && value == 0) {
                    return null; // a leading zero
                }
                value = (value < 0 ? 0 : value * 10) + (c - '0');
                digits++;
                if (value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        return part == 4 ? out : null;
    }
}
