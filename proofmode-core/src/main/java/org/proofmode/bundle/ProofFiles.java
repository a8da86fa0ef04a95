// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

/** Names of the files in a proof set, as the ProofMode app names them. */
public final class ProofFiles {
    /** The armored public key beside the proof files. */
    public static final String PUBKEY = "pubkey.asc";
    /** The plain-language instructions in a share bundle. */
    public static final String HOW_TO_VERIFY = "HowToVerifyProofData.txt";
    /** Suffix of the JSON proof record. */
    public static final String JSON = ".proof.json";
    /** Suffix of the CSV proof record. */
    public static final String CSV = ".proof.csv";
    /** Suffix of the optional J3M document (CameraV's layout). */
    public static final String J3M = ".j3m.json";
    /** Suffix of a redaction record, beside the proof of a redacted copy. */
    public static final String REDACTION = ".redaction.json";
    /** Suffix of a video's frame list ({@code index,pts,sha256} per frame), signed like the record. */
    public static final String FRAMES = ".frames";
    /**
     * Suffix of a transparency-log receipt (a C2SP tlog-proof carrying the log's entry), kept beside the
     * proof once an evidence server has logged it.
     */
    public static final String TLOG = ".tlog";
    /** Suffix of a detached armored signature. */
    public static final String SIG = ".asc";

    private ProofFiles() {}

    /** {@code <h>.proof.json}. */
    public static String json(String id) {
        return id + JSON;
    }

    /** {@code <h>.proof.csv}. */
    public static String csv(String id) {
        return id + CSV;
    }

    /** {@code <h>.asc}: the signature over the media. */
    public static String mediaSig(String id) {
        return id + SIG;
    }

    /** {@code <h>.proof.json.asc}. */
    public static String jsonSig(String id) {
        return json(id) + SIG;
    }

    /** {@code <h>.proof.csv.asc}. */
    public static String csvSig(String id) {
        return csv(id) + SIG;
    }

    /** {@code <h>.j3m.json}. */
    public static String j3m(String id) {
        return id + J3M;
    }

    /** {@code <h>.redaction.json}. */
    public static String redaction(String id) {
        return id + REDACTION;
    }

    /** {@code <h>.redaction.json.asc}. */
    public static String redactionSig(String id) {
        return redaction(id) + SIG;
    }

    /** {@code <h>.frames}. */
    public static String frames(String id) {
        return id + FRAMES;
    }

    /** {@code <h>.frames.asc}. */
    public static String framesSig(String id) {
        return frames(id) + SIG;
    }

    /** {@code <h>.j3m.json.asc}. */
    public static String j3mSig(String id) {
        return j3m(id) + SIG;
    }
}
