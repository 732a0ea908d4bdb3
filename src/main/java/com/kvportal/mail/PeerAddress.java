package com.kvportal.mail;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * The address of the connection's own peer, before Tomcat's {@code RemoteIpValve} replaces {@code getRemoteAddr()}
 * with a trusted proxy's {@code X-Forwarded-For} (and removes the header): a valve placed first on the engine keeps
 * it in a request attribute, and only for a request that carries no {@code X-Forwarded-For} or {@code Forwarded}
 * header, that is, one no proxy forwarded. Rules that a forwarded header must not satisfy (the mail sandbox's
 * loopback rule) read it here.
 */
@Component
public class PeerAddress implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private static final String ATTRIBUTE = PeerAddress.class.getName();

    /** The connection's peer address, or null for a forwarded request or outside of one that passed the valve. */
    public static @Nullable String ofDirect(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof String address ? address : null;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        List<Valve> valves = new ArrayList<>(factory.getEngineValves());
        valves.add(0, new Recorder());
        factory.setEngineValves(valves);
    }

    /** After Spring Boot's customizer, which adds the RemoteIpValve that this valve must precede. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    static final class Recorder extends ValveBase {

        Recorder() {
            super(true);
        }

        @Override
        public void invoke(Request request, Response response) throws IOException, ServletException {
            if (request.getHeader("X-Forwarded-For") == null && request.getHeader("Forwarded") == null) {
                request.setAttribute(ATTRIBUTE, request.getRemoteAddr());
            }
            getNext().invoke(request, response);
        }
    }
}
