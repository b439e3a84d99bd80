package org.latencylab.engine.client;

import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;

import java.io.IOException;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * A response body that stamps {@link TimingListener#firstByte} on the first read that returns bytes.
 *
 * <p>It sits between the HTTP stack and the protocol parser, so the stamp is taken when body bytes reach
 * the client code (after transport decoding), before any framing or JSON work. Not thread-safe: a body is read
 * by one thread.
 */
final class FirstByteBody extends FilteredBody {
    FirstByteBody(ResponseBody delegate, TimingListener timing) {
        super(delegate, new ForwardingSource(delegate.source()) {
            @Override
            public long read(Buffer sink, long byteCount) throws IOException {
                long n = super.read(sink, byteCount);
                if (n > 0 && timing.firstByte == UNSET) {
                    timing.firstByte = System.nanoTime();
                }
                return n;
            }
        });
    }
}
