/** Hands the event loop back: a timer, which lets other requests' events in before the caller goes on. */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
