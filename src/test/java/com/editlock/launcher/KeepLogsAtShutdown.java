package com.editlock.launcher;

import java.util.logging.LogManager;

/**
 * The JVM's log manager for a node, less one habit: the JDK's own shutdown hook resets logging at
 * the signal, closing every handler, while Payara Micro serves on for its shutdown grace and then
 * undeploys — so everything a stopping node had to say (a request that failed in its last seconds,
 * an undeploy error) was lost. This manager ignores that one reset; the handlers write each line as
 * it comes and the process's end closes them. A node runs with it when {@link PayaraNode} starts it
 * ({@code -Djava.util.logging.manager}, the class on the boot class path, where the JVM looks for
 * it before any class loader of the server exists).
 */
public final class KeepLogsAtShutdown extends LogManager {

    @Override
    public void reset() {
        if (Thread.currentThread().getClass().getEnclosingClass() == LogManager.class) {
            return; // the JDK's shutdown hook (LogManager's own Cleaner thread)
        }
        super.reset();
    }
}
