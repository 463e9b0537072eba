import { app } from './app';

export { AccountGate } from './durable/account-gate';
export { RateLimiter } from './durable/rate-limiter';
export default app;
