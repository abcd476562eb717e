/**
 * Start-up: validated configuration, the data source, Flyway migrations, the demo data, and the container setting
 * that keeps a closed connection's request objects from reaching the next connection ({@link
 * com.editlock.platform.ConnectionScope}).
 */
package com.editlock.platform;
