package com.kvportal.account.teams;

import java.util.UUID;

record Deleted(UUID id, String name) {}
