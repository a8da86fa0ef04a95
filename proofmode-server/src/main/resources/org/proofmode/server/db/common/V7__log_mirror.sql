-- What of the transparency log has been copied to the bucket for static serving (serve --log-to-bucket):
-- the size and signed note of the checkpoint copied last. The instance copying holds this row, so instances
-- take turns and the bucket's checkpoint never goes back to an older tree.
CREATE TABLE log_mirror (
    id    INTEGER PRIMARY KEY,
    size  BIGINT NOT NULL,
    note  TEXT NOT NULL
);
INSERT INTO log_mirror (id, size, note) VALUES (1, 0, '');
