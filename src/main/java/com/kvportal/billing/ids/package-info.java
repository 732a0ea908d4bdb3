/**
 * The payment provider's ids of the objects billing deals in (customer, subscription, invoice, invoice item), typed
 * so that one is never passed for another nor for one of our UUIDs; each refuses a value without its type's prefix.
 * Part of billing's public face (its named interface {@code ids}): its events and ports carry them, and a module that
 * reads them declares {@code billing :: ids}. They turn into text only where they are written: SQL, JSON, a log.
 */
@NamedInterface("ids")
@NullMarked
package com.kvportal.billing.ids;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.NamedInterface;
