/**
 * The screens: one backing bean per screen, named after it; and what keeps them live: each page's tab in the
 * browser's event stream ({@code LiveStream}, {@code LiveStreams}), the tabs a node serves ({@code LivePages},
 * {@code TabSockets}) and the page's goodbye ({@code TabLeft}).
 */
package com.editlock.web;
