/**
 * Start-up: validated configuration, the data source, Flyway migrations, the demo data, and the container setting
 * that keeps a closed connection's request objects from reaching the next connection ({@link
 * com.editlock.platform.ConnectionScope}), and the order in which a page's WebSocket connection is closed ({@link
 * com.editlock.platform.SocketCloseOrder}: off request threads, only while its request is still its own).
 */
package com.editlock.platform;
