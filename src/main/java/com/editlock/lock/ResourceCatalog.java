package com.editlock.lock;

/**
 * Tells the lock manager which aggregate a resource belongs to. Implemented by the domain
 * (configurators), so the lock core never needs to know the domain's tables.
 */
public interface ResourceCatalog {

    /**
     * The key of the aggregate that contains {@code key} ({@code key} itself for an aggregate).
     *
     * @throws UnknownResourceException when the record does not exist
     */
    LockKey aggregateOf(LockKey key);
}
