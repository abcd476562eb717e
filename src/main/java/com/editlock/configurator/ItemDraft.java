package com.editlock.configurator;

import java.io.Serializable;
import java.math.BigDecimal;

/** An item as an editor typed it; {@code id == null} for a new item. */
public record ItemDraft(Long id, String name, BigDecimal price) implements Serializable {}
