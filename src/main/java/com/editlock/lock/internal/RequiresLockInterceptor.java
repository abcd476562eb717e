package com.editlock.lock.internal;

import com.editlock.lock.Lock;
import com.editlock.lock.LockManager;
import com.editlock.lock.LockNotHeldException;
import com.editlock.lock.LockRequest;
import com.editlock.lock.RequiresLock;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;

/**
 * Carries out {@link RequiresLock}. Its priority places it inside {@code @Transactional} (which
 * runs at {@code PLATFORM_BEFORE + 200}), so a write's verification and the write share one
 * transaction and the verified lock cannot be released before that transaction ends.
 */
@RequiresLock
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class RequiresLockInterceptor {

    @Inject LockManager locks;

    @AroundInvoke
    Object guard(InvocationContext call) throws Exception {
        Method method = call.getMethod();
        RequiresLock binding = method.getAnnotation(RequiresLock.class);
        if (binding == null) {
            binding = method.getDeclaringClass().getAnnotation(RequiresLock.class);
        }
        RequiresLock.Access access = binding == null ? RequiresLock.Access.WRITE : binding.value();
        Object[] args = call.getParameters();
        if (access == RequiresLock.Access.LOAD_FOR_EDIT) {
            int i = indexOf(method, LockRequest.class);
            LockRequest request = (LockRequest) args[i];
            Lock lock =
                    locks.acquire(request.key(), request.mode(), request.owner(), request.view());
            args[i] = request.withGrant(lock);
            call.setParameters(args);
            return call.proceed();
        }
        Lock held = (Lock) args[indexOf(method, Lock.class)];
        if (held == null) {
            throw new LockNotHeldException(
                    null,
                    "You are not editing this record (you hold no lock on it), so "
                            + "nothing was saved. Open it for editing first.");
        }
        locks.verify(held.key(), held.ownerId(), held.fencingToken());
        return call.proceed();
    }

    private static int indexOf(Method method, Class<?> type) {
        int found = -1;
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == type) {
                if (found >= 0) {
                    throw new IllegalStateException(
                            method
                                    + " has two "
                                    + type.getSimpleName()
                                    + " parameters; @RequiresLock needs exactly one.");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw new IllegalStateException(
                    method
                            + " is @RequiresLock but has no "
                            + type.getSimpleName()
                            + " parameter to find its target in.");
        }
        return found;
    }
}
