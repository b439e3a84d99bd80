package org.latencylab.engine.client;

import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;

import java.io.IOException;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * A response body that stamps {@link TimingListener#firstByte} on the first read that returns bytes.
 *
 * <p>It sits between the HTTP stack and the protocol parser, so the stamp is taken when body bytes reach
 * the client code (after transport decoding), before any framing or JSON work. Not thread-safe: a body is read
 * by one thread.
 */
final class FirstByteBody extends ResponseBody {
    private final ResponseBody delegate;
    private final BufferedSource source;

    FirstByteBody(ResponseBody delegate, TimingListener timing) {
        this.delegate = delegate;
        this.source = Okio.buffer(new ForwardingSource(delegate.source()) {
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

    @Override
    public MediaType contentType() {
        return delegate.contentType();
    }

    @Override
    public long contentLength() {
        return delegate.contentLength();
    }

    @Override
    public BufferedSource source() {
        return source;
    }

    @Override
    public void close() {
        delegate.close();
    }
}
