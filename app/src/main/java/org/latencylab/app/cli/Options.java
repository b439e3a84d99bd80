package org.latencylab.app.cli;

import java.util.Map;
import java.util.function.Supplier;

/** Builds experiment specs from command-line options, naming the option (not the scenario field) in errors. */
final class Options {
    private Options() {
    }

    /**
     * @param build   builds the spec
     * @param options scenario field name → command-line option, e.g. {@code concurrency → --concurrency}
     * @param <T>     spec type
     * @return the spec
     * @throws IllegalArgumentException with the option's name instead of the field's ({@code --concurrency must be >= 1,
     *                                  was 0})
     */
    static <T> T spec(Supplier<T> build, Map<String, String> options) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() == null ? "invalid value" : e.getMessage();
            for (Map.Entry<String, String> o : options.entrySet()) {
                if (m.startsWith(o.getKey() + " ")) { // "concurrency must be >= 1" → "--concurrency must be >= 1"
                    throw new IllegalArgumentException(o.getValue() + m.substring(o.getKey().length()), e);
                }
            }
            throw e;
        }
    }

    /**
     * Reads a token count written as {@code 4096} or {@code 4k} (k = 1,024 tokens) for a picocli option, through
     * {@link org.latencylab.engine.tokens.TokenCounts}, so the command line takes what the window's length field takes.
     */
    static final class TokenCountConverter implements picocli.CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return org.latencylab.engine.tokens.TokenCounts.parse("length", value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
