/** Domains whose mailboxes ignore dots in the local part; googlemail.com is gmail.com's other name. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address delivers to, as far as a limiter can tell: lowercase, a `+tag` dropped, and for
 * Gmail the dots dropped, so `Erin.Smith+1@googlemail.com` and `erinsmith@gmail.com` are one mailbox.
 * For the limiter only: mail still goes to the address as given, and an account is the address as given.
 */
export function mailboxKey(email: string): string {
  const lower = email.toLowerCase();
  const at = lower.lastIndexOf('@');
  const domain = lower.slice(at + 1);
  let local = lower.slice(0, at).split('+')[0]!;
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) local = local.replaceAll('.', '');
  return `${local}@${dotless ?? domain}`;
}
