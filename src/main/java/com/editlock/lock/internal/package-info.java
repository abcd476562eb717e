/**
 * How locks are kept: the JDBC store behind {@link com.editlock.lock.LockManager}, the session listener
 * ({@code LockRemover}) and the sweep timer. Nothing outside {@code com.editlock.lock} uses this package.
 */
package com.editlock.lock.internal;
