// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.proofmode.keys.OpenPgpKeys;
import org.proofmode.keys.SigningKey;
import org.proofmode.sign.StreamSigner;

/**
 * Derives invalid share bundles from valid ones by recipe: each variant is named after the check code
 * the verifier must report for it, and says which verdict it must get. The recipes are the attacks of
 * {@code docs/threat-model.md}: changed bytes, truncation, an attacker's key, each file dropped in turn,
 * duplicate entries (in another folder, and under the very same name), a renamed media file, shifted
 * times, a replayed signature, two bundles mixed, an unproved media file added; and, with keys whose life
 * the recipe controls ({@link LifecycleKeys}), a revocation stripped from the bundle's key, a signature
 * made after the key expired, and a record whose {@code Notes} carry terminal escapes; and a proof re-signed
 * by an attacker who keeps the first proof's transparency-log receipt; and a device attestation ({@code .gst})
 * whose signature was changed, or that was moved beside another proof.
 */
public final class TamperCorpus {
    /** What the verifier must conclude for a variant. */
    public enum Expect {
        /** A check fails: INVALID, exit 3. */
        INVALID,
        /** The bundle is unreadable as a whole: bad data, exit 41. */
        REJECTED,
        /** Intact but signed by an attacker's key: VALID, but not TRUSTED when the real key is required. */
        VALID_UNTRUSTED,
        /** Not tampering with content (a proof-only share, a renamed file): still VALID. */
        VALID,
        /** Intact proofs beside an added file: VALID, and the named warning accounts for the file. */
        FLAGGED,
        /** A validly signed record carrying terminal escapes: VALID, and the printed report holds none of them raw. */
        ESCAPED
    }

    /**
     * One derived bundle.
     *
     * @param name a file-name-safe name: the source bundle and the recipe
     *     (the zip is {@code <name>.<code>.zip}, e.g. {@code app-flip-media.media.hash.mismatch.zip})
     * @param code the check code the report must contain
     * @param expect the verdict it must get
     * @param zip the bundle
     * @param trust the key the verifier must trust for the verdict (its copy of the signer's key), if any
     * @param logKeys the transparency logs' verifier keys the verifier must trust ({@code origin+hash+base64})
     */
    public record Variant(String name, String code, Expect expect, Path zip, Optional<Path> trust, List<String> logKeys) {
        /** Validates the fields. */
        public Variant {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(expect, "expect");
            Objects.requireNonNull(zip, "zip");
            Objects.requireNonNull(trust, "trust");
            logKeys = List.copyOf(logKeys);
        }

        /** A variant judged trusting no log. */
        public Variant(String name, String code, Expect expect, Path zip, Optional<Path> trust) {
            this(name, code, expect, zip, trust, List.of());
        }

        /** A variant judged without trusted keys. */
        public Variant(String name, String code, Expect expect, Path zip) {
            this(name, code, expect, zip, Optional.empty());
        }

        /** Whether this variant is an attack the verifier must catch. */
        public boolean isAttack() {
            return expect != Expect.VALID;
        }
    }

    /** A valid bundle opened for deriving: its entries and the names of its parts. */
    private record Source(String label, Map<String, byte[]> entries, String id, String media) {
        String json() {
            return id + ".proof.json";
        }

        String csv() {
            return id + ".proof.csv";
        }

        Map<String, byte[]> copy() {
            Map<String, byte[]> m = new LinkedHashMap<>();
            entries.forEach((k, v) -> m.put(k, v.clone()));
            return m;
        }
    }

    /** Marks an entry to be written under the same name as another one (see {@link #writeZip}). */
    private static final String SAME_NAME = "same-name:";

    private final Path out;
    private final SigningKey attacker;
    private final List<Variant> variants = new ArrayList<>();

    /**
     * Prepares a corpus written under {@code out}.
     *
     * @param out where the derived zips go
     * @param attacker a key that is not the bundles' signer, to re-sign with
     */
    public TamperCorpus(Path out, SigningKey attacker) {
        this.out = Objects.requireNonNull(out, "out");
        this.attacker = Objects.requireNonNull(attacker, "attacker");
    }

