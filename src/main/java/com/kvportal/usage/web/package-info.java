/**
 * The usage endpoints: reports with their token, the organization's usage, limits and billed periods, the
 * reconciliation actuator endpoint. Internal to the usage module.
 */
@NullMarked
package com.kvportal.usage.web;

import org.jspecify.annotations.NullMarked;
