// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs a reading of the system on a daemon thread and gives up waiting after a bound. */
final class Bounded {
    private Bounded() {}

    /**
     * Runs {@code work} and waits for it at most {@code bound}.
     *
     * @param what what is read, for the timeout's message
     * @return what the work returned
     * @throws Exception what the work threw, or {@link TimeoutException} when the bound passed (the work is
     *     interrupted and left to end on its own thread, which never keeps the process alive)
     */
    static <T> T call(String what, Duration bound, Callable<T> work) throws Exception {
        ExecutorService one = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "proofmode-" + what);
            t.setDaemon(true);
            return t;
        });
        try {
            Future<T> f = one.submit(work);
            try {
                return f.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                throw new TimeoutException("no answer from " + what + " within " + bound.toMillis() + " ms");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception x ? x : e;
            }
        } finally {
            one.shutdownNow();
        }
    }
}
