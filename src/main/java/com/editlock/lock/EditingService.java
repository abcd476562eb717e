package com.editlock.lock;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a service that loads records for editing and writes them. Every public method of such a
 * service must carry {@link RequiresLock} or {@link ReadsOnly}; a build-time test fails for any
 * that carries neither, and for any method whose name says it writes that is not
 * {@code @RequiresLock(WRITE)}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface EditingService {}
