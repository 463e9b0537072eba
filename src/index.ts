import { app } from './app';

export { RateLimiter } from './durable/rate-limiter';
export default app;
