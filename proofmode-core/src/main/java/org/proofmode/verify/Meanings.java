// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What verdicts and check codes mean, in plain words for a reader who has never used a terminal: the one
 * source the text report, the PDF and HTML reports and the documentation take them from. Every constant
 * of {@link CheckCodes} has its own sentence ({@code MeaningsTest} holds this), and the families
 * ({@code signature.<subject>.<outcome>}, {@code redaction.signature.<outcome>}, {@code c2pa.<status>}) are
 * explained by their parts.
 */
public final class Meanings {
    private static final Map<String, String> CODES = Map.ofEntries(
            Map.entry(CheckCodes.BUNDLE_PROOF_MISSING, "The bundle holds no proof record at all, so nothing in it can be checked."),
            Map.entry(CheckCodes.BUNDLE_PUBKEY_PRESENT, "The bundle carries the signer's public key (pubkey.asc), which the signatures are checked with."),
            Map.entry(CheckCodes.BUNDLE_PUBKEY_MISSING, "The bundle carries no public key; signatures could be checked only against keys the verifier already trusts."),
            Map.entry(CheckCodes.BUNDLE_PUBKEY_MALFORMED, "The bundle's pubkey.asc is not a readable OpenPGP key."),
            Map.entry(CheckCodes.BUNDLE_FILE_UNCHECKED, "A file this version does not check (such as the how-to text); the verdict does not speak for it."),
            Map.entry(CheckCodes.BUNDLE_FILE_INSTRUCTIONS, "The how-to text the exporting app adds for the recipient: instructions, not evidence; the verdict is not about it."),
            Map.entry(CheckCodes.BUNDLE_ENTRY_UNPROVED, "A media file that no proof names: it may have been added later; it was not checked."),
            Map.entry(CheckCodes.BUNDLE_ENTRY_UNKNOWN, "A file that belongs to no proof and is not media; it was not checked."),
            Map.entry(CheckCodes.PROOF_RECORD_MISSING, "A proof has signatures or media but no proof record."),
            Map.entry(CheckCodes.PROOF_JSON_MALFORMED, "The JSON proof record cannot be read."),
            Map.entry(CheckCodes.PROOF_CSV_MALFORMED, "The CSV proof record cannot be read."),
            Map.entry(CheckCodes.PROOF_JSON_HASH_MATCH, "The JSON proof record names this media's fingerprint (SHA-256)."),
            Map.entry(CheckCodes.PROOF_JSON_HASH_MISMATCH, "The JSON proof record names other media than this proof."),
            Map.entry(CheckCodes.PROOF_CSV_HASH_MATCH, "The CSV proof record names this media's fingerprint (SHA-256)."),
            Map.entry(CheckCodes.PROOF_CSV_HASH_MISMATCH, "The CSV proof record names other media than this proof."),
            Map.entry(CheckCodes.MEDIA_MISSING, "The media file is not in the bundle, so it could not be compared with the proof."),
            Map.entry(CheckCodes.MEDIA_HASH_MATCH, "The media file's fingerprint (SHA-256) is the one the proof recorded: not one byte has changed."),
            Map.entry(CheckCodes.MEDIA_HASH_MISMATCH, "The media file's fingerprint differs from the one the proof recorded: the file was changed."),
            Map.entry(CheckCodes.CONTEXT_CAPTURE_AFTER_PROOF, "The capture time in the media is after the time of the proof: one of the two clocks was wrong."),
            Map.entry(CheckCodes.CONTEXT_LOCATION_STALE, "The recorded position was taken more than 5 minutes before the media."),
            Map.entry(CheckCodes.CONTEXT_CLOCK_UNSYNCHRONISED, "The device's clock was not synchronised with a time server: its times may be off."),
            Map.entry(CheckCodes.SIGNER_TRUSTED, "The signer is one of the keys the verifier trusts."),
            Map.entry(CheckCodes.SIGNER_UNTRUSTED, "The signer is not one of the keys the verifier trusts: the files are unchanged since this key signed them, but the key alone does not say whose it is."),
            Map.entry(CheckCodes.PROOF_SIGNER_MATCH, "The proof record names the key that signed it."),
            Map.entry(CheckCodes.PROOF_SIGNER_MISMATCH, "The proof record names another key than the one that signed it: it was signed again by someone else."),
            Map.entry(CheckCodes.SIGNER_INCONSISTENT, "The files of one proof were signed by different keys."),
            Map.entry(CheckCodes.TLOG_INCLUSION_VALID, "A public transparency log that the verifier trusts holds an entry for this media: it was registered there by the time shown, and the log cannot quietly remove it."),
            Map.entry(CheckCodes.TLOG_INCLUSION_INVALID, "The transparency-log receipt is damaged, wrongly signed, or names other media."),
            Map.entry(CheckCodes.TLOG_INCLUSION_UNTRUSTED, "The transparency-log receipt is signed by a log the verifier does not trust."),
            Map.entry(CheckCodes.TLOG_WITNESSES_INSUFFICIENT, "Independent witnesses were required to have cosigned the transparency log's checkpoint, and this proof's receipt has fewer of them (or there is no receipt): nothing shows that others saw the same log."),
            Map.entry(CheckCodes.TLOG_ENTRY_OTHER_PROOF, "The transparency-log receipt is of another proof of the same media, signed by another key: it says nothing about when this proof existed."),
            Map.entry(CheckCodes.TIMESTAMP_RFC3161_VALID, "A time-stamping authority the verifier trusts certifies that the signature existed at the time shown: it was not made later."),
            Map.entry(CheckCodes.TIMESTAMP_RFC3161_UNTRUSTED, "A time stamp covers the signature, but its authority is not one the verifier trusts."),
            Map.entry(CheckCodes.TIMESTAMP_RFC3161_INVALID, "The time stamp is damaged, covers other data, or its signature is bad."),
            Map.entry(CheckCodes.TIMESTAMP_OTS_PENDING, "An OpenTimestamps proof waits at public calendars to be written into the Bitcoin blockchain; it does not prove a time yet."),
            Map.entry(CheckCodes.TIMESTAMP_OTS_BITCOIN, "An OpenTimestamps proof reaches a Bitcoin block: the data existed when that block was mined (compare the block with a public explorer)."),
            Map.entry(CheckCodes.TIMESTAMP_OTS_MISMATCH, "The OpenTimestamps proof is for other data than this proof."),
            Map.entry(CheckCodes.TIMESTAMP_OTS_MALFORMED, "The OpenTimestamps file cannot be read."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_VALID, "Google's SafetyNet service attested, at the time shown, which app on what kind of device asked about this media: the attestation is Google's, unchanged, and names this media."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_SIGNATURE_INVALID, "The device attestation's signature does not verify: it was changed or forged."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_CHAIN_INVALID, "The device attestation's certificate is not Google's attestation service, or its chain did not lead to a trusted root at the attestation's time."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_NONCE_MISMATCH, "The device attestation was made for other media than this proof: it says nothing about this one."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED, "The device attestation file cannot be read."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_APP_UNKNOWN, "The device attestation is genuine, but of an app the verifier does not accept as ProofMode: another app, or a copy signed by someone else."),
            Map.entry(CheckCodes.INTEGRITY_SAFETYNET_DEVICE_FAILED, "Google found the device failing its integrity checks (modified, rooted or emulated): what it recorded deserves less weight."),
            Map.entry(CheckCodes.INTEGRITY_PLAY_UNVERIFIABLE, "A Play Integrity token is encrypted for the app's own server: no one else can check it offline, so the verdict does not speak for it."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID, "Android key attestation: Google-rooted hardware (or Android's software key store, as the message says) made a key for this media at an app's request, on a device in the boot state shown. It does not show that this key signed the proof."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID, "The key attestation's certificates do not lead to Google's attestation root: it may be made up, and says nothing about the device."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH, "The key attestation was made for other media than this proof: it says nothing about this one."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_REVOKED, "Google has revoked a certificate of the key attestation's chain (a leaked or faulty attestation key): the attestation is not to be trusted."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_MALFORMED, "The key attestation file cannot be read."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_SOFTWARE, "The key attestation was made in software, not in the phone's secure hardware: it vouches for nothing that software on the phone could not fake."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_BOOT_UNVERIFIED, "The phone's bootloader was unlocked or its operating system not verified: it may have been modified, and what it recorded deserves less weight."),
            Map.entry(CheckCodes.INTEGRITY_KEY_ATTESTATION_APP_UNKNOWN, "The key attestation is genuine, but names an app the verifier does not accept as ProofMode (or none): another app, or a copy signed by someone else."),
            Map.entry(CheckCodes.FRAMES_MATCH, "The list of the video's decoded frames agrees with the proof record."),
            Map.entry(CheckCodes.FRAMES_MISMATCH, "The list of the video's decoded frames disagrees with the proof record."),
            Map.entry(CheckCodes.FRAMES_MALFORMED, "The list of the video's decoded frames cannot be read."),
            Map.entry(CheckCodes.COMPARE_BYTES_IDENTICAL, "The two files are the same bytes."),
            Map.entry(CheckCodes.COMPARE_FRAMES_IDENTICAL, "The two videos show the same decoded frames (another container or other metadata)."),
            Map.entry(CheckCodes.COMPARE_FRAMES_EXCERPT, "One video's frames are a run of the other's: it is an excerpt."),
            Map.entry(CheckCodes.COMPARE_FRAMES_DIFFERENT, "The two videos' frames differ."),
            Map.entry(CheckCodes.COMPARE_SAMPLES_IDENTICAL, "The two recordings have the same decoded sound."),
            Map.entry(CheckCodes.COMPARE_SAMPLES_DIFFERENT, "The two recordings' decoded sound differs."),
            Map.entry(CheckCodes.COMPARE_PIXELS_IDENTICAL, "The two images have the same pixels (other bytes, such as other metadata)."),
            Map.entry(CheckCodes.COMPARE_PERCEPTUAL_CLOSE, "The two images or videos look alike but their pixels differ: re-encoded, resized, cut or edited."),
            Map.entry(CheckCodes.COMPARE_PERCEPTUAL_DIFFERENT, "The two images or videos are different pictures."),
            Map.entry(CheckCodes.COMPARE_UNCOMPARABLE, "The two files could not be compared by content."),
            Map.entry(CheckCodes.COMPARE_PROOF_INVALID, "One side's proof does not verify, so what it records proves nothing."),
            Map.entry(CheckCodes.COMPARE_FRAMES_SPLICED, "One video has frames of the other, but not as one run: foreign frames were spliced in, or parts reordered."),
            Map.entry(CheckCodes.COMPARE_AUDIO_SAME, "The excerpt's sound is the original's at the same times."),
            Map.entry(CheckCodes.COMPARE_AUDIO_DIFFERENT, "The excerpt's sound is not the original's at the same times: it was replaced or added."),
            Map.entry(CheckCodes.COMPARE_AUDIO_UNCHECKED, "The excerpt's frames are the original's, but its sound could not be compared with the original's at the same times."),
            Map.entry(CheckCodes.REDACTION_RECORD_VALID, "This media is a redacted copy, and its signed record says of which original and how it was made."),
            Map.entry(CheckCodes.REDACTION_RECORD_MALFORMED, "The redaction record cannot be read or is incomplete."),
            Map.entry(CheckCodes.REDACTION_RECORD_MISMATCH, "The redaction record is for another copy."),
            Map.entry(CheckCodes.REDACTION_RECORD_MISSING, "An original was given, but this proof has no redaction record."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_MATCH, "The given original is the one the redaction record names."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_MISMATCH, "The given original is not the one the redaction record names."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_UNCHECKED, "The original could not be compared with the copy."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_PROOF_VALID, "The original's own proof verifies."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_PROOF_INVALID, "The original's own proof does not verify."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_PROOF_MISSING, "No proof of the original was available."),
            Map.entry(CheckCodes.REDACTION_ORIGINAL_SIGNER_MISMATCH, "The original's proof is signed by another key than the redaction record names."),
            Map.entry(CheckCodes.REDACTION_OUTSIDE_UNCHANGED, "Outside the hidden regions, the copy's pixels are the original's."),
            Map.entry(CheckCodes.REDACTION_OUTSIDE_CHANGED, "Outside the hidden regions, the copy differs from the original."),
            Map.entry(CheckCodes.REDACTION_OUTSIDE_UNCHECKED, "The pixels outside the hidden regions could not be compared."),
            Map.entry(CheckCodes.REDACTION_INSIDE_CHANGED, "Every hidden region differs from the original there."),
            Map.entry(CheckCodes.REDACTION_INSIDE_UNCHANGED, "A hidden region looks the same as in the original."),
            Map.entry(CheckCodes.C2PA_CLAIM_SIGNATURE_VALIDATED, "The content credentials' signature verifies."),
            Map.entry(CheckCodes.C2PA_CLAIM_SIGNATURE_MISMATCH, "The content credentials' signature does not verify."),
            Map.entry(CheckCodes.C2PA_DATA_HASH_MATCH, "The media's bytes are those the content credentials were signed for."),
            Map.entry(CheckCodes.C2PA_DATA_HASH_MISMATCH, "The media's bytes changed after its content credentials were signed."),
            Map.entry(CheckCodes.C2PA_HASHED_URI_MATCH, "A statement in the content credentials is as signed."),
            Map.entry(CheckCodes.C2PA_HASHED_URI_MISMATCH, "A statement in the content credentials changed after signing."),
            Map.entry(CheckCodes.C2PA_SIGNING_CREDENTIAL_TRUSTED, "The content credentials' signer is certified by an authority the verifier trusts."),
            Map.entry(CheckCodes.C2PA_SIGNING_CREDENTIAL_UNTRUSTED, "The content credentials' signer is not certified by an authority the verifier trusts."),
            Map.entry(CheckCodes.C2PA_SIGNING_CREDENTIAL_INVALID, "The content credentials' signing certificate breaks the C2PA rules."),
            Map.entry(CheckCodes.C2PA_TIMESTAMP_VALIDATED, "A time stamp covers the content credentials' signature."),
            Map.entry(CheckCodes.C2PA_CLAIM_MALFORMED, "The content credentials cannot be read."),
            Map.entry(CheckCodes.C2PA_MANIFEST_PRESENT, "The media carries content credentials (C2PA)."),
            Map.entry(CheckCodes.C2PA_CAWG_X509_SIGNATURE_VALIDATED, "A person or organisation (named) signed the content credentials with their identity certificate (CAWG)."),
            Map.entry(CheckCodes.C2PA_CAWG_X509_SIGNATURE_MISMATCH, "The identity signature in the content credentials does not verify: nobody is shown to vouch for them."),
            Map.entry(CheckCodes.C2PA_CAWG_X509_CREDENTIAL_UNTRUSTED, "The identity that signed the content credentials is not certified by an authority the verifier trusts."),
            Map.entry(CheckCodes.C2PA_CAWG_X509_CREDENTIAL_TRUSTED, "The identity that signed the content credentials is certified by an authority the verifier trusts."),
            Map.entry(CheckCodes.C2PA_CHAIN_MANIFEST, "One manifest of the content credentials' chain: who signed it, and whether it validated."),
            Map.entry(CheckCodes.C2PA_PROOFMODE_SIGNER_MATCH, "The content credentials name the key that signed the proof."),
            Map.entry(CheckCodes.C2PA_PROOFMODE_SIGNER_MISMATCH, "The content credentials name another key than the proof's signer."),
            Map.entry(CheckCodes.COLLECT_RECORD_MALFORMED, "The collection record cannot be read."),
            Map.entry(CheckCodes.COLLECT_RECORD_SIGNATURE_VALID, "The collection record is signed by the collector's key and unchanged since."),
            Map.entry(CheckCodes.COLLECT_RECORD_SIGNATURE_INVALID, "The collection record does not match its signature: changed, or signed by another key."),
            Map.entry(CheckCodes.COLLECT_RECORD_SIGNATURE_MISSING, "The collection record has no signature, or no key to check it with."),
            Map.entry(CheckCodes.COLLECT_WARC_DIGEST_MATCH, "The web archive (WARC) is the one the collection record names."),
            Map.entry(CheckCodes.COLLECT_WARC_DIGEST_MISMATCH, "The web archive (WARC) is missing or not the one the collection record names."),
            Map.entry(CheckCodes.COLLECT_WARC_RECORDS_MATCH, "Every record of the web archive holds the payload the collection record names."),
            Map.entry(CheckCodes.COLLECT_WARC_RECORDS_MISMATCH, "A record of the web archive differs from the collection record, or is missing or unlisted."),
            Map.entry(CheckCodes.COLLECT_WARC_MALFORMED, "The web archive cannot be read as a WARC."),
            Map.entry(CheckCodes.COLLECT_WARC_SIGNATURE_VALID, "The web archive is signed by the collector's key and unchanged since."),
            Map.entry(CheckCodes.COLLECT_WARC_SIGNATURE_INVALID, "The web archive's own signature is missing or does not verify."),
            Map.entry(CheckCodes.COLLECT_MEDIA_MATCH, "A media file taken from the page is the one the collection record names."),
            Map.entry(CheckCodes.COLLECT_MEDIA_MISMATCH, "A media file taken from the page is missing or changed."),
            Map.entry(CheckCodes.COLLECT_TLS_CHAIN_VALID, "The server's TLS chain kept with the page is the one recorded, each certificate signed by the next."),
            Map.entry(CheckCodes.COLLECT_TLS_CHAIN_INVALID, "The server's TLS chain kept with the page is missing, broken or not the one recorded."),
            Map.entry(CheckCodes.COLLECT_TLS_NONE, "The page was fetched over plain HTTP: no TLS chain was kept."),
            Map.entry(CheckCodes.COLLECT_CAPTURE, "What was collected, when and by which key."));

