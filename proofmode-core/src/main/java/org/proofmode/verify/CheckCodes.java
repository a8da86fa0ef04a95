// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import org.proofmode.c2pa.C2paStatus;

/**
 * The stable check codes of verification reports. Codes are a contract: they are never renamed or
 * reused for another meaning. Signature codes are {@code signature.<subject>.<outcome>} with subject
 * {@code media}, {@code proofJson}, {@code proofCsv}, {@code j3m} (CameraV's record, when present) or
 * {@code frames} (a video's frame list, when present), and
 * outcome {@code valid}, {@code invalid}, {@code missing}, {@code malformed}, {@code unverifiable},
 * {@code unchecked}, {@code keyExpired} or {@code keyRevoked}.
 */
public final class CheckCodes {
    /** The bundle holds no proof record at all. */
    public static final String BUNDLE_PROOF_MISSING = "bundle.proof.missing";
    /** {@code pubkey.asc} is present and readable. */
    public static final String BUNDLE_PUBKEY_PRESENT = "bundle.pubkey.present";
    /** No {@code pubkey.asc}: signatures can be checked only against trusted keys. */
    public static final String BUNDLE_PUBKEY_MISSING = "bundle.pubkey.missing";
    /** {@code pubkey.asc} is not a readable OpenPGP key. */
    public static final String BUNDLE_PUBKEY_MALFORMED = "bundle.pubkey.malformed";
    /** A file the verifier does not check (yet), such as the how-to text. */
    public static final String BUNDLE_FILE_UNCHECKED = "bundle.file.unchecked";
    /**
     * Note: the how-to text ({@code HowToVerifyProofData.txt}) in the bundle's root, as our export and the
     * app write it: instructions for the recipient, not evidence. The verdict's summary does not list it.
     */
    public static final String BUNDLE_FILE_INSTRUCTIONS = "bundle.file.instructions";
    /** Warning: a media file in the bundle that no proof names; it was not checked. */
    public static final String BUNDLE_ENTRY_UNPROVED = "bundle.entry.unproved";
    /**
     * Warning: a file that belongs to no proof and is not media (a signature over a file that is not there,
     * a hidden file, anything else); it was not checked.
     */
    public static final String BUNDLE_ENTRY_UNKNOWN = "bundle.entry.unknown";

    /** A proof has signatures or media but neither a JSON nor a CSV record. */
    public static final String PROOF_RECORD_MISSING = "proof.record.missing";
    /** The JSON record cannot be parsed. */
    public static final String PROOF_JSON_MALFORMED = "proofJson.malformed";
    /** The CSV record cannot be parsed. */
    public static final String PROOF_CSV_MALFORMED = "proofCsv.malformed";
    /** Every JSON record names the media hash of the proof. */
    public static final String PROOF_JSON_HASH_MATCH = "proofJson.hash.match";
    /** A JSON record names another media hash. */
    public static final String PROOF_JSON_HASH_MISMATCH = "proofJson.hash.mismatch";
    /** Every CSV row names the media hash of the proof. */
    public static final String PROOF_CSV_HASH_MATCH = "proofCsv.hash.match";
    /** A CSV row names another media hash. */
    public static final String PROOF_CSV_HASH_MISMATCH = "proofCsv.hash.mismatch";

    /** The media file is not in the bundle (a proof-only share); its hash and signature are unchecked. */
    public static final String MEDIA_MISSING = "media.missing";
    /** The media's SHA-256 equals the proof's. */
    public static final String MEDIA_HASH_MATCH = "media.hash.match";
    /** The media's SHA-256 differs from the proof's: the media was changed. */
    public static final String MEDIA_HASH_MISMATCH = "media.hash.mismatch";

    /** Warning: the media's recorded capture time (EXIF, container) is after the proof time. */
    public static final String CONTEXT_CAPTURE_AFTER_PROOF = "context.captureTime.afterProof";
    /** Warning: the recorded position fix is older than the media. */
    public static final String CONTEXT_LOCATION_STALE = "context.location.stale";
    /** Warning: the device's clock was recorded as not synchronised to a time server. */
    public static final String CONTEXT_CLOCK_UNSYNCHRONISED = "context.clock.unsynchronised";

