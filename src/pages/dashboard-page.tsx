import { keyWorks } from '../keys/account-keys';
import type { Session } from '../sessions/sessions';
import type { Plan } from '../store/accounts';
import type { ListedKey } from '../store/keys';
import type { DayUsage, MonthUsage } from '../store/usage';
import { bytes, count, dateTime, SIZE_UNITS } from './format';
import { CreateKeyForm, KeysAtAGlance } from './keys-pages';
import { Page } from './layout';
import { Table } from './parts';
import { UsageChart } from './usage-chart';

interface DashboardPageProps {
  session: Session;
  plan: Plan;
  month: MonthUsage;
  resetMs: number;
  days: DayUsage[];
  keys: ListedKey[];
}

const planTitle = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The overview: the month against the plan, what was saved, 30 days of use, and the keys. */
export function DashboardPage({ session, plan, month, resetMs, days, keys }: DashboardPageProps) {
  const working = keys.filter(keyWorks);
  const saved = month.bytesIn - month.bytesOut;
  const savedPercent = month.bytesIn > 0 ? Math.round((100 * saved) / month.bytesIn) : 0;
  return (
    <Page title="Dashboard" session={session} current="overview">
      <h1>{session.name ? `Hello, ${session.name}` : 'Dashboard'}</h1>
      <div class="stats">
        <section class="card stat" aria-labelledby="month-title">
          <h2 id="month-title">This month</h2>
          <p class="big">
            {count(month.requests)} <span>of {count(plan.monthlyQuota)} compressions</span>
          </p>
          <meter min={0} max={plan.monthlyQuota} value={month.requests} low={plan.monthlyQuota * 0.8} high={plan.monthlyQuota * 0.95} optimum={0}>
            {`${count(month.requests)} of ${count(plan.monthlyQuota)}`}
          </meter>
          <p class="small">Resets {dateTime(resetMs)}.</p>
        </section>
        <section class="card stat" aria-labelledby="saved-title">
          <h2 id="saved-title">Saved this month</h2>
          <p class="big">{bytes(saved)}</p>
          <p class="small">
            {month.bytesIn > 0 ? `${savedPercent}% less than the ${bytes(month.bytesIn)} you sent.` : 'Nothing compressed yet this month.'}
          </p>
          <p class="small">{SIZE_UNITS}</p>
        </section>
        <section class="card stat" aria-labelledby="plan-title">
          <h2 id="plan-title">Plan</h2>
          <p class="big">{planTitle(plan.name)}</p>
          <p class="small">
            {count(plan.perMinute)} requests a minute, {count(plan.monthlyQuota)} compressions a month, shared by all your keys.{' '}
            <a href="/dashboard/plan">Plans and upgrades</a>
          </p>
        </section>
      </div>

      <section aria-labelledby="days-title">
        <h2 id="days-title">Last 30 days</h2>
        <UsageChart days={days} />
      </section>

      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        {working.length === 0 ? (
          <div class="empty-state">
            <p>
              <strong>You have no API key yet.</strong> Create one to start compressing: it is shown once, with a command to
              try it.
            </p>
            <CreateKeyForm label="Name your first key" />
          </div>
        ) : (
          <>
            <KeysAtAGlance keys={working} />
            <p>
              <a href="/dashboard/keys">Manage keys</a>: create, roll or revoke.
            </p>
          </>
        )}
      </section>
    </Page>
  );
}

/** Where the plan page sends upgrade requests: an address, or in local mode the operator command. */
export type UpgradeContact = { address: string } | 'local-mode' | null;

export function PlanPage({ session, plans, contact }: { session: Session; plans: Plan[]; contact: UpgradeContact }) {
  const from = session.email ?? 'your account’s address';
  return (
    <Page title="Plans" session={session} current="plan">
      <h1>Plans</h1>
      <p class="lead">
        You are on the <strong>{planTitle(session.plan)}</strong> plan. Limits belong to your account: all your keys share them.
      </p>
      <Table name="plans-table" columns={['Plan', 'Requests a minute', 'Compressions a month']}>
        {plans.map((p) => (
          <tr class={p.name === session.plan ? 'current' : undefined}>
            <th scope="row">
              {planTitle(p.name)} {p.name === session.plan && <span class="status active">Your plan</span>}
            </th>
            <td>{count(p.perMinute)}</td>
            <td>{count(p.monthlyQuota)}</td>
          </tr>
        ))}
      </Table>
      <p class="small">
        Only successful compressions count toward the month, which resets at 00:00 UTC on the 1st. Every request counts toward
        the minute.
      </p>
      <h2>Changing plans</h2>
      <p>
        There is no billing here yet: the operator of this service changes plans by hand, and the change shows in your{' '}
        <a href="/dashboard/security">activity</a>.{' '}
        {contact === 'local-mode' ? (
          <>
            This server runs in local mode, so that is whoever started it: in its folder,{' '}
            <code>npm run account -- plan {session.email ?? '<account id>'} pro</code> moves this account to Pro.
          </>
        ) : contact ? (
          <>
            To ask for an upgrade, write to <a href={`mailto:${contact.address}?subject=${encodeURIComponent('Plan upgrade')}`}>{contact.address}</a>{' '}
            from {from}, naming the plan you want.
          </>
        ) : (
          <>This service has not published where to ask for an upgrade yet; until its operator changes it, your plan stays as it is.</>
        )}
      </p>
    </Page>
  );
}
