package org.latencylab.engine.client;

import okhttp3.Headers;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long to wait before a retry.
 *
 * <p>A server's own hint wins: {@code retry-after-ms} (milliseconds, sent by OpenAI and Azure OpenAI), else
 * {@code Retry-After} as delay-seconds or HTTP-date (RFC 9110 section 10.2.3). Without a hint the delay is
 * exponential backoff with "full jitter" (uniform in {@code [0, base * 2^(retry-1)]}), the scheme recommended
 * in the AWS Architecture Blog post "Exponential Backoff And Jitter" (Marc Brooker, 2015). Stateless;
 * thread-safe.
 */
final class RetryDelays {
    /** Upper bound on the exponent so the backoff cannot overflow (2^20 * base). */
    private static final int MAX_EXPONENT = 20;

    private RetryDelays() {
    }

    /**
     * @param headers  response headers of the refused attempt
     * @param nowMillis wall-clock now, epoch milliseconds (for HTTP-date values)
     * @return the server's requested delay in nanoseconds (>= 0), or -1 when it sent no usable hint
     */
    static long serverHintNanos(Headers headers, long nowMillis) {
        String ms = headers.get("retry-after-ms");
        if (ms != null) {
            try {
                double v = Double.parseDouble(ms.strip());
                if (v >= 0 && Double.isFinite(v)) {
                    return (long) (v * 1_000_000L);
                }
            } catch (NumberFormatException ignored) {
                // fall through to Retry-After
            }
        }
        String ra = headers.get("Retry-After");
        if (ra == null) {
            return -1;
        }
        String s = ra.strip();
        try {
            double seconds = Double.parseDouble(s);
            return seconds >= 0 && Double.isFinite(seconds) ? (long) (seconds * 1_000_000_000L) : -1;
        } catch (NumberFormatException notSeconds) {
            try {
                long at = ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
                return Math.max(0, at - nowMillis) * 1_000_000L;
            } catch (DateTimeParseException notDate) {
                return -1;
            }
        }
    }

    /**
     * @param base  first backoff delay
     * @param retry retry number, from 1
     * @return a uniformly random delay in {@code [0, base * 2^(retry-1)]}, nanoseconds
     */
    static long backoffNanos(Duration base, int retry) {
        long cap = base.toNanos() << Math.min(MAX_EXPONENT, Math.max(0, retry - 1));
        return cap <= 0 ? 0 : ThreadLocalRandom.current().nextLong(cap + 1);
    }
}
