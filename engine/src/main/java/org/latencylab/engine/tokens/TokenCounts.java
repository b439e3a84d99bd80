package org.latencylab.engine.tokens;

import java.util.Locale;

/**
 * Token counts as people write them: {@code 4096} or {@code 4k}. The {@code k} suffix means 1,024 tokens, as context
 * windows are sized ("a 2k context" holds 2,048 tokens), so the command line and the window read the same text as the
 * same count. Stateless and thread-safe.
 */
public final class TokenCounts {
    private TokenCounts() {
    }

    /**
     * @param field what the count is, named in the error (e.g. {@code "--lengths"})
     * @param text  a whole number of tokens, optionally followed by {@code k} or {@code K} (× 1,024); surrounding
     *              whitespace is ignored
     * @return the count, >= 1
     * @throws IllegalArgumentException when the text is not a positive whole number of tokens (or overflows an int);
     *                                  the message names the field and the text
     */
    public static int parse(String field, String text) {
        String p = text.strip().toLowerCase(Locale.ROOT);
        int factor = 1;
        if (p.endsWith("k")) {
            factor = 1024;
            p = p.substring(0, p.length() - 1).strip();
        }
        try {
            int v = Math.multiplyExact(Integer.parseInt(p), factor);
            if (v < 1) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(field + " '" + text.strip() + "' is not a positive token count "
                    + "(e.g. 4096 or 4k)");
        }
    }
}
