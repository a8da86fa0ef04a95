// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.PublicSubkeyPacket;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.bcpg.sig.RevocationReasonTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.pgpainless.PGPainless;
import org.pgpainless.algorithm.KeyFlag;
import org.pgpainless.key.generation.KeyRingBuilder;
import org.pgpainless.key.generation.KeySpec;
import org.pgpainless.key.generation.type.KeyType;
import org.pgpainless.key.generation.type.eddsa_legacy.EdDSALegacyCurve;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.media.Digests;
import org.proofmode.proof.ProofFields;
import org.proofmode.proof.ProofJson;
import org.proofmode.proof.ProofRecord;

/**
 * Test keys with a life story, every self-signature dated when the story says: made at {@link #BORN},
 * then expiring, revoked (with a reason or none), or with a signing subkey that expires or is revoked;
 * and detached signatures made at a chosen time. Each step returns a new key; the old one is the
 * "older copy" a sender could still ship.
 */
public final class LifecycleKeys {
    /** When every test key was made: 30 days ago. */
    public static final Instant BORN = Instant.now().minus(Duration.ofDays(30)).truncatedTo(ChronoUnit.SECONDS);

    /** Why a key was revoked; {@link #NONE} means no reason subpacket. */
    public enum Reason {
        /** No reason given: a hard revocation. */
        NONE(-1),
        /** Key superseded: a soft revocation, older signatures stay valid. */
        SUPERSEDED(RevocationReasonTags.KEY_SUPERSEDED),
        /** Key retired: a soft revocation. */
        RETIRED(RevocationReasonTags.KEY_RETIRED),
        /** Key compromised: a hard revocation, every signature is invalid. */
        COMPROMISED(RevocationReasonTags.KEY_COMPROMISED);

        final int tag;

        Reason(int tag) {
            this.tag = tag;
        }
    }

    private LifecycleKeys() {}

    /** A key: its certificate as it stands now, and its private halves. */
    public static final class Key {
        private final String uid;
        private final PGPKeyPair primary;
        private final Optional<PGPKeyPair> signingSubkey;
        private final PGPPublicKeyRing certificate;

        private Key(String uid, PGPKeyPair primary, Optional<PGPKeyPair> signingSubkey, PGPPublicKeyRing certificate) {
            this.uid = uid;
            this.primary = primary;
            this.signingSubkey = signingSubkey;
            this.certificate = certificate;
        }

        /** The public certificate with every signature made so far. */
        public PGPPublicKeyRing certificate() {
            return certificate;
        }

        /** The certificate, ASCII-armored. */
        public byte[] armored() {
            return PGPainless.asciiArmor(certificate).getBytes(StandardCharsets.US_ASCII);
        }

        /** The primary key's fingerprint, 40 upper-case hex digits. */
        public String fingerprint() {
            return OpenPgpKeys.fingerprint(certificate.getPublicKey());
        }

