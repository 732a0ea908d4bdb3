package com.kvportal.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for tests: a cookie jar like a browser's, the CSRF echo the dashboard does, an
 * optional bearer key, and JSON answers. Every exchange on {@code /api/} is checked against the server's OpenAPI
 * document ({@link ApiDocument}): an answer the document does not describe fails the test.
 */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** The password of every customer {@link #signup()} makes. */
    public static final String PASSWORD = "correct horse battery";

    private final String base;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http;
    private @Nullable String bearer;
    private boolean echoCsrf = true;
    private @Nullable String fixedCsrfToken;

    public Api(String base) {
        this.base = base;
        this.http = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    /** A client that sends {@code Authorization: Bearer key} and no cookies. */
    public static Api withKey(String base, String key) {
        Api api = new Api(base);
        api.bearer = key;
        return api;
    }

    public Api withoutCsrfEcho() {
        this.echoCsrf = false;
        return this;
    }

    /** Sends this value as {@code X-XSRF-TOKEN} instead of echoing the cookie (a forged or stale token). */
    public Api withCsrfToken(String token) {
        this.echoCsrf = true;
        this.fixedCsrfToken = token;
        return this;
    }

    /** Echoes the {@code XSRF-TOKEN} cookie again, as the dashboard does. */
    public Api withCsrfEcho() {
        this.echoCsrf = true;
        this.fixedCsrfToken = null;
        return this;
    }

    /** A client of another instance (at {@code base}) signed in with this client's session. */
    public Api sameSessionAt(String base) {
        Api other = new Api(base);
        other.setCookie("SESSION", cookie("SESSION"));
        other.setCookie("XSRF-TOKEN", cookie("XSRF-TOKEN"));
        return other;
    }

    public record Response(int status, HttpResponse<String> raw) {
        public JsonNode json() {
            return JSON.readTree(raw.body());
        }

        public String body() {
            return raw.body();
        }

        public @Nullable String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        public List<String> headers(String name) {
            return raw.headers().allValues(name);
        }

        /** The {@code Set-Cookie} header that sets the named cookie, or null. */
        public @Nullable String setCookie(String name) {
            return headers("Set-Cookie").stream()
                    .filter(header -> header.startsWith(name + "="))
                    .findFirst()
                    .orElse(null);
        }

        /** The problem {@code code} of an error answer. */
        public String code() {
            return json().path("code").asString();
        }

        @Override
        public String toString() {
            return status + " " + raw.body();
        }
    }

    /**
     * Signs up a new customer with a unique email and verifies the address with the link the mail sandbox received,
     * as a person does (keys, invitations, webhook endpoints, organizations, two-step login and checkout need a
     * verified address); this client then carries the session.
     */
    public Account signup() {
        Account account = signupUnverified();
        verifyEmail(base, account.email());
        return account;
    }

    /** Signs up a new customer with a unique email, leaving the address unverified; this client carries the session. */
    public Account signupUnverified() {
        String email = "user-" + UUID.randomUUID() + "@example.com";
        Response response = post("/api/v1/auth/signup", Map.of("email", email, "password", PASSWORD));
        if (response.status() != 201) {
            throw new IllegalStateException("signup failed: " + response);
        }
        return account(email, response.json());
    }

    /** Who this client's session is now, as {@code GET /api/v1/session} answers: its customer, organization, project. */
    public Account session() {
        Response response = get("/api/v1/session");
        if (response.status() != 200) {
            throw new IllegalStateException("no session: " + response);
        }
        return account(response.json().get("email").asString(), response.json());
    }

    private static Account account(String email, JsonNode body) {
        return new Account(
                email,
                UUID.fromString(body.get("customer_id").asString()),
                UUID.fromString(body.get("organization_id").asString()),
                UUID.fromString(body.get("project_id").asString()));
    }

    public record Account(String email, UUID customerId, UUID organizationId, UUID projectId) {}

    /** A new client at {@code base} logged in as the customer {@code email}: that customer's session on another instance. */
    public static Api loggedIn(String base, String email) {
        Api api = new Api(base);
        Response response = api.post("/api/v1/auth/login", Map.of("email", email, "password", PASSWORD));
        if (response.status() != 200) {
            throw new IllegalStateException("login failed: " + response);
        }
        return api;
    }

    /** Creates a key in the active project and answers its raw value. */
    public String createKey(String name, String... permissions) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        if (permissions.length > 0) {
            body.put("permissions", permissions);
        }
        Response response = post("/api/v1/api-keys", body);
        if (response.status() != 201) {
            throw new IllegalStateException("create key failed: " + response);
        }
        return response.json().get("api_key").asString();
    }

    /** Creates a key in the active project and answers its id, for a test that never uses the key itself. */
    public String newKeyId(String name, String... permissions) {
        createKey(name, permissions);
        return keyId(name);
    }

    /**
     * Verifies the signed-in customer's email address as a person does, with the link the mail sandbox received at
     * signup; does nothing when it is verified already.
     */
    public void verifyEmail() {
        JsonNode session = get("/api/v1/session").json();
        if (session.path("email_verified").asBoolean()) {
            return;
        }
        verifyEmail(base, session.get("email").asString());
    }

    /** Verifies an address with the newest verification link the mail sandbox received for it. */
    public static void verifyEmail(String base, String email) {
        String token = Inbox.token(new Inbox(base, email).awaitMessage("Confirm your email address"));
        Response verified = new Api(base).post("/api/v1/auth/verify-email", Map.of("token", token));
        if (verified.status() != 200) {
            throw new IllegalStateException("verify email failed: " + verified);
        }
    }

    /** Starts a checkout of the tier for the organization (verifying the email first) and answers the session id. */
    public String startCheckout(String tier) {
        if (bearer == null) {
            verifyEmail();
        }
        Response response = post("/api/v1/billing/checkout", Map.of("tier", tier));
        if (response.status() != 200) {
            throw new IllegalStateException("checkout failed: " + response);
        }
        return response.json().get("session_id").asString();
    }

    /**
     * Pays a checkout session on the payment sandbox's hosted page with a card of this outcome ({@code succeeded},
     * {@code card_declined}), as a browser posts its form; a paid session answers 303 to the success callback.
     */
    public Response payCheckout(String sessionId, String outcome) {
        return send(
                "POST",
                "/sandbox/checkout/" + sessionId + "/pay",
                "outcome=" + outcome,
                "application/x-www-form-urlencoded");
    }

    /** Follows a redirect to a URL of this server: a GET of the answer's {@code Location}. */
    public Response follow(Response redirect) {
        String location = redirect.header("Location");
        if (location == null) {
            throw new IllegalStateException("not a redirect: " + redirect);
        }
        return get(location.startsWith(base) ? location.substring(base.length()) : location);
    }

    /** The organization's subscription, as {@code GET /api/v1/billing/subscription} answers it. */
    public JsonNode subscription() {
        Response response = get("/api/v1/billing/subscription");
        if (response.status() != 200) {
            throw new IllegalStateException("no subscription: " + response);
        }
        return response.json().get("subscription");
    }

    /**
     * Deletes the organization as its owner confirms it: with its name (the first of the session's organizations) and
     * the {@link #PASSWORD} of a customer this client signed up; the test checks the answer.
     */
    public Response deleteOrganization() {
        String name = get("/api/v1/session").json().at("/organizations/0/name").asString();
        return delete("/api/v1/organization", Map.of("name", name, "current_password", PASSWORD));
    }

    /** Creates a project in the organization and answers its id. */
    public UUID createProject(String name) {
        Response response = post("/api/v1/projects", Map.of("name", name));
        if (response.status() != 201) {
            throw new IllegalStateException("create project failed: " + response);
        }
        return UUID.fromString(response.json().get("id").asString());
    }

    /** A webhook endpoint as its creation answers it: its id, and its signing secret (shown this once). */
    public record WebhookEndpoint(String id, String secret) {}

    /**
     * Creates a webhook endpoint in the organization from this body (its {@code url}, and {@code events} or a
     * {@code description} where the test needs them) and answers it as created.
     */
    public WebhookEndpoint createWebhookEndpoint(Map<String, ?> body) {
        Response response = post("/api/v1/webhook-endpoints", body);
        if (response.status() != 201) {
            throw new IllegalStateException("create webhook endpoint failed: " + response);
        }
        return new WebhookEndpoint(
                response.json().get("id").asString(),
                response.json().get("secret").asString());
    }

    /** The active project's keys, as {@code GET /api/v1/api-keys} lists them. */
    public JsonNode keys() {
        Response response = get("/api/v1/api-keys");
        if (response.status() != 200) {
            throw new IllegalStateException("list keys failed: " + response);
        }
        return response.json().get("keys");
    }

    /** The names of the active project's keys, in the order they are listed. */
    public List<String> keyNames() {
        List<String> names = new ArrayList<>();
        keys().forEach(key -> names.add(key.get("name").asString()));
        return names;
    }

    /** The id of the active project's key with this name. */
    public String keyId(String name) {
        for (JsonNode key : keys()) {
            if (key.get("name").asString().equals(name)) {
                return key.get("id").asString();
            }
        }
        throw new AssertionError("no key named " + name);
    }

    public Response get(String path) {
        return send("GET", path, null, null);
    }

    public Response delete(String path) {
        return send("DELETE", path, null, null);
    }

    /** A {@code DELETE} with a JSON body (a confirmation: a password, a name, a code). */
    public Response delete(String path, Object body) {
        return send("DELETE", path, JSON.writeValueAsString(body), "application/json");
    }

    public Response post(String path) {
        return send("POST", path, null, null);
    }

    public Response post(String path, Object body) {
        return send("POST", path, JSON.writeValueAsString(body), "application/json");
    }

    public Response patch(String path, Object body) {
        return send("PATCH", path, JSON.writeValueAsString(body), "application/json");
    }

    public Response put(String path, Object body) {
        return send("PUT", path, JSON.writeValueAsString(body), "application/json");
    }

    public Response send(String method, String path, @Nullable String body, @Nullable String contentType) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        return exchange(
                method,
                path,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body),
                headers,
                body == null ? "" : body);
    }

    /**
     * Sends any body (e.g. {@code BodyPublishers.ofInputStream}, which goes out chunked) with extra headers; the
     * path is used as is, so it may carry encoded or unusual characters.
     */
    public Response sendRaw(String method, String path, HttpRequest.BodyPublisher body, Map<String, String> headers) {
        return exchange(method, path, body, headers, null);
    }

    /** Sends a request; {@code text} is its body as text when known, for the check of the request. */
    private Response exchange(
            String method,
            String path,
            HttpRequest.BodyPublisher body,
            Map<String, String> headers,
            @Nullable String text) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        request.method(method, body);
        headers.forEach(request::header);
        if (bearer != null && !headers.containsKey("Authorization")) {
            request.header("Authorization", "Bearer " + bearer);
        }
        String xsrf = fixedCsrfToken != null ? fixedCsrfToken : cookie("XSRF-TOKEN");
        if (echoCsrf && xsrf != null) {
            request.header("X-XSRF-TOKEN", xsrf);
        }
        HttpRequest built = request.build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (path.startsWith("/api/")) {
            ApiDocument.of(base).check(method, path, built.headers().map(), text, response);
        }
        return new Response(response.statusCode(), response);
    }

    public @Nullable String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse(null);
    }

    /** Puts a cookie into the jar, as if the server had set it (e.g. an old session id). */
    public void setCookie(String name, String value) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath("/");
        cookie.setDomain(URI.create(base).getHost());
        cookie.setVersion(0);
        cookies.getCookieStore().add(URI.create(base), cookie);
    }

    public void removeCookie(String name) {
        cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals(name))
                .toList()
                .forEach(c -> cookies.getCookieStore().remove(null, c));
    }

    public void clearCookies() {
        cookies.getCookieStore().removeAll();
    }
}
