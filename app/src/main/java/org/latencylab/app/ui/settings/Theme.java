package org.latencylab.app.ui.settings;

import java.util.Locale;

/** Light or dark look of the whole window (controls and charts). Thread-safe (an enum). */
public enum Theme {
    /** Dark text on light backgrounds (the default). */
    LIGHT,
    /** Light text on dark backgrounds. */
    DARK;

    /** @return the lower-case name used in {@code settings.json} */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param id {@code light} or {@code dark} (case-insensitive); null or anything else gives {@link #LIGHT}
     * @return the theme
     */
    public static Theme fromId(String id) {
        return "dark".equalsIgnoreCase(id == null ? "" : id.strip()) ? DARK : LIGHT;
    }
}
