// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import com.exceptionfactory.jagged.RecipientStanza;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.modes.ChaCha20Poly1305;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/** What the recipient stanzas written here share: the file key wrapped with ChaCha20-Poly1305, and the stanza itself. */
final class Stanzas {
    static final int TAG_BYTES = 16;

    private Stanzas() {}

    /** ChaCha20-Poly1305 with a zero nonce, as age wraps a file key in a stanza body (each wrap key is used once). */
    static byte[] wrap(byte[] key, byte[] in, boolean encrypt) throws GeneralSecurityException {
        ChaCha20Poly1305 aead = new ChaCha20Poly1305();
        aead.init(encrypt, new AEADParameters(new KeyParameter(key), TAG_BYTES * 8, new byte[12]));
        byte[] out = new byte[aead.getOutputSize(in.length)];
        int n = aead.processBytes(in, 0, in.length, out, 0);
        try {
            n += aead.doFinal(out, n);
        } catch (InvalidCipherTextException e) {
            throw new GeneralSecurityException("the stanza's tag does not match", e);
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** A recipient stanza as jagged writes it. */
    record Stanza(String type, List<String> arguments, byte[] body) implements RecipientStanza {
        @Override
        public String getType() {
            return type;
        }

        @Override
        public List<String> getArguments() {
            return arguments;
        }

        @Override
        public byte[] getBody() {
            return body.clone();
        }
    }
}
