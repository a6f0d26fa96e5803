// Rental periods (DESIGN: a month is 30 days).
export const DURATION_SECONDS = { hour: 3_600, day: 86_400, month: 30 * 86_400 } as const;
export type DurationType = keyof typeof DURATION_SECONDS;
