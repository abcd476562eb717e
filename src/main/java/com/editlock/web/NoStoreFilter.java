package com.editlock.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Pages are never stored: a page kept in the browser's back/forward cache would keep its view (and
 * its locks' tab) alive for minutes after the user left it, and a back button must never show stale
 * lock state.
 */
@WebFilter(urlPatterns = "*.xhtml")
public class NoStoreFilter extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doFilter(
            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        response.setHeader("Cache-Control", "no-store");
        chain.doFilter(request, response);
    }
}
