-- Synthetic evidence for search at scale (SearchPlansTest, bench/search-scale.sh), made straight in
-- PostgreSQL: ITEMS bundles of one proof each, 500 signers, a capture every 17 minutes from 2020 (one in
-- fifty without a capture time), two thirds with a place spread over the globe. ITEMS is replaced before
-- the statements run.
INSERT INTO tokens (id, name, token_hash, created_at) VALUES ('bench', 'bench', 'h', '2026-01-01T00:00:00.000Z');
INSERT INTO evidence (sha256, name, size, verdict, report, received_at, token_id)
    SELECT md5(i::text) || md5((i + 1)::text), 'bundle.zip', 3000000, 'VALID', '{}', '2026-01-01T00:00:00.000Z', 'bench'
    FROM generate_series(1, ITEMS) i;
INSERT INTO evidence_proofs (evidence_sha256, proof_id, media_sha256, signer, verdict, captured_at, proof_time, latitude, longitude)
    SELECT md5(i::text) || md5((i + 1)::text), md5((i * 7)::text) || md5((i * 11)::text), md5((i * 7)::text) || md5((i * 11)::text),
        upper(md5((i % 500)::text) || substr(md5((i % 500 + 1)::text), 1, 8)), 'VALID',
        CASE WHEN i % 50 = 0 THEN NULL
            ELSE to_char(timestamp '2020-01-01' + i * interval '17 minutes', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END,
        NULL,
        CASE WHEN i % 3 = 0 THEN NULL ELSE -60 + (i * 37 % 13000) / 100.0 END,
        CASE WHEN i % 3 = 0 THEN NULL ELSE -180 + (i * 53 % 36000) / 100.0 END
    FROM generate_series(1, ITEMS) i;
ANALYZE evidence_proofs;
