package com.kvportal.sandbox.api;

import static org.springframework.http.HttpMethod.DELETE;
import static org.springframework.http.HttpMethod.GET;
import static org.springframework.http.HttpMethod.HEAD;
import static org.springframework.http.HttpMethod.POST;

import com.kvportal.sandbox.checkout.StripeCheckout;
import com.kvportal.sandbox.customer.StripeCustomers;
import com.kvportal.sandbox.discount.StripeDiscounts;
import com.kvportal.sandbox.events.EventOutbox;
import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.invoice.StripeRefunds;
import com.kvportal.sandbox.portal.StripePortalSessions;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.subscription.StripePlanChanges;
import com.kvportal.sandbox.subscription.StripeSubscriptionSchedules;
import com.kvportal.sandbox.subscription.StripeSubscriptions;
import com.stripe.model.StripeCollection;
import com.stripe.model.StripeObject;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.PathContainer;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The part of Stripe's REST API that the service uses, at Stripe's paths under {@code /sandbox/stripe}: one route per
 * endpoint, read like Stripe's API reference (its method, its path, what answers it). Any {@code sk_test_} key
 * ({@link StripeCallResolver}), Stripe's form encoding, JSON shapes and errors ({@link StripeErrorAdvice}),
 * {@code expand}, and {@code Idempotency-Key} ({@link StripeAnswers}: a POST runs once per key; a GET, or a DELETE,
 * which Stripe does not key, is answered as it reads).
 */
@RestController
@RequestMapping(StripeApiController.PREFIX)
public class StripeApiController {

    public static final String PREFIX = "/sandbox/stripe";

    /** What answers an endpoint: from the path's {@code {id}} (null on a path without one) and the call's parameters. */
    @FunctionalInterface
    interface Action<T> {
        T answer(@Nullable String id, StripeParams params);
    }

    /** What answers an endpoint of a collection (create, list): from the call's parameters. */
    @FunctionalInterface
    interface OfCollection<T> {
        T answer(StripeParams params);
    }

    /** What answers an endpoint of one object that takes no parameters (retrieve, expire): from its id. */
    @FunctionalInterface
    interface OfObject<T> {
        T answer(String id);
    }

