-- The schema as it was before accounts (it was schema.sql). Idempotent, so that a database made from that
-- file before migrations existed takes this first migration as a no-op and goes on with the next ones.

-- The one table of plan limits. Plans change through a new migration only: nothing else writes this table.
CREATE TABLE IF NOT EXISTS plans (
  name TEXT PRIMARY KEY,
  per_minute INTEGER NOT NULL,
  monthly_quota INTEGER NOT NULL
);
INSERT OR IGNORE INTO plans (name, per_minute, monthly_quota) VALUES
  ('free', 60, 500),
  ('pro', 60, 5000),
  ('business', 600, 100000);

-- Only the SHA-256 of a key is stored; `prefix` is its first characters, to tell keys apart in listings.
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  plan TEXT NOT NULL REFERENCES plans(name),
  name TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

-- Successful compressions of a key in a calendar month (UTC, 'YYYY-MM').
CREATE TABLE IF NOT EXISTS monthly_usage (
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  month TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month)
);

-- A quota slot held by a compression in progress. Reserving counts these so concurrent requests
-- never overshoot; a slot whose Worker died is ignored once it is older than the reservation lifetime.
CREATE TABLE IF NOT EXISTS quota_reservations (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  month TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS quota_reservations_key_month ON quota_reservations (key_id, month, created_ms);
