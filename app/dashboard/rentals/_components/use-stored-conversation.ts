"use client";
// A rental's playground conversation, kept in this browser's localStorage so a reload keeps it.
// The service itself never stores message text; this copy is the renter's, on their machine, and
// "Clear the conversation" deletes it. What is read back is checked with zod: storage is a
// boundary (another tab, an older version of this page, a person with the dev tools).
import { useCallback, useEffect, useState } from "react";
import { z } from "zod";

/** The newest exchanges kept; older ones are dropped first (localStorage holds about 5 MB per site). */
export const STORED_EXCHANGES_MAX = 100;

const storedExchange = z.discriminatedUnion("state", [
  z.object({ id: z.number().int(), message: z.string(), state: z.literal("ok"), reply: z.string(), json: z.boolean(), ms: z.number() }),
  z.object({ id: z.number().int(), message: z.string(), state: z.literal("error"), error: z.string() }),
]);

export type StoredExchange = z.infer<typeof storedExchange>;
export type Exchange = StoredExchange | { id: number; message: string; state: "sending"; startedAt: number };

function read(key: string): Exchange[] {
  try {
    const parsed = z.array(storedExchange).safeParse(JSON.parse(localStorage.getItem(key) ?? "[]"));
    return parsed.success ? parsed.data : [];
  } catch {
    return []; // unreadable JSON, or storage blocked: start empty
  }
}

function write(key: string, log: Exchange[]) {
  const done = log.filter((e): e is StoredExchange => e.state !== "sending").slice(-STORED_EXCHANGES_MAX);
  try {
    if (done.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(done));
  } catch {
    // Storage full or blocked (private mode): the conversation still works, it is just not kept.
  }
}

export function useStoredConversation(key: string) {
  const [log, setLog] = useState<Exchange[]>([]);
  const [loaded, setLoaded] = useState(false);
  // Read after the first render, so the server's HTML and hydration agree.
  useEffect(() => {
    setLog(read(key));
    setLoaded(true);
  }, [key]);
  useEffect(() => {
    if (loaded) write(key, log);
  }, [key, log, loaded]);
  const update = useCallback((change: (log: Exchange[]) => Exchange[]) => setLog(change), []);
  return { log, update };
}
