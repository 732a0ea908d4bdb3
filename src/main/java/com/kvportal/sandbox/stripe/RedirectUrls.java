package com.kvportal.sandbox.stripe;

import com.kvportal.common.AppBaseUrl;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The URLs the sandbox sends a browser to ({@code success_url}, {@code cancel_url}, {@code return_url}): only under
 * {@code APP_BASE_URL}, so that its hosted pages never redirect anywhere else.
 */
@Component
@RequiredArgsConstructor
public class RedirectUrls {

    private final AppBaseUrl baseUrl;

    /** The parameter's URL, refused with 400 {@code invalid_request_error} unless it lies under the base URL. */
    @Nullable
    public String param(StripeParams params, String key) {
        String url = params.url(key);
        if (url != null && !baseUrl.covers(url.replace("{CHECKOUT_SESSION_ID}", "CHECKOUT_SESSION_ID"))) {
            throw StripeError.invalid(
                    key,
                    key + " must lie under " + baseUrl.get() + " (APP_BASE_URL: the same scheme, host, port and "
                            + "path): the sandbox redirects nowhere else.");
        }
        return url;
    }
}
