// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.ASN1TaggedObject;

/**
 * The Android key attestation extension ({@code 1.3.6.1.4.1.11129.2.1.17}) of an attested key's
 * certificate, read but not yet judged: the {@code KeyDescription} of Android's Keystore specification
 * ({@code source.android.com/docs/security/features/keystore/attestation}), with the fields a verifier of
 * a proof needs (levels, challenge, root of trust, the requesting app).
 *
 * @param attestationVersion the attestation format's version (Keymaster 1 to KeyMint 4)
 * @param attestationSecurityLevel where the attestation was made
 * @param keymasterVersion the key store's version
 * @param keymasterSecurityLevel where the key lives
 * @param challenge the challenge the app gave when it made the key
 * @param rootOfTrust the boot state, from the hardware-enforced list (or the software one when only it has one)
 * @param rootOfTrustHardware whether that root of trust is in the hardware-enforced list
 * @param packages the package names of the requesting app
 * @param signatureDigests the SHA-256 digests of the app's signing certificates, base64
 */
record KeyDescription(int attestationVersion, SecurityLevel attestationSecurityLevel, int keymasterVersion,
        SecurityLevel keymasterSecurityLevel, byte[] challenge, Optional<RootOfTrust> rootOfTrust, boolean rootOfTrustHardware,
        List<String> packages, List<String> signatureDigests) {
    /** The extension's object identifier. */
    static final String OID = "1.3.6.1.4.1.11129.2.1.17";
    /** AuthorizationList tag of the root of trust. */
    private static final int TAG_ROOT_OF_TRUST = 704;
    /** AuthorizationList tag of the requesting app. */
    private static final int TAG_APPLICATION_ID = 709;
    /** Most packages or digests read from an application id (a shared user id lists several). */
    static final int MAX_PACKAGES = 32;

    /** Where a key or an attestation was made: {@code SecurityLevel} of the specification. */
    enum SecurityLevel {
        /** Android's software key store: no hardware vouches for it. */
        SOFTWARE("software (Android's key store, no secure hardware)"),
        /** The trusted execution environment: an isolated part of the phone's processor. */
        TRUSTED_ENVIRONMENT("secure hardware (TEE)"),
        /** A separate security chip. */
        STRONG_BOX("separate security chip (StrongBox)");

        private final String words;

        SecurityLevel(String words) {
            this.words = words;
        }

        /** The level in plain words. */
        String words() {
            return words;
        }
    }

    /** The boot state the bootloader reported: {@code VerifiedBootState} of the specification. */
    enum BootState {
        /** Booted an operating system signed by the maker's key. */
        VERIFIED,
        /** Booted an operating system signed by a key the owner installed. */
        SELF_SIGNED,
        /** Booted an operating system nobody's key was checked for (an unlocked bootloader). */
        UNVERIFIED,
        /** Boot verification failed. */
        FAILED
    }

    /**
     * The device's boot state as the attestation gives it.
     *
     * @param verifiedBootKey the digest of the key that verified the operating system
     * @param deviceLocked whether the bootloader was locked
     * @param state the verified boot state
     */
    record RootOfTrust(byte[] verifiedBootKey, boolean deviceLocked, BootState state) {
        RootOfTrust {
            verifiedBootKey = verifiedBootKey.clone();
        }

        @Override
        public byte[] verifiedBootKey() {
            return verifiedBootKey.clone();
        }
    }

    KeyDescription {
        challenge = challenge.clone();
        packages = List.copyOf(packages);
        signatureDigests = List.copyOf(signatureDigests);
    }

    @Override
    public byte[] challenge() {
        return challenge.clone();
    }

    /**
     * Reads the extension of a certificate.
     *
     * @return empty when the certificate has no such extension
     * @throws IllegalArgumentException when the extension is not a readable {@code KeyDescription}
     */
    static Optional<KeyDescription> of(X509Certificate cert) {
        byte[] ext = cert.getExtensionValue(OID);
        if (ext == null) {
            return Optional.empty();
        }
        try {
            ASN1Sequence kd = ASN1Sequence.getInstance(ASN1Primitive.fromByteArray(
                    ASN1OctetString.getInstance(ASN1Primitive.fromByteArray(ext)).getOctets()));
            if (kd.size() < 8) {
                throw new IllegalArgumentException("a KeyDescription of " + kd.size() + " fields, not 8");
            }
            ASN1Sequence software = ASN1Sequence.getInstance(kd.getObjectAt(6));
            ASN1Sequence hardware = ASN1Sequence.getInstance(kd.getObjectAt(7));
            Optional<RootOfTrust> hwRoot = find(hardware, TAG_ROOT_OF_TRUST).map(KeyDescription::rootOfTrust);
            Optional<RootOfTrust> root = hwRoot.or(() -> find(software, TAG_ROOT_OF_TRUST).map(KeyDescription::rootOfTrust));
            Optional<ASN1Encodable> app = find(software, TAG_APPLICATION_ID).or(() -> find(hardware, TAG_APPLICATION_ID));
            List<String> packages = new ArrayList<>();
            List<String> digests = new ArrayList<>();
            if (app.isPresent()) {
                readApplicationId(ASN1OctetString.getInstance(app.get()).getOctets(), packages, digests);
            }
            return Optional.of(new KeyDescription(intOf(kd.getObjectAt(0)), level(kd.getObjectAt(1)), intOf(kd.getObjectAt(2)),
                    level(kd.getObjectAt(3)), ASN1OctetString.getInstance(kd.getObjectAt(4)).getOctets(), root,
                    hwRoot.isPresent(), packages, digests));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("the key attestation extension cannot be read ("
                    + SafetyNetToken.clip(String.valueOf(e.getMessage())) + ")", e);
        }
    }

    private static Optional<ASN1Encodable> find(ASN1Sequence list, int tag) {
        for (ASN1Encodable e : list) {
            ASN1TaggedObject t = ASN1TaggedObject.getInstance(e);
            if (t.getTagNo() == tag) {
                return Optional.of(t.getExplicitBaseObject());
            }
        }
        return Optional.empty();
    }

    private static RootOfTrust rootOfTrust(ASN1Encodable e) {
        ASN1Sequence s = ASN1Sequence.getInstance(e);
        int state = ASN1Enumerated.getInstance(s.getObjectAt(2)).intValueExact();
        if (state < 0 || state >= BootState.values().length) {
            throw new IllegalArgumentException("verified boot state " + state + " is not one of the four the specification names");
        }
        return new RootOfTrust(ASN1OctetString.getInstance(s.getObjectAt(0)).getOctets(),
                ASN1Boolean.getInstance(s.getObjectAt(1)).isTrue(), BootState.values()[state]);
    }

    private static void readApplicationId(byte[] der, List<String> packages, List<String> digests) throws IOException {
        ASN1Sequence id = ASN1Sequence.getInstance(ASN1Primitive.fromByteArray(der));
        ASN1Set infos = ASN1Set.getInstance(id.getObjectAt(0));
        ASN1Set sigs = ASN1Set.getInstance(id.getObjectAt(1));
        if (infos.size() > MAX_PACKAGES || sigs.size() > MAX_PACKAGES) {
            throw new IllegalArgumentException("the application id lists more than " + MAX_PACKAGES + " packages or digests");
        }
        for (ASN1Encodable p : infos) {
            byte[] name = ASN1OctetString.getInstance(ASN1Sequence.getInstance(p).getObjectAt(0)).getOctets();
            packages.add(SafetyNetToken.clip(new String(name, java.nio.charset.StandardCharsets.UTF_8)));
        }
        for (ASN1Encodable d : sigs) {
            digests.add(Base64.getEncoder().encodeToString(ASN1OctetString.getInstance(d).getOctets()));
        }
    }

    private static int intOf(ASN1Encodable e) {
        return ASN1Integer.getInstance(e).intValueExact();
    }

    private static SecurityLevel level(ASN1Encodable e) {
        int v = ASN1Enumerated.getInstance(e).intValueExact();
        if (v < 0 || v >= SecurityLevel.values().length) {
            throw new IllegalArgumentException("security level " + v + " is not one of the three the specification names");
        }
        return SecurityLevel.values()[v];
    }
}
