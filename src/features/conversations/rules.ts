/**
 * The conversations' limits (issue 28): a message is plain text (line breaks kept, shown escaped,
 * links not made clickable) of at most BODY_MAX characters; a member sends at most SEND_LIMIT
 * messages in SEND_WINDOW_MS, all their conversations together (counted in the database, so every
 * app node and every client, page or GraphQL, shares one count).
 */
export const BODY_MAX = 4_000;
export const SEND_LIMIT = 20;
export const SEND_WINDOW_MS = 10 * 60 * 1000;
/** The list's page size and the thread's. */
export const LIST_PAGE_SIZE = 20;
export const THREAD_PAGE_SIZE = 50;
/** The characters of the last message the list shows. */
export const EXCERPT_MAX = 140;
