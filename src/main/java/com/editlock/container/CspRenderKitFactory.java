package com.editlock.container;

import com.editlock.security.RequestGuard;
import jakarta.faces.context.FacesContext;
import jakarta.faces.context.ResponseWriter;
import jakarta.faces.context.ResponseWriterWrapper;
import jakarta.faces.render.RenderKit;
import jakarta.faces.render.RenderKitFactory;
import jakarta.faces.render.RenderKitWrapper;
import java.io.Writer;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts the request's Content-Security-Policy nonce on every {@code <script>} Faces writes (its own
 * library and {@code h:commandScript}), so the policy can forbid every other inline script. Pages
 * themselves have no inline script and no inline event handler: buttons instead of {@code
 * h:commandLink}, behaviour in {@code resources/js}. (Mojarra 4.1's own nonce brings a header of
 * its own on Faces views only; the package doc says why this one stays.)
 */
public class CspRenderKitFactory extends RenderKitFactory {

    private final Map<RenderKit, RenderKit> kits = new ConcurrentHashMap<>();

    public CspRenderKitFactory(RenderKitFactory wrapped) {
        super(wrapped);
        java.util.logging.Logger.getLogger(CspRenderKitFactory.class.getName())
                .info("Faces scripts carry the CSP nonce (CspRenderKitFactory)");
    }

    @Override
    public void addRenderKit(String renderKitId, RenderKit renderKit) {
        getWrapped().addRenderKit(renderKitId, renderKit);
    }

    @Override
    public RenderKit getRenderKit(FacesContext context, String renderKitId) {
        RenderKit kit = getWrapped().getRenderKit(context, renderKitId);
        return kit == null ? null : kits.computeIfAbsent(kit, NonceRenderKit::new);
    }

    @Override
    public Iterator<String> getRenderKitIds() {
        return getWrapped().getRenderKitIds();
    }

    private static final class NonceRenderKit extends RenderKitWrapper {
        NonceRenderKit(RenderKit wrapped) {
            super(wrapped);
        }

        @Override
        public ResponseWriter createResponseWriter(
                Writer writer, String contentTypeList, String encoding) {
            return new NonceWriter(
                    getWrapped().createResponseWriter(writer, contentTypeList, encoding));
        }
    }

    private static final class NonceWriter extends ResponseWriterWrapper {
        NonceWriter(ResponseWriter wrapped) {
            super(wrapped);
        }

        @Override
        public void startElement(String name, jakarta.faces.component.UIComponent component)
                throws java.io.IOException {
            super.startElement(name, component);
            if ("script".equalsIgnoreCase(name)) {
                Object nonce =
                        FacesContext.getCurrentInstance()
                                .getExternalContext()
                                .getRequestMap()
                                .get(RequestGuard.NONCE);
                if (nonce != null) {
                    super.writeAttribute("nonce", nonce, null);
                }
            }
        }

        @Override
        public ResponseWriter cloneWithWriter(Writer writer) {
            return new NonceWriter(getWrapped().cloneWithWriter(writer));
        }
    }
}
