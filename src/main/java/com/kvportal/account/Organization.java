package com.kvportal.account;

import java.util.UUID;

/** An organization with the email of its owner, e.g. for the payment provider's customer record. */
public record Organization(UUID id, String name, String ownerEmail) {}
