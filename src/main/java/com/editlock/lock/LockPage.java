package com.editlock.lock;

import java.util.List;

/** A window of a larger list: its rows, and how many match in all. */
public record LockPage<T>(List<T> rows, long total) {}
