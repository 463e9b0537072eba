/** Typed D1 queries on sign-in links. The rules (lifetime, single use) are in src/sessions/sign-in-links.ts. */

/**
 * Stores a link by its token's hash unless the address has an unused one made since `coalesceSinceMs`
 * (one statement, so of concurrent requests one stores), and drops links that expired more than a day
 * ago. True when it was stored.
 */
export async function insertSignInLinkUnlessRecent(
  db: D1Database,
  link: { tokenHash: string; email: string; nowMs: number; expiresMs: number },
  coalesceSinceMs: number,
): Promise<boolean> {
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO sign_in_links (token_hash, email, created_ms, expires_ms) SELECT ?1, ?2, ?3, ?4
         WHERE NOT EXISTS (SELECT 1 FROM sign_in_links WHERE email = ?2 AND used_ms IS NULL AND created_ms > ?5)`,
      )
      .bind(link.tokenHash, link.email, link.nowMs, link.expiresMs, coalesceSinceMs),
    db.prepare('DELETE FROM sign_in_links WHERE expires_ms < ?').bind(link.nowMs - 86_400_000),
  ]);
  return inserted?.meta.changes === 1;
}

/** Drops a link that was never sent. */
export async function deleteSignInLink(db: D1Database, tokenHash: string): Promise<void> {
  await db.prepare('DELETE FROM sign_in_links WHERE token_hash = ?').bind(tokenHash).run();
}

/** The email of an unused, unexpired link, without using it (the confirm page); null when it does not work. */
export async function liveSignInLinkEmail(db: D1Database, tokenHash: string, nowMs: number): Promise<string | null> {
  const row = await db
    .prepare('SELECT email FROM sign_in_links WHERE token_hash = ? AND used_ms IS NULL AND expires_ms > ?')
    .bind(tokenHash, nowMs)
    .first<{ email: string }>();
  return row?.email ?? null;
}

/**
 * Uses the link: one statement marks it used only if it is still unused and unexpired, so of two
 * concurrent confirmations exactly one gets its email back.
 */
export async function consumeSignInLink(
  db: D1Database,
  tokenHash: string,
  nowMs: number,
): Promise<string | null> {
  const row = await db
    .prepare('UPDATE sign_in_links SET used_ms = ? WHERE token_hash = ? AND used_ms IS NULL AND expires_ms > ? RETURNING email')
    .bind(nowMs, tokenHash, nowMs)
    .first<{ email: string }>();
  return row?.email ?? null;
}
