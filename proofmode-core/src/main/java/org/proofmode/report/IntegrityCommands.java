// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.i18n.Texts;
import org.proofmode.verify.Check;
import org.proofmode.verify.CheckCodes;
import org.proofmode.verify.ProofReport;

/**
 * "Check it yourself" for the app's device attestations, with {@code openssl} and POSIX tools: a SafetyNet
 * attestation ({@code .gst}, a JWS: its signature with the leaf's key, its chain at its own time) and an
 * Android key attestation chain ({@code .attest.pem}: the chain at the time the report judged it, and the
 * media's SHA-256 in the attested key's certificate). Only files with a check get commands, and only
 * names that can be typed ({@link SelfCheck#usable}).
 */
final class IntegrityCommands {
    /** The system's trusted roots on Debian and Ubuntu, which SafetyNet's chain leads to. */
    static final String SYSTEM_ROOTS = "/etc/ssl/certs/ca-certificates.crt";
    /** Google's key attestation roots, which the reader gets from Google. */
    static final String KEY_ROOTS = "GOOGLE-KEY-ATTESTATION-ROOTS.pem";
    /** Decodes base64url without padding from standard input (a JWS part), with coreutils' base64. */
    static final List<String> B64URL = List.of("b64url()", "{", "tr", "-d", "'\\n'", "|", "tr", "'_-'", "'/+'", "|", "{", "read",
            "-r", "s;", "while", "[", "$((", "${#s}", "%", "4", "))", "-ne", "0", "];", "do", "s=\"$s=\";", "done;", "printf", "'%s'",
            "\"$s\";", "}", "|", "base64", "-d;", "}");
    private static final Pattern JUDGED = Pattern.compile("judged at (\\S+Z),");

    private IntegrityCommands() {}

    static List<Block> of(ReportItem item, Map<String, String> names, List<String> unsafe, Texts x) {
        Set<String> gst = new LinkedHashSet<>();
        Map<String, Instant> attest = new LinkedHashMap<>();
        Map<String, String> attestMedia = new LinkedHashMap<>();
        for (ProofReport p : item.report().proofs()) {
            for (Check c : p.checks()) {
                String file = names.get(c.subject());
                if (file == null) {
                    continue;
                }
                if (c.code().startsWith("integrity.safetynet.") && !c.code().equals(CheckCodes.INTEGRITY_SAFETYNET_MALFORMED)
                        && SelfCheck.usable(file, unsafe)) {
                    gst.add(file);
                } else if (c.code().equals(CheckCodes.INTEGRITY_KEY_ATTESTATION_VALID) && SelfCheck.usable(file, unsafe)) {
                    judged(c.message()).ifPresent(t -> attest.put(file, t));
                    p.sha256().ifPresent(h -> attestMedia.put(file, h));
                }
            }
        }
        List<Block> out = new ArrayList<>();
        if (gst.isEmpty() && attest.isEmpty()) {
            return out;
        }
        out.add(new Block.Heading(3, x.get("selfcheck.attest.title")));
        if (!gst.isEmpty()) {
            List<List<String>> cmds = new ArrayList<>();
            cmds.add(B64URL);
            gst.forEach(f -> cmds.addAll(safetyNet(f)));
            out.add(new Block.Paragraph(x.get("selfcheck.safetynet", SYSTEM_ROOTS), Block.Tone.NOTE));
            out.add(new Block.Commands(cmds));
        }
        if (!attest.isEmpty()) {
            List<List<String>> cmds = new ArrayList<>();
            for (Map.Entry<String, Instant> e : attest.entrySet()) {
                String f = e.getKey();
                String q = SelfCheck.quote(f);
                cmds.add(List.of("awk", "'/BEGIN CERT/{n++} n==1'", q, ">", SelfCheck.quote(f + ".leaf.pem")));
                cmds.add(List.of("awk", "'/BEGIN CERT/{n++} n>1'", q, ">", SelfCheck.quote(f + ".chain.pem")));
                cmds.add(List.of("openssl", "verify", "-attime", Long.toString(e.getValue().getEpochSecond()), "-CAfile", KEY_ROOTS,
                        "-untrusted", SelfCheck.quote(f + ".chain.pem"), SelfCheck.quote(f + ".leaf.pem")));
                Optional.ofNullable(attestMedia.get(f)).ifPresent(h -> cmds.add(List.of("openssl", "x509", "-in", SelfCheck.quote(f + ".leaf.pem"), "-outform",
                        "DER", "|", "grep", "-a", "-o", h)));
            }
            out.add(new Block.Paragraph(x.get("selfcheck.keyAttestation", KEY_ROOTS), Block.Tone.NOTE));
            out.add(new Block.Commands(cmds));
        }
        return out;
    }

    private static List<List<String>> safetyNet(String f) {
        String q = SelfCheck.quote(f);
        String certs = SelfCheck.quote(f + ".certs");
        String leaf = SelfCheck.quote(f + ".leaf.pem");
        String chain = SelfCheck.quote(f + ".chain.pem");
        String pub = SelfCheck.quote(f + ".leaf.pub");
        String signed = SelfCheck.quote(f + ".signed");
        String sig = SelfCheck.quote(f + ".sig");
        return List.of(
                List.of("cut", "-d.", "-f2", q, "|", "b64url;", "echo"),
                List.of("cut", "-d.", "-f1", q, "|", "b64url", "|", "tr", "',[]'", "'\\n\\n\\n'", "|", "sed", "-n",
                        "'s#^ *\"\\(MII[A-Za-z0-9+/=]*\\)\" *$#\\1#p'", ">", certs),
                List.of("head", "-n", "1", certs, "|", "base64", "-d", "|", "openssl", "x509", "-inform", "DER", "-out", leaf),
                List.of("tail", "-n", "+2", certs, "|", "while", "read", "-r", "c;", "do", "printf", "'%s'", "\"$c\"", "|", "base64",
                        "-d", "|", "openssl", "x509", "-inform", "DER;", "done", ">", chain),
                List.of("openssl", "x509", "-in", leaf, "-noout", "-subject"),
                List.of("openssl", "x509", "-in", leaf, "-noout", "-pubkey", ">", pub),
                List.of("cut", "-d.", "-f1,2", q, "|", "tr", "-d", "'\\n'", ">", signed),
                List.of("cut", "-d.", "-f3", q, "|", "b64url", ">", sig),
                List.of("openssl", "dgst", "-sha256", "-verify", pub, "-signature", sig, signed),
                List.of("T=$(cut", "-d.", "-f2", q, "|", "b64url", "|", "sed", "-n", "'s/.*\"timestampMs\": *\\([0-9]*\\)[0-9]\\{3\\}.*/\\1/p'",
                        ")"),
                List.of("openssl", "verify", "-attime", "\"$T\"", "-CAfile", SYSTEM_ROOTS, "-untrusted", chain, leaf));
    }

    /** The instant a key attestation's chain was judged at, from its check's message. */
    static Optional<Instant> judged(String message) {
        Matcher m = JUDGED.matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(m.group(1)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
