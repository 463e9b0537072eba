-- Keyed requests make one round trip: each account's Durable Object (src/durable/account-gate.ts) holds
-- its keys' state, its minute window and its quota slots, and writes the account's usage to D1 in
-- numbered batches. D1 keeps, per account, the last batch it applied, so that a batch sent again (its
-- answer lost, or the object restarted before it heard) is applied once. Existing usage is kept as it
-- is: the objects read it when they start.
CREATE TABLE usage_batches (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id),
  batch INTEGER NOT NULL
);

-- quota_reservations is no longer written (slots are held in the objects). It stays until a later
-- migration, so that a Worker of the previous version, still answering between `migrations apply` and
-- `deploy`, does not fail on a missing table.
