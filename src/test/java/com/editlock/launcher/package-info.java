/**
 * The development launcher behind the README's run command ({@code mvn -Prun}), and the embedded
 * PostgreSQL that it and the integration tests start. Not part of the WAR.
 */
package com.editlock.launcher;
