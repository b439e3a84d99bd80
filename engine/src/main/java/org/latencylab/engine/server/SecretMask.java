package org.latencylab.engine.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Masks secrets in command lines and environments before they are logged or written to a run directory: the value
 * after an option whose name suggests a secret ({@code --api-key X}, {@code --token=X}, {@code --hf-token},
 * {@code --password}, {@code --secret}), {@code NAME=value} arguments whose name does (as in {@code docker run -e
 * HF_TOKEN=...}), and every environment value (environment variables are where keys are usually passed).
 * Stateless; thread-safe.
 */
public final class SecretMask {
    /** What a masked value is replaced with. */
    public static final String MASK = "****";

    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(key|token|secret|password|passwd|credential|auth).*");

    private SecretMask() {
    }

    /**
     * @param command a command line, one argument per element
     * @return a copy with secret values replaced by {@value #MASK}
     */
    public static List<String> command(List<String> command) {
        List<String> out = new ArrayList<>(command.size());
        boolean maskNext = false;
        for (String a : command) {
            if (maskNext) {
                out.add(MASK);
                maskNext = false;
                continue;
            }
            int eq = a.indexOf('=');
            if (a.startsWith("-")) {
                String name = eq > 0 ? a.substring(0, eq) : a;
                if (SECRET_NAME.matcher(name).matches()) {
                    if (eq > 0) {
                        out.add(name + "=" + MASK);
                    } else {
                        out.add(a);
                        maskNext = true;
                    }
                    continue;
                }
            } else if (eq > 0 && SECRET_NAME.matcher(a.substring(0, eq)).matches()) {
                out.add(a.substring(0, eq) + "=" + MASK);
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /**
     * @param env environment variables given to a process
     * @return the names with every value masked, sorted by name
     */
    public static Map<String, String> environment(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.keySet().forEach(k -> out.put(k, MASK));
        return out;
    }

    /**
     * @param command a command line
     * @return it joined with spaces for a log line, secrets masked, arguments with blanks quoted
     */
    public static String display(List<String> command) {
        StringBuilder sb = new StringBuilder();
        for (String a : command(command)) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(a.isEmpty() || a.chars().anyMatch(Character::isWhitespace) ? "'" + a + "'" : a);
        }
        return sb.toString();
    }
}
