/**
 * How locks are kept: the JDBC store behind {@link com.editlock.lock.LockManager} and {@link
 * com.editlock.lock.LockAdministration}, its feed of changes to every node, the sweep timer, the
 * interceptors behind {@code @RequiresLock} and {@code @RetryTransientFailures}, metrics and
 * readiness. Nothing outside this package imports it (kept by {@code LayeringTest}); CDI wires it
 * in.
 */
package com.editlock.lock.internal;
