// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server.store;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;
import org.proofmode.media.Digests;
import org.proofmode.util.Hex;

/**
 * Tokens. A token is {@code pm_} and 32 random bytes in base64url; only its SHA-256 is stored, so a copy
 * of the database does not hold a usable token. Each has a {@link TokenScope}; tokens made before scopes
 * have none and keep every right they had.
 */
public final class TokenStore {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String PREFIX = "pm_";

    private final Database db;

    /** Creates the store on a database. */
    public TokenStore(Database db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * A token's public facts.
     *
     * @param scope what it may do; empty for a token made before scopes, which may do everything
     */
    public record TokenInfo(String id, String name, String createdAt, Optional<String> revokedAt, Optional<TokenScope> scope) {
        /** Validates the fields. */
        public TokenInfo {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(revokedAt, "revokedAt");
            Objects.requireNonNull(scope, "scope");
        }

        /** What the token may do: its scope, or {@link TokenScope#ADMIN} for a token made before scopes. */
        public TokenScope rights() {
            return scope.orElse(TokenScope.ADMIN);
        }

        /** Who acted, as the custody log names them. */
        public String actor() {
            return name + " (token " + id + ")";
        }
    }

    /** A new token: the secret, shown once, and its facts. */
    public record NewToken(String secret, TokenInfo info) {
        /** Validates the fields. */
        public NewToken {
            Objects.requireNonNull(secret, "secret");
            Objects.requireNonNull(info, "info");
        }

        @Override
        public String toString() {
            return "NewToken[" + info + "]";
        }
    }

    /**
     * Creates a token with every right ({@link TokenScope#ADMIN}); see {@link #create(String, TokenScope)}.
     *
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the name is blank or too long
     */
    public NewToken create(String name) {
        return create(name, TokenScope.ADMIN);
    }

    /**
     * Creates a token.
     *
     * @param name who it is for, e.g. {@code desk-anna}
     * @param scope what it may do
     * @throws ProofModeException with {@link Failure#BAD_ARGUMENT} if the name is blank or too long
     */
    public NewToken create(String name, TokenScope scope) {
        Objects.requireNonNull(scope, "scope");
        if (name == null || name.isBlank() || name.length() > 100 || name.chars().anyMatch(Character::isISOControl)) {
            throw new ProofModeException(Failure.BAD_ARGUMENT, "token name must be 1 to 100 printable characters");
        }
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        String id = UUID.randomUUID().toString().substring(0, 8);
        String now = DbTime.now();
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO tokens (id, name, token_hash, created_at, scope) VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, id);
                ps.setString(2, name.strip());
                ps.setString(3, hash(secret));
                ps.setString(4, now);
                ps.setString(5, scope.spelled());
                ps.executeUpdate();
            }
            return null;
        });
        return new NewToken(secret, new TokenInfo(id, name.strip(), now, Optional.empty(), Optional.of(scope)));
    }

    /**
     * Revokes a token by its id.
     *
     * @return whether a live token was revoked
     */
    public boolean revoke(String id) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
                ps.setString(1, DbTime.now());
                ps.setString(2, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** Every token, oldest first. */
    public List<TokenInfo> list() {
        return db.inTransaction(c -> {
            List<TokenInfo> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT id, name, created_at, revoked_at, scope FROM tokens ORDER BY created_at, id");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(info(rs));
                }
            }
            return out;
        });
    }

    /** The live token with this secret, if any. */
    public Optional<TokenInfo> authenticate(String secret) {
        if (secret == null || !secret.startsWith(PREFIX) || secret.length() > 100) {
            return Optional.empty();
        }
        return db.inTransaction(c -> find(c, hash(secret)));
    }

    private static Optional<TokenInfo> find(Connection c, String hash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, name, created_at, revoked_at, scope FROM tokens WHERE token_hash = ? AND revoked_at IS NULL")) {
            ps.setString(1, hash);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(info(rs)) : Optional.empty();
            }
        }
    }

    private static TokenInfo info(ResultSet rs) throws SQLException {
        return new TokenInfo(rs.getString(1), rs.getString(2), rs.getString(3), Optional.ofNullable(rs.getString(4)),
                Optional.ofNullable(rs.getString(5)).map(TokenScope::parse));
    }

    private static String hash(String secret) {
        return Hex.encode(Digests.newSha256().digest(secret.getBytes(StandardCharsets.US_ASCII)));
    }
}
