// SPDX-License-Identifier: Apache-2.0
package org.proofmode.age;

import java.io.IOException;
import java.io.OutputStream;

/**
 * How a share bundle is encrypted as it is written: for age recipients ({@link Age#encryptionTo}) or
 * OpenPGP certificates ({@link OpenPgpRecipients#encryptionTo}).
 */
public interface ShareEncryption {
    /**
     * Wraps the stream the encrypted bundle goes to: what is written to the result is encrypted into
     * {@code out}; closing the result finishes the encryption and closes {@code out}.
     */
    OutputStream encrypting(OutputStream out) throws IOException;
}
