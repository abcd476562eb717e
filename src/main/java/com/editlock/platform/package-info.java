/** Start-up: validated configuration, the data source, Flyway migrations and the demo data. */
package com.editlock.platform;