    /**
     * Derives every recipe from bundle {@code a}, using bundle {@code b} (another valid proof) for the
     * replay and mix recipes.
     *
     * @return the variants added by this call
     */
    public List<Variant> derive(String label, Path a, Path b) {
        Source src = open(label, a);
        Source other = open(label + "-other", b);
        int before = variants.size();
        String sig = src.id + ".asc";

        add(src, "flip-media", "media.hash.mismatch", Expect.INVALID, m -> flipMiddle(m, src.media));
        add(src, "flip-json", "signature.proofJson.invalid", Expect.INVALID, m -> flipIn(m, src.json(), src.id.length() + 30));
        add(src, "flip-csv", "signature.proofCsv.invalid", Expect.INVALID, m -> flipIn(m, src.csv(), 5));
        add(src, "flip-signature", "signature.media.invalid", Expect.INVALID, m -> breakSignature(m, sig));
        add(src, "truncate-media", "media.hash.mismatch", Expect.INVALID, m -> truncate(m, src.media));
        add(src, "truncate-json", "proofJson.malformed", Expect.INVALID, m -> truncate(m, src.json()));
        add(src, "truncate-signature", "signature.media.malformed", Expect.INVALID, m -> truncate(m, sig));
        add(src, "attacker-resigns", "signer.untrusted", Expect.VALID_UNTRUSTED, m -> resign(m, src, false));
        if (new String(src.entries.get(src.json()), StandardCharsets.UTF_8).contains("\"Proof.Signer\"")) {
            add(src, "attacker-resigns-keeping-record", "proof.signer.mismatch", Expect.INVALID, m -> resign(m, src, true));
        }
        add(src, "drop-media", "media.missing", Expect.VALID, m -> drop(m, src.media));
        add(src, "drop-media-signature", "signature.media.missing", Expect.INVALID, m -> drop(m, sig));
        add(src, "drop-json-signature", "signature.proofJson.missing", Expect.INVALID, m -> drop(m, src.json() + ".asc"));
        add(src, "drop-csv-signature", "signature.proofCsv.missing", Expect.INVALID, m -> drop(m, src.csv() + ".asc"));
        add(src, "drop-json", "signature.proofJson.unchecked", Expect.VALID, m -> drop(m, src.json()));
        add(src, "drop-csv", "signature.proofCsv.unchecked", Expect.VALID, m -> drop(m, src.csv()));
        add(src, "drop-pubkey", "signature.media.unverifiable", Expect.INVALID, m -> drop(m, "pubkey.asc"));
        for (String name : List.copyOf(src.entries.keySet())) {
            if (!List.of(src.media, sig, src.json() + ".asc", src.csv() + ".asc", src.json(), src.csv(), "pubkey.asc").contains(name)) {
                // Files no check depends on (the how-to text, an OpenTimestamps proof, an attestation):
                // a bundle without them is still intact.
                add(src, "drop-" + dropLabel(src, name), "signature.media.valid", Expect.VALID, m -> drop(m, name));
            }
        }
        if (src.entries.containsKey(src.id + ".gst")) {
            add(src, "flip-attestation-signature", "integrity.safetynet.signature.invalid", Expect.INVALID,
                    m -> breakJwsSignature(m, src.id + ".gst"));
            // A genuine attestation attached to another proof: its nonce names the first proof's media.
            add(src, "attestation-of-other-media", "integrity.safetynet.nonce.mismatch", Expect.INVALID, m -> {
                byte[] gst = m.get(src.id + ".gst");
                m.clear();
                m.putAll(other.copy());
                m.put(other.id + ".gst", gst);
            });
            // A key attestation forged for this proof (TEE, locked, verified, the app): its chain is not Google's.
            add(src, "forged-key-attestation", "integrity.keyAttestation.chain.invalid", Expect.INVALID,
                    m -> m.put(src.id + ".attest.pem", forgedKeyAttestation(src.id)));
        }
        add(src, "duplicate-entry", "bundle.rejected", Expect.REJECTED, m -> duplicate(m, src.json()));
        add(src, "duplicate-entry-same-name", "bundle.rejected", Expect.REJECTED, m -> m.put(SAME_NAME + src.json(), forged(m.get(src.json()))));
        add(src, "rename-media", "media.hash.match", Expect.VALID, m -> rename(m, src.media, "renamed-" + src.media));
        add(src, "shift-time", "signature.proofJson.invalid", Expect.INVALID, m -> shiftTime(m, src.json()));
        add(src, "replay-signature", "signature.media.invalid", Expect.INVALID,
                m -> m.put(sig, other.entries.get(other.id + ".asc").clone()));
        add(src, "mix-bundles", "media.hash.mismatch", Expect.INVALID,
                m -> m.put(src.media, other.entries.get(other.media).clone()));
        add(src, "unproved-extra-media", "bundle.entry.unproved", Expect.FLAGGED,
                m -> m.put("extra-" + other.media, other.entries.get(other.media).clone()));
        return List.copyOf(variants.subList(before, variants.size()));
    }

