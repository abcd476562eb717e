/**
 * The lock API: the doors to the {@code app_lock} table are {@link com.editlock.lock.LockManager}
 * (the protocol, for screens, the API and services) and {@link
 * com.editlock.lock.LockAdministration} (find, force-release, the history, for administrators), and
 * the locks of an HTTP session end with it through {@link com.editlock.lock.LockRemover}. Screens,
 * the JSON API and services use these types; the implementation lives in {@code lock.internal},
 * which this package never imports.
 */
package com.editlock.lock;
