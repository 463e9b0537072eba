import type { MailMessage } from '../mail/message';
import { Page } from './layout';

/** Local mode's mail, newest first: what would have been sent, with its link to open. */
export function OutboxPage({ messages }: { messages: MailMessage[] }) {
  return (
    <Page title="Local outbox">
      <h1>Local outbox</h1>
      <p class="lead">
        This server runs in local mode: mail is kept here instead of being sent. The newest message for an address is also
        at <code>/dev/outbox/latest?to=EMAIL</code> as JSON.
      </p>
      {messages.length === 0 ? (
        <p>No messages yet. <a href="/signup">Sign up</a> or <a href="/signin">sign in</a> to get one.</p>
      ) : (
        <ol class="outbox">
          {messages.map((m) => (
            <li class="card">
              <p>
                <strong>{m.subject}</strong> to {m.to}
              </p>
              <pre>{m.text}</pre>
              <p>
                <a class="button" href={m.link}>
                  Open the link
                </a>
              </p>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
