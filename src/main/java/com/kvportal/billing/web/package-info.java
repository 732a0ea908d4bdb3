/**
 * The billing API (plans, subscription, invoices, checkout, portal, cancel) and its problems. Internal to the billing
 * module.
 */
@NullMarked
package com.kvportal.billing.web;

import org.jspecify.annotations.NullMarked;
