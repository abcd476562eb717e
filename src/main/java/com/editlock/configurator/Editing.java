package com.editlock.configurator;

import com.editlock.lock.Lock;
import java.io.Serializable;

/**
 * A record opened for editing: the lock that was taken for it and what was loaded under that lock.
 */
public record Editing<T extends Serializable>(Lock lock, T draft) implements Serializable {}
