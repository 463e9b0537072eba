import { keyStatus, keyWorks, MAX_LIVE_KEYS, ROLL_GRACE_MS, UNCONFIRMED_END_S } from '../keys/account-keys';
import { KEY_NAME_MAX } from '../schemas/forms';
import type { Session } from '../sessions/sessions';
import type { Plan } from '../store/accounts';
import type { ListedKey } from '../store/keys';
import { count, dateTime, day } from './format';
import { Page } from './layout';
import { PostButton, Table, TextField } from './parts';

/** The keys page, the page that shows a new key once, and the pieces the overview borrows. */

export function StatusText({ apiKey }: { apiKey: ListedKey }) {
  const status = keyStatus(apiKey);
  switch (status.state) {
    case 'active':
      return <span class="status active">Active</span>;
    case 'ending':
      return <span class="status ending">Ends {dateTime(status.at)}</span>;
    case 'ended':
      return <span class="status ended">Ended {day(status.at)}</span>;
    case 'revoked':
      return <span class="status revoked">Revoked {day(status.at)}</span>;
  }
}

const lastUsed = (k: ListedKey) => (k.lastUsedAt ? dateTime(k.lastUsedAt) : 'Never');

export function CreateKeyForm({ error, value, label = 'Name' }: { error?: string | undefined; value?: string | undefined; label?: string }) {
  return (
    <form class="card form inline-form" method="post" action="/dashboard/keys">
      <TextField
        id="key-name"
        name="name"
        label={label}
        maxlength={KEY_NAME_MAX}
        placeholder="e.g. my website"
        hint={`At most ${KEY_NAME_MAX} characters: the app or machine that will use it.`}
        value={value}
        error={error}
      />
      <button class="button" type="submit">
        Create key
      </button>
    </form>
  );
}

