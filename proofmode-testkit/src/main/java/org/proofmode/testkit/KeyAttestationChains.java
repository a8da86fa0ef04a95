// SPDX-License-Identifier: Apache-2.0
package org.proofmode.testkit;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Enumerated;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.DERTaggedObject;
import org.proofmode.verify.DeviceIntegrityChecks;

/**
 * Android key attestation chains made by openssl for the command tests: a root ({@code root.pem} in the
 * folder given), an attestation CA and a leaf whose extension {@code 1.3.6.1.4.1.11129.2.1.17} is a
 * {@code KeyDescription} written from Android's specification, for the ProofMode app, its challenge a
 * media hash in hex (as the app gives it). The root is the tests' own: such a chain is what a forger
 * without Google's attestation keys can make.
 */
public final class KeyAttestationChains {
    /** SecurityLevel {@code Software} of the specification. */
    public static final int SOFTWARE = 0;
    /** SecurityLevel {@code TrustedEnvironment} of the specification. */
    public static final int TEE = 1;
    /** VerifiedBootState {@code Verified} of the specification. */
    public static final int VERIFIED = 0;
    /** VerifiedBootState {@code Unverified} of the specification (an unlocked bootloader). */
    public static final int UNVERIFIED = 2;
    private static final String OID = "1.3.6.1.4.1.11129.2.1.17";

    private KeyAttestationChains() {}

    /**
     * Makes the chain in {@code dir} ({@code root.pem} is its root, {@code ca.pem} its attestation CA) and
     * returns it as PEM, leaf first.
     *
     * @param level a SecurityLevel value
     * @param locked whether the root of trust says the bootloader is locked
     * @param bootState a VerifiedBootState value
     * @param challenge the attestation challenge (the app gives the media's SHA-256 in hex)
     */
    public static byte[] make(Path dir, int level, boolean locked, int bootState, String challenge) throws Exception {
        sh("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem -days 3650"
                + " -subj '/CN=Test Attestation Root' -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign", dir);
        sh("openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.csr -subj '/O=TEE/CN=Test TEE'", dir);
        Files.writeString(dir.resolve("ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n");
        sh("openssl x509 -req -in ca.csr -CA root.pem -CAkey root.key -CAcreateserial -days 3650 -extfile ca.ext -out ca.pem", dir);
        sh("openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr -subj '/CN=Android Keystore Key'", dir);
        Files.writeString(dir.resolve("leaf.ext"), "keyUsage=critical,digitalSignature\n" + OID + "=DER:"
                + HexFormat.of().formatHex(keyDescription(level, locked, bootState, challenge)) + "\n");
        sh("openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 365 -extfile leaf.ext -out leaf.pem", dir);
        return (Files.readString(dir.resolve("leaf.pem")) + Files.readString(dir.resolve("ca.pem")) + Files.readString(dir.resolve("root.pem")))
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] keyDescription(int level, boolean locked, int bootState, String challenge) throws Exception {
        byte[] digest = Base64.getDecoder().decode(DeviceIntegrityChecks.PROOFMODE_ANDROID.signingCertSha256());
        byte[] appId = new DERSequence(new ASN1Encodable[] {
            new DERSet(new DERSequence(new ASN1Encodable[] {new DEROctetString("org.witness.proofmode".getBytes(StandardCharsets.UTF_8)),
                new ASN1Integer(1)})),
            new DERSet(new DEROctetString(digest))}).getEncoded(ASN1Encoding.DER);
        DERSequence root = new DERSequence(new ASN1Encodable[] {new DEROctetString(new byte[32]), ASN1Boolean.getInstance(locked),
            new ASN1Enumerated(bootState), new DEROctetString(new byte[32])});
        ASN1Sequence software = level == SOFTWARE
                ? new DERSequence(new ASN1Encodable[] {new DERTaggedObject(true, 704, root), new DERTaggedObject(true, 709, new DEROctetString(appId))})
                : new DERSequence(new DERTaggedObject(true, 709, new DEROctetString(appId)));
        ASN1Sequence hardware = level == SOFTWARE ? new DERSequence() : new DERSequence(new DERTaggedObject(true, 704, root));
        return new DERSequence(new ASN1Encodable[] {new ASN1Integer(100), new ASN1Enumerated(level), new ASN1Integer(100),
            new ASN1Enumerated(level), new DEROctetString(challenge.getBytes(StandardCharsets.US_ASCII)),
            new DEROctetString(new byte[0]), software, hardware}).getEncoded(ASN1Encoding.DER);
    }

    private static void sh(String command, Path dir) {
        ProcessResult r = ExternalTool.run(List.of("bash", "-c", command), Map.of(), Duration.ofSeconds(30), dir);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("openssl could not make the chain: " + r.describe());
        }
    }
}
