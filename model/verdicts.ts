/** A validity verdict, worst last (the runner judges each client's phase; model/aggregate/rules.ts combines them). */
export const VERDICTS = ["valid", "warning", "invalid"] as const;
export type VerdictName = (typeof VERDICTS)[number];