/** The overview's table: keys with their share of the month. */
export function KeysAtAGlance({ keys }: { keys: ListedKey[] }) {
  return (
    <Table name="keys-table" stack columns={['Name', 'Key', 'Status', 'Last used', 'This month']}>
      {keys.map((k) => (
        <tr>
          <th scope="row">{k.name ?? '—'}</th>
          <td data-label="Key">
            <code>{k.prefix}…</code>
          </td>
          <td data-label="Status">
            <StatusText apiKey={k} />
          </td>
          <td data-label="Last used">{lastUsed(k)}</td>
          <td data-label="This month">{count(k.monthRequests)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** A row of the keys page; a working key gets its roll and revoke buttons. */
function KeyRow({ apiKey: k }: { apiKey: ListedKey }) {
  return (
    <tr>
      <th scope="row">{k.name ?? '—'}</th>
      <td data-label="Key">
        <code>{k.prefix}…</code>
      </td>
      <td data-label="Created">{day(k.createdAt)}</td>
      <td data-label="Last used">{lastUsed(k)}</td>
      <td data-label="Status">
        <StatusText apiKey={k} />
      </td>
      {keyWorks(k) && (
        <td>
          <div class="actions">
            {keyStatus(k).state === 'active' && (
              <form method="post" action={`/dashboard/keys/${k.id}/roll`} class="roll">
                <label class="visually-hidden" for={`ends-${k.id}`}>
                  When the old secret of {k.name ?? k.prefix} ends
                </label>
                <select id={`ends-${k.id}`} name="ends">
                  <option value="24h">Old key: 24 more hours</option>
                  <option value="now">Old key: ends now</option>
                </select>
                <button class="button secondary" type="submit" data-confirm="Roll this key? You get a new secret with the same name.">
                  Roll
                </button>
              </form>
            )}
            <PostButton action={`/dashboard/keys/${k.id}/revoke`} label="Revoke" kind="danger" confirm="Revoke this key? It stops working at once." />
          </div>
        </td>
      )}
    </tr>
  );
}

export interface KeysPageProps {
  session: Session;
  plan: Plan;
  keys: ListedKey[];
  nameError?: string | undefined;
  nameValue?: string | undefined;
  /** A problem with the whole page's request: too many keys, a key that cannot be rolled. */
  notice?: string | undefined;
  /** A key revoked in D1 whose account's object could not be told: it offers to revoke again. */
  unconfirmedRevoke?: { id: string; prefix: string } | undefined;
}

export function KeysPage({ session, plan, keys, nameError, nameValue, notice, unconfirmedRevoke }: KeysPageProps) {
  const working = keys.filter(keyWorks);
  const ended = keys.filter((k) => !keyWorks(k)).slice(0, 20);
  const columns = ['Name', 'Key', 'Created', 'Last used', 'Status'];
  return (
    <Page title="API keys" session={session} current="keys" scripts={['/assets/dashboard.js']}>
      <h1>API keys</h1>
      <p class="lead">
        Send a key as the <code>X-API-Key</code> header. All your keys share your plan's limits: {count(plan.perMinute)} requests a
        minute and {count(plan.monthlyQuota)} compressions a month.
      </p>
      {notice && (
        <p class="notice" role="alert">
          {notice}
        </p>
      )}
      {unconfirmedRevoke && (
        <div class="notice" role="alert">
          <p>
            Key <code>{unconfirmedRevoke.prefix}…</code> is revoked, but the service could not confirm that it has stopped
            everywhere: it may keep working for up to {UNCONFIRMED_END_S} seconds. Revoke it again to stop it now.
          </p>
          <PostButton action={`/dashboard/keys/${unconfirmedRevoke.id}/revoke`} label="Revoke again" kind="danger" />
        </div>
      )}
      <h2>Create a key</h2>
      <p>
        {working.length} of {MAX_LIVE_KEYS} keys in use.
      </p>
      <CreateKeyForm error={nameError} value={nameValue} />

      <h2>Working keys</h2>
      {working.length === 0 ? (
        <p>No working keys. Create one above.</p>
      ) : (
        <Table name="keys-table" stack columns={[...columns, 'Actions']}>
          {working.map((k) => (
            <KeyRow apiKey={k} />
          ))}
        </Table>
      )}

      {ended.length > 0 && (
        <>
          <h2>Revoked and ended keys</h2>
          <Table name="keys-table" stack columns={columns}>
            {ended.map((k) => (
              <KeyRow apiKey={k} />
            ))}
          </Table>
        </>
      )}
    </Page>
  );
}

/** What the page after a create or a roll shows, once. */
export interface NewKey {
  secret: string;
  name: string | null;
  /** Set after a roll: when the old secret stops working. */
  oldKeyEnds?: 'now' | '24h';
  /** Set after a roll whose account's object could not be told: an old secret ended now may work a little longer. */
  unconfirmed?: boolean;
}

/** The only time a key's secret is shown. The page is never cached (no-store, like every dashboard page). */
export function NewKeyPage({ session, newKey, origin }: { session: Session; newKey: NewKey; origin: string }) {
  const { secret, name, oldKeyEnds, unconfirmed } = newKey;
  return (
    <Page title="Your new key" session={session} current="keys" scripts={['/assets/dashboard.js']}>
      <h1>{oldKeyEnds ? 'Your rolled key' : 'Your new key'}</h1>
      <p class="lead">
        Copy it now: this is the only time it is shown. Only a hash of it is stored, so if you lose it, roll it or create
        another.
      </p>
      <div class="card secret">
        <label for="new-key">{name ? `Key “${name}”` : 'Key'}</label>
        <div class="copy-row">
          <input id="new-key" class="secret-value" readonly value={secret} spellcheck={false} autocomplete="off" />
          <button class="button" type="button" data-copy="new-key" hidden>
            Copy
          </button>
        </div>
        <p class="copy-status" aria-live="polite"></p>
      </div>
      {oldKeyEnds && (
        <p>
          The old secret{' '}
          {oldKeyEnds === '24h'
            ? `keeps working for ${ROLL_GRACE_MS / 3_600_000} hours, then ends.`
            : unconfirmed
              ? `has ended, but the service could not confirm that it has stopped everywhere: it may keep working for up to ${UNCONFIRMED_END_S} seconds.`
              : 'stopped working just now.'}
        </p>
      )}
      <h2>Try it</h2>
      <pre>
        <code>{`curl ${origin}/v1/compress \\
  -H "X-API-Key: ${secret}" \\
  -F file=@photo.jpg -D - -o photo.min.jpg`}</code>
      </pre>
      <p>
        <a class="button" href="/dashboard/keys">
          I have copied it
        </a>
      </p>
    </Page>
  );
}

/** The new-key page again (a reload, the back button): the secret was shown once and is gone. */
export function KeyShownPage({ session }: { session: Session }) {
  return (
    <Page title="Key already shown" session={session} current="keys">
      <h1>This key was shown once</h1>
      <p class="lead">
        A new key is shown only once, right after it is made, and only its hash is stored: it cannot be shown again. If you
        did not copy it, roll it on the keys page for a new secret with the same name, or revoke it.
      </p>
      <p>
        <a class="button" href="/dashboard/keys">
          Go to your keys
        </a>
      </p>
    </Page>
  );
}
