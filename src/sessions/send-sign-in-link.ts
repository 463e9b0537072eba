import type { Bindings } from '../env';
import { countSignInRequest, giveBack, takeMailboxAllowance, takeServiceAllowance, type Allowance } from '../limits/sign-in-requests';
import type { WorkingMailSetup } from '../mail/mail-setup';
import { signInMessage } from '../mail/message';
import { sendMail } from '../mail/send-mail';
import { hasWorkingAccount } from '../store/accounts';
import { issueSignInLink, withdrawSignInLink } from './sign-in-links';

export interface LinkRequest {
  email: string;
  clientIp: string | undefined;
  nowMs: number;
}

/**
 * Answers a request for a sign-in link (decisions.md, "Sign-in links never lock their owner out"). The
 * client's address and network are counted first (a 429 past them). Then a link is made unless the
 * address has a recent unused one (coalesced: nothing is sent, the inbox holds a working link). A new
 * link is mailed if its mailbox has allowance left, or if the address is an account's: its owner is never
 * shut out by mail to other spellings of the mailbox, and coalescing alone bounds their mail. Past the
 * service's hourly cap, a 503. Whatever happens, the caller shows the same page: nothing here tells
 * whether the address has an account.
 */
export async function sendSignInLink(env: Bindings, setup: WorkingMailSetup, request: LinkRequest): Promise<void> {
  await countSignInRequest(env, request.clientIp, request.nowMs);
  const link = await issueSignInLink(env.DB, setup.origin, request.email, request.nowMs);
  if (!link) return;
  const taken: Allowance[] = [];
  try {
    const mailbox = await takeMailboxAllowance(env, request.email, request.nowMs);
    if (mailbox) taken.push(mailbox);
    else if (!(await hasWorkingAccount(env.DB, request.email))) return await withdrawSignInLink(env.DB, link);
    taken.push(await takeServiceAllowance(env, setup.mailsPerHour, request.nowMs));
    await sendMail(env, setup.transport, signInMessage(request.email, link.url));
  } catch (err) {
    // Unsent: the link and the allowances are given back, so a retry is neither coalesced nor charged.
    await Promise.all([withdrawSignInLink(env.DB, link), giveBack(env, taken)]);
    throw err;
  }
}
