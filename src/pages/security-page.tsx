import type { Session } from '../sessions/sessions';
import { SESSION_IDLE_MS, SESSION_MAX_MS } from '../sessions/sessions';
import type { AuditEvent, AuditEventName } from '../store/audit';
import type { ListedSession } from '../store/sessions';
import { browserName, dateTime, friendlyTimes } from './format';
import { Page } from './layout';
import { PostButton, Table } from './parts';

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
        <Table name="sessions-table" stack columns={['Browser', 'Signed in', 'Last active', <span class="visually-hidden">Action</span>]}>
          {sessions.map((s) => (
            <tr class={s.id === session.id ? 'current' : undefined}>
              <th scope="row">{browserName(s.userAgent)}</th>
              <td data-label="Signed in">{dateTime(s.createdMs)}</td>
              <td data-label="Last active">{dateTime(s.lastSeenMs)}</td>
              <td>
                {s.id === session.id ? (
                  <span class="status active">This browser</span>
                ) : (
                  <PostButton action={`/dashboard/sessions/${s.id}/end`} label="End" kind="secondary" />
                )}
              </td>
            </tr>
          ))}
        </Table>
        {others.length > 0 && <PostButton action="/dashboard/sessions/end-others" label="Sign out everywhere else" kind="danger" />}
      </section>
      <section aria-labelledby="events-title">
        <h2 id="events-title">Recent activity</h2>
        <Table name="events-table" stack columns={['What', 'When', 'Details', 'By']}>
          {events.map((e) => (
            <tr>
              <th scope="row">{EVENTS[e.event] ?? e.event}</th>
              <td data-label="When">{dateTime(e.at)}</td>
              <td data-label="Details">{friendlyTimes(e.detail ?? '')}</td>
              <td data-label="By">{e.actor === 'operator' ? 'Operator' : 'You'}</td>
            </tr>
          ))}
        </Table>
      </section>
    </Page>
  );
}
