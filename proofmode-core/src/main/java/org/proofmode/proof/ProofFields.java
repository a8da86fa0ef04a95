// SPDX-License-Identifier: Apache-2.0
package org.proofmode.proof;

import java.util.List;

/**
 * Field names of a proof record. Names shared with the ProofMode Android app are spelled as the app
 * spells them; fields of our own are namespaced with dots. These names are a stable contract.
 */
public final class ProofFields {
    /** Absolute path of the media file when it was proved. */
    public static final String FILE_PATH = "File Path";
    /** Lower-case hex SHA-256 of the media file. */
    public static final String FILE_HASH_SHA256 = "File Hash SHA256";
    /** The file's creation time, ISO-8601 UTC. */
    public static final String FILE_CREATED = "File Created";
    /** The file's last modification time, ISO-8601 UTC. */
    public static final String FILE_MODIFIED = "File Modified";
    /** When the proof was made, ISO-8601 UTC. */
    public static final String PROOF_GENERATED = "Proof Generated";
    /** The language of the device's locale, in English. */
    public static final String LANGUAGE = "Language";
    /** The country of the device's locale, ISO 3166 alpha-3, as the app records it. */
    public static final String LOCALE = "Locale";
    /** The hardware model. */
    public static final String HARDWARE = "Hardware";
    /** The hardware vendor. */
    public static final String MANUFACTURER = "Manufacturer";
    /** Operating system name, version and architecture. */
    public static final String OS = "OS";
    /** Free text given by the person who proved the file. */
    public static final String NOTES = "Notes";
    /** Location fields, as the app names them. */
    public static final String LOCATION_LATITUDE = "Location.Latitude";
    /** Longitude in decimal degrees. */
    public static final String LOCATION_LONGITUDE = "Location.Longitude";
    /** Where the fix came from. */
    public static final String LOCATION_PROVIDER = "Location.Provider";
    /** Accuracy in metres. */
    public static final String LOCATION_ACCURACY = "Location.Accuracy";
    /** When the fix was taken. */
    public static final String LOCATION_TIME = "Location.Time";
    /** Size of the media file in bytes. */
    public static final String FILE_SIZE = "File.Size";
    /** The media type found by content sniffing, e.g. {@code image/jpeg}. */
    public static final String FILE_MEDIA_TYPE = "File.MediaType";
    /** The software that made the proof and its version. */
    public static final String PROOF_SOFTWARE = "Proof.Software";
    /** Fingerprint of the key that signed the proof. */
    public static final String PROOF_SIGNER = "Proof.Signer";
    /**
     * Where the signing key was held: {@code file} (a passphrase-protected key file) or
     * {@code pkcs11: MAKER MODEL} (inside a PKCS#11 token: an HSM, a TPM, a smart card, SoftHSM); the
     * signer's own statement.
     */
    public static final String PROOF_KEY_STORAGE = "Proof.KeyStorage";
    /** Prefix of warnings a metadata source adds instead of failing the proof. */
    public static final String WARNING_PREFIX = "Warning.";

    /** Field names under which older app versions recorded the media hash, newest first. */
    public static final List<String> HASH_ALIASES = List.of(FILE_HASH_SHA256, "SHA256", "File Hash");

    /** Field names under which older app versions recorded the media path, newest first. */
    public static final List<String> PATH_ALIASES = List.of(FILE_PATH, "File");

    private ProofFields() {}
}
