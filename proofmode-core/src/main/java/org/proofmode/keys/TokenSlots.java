// SPDX-License-Identifier: Apache-2.0
package org.proofmode.keys;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * The tokens a PKCS#11 module offers, by slot: their labels, serial numbers and makers. Java's PKCS#11
 * provider picks a token by slot number only, and tells nothing about it; the slot list and the token
 * information come from the PKCS#11 binding inside the JDK ({@code jdk.crypto.cryptoki}), the one the
 * provider itself uses, reached by reflection. That needs the JVM option
 * {@code --add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED}, which the jar's
 * manifest ({@code Add-Exports}) gives every {@code java -jar} run.
 */
final class TokenSlots {
    private static final String WRAPPER = "sun.security.pkcs11.wrapper.";

    /**
     * A token present in a slot.
     *
     * @param slot the slot number, as the provider's {@code slot} setting takes it
     * @param label the token label, trailing blanks removed
     * @param serial the token serial number, trailing blanks removed
     * @param manufacturer who made the token
     * @param model the token model
     */
    record Token(long slot, String label, String serial, String manufacturer, String model) {
        /** The kind of device, as proofs record it: the maker and the model. */
        String device() {
            return (manufacturer + " " + model).strip().replaceAll("\\s+", " ");
        }

        /** How messages name the token. */
        String describe() {
            return "the token \"" + label + "\" (" + device() + ", serial " + serial + ")";
        }
    }

    private TokenSlots() {}

    /**
     * Lists the tokens present.
     *
     * @throws ProofModeException with {@link Failure#BAD_DATA} if the file is no PKCS#11 module,
     *     {@link Failure#UNSUPPORTED} if this Java runtime does not give access to its PKCS#11 binding
     */
    static List<Token> present(Path module) {
        try {
            Class<?> p11 = Class.forName(WRAPPER + "PKCS11");
            Class<?> initArgs = Class.forName(WRAPPER + "CK_C_INITIALIZE_ARGS");
            Object instance = p11.getMethod("getInstance", String.class, String.class, initArgs, boolean.class)
                    .invoke(null, module.toString(), "C_GetFunctionList", null, false);
            long[] slots = (long[]) p11.getMethod("C_GetSlotList", boolean.class).invoke(instance, true);
            Method tokenInfo = p11.getMethod("C_GetTokenInfo", long.class);
            List<Token> out = new ArrayList<>();
            for (long slot : slots) {
                Object info = tokenInfo.invoke(instance, slot);
                out.add(new Token(slot, text(info, "label"), text(info, "serialNumber"), text(info, "manufacturerID"), text(info, "model")));
            }
            return out;
        } catch (ClassNotFoundException e) {
            throw new ProofModeException(Failure.UNSUPPORTED, "this Java runtime has no PKCS#11 support (the jdk.crypto.cryptoki module)", e);
        } catch (InvocationTargetException e) {
            throw new ProofModeException(Failure.BAD_DATA, module + " is not a usable PKCS#11 module ("
                    + OpenPgpKeys.oneLine(e.getCause()) + ")", e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ProofModeException(Failure.UNSUPPORTED, "this Java runtime does not let ProofMode list PKCS#11 tokens ("
                    + OpenPgpKeys.oneLine(e) + "); run it with --add-exports jdk.crypto.cryptoki/sun.security.pkcs11.wrapper=ALL-UNNAMED", e);
        }
    }

    private static String text(Object info, String field) throws ReflectiveOperationException {
        char[] chars = (char[]) info.getClass().getField(field).get(info);
        // blank-padded by the standard; some modules (tpm2-pkcs11) pad with NULs
        return new String(chars).replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
    }
}
