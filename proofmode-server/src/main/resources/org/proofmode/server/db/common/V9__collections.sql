-- Collections (proofmode collect) kept as evidence: the page's address as asked for and after redirects,
-- their hosts, the page's title, the capture time and the TLS subject, for search by URL. The addresses'
-- SHA-256 (hex of their UTF-8) are what exact search looks up: an index on the text itself would refuse
-- an address longer than PostgreSQL's index entries.
CREATE TABLE evidence_collections (
    evidence_sha256  TEXT PRIMARY KEY REFERENCES evidence (sha256),
    url              TEXT NOT NULL,
    url_sha256       TEXT NOT NULL,
    final_url        TEXT NOT NULL,
    final_url_sha256 TEXT NOT NULL,
    host             TEXT NOT NULL,
    final_host       TEXT NOT NULL,
    title            TEXT,
    collected_at     TEXT NOT NULL,
    tls_subject      TEXT
);
CREATE INDEX evidence_collections_url ON evidence_collections (url_sha256);
CREATE INDEX evidence_collections_final_url ON evidence_collections (final_url_sha256);
CREATE INDEX evidence_collections_host ON evidence_collections (host);
CREATE INDEX evidence_collections_final_host ON evidence_collections (final_host);
