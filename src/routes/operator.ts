import { Hono } from 'hono';
import { sameDigest, sha256Hex } from '../crypto/secrets';
import type { AppEnv } from '../env';
import { ApiError } from '../errors/api-error';
import { reloadAccount } from '../limits/account-calls';

/**
 * What the operator commands (scripts/key.mjs, scripts/account.mjs) call after they change an account
 * in D1 (a key revoked, the plan changed, the account disabled or enabled): the account's object reads
 * it again, so the change applies to the next request. Only with `Authorization: Bearer` and the
 * OPERATOR_TOKEN secret; without the secret configured these paths are the same 404 as any unknown path.
 */
export const operatorRoutes = new Hono<AppEnv>()
  .use('/operator/*', async (c, next) => {
    const token = c.env.OPERATOR_TOKEN;
    if (!token) throw new ApiError('not_found');
    const given = /^Bearer (.+)$/.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    if (!sameDigest(await sha256Hex(given), await sha256Hex(token))) throw new ApiError('unauthorized', 'The operator token is missing or wrong.');
    await next();
  })
  .post('/operator/accounts/:id/reload', async (c) => {
    const accountId = c.req.param('id');
    await reloadAccount(c.env, accountId);
    return c.json({ reloaded: accountId });
  });
