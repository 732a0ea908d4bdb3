package com.kvportal.apikey.cache;

import com.kvportal.usage.StorageStanding;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes an {@code organization.changed} into the invalidation log when this instance sees an organization's standing
 * change (its plan, storage, allowance, writes allowed): holders outside the service drop that organization's keys
 * and ask again, so that verify's storage fields reach them within about two refreshes. Nothing waits for it. Every
 * instance writes its own once it refreshed, so that a holder that asks again after the last of them learns the new
 * standing from any instance.
 */
@Component
class OrganizationChanges implements StorageStanding.Watcher {

    private final InvalidationLog log;
    private final TransactionTemplate transaction;

    OrganizationChanges(InvalidationLog log, PlatformTransactionManager transactions) {
        this.log = log;
        this.transaction = new TransactionTemplate(transactions);
    }

    @Override
    public void standingsChanged(Set<UUID> organizationIds) {
        // one transaction: the sequence row is locked once, and the entries commit together
        transaction.executeWithoutResult(status -> organizationIds.forEach(log::appendOrganization));
    }
}
