-- The whole current D1 schema, for reading: what the migrations in migrations/ make, applied in order
-- (test/schema-sql.test.ts keeps the two equal). The database is changed through a new migration, never
-- here alone; `npm start`, the operator commands, the tests and `npm run deploy` apply the migrations.

-- The one table of plan limits. Plans change through a new migration only: nothing else writes this table.
CREATE TABLE plans (
  name TEXT PRIMARY KEY,
  per_minute INTEGER NOT NULL,
  monthly_quota INTEGER NOT NULL
);
INSERT INTO plans (name, per_minute, monthly_quota) VALUES
  ('free', 60, 500),
  ('pro', 60, 5000),
  ('business', 600, 100000);

-- Accounts own the plan, the keys and the limits. `email` is stored lowercased; NULL for an account made by
-- `npm run key -- create` or from a key older than accounts (such an account has no dashboard sign-in).
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  email TEXT UNIQUE,
  name TEXT,
  plan TEXT NOT NULL REFERENCES plans(name),
  created_at TEXT NOT NULL,
  disabled_at TEXT
);

-- Only the SHA-256 of a key is stored; `prefix` is its first characters, to tell keys apart in listings.
-- `expires_at` is set by a roll with a grace period: the old key works until then. `last_used_at` is
-- written at most once an hour.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  name TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  expires_at TEXT,
  revoked_at TEXT
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Successful compressions of a key in a calendar month (UTC, 'YYYY-MM'); an account's month is the sum
-- over its keys.
CREATE TABLE monthly_usage (
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  month TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, month)
);

-- Successful compressions of a key on a UTC day ('YYYY-MM-DD'), written in the same batch as
-- monthly_usage so that the two cannot drift apart.
CREATE TABLE daily_usage (
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  day TEXT NOT NULL,
  requests INTEGER NOT NULL DEFAULT 0,
  bytes_in INTEGER NOT NULL DEFAULT 0,
  bytes_out INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
);

-- The last usage batch D1 has applied of each account's Durable Object (src/durable/account-gate.ts), which
-- counts the account's compressions and writes them here in numbered batches: a batch sent again is
-- applied once.
CREATE TABLE usage_batches (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  batch INTEGER NOT NULL
);

-- No longer written: quota slots are held in the accounts' objects since migration 0003. Kept until a later
-- migration, for a Worker of the previous version still answering during a deploy.
CREATE TABLE quota_reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  month TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX quota_reservations_account_month ON quota_reservations (account_id, month, created_ms);

-- A dashboard session: the cookie holds `id.secret`; only the secret's SHA-256 is stored.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  secret_hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL,
  ended_ms INTEGER,
  user_agent TEXT
);
CREATE INDEX sessions_account ON sessions (account_id, ended_ms);

-- An emailed sign-in link: only the SHA-256 of its token is stored. `name` is no longer written (the
-- confirm page asks the name of an account it creates); kept until a later migration, for a Worker of the
-- previous version still answering during a deploy.
CREATE TABLE sign_in_links (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  name TEXT,
  created_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL,
  used_ms INTEGER
);
CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_ms);

-- What happened to an account, by whom ('user' or 'operator'), for the security page and the operator.
CREATE TABLE audit_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  at TEXT NOT NULL,
  actor TEXT NOT NULL,
  event TEXT NOT NULL,
  detail TEXT
);
CREATE INDEX audit_events_account ON audit_events (account_id, id);
