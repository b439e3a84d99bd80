package org.latencylab.engine.client;

import okhttp3.MediaType;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.Okio;
import okio.Source;

/**
 * A response body whose bytes pass through a filtering {@link Source} (a timing stamp, a framing repair) while
 * content type, length and closing stay those of the original body. Not thread-safe: a body is read by one thread.
 */
class FilteredBody extends ResponseBody {
    private final ResponseBody delegate;
    private final BufferedSource source;

    /**
     * @param delegate the original body (closed with this one)
     * @param filtered a source reading from {@code delegate.source()}
     */
    FilteredBody(ResponseBody delegate, Source filtered) {
        this.delegate = delegate;
        this.source = Okio.buffer(filtered);
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
