package com.editlock.listener;

import java.io.IOException;
import java.util.Locale;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.FilterChainEvent;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpContent;
import org.glassfish.grizzly.http.HttpEvents;
import org.glassfish.grizzly.http.HttpHeader;
import org.glassfish.grizzly.http.HttpRequestPacket;
import org.glassfish.grizzly.http.Method;

/**
 * Right after the HTTP codec, ahead of HTTP/2: a plain-text request that asks to switch to HTTP/2
 * ({@code Upgrade: h2c}) loses that wish and is answered as the HTTP/1.1 request it also is, its
 * body read by its own length; a plain-text HTTP/2 preface ({@code PRI * HTTP/2.0}) closes the
 * connection. HTTP/2 over TLS is untouched. Every header or body the codec hands on stops the
 * connection's {@link HeaderClock}.
 */
final class CleartextGuard extends BaseFilter {

    private final HeaderClock clock;

    CleartextGuard(HeaderClock clock) {
        this.clock = clock;
    }

    static boolean asksForH2c(HttpHeader header) {
        String upgrade = header.getUpgrade();
        return header.isRequest()
                && !header.isSecure()
                && upgrade != null
                && upgrade.toLowerCase(Locale.ROOT).contains("h2c");
    }

    @Override
    public NextAction handleEvent(FilterChainContext ctx, FilterChainEvent event)
            throws IOException {
        if (event.type() == HttpEvents.IncomingHttpUpgradeEvent.TYPE
                && asksForH2c(((HttpEvents.IncomingHttpUpgradeEvent) event).getHttpHeader())) {
            // Read its body as HTTP/1.1 content (framed by its length), as for any request; HTTP/2
            // never hears of it.
            ((HttpEvents.IncomingHttpUpgradeEvent) event)
                    .getHttpHeader()
                    .setIgnoreContentModifiers(false);
            return ctx.getStopAction();
        }
        return ctx.getInvokeAction();
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Object message = ctx.getMessage();
        if (!(message instanceof HttpContent content)) {
            return ctx.getInvokeAction();
        }
        Connection<?> connection = ctx.getConnection();
        clock.progress(connection);
        HttpHeader header = content.getHttpHeader();
        if (!header.isRequest()) {
            return ctx.getInvokeAction();
        }
        if (!header.isSecure() && Method.PRI.equals(((HttpRequestPacket) header).getMethod())) {
            connection.closeSilently();
            return ctx.getStopAction();
        }
        if (asksForH2c(header)) {
            header.getHeaders().removeHeader("Upgrade");
            header.getHeaders().removeHeader("HTTP2-Settings");
            header.getUpgradeDC().recycle();
        } else if (header.isUpgrade()) {
            clock.untime(connection);
        }
        return ctx.getInvokeAction();
    }
}
