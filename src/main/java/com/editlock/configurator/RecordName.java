package com.editlock.configurator;

import com.editlock.lock.LockKey;

/**
 * What a person calls a lockable record: the configurator's name and, for an item's filters, the
 * item's name. Screens put it into words in the reader's language ("Road bike", "Road bike ›
 * Variables", "Road bike › Frame › Filters").
 *
 * @param key the record
 * @param configurator the configurator's name ({@code null} if it no longer exists)
 * @param item the item's name, for {@link LockKey.Kind#ITEM_FILTERS} ({@code null} otherwise)
 */
public record RecordName(LockKey key, String configurator, String item) {}
