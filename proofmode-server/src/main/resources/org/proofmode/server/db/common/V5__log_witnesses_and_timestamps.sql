-- How many of the configured witnesses have cosigned each checkpoint (LogStore.addCosignatures): with a
-- quorum set, only checkpoints cosigned by that many are served and used for receipts.
ALTER TABLE log_checkpoints ADD COLUMN witnessed INTEGER NOT NULL DEFAULT 0;

-- An RFC 3161 time-stamp of each served checkpoint's text (serve --log-tsa), base64 of the authority's
-- DER TimeStampResp: the log held that tree no later than the token's time.
ALTER TABLE log_checkpoints ADD COLUMN timestamp_token TEXT;
