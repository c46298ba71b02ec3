/**
 * How many connections the kernel may hold for a listening socket before the server accepts them. Node's
 * default is 511. When thousands of phones reconnect at once (after an outage, a deploy, or a bulk lock's
 * wake-up) while the event loop is busy, a full queue makes the kernel drop their SYNs; each phone then waits
 * for its SYN to be sent again (1 s, 3 s, 7 s...), and its check-in times out before the server ever sees it.
 * Linux caps the value at net.core.somaxconn (4096 by default since Linux 5.4).
 */
export const LISTEN_BACKLOG = 4096;
