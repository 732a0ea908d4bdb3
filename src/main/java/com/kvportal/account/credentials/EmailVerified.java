package com.kvportal.account.credentials;

record EmailVerified(String email, boolean emailVerified) {}