    private static final Map<String, String> SUBJECTS = Map.of(
            "media", "the media file", "proofJson", "the JSON proof record", "proofCsv", "the CSV proof record",
            "j3m", "the J3M record", "frames", "the video's frame list");

    private static final Map<String, String> OUTCOMES = Map.of(
            CheckCodes.VALID, "is signed by the signer's key and unchanged since",
            CheckCodes.INVALID, "does not match its signature: changed, or signed by another key",
            CheckCodes.MISSING, "has no signature",
            CheckCodes.MALFORMED, "has a signature file that is not an OpenPGP signature",
            CheckCodes.UNVERIFIABLE, "could not be checked: no key to check its signature with",
            CheckCodes.KEY_EXPIRED, "is signed by a key that had expired when it signed",
            CheckCodes.KEY_REVOKED, "is signed by a key that is revoked",
            CheckCodes.UNCHECKED, "is absent, so its signature was not checked");

    private Meanings() {}

    /**
     * What a check code means, in one or two plain sentences; a code this version does not know is
     * described as such.
     */
    public static String of(String code) {
        return known(code).orElse("A check this version does not describe (" + code + ").");
    }

    /**
     * Every code this version has its own sentence for: the constants' codes and each member of the
     * signature families ({@code signature.<subject>.<outcome>}, {@code redaction.signature.<outcome>}); the
     * reports' translations ({@code report.ReportMeanings}) are held to this list.
     */
    public static java.util.SortedSet<String> codes() {
        java.util.SortedSet<String> all = new java.util.TreeSet<>(CODES.keySet());
        for (String outcome : OUTCOMES.keySet()) {
            SUBJECTS.keySet().forEach(subject -> all.add("signature." + subject + "." + outcome));
            all.add("redaction.signature." + outcome);
        }
        return all;
    }