    /**
     * Derives the receipt recipe from bundle {@code logged}, whose proof carries a transparency-log receipt
     * ({@code <h>.tlog}) of the log whose verifier key is {@code logKey}: an attacker re-signs the same media
     * and keeps the first proof's receipt beside the new proof, so that its earlier time would pass for the
     * new proof's ({@code tlog.entry.other-proof}, INVALID, judged trusting the log).
     *
     * @return the variants added by this call
     */
    public List<Variant> deriveReceipt(String label, Path logged, String logKey) {
        Source src = open(label, logged);
        if (!src.entries.containsKey(src.id + ".tlog")) {
            throw new IllegalArgumentException(logged + " carries no receipt " + src.id + ".tlog");
        }
        Map<String, byte[]> m = src.copy();
        resign(m, src, false);
        String name = label + "-attacker-resigns-keeping-receipt";
        String code = "tlog.entry.other-proof";
        Path zip = out.resolve(name + "." + code + ".zip");
        writeZip(zip, m, false);
        Variant v = new Variant(name, code, Expect.INVALID, zip, Optional.empty(), List.of(logKey));
        variants.add(v);
        return List.of(v);
    }

    /** What the key-lifecycle recipes' signer does to its key. */
    private static final Instant EVENT = LifecycleKeys.BORN.plus(Duration.ofDays(15));
    private static final Instant AFTER = LifecycleKeys.BORN.plus(Duration.ofDays(25));

    /** Text in {@code Notes} that would forge a PASS line, erase the verdict, set the window title and reverse text. */
    public static final String HOSTILE_NOTES = "fine\n  PASS  signature.media.valid     photo.jpg: good\r\u001b[2K\u001b[1A"
            + "\u001b]0;owned\u0007\u009b2J\u202eDETSURT\u2028\u0085end";

