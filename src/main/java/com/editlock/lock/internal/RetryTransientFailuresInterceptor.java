package com.editlock.lock.internal;

import com.editlock.lock.RetryTransientFailures;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Carries out {@link RetryTransientFailures}. Its priority places it outside {@code @Transactional}
 * (which runs at {@code PLATFORM_BEFORE + 200}), so every attempt is a fresh transaction.
 * MicroProfile Fault Tolerance's {@code @Retry} would run inside the transaction, retrying in a
 * transaction PostgreSQL has already aborted.
 */
@RetryTransientFailures
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 100)
public class RetryTransientFailuresInterceptor {

    @Resource(lookup = "java:comp/TransactionSynchronizationRegistry")
    TransactionSynchronizationRegistry transactions;

    @AroundInvoke
    Object retry(InvocationContext call) throws Exception {
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            return call.proceed(); // not where the transaction begins: its outermost method retries
        }
        return TransientFailures.retry(call::proceed);
    }
}
