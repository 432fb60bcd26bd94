-- The table the sqlc cases write: jobs claimed under a lock, fenced by the
-- token of the holder that wrote last.
CREATE TABLE jobs (
    id    BIGINT PRIMARY KEY,
    state TEXT   NOT NULL,
    owner TEXT   NOT NULL DEFAULT '',
    fence BIGINT NOT NULL DEFAULT 0
);