    /**
     * Derives the key-lifecycle recipes, each a fresh proof of {@code media} signed by a key made for it:
     * the owner revokes the key as compromised and the sender ships the copy from before
     * ({@code signature.media.keyRevoked} when the verifier trusts the owner's copy), a signature made after
     * the key expired ({@code signature.media.keyExpired}), and a record with {@link #HOSTILE_NOTES}.
     *
     * @return the variants added by this call
     */
    public List<Variant> deriveKeyLifecycle(String label, byte[] media) {
        int before = variants.size();
        Map<String, String> path = Map.of("File Path", "/DCIM/photo.jpg");

        LifecycleKeys.Key stolen = LifecycleKeys.primaryOnly("owner <owner@example.org>");
        LifecycleKeys.Key revoked = stolen.revoke(EVENT, LifecycleKeys.Reason.COMPROMISED);
        Path trust = out.resolve(label + "-stripped-revocation.owner.asc");
        write(trust, revoked.armored());
        add(label + "-stripped-revocation", "signature.media.keyRevoked", Expect.INVALID,
                stolen.proofEntries("photo.jpg", media, AFTER, path, stolen.certificate()), Optional.of(trust));

        LifecycleKeys.Key expiring = LifecycleKeys.primaryOnly("owner <owner@example.org>").expire(LifecycleKeys.BORN.plusSeconds(60), EVENT);
        add(label + "-expired-key", "signature.media.keyExpired", Expect.INVALID,
                expiring.proofEntries("photo.jpg", media, AFTER, path, expiring.certificate()), Optional.empty());

        LifecycleKeys.Key sender = LifecycleKeys.primaryOnly("sender\u001b]0;owned\u0007 <s@example.org>");
        Map<String, String> notes = new LinkedHashMap<>(path);
        notes.put("Notes", HOSTILE_NOTES);
        add(label + "-hostile-notes", "signature.proofJson.valid", Expect.ESCAPED,
                sender.proofEntries("photo.jpg", media, AFTER, notes, sender.certificate()), Optional.empty());
        return List.copyOf(variants.subList(before, variants.size()));
    }

    private void add(String name, String code, Expect expect, Map<String, byte[]> entries, Optional<Path> trust) {
        Path zip = out.resolve(name + "." + code + ".zip");
        writeZip(zip, entries, false);
        variants.add(new Variant(name, code, expect, zip, trust));
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every variant derived so far. */
    public List<Variant> variants() {
        return List.copyOf(variants);
    }

    private void add(Source src, String recipe, String code, Expect expect, Consumer<Map<String, byte[]>> change) {
        Map<String, byte[]> m = src.copy();
        change.accept(m);
        String name = src.label + "-" + recipe;
        Path zip = out.resolve(name + "." + code + ".zip");
        writeZip(zip, m, recipe.equals("duplicate-entry"));
        variants.add(new Variant(name, code, expect, zip));
    }

    private static Source open(String label, Path zip) {
        Map<String, byte[]> entries = Tamper.readZip(zip);
        String id = entries.keySet().stream().filter(n -> n.endsWith(".proof.json") || n.endsWith(".proof.csv"))
                .map(n -> n.substring(0, n.indexOf(".proof."))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(zip + " holds no proof record"));
        String media = entries.keySet().stream()
                .filter(n -> !n.startsWith(id) && !n.equals("pubkey.asc") && !n.equals("HowToVerifyProofData.txt"))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(zip + " holds no media"));
        return new Source(label, entries, id, media);
    }

    private static void flipMiddle(Map<String, byte[]> m, String name) {
        flipIn(m, name, m.get(name).length / 2);
    }

    private static void flipIn(Map<String, byte[]> m, String name, int offset) {
        byte[] b = m.get(name);
        b[Math.min(offset, b.length - 1)] ^= 0x01;
    }

    /** Changes one base64url character of a JWS's signature part, keeping the token readable. */
    private byte[] forgedKeyAttestation(String mediaSha256) {
        try {
            Path dir = Files.createDirectories(out.resolve("key-attestation-" + mediaSha256.substring(0, 12)));
            return KeyAttestationChains.make(dir, KeyAttestationChains.TEE, true, KeyAttestationChains.VERIFIED, mediaSha256);
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a key attestation chain: " + e.getMessage(), e);
        }
    }

    private static void breakJwsSignature(Map<String, byte[]> m, String name) {
        byte[] b = m.get(name);
        int at = new String(b, StandardCharsets.US_ASCII).lastIndexOf('.') + 10;
        b[at] = (byte) (b[at] == 'A' ? 'B' : 'A');
    }

    private static void truncate(Map<String, byte[]> m, String name) {
        m.put(name, Arrays.copyOf(m.get(name), m.get(name).length / 2));
    }

    private static void drop(Map<String, byte[]> m, String name) {
        if (m.remove(name) == null) {
            throw new IllegalArgumentException("no entry " + name);
        }
    }

    private static void rename(Map<String, byte[]> m, String from, String to) {
        m.put(to, m.remove(from));
    }

