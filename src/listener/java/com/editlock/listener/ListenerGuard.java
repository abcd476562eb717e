package com.editlock.listener;

import java.util.logging.Logger;
import org.glassfish.grizzly.extras.addons.WebSocketAddOnProvider;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.http.server.NetworkListener;

/**
 * Payara's HTTP listener, made to refuse what a hostile client can do to it before the application
 * sees a request: a header that trickles in (closed after {@link HeaderClock#limitSeconds()}), and
 * HTTP/2 over plain text ({@code Upgrade: h2c} answered as the HTTP/1.1 request it also is; a
 * prior-knowledge {@code PRI *} preface closed). Payara has no setting for either: its one switch
 * for HTTP/2 covers TLS too, and the listener's idle timer starts again with every byte.
 *
 * <p>Payara builds each HTTP listener's filter chain and then asks HK2 for the add-on named {@code
 * websocket}. This class is that add-on, ranked above Payara's own: it sets up WebSockets exactly
 * as Payara's does (it is that class), then puts {@link HeaderClock} before the HTTP codec and
 * {@link CleartextGuard} right after it, ahead of HTTP/2. It lives in its own jar, given to Payara
 * Micro with {@code --addlibs}; the application never sees it.
 */
public class ListenerGuard extends WebSocketAddOnProvider {

    private static final Logger LOG = Logger.getLogger(ListenerGuard.class.getName());

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        super.setup(listener, builder);
        int codec = builder.indexOfType(org.glassfish.grizzly.http.HttpServerFilter.class);
        if (codec < 0) {
            return; // not an HTTP chain
        }
        int limit = HeaderClock.limitSeconds();
        HeaderClock clock = new HeaderClock(limit);
        builder.add(codec, clock);
        builder.add(codec + 2, new CleartextGuard(clock));
        LOG.info(
                "Editlock listener guard: a request's header must arrive within "
                        + limit
                        + " s; HTTP/2 over plain text (h2c) is refused");
    }
}
