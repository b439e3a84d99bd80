package org.latencylab.engine.client;

import org.latencylab.engine.api.Resend;

/** Whether an attempt may be retried, and the server's delay hint (ns, or -1). */
record AttemptResult(boolean retryable, long serverHintNanos) {
    static final AttemptResult FINAL = new AttemptResult(false, -1);
    /** OkHttp's path: send once more on a new connection ({@link Resend}); never leaves {@link OkHttpPath}'s loop. */
    static final AttemptResult RESEND = new AttemptResult(false, -2);
}
