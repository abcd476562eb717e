/**
 * The lock API: the only door to the {@code app_lock} table is {@link com.editlock.lock.LockManager}.
 * Screens, the JSON API and services use these types; the implementation lives in {@code lock.internal}.
 */
package com.editlock.lock;
