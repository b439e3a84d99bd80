package org.latencylab.engine.client;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Error pages of web servers and proxies in place of an API's answer. Their markup says nothing to the reader of an
 * error message; their title and first heading usually say what the server meant ("404 Not Found", "Bad Gateway"),
 * so a message quotes those words instead of the page. Stateless and thread-safe.
 */
final class HtmlPages {
    /** A body that starts as an HTML document does (after optional whitespace): a doctype, a comment or the html tag. */
    private static final Pattern START = Pattern.compile("(?i)\\s*(<!doctype html|<html[\\s>]|<!--)");
    private static final Pattern TITLE = Pattern.compile("(?is)<title[^>]*>(.*?)</title>");
    private static final Pattern H1 = Pattern.compile("(?is)<h1[^>]*>(.*?)</h1>");
    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final int MAX_WORDS_CHARS = 120;

    private HtmlPages() {
    }

    /**
     * @param body a response body with its whitespace already collapsed to single spaces
     * @return {@code an HTML page ("TITLE: HEADING"), not an LLM API's answer} (title and heading when present, each
     *         once) when the body is an HTML document, else null
     */
    static String summary(String body) {
        if (!START.matcher(body).lookingAt()) {
            return null;
        }
        Matcher title = TITLE.matcher(body);
        Matcher heading = H1.matcher(body);
        String t = title.find() ? TAG.matcher(title.group(1)).replaceAll("").strip() : "";
        String h = heading.find() ? TAG.matcher(heading.group(1)).replaceAll("").strip() : "";
        String words = t.isEmpty() ? h : h.isEmpty() || h.equalsIgnoreCase(t) ? t : t + ": " + h;
        if (words.length() > MAX_WORDS_CHARS) {
            words = words.substring(0, MAX_WORDS_CHARS) + "...";
        }
        return "an HTML page" + (words.isEmpty() ? "" : " (\"" + words + "\")") + ", not an LLM API's answer";
    }
}