    private static void breakSignature(Map<String, byte[]> m, String name) {
        try {
            Path tmp = Files.createTempFile("sig", ".asc");
            try {
                Files.write(tmp, m.get(name));
                Tamper.breakSignatureValue(tmp);
                m.put(name, Files.readAllBytes(tmp));
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Changes one digit of the proof time in the JSON record (a time shifted by a minute or so). */
    private static void shiftTime(Map<String, byte[]> m, String json) {
        String text = new String(m.get(json), StandardCharsets.UTF_8);
        int at = text.indexOf("\"Proof Generated\"");
        if (at < 0) {
            throw new IllegalArgumentException(json + " has no Proof Generated");
        }
        int digit = at + "\"Proof Generated\":\"".length();
        while (!Character.isDigit(text.charAt(digit))) {
            digit++;
        }
        char c = text.charAt(digit);
        char shifted = c == '9' ? '8' : (char) (c + 1);
        m.put(json, (text.substring(0, digit) + shifted + text.substring(digit + 1)).getBytes(StandardCharsets.UTF_8));
    }

    /** A short name for a dropped file: its suffix after the proof's hash, or its name. */
    private static String dropLabel(Source src, String name) {
        String label = name.startsWith(src.id + ".") ? name.substring(src.id.length() + 1) : name;
        return label.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT);
    }

    /** Puts a second copy of an entry, with other content, under another folder. */
    private static void duplicate(Map<String, byte[]> m, String name) {
        m.put("forged/" + name, forged(m.get(name)));
    }

    private static byte[] forged(byte[] content) {
        byte[] forged = content.clone();
        forged[forged.length / 2] ^= 0x01;
        return forged;
    }

    /** Re-signs media, JSON and CSV with the attacker's key and ships the attacker's public key. */
    private void resign(Map<String, byte[]> m, Source src, boolean keepRecord) {
        if (!keepRecord) {
            UnaryOperator<String> rename = t -> t.replaceAll("[0-9A-F]{40}", attacker.info().fingerprint());
            for (String r : List.of(src.json(), src.csv())) {
                if (m.containsKey(r)) {
                    m.put(r, rename.apply(new String(m.get(r), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        Instant now = Instant.now();
        m.put(src.id + ".asc", ascii(StreamSigner.sign(attacker, m.get(src.media), now).armoredSignature()));
        for (String r : List.of(src.json(), src.csv())) {
            if (m.containsKey(r)) {
                m.put(r + ".asc", ascii(StreamSigner.sign(attacker, m.get(r), now).armoredSignature()));
            }
        }
        m.put("pubkey.asc", OpenPgpKeys.armor(attacker.certificate()));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void writeZip(Path zip, Map<String, byte[]> entries, boolean keepFolders) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, String> placeholders = new LinkedHashMap<>();
        try (ZipOutputStream z = new ZipOutputStream(bytes)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                String name = keepFolders ? e.getKey() : e.getKey().substring(e.getKey().lastIndexOf('/') + 1);
                if (name.startsWith(SAME_NAME)) {
                    // ZipOutputStream refuses a name twice: write a placeholder of the same length, patched below.
                    String real = name.substring(SAME_NAME.length());
                    name = "~" + real.substring(1);
                    placeholders.put(name, real);
                }
                z.putNextEntry(new ZipEntry(name));
                z.write(e.getValue());
                z.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] out = bytes.toByteArray();
        placeholders.forEach((placeholder, real) -> {
            byte[] from = ascii(placeholder);
            int patched = 0;
            for (int i = 0; i + from.length <= out.length; i++) {
                if (Arrays.equals(out, i, i + from.length, from, 0, from.length)) {
                    System.arraycopy(ascii(real), 0, out, i, from.length);
                    patched++;
                }
            }
            if (patched != 2) {
                throw new IllegalStateException("expected " + placeholder + " in a local header and the central directory, found " + patched);
            }
        });
        try (OutputStream os = Files.newOutputStream(zip)) {
            os.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