    /** Suffix: the signature verifies with the signer's key. */
    public static final String VALID = "valid";
    /** Suffix: the signature does not verify, or was made by a key that is not the proof's. */
    public static final String INVALID = "invalid";
    /** Suffix: the signature file is absent. */
    public static final String MISSING = "missing";
    /** Suffix: the signature file is not an OpenPGP signature. */
    public static final String MALFORMED = "malformed";
    /** Suffix: no key is available to check the signature. */
    public static final String UNVERIFIABLE = "unverifiable";
    /**
     * Suffix: the signature verifies, but the signing key (or signing subkey) had expired when the
     * signature says it was made; as {@code sqv}, the key's state at the signature's creation time counts.
     */
    public static final String KEY_EXPIRED = "keyExpired";
    /**
     * Suffix: the signing key (or signing subkey) is revoked for this signature: a hard revocation (no
     * reason, "compromised") invalidates all its signatures, a soft one ("superseded", "retired") those made
     * after it. For a trusted key, revocations in the verifier's copy count even when the bundle's
     * {@code pubkey.asc} lacks them.
     */
    public static final String KEY_REVOKED = "keyRevoked";
    /** Suffix: the signed file is absent, so the signature was not checked. */
    public static final String UNCHECKED = "unchecked";

    /** The signer is one of the trusted keys. */
    public static final String SIGNER_TRUSTED = "signer.trusted";
    /** The signer is not one of the trusted keys. */
    public static final String SIGNER_UNTRUSTED = "signer.untrusted";
    /** The record's {@code Proof.Signer} names the key that signed it. */
    public static final String PROOF_SIGNER_MATCH = "proof.signer.match";
    /** The record's {@code Proof.Signer} names another key than the one that signed it: re-signed. */
    public static final String PROOF_SIGNER_MISMATCH = "proof.signer.mismatch";
    /** The files of one proof were signed by different keys. */
    public static final String SIGNER_INCONSISTENT = "signer.inconsistent";

    /**
     * A transparency-log receipt ({@code <h>.tlog}) proves that a log whose key is trusted holds an entry
     * naming this proof's media; the message gives the log, the index, what the entry records and when.
     */
    public static final String TLOG_INCLUSION_VALID = "tlog.inclusion.valid";
    /**
     * A receipt is malformed, its checkpoint's signature by a trusted log key fails, its inclusion proof
     * does not lead to the signed root, or its entry names other media.
     */
    public static final String TLOG_INCLUSION_INVALID = "tlog.inclusion.invalid";
    /** A receipt's checkpoint is signed by no trusted log key ({@code --log-key}, {@code PROOFMODE_HOME/log-keys/}). */
    public static final String TLOG_INCLUSION_UNTRUSTED = "tlog.inclusion.untrusted";
    /**
     * A receipt signed by a trusted log names this proof's media but not the key that signed the proof (other
     * signers, or none): it is another proof's receipt, such as that of the proof someone re-signed, and its
     * time is not this proof's.
     */
    public static final String TLOG_ENTRY_OTHER_PROOF = "tlog.entry.other-proof";
    /**
     * Witnesses were required ({@code verify --require-witnesses N}) and the proof has no receipt whose
     * checkpoint, signed by a trusted log, carries N valid cosignatures by trusted witnesses.
     */
    public static final String TLOG_WITNESSES_INSUFFICIENT = "tlog.witnesses.insufficient";

    /** An RFC 3161 token ({@code .tsr}) is intact, covers the proof, and its authority chains to a trusted root; the message gives genTime and the authority. */
    public static final String TIMESTAMP_RFC3161_VALID = "timestamp.rfc3161.valid";
    /** An RFC 3161 token is intact and covers the proof, but its authority is not anchored in a trusted root. */
    public static final String TIMESTAMP_RFC3161_UNTRUSTED = "timestamp.rfc3161.untrusted";
    /** An RFC 3161 token is malformed, covers other data (imprint mismatch), or its signature is bad. */
    public static final String TIMESTAMP_RFC3161_INVALID = "timestamp.rfc3161.invalid";
    /** An OpenTimestamps proof ({@code .ots}) commits to the proof and waits at calendars; the message names them. */
    public static final String TIMESTAMP_OTS_PENDING = "timestamp.ots.pending";
    /** An OpenTimestamps proof reaches a Bitcoin block; the message gives the height and the merkle root to compare with a block explorer. */
    public static final String TIMESTAMP_OTS_BITCOIN = "timestamp.ots.bitcoin";
    /** An OpenTimestamps proof commits to neither the media's SHA-256 nor the media signature's. */
    public static final String TIMESTAMP_OTS_MISMATCH = "timestamp.ots.mismatch";
    /** An {@code .ots} file is not a well-formed OpenTimestamps proof. */
    public static final String TIMESTAMP_OTS_MALFORMED = "timestamp.ots.malformed";

