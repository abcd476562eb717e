package com.editlock.lock;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a transactional method again, a bounded number of times, when the database aborted its
 * transaction as a deadlock victim or for a serialization failure, instead of showing the user an
 * error for a conflict that is gone a moment later. It acts only where the transaction begins
 * (outside {@code @Transactional}): a method called inside someone else's transaction leaves the
 * retry to that transaction's outermost method.
 */
@Inherited
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface RetryTransientFailures {}
