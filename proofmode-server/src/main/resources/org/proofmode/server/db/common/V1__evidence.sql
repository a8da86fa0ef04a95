-- One schema for SQLite and PostgreSQL; ${identity} is the engine's auto-numbered key (Database.java).
-- Upload tokens: only the SHA-256 of a token is kept.
CREATE TABLE tokens (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);

-- One row per stored bundle, named by the SHA-256 of its bytes.
CREATE TABLE evidence (
    sha256       TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    size         BIGINT NOT NULL,
    verdict      TEXT NOT NULL,
    report       TEXT NOT NULL,
    received_at  TEXT NOT NULL,
    token_id     TEXT NOT NULL REFERENCES tokens (id)
);

-- One row per proof inside a bundle: what search looks at.
CREATE TABLE evidence_proofs (
    evidence_sha256  TEXT NOT NULL REFERENCES evidence (sha256),
    proof_id         TEXT NOT NULL,
    media_sha256     TEXT,
    signer           TEXT,
    verdict          TEXT NOT NULL,
    captured_at      TEXT,
    proof_time       TEXT,
    latitude         DOUBLE PRECISION,
    longitude        DOUBLE PRECISION,
    PRIMARY KEY (evidence_sha256, proof_id)
);
CREATE INDEX evidence_proofs_media ON evidence_proofs (media_sha256);
CREATE INDEX evidence_proofs_signer ON evidence_proofs (signer);
CREATE INDEX evidence_proofs_captured ON evidence_proofs (captured_at);

-- Chain of custody: append-only.
CREATE TABLE custody (
    id               ${identity},
    evidence_sha256  TEXT NOT NULL REFERENCES evidence (sha256),
    at               TEXT NOT NULL,
    action           TEXT NOT NULL,
    actor            TEXT NOT NULL,
    remote           TEXT NOT NULL,
    verdict          TEXT,
    detail           TEXT NOT NULL
);
CREATE INDEX custody_evidence ON custody (evidence_sha256, id);

-- Notarization texts (the app's SMS share) received before the media.
CREATE TABLE notarizations (
    id            ${identity},
    text          TEXT NOT NULL UNIQUE,
    media_sha256  TEXT NOT NULL,
    fingerprint   TEXT,
    proof_time    TEXT,
    received_at   TEXT NOT NULL,
    token_id      TEXT NOT NULL REFERENCES tokens (id),
    remote        TEXT NOT NULL
);
CREATE INDEX notarizations_media ON notarizations (media_sha256);

-- Requests per token and minute, shared by every instance.
CREATE TABLE rate_windows (
    token_id      TEXT NOT NULL,
    window_start  BIGINT NOT NULL,
    hits          INTEGER NOT NULL,
    PRIMARY KEY (token_id, window_start)
);
