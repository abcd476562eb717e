/**
 * Start-up and what everything stands on: validated settings, the data source, the schema (Flyway)
 * and plain text.
 */
package com.editlock.platform;
