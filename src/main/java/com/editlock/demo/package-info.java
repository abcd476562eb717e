/**
 * The demo: users sara, omar (editors) and ada (admin) with password {@code demo}, and four
 * configurators, installed after the schema when {@code LOCKS_DEMO_DATA} is on (the run command
 * turns it on for its embedded database).
 */
package com.editlock.demo;
