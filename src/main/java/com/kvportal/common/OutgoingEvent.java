package com.kvportal.common;

import java.util.UUID;

/**
 * Something a customer's webhook endpoints hear of (CONTRACT 15), published as a Spring application event inside the
 * transaction of the change it tells of: {@code events.publishEvent(new OutgoingEvent(organizationId,
 * "usage.threshold_crossed", data))}. The webhooks feature writes it, and a delivery per subscribed endpoint, in that
 * transaction, so the event goes out if and only if the change commits. Any feature may publish one without
 * depending on the webhooks feature.
 *
 * @param type a type of the contract's list ({@code usage.writes_refused}, {@code member.joined}, ...)
 * @param data the object concerned as the API shows it (serialized with the API's JSON settings); never a raw key,
 *     digest, token or password
 */
public record OutgoingEvent(UUID organizationId, String type, Object data) {}
