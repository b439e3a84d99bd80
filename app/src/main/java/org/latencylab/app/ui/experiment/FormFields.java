package org.latencylab.app.ui.experiment;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.Property;
import javafx.beans.property.StringProperty;

import java.util.Map;

/** Restores form properties from the texts stored in the settings file. Stateless; use on the UI thread. */
final class FormFields {
    private FormFields() {
    }

    /**
     * Sets each property whose key is in {@code values}: integers, doubles, booleans, strings and enums (by
     * constant name; the property must already hold a value of the enum). A value that does not parse is skipped.
     *
     * @param properties field name → property
     * @param values     field name → text
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void fill(Map<String, Property<?>> properties, Map<String, String> values) {
        properties.forEach((key, p) -> {
            String v = values.get(key);
            if (v == null) {
                return;
            }
            try {
                if (p instanceof IntegerProperty i) {
                    i.set(Integer.parseInt(v.strip()));
                } else if (p instanceof DoubleProperty d) {
                    d.set(Double.parseDouble(v.strip()));
                } else if (p instanceof BooleanProperty b) {
                    b.set(Boolean.parseBoolean(v.strip()));
                } else if (p instanceof StringProperty s) {
                    s.set(v);
                } else if (p instanceof ObjectProperty o && o.get() instanceof Enum<?> e) {
                    o.set(Enum.valueOf(e.getDeclaringClass(), v.strip()));
                }
            } catch (IllegalArgumentException ignored) {
                // an unreadable stored value: the field keeps its default
            }
        });
    }
}
