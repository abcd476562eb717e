/**
 * The lock API: the only door to the {@code app_lock} table is {@link
 * com.editlock.lock.LockManager}, and the locks of an HTTP session end with it through {@link
 * com.editlock.lock.LockRemover}. Screens, the JSON API and services use these types; the
 * implementation lives in {@code lock.internal}, which this package never imports.
 */
package com.editlock.lock;