    /** An endpoint: its HTTP method, its path below {@link #PREFIX}, and how it answers. */
    private record Route(
            HttpMethod method,
            PathPattern path,
            BiFunction<StripeCall, @Nullable String, ResponseEntity<String>> answer) {

        /** The path's {@code {id}} if this route takes the call (null without one), else no match. */
        PathPattern.@Nullable PathMatchInfo match(StripeCall call) {
            HttpMethod asked = HttpMethod.valueOf(call.method());
            return method.equals(asked == HEAD ? GET : asked)
                    ? path.matchAndExtract(PathContainer.parsePath(call.path()))
                    : null;
        }

        /**
         * Marks the request with the route's path pattern, as a handler mapping marks the pattern it matched: the
         * request's metrics and traces name the endpoint ({@code uri} {@code /sandbox/stripe/v1/customers/{id}}).
         */
        void matched(HttpServletRequest request) {
            String pattern = PREFIX + path.getPatternString();
            request.setAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE, pattern);
            ServerHttpObservationFilter.findObservationContext(request)
                    .ifPresent(context -> context.setPathPattern(pattern));
        }
    }

    private final StripeAnswers answers;
    private final List<Route> routes;

    StripeApiController(
            StripeAnswers answers,
            StripeCustomers customers,
            StripeCheckout checkout,
            StripeSubscriptions subscriptions,
            StripePlanChanges planChanges,
            StripeSubscriptionSchedules schedules,
            StripePortalSessions portalSessions,
            StripeInvoices invoices,
            StripeRefunds refunds,
            StripeDiscounts discounts,
            SandboxObjects objects,
            StripeJson json,
            EventOutbox outbox) {
        this.answers = answers;
        this.routes = List.of(
                // customers
                route(POST, "/v1/customers", customers::create),
                route(GET, "/v1/customers/{id}", customers::retrieve),
                route(POST, "/v1/customers/{id}", customers::update),
                // checkout and portal sessions
                route(POST, "/v1/checkout/sessions", checkout::create),
                route(GET, "/v1/checkout/sessions/{id}", checkout::retrieve),
                route(POST, "/v1/checkout/sessions/{id}/expire", checkout::expire),
                route(POST, "/v1/billing_portal/sessions", portalSessions::create),
                // subscriptions
                route(GET, "/v1/subscriptions/{id}", subscriptions::retrieve),
                route(POST, "/v1/subscriptions/{id}", subscriptions::update),
                route(DELETE, "/v1/subscriptions/{id}", subscriptions::cancel),
                // subscription schedules
                route(POST, "/v1/subscription_schedules", schedules::create),
                route(GET, "/v1/subscription_schedules/{id}", schedules::retrieve),
                route(POST, "/v1/subscription_schedules/{id}", schedules::update),
                route(POST, "/v1/subscription_schedules/{id}/release", schedules::release),
                route(POST, "/v1/subscription_schedules/{id}/cancel", schedules::cancel),
                // invoices, refunds, invoice items
                route(POST, "/v1/invoices", invoices::createInvoice),
                route(POST, "/v1/invoices/create_preview", planChanges::preview),
                route(GET, "/v1/invoices/{id}", invoices::retrieve),
                route(POST, "/v1/invoices/{id}/finalize", invoices::finalizeInvoice),
                route(POST, "/v1/refunds", refunds::create),
                route(GET, "/v1/refunds/{id}", refunds::retrieve),
                route(POST, "/v1/invoiceitems", invoices::createInvoiceItem),
                exactly(DELETE, "/v1/invoiceitems/{id}", (id, params) -> {
                    invoices.deleteItem(id);
                    return StripeJson.GSON.toJson(Map.of("id", id, "object", "invoiceitem", "deleted", true));
                }),
                route(GET, "/v1/invoiceitems/{id}", invoices::retrieveItem),
                // coupons and promotion codes
                route(POST, "/v1/coupons", discounts::createCoupon),
                route(GET, "/v1/coupons/{id}", discounts::retrieveCoupon),
                route(POST, "/v1/promotion_codes", discounts::createPromotionCode),
                route(GET, "/v1/promotion_codes/{id}", discounts::retrievePromotionCode),
                route(POST, "/v1/promotion_codes/{id}", discounts::updatePromotionCode),
                // the lists: the filters and the limit each reads from the query
                list("/v1/subscriptions", p -> subscriptions.list(p.text("customer"), p.text("status"), p.limit())),
                list(
                        "/v1/invoices",
                        p -> invoices.list(p.text("customer"), p.text("subscription"), p.text("status"), p.limit())),
                list("/v1/invoice_payments", p -> refunds.invoicePayments(p.text("invoice"), p.limit())),
                list("/v1/refunds", p -> refunds.list(p.text("payment_intent"), p.text("charge"), p.limit())),
                list(
                        "/v1/invoiceitems",
                        p -> invoices.listItems(p.text("customer"), p.text("starting_after"), p.limit())),
                list("/v1/coupons", p -> discounts.listCoupons(p.limit())),
                list("/v1/promotion_codes", discounts::listPromotionCodes),
                // prices
                route(GET, "/v1/prices/{id}", (String id) -> objects.price(id)
                        .map(json::price)
                        .orElseThrow(() -> StripeError.noSuch("price", id, "id"))),
                // events: the bodies exactly as they were delivered; the list newest first, its type a type or a
                // group (invoice.*)
                exactly(GET, "/v1/events", (id, params) -> events(outbox, params)),
                exactly(GET, "/v1/events/{id}", (id, params) -> outbox.payload(id)
                        .orElseThrow(() -> StripeError.noSuch("event", id, "id"))));
    }

    /**
     * Every call under {@link #PREFIX}: the route of its method and path answers it; any other path or method is
     * Stripe's 404 for an unrecognized URL.
     */
    @RequestMapping("/**")
    ResponseEntity<String> answer(StripeCall call, HttpServletRequest request) {
        for (Route route : routes) {
            PathPattern.PathMatchInfo match = route.match(call);
            if (match != null) {
                route.matched(request);
                return route.answer().apply(call, match.getUriVariables().get("id"));
            }
        }
        throw StripeError.unrecognizedUrl(call.method(), call.path());
    }

    /**
     * An endpoint that answers a Stripe object: a POST runs once per idempotency key; a GET, or a DELETE (which Stripe
     * does not key), is answered as it reads.
     */
    private Route route(HttpMethod method, String path, Action<? extends StripeObject> action) {
        return new Route(method, PathPatternParser.defaultInstance.parse(path), (call, id) -> {
            Supplier<StripeObject> object = () -> action.answer(id, call.params());
            return method == POST ? answers.post(call, object) : answers.read(call, object);
        });
    }

    private Route route(HttpMethod method, String path, OfCollection<? extends StripeObject> action) {
        return route(method, path, (id, params) -> action.answer(params));
    }

    /** A list of a collection: a page of it, newest first, its {@code url} the endpoint's path. */
    private Route list(String path, OfCollection<? extends StripeCollection<?>> action) {
        return route(GET, path, action);
    }

    private Route route(HttpMethod method, String path, OfObject<? extends StripeObject> action) {
        return route(method, path, (id, params) -> action.answer(Objects.requireNonNull(id)));
    }

    /** An endpoint that answers a body written as it is ({@link StripeAnswers#exactly}). */
    private Route exactly(HttpMethod method, String path, Action<String> action) {
        return new Route(
                method,
                PathPatternParser.defaultInstance.parse(path),
                (call, id) -> answers.exactly(action.answer(id, call.params())));
    }

    private static String events(EventOutbox outbox, StripeParams params) {
        int limit = params.limit();
        List<String> bodies = outbox.newest(params.text("type"), limit + 1);
        String data = bodies.stream().limit(limit).collect(Collectors.joining(","));
        return "{\"object\":\"list\",\"data\":[" + data + "],\"has_more\":" + (bodies.size() > limit)
                + ",\"url\":\"/v1/events\"}";
    }
}
