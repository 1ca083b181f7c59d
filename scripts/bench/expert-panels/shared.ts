// The expert-panels bench's sizes, budgets and what its child reports (see ../expert-panels.ts).

/** The panels of the page communities: members each, questions per batch. */
export const PANEL_MEMBERS = 10;
export const PER_BATCH = 10;
export const SIZES = [10, Number(process.env.BENCH_EP_QUESTIONS ?? 1_000)] as const;
export const INVITE_MEMBERS = Number(process.env.BENCH_EP_INVITE_MEMBERS ?? 5_000);
export const INVITE_QUESTIONS = 3;
export const PUBLISHED_QUESTIONS = 20;
export const SQL_BUDGET = 5;
export const DELIVERY_TIMEOUT_MS = 300_000;
export const START_TIMEOUT_MS = 600_000;

export type Side = { questions: number; answers: number; openOfMember: number; code: string; probePort: number; loadPort: number; cookie: string; openQuestion: number };
export type Delivery = {
  members: number;
  answerRows: number;
  sendMs: number;
  /** From the send until the invitation job had made every member's notification. */
  toldMs: number | null;
  mailed: number;
  firstToLastMs: number;
  perSecond: number;
  delayMs: { p50: number; p90: number; p99: number; max: number } | null;
  timedOut: boolean;
  linksSigned: number;
};
export type ChildInfo = { sides: Side[]; seedMs: Record<string, number>; delivery: Delivery | { error: string } };
