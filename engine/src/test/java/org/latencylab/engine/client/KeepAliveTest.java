package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.ErrorParty;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code Keep-Alive} field's limits as servers send them, and whose failure each error is. */
class KeepAliveTest {
    @Test
    void timeoutAndMaxAreReadWithAMarginAndNonsenseSaysNothing() {
        KeepAlive k = KeepAlive.parse("timeout=5, max=100");
        assertThat(k.max()).isEqualTo(100);
        assertThat(k.idleLimitNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(4));
        assertThat(KeepAlive.parse("timeout=1").idleLimitNanos()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(500));
        assertThat(KeepAlive.parse("Max=3").max()).isEqualTo(3);
        assertThat(KeepAlive.parse("max=3").idleLimitNanos()).isEqualTo(-1);
        assertThat(KeepAlive.parse("timeout=soon, max=")).isEqualTo(KeepAlive.NONE);
        assertThat(KeepAlive.parse(null)).isEqualTo(KeepAlive.NONE);
        assertThat(Http1Codec.closes("keep-alive, Close")).isTrue();
        assertThat(Http1Codec.closes("keep-alive")).isFalse();
    }

    @Test
    void eachErrorSaysWhoseItIs() {
        assertThat(ErrorParty.of(ErrorKind.TRUNCATED, "connection closed before the end marker")).isEqualTo(
                ErrorParty.SERVER);
        assertThat(ErrorParty.of(ErrorKind.TIMEOUT, "connect timeout: no connection within 10000 ms"))
                .isEqualTo(ErrorParty.NETWORK);
        assertThat(ErrorParty.of(ErrorKind.TIMEOUT, "first-byte timeout")).isEqualTo(ErrorParty.SERVER);
        assertThat(ErrorParty.of(ErrorKind.CONNECTION, "no response: connection refused")).isEqualTo(
                ErrorParty.NETWORK);
        assertThat(ErrorParty.of(ErrorKind.CONNECTION, "no response: BindException: Cannot assign requested address"))
                .isEqualTo(ErrorParty.CLIENT);
        assertThat(ErrorParty.of(ErrorKind.PROTOCOL, "request for endpoint 'x' could not be built: bad"))
                .isEqualTo(ErrorParty.CLIENT);
        assertThat(ErrorParty.of(ErrorKind.RATE_LIMITED, null)).isEqualTo(ErrorParty.SERVER);
    }
}
