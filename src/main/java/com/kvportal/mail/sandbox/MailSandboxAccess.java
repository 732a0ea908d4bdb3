package com.kvportal.mail.sandbox;

import com.kvportal.mail.PeerAddress;
import com.kvportal.sandbox.SandboxKey;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import lombok.RequiredArgsConstructor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * Who may read the mail sandbox (its messages hold reset links): a client whose connection comes from a loopback
 * address, the connection's own peer, and that no proxy forwarded (a request carrying {@code X-Forwarded-For} or
 * {@code Forwarded} came from further away, whatever the header claims), or one presenting the payment sandbox's
 * own key ({@code Authorization: Bearer <SANDBOX_API_KEY>}) while that sandbox runs. Everyone else gets a 404, as
 * if the sandbox did not exist.
 */
@Component
@MailSandboxMode
@RequiredArgsConstructor
class MailSandboxAccess {

    private final ObjectProvider<SandboxKey> sandboxKey;

    private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");

    boolean allows(HttpServletRequest request) {
        String peer = PeerAddress.ofDirect(request);
        if (peer != null && isLoopback(peer)) {
            return true;
        }
        SandboxKey key = sandboxKey.getIfAvailable();
        return key != null && key.authorizes(request.getHeader(HttpHeaders.AUTHORIZATION));
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
