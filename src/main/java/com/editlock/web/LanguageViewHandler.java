package com.editlock.web;

import com.editlock.platform.Languages;
import jakarta.faces.application.ViewHandler;
import jakarta.faces.application.ViewHandlerWrapper;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Locale;

/**
 * The language of a page, by {@link Languages}' rule: the one the reader picked on any page ({@code
 * ?lang=de}, kept in a cookie for a year, also before login), else the first of the browser's
 * {@code Accept-Language} that Editlock speaks, else English. A value outside those is ignored.
 */
public class LanguageViewHandler extends ViewHandlerWrapper {

    public LanguageViewHandler(ViewHandler wrapped) {
        super(wrapped);
    }

    @Override
    public Locale calculateLocale(FacesContext context) {
        ExternalContext external = context.getExternalContext();
        return Languages.pick(
                (HttpServletRequest) external.getRequest(),
                (HttpServletResponse) external.getResponse());
    }
}
