// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.tlog.LogEntry;
import org.proofmode.util.Hex;
import org.proofmode.util.SafeText;
import org.proofmode.verify.ProofReport;
import org.proofmode.verify.VerificationReport;

/**
 * Stored bundles with their intake report and chain of custody. A bundle is named by the SHA-256 of its
 * bytes; storing it again changes nothing but the custody log.
 *
 * <p>Durability: the blob is flushed to the device before the database row that names it is committed,
 * so a row never points at a missing blob.
 */
public final class EvidenceStore {
    private static final Pattern FINGERPRINT = Pattern.compile("^([0-9A-F]{40}|[0-9A-F]{64})$");

    private final Database db;
    private final BlobStore blobs;

    /** Creates the store. */
    public EvidenceStore(Database db, BlobStore blobs) {
        this.db = Objects.requireNonNull(db, "db");
        this.blobs = Objects.requireNonNull(blobs, "blobs");
    }

    /** The blobs. */
    public BlobStore blobs() {
        return blobs;
    }

    /**
     * A stored bundle.
     *
     * @param sha256 SHA-256 of its bytes
     * @param name the file name it was sent with
     * @param size bytes
     * @param verdict the verdict at intake
     * @param report the intake report as JSON ({@code proofmode verify --json})
     * @param receivedAt when it was first received
     */
    public record Item(String sha256, String name, long size, String verdict, String report, String receivedAt) {
        /** Validates the fields. */
        public Item {
            Objects.requireNonNull(sha256, "sha256");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(report, "report");
            Objects.requireNonNull(receivedAt, "receivedAt");
        }
    }

    /** Who did something, and from where. */
    public record Actor(String tokenId, String name, String remote) {
        /** Validates the fields. */
        public Actor {
            Objects.requireNonNull(tokenId, "tokenId");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(remote, "remote");
        }

        String label() {
            return name + " (token " + tokenId + ")";
        }
    }

    /** The outcome of an intake: whether the bundle was new. */
    public record Intake(Item item, boolean created) {
        /** Validates the fields. */
        public Intake {
            Objects.requireNonNull(item, "item");
        }
    }

    /**
     * Stores a verified bundle.
     *
     * @param file the received bytes, already hashed; moved into the blob store
     * @param item what to record
     * @param report the intake verification
     * @param actor who sent it
     * @throws ProofModeException with {@link Failure#IO} if the blob or the row cannot be stored
     */
    public Intake store(Path file, Item item, VerificationReport report, Actor actor) {
        return store(file, item, report, actor, Optional.empty());
    }

    /**
     * Stores a verified bundle or collection; a new collection's capture is indexed by its address
     * ({@link CollectionIndex}) in the same transaction.
     *
     * @param capture the capture, for a collection
     * @throws ProofModeException as {@link #store(Path, Item, VerificationReport, Actor)}
     */
    public Intake store(Path file, Item item, VerificationReport report, Actor actor, Optional<CollectionIndex.Capture> capture) {
        try {
            blobs.put(file, item.sha256());
        } catch (IOException e) {
            throw new ProofModeException(Failure.IO, "cannot store the bundle: " + e.getMessage(), e);
        }
        return db.inTransaction(c -> {
            boolean created = insertItem(c, item, actor);
            insertSender(c, item.sha256(), actor);
            if (!created) {
                appendCustody(c, item.sha256(), CustodyAction.RESUBMIT, actor, Optional.of(item.verdict()),
                        "the same bundle was received again; the stored copy is kept");
                return new Intake(find(c, item.sha256()).orElseThrow(), false);
            }
            if (capture.isPresent()) {
                CollectionIndex.insert(c, item.sha256(), capture.get());
            }
            Set<String> media = new LinkedHashSet<>();
            Set<String> signers = new TreeSet<>();
            for (ProofReport p : report.proofs()) {
                ProofRow row = ProofRow.of(item.sha256(), p);
                insertProof(c, row);
                row.mediaSha256().ifPresent(media::add);
                row.signer().map(f -> f.toUpperCase(Locale.ROOT)).filter(FINGERPRINT.asPredicate()).ifPresent(signers::add);
            }
            appendCustody(c, item.sha256(), CustodyAction.INTAKE, actor, Optional.of(item.verdict()),
                    "received " + item.size() + " bytes as " + item.name() + "; verified " + item.verdict()
                            + capture.map(k -> "; a collection of " + SafeText.escape(shortened(k.url()))).orElse(""),
                    media.stream().filter(Hex::isSha256).map(m -> m.toLowerCase(Locale.ROOT)).sorted().distinct()
                            .limit(LogEntry.MAX_MEDIA).toList(),
                    signers.stream().limit(LogEntry.MAX_MEDIA).toList());
            for (String m : media) {
                for (NotarizationStore.Notarization n : NotarizationStore.byMedia(c, m)) {
                    appendCustody(c, item.sha256(), CustodyAction.NOTARIZATION_MATCH, actor, Optional.empty(),
                            "media " + m + " matches notarization " + n.id() + " received " + n.receivedAt());
                }
            }
            return new Intake(item, true);
        });
    }

