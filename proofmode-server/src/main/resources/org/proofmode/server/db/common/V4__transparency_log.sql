-- The transparency log (LogStore). Events wait in log_queue, written in the same transaction as the event,
-- until one instance's sequencer, holding log_state's row, gives them their indices: it adds them to
-- log_entries, stores the hashes each append completes in log_hashes (level, index), signs a checkpoint
-- and moves log_state on. log_state holds one row (id 1), made at the first start.
CREATE TABLE log_state (
    id            INTEGER PRIMARY KEY,
    origin        TEXT NOT NULL,
    verifier_key  TEXT NOT NULL,
    size          BIGINT NOT NULL,
    root          TEXT NOT NULL,
    checkpoint    TEXT NOT NULL
);

CREATE TABLE log_queue (
    id              ${identity},
    entry           TEXT NOT NULL,
    bundle_sha256   TEXT
);

CREATE TABLE log_entries (
    idx            BIGINT PRIMARY KEY,
    entry          TEXT NOT NULL,
    kind           TEXT NOT NULL,
    bundle_sha256  TEXT
);
CREATE INDEX log_entries_bundle ON log_entries (bundle_sha256, idx);

CREATE TABLE log_hashes (
    level  INTEGER NOT NULL,
    idx    BIGINT NOT NULL,
    hash   TEXT NOT NULL,
    PRIMARY KEY (level, idx)
);

-- Every checkpoint signed, so that receipts and consistency proofs can name an older tree.
CREATE TABLE log_checkpoints (
    size     BIGINT PRIMARY KEY,
    note     TEXT NOT NULL,
    made_at  TEXT NOT NULL
);
