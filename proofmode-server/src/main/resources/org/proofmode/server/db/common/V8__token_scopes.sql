-- What a token may do: 'upload' (send evidence and notarizations, read back only what it sent), 'read'
-- (read everything, send nothing) or 'admin' (both). Tokens made before scopes keep NULL here and every
-- right they had; 'server token list' says they should be replaced.
ALTER TABLE tokens ADD COLUMN scope TEXT;

-- Who sent each stored bundle: the first sender and everyone who sent the same bytes again. An upload
-- token reads back only the items it is listed for here.
CREATE TABLE evidence_senders (
    evidence_sha256  TEXT NOT NULL REFERENCES evidence (sha256),
    token_id         TEXT NOT NULL REFERENCES tokens (id),
    PRIMARY KEY (evidence_sha256, token_id)
);
INSERT INTO evidence_senders (evidence_sha256, token_id) SELECT sha256, token_id FROM evidence;