    /**
     * A SafetyNet attestation ({@code .gst}) is Google's: its signature verifies with its certificate, the
     * chain leads from {@code attest.android.com} to a trusted root at the attestation's time, and its nonce
     * names this proof's media; the message gives what Google attested (app, device verdicts, time).
     */
    public static final String INTEGRITY_SAFETYNET_VALID = "integrity.safetynet.valid";
    /** A SafetyNet attestation's JWS signature does not verify with its leaf certificate. */
    public static final String INTEGRITY_SAFETYNET_SIGNATURE_INVALID = "integrity.safetynet.signature.invalid";
    /** A SafetyNet attestation's chain does not reach a trusted root at its time, or its leaf is not {@code attest.android.com}. */
    public static final String INTEGRITY_SAFETYNET_CHAIN_INVALID = "integrity.safetynet.chain.invalid";
    /** A SafetyNet attestation's nonce names other media than this proof, or none. */
    public static final String INTEGRITY_SAFETYNET_NONCE_MISMATCH = "integrity.safetynet.nonce.mismatch";
    /** A {@code .gst} file is not a readable SafetyNet attestation (or exceeds the size, chain or nesting bounds). */
    public static final String INTEGRITY_SAFETYNET_MALFORMED = "integrity.safetynet.malformed";
    /** Warning: a valid SafetyNet attestation is of an app (package and signing certificate) the verifier does not accept. */
    public static final String INTEGRITY_SAFETYNET_APP_UNKNOWN = "integrity.safetynet.app.unknown";
    /** Warning: a valid SafetyNet attestation reports the device failing ({@code ctsProfileMatch} or {@code basicIntegrity} false). */
    public static final String INTEGRITY_SAFETYNET_DEVICE_FAILED = "integrity.safetynet.device.failed";
    /** A device-integrity file is an encrypted Play Integrity token, which cannot be checked offline. */
    public static final String INTEGRITY_PLAY_UNVERIFIABLE = "integrity.playIntegrity.unverifiable";
    /**
     * An Android key attestation ({@code <h>.attest.pem}) holds: its chain leads to Google's attestation root,
     * no certificate of it is listed revoked, and its challenge names this proof's media; the message gives
     * where the key was made, the boot state and the app.
     */
    public static final String INTEGRITY_KEY_ATTESTATION_VALID = "integrity.keyAttestation.valid";
    /** A key attestation's chain does not lead to a trusted attestation root when its newest certificate became valid. */
    public static final String INTEGRITY_KEY_ATTESTATION_CHAIN_INVALID = "integrity.keyAttestation.chain.invalid";
    /** A key attestation's challenge names other media than this proof, or none. */
    public static final String INTEGRITY_KEY_ATTESTATION_CHALLENGE_MISMATCH = "integrity.keyAttestation.challenge.mismatch";
    /** A certificate of a key attestation's chain is revoked or suspended in the attestation status list given. */
    public static final String INTEGRITY_KEY_ATTESTATION_REVOKED = "integrity.keyAttestation.revoked";
    /** A {@code .attest.pem} file is not a readable key attestation chain (or exceeds the size or chain bounds). */
    public static final String INTEGRITY_KEY_ATTESTATION_MALFORMED = "integrity.keyAttestation.malformed";
    /** Warning: a valid key attestation was made by Android's software key store, not by secure hardware. */
    public static final String INTEGRITY_KEY_ATTESTATION_SOFTWARE = "integrity.keyAttestation.software";
    /** Warning: a valid key attestation reports an unlocked bootloader or a boot state other than verified, or none. */
    public static final String INTEGRITY_KEY_ATTESTATION_BOOT_UNVERIFIED = "integrity.keyAttestation.boot.unverified";
    /** Warning: a valid key attestation names an app (package and signing digest) the verifier does not accept, or none. */
    public static final String INTEGRITY_KEY_ATTESTATION_APP_UNKNOWN = "integrity.keyAttestation.app.unknown";

