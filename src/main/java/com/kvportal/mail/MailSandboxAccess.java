package com.kvportal.mail;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Who may read the mail sandbox (its messages hold reset links): a client whose connection comes from a loopback
 * address, the connection's own peer, and that no proxy forwarded (a request carrying {@code X-Forwarded-For} or
 * {@code Forwarded} came from further away, whatever the header claims). Everyone else gets a 404, as if the sandbox
 * did not exist.
 */
@Component
@MailSandboxMode
class MailSandboxAccess {

    private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    boolean allows(HttpServletRequest request) {
        String peer = PeerAddress.ofDirect(request);
        return peer != null && isLoopback(peer);
    }

    private static boolean isLoopback(String address) {
        // only a literal address is looked at, so that no name lookup can happen
        if (!LITERAL.matcher(address).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
