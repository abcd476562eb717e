/**
 * What keeps open pages live: each tab's place in its browser's event stream ({@code LiveStream},
 * written by {@code LiveStreams}' own thread), the pages and tabs this node serves and the release
 * of a tab that stayed away past the grace ({@code LivePages}, {@code TabSockets}), a page's
 * goodbye ({@code TabLeft}), and who is looking at what ({@code Presence}) — told to every node
 * through the lock history.
 */
package com.editlock.live;
