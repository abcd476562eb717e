/**
 * The configurator aggregate: a configurator with its items (and their filter rules) and variables,
 * all pointing to one shared {@link com.editlock.configurator.AggregateVersion} (Fowler's
 * coarse-grained lock).
 */
package com.editlock.configurator;
