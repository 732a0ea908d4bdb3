package com.kvportal.common.limits;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;

/**
 * The client a limit counts: {@code getRemoteAddr()} (which honours {@code X-Forwarded-For} only from the proxies of
 * {@code server.tomcat.remoteip.internal-proxies}, by default loopback only), an IPv4 address as it is and an IPv6
 * address as its /64 network (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let
 * a client rotate through millions).
 */
public final class ClientAddress {

    private ClientAddress() {}

    public static String of(HttpServletRequest request) {
        return bucketOf(request.getRemoteAddr());
    }

    static String bucketOf(String address) {
        if (address.indexOf(':') < 0) {
            return address;
        }
        try {
            byte[] bytes = InetAddress.getByName(address).getAddress();
            if (bytes.length == 16) {
                return HexFormat.of().formatHex(bytes, 0, 8) + "::/64";
            }
            return InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }
}
