-- Verification reports kept on request (POST /api/v1/verify?keep=true): the server's own report, never
-- the bundle; found by an unguessable id, deleted after expires_at.
CREATE TABLE reports (
    id           TEXT PRIMARY KEY,
    verified_at  TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    verdict      TEXT NOT NULL,
    report       TEXT NOT NULL
);
CREATE INDEX reports_expires ON reports (expires_at);

-- The custody log becomes a hash chain per item (CustodyChain): each line names the hash of the line
-- before it and carries its own; the item row keeps the last one. V3 (CustodyChainMigration, Java)
-- fills them in for lines written before and then forbids forks with a unique index.
ALTER TABLE custody ADD COLUMN prev TEXT;
ALTER TABLE custody ADD COLUMN hash TEXT;
ALTER TABLE evidence ADD COLUMN custody_head TEXT;