    /** The frame list ({@code <h>.frames}) gives the record's {@code Video.FrameHash} and {@code Video.FrameCount}. */
    public static final String FRAMES_MATCH = "frames.match";
    /** The frame list gives another frame hash or count than the record, or the record has none. */
    public static final String FRAMES_MISMATCH = "frames.mismatch";
    /** The frame list is not {@code index,pts,sha256} lines. */
    public static final String FRAMES_MALFORMED = "frames.malformed";

    // compare: how two media relate (proofmode compare, verify --original)
    /** The two files are the same bytes. */
    public static final String COMPARE_BYTES_IDENTICAL = "compare.bytes.identical";
    /** Other bytes, the same decoded video frames (another container, other metadata or audio). */
    public static final String COMPARE_FRAMES_IDENTICAL = "compare.frames.identical";
    /** One's decoded frames are a run of the other's; the message says which frames, at which times. */
    public static final String COMPARE_FRAMES_EXCERPT = "compare.frames.excerpt";
    /** The decoded frames differ; the message names the first frame that differs. */
    public static final String COMPARE_FRAMES_DIFFERENT = "compare.frames.different";
    /** The same decoded audio samples. */
    public static final String COMPARE_SAMPLES_IDENTICAL = "compare.samples.identical";
    /** Other decoded audio samples. */
    public static final String COMPARE_SAMPLES_DIFFERENT = "compare.samples.different";
    /** Other bytes, the same decoded pixels. */
    public static final String COMPARE_PIXELS_IDENTICAL = "compare.pixels.identical";
    /**
     * Other pixels, perceptual hashes close: probably the same picture re-encoded, resized or lightly
     * edited, but not the same content (a warning in {@code compare}; a failure in {@code verify --original}:
     * the copy is not what the original was).
     */
    public static final String COMPARE_PERCEPTUAL_CLOSE = "compare.perceptual.close";
    /** Other pixels, and perceptual hashes far apart (or none to compare). */
    public static final String COMPARE_PERCEPTUAL_DIFFERENT = "compare.perceptual.different";
    /** Other bytes, and no content hash that both sides have. */
    public static final String COMPARE_UNCOMPARABLE = "compare.uncomparable";
    /** A side is a proof that does not verify: what it records proves nothing. */
    public static final String COMPARE_PROOF_INVALID = "compare.proof.invalid";
    /**
     * Frames of one video are the other's, but not in one run: foreign frames spliced in, or runs reordered;
     * the message lists the foreign frames and the runs.
     */
    public static final String COMPARE_FRAMES_SPLICED = "compare.frames.spliced";
    /** An excerpt's sound is the original's at the matching times (alike block by block in loudness and pitch). */
    public static final String COMPARE_AUDIO_SAME = "compare.audio.same";
    /** An excerpt's sound is not the original's at the matching times (re-dubbed), or the original has no sound. */
    public static final String COMPARE_AUDIO_DIFFERENT = "compare.audio.different";
    /**
     * An excerpt's frames whose sound could not be compared with the original's at the matching times (a proof
     * holds a whole-track hash only): uncomparable in {@code compare}; information in {@code verify --original}.
     */
    public static final String COMPARE_AUDIO_UNCHECKED = "compare.audio.unchecked";

