// SPDX-License-Identifier: Apache-2.0
package org.proofmode.redact;

import java.util.Locale;

/** The lower-case names by which records and the command line spell this package's enums. */
final class EnumIds {
    private EnumIds() {}

    static String id(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The constant spelled {@code id}.
     *
     * @throws IllegalArgumentException if there is none
     */
    static <E extends Enum<E>> E of(Class<E> type, String id, String what) {
        for (E e : type.getEnumConstants()) {
            if (id(e).equals(id)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + ": " + id);
    }
}
