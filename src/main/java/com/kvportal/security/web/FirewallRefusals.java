package com.kvportal.security.web;

import com.kvportal.common.web.Problems;
import com.kvportal.common.web.RefusedRequests;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import lombok.RequiredArgsConstructor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * The answer to a request that Spring Security's firewall refuses (a path with {@code ;}, {@code //}, an encoded
 * slash or dot segment, a method nobody knows, a header with a control character): a problem saying what to send
 * instead, and one debug line in the log, never a stack trace, for the mistake is the client's.
 */
@Component
@RequiredArgsConstructor
class FirewallRefusals implements RequestRejectedHandler {

    private static final Logger log = LoggerFactory.getLogger(FirewallRefusals.class);

    private final Problems problems;

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException refused)
            throws IOException {
        log.debug("Refused by the firewall: {}", refused.getMessage());
        ProblemDetail problem = RefusedRequests.refusedByFirewall(request, refused.getMessage());
        if (problem.getStatus() == 405) {
            RefusedRequests.allowMethods(response);
        }
        problems.write(response, problem);
    }
}
