package com.kvportal.billing;

import com.kvportal.common.WireName;

/** A plan's tier, written in lower case on the wire and in the database; cheapest first. */
public enum Tier implements WireName {
    FREE,
    PRO,
    TEAM;
}