    /** What a check code means, if this version knows it. */
    public static Optional<String> known(String code) {
        String m = CODES.get(code);
        if (m != null) {
            return Optional.of(m);
        }
        List<String> parts = List.of(code.split("\\.", -1));
        if (parts.size() == 3 && parts.get(0).equals("signature") && SUBJECTS.containsKey(parts.get(1)) && OUTCOMES.containsKey(parts.get(2))) {
            return Optional.of(capital(SUBJECTS.get(parts.get(1))) + " " + OUTCOMES.get(parts.get(2)) + ".");
        }
        if (parts.size() == 3 && parts.get(0).equals("redaction") && parts.get(1).equals("signature") && OUTCOMES.containsKey(parts.get(2))) {
            return Optional.of("The redaction record " + OUTCOMES.get(parts.get(2)) + ".");
        }
        if (code.startsWith("c2pa.")) {
            return Optional.of("A status of the content credentials (C2PA specification code " + code.substring(5) + ").");
        }
        return Optional.empty();
    }

    /** What a verdict says, in one sentence. */
    public static String of(Verdict verdict) {
        return switch (verdict) {
            case TRUSTED -> "signed by a trusted key; the signed files (proof records and media) are unchanged";
            case VALID -> "the signed files (proof records and media) are unchanged since they were signed; the signer is not a trusted key";
            case INCOMPLETE -> "NOT CHECKED whether the content is unchanged: its content credentials bind the content in a way"
                    + " this version cannot check; nothing failed, but do not rely on the content until another tool has checked it";
            case INVALID -> "a check failed: do not rely on this proof";
        };
    }

    /** How many of the files a verdict does not speak for {@link #explain} names; the rest are counted. */
    public static final int UNCHECKED_SHOWN = 5;

    /** What a report's verdict covers, and what it does not: a verdict never speaks for files that were not checked. */
    public static String explain(VerificationReport r) {
        String covered = of(r.verdict());
        List<String> unchecked = r.unchecked();
        if (r.withoutMedia()) {
            // A proof-only bundle: the verdict speaks for the proof records alone, and says so once.
            covered = covered.replace("(proof records and media)", "(proof records)") + "; the media was not in the bundle";
            unchecked = unchecked.stream().filter(u -> !u.startsWith(VerificationReport.MEDIA_OF)).toList();
        }
        if (unchecked.isEmpty()) {
            return covered;
        }
        int shown = Math.min(unchecked.size(), UNCHECKED_SHOWN);
        return covered + "; not checked: " + String.join(", ", unchecked.subList(0, shown))
                + (unchecked.size() > shown ? " and " + (unchecked.size() - shown) + " more" : "");
    }

    private static String capital(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
