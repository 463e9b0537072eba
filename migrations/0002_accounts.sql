-- Accounts own the plan, the keys and the limits; sessions and sign-in links for the dashboard; the audit
-- log; usage per day for the dashboard's chart. Every key made before accounts becomes an account of its
-- own (same id, same plan), so it keeps working and keeps its usage.

-- `email` is stored lowercased; NULL for an account made by `npm run key -- create` or from a key older
-- than accounts (such an account has no dashboard sign-in, only its keys).
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  email TEXT UNIQUE,
  name TEXT,
  plan TEXT NOT NULL REFERENCES plans(name),
  created_at TEXT NOT NULL,
  disabled_at TEXT
);
INSERT INTO accounts (id, email, name, plan, created_at)
  SELECT id, NULL, NULL, plan, created_at FROM api_keys;

-- api_keys loses its plan column, which SQLite can only do by rebuilding the table. Its children are
-- renamed away first, then the parent (SQLite rewrites their references to follow it), so that every
-- table is dropped after the tables that refer to it and no foreign key is ever broken, not even for a
-- moment (D1 enforces them, and a deferred check would count the drop as a violation).
ALTER TABLE monthly_usage RENAME TO old_monthly_usage;
ALTER TABLE quota_reservations RENAME TO old_quota_reservations;
ALTER TABLE api_keys RENAME TO old_api_keys;
-- Index names stay with the renamed table; its name is free again once it is dropped.
DROP INDEX quota_reservations_key_month;

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
INSERT INTO api_keys (id, account_id, key_hash, prefix, name, created_at, revoked_at)
  SELECT id, id, key_hash, prefix, name, created_at, revoked_at FROM old_api_keys;
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
INSERT INTO monthly_usage SELECT key_id, month, requests, bytes_in, bytes_out FROM old_monthly_usage;

-- A quota slot held by a compression in progress, now the account's: all its keys share one month.
-- (Each key so far is an account of the same id.)
CREATE TABLE quota_reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  month TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
INSERT INTO quota_reservations SELECT id, key_id, month, created_ms FROM old_quota_reservations;
CREATE INDEX quota_reservations_account_month ON quota_reservations (account_id, month, created_ms);

DROP TABLE old_monthly_usage;
DROP TABLE old_quota_reservations;
DROP TABLE old_api_keys;

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

-- An emailed sign-in link: only the SHA-256 of its token is stored; `name` was given at sign-up and
-- names the account if this link creates it.
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
