package com.kvportal.sandbox;

import com.kvportal.common.web.BearerToken;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Makes a {@link StripeCall} of a request to the sandbox's Stripe API, after checking its key as Stripe would: any
 * test-mode secret key, as a bearer token or as the user name of basic auth (curl's {@code -u sk_test_...:}).
 */
class StripeCallResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == StripeCall.class;
    }

    @Override
    public StripeCall resolveArgument(
            MethodParameter parameter,
            @Nullable ModelAndViewContainer mavContainer,
            NativeWebRequest webRequest,
            @Nullable WebDataBinderFactory binderFactory) {
        HttpServletRequest request = webRequest.getNativeRequest(HttpServletRequest.class);
        if (request == null) {
            throw new IllegalStateException("the sandbox's Stripe API is served over HTTP only");
        }
        authenticate(request.getHeader(HttpHeaders.AUTHORIZATION));
        String key = request.getHeader("Idempotency-Key");
        return new StripeCall(
                request.getMethod(),
                request.getRequestURI().substring(StripeApiController.PREFIX.length()),
                StripeParams.of(request.getParameterMap()),
                key == null || key.isBlank() ? null : key);
    }

    private static void authenticate(@Nullable String authorization) {
        if (authorization == null || authorization.isBlank()) {
            throw StripeError.unauthenticated("You did not provide an API key. You need to provide your API key in "
                    + "the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
        }
        String key =
                BearerToken.of(authorization).or(() -> basicUser(authorization)).orElse("");
        if (!key.startsWith("sk_test_") || key.length() <= "sk_test_".length()) {
            throw StripeError.unauthenticated("Invalid API Key provided: " + redacted(key)
                    + ". The sandbox accepts any test-mode secret key (sk_test_...).");
        }
    }

    /** The user name of basic auth, which curl's {@code -u sk_test_...:} makes the key. */
    private static Optional<String> basicUser(String authorization) {
        if (!authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        try {
            String decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return Optional.of(colon < 0 ? decoded : decoded.substring(0, colon));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String redacted(String key) {
        if (key.length() <= 8) {
            return "****";
        }
        return key.substring(0, 8) + "****" + key.substring(key.length() - 4);
    }
}