        /** A new self-signature made at {@code at} that lets the whole key expire at {@code expires}. */
        public Key expire(Instant at, Instant expires) {
            PGPSignatureSubpacketGenerator h = hashed(at);
            h.setKeyFlags(false, signingSubkey.isPresent() ? KeyFlags.CERTIFY_OTHER : KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
            h.setKeyExpirationTime(true, secondsSince(BORN, expires));
            h.setPrimaryUserID(false, true);
            PGPSignature sig = certify(primary, PGPSignature.POSITIVE_CERTIFICATION, h, g -> g.generateCertification(uid, primary.getPublicKey()));
            return withPrimary(PGPPublicKey.addCertification(current(primary), uid, sig));
        }

        /** A new binding made at {@code at} that lets the signing subkey expire at {@code expires}. */
        public Key expireSubkey(Instant at, Instant expires) {
            PGPKeyPair sub = signingSubkey.orElseThrow(() -> new IllegalStateException("no signing subkey"));
            PGPSignature sig = bind(primary, sub, at, Optional.of(expires));
            return withSubkey(PGPPublicKey.addCertification(current(sub), sig));
        }

        /** Revokes the whole key at {@code at}. */
        public Key revoke(Instant at, Reason reason) {
            PGPSignatureSubpacketGenerator h = hashed(at);
            reason(h, reason);
            PGPSignature sig = certify(primary, PGPSignature.KEY_REVOCATION, h, g -> g.generateCertification(primary.getPublicKey()));
            return withPrimary(PGPPublicKey.addCertification(current(primary), sig));
        }

        /** Revokes the signing subkey at {@code at}. */
        public Key revokeSubkey(Instant at, Reason reason) {
            PGPKeyPair sub = signingSubkey.orElseThrow(() -> new IllegalStateException("no signing subkey"));
            PGPSignatureSubpacketGenerator h = hashed(at);
            reason(h, reason);
            PGPSignature sig = certify(primary, PGPSignature.SUBKEY_REVOCATION, h,
                    g -> g.generateCertification(primary.getPublicKey(), sub.getPublicKey()));
            return withSubkey(PGPPublicKey.addCertification(current(sub), sig));
        }

        /** An armored detached binary-document signature over {@code data}, made by the signing key at {@code at}. */
        public byte[] sign(byte[] data, Instant at) {
            PGPKeyPair k = signingSubkey.orElse(primary);
            try {
                PGPSignatureGenerator gen = generator(k);
                gen.init(PGPSignature.BINARY_DOCUMENT, k.getPrivateKey());
                gen.setHashedSubpackets(hashed(at, k.getPublicKey()).generate());
                gen.update(data);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (OutputStream out = ArmoredOutputStream.builder().clearHeaders().build(bytes)) {
                    gen.generate().encode(out);
                }
                return bytes.toByteArray();
            } catch (PGPException e) {
                throw new IllegalStateException(e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The files of a share bundle for {@code media}, signed by this key at {@code at}: the media, its
         * signature, a JSON record with the given fields (and the media hash) and its signature, and
         * {@code shipped} as {@code pubkey.asc} (pass an older copy of this key to strip what came later).
         */
        public Map<String, byte[]> proofEntries(String mediaName, byte[] media, Instant at,
                Map<String, String> fields, PGPPublicKeyRing shipped) {
            String sha = Digests.sha256Hex(media);
            ProofRecord.Builder r = ProofRecord.builder()
                    .put(ProofFields.FILE_HASH_SHA256, sha);
            fields.forEach(r::put);
            byte[] json = ProofJson.write(r.build());
            Map<String, byte[]> m = new LinkedHashMap<>();
            m.put(mediaName, media.clone());
            m.put(sha + ".asc", sign(media, at));
            m.put(sha + ".proof.json", json);
            m.put(sha + ".proof.json.asc", sign(json, at));
            m.put("pubkey.asc", PGPainless.asciiArmor(shipped).getBytes(StandardCharsets.US_ASCII));
            return m;
        }

        private PGPPublicKey current(PGPKeyPair k) {
            return certificate.getPublicKey(k.getKeyID());
        }

        private Key withPrimary(PGPPublicKey p) {
            List<PGPPublicKey> keys = new ArrayList<>();
            certificate.getPublicKeys().forEachRemaining(keys::add);
            keys.set(0, p);
            return new Key(uid, primary, signingSubkey, new PGPPublicKeyRing(keys));
        }

        private Key withSubkey(PGPPublicKey s) {
            return new Key(uid, primary, signingSubkey, PGPPublicKeyRing.insertPublicKey(certificate, s));
        }
    }

    /** An Ed25519 key made at {@link #BORN} that certifies and signs and does not expire. */
    public static Key primaryOnly(String uid) {
        PGPKeyPair p = pair(KeyFlag.CERTIFY_OTHER, KeyFlag.SIGN_DATA);
        PGPSignatureSubpacketGenerator h = hashed(BORN);
        h.setKeyFlags(false, KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
        h.setPrimaryUserID(false, true);
        PGPSignature self = certify(p, PGPSignature.POSITIVE_CERTIFICATION, h, g -> g.generateCertification(uid, p.getPublicKey()));
        PGPPublicKey pub = PGPPublicKey.addCertification(p.getPublicKey(), uid, self);
        return new Key(uid, p, Optional.empty(), new PGPPublicKeyRing(List.of(pub)));
    }

    /** An Ed25519 certification-only key with an Ed25519 signing subkey, both made at {@link #BORN}, no expiry. */
    public static Key withSigningSubkey(String uid) {
        PGPKeyPair p = pair(KeyFlag.CERTIFY_OTHER);
        PGPKeyPair s = asSubkey(pair(KeyFlag.SIGN_DATA));
        PGPSignatureSubpacketGenerator h = hashed(BORN);
        h.setKeyFlags(false, KeyFlags.CERTIFY_OTHER);
        h.setPrimaryUserID(false, true);
        PGPSignature self = certify(p, PGPSignature.POSITIVE_CERTIFICATION, h, g -> g.generateCertification(uid, p.getPublicKey()));
        PGPPublicKey pub = PGPPublicKey.addCertification(p.getPublicKey(), uid, self);
        PGPPublicKey sub = PGPPublicKey.addCertification(s.getPublicKey(), bind(p, s, BORN, Optional.empty()));
        return new Key(uid, p, Optional.of(s), new PGPPublicKeyRing(List.of(pub, sub)));
    }

    private interface Certifier {
        PGPSignature apply(PGPSignatureGenerator g) throws PGPException;
    }

    private static PGPSignature certify(PGPKeyPair signer, int type, PGPSignatureSubpacketGenerator hashed, Certifier how) {
        try {
            PGPSignatureGenerator g = generator(signer);
            g.init(type, signer.getPrivateKey());
            g.setHashedSubpackets(hashed.generate());
            return how.apply(g);
        } catch (PGPException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A subkey binding with the subkey's own back-signature, both made at {@code at}. */
    private static PGPSignature bind(PGPKeyPair primary, PGPKeyPair sub, Instant at, Optional<Instant> expires) {
        PGPSignature back = certify(sub, PGPSignature.PRIMARYKEY_BINDING, hashed(at, sub.getPublicKey()),
                g -> g.generateCertification(primary.getPublicKey(), sub.getPublicKey()));
        PGPSignatureSubpacketGenerator h = hashed(at);
        h.setKeyFlags(false, KeyFlags.SIGN_DATA);
        expires.ifPresent(e -> h.setKeyExpirationTime(true, secondsSince(BORN, e)));
        try {
            h.addEmbeddedSignature(false, back);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return certify(primary, PGPSignature.SUBKEY_BINDING, h, g -> g.generateCertification(primary.getPublicKey(), sub.getPublicKey()));
    }

    private static PGPKeyPair pair(KeyFlag... flags) {
        try {
            KeySpec spec = KeySpec.getBuilder(KeyType.EDDSA_LEGACY(EdDSALegacyCurve._Ed25519), flags).setKeyCreationDate(Date.from(BORN)).build();
            return KeyRingBuilder.generateKeyPair(spec, Date.from(BORN));
        } catch (Exception e) {
            // PGPainless is written in Kotlin and throws PGPException without declaring it.
            throw new IllegalStateException(e);
        }
    }

    /** The same key pair with its public half as a subkey packet. */
    private static PGPKeyPair asSubkey(PGPKeyPair k) {
        PublicKeyPacket p = k.getPublicKey().getPublicKeyPacket();
        try {
            PGPPublicKey sub = new PGPPublicKey(new PublicSubkeyPacket(p.getVersion(), p.getAlgorithm(), p.getTime(), p.getKey()),
                    new BcKeyFingerprintCalculator());
            return new PGPKeyPair(sub, k.getPrivateKey());
        } catch (PGPException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PGPSignatureGenerator generator(PGPKeyPair k) {
        return new PGPSignatureGenerator(new BcPGPContentSignerBuilder(k.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256), k.getPublicKey());
    }

    private static PGPSignatureSubpacketGenerator hashed(Instant at) {
        PGPSignatureSubpacketGenerator h = new PGPSignatureSubpacketGenerator();
        h.setSignatureCreationTime(true, Date.from(at));
        return h;
    }

    private static PGPSignatureSubpacketGenerator hashed(Instant at, PGPPublicKey issuer) {
        PGPSignatureSubpacketGenerator h = hashed(at);
        h.setIssuerFingerprint(false, issuer);
        return h;
    }

    private static void reason(PGPSignatureSubpacketGenerator h, Reason reason) {
        if (reason != Reason.NONE) {
            h.setRevocationReason(false, (byte) reason.tag, "test: " + reason.name().toLowerCase(Locale.ROOT));
        }
    }

    private static long secondsSince(Instant from, Instant to) {
        return Duration.between(from, to).toSeconds();
    }
}
