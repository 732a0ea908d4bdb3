package com.kvportal.openapi;

import com.kvportal.common.AppBaseUrl;
import com.kvportal.security.ApiContract;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springdoc.core.customizers.GlobalOperationComponentsCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The document's frame: info, servers, security schemes, the problem schema; operations come from {@link ApiContract}. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static final String DESCRIPTION =
            """
            API keys and billing for a storage product.

            **Credentials.** Portal calls (keys, projects, session, billing) accept either of two:
            the **session** cookie that signup and login set (the dashboard; a call that changes state must also \
            send `X-XSRF-TOKEN` equal to the `XSRF-TOKEN` cookie, or it answers 403 `csrf_failed`), or an \
            **API key** as `Authorization: Bearer kv_…` with the `admin` permission (any key may revoke itself; \
            bearer calls need no CSRF header). Verify takes the key to check as its bearer credential. The storage \
            backend reports usage with its own bearer token (`USAGE_API_TOKEN`); the payment provider signs its \
            webhook events (`Stripe-Signature`). Each operation names the schemes it accepts; public ones none.

            **Errors.** Every error is an RFC 9457 problem document (`application/problem+json`) \
            `{type, title, status, detail, code}` with a stable `code` (and `errors: [{field, message}]` for \
            `validation_failed`); each operation lists its codes and shows an example of each. A client mistake \
            is never a 5xx.

            All bodies are JSON with snake_case fields; ids are UUIDs; timestamps ISO 8601 UTC in whole seconds \
            (`2026-11-21T10:15:30Z`).""";

    @Bean
    OpenAPI kvPortalOpenApi(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        String version = properties == null ? "dev" : properties.getVersion();
        return new OpenAPI()
                .info(new Info()
                        .title("kv-portal")
                        .version(version)
                        .description(DESCRIPTION)
                        .license(new License().name("Apache-2.0").url("https://www.apache.org/licenses/LICENSE-2.0")))
                .components(new Components()
                        .addSecuritySchemes(
                                ApiContractCustomizer.SESSION_SCHEME,
                                named(
                                        SecurityScheme.In.COOKIE,
                                        "SESSION",
                                        "The session cookie set by signup and login (HttpOnly, SameSite=Lax)."))
                        .addSecuritySchemes(
                                ApiContractCustomizer.XSRF_SCHEME,
                                named(
                                        SecurityScheme.In.HEADER,
                                        "X-XSRF-TOKEN",
                                        "With a session, calls that change state echo the value of the XSRF-TOKEN"
                                                + " cookie (set by signup, login and GET /api/v1/session) in this"
                                                + " header."))
                        .addSecuritySchemes(
                                ApiContractCustomizer.API_KEY_SCHEME,
                                bearer(
                                        "kv_ + 32 base62 characters",
                                        "An API key: Authorization: Bearer kv_…. Portal calls need the admin"
                                                + " permission; any key may revoke itself."))
                        .addSecuritySchemes(
                                ApiContractCustomizer.USAGE_TOKEN_SCHEME,
                                bearer(
                                        "USAGE_API_TOKEN",
                                        "The storage backend's token: one of the comma-separated values of"
                                                + " USAGE_API_TOKEN."))
                        .addSecuritySchemes(
                                ApiContractCustomizer.STRIPE_SIGNATURE_SCHEME,
                                named(
                                        SecurityScheme.In.HEADER,
                                        "Stripe-Signature",
                                        "t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" under"
                                                + " PAYMENT_WEBHOOK_SECRET>[,v1=…]; t at most 300 s old."))
                        .addSecuritySchemes(
                                ApiContractCustomizer.GITHUB_SIGNATURE_SCHEME,
                                named(
                                        SecurityScheme.In.HEADER,
                                        "Github-Public-Key-Signature",
                                        "GitHub secret scanning: an ECDSA P-256/SHA-256 signature over the raw body,"
                                                + " by the key named in Github-Public-Key-Identifier.")));
    }

    /** A credential sent as the value of a named cookie or header. */
    private static SecurityScheme named(SecurityScheme.In in, String name, String description) {
        return new SecurityScheme()
                .type(SecurityScheme.Type.APIKEY)
                .in(in)
                .name(name)
                .description(description);
    }

    /** A credential sent as {@code Authorization: Bearer <token>}. */
    private static SecurityScheme bearer(String format, String description) {
        return new SecurityScheme()
                .type(SecurityScheme.Type.HTTP)
                .scheme("bearer")
                .bearerFormat(format)
                .description(description);
    }

    /** The schemas springdoc derives from records: snake_case names, {@code @Required} fields required. */
    @Bean
    ModelResolver apiModelResolver() {
        return new ApiModelResolver();
    }

    /** Read at start: a malformed {@value OperationTexts#RESOURCE} stops it. */
    @Bean
    OperationTexts operationTexts() {
        return OperationTexts.load();
    }

    @Bean
    GlobalOperationComponentsCustomizer apiContracts(OperationTexts texts) {
        return new ApiContractCustomizer(texts);
    }

    @Bean
    GlobalOpenApiCustomizer documentCustomizer(AppBaseUrl baseUrl, OperationTexts texts) {
        return new DocumentCustomizer(baseUrl, texts);
    }
}
