package com.kvportal.sandbox.api;

import com.kvportal.sandbox.SandboxKey;
import com.kvportal.sandbox.stripe.StripeParams;
import jakarta.servlet.http.HttpServletRequest;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Makes a {@link StripeCall} of a request to the sandbox's Stripe API, after checking its key as Stripe would: the
 * sandbox's own key ({@link SandboxKey}), as a bearer token or as the user name of basic auth.
 */
@RequiredArgsConstructor
public class StripeCallResolver implements HandlerMethodArgumentResolver {

    private final SandboxKey key;

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
        key.require(request.getHeader(HttpHeaders.AUTHORIZATION));
        String idempotencyKey = request.getHeader("Idempotency-Key");
        return new StripeCall(
                request.getMethod(),
                request.getRequestURI().substring(StripeApiController.PREFIX.length()),
                StripeParams.of(request.getParameterMap()),
                idempotencyKey == null || idempotencyKey.isBlank() ? null : idempotencyKey);
    }
}
