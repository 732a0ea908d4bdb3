package com.kvportal.account.credentials;

record EmailConfirmed(String email) {}
