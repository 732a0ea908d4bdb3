package com.kvportal.billing;

/** A plan's tier, written in lower case on the wire and in the database. */
public enum Tier implements WireName {
    FREE,
    PRO;
}
