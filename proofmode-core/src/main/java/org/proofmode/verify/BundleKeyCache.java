// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.proofmode.keys.OpenPgpKeys;

/**
 * The keys of bundles' {@code pubkey.asc} files, read once per content: a folder of one device's bundles holds
 * the same key file in each of them, and reading its armour with PGPainless costs several times re-reading the
 * binary key. Each call gets certificates of its own (read again from their binary encoding), as checking a
 * signature changes Bouncy Castle's signature objects (see {@link SignerKeys#of}).
 *
 * <p>Bounded: at most {@value #MAX_ENTRIES} key files (the least recently used leaves), none larger than
 * {@value #MAX_CACHED_BYTES} bytes (larger ones are read each time). Only files that read are kept; a malformed
 * one fails the same way each time. Safe for the verify threads of one verifier.
 */
final class BundleKeyCache {
    /** Most key files kept. */
    static final int MAX_ENTRIES = 16;
    /** Largest key file kept (a device's key file is under 1 KiB). */
    static final int MAX_CACHED_BYTES = 64 * 1024;

    private record Content(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Content c && Arrays.equals(bytes, c.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return bytes.length + " bytes";
        }
    }

    private final Map<Content, List<byte[]>> encoded = new LinkedHashMap<>(MAX_ENTRIES * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Content, List<byte[]>> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /**
     * The certificates in a key file, as {@link OpenPgpKeys#readCertificates} reads them.
     *
     * @throws org.proofmode.failure.ProofModeException as {@link OpenPgpKeys#readCertificates}
     */
    List<PGPPublicKeyRing> read(byte[] bytes, String name) {
        if (bytes.length > MAX_CACHED_BYTES) {
            return OpenPgpKeys.readCertificates(bytes, name);
        }
        Content key = new Content(bytes.clone());
        List<byte[]> known;
        synchronized (encoded) {
            known = encoded.get(key);
        }
        if (known != null) {
            try {
                List<PGPPublicKeyRing> out = new ArrayList<>(known.size());
                for (byte[] ring : known) {
                    out.add(new PGPPublicKeyRing(ring, new BcKeyFingerprintCalculator()));
                }
                return out;
            } catch (IOException | RuntimeException e) {
                // not expected for what was read before: read the file itself
            }
        }
        List<PGPPublicKeyRing> read = OpenPgpKeys.readCertificates(bytes, name);
        try {
            List<byte[]> rings = new ArrayList<>(read.size());
            for (PGPPublicKeyRing ring : read) {
                rings.add(ring.getEncoded());
            }
            synchronized (encoded) {
                encoded.put(key, List.copyOf(rings));
            }
        } catch (IOException e) {
            // not kept: the next bundle reads the file again
        }
        return read;
    }

    /** How many key files are kept now. */
    int size() {
        synchronized (encoded) {
            return encoded.size();
        }
    }
}
