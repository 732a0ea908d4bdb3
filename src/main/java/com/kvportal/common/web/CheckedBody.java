package com.kvportal.common.web;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A request body that is checked as it is read, byte by byte, by the filters that refuse a body only a reader can
 * judge (one larger than its limit, text that is not valid Unicode): the check throws an {@link IOException} while
 * the controller reads, and nothing has acted on the body yet.
 */
final class CheckedBody {

    private CheckedBody() {}

    /** The request with its body read through the stream that {@code check} puts around it. */
    static HttpServletRequest of(HttpServletRequest request, UnaryOperator<ServletInputStream> check) {
        return new HttpServletRequestWrapper(request) {
            private @Nullable ServletInputStream stream;

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (stream == null) {
                    stream = check.apply(super.getInputStream());
                }
                return stream;
            }
        };
    }

    /** A body stream that shows every byte to {@link #check(int)} before the reader gets it. */
    abstract static class Stream extends ServletInputStream {
        private final ServletInputStream delegate;

        Stream(ServletInputStream delegate) {
            this.delegate = delegate;
        }

        /** Checks the next byte of the body; throws to refuse the body. */
        abstract void check(int b) throws IOException;

        /** Checks {@code length} bytes just read into {@code buffer}; by default one by one. */
        void check(byte[] buffer, int offset, int length) throws IOException {
            for (int i = 0; i < length; i++) {
                check(buffer[offset + i] & 0xFF);
            }
        }

        /** Called when the body has ended; throws to refuse a body that ends where it may not. */
        void end() throws IOException {}

        @Override
        public int read() throws IOException {
            int b = delegate.read();
            if (b < 0) {
                end();
            } else {
                check(b);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = delegate.read(buffer, offset, length);
            if (n < 0) {
                end();
            } else {
                check(buffer, offset, n);
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