    /**
     * The proof is of a redacted copy and its {@code .redaction.json} record is well formed and names this
     * copy; the message says "derived by redaction", from which original, and how.
     */
    public static final String REDACTION_RECORD_VALID = "redaction.record.valid";
    /** The redaction record cannot be read, or a field is missing, mistyped or out of range. */
    public static final String REDACTION_RECORD_MALFORMED = "redaction.record.malformed";
    /** The redaction record names another copy than the one this proof is for. */
    public static final String REDACTION_RECORD_MISMATCH = "redaction.record.mismatch";
    /** An original was given, but the proof has no redaction record. */
    public static final String REDACTION_RECORD_MISSING = "redaction.record.missing";
    /** The given original is the one the record names (same SHA-256). */
    public static final String REDACTION_ORIGINAL_MATCH = "redaction.original.match";
    /** The given original is not the one the record names. */
    public static final String REDACTION_ORIGINAL_MISMATCH = "redaction.original.mismatch";
    /** The original could not be compared (several proofs in the bundle, or it cannot be read). */
    public static final String REDACTION_ORIGINAL_UNCHECKED = "redaction.original.unchecked";
    /** The original's own proof verifies (VALID or TRUSTED). */
    public static final String REDACTION_ORIGINAL_PROOF_VALID = "redaction.original.proofValid";
    /** The original's own proof is INVALID. */
    public static final String REDACTION_ORIGINAL_PROOF_INVALID = "redaction.original.proofInvalid";
    /** No proof of the original was given or found in the store. */
    public static final String REDACTION_ORIGINAL_PROOF_MISSING = "redaction.original.proofMissing";
    /** The original's proof is signed by another key than the record names. */
    public static final String REDACTION_ORIGINAL_SIGNER_MISMATCH = "redaction.original.signerMismatch";
    /** Every pixel outside the regions equals the original's (PNG), or is within JPEG re-encoding tolerance. */
    public static final String REDACTION_OUTSIDE_UNCHANGED = "redaction.outside.unchanged";
    /** Pixels outside the regions differ from the original's beyond tolerance, or the size differs. */
    public static final String REDACTION_OUTSIDE_CHANGED = "redaction.outside.changed";
    /** The copy or the original could not be decoded, so the pixels were not compared. */
    public static final String REDACTION_OUTSIDE_UNCHECKED = "redaction.outside.unchecked";
    /** Every region differs from the original there. */
    public static final String REDACTION_INSIDE_CHANGED = "redaction.inside.changed";
    /** Warning: a region looks the same as in the original (nothing hidden there, or it was uniform). */
    public static final String REDACTION_INSIDE_UNCHANGED = "redaction.inside.unchanged";

    /** C2PA: the claim signature verifies with the signing credential. */
    public static final String C2PA_CLAIM_SIGNATURE_VALIDATED = "c2pa.claimSignature.validated";
    /** C2PA: the claim signature does not verify. */
    public static final String C2PA_CLAIM_SIGNATURE_MISMATCH = "c2pa.claimSignature.mismatch";
    /** C2PA: the asset's bytes match the manifest's data hash (hard binding). */
    public static final String C2PA_DATA_HASH_MATCH = "c2pa.assertion.dataHash.match";
    /** C2PA: the asset's bytes were changed after signing. */
    public static final String C2PA_DATA_HASH_MISMATCH = "c2pa.assertion.dataHash.mismatch";
    /** C2PA: an assertion matches its hashed URI in the claim. */
    public static final String C2PA_HASHED_URI_MATCH = "c2pa.assertion.hashedURI.match";
    /** C2PA: an assertion was changed after signing. */
    public static final String C2PA_HASHED_URI_MISMATCH = "c2pa.assertion.hashedURI.mismatch";
    /** C2PA: the signing certificate chains to a trust anchor ({@code --c2pa-trust}). */
    public static final String C2PA_SIGNING_CREDENTIAL_TRUSTED = "c2pa.signingCredential.trusted";
    /** C2PA (warning): the signing certificate does not chain to a trust anchor. */
    public static final String C2PA_SIGNING_CREDENTIAL_UNTRUSTED = "c2pa.signingCredential.untrusted";
    /** C2PA: the signing certificate breaks the C2PA certificate profile. */
    public static final String C2PA_SIGNING_CREDENTIAL_INVALID = "c2pa.signingCredential.invalid";
    /** C2PA: the time-stamp token ({@code sigTst2}) covers the signature. */
    public static final String C2PA_TIMESTAMP_VALIDATED = "c2pa.timeStamp.validated";
    /** C2PA: the manifest store cannot be parsed. */
    public static final String C2PA_CLAIM_MALFORMED = "c2pa.claim.malformed";
    /** C2PA (info): the media file carries content credentials; the message names the generator and signer. */
    public static final String C2PA_MANIFEST_PRESENT = "c2pa.manifest.present";
    /**
     * C2PA (info): one manifest of a chain (a store of several: credentials made on top of earlier ones); the
     * message names its place, label, generator, signer and whether it validated.
     */
    public static final String C2PA_CHAIN_MANIFEST = "c2pa.chain.manifest";

