package com.editlock.container;

import jakarta.faces.application.Resource;
import jakarta.faces.application.ResourceHandler;
import jakarta.faces.application.ResourceHandlerWrapper;
import jakarta.faces.application.ResourceWrapper;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Takes the implementation's version off the address of Faces' own script: Mojarra 4.1 writes
 * {@code faces.js.xhtml?ln=jakarta.faces&v=4.1.18.payara-p1}, which tells every visitor which
 * server and which release of it answers (Editlock's answers name no server product). The script is
 * served the same without it; a browser revalidates it by its {@code Last-Modified}.
 */
public class FacesScriptWithoutVersion extends ResourceHandlerWrapper {

    private static final Pattern VERSION = Pattern.compile("([?&])v=[^&]*&?");

    public FacesScriptWithoutVersion(ResourceHandler wrapped) {
        super(wrapped);
        Logger.getLogger(FacesScriptWithoutVersion.class.getName())
                .info("Faces' script address carries no version (FacesScriptWithoutVersion)");
    }

    @Override
    public Resource createResource(String resourceName, String libraryName) {
        return quiet(super.createResource(resourceName, libraryName));
    }

    @Override
    public Resource createResource(String resourceName, String libraryName, String contentType) {
        return quiet(super.createResource(resourceName, libraryName, contentType));
    }

    private static Resource quiet(Resource resource) {
        if (resource == null || !LIBRARY.equals(resource.getLibraryName())) {
            return resource;
        }
        return new ResourceWrapper(resource) {
            @Override
            public String getRequestPath() {
                return withoutVersion(super.getRequestPath());
            }
        };
    }

    private static final String LIBRARY = "jakarta.faces";

    /** {@code …?ln=jakarta.faces&v=4.1.18} to {@code …?ln=jakarta.faces}; other parameters kept. */
    static String withoutVersion(String path) {
        String quiet = VERSION.matcher(path).replaceFirst("$1");
        return quiet.endsWith("?") || quiet.endsWith("&")
                ? quiet.substring(0, quiet.length() - 1)
                : quiet;
    }
}
