package org.latencylab.app.report;

/**
 * The text of an HTML page being built: raw markup appended as given, text with the five HTML-special characters
 * escaped (all a text node or an attribute value needs). Not thread-safe.
 */
final class Html {
    private final StringBuilder b = new StringBuilder();

    /** @param raw markup, appended as it is @return this */
    Html a(String raw) {
        b.append(raw);
        return this;
    }

    /** @param text text, appended escaped @return this */
    Html t(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return this;
    }

    @Override
    public String toString() {
        return b.toString();
    }
}