    /** C2PA, CAWG identity: the X.509 identity's signature verifies; the message names the certificate's subject (who signed). */
    public static final String C2PA_CAWG_X509_SIGNATURE_VALIDATED = "c2pa.cawg.x509.signature.validated";
    /** C2PA, CAWG identity: the X.509 identity's signature does not verify: nobody is shown to vouch for the content. */
    public static final String C2PA_CAWG_X509_SIGNATURE_MISMATCH = "c2pa.cawg.x509.signature.mismatch";
    /** C2PA, CAWG identity (warning): the identity's certificate does not chain to a trust anchor ({@code --c2pa-trust}). */
    public static final String C2PA_CAWG_X509_CREDENTIAL_UNTRUSTED = "c2pa.cawg.x509.credential.untrusted";
    /** C2PA, CAWG identity: the identity's certificate chains to a trust anchor. */
    public static final String C2PA_CAWG_X509_CREDENTIAL_TRUSTED = "c2pa.cawg.x509.credential.trusted";

    /** The manifest's {@code org.proofmode.proof} names the OpenPGP key that signed the proof. */
    public static final String C2PA_PROOFMODE_SIGNER_MATCH = "c2pa.proofmode.signer.match";
    /** Warning: the manifest's {@code org.proofmode.proof} names another OpenPGP key than the proof's signer. */
    public static final String C2PA_PROOFMODE_SIGNER_MISMATCH = "c2pa.proofmode.signer.mismatch";

    /** A collection folder's {@code collection.json} cannot be read as a collection record. */
    public static final String COLLECT_RECORD_MALFORMED = "collect.record.malformed";
    /** The collection record is signed by the collector's key and unchanged since. */
    public static final String COLLECT_RECORD_SIGNATURE_VALID = "collect.record.signature.valid";
    /** The collection record does not match its signature, or its signature is unusable. */
    public static final String COLLECT_RECORD_SIGNATURE_INVALID = "collect.record.signature.invalid";
    /** The collection record has no signature ({@code <h>.asc}), or no key to check it with. */
    public static final String COLLECT_RECORD_SIGNATURE_MISSING = "collect.record.signature.missing";
    /** The WARC's SHA-256 is the one in the collection record. */
    public static final String COLLECT_WARC_DIGEST_MATCH = "collect.warc.digest.match";
    /** The WARC is missing or its SHA-256 differs from the collection record's. */
    public static final String COLLECT_WARC_DIGEST_MISMATCH = "collect.warc.digest.mismatch";
    /** Every WARC record's payload digest is the one in the collection record. */
    public static final String COLLECT_WARC_RECORDS_MATCH = "collect.warc.records.match";
    /** A WARC record's payload differs from the collection record, or a record is missing or unlisted. */
    public static final String COLLECT_WARC_RECORDS_MISMATCH = "collect.warc.records.mismatch";
    /** The WARC cannot be read as a WARC. */
    public static final String COLLECT_WARC_MALFORMED = "collect.warc.malformed";
    /** The WARC's own signature verifies. */
    public static final String COLLECT_WARC_SIGNATURE_VALID = "collect.warc.signature.valid";
    /** The WARC's own signature does not verify, or is missing. */
    public static final String COLLECT_WARC_SIGNATURE_INVALID = "collect.warc.signature.invalid";
    /** An extracted media file's SHA-256 is the one in the collection record. */
    public static final String COLLECT_MEDIA_MATCH = "collect.media.match";
    /** An extracted media file is missing or differs from the collection record. */
    public static final String COLLECT_MEDIA_MISMATCH = "collect.media.mismatch";
    /** The kept TLS chain holds the server certificate the record names, each certificate signed by the next. */
    public static final String COLLECT_TLS_CHAIN_VALID = "collect.tls.chain.valid";
    /** The kept TLS chain is missing, unreadable, not linked, or not the one the record names. */
    public static final String COLLECT_TLS_CHAIN_INVALID = "collect.tls.chain.invalid";
    /** (info) The page was fetched over plain HTTP: there is no TLS chain. */
    public static final String COLLECT_TLS_NONE = "collect.tls.none";
    /** (info) The collection: the page's address, when it was collected, by which key. */
    public static final String COLLECT_CAPTURE = "collect.capture";

    private CheckCodes() {}

    /**
     * {@code c2pa.<status>}: a C2PA specification status code as a check code. Every status of
     * {@link C2paStatus.Codes} maps this way; the constants above name the common ones.
     */
    public static String c2pa(String specCode) {
        return "c2pa." + specCode;
    }

    /** {@code signature.<subject>.<outcome>}. */
    public static String signature(String subject, String outcome) {
        return "signature." + subject + "." + outcome;
    }

    /** {@code redaction.signature.<outcome>}: the signature over the redaction record. */
    public static String redactionSignature(String outcome) {
        return "redaction.signature." + outcome;
    }
}