    /** A stranger's address as a custody line names it: at most 500 characters. */
    private static String shortened(String url) {
        return url.length() <= 500 ? url : url.substring(0, 500) + "...";
    }

    /** Records a re-verification, a download or another event in an item's custody log. */
    public void log(String sha256, CustodyAction action, Actor actor, Optional<String> verdict, String detail) {
        db.inTransaction(c -> {
            appendCustody(c, sha256, action, actor, verdict, detail);
            return null;
        });
    }

    /** Whether this token sent the stored bundle (first, or the same bytes again later). */
    public boolean sentBy(String sha256, String tokenId) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT 1 FROM evidence_senders WHERE evidence_sha256 = ? AND token_id = ?")) {
                ps.setString(1, sha256);
                ps.setString(2, tokenId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** A stored bundle, if any. */
    public Optional<Item> find(String sha256) {
        return db.inTransaction(c -> find(c, sha256));
    }

    /** The custody log of an item, oldest first, with the state of its hash chain. */
    public CustodyLog custody(String sha256) {
        return db.inTransaction(c -> CustodyLog.read(c, sha256));
    }

    private static Optional<Item> find(Connection c, String sha256) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT sha256, name, size, verdict, report, received_at FROM evidence WHERE sha256 = ?")) {
            ps.setString(1, sha256);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Item(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                        rs.getString(5), rs.getString(6))) : Optional.empty();
            }
        }
    }

    private static boolean insertItem(Connection c, Item item, Actor actor) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO evidence (sha256, name, size, verdict, report, "
                + "received_at, token_id) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING")) {
            ps.setString(1, item.sha256());
            ps.setString(2, item.name());
            ps.setLong(3, item.size());
            ps.setString(4, item.verdict());
            ps.setString(5, item.report());
            ps.setString(6, item.receivedAt());
            ps.setString(7, actor.tokenId());
            return ps.executeUpdate() == 1;
        }
    }

    private static void insertSender(Connection c, String sha256, Actor actor) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO evidence_senders (evidence_sha256, token_id) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, sha256);
            ps.setString(2, actor.tokenId());
            ps.executeUpdate();
        }
    }

    private static void insertProof(Connection c, ProofRow r) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO evidence_proofs (evidence_sha256, proof_id, "
                + "media_sha256, signer, verdict, captured_at, proof_time, latitude, longitude) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            ps.setString(1, r.evidenceSha256());
            ps.setString(2, r.proofId());
            ps.setString(3, r.mediaSha256().orElse(null));
            ps.setString(4, r.signer().orElse(null));
            ps.setString(5, r.verdict());
            ps.setString(6, r.capturedAt().orElse(null));
            ps.setString(7, r.proofTime().orElse(null));
            setDouble(ps, 8, r.latitude());
            setDouble(ps, 9, r.longitude());
            ps.executeUpdate();
        }
    }

    private static void setDouble(PreparedStatement ps, int i, Optional<Double> v) throws SQLException {
        if (v.isPresent()) {
            ps.setDouble(i, v.get());
        } else {
            ps.setNull(i, Types.DOUBLE);
        }
    }

    private void appendCustody(Connection c, String sha256, CustodyAction action, Actor actor,
            Optional<String> verdict, String detail) throws SQLException {
        appendCustody(c, sha256, action, actor, verdict, detail, List.of(), List.of());
    }

    /**
     * Appends a custody line and queues its transparency-log entry, which names the new head of the
     * item's chain: editing the custody table is then caught by anyone holding a later receipt.
     */
    private void appendCustody(Connection c, String sha256, CustodyAction action, Actor actor,
            Optional<String> verdict, String detail, List<String> media, List<String> signers) throws SQLException {
        CustodyEntry line = CustodyLog.append(c, db.vendor() == Database.Vendor.POSTGRESQL, sha256, action, actor.label(),
                actor.remote(), verdict, detail);
        LogStore.enqueue(c, new LogEntry(action.name().toLowerCase(Locale.ROOT).replace('_', '-'), Optional.of(sha256),
                Optional.empty(), media, signers, verdict, line.at(), Optional.of(line.hash())));
    }
}
