import type { Session } from '../sessions/sessions';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../sessions/sessions';
import type { AuditEvent, AuditEventName } from '../store/audit';
import type { ListedSession } from '../store/sessions';
import { browserName, dateTime } from './format';
import { Page } from './layout';

const EVENTS: Record<AuditEventName, string> = {
  account_created: 'Account created',
  signed_in: 'Signed in',
  session_ended: 'Session ended',
  key_created: 'Key created',
  key_revoked: 'Key revoked',
  key_rolled: 'Key rolled',
  plan_changed: 'Plan changed',
  account_disabled: 'Account disabled',
  account_enabled: 'Account enabled',
};

const DAYS = 86_400_000;

/** Where the account is signed in (end one, or all others) and what happened to it lately. */
export function SecurityPage({ session, sessions, events }: { session: Session; sessions: ListedSession[]; events: AuditEvent[] }) {
  const others = sessions.filter((s) => s.id !== session.id);
  return (
    <Page title="Security" session={session} current="security">
      <h1>Security</h1>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        <p>
          A session ends after {SESSION_IDLE_MS / DAYS} days without use, {SESSION_MAX_MS / DAYS} days after signing in at the latest,
          or when you sign out.
        </p>
        <div class="table-scroll">
          <table class="sessions-table stack">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span class="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr class={s.id === session.id ? 'current' : undefined}>
                  <th scope="row">{browserName(s.userAgent)}</th>
                  <td data-label="Signed in">{dateTime(s.createdMs)}</td>
                  <td data-label="Last active">{dateTime(s.lastSeenMs)}</td>
                  <td>
                    {s.id === session.id ? (
                      <span class="status active">This browser</span>
                    ) : (
                      <form method="post" action={`/dashboard/sessions/${s.id}/end`}>
                        <button class="button secondary" type="submit">
                          End
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {others.length > 0 && (
          <form method="post" action="/dashboard/sessions/end-others">
            <button class="button danger" type="submit">
              Sign out everywhere else
            </button>
          </form>
        )}
      </section>
      <section aria-labelledby="events-title">
        <h2 id="events-title">Recent activity</h2>
        <div class="table-scroll">
          <table class="events-table stack">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">When</th>
                <th scope="col">Details</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr>
                  <th scope="row">{EVENTS[e.event] ?? e.event}</th>
                  <td data-label="When">{dateTime(e.at)}</td>
                  <td data-label="Details">{e.detail ?? ''}</td>
                  <td data-label="By">{e.actor === 'operator' ? 'Operator' : 'You'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </Page>
  );
}
